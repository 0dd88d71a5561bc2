from django.apps import AppConfig


class LegalsimConfig(AppConfig):
    """The project's shared modules as an app: its management commands and its system checks."""

    name = "legalsim"

    def ready(self) -> None:
        from legalsim import checks  # noqa: F401  (registers the checks)
