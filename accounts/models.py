"""What LegalSim keeps about a person beyond Django's user: the interface language they chose."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    language = models.CharField(
        _("interface language"),
        max_length=16,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Blank: the browser's language (Accept-Language)."),
    )

    def __str__(self) -> str:
        return f"{self.user} ({self.language or 'browser'})"
