import logging

from django.apps import AppConfig
from django.db import transaction

logger = logging.getLogger(__name__)


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from scoring.services import scorecards_store
        from trials.store import trial_finished

        def score_after_commit(sender, trial, **kwargs) -> None:
            """Once the finished trial is committed, store the scorecard of each seat a person
            played. A failure is logged, not raised into the driver: the scorecard page
            computes it, without storing it, when it finds none."""

            def store() -> None:
                try:
                    scorecards_store(trial=trial)
                except Exception:
                    logger.exception("scorecards of trial %s could not be stored", trial.pk)

            transaction.on_commit(store)

        trial_finished.connect(score_after_commit, weak=False, dispatch_uid="scoring.scorecards_store")
