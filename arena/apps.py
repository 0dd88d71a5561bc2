from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = _("Arena")
