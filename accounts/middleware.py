"""The interface language of a signed-in person is the one they chose, on every device."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts.services import language_of


class UserLanguageMiddleware:
    """After ``LocaleMiddleware`` (cookie, then ``Accept-Language``) and authentication: a
    person's remembered choice wins. The session caches it, so a page costs no query."""

    SESSION_KEY = "accounts.language"

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = self._chosen(request)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        if language:
            response.headers["Content-Language"] = request.LANGUAGE_CODE
        return response

    def _chosen(self, request: HttpRequest) -> str:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return ""
        if self.SESSION_KEY not in request.session:
            request.session[self.SESSION_KEY] = language_of(user)
        return request.session[self.SESSION_KEY]
