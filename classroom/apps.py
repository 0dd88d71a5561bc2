from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = _("Classroom")

    def ready(self) -> None:
        from classroom.assignments import attempts_submit
        from trials.store import trial_finished

        def submit(sender, trial, **kwargs) -> None:
            """A finished trial submits the course attempts played in it, in the same transaction."""
            attempts_submit(trial=trial)

        trial_finished.connect(submit, weak=False, dispatch_uid="classroom.attempts_submit")
