"""Trajectories: immutable snapshots of finished (or imported) trials that raters read."""

from __future__ import annotations

from django.db import models


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
