"""``{% if study.deadline|passed %}``: whether a moment (a study's deadline) is behind us."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def passed(moment: datetime | None) -> bool:
    return moment is not None and moment <= timezone.now()
