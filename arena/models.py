"""A comparison of configurations: blind pairs of trajectories of one case and seat, and the votes on them."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class Comparison(models.Model):
    """A pairwise study of configurations (models, backends, strategy, supervisor, skill notes),
    rated item by item on a pairwise rubric by its raters and, if run, an LLM judge."""

    name = models.CharField(max_length=200, unique=True)
    rubric = models.ForeignKey("annotation.Rubric", on_delete=models.PROTECT, related_name="comparisons")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="comparisons_owned"
    )
    raters = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="comparisons")
    batch = models.ForeignKey(
        "trials.Batch", null=True, blank=True, on_delete=models.SET_NULL, related_name="comparisons"
    )
    uniform_share = models.FloatField(
        default=0.2,
        validators=[MinValueValidator(0), MaxValueValidator(1)],
        help_text="the share of a rater's pairs drawn uniformly; the rest go where the intervals are widest",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("comparison of configurations")
        verbose_name_plural = _("comparisons of configurations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Configuration(models.Model):
    """One configuration compared: its name (never shown to raters) and what it was run with."""

    comparison = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="configurations")
    name = models.CharField(max_length=300)
    settings = models.JSONField(default=dict, help_text="model, backend, supervised, strategy, skill notes")
    trajectory_ids = models.JSONField(default=list)

    class Meta:
        ordering = ["comparison", "name"]
        constraints = [models.UniqueConstraint(fields=["comparison", "name"], name="one_configuration_name")]

    def __str__(self) -> str:
        return self.name


class Contest(models.Model):
    """Two trajectories of one case and seat from two configurations (stored order: first, second)."""

    comparison = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="contests")
    case_id = models.CharField(max_length=120)
    seat = models.CharField(max_length=32)
    first = models.ForeignKey(Configuration, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Configuration, on_delete=models.CASCADE, related_name="+")
    first_trajectory = models.CharField(max_length=200)
    second_trajectory = models.CharField(max_length=200)

    class Meta:
        ordering = ["comparison", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["comparison", "first_trajectory", "second_trajectory"], name="one_contest_per_pair"
            )
        ]

    def __str__(self) -> str:
        return f"pair #{self.pk}"


class Vote(models.Model):
    """One answer on one item of one contest, in the stored order whatever order was shown."""

    class Outcome(models.TextChoices):
        FIRST = "first", _("first better")
        SECOND = "second", _("second better")
        TIE = "tie", _("tie")
        BOTH_BAD = "both_bad", _("both bad")

    class Source(models.TextChoices):
        HUMAN = "human", _("Human")
        LLM = "llm", _("LLM judge")

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="votes")
    item = models.CharField(max_length=100)
    source = models.CharField(max_length=8, choices=Source.choices)
    rater = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="arena_votes"
    )
    judge = models.CharField(max_length=200, blank=True, help_text="the judge's model (source llm)")
    first_shown_as_a = models.BooleanField(help_text="whether the voter saw the first trajectory as A")
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["contest", "item", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["contest", "item", "rater"],
                condition=models.Q(source="human"),
                name="one_human_vote_per_item",
            ),
            models.UniqueConstraint(
                fields=["contest", "item", "judge", "first_shown_as_a"],
                condition=models.Q(source="llm"),
                name="one_judge_vote_per_item_order",
            ),
        ]
        indexes = [models.Index(fields=["contest", "source"])]

    def __str__(self) -> str:
        return f"{self.voter} on {self.contest} {self.item}: {self.outcome}"

    @property
    def voter(self) -> str:
        return self.judge if self.source == self.Source.LLM else str(self.rater)
