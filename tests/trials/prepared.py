"""Live trials that start at a later stage, as a student finds them once a worker has
played the stages before it (``trials.preparation``)."""

from __future__ import annotations

from tests.celery_mode import celery_eager
from trials.models import Trial
from trials.preparation import trial_prepare
from trials.services import trial_create


def prepared_trial(**kwargs) -> Trial:
    """``trial_create(live=True, **kwargs)``, then what ``trial_prepare_task`` does, in this process
    (with a broker configured and no worker, or in a test transaction that never commits)."""
    with celery_eager(True):
        trial = trial_create(live=True, **kwargs)
    return trial_prepare(trial_id=trial.pk)
