"""One limit on request bodies, for every upload the site accepts now or later.

The browser pages take no files today (exports are written by the server), so the limit is
enforced before any view: a body over ``LEGALSIM_MAX_UPLOAD_MB`` is answered with 413 and a
clear message, and the view never runs, so nothing of it is stored. A reverse proxy in front
should carry the same limit (nginx ``client_max_body_size``) so such bodies never arrive.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}".removesuffix(".0")


class UploadLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.LEGALSIM_MAX_UPLOAD_BYTES
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0
        if size > limit:
            return HttpResponse(
                f"This upload is {_megabytes(size)} MB; the limit is {_megabytes(limit)} MB.",
                status=413,
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)
