import logging

from django.apps import AppConfig
from django.db import transaction

logger = logging.getLogger(__name__)


class TrialsConfig(AppConfig):
    name = "trials"
    verbose_name = "Trials"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from trials.agents.routing import seat_models_check
        from trials.live.fanout import session_ended
        from trials.scoring.services import scorecards_store
        from trials.store import trial_finished

        seat_models_check()

        def close_sockets_of_the_session(sender, request, user, **kwargs) -> None:
            """Signing out closes the trial sockets opened with that session at once."""
            key = request.session.session_key if hasattr(request, "session") else None
            if user is not None and key:
                session_ended(user.pk, key)

        user_logged_out.connect(close_sockets_of_the_session, weak=False, dispatch_uid="trials.session_ended")

        def score_after_commit(sender, trial, **kwargs) -> None:
            """Once the finished trial is committed, store the scorecard of each seat a person
            played. A failure is logged, not raised into the driver: the scorecard page
            scores the trial again when it finds no stored scorecard."""

            def store() -> None:
                try:
                    scorecards_store(trial=trial)
                except Exception:
                    logger.exception("scorecards of trial %s could not be stored", trial.pk)

            transaction.on_commit(store)

        trial_finished.connect(score_after_commit, weak=False, dispatch_uid="trials.scorecards_store")
