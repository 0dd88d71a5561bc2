"""Content-Security-Policy on every response: scripts only from this site's static files (no
inline script anywhere: the pages wire their behaviour from ``static/js``), styles from the
site plus the inline ``<style>`` blocks of self-contained report pages that carry this
request's nonce, images from the site or data URLs, connections (the room's websocket
included) to this origin only, no framing, no plugins, forms posting only here."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def policy(nonce: str) -> str:
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            f"style-src 'self' 'nonce-{nonce}'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "font-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
            "form-action 'self'",
        )
    )


class ContentSecurityPolicyMiddleware:
    """Sets the policy unless the view set its own (Redoc's page, ``api.urls.REDOC_POLICY``;
    Swagger UI's page runs under this one)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.csp_nonce = secrets.token_urlsafe(16)
        response = self.get_response(request)
        if HEADER not in response.headers:
            response.headers[HEADER] = policy(request.csp_nonce)
        return response
