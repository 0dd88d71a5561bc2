"""Celery tasks of the annotation app (eager in-process without REDIS_URL)."""

from __future__ import annotations

from celery import shared_task

from annotation.services import trajectories_judge


@shared_task(bind=True)
def judge_trajectories_task(self, rubric_id: str, model: str, trajectory_ids: list[str]) -> dict:
    """Judge trajectories, reporting progress (``PROGRESS`` with done/total) as it goes."""

    def progress(done: int, total: int) -> None:
        if not self.request.called_directly and not self.request.is_eager:
            self.update_state(state="PROGRESS", meta={"done": done, "total": total})

    report = trajectories_judge(rubric_id=rubric_id, model=model, trajectory_ids=trajectory_ids, progress=progress)
    return {"scored": report.scored, "flagged": report.flagged}
