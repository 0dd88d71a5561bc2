"""Trajectories: immutable snapshots of finished (or imported) trials that raters read."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation.rubric import RubricDefinition, rubric_parse
from annotation.rubric_kind import Pair


class ImmutableError(RuntimeError):
    pass


class Trajectory(models.Model):
    """Stages with turns and artifacts in the trajectory-file contract's shape, frozen."""

    id = models.CharField(primary_key=True, max_length=200)
    case_id = models.CharField(max_length=120, db_index=True)
    procedure = models.CharField(max_length=16)
    language = models.CharField(max_length=8)
    title = models.CharField(max_length=300)
    stages = models.JSONField()
    stage_ids = models.JSONField(
        default=list, editable=False, help_text="the ids of its stages, in order (read from stages when stored)"
    )
    meta = models.JSONField(default=dict)
    trial = models.OneToOneField(
        "trials.Trial", null=True, blank=True, on_delete=models.SET_NULL, related_name="trajectory"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("trajectory")
        verbose_name_plural = _("trajectories")
        ordering = ["id"]

    def __str__(self) -> str:
        return self.id

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ImmutableError(f"trajectory {self.id} is immutable; import a new one instead")
        self.stage_ids = stage_ids_of(self.stages)
        super().save(*args, **kwargs)

    def as_contract(self) -> dict:
        return {
            "id": self.id,
            "case_id": self.case_id,
            "procedure": self.procedure,
            "language": self.language,
            "title": self.title,
            "stages": self.stages,
            "meta": self.meta,
        }


def stage_ids_of(stages: object) -> list[str]:
    """The stage ids of a trajectory's ``stages`` (the trajectory-file contract's list)."""
    if not isinstance(stages, list):
        return []
    return [str(stage["stage"]) for stage in stages if isinstance(stage, dict) and "stage" in stage]


class Rubric(models.Model):
    """A rubric stored as its contract document; ``definition`` parses it."""

    id = models.CharField(primary_key=True, max_length=100)
    title = models.CharField(max_length=300)
    scale_min = models.IntegerField()
    scale_max = models.IntegerField()
    document = models.JSONField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rubric")
        verbose_name_plural = _("rubrics")
        ordering = ["id"]

    def __str__(self) -> str:
        return self.id

    @property
    def definition(self) -> RubricDefinition:
        return rubric_parse(self.document)


class Rating(models.Model):
    """One score of one item of one trajectory by one rater (a person or an LLM judge).

    ``trajectory_id`` is a plain id: imported studies may rate trajectories that exist only
    as ids here. For ``source=llm`` the rater is the judge's model name. ``score`` is null for
    N/A: the item's stage is absent from the trajectory (``annotation.stages``), so there is
    nothing to score and the report leaves it out of every figure. A questionnaire's ratings
    belong to its study, so one rater may rate one trajectory in several studies (test-retest);
    imported ratings and the judge's belong to none.
    """

    class Source(models.TextChoices):
        HUMAN = "human", _("Human")
        LLM = "llm", _("LLM judge")

    rubric = models.ForeignKey(Rubric, on_delete=models.CASCADE, related_name="ratings")
    trajectory_id = models.CharField(max_length=200)
    item = models.CharField(max_length=100)
    rater = models.CharField(max_length=200)
    source = models.CharField(max_length=8, choices=Source.choices)
    score = models.FloatField(null=True, blank=True, help_text="null: not applicable (N/A)")
    reason = models.TextField(blank=True)
    study = models.ForeignKey(
        "Study",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ratings",
        help_text="the study whose questionnaire gave it (none: imported, or the LLM judge's)",
    )
    active_seconds = models.FloatField(
        null=True, blank=True, help_text="rater's active time on the item (questionnaire)"
    )
    imported_from = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["rubric", "trajectory_id", "item", "rater"]
        constraints = [
            models.UniqueConstraint(
                fields=["rubric", "trajectory_id", "item", "rater", "source"],
                condition=models.Q(study__isnull=True),
                name="one_rating_per_rater_item",
            ),
            models.UniqueConstraint(
                fields=["study", "trajectory_id", "item", "rater"],
                condition=models.Q(study__isnull=False),
                name="one_rating_per_study_rater_item",
            ),
        ]
        indexes = [models.Index(fields=["rubric", "source"])]

    def __str__(self) -> str:
        return f"{self.rater} {self.trajectory_id} {self.item}={'NA' if self.not_applicable else self.score}"

    @property
    def not_applicable(self) -> bool:
        return self.score is None


class JudgeFlag(models.Model):
    """A trajectory the LLM judge could not score in the rubric's shape even after a stricter
    regeneration: kept for audit and left out of aggregates (LegalWorld D.3, docs/sources.md)."""

    rubric = models.ForeignKey(Rubric, on_delete=models.CASCADE, related_name="judge_flags")
    trajectory_id = models.CharField(max_length=200)
    model = models.CharField(max_length=200)
    problem = models.TextField()
    reply = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("judge flag")
        verbose_name_plural = _("judge flags")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.model} on {self.trajectory_id}: {self.problem[:60]}"


class Study(models.Model):
    """Trajectories to be rated on a rubric by a pool of raters, each trajectory by k of them."""

    name = models.CharField(max_length=200, unique=True)
    rubric = models.ForeignKey(Rubric, on_delete=models.PROTECT, related_name="studies")
    raters_per_trajectory = models.PositiveSmallIntegerField(default=3)
    trajectory_ids = models.JSONField(default=list)
    raters = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="studies")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="studies_owned",
        help_text="the instructor who set the study up; with those it is shared with (and admins), the only one "
        "who reads its pages and runs its jobs. Blank: made by a command, open to every instructor",
    )
    shared_with = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="studies_shared",
        help_text="instructors the owner shares the study with: they read and run it as the owner does",
    )
    instructions = models.TextField(blank=True, help_text="what raters read before they start")
    deadline = models.DateTimeField(null=True, blank=True)
    gold_min_within1_pct = models.FloatField(
        default=50,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
        help_text="a rater whose share of gold scores within ±1 of the reference is below this (percent) is flagged",
    )
    adjudication_threshold = models.FloatField(
        default=3,
        validators=[MinValueValidator(0)],
        help_text="an item whose raters' scores differ by more than this many points goes to adjudication",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("study")
        verbose_name_plural = _("studies")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A pairwise study's units are pairs FIRST|SECOND of trajectories of one case."""
        from django.core.exceptions import ValidationError

        if not self.rubric_id or not self.rubric.definition.kind.is_pairwise:
            return
        pairs = [Pair.parse(str(unit)) for unit in self.trajectory_ids]
        problems = [str(unit) for unit, pair in zip(self.trajectory_ids, pairs, strict=True) if pair is None]
        if problems:
            raise ValidationError(
                {"trajectory_ids": f"a pairwise rubric rates pairs FIRST|SECOND; not pairs: {', '.join(problems)}"}
            )
        stored = Trajectory.objects.filter(pk__in={tid for pair in pairs for tid in pair.trajectory_ids})
        case_of = dict(stored.values_list("pk", "case_id"))
        mixed = [
            str(pair)
            for pair in pairs
            if pair.first in case_of and pair.second in case_of and case_of[pair.first] != case_of[pair.second]
        ]
        if mixed:
            raise ValidationError(
                {"trajectory_ids": f"both trajectories of a pair must be of one case: {', '.join(mixed)}"}
            )


class Assignment(models.Model):
    """One rater's questionnaire on one trajectory: a draft until submitted, then final."""

    class Status(models.TextChoices):
        ASSIGNED = "assigned", _("Assigned")
        DRAFT = "draft", _("Draft saved")
        SUBMITTED = "submitted", _("Submitted")

    class Kind(models.TextChoices):
        """What the questionnaire is for: a unit of the study, or one of its reference
        trajectories (``annotation.calibration``), whose answers are checked, never ratings."""

        STUDY = "study", _("Study")
        TRAINING = "training", _("Training")
        GOLD = "gold", _("Gold")

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="assignments")
    trajectory_id = models.CharField(max_length=200)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.STUDY)
    rater = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ASSIGNED)
    draft = models.JSONField(default=dict, help_text="item -> {score, reason, active_ms}")
    shown_first = models.CharField(
        max_length=200, blank=True, help_text="pairwise rubrics: the trajectory this rater sees as A (random per rater)"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating assignment")
        verbose_name_plural = _("rating assignments")
        ordering = ["study", "trajectory_id", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["study", "trajectory_id", "rater"], name="one_assignment_per_rater_trajectory"
            )
        ]

    def __str__(self) -> str:
        return f"{self.rater} on {self.trajectory_id} ({self.status})"

    @property
    def label(self) -> str:
        """What the rater is shown: a pair's ids would tell them which trajectory is which."""
        return gettext("pair #%(number)s") % {"number": self.pk} if self.shown_first else self.trajectory_id

    @property
    def pair(self) -> Pair | None:
        """The pair of trajectories a pairwise study's assignment rates (``shown_first`` is
        set: the order drawn for this rater); ``None`` for one trajectory."""
        return Pair.parse(self.trajectory_id) if self.shown_first else None

    @property
    def waits_for_training(self) -> bool:
        """Whether the rater must first submit the training round of this study: every
        assignment but a training one waits until then."""
        if self.kind == self.Kind.TRAINING:
            return False
        training = Assignment.objects.filter(study_id=self.study_id, rater_id=self.rater_id, kind=self.Kind.TRAINING)
        return training.exclude(status=self.Status.SUBMITTED).exists()


class Reference(models.Model):
    """The score a training or gold trajectory of a study deserves on one item, and why
    (``study_gold``). ``score`` is null for N/A: the item's stage is absent from it."""

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="references")
    kind = models.CharField(
        max_length=8, choices=[(kind.value, kind.label) for kind in (Assignment.Kind.TRAINING, Assignment.Kind.GOLD)]
    )
    trajectory_id = models.CharField(max_length=200)
    item = models.CharField(max_length=100)
    score = models.FloatField(null=True, blank=True, help_text="null: not applicable (N/A)")
    reason = models.TextField(blank=True)
    imported_from = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["study", "trajectory_id", "item"]
        constraints = [
            models.UniqueConstraint(fields=["study", "trajectory_id", "item"], name="one_reference_per_study_item")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.trajectory_id} {self.item}={'NA' if self.score is None else self.score}"


class Adjudication(models.Model):
    """An instructor's resolved score of one item of one trajectory of a study on which the
    raters' scores differ by more than the study's ``adjudication_threshold``. The raters'
    own ratings stay as they are; exports and reports carry this score beside them."""

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="adjudications")
    trajectory_id = models.CharField(max_length=200)
    item = models.CharField(max_length=100)
    score = models.FloatField()
    reason = models.TextField()
    adjudicator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="adjudications"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["study", "trajectory_id", "item"]
        constraints = [
            models.UniqueConstraint(fields=["study", "trajectory_id", "item"], name="one_adjudication_per_study_item")
        ]

    def __str__(self) -> str:
        return f"{self.trajectory_id} {self.item}: {self.score:g}"


class Job(models.Model):
    """A long-running piece of annotation work (an LLM judge run, a large export) done by a
    Celery worker; its row is the progress bar and, for exports, the download."""

    class Kind(models.TextChoices):
        JUDGE = "judge", _("LLM judge run")
        AGREEMENT_REPORT = "agreement_report", _("Agreement report")
        RATINGS_EXPORT = "ratings_export", _("Ratings export")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    kind = models.CharField(max_length=32, choices=Kind.choices)
    rubric = models.ForeignKey(Rubric, on_delete=models.CASCADE, related_name="jobs")
    study = models.ForeignKey(Study, null=True, blank=True, on_delete=models.CASCADE, related_name="jobs")
    params = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    result = models.JSONField(default=dict)
    error = models.TextField(blank=True)
    file = models.FileField(upload_to="exports/%Y/%m/", blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def filename(self) -> str:
        return self.file.name.rsplit("/", 1)[-1] if self.file else ""

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0
