"""ASGI entry point: HTTP through Django, websockets through Channels (session auth with the
origin checked against ALLOWED_HOSTS, or token auth: api/websocket.py)."""

from __future__ import annotations

import asyncio
import gc
import os
import sys

from django.core.asgi import get_asgi_application

# Live trials do their database and agent work in worker threads; a shorter GIL switch
# interval (default 5 ms) hands the event loop back sooner, which is what keeps the tail
# latency of streamed tokens low (benchmarks/ws_load.py).
sys.setswitchinterval(0.0005)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from api.websocket import websocket_auth_stack  # noqa: E402
from legalsim.shutdown import exit_after_shutdown  # noqa: E402
from trials.live.driver import take_over_forever  # noqa: E402
from trials.routing import websocket_urlpatterns  # noqa: E402

exit_after_shutdown()


class TakingOverOrphans:
    """Starts, with the first request or connection this process serves (a health check
    will do), the task that takes over live trials whose driver died with its process, so
    no trial waits for a participant to come back (daphne sends no lifespan events)."""

    def __init__(self, app) -> None:
        self.app, self.task = app, None

    async def __call__(self, scope, receive, send):
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(take_over_forever())
        return await self.app(scope, receive, send)


application = TakingOverOrphans(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": websocket_auth_stack(URLRouter(websocket_urlpatterns)),
        }
    )
)

# The collector's pauses were a live room's worst latencies: at a hundred trials per process
# it ran about ten times a second and a full collection stopped the event loop for up to a
# quarter of a second, most of it rescanning the modules loaded at start-up. Those are frozen
# out of its reach, and it runs once per 20,000 new container objects instead of 700
# (benchmarks/ws_load.py: 3.7 s of pauses per process in a 70 s run became 0.25 s).
gc.freeze()
gc.set_threshold(20_000, 20, 50)
