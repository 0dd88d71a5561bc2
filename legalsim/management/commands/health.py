from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from legalsim.health import ERROR, TIMEOUT_S, Check, service_checks, worker_check


class Command(BaseCommand):
    help = (
        "Check that this host reaches the database and Redis (--worker: and that its Celery worker answers "
        "a ping); print each check and exit 1 if any failed. A container's healthcheck runs it."
    )

    # Not the system checks: they import every URL module, which a probe run every 30 s need not pay.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("--worker", action="store_true", help="also ping this host's Celery worker")
        parser.add_argument("--node", default="", help="the worker's node name (default: any named *@<this host name>)")
        parser.add_argument(
            "--timeout", type=float, default=TIMEOUT_S, help=f"seconds to wait for the worker (default {TIMEOUT_S:g})"
        )

    def handle(self, *args, worker: bool, node: str, timeout: float, **options) -> None:
        direct_connection(timeout)
        checks = service_checks()
        if worker:
            # A worker cannot answer through a broker this host does not reach: say that, not a ping timeout.
            checks["worker"] = (
                worker_check(node=node, timeout_s=timeout)
                if checks["redis"].healthy
                else Check(ERROR, "not asked: Redis is unreachable")
            )
        for name, check in checks.items():
            self.stdout.write(f"{name}: {check.status}" + (f" ({check.detail})" if check.detail else ""))
        failed = [name for name, check in checks.items() if not check.healthy]
        if failed:
            raise CommandError(f"unhealthy: {', '.join(failed)}")


def direct_connection(timeout_s: float) -> None:
    """A connection of this process's own instead of psycopg's pool, whose first borrower waits
    up to 20 s for an unreachable server: one probe fails within ``timeout_s``. A process that
    is connected already (a test calling the command) keeps its connection."""
    options = connection.settings_dict.setdefault("OPTIONS", {})
    if connection.vendor == "postgresql" and connection.connection is None:
        options.pop("pool", None)
        options["connect_timeout"] = max(1, round(timeout_s))
