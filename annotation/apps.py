from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnnotationConfig(AppConfig):
    name = "annotation"
    verbose_name = _("Annotation")

    def ready(self) -> None:
        from annotation.services import trajectory_from_trial
        from trials.store import trial_finished

        def freeze(sender, trial, **kwargs) -> None:
            """A finished trial becomes an immutable trajectory, in the transaction that finishes it."""
            trajectory_from_trial(trial=trial)

        trial_finished.connect(freeze, weak=False, dispatch_uid="annotation.trajectory_from_trial")
