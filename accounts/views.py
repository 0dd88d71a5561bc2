"""The language switch in the header."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.middleware import UserLanguageMiddleware
from accounts.services import language_set


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    """Switch the interface to the language posted and go back to the page it was chosen on:
    remembered for a signed-in person, in a cookie for everyone (the sign-in page too)."""
    language = request.POST.get("language", "")
    if language not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest("unknown language")
    if request.user.is_authenticated:
        language_set(user=request.user, language=language)
        request.session[UserLanguageMiddleware.SESSION_KEY] = language
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response
