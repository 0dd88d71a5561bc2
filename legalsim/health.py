"""Health checks for load balancers and container runtimes (docs/operations.md, "Class server
with Docker Compose").

``GET /healthz`` answers 200 with ``{"status": "ok", "database": "ok", "redis": "ok"}`` when
this process reaches its database and Redis ("not configured" without ``REDIS_URL``), and 503
naming what failed. ``HealthCheckMiddleware`` answers it first in the middleware list, before
the https redirect, the ``ALLOWED_HOSTS`` check, sessions and CSRF: a container's probe calls
``http://127.0.0.1:8000/healthz`` on plain http with whatever Host it has, and sets no cookie.
The page says which dependency failed, never why (a database error names hosts and users);
the reason goes to the log, and ``manage.py health`` prints it to the operator.

On a worker host, ``manage.py health --worker`` adds a Celery ping of this host's worker.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

HEALTH_PATH = "/healthz"
OK, NOT_CONFIGURED, ERROR = "ok", "not configured", "error"
TIMEOUT_S = 2.0
"""How long one check waits for Redis or a worker's answer."""

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Check:
    status: str
    detail: str = ""

    @property
    def healthy(self) -> bool:
        return self.status != ERROR


def database_check() -> Check:
    """One round trip on this process's own connection (the pool's, with PostgreSQL)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # any driver or pool error means the same: no database
        return Check(ERROR, f"{type(error).__name__}: {error}")
    return Check(OK)


def redis_check(timeout_s: float = TIMEOUT_S) -> Check:
    """A PING to ``REDIS_URL`` (channel layer, Celery broker and cache alike)."""
    if not settings.REDIS_URL:
        return Check(NOT_CONFIGURED)
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=timeout_s, socket_timeout=timeout_s)
    try:
        client.ping()
    except redis.RedisError as error:
        return Check(ERROR, f"{type(error).__name__}: {error}")
    finally:
        client.close()
    return Check(OK)


def worker_check(*, node: str = "", timeout_s: float = TIMEOUT_S) -> Check:
    """Whether a Celery worker on this host answers a ping within ``timeout_s``: the one named
    ``node`` when given, else any whose name ends in ``@<this host name>`` (Celery's default
    name is ``celery@<host name>``, and a container's host name is its own)."""
    if not settings.REDIS_URL:
        return Check(ERROR, "REDIS_URL is not set: tasks run in the process that sends them, no worker has a broker")
    from legalsim.celery import app

    try:
        replies = app.control.ping(destination=[node] if node else None, timeout=timeout_s)
    except Exception as error:  # kombu's connection errors vary by transport
        return Check(ERROR, f"{type(error).__name__}: {error}")
    names = sorted(name for reply in replies for name in reply)
    host = f"@{socket.gethostname()}"
    answered = [name for name in names if name == node or (not node and name.endswith(host))]
    if answered:
        return Check(OK, ", ".join(answered))
    wanted = node or f"a worker named *{host}"
    heard = ", ".join(names) or "none"
    return Check(ERROR, f"{wanted} did not answer within {timeout_s:g} s (workers that answered: {heard})")


def service_checks() -> dict[str, Check]:
    """What every process needs: the database and Redis."""
    return {"database": database_check(), "redis": redis_check()}


def health_response() -> JsonResponse:
    checks = service_checks()
    healthy = all(check.healthy for check in checks.values())
    for name, check in checks.items():
        if not check.healthy:
            logger.warning("health check: %s failed: %s", name, check.detail)
    body = {"status": OK if healthy else ERROR} | {name: check.status for name, check in checks.items()}
    response = JsonResponse(body, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    return response


class HealthCheckMiddleware:
    """Answers ``GET``/``HEAD /healthz``; first in ``MIDDLEWARE``, so no other middleware runs
    for it (no redirect, host check, session, CSRF or language)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != HEALTH_PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            response = HttpResponse(status=405)
            response["Allow"] = "GET, HEAD"
            return response
        return health_response()
