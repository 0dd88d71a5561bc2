"""Throttling of password guesses, per username and per client address, in Django's cache.

Every failed password check counts: ``authenticate()`` failures (the login page, the admin's
login, any API that authenticates by password) through Django's ``user_login_failed`` signal,
and a wrong old password on the password-change form. Once a username or an address reaches
its limit within the window, its attempts are refused, even with the right password, until
the window that began with its first failure has passed. The forms say so with the wait in
minutes; ``ThrottledModelBackend`` refuses the same attempts for every other caller of
``authenticate()``. The counters live in the default cache, so several processes must share
one (Redis, see settings.CACHES).

The address is ``client_address``: behind ``LEGALSIM_TRUSTED_PROXIES`` reverse proxies it is
the entry the outermost trusted proxy appended to X-Forwarded-For, counted from the right
(DRF's ``NUM_PROXIES`` rule, which the API's own throttle uses with the same count); what the
client wrote to the left of it is ignored, so rotating or forging entries changes nothing.

An account hammered from many addresses is locked by its own counter. Its owner recovers by
waiting: the lock lifts when the window (``LEGALSIM_LOGIN_WINDOW_MIN``, 15 minutes) that began
with the first failure has passed; someone who keeps guessing can keep the account locked
for as long as they keep guessing, the usual price of a per-account limit.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.contrib.auth.signals import user_login_failed
from django.contrib.auth.views import PasswordChangeView
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils.translation import ngettext

from legalsim.text_input import TextCheckedForm


def client_address(request: HttpRequest) -> str:
    """The address of whoever sent ``request``, as the trusted proxies saw it.

    With no trusted proxy (``LEGALSIM_TRUSTED_PROXIES=0``, the default), REMOTE_ADDR. Behind
    N of them, each appending the address it received the request from (nginx's
    ``$proxy_add_x_forwarded_for``), the N-th X-Forwarded-For entry from the right; with fewer
    entries than N, the left-most one. The same rule as DRF's ``get_ident`` with NUM_PROXIES.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.LEGALSIM_TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if not proxies or not forwarded.strip():
        return remote
    entries = forwarded.split(",")
    return entries[-min(proxies, len(entries))].strip() or remote


def _keys(request: HttpRequest | None, username: str) -> list[tuple[str, int]]:
    """(cache key, limit) for the username (the account) and for the client address."""
    keys = []
    if username:
        digest = hashlib.sha256(username.strip().lower().encode("utf-8", "surrogatepass")).hexdigest()[:32]
        keys.append((f"login-failures:user:{digest}", settings.LEGALSIM_LOGIN_MAX_FAILURES))
    address = client_address(request) if request is not None else ""
    if address:
        keys.append((f"login-failures:ip:{address}", settings.LEGALSIM_LOGIN_MAX_FAILURES_PER_IP))
    return keys


def failure_record(request: HttpRequest | None, username: str) -> None:
    """Count one failed password check; the window starts with the first failure."""
    window = settings.LEGALSIM_LOGIN_WINDOW_S
    for key, _ in _keys(request, username):
        cache.add(f"{key}:since", time.time(), timeout=window)
        cache.add(key, 0, timeout=window)
        try:
            cache.incr(key)
        except ValueError:  # the window closed between add and incr
            cache.set(key, 1, timeout=window)


def lockout_seconds(request: HttpRequest | None, username: str) -> int:
    """How long ``username`` from this address must wait before trying again (0: not locked)."""
    wait = 0.0
    for key, limit in _keys(request, username):
        if (cache.get(key) or 0) >= limit:
            since = cache.get(f"{key}:since") or time.time()
            wait = max(wait, since + settings.LEGALSIM_LOGIN_WINDOW_S - time.time(), 1.0)
    return math.ceil(wait)


def failures_clear(username: str) -> None:
    """Forget a username's failures after a successful login (the address keeps its count)."""
    for key, _ in _keys(None, username):
        cache.delete_many([key, f"{key}:since"])


def lockout_error(seconds: int) -> forms.ValidationError:
    minutes = max(1, math.ceil(seconds / 60))
    message = ngettext(
        "Too many failed attempts. Try again in %(minutes)d minute.",
        "Too many failed attempts. Try again in %(minutes)d minutes.",
        minutes,
    )
    return forms.ValidationError(message, code="throttled", params={"minutes": minutes})


@receiver(user_login_failed, dispatch_uid="legalsim-login-throttle")
def _on_login_failed(sender: Any, credentials: dict, request: HttpRequest | None = None, **kwargs: Any) -> None:
    if request is not None and getattr(request, "_legalsim_throttled", False):
        return  # a refused attempt does not extend the lockout
    failure_record(request, credentials.get("username", ""))


class ThrottledModelBackend(ModelBackend):
    """Django's backend, refusing a locked-out attempt before it checks any password.

    Loading it (Django does so before the first authentication) also connects the receiver above.
    """

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is not None and lockout_seconds(request, username or kwargs.get("username", "")):
            request._legalsim_throttled = True
            raise PermissionDenied("too many failed attempts")
        return super().authenticate(request, username=username, password=password, **kwargs)


class ThrottledAuthenticationForm(TextCheckedForm, AuthenticationForm):
    """The login form, which names the wait instead of "didn't match" while locked out."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        wait = lockout_seconds(self.request, username)
        if wait:
            raise lockout_error(wait)
        cleaned = super().clean()
        failures_clear(username)
        return cleaned


class ThrottledPasswordChangeForm(TextCheckedForm, PasswordChangeForm):
    """Guessing the old password on the change form counts like a failed login."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        username = self.user.get_username()
        wait = lockout_seconds(self.request, username)
        if wait:
            raise lockout_error(wait)
        try:
            return super().clean_old_password()
        except forms.ValidationError:
            failure_record(self.request, username)
            raise


class ThrottledPasswordChangeView(PasswordChangeView):
    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return super().get_form_kwargs() | {"request": self.request}
