"""Trajectories: immutable snapshots of finished (or imported) trials that raters read."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation.rubric import RubricDefinition, rubric_parse


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
    meta = models.JSONField(default=dict)
    trial = models.OneToOneField(
        "trials.Trial", null=True, blank=True, on_delete=models.SET_NULL, related_name="trajectory"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "trajectories"

    def __str__(self) -> str:
        return self.id

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ImmutableError(f"trajectory {self.id} is immutable; import a new one instead")
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


class Rubric(models.Model):
    """A rubric stored as its contract document; ``definition`` parses it."""

    id = models.CharField(primary_key=True, max_length=100)
    title = models.CharField(max_length=300)
    scale_min = models.IntegerField()
    scale_max = models.IntegerField()
    document = models.JSONField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.id

    @property
    def definition(self) -> RubricDefinition:
        return rubric_parse(self.document)


class Rating(models.Model):
    """One score of one item of one trajectory by one rater (a person or an LLM judge).

    ``trajectory_id`` is a plain id: imported studies may rate trajectories that exist only
    as ids here. For ``source=llm`` the rater is the judge's model name.
    """

    class Source(models.TextChoices):
        HUMAN = "human", _("Human")
        LLM = "llm", _("LLM judge")

    rubric = models.ForeignKey(Rubric, on_delete=models.CASCADE, related_name="ratings")
    trajectory_id = models.CharField(max_length=200)
    item = models.CharField(max_length=100)
    rater = models.CharField(max_length=200)
    source = models.CharField(max_length=8, choices=Source.choices)
    score = models.FloatField()
    reason = models.TextField(blank=True)
    active_seconds = models.FloatField(
        null=True, blank=True, help_text="rater's active time on the item (questionnaire)"
    )
    imported_from = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rubric", "trajectory_id", "item", "rater"]
        constraints = [
            models.UniqueConstraint(
                fields=["rubric", "trajectory_id", "item", "rater", "source"], name="one_rating_per_rater_item"
            )
        ]
        indexes = [models.Index(fields=["rubric", "source"])]

    def __str__(self) -> str:
        return f"{self.rater} {self.trajectory_id} {self.item}={self.score}"


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
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "studies"

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A pairwise study's units are pairs FIRST|SECOND of trajectories of one case."""
        from django.core.exceptions import ValidationError

        from annotation.rubric import pair_split

        if not self.rubric_id or not self.rubric.definition.pairwise:
            return
        problems = [unit for unit in self.trajectory_ids if pair_split(str(unit)) is None]
        if problems:
            raise ValidationError(
                {
                    "trajectory_ids": f"a pairwise rubric rates pairs FIRST|SECOND; not pairs: {', '.join(map(str, problems))}"
                }
            )
        pairs = [pair_split(unit) for unit in self.trajectory_ids]
        stored = Trajectory.objects.filter(pk__in={tid for pair in pairs for tid in pair})
        case_of = dict(stored.values_list("pk", "case_id"))
        mixed = [
            f"{first}|{second}"
            for first, second in pairs
            if first in case_of and second in case_of and case_of[first] != case_of[second]
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

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="assignments")
    trajectory_id = models.CharField(max_length=200)
    rater = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ASSIGNED)
    draft = models.JSONField(default=dict, help_text="item -> {score, reason, active_ms}")
    shown_first = models.CharField(
        max_length=200, blank=True, help_text="pairwise rubrics: the trajectory this rater sees as A (random per rater)"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
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
