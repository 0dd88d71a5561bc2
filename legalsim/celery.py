"""Celery application. With ``REDIS_URL`` unset, tasks run eagerly in-process."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")

app = Celery("legalsim")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
