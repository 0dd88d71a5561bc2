"""System checks of the deployment that Django's own do not make (``manage.py check``; run by
``migrate`` too, so ``dev.py up`` prints them).

Trusted proxies served around (issue #44 item 15): with ``LEGALSIM_TRUSTED_PROXIES`` = N the
client's address is the N-th ``X-Forwarded-For`` entry from the right, the one the proxy
appends. A client that reaches the web process directly, not through the proxy, writes that
entry itself: it chooses the address the login throttle counts (and locks out someone else).
The process cannot see its own listening socket from here (daphne runs no checks), so the check
reads what says where it is reached: ``LEGALSIM_WEB_BIND`` (docker-compose.yml's published
address; ``dev.py up`` sets it to ``--host``) and ``ALLOWED_HOSTS`` (``*`` or an IP address
that is not loopback: clients name the machine itself, not the proxy's site)."""

from __future__ import annotations

import ipaddress
import os

from django.conf import settings
from django.core.checks import CheckMessage, Tags, register
from django.core.checks import Warning as CheckWarning

LOOPBACK_NAMES = ("localhost",)


def _reached_directly(address: str) -> bool:
    """Whether clients of other machines reach ``address`` (an address to bind to, or a Host)."""
    address = address.strip().strip("[]")
    if address in ("", *LOOPBACK_NAMES):
        return False
    if address == "*":
        return True
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False  # a site's name: what the proxy serves


def served_directly() -> list[str]:
    """What says this process is reached without the proxy: each a phrase for the warning."""
    bind = os.environ.get("LEGALSIM_WEB_BIND", "")
    found = [f"LEGALSIM_WEB_BIND={bind}"] if _reached_directly(bind) else []
    hosts = [host for host in settings.ALLOWED_HOSTS if _reached_directly(host)]
    if hosts:
        found.append(f"ALLOWED_HOSTS holds {', '.join(hosts)}")
    return found


@register(Tags.security)
def trusted_proxies_served_around(app_configs, **kwargs) -> list[CheckMessage]:
    proxies = settings.LEGALSIM_TRUSTED_PROXIES
    found = served_directly() if proxies else []
    if not found:
        return []
    return [
        CheckWarning(
            f"LEGALSIM_TRUSTED_PROXIES={proxies} takes the client's address from X-Forwarded-For, but this "
            f"process is reached directly ({'; '.join(found)}): a client that bypasses the proxy writes that "
            "header itself and chooses the address the login throttle counts.",
            hint="Bind the web process to 127.0.0.1 behind the proxy (deploy/nginx.conf), or set "
            "LEGALSIM_TRUSTED_PROXIES=0 when no proxy is in front (docs/security.md).",
            id="legalsim.W001",
        )
    ]
