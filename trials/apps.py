from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TrialsConfig(AppConfig):
    name = "trials"
    verbose_name = _("Trials")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from agents.routing import seat_models_check
        from trials.live.fanout import session_ended

        seat_models_check()

        def close_sockets_of_the_session(sender, request, user, **kwargs) -> None:
            """Signing out closes the trial sockets opened with that session at once."""
            key = request.session.session_key if hasattr(request, "session") else None
            if user is not None and key:
                session_ended(user.pk, key)

        user_logged_out.connect(close_sockets_of_the_session, weak=False, dispatch_uid="trials.session_ended")
