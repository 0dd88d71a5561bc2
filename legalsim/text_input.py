"""One rule for the text people send: no NUL character and no unpaired surrogate, anywhere.

PostgreSQL cannot store U+0000 in text (``DataError``: "unsupported Unicode escape sequence"),
and a lone surrogate (U+D800 to U+DFFF) is not text at all: encoding it as UTF-8 fails on
every database, in every template and in every JSON reply. SQLite stores both, so a site that
works in development would answer 500 in production; the rule refuses them on both.

``text_problem`` is the rule. It is applied

- to every HTTP request, by ``TextInputMiddleware`` (below): the path, the query string, the
  fields of a form body (names and values) and uploaded files' names;
- to JSON bodies of the REST API by DRF itself, whose ``CharField`` refuses both (400 with
  the field's name); the JSON files people upload by ``legalsim.json_input`` (same rule);
- to every websocket message of a trial room, by ``trials.protocol.client_message_parse``
  (``bad_message``).

Why a middleware and not a form field base: most views read ``request.POST`` and
``request.GET`` directly (invitations, enrolment, gradebook feedback, the questionnaire's
``reason__ITEM`` fields, authoring, ``?q=``, ``?scorer=`` ...), and a path such as
``/cases/a%00b/`` reaches a database lookup before any form exists. A field base would cover
the few Django forms and leave the rest, and every new view would have to remember it; a gate
in front of every view cannot be forgotten. Where a view does have a Django form, the message
belongs beside the field: such a view is marked with ``form_checks_text(view, form)`` and its
form mixes in ``TextCheckedForm``; the gate then leaves that form's fields to the form (it
still checks the path, the query and every other field), and the form puts the rule's
message beside each field that breaks it.
Everywhere else the refusal is a 400 naming each field. Browsers never send these characters
from typed text (a lone surrogate leaves the browser as U+FFFD; NUL only when pasted), so only
crafted requests or pasted binary junk meet that page. A query string or multipart body
declared in an exotic charset (``charset=unicode_escape``) decodes to either character too;
the rule looks at the decoded text, so it covers those as well.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.deconstruct import deconstructible
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext

FORBIDDEN = re.compile("[\x00\ud800-\udfff]")
"""NUL, or a surrogate code point: in a Python string every surrogate is an unpaired one
(JSON's ``\\ud83d\\ude00`` pair decodes to one astral character)."""
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def text_problem(value: str) -> str | None:
    """What is wrong with ``value`` under the rule (a sentence), or None when it is fine."""
    match = FORBIDDEN.search(value)
    if match is None:
        return None
    if match.group() == "\x00":
        return gettext("contains a NUL character (U+0000), which is not allowed in text")
    return gettext("contains an unpaired surrogate (U+%(code)04X), which is not text") % {"code": ord(match.group())}


def json_problem(value: Any) -> str | None:
    """The first string or key of a decoded JSON value that breaks the rule, as ``where: why``."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return f"{where or 'value'}: {problem}"
        elif isinstance(item, dict):
            for key, inner in item.items():
                name = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and text_problem(key):
                    return f"{printable(name)}: {text_problem(key)}"
                stack.append((printable(name), inner))
        elif isinstance(item, list):
            stack.extend((f"{where}[{index}]", inner) for index, inner in enumerate(item))
    return None


def printable(text: str) -> str:
    """``text`` safe to show on one line: control characters and surrogates as escapes."""
    return _UNPRINTABLE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


@deconstructible
class TextValidator:
    """The rule as a Django validator, for model and form fields that want it explicitly."""

    code = "forbidden_character"

    def __call__(self, value: Any) -> None:
        if isinstance(value, str):
            problem = text_problem(value)
            if problem:
                raise ValidationError(gettext("This field %(problem)s.") % {"problem": problem}, code=self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TextValidator)


class TextCheckedForm:
    """A Django form mix-in: the rule's message beside every field whose submitted value
    breaks it, before the field's own cleaning runs (a ``ModelChoiceField`` would look the
    value up in the database first). The form shows such a value back with U+FFFD in place of
    each forbidden character: a lone surrogate cannot even be written into the page. Mix it in
    first: ``class F(TextCheckedForm, forms.Form)``."""

    fields: dict[str, Any]
    data: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        problems: dict[str, str] = {}
        if getattr(self, "is_bound", False) and hasattr(self.data, "getlist"):
            data = self.data.copy()
            for name in self.fields:
                key = self.add_prefix(name)  # type: ignore[attr-defined]
                values = data.getlist(key)
                problem = next(filter(None, (text_problem(v) for v in values if isinstance(v, str))), None)
                if problem:
                    problems[name] = problem
                    data.setlist(key, [FORBIDDEN.sub("\ufffd", v) if isinstance(v, str) else v for v in values])
            self.data = data
        for name, field in self.fields.items():  # the form's own deep copies: the class is untouched
            if name in problems:
                field.clean = _refuse(problems[name])


def _refuse(problem: str) -> Callable[..., Any]:
    def refuse(*args: Any) -> Any:
        raise ValidationError(gettext("This field %(problem)s.") % {"problem": problem}, code=TextValidator.code)

    return refuse


def form_checks_text(view: Callable[..., HttpResponse], form: type) -> Callable[..., HttpResponse]:
    """Marks a view whose ``form`` (a ``TextCheckedForm``) puts the rule's message beside its
    fields: the gate leaves those fields to it and checks every other part of the request."""
    view.form_checks_text = frozenset(form.base_fields)  # type: ignore[attr-defined]
    return view


Problems = list[tuple[str | None, str]]
"""(field name, or None for the address; what is wrong)."""


def request_problems(request: HttpRequest, *, form_fields: frozenset[str] = frozenset()) -> Problems:
    """Every part of ``request`` that breaks the rule: its path, its query string, its form
    fields (but ``form_fields``, which a form checks) and its files' names. A JSON body is
    DRF's to check."""
    problems: Problems = []
    problem = text_problem(request.path_info)
    if problem:
        problems.append((None, problem))
    problems += _pairs_problems(request.GET.lists())
    content_type = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    if request.method == "POST" and content_type in FORM_TYPES:
        problems += _pairs_problems((name, values) for name, values in request.POST.lists() if name not in form_fields)
        for name, files in request.FILES.lists():
            for upload in files:
                problem = text_problem(name) or text_problem(upload.name or "")
                if problem:
                    problems.append((printable(name), problem))
    return problems


def _pairs_problems(pairs: Iterable[tuple[str, list[str]]]) -> Problems:
    problems = []
    for name, values in pairs:
        problem = text_problem(name) or next(filter(None, map(text_problem, values)), None)
        if problem:
            problems.append((printable(name), problem))
    return problems


class TextInputMiddleware:
    """Refuses (400) a request whose path, query or form fields break the rule, before any
    view or database lookup sees it; cookies and an ``Authorization`` header that break it
    are dropped (treated as absent), so a forged session cookie or token cannot reach the
    database either.

    Sits after the upload limit (a huge body is refused before it is parsed) and before the
    session middleware, so its ``process_view`` runs before every other one (CSRF's reads the
    body too). A refused API request (``/api/``) gets DRF's shape, ``{"detail", field:
    [message]}``; any other a short page naming each field and what is wrong. The fields of
    the form of a view marked ``form_checks_text`` are left to that form.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        bad_cookies = [name for name, value in request.COOKIES.items() if text_problem(name) or text_problem(value)]
        if bad_cookies:
            request.COOKIES = {name: value for name, value in request.COOKIES.items() if name not in bad_cookies}
        if text_problem(request.META.get("HTTP_AUTHORIZATION", "")):
            del request.META["HTTP_AUTHORIZATION"]  # a token holding NUL is no token (401), not a lookup
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., HttpResponse], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        # In the visitor's language: LocaleMiddleware has activated it by now.
        problems = request_problems(request, form_fields=getattr(view, "form_checks_text", frozenset()))
        return refusal(request, problems) if problems else None


def refusal(request: HttpRequest, problems: Problems) -> HttpResponse:
    title = gettext("Some of what you sent is not text this site can store.")
    if request.path_info.startswith("/api/"):
        fields = {name or "path": [gettext("This field %(problem)s.") % {"problem": why}] for name, why in problems}
        return HttpResponse(json.dumps({"detail": title} | fields), status=400, content_type="application/json")
    sentences = [
        gettext("The address %(problem)s.") % {"problem": why}
        if name is None
        else gettext("The field “%(name)s” %(problem)s.") % {"name": name, "problem": why}
        for name, why in problems
    ]
    page = format_html(
        '<!doctype html><html lang="{}"><meta charset="utf-8"><title>{}</title>'
        "<main><h1>{}</h1><ul>{}</ul><p>{}</p></main></html>",
        translation.get_language(),
        gettext("Bad request"),
        title,
        format_html_join("", "<li>{}</li>", ((sentence,) for sentence in sentences)),
        gettext("Go back, remove these characters and send it again."),
    )
    return HttpResponse(page, status=400, content_type="text/html; charset=utf-8")
