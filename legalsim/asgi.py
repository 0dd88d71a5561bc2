"""ASGI entry point: HTTP through Django; websocket routes join here with the live room."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")

application = get_asgi_application()
