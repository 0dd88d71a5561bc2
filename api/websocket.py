"""Token authentication for the trial room's websocket (session or token auth; docs/api.md).

A script sends ``Authorization: Token KEY`` or ``?token=KEY``. The origin check exists
against cross-site pages riding on a browser's cookies, so it applies to cookie connections
only: a handshake that carries a token is authenticated by that token alone (an unknown
token is anonymous, never the cookie's user), and may come without an ``Origin`` header.

A frame or message over daphne's limit (``--websocket-max-message-size``, 1 MiB) is refused
with a close frame, 1009 "message too big" and the limit as its reason
(``daphne_closes_with_a_code``), not by dropping the connection without one.

The site's text rule (``legalsim.text_input``) holds here too: a token or a cookie holding NUL
or a lone surrogate is treated as absent, before any database lookup (PostgreSQL would raise).
"""

from __future__ import annotations

import sys
from urllib.parse import parse_qs

from channels.auth import AuthMiddleware
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from rest_framework.authtoken.models import Token

from legalsim.text_input import text_problem


def token_key_of(scope: dict) -> str | None:
    """The token a handshake carries (header first, then query string), or None."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"authorization":
            keyword, _, key = value.decode("latin-1").partition(" ")
            if keyword.lower() == "token":
                return key.strip()
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return (query.get("token") or [None])[0]


@database_sync_to_async
def user_for_token(key: str) -> AbstractBaseUser | AnonymousUser:
    if text_problem(key):
        return AnonymousUser()
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return AnonymousUser()
    return token.user


class TokenAuthMiddleware(BaseMiddleware):
    """Inside the session stack: a token, when given, decides ``scope["user"]``."""

    async def __call__(self, scope, receive, send):
        key = token_key_of(scope)
        if key is not None:
            scope = dict(scope, user=await user_for_token(key))
        return await super().__call__(scope, receive, send)


class ForbiddenTextCookiesDropped(BaseMiddleware):
    """Between cookie parsing and the session: a cookie that breaks the text rule is ignored,
    as ``TextInputMiddleware`` ignores it for HTTP requests."""

    async def __call__(self, scope, receive, send):
        cookies = scope.get("cookies", {})
        kept = {name: value for name, value in cookies.items() if not (text_problem(name) or text_problem(value))}
        if len(kept) != len(cookies):
            scope = dict(scope, cookies=kept)
        return await super().__call__(scope, receive, send)


class OriginCheckedUnlessToken:
    """Channels' allowed-hosts origin check for cookie connections; token connections pass."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.checked = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope, receive, send):
        if token_key_of(scope) is not None:
            return await self.inner(scope, receive, send)
        return await self.checked(scope, receive, send)


def daphne_closes_with_a_code() -> None:
    """In a daphne process (its server imported before the application): daphne's websocket
    factory fails a connection with a close frame, code and reason (1009 and the payload limit
    for a message too big, 1002 for a protocol error), where autobahn's default drops the TCP
    connection and the client sees 1006. Outside daphne nothing is imported: importing
    ``daphne.server`` installs Twisted's reactor."""
    server = sys.modules.get("daphne.server")
    if server is None or hasattr(server.WebSocketFactory, "closes_with_a_code"):
        return

    class WebSocketFactory(server.WebSocketFactory):
        closes_with_a_code = True

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.setProtocolOptions(failByDrop=False)

    server.WebSocketFactory = WebSocketFactory


def websocket_auth_stack(inner):
    """Origin check (cookie connections), session auth, then token auth, around ``inner``
    (channels' ``AuthMiddlewareStack`` with the cookie check inside); in a daphne process, its
    sockets closed with a code when they fail (``daphne_closes_with_a_code``)."""
    daphne_closes_with_a_code()
    session = SessionMiddleware(AuthMiddleware(TokenAuthMiddleware(inner)))
    return OriginCheckedUnlessToken(CookieMiddleware(ForbiddenTextCookiesDropped(session)))
