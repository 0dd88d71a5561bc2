"""What the scoring app stores: a seat's scorecard. The table kept the name it had when the
model lived in ``trials`` (``trials_trialscore``): the move changed no row."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from trials.models import Trial


class TrialScore(models.Model):
    """A seat's scorecard by one scorer (``scoring``): for counsel LongJud-Bench's
    capabilities, judgment alignment, interaction quality, criminal prediction and every item
    with its inputs, as the ``score_trials`` export writes them; for the judge and the parties
    the role rubric's dimensions (``scoring.roles``). ``score_trials`` scores the
    target seat; a finished trial stores one for every seat a person played."""

    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="scores")
    scorer = models.CharField(max_length=200, help_text="rule-based, or llm:MODEL")
    seat = models.CharField(max_length=32, help_text="the seat scored (the target lawyer's for score_trials)")
    subject = models.CharField(max_length=8, help_text="human or agent: who played the seat")
    subject_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="trial_scores"
    )
    target_model = models.CharField(max_length=200, help_text="the target seat's holder: human:USERNAME or agent:MODEL")
    overall = models.FloatField(null=True, help_text="mean of the available capabilities (halves averaged), 0-1")
    """Stored in [0,1] as LegalWorld's Table 3 writes capabilities; pages show it out of 10."""
    result = models.JSONField()
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "trials_trialscore"
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["trial", "scorer", "seat"], name="one_score_per_trial_seat_and_scorer")
        ]

    def __str__(self) -> str:
        return f"{self.trial_id} {self.seat} scored by {self.scorer}"
