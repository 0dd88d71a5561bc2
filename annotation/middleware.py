"""The web pages' one answer to a refused study rule, as ``api.exceptions`` is the API's."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html

from annotation.numbers import NumberError
from annotation.studies import StudyError


class StudyErrorMiddleware:
    """A ``StudyError`` that leaves a view (a draft saved after submission, say) is answered
    409 Conflict with its message, never a 500: an htmx request gets the message swapped
    into the element it targets (which keeps its id), a page request a page saying it. A
    ``NumberError`` (a posted number that is not one) is answered the same way, 400."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, StudyError | NumberError):
            return None
        status = 400 if isinstance(exception, NumberError) else 409
        if getattr(request, "htmx", False):
            fragment = format_html('<span class="error small" role="alert">{}</span>', str(exception))
            return HttpResponse(fragment, status=status, headers={"HX-Reswap": "innerHTML"})
        return render(request, "annotation/refused.html", {"message": str(exception)}, status=status)
