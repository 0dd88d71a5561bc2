"""NUL and lone surrogates in every form field of every page, as every persona: never a 5xx,
and nothing of them stored (issue #31, second pass). Runs on PostgreSQL when DATABASE_URL
points there (where NUL used to give 500s) and on SQLite otherwise.

For each persona of the permission walk (``test_permissions.WHO``) and each route it may use
(``expected(route, who) == OK``), the crawler

- GETs the page and reads its forms with ``html.parser``: every named field with the value the
  page gives it (file inputs aside: what they send is a file, not text). Each field in turn is sent poisoned, the others as the page filled them, so a
  request is refused for that field alone, never for a neighbour;
- for a route that takes a POST without a page of its own, sends each field the view reads
  (``VIEW_FIELDS``, plus the route's own data) poisoned the same way; an API route gets them
  as a JSON body.

NUL goes as the browser would send it; a lone surrogate cannot be encoded in UTF-8, so it
goes as a crafted client sends it: a multipart body or a query declared
``charset=unicode_escape`` (``test_text_input``). At the end every text and JSON column of
every model is read back: none may hold NUL or a surrogate (SQLite would store both).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import models
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from classroom.models import RosterJob
from legalsim.roles import Ability
from legalsim.text_input import json_problem, text_problem
from tests.legalsim.permission_routes import ADMIN_SAMPLES, ROUTES, Route, World, project_routes
from tests.legalsim.test_permissions import OK, WHO, expected
from tests.legalsim.test_permissions import world as world
from tests.legalsim.test_text_input import CRAFTED, FORM_CRAFTED, form_body, query
from trials.caselibrary.simcourt_format import SIMCOURT_FILE
from trials.models import Case

pytestmark = pytest.mark.timeout(300)
POISONS = {"nul": "x\x00y", "surrogate": "\udc80z"}
VIEW_FIELDS: dict[str, tuple[str, ...]] = {
    "logout": ("next",),
    "accounts:language_choose": ("language", "next"),
    "trials:trial_play": ("stage", "seats", "target_side", "confirm"),
    "trials:trial_join": ("seat",),
    "trials:trial_leave": ("seat",),
    "trials:trial_invite": ("seat", "username"),
    "trials:skill_note_delete": ("confirm",),
    "trials:case_upload": ("replace",),
    "classroom:course_enrol": ("usernames", "as_student_anyway"),
    "classroom:course_roster": ("as_student_anyway",),
    "classroom:course_invite_code": ("code",),
    "classroom:course_instructor_add": ("username",),
    "classroom:assignment_create": (
        "case",
        "title",
        "seats",
        "stages",
        "opens_at",
        "due_at",
        "attempts",
        "language",
        "paired",
        "no_checklist",
        "document",
        "excerpt",
        "term",
    ),
    "classroom:assignment_pairs": ("first", "second"),
    "classroom:gradebook_attempt": ("attempt", "student"),
    "classroom:grade_save": ("grade", "feedback", "withhold"),
    "classroom:comment_add": ("seq", "text"),
    "classroom:comment_reply": ("text",),
    "classroom:assignment_extension": ("student", "due_at"),
    "classroom:grades_release": ("confirm",),
    "classroom:assignment_start": ("confirm",),
    "annotation:course_practice_trials": ("allowed",),
    "annotation:assignment_next": ("confirm",),
    "annotation:assignment_draft": ("score__FIT.process_coherence", "reason__FIT.process_coherence"),
    "annotation:assignment_submit": ("score__FIT.process_coherence", "reason__FIT.process_coherence"),
    "annotation:study_judge": ("model", "judge"),
    "annotation:study_quality": ("gold_min_within1_pct", "adjudication_threshold"),
    "annotation:study_export": ("kind", "layout", "format", "judge"),
    "api:token": ("username", "password"),
    "api:case_import": ("cases", "replace"),
    "api:trial_seats": ("seat",),
    "api:study_claim": ("unit",),
    "api:assignment_draft": ("answers",),
    "api:rating_submit": ("assignment", "answers"),
}
"""What the view of a route without a page of its own reads from a POST (or an API body)."""
CLICKED = ("submit", "button", "image")


@dataclass
class Form:
    method: str
    action: str
    values: dict[str, list[str]] = field(default_factory=dict)
    """Every named field and what the page put in it (nothing for an unticked box)."""


class Forms(HTMLParser):
    """The forms of a page, each field with the value the page gives it: an input's ``value``
    (a box or radio only when checked), a textarea's text, a select's chosen option (or its first)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._textarea: str | None = None
        self._select: tuple[str, list[str], list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {key: value or "" for key, value in attrs}
        if tag == "form":
            self._form = Form((named.get("method") or "get").lower(), named.get("action", ""))
            self.forms.append(self._form)
        name = named.get("name")
        if self._form is None or not name or name == "csrfmiddlewaretoken":
            if tag == "option" and self._select is not None:
                self._option(named)
            return
        values = self._form.values.setdefault(name, [])
        kind = named.get("type", "text").lower()
        if tag == "input" and kind in ("checkbox", "radio"):
            if "checked" in named:
                values.append(named.get("value", "on"))
        elif tag == "input" and kind not in ("file", *CLICKED):
            values.append(named.get("value", ""))
        elif tag == "textarea":
            self._textarea = name
            values.append("")
        elif tag == "select":
            self._select = (name, [], [])

    def _option(self, named: dict[str, str]) -> None:
        _, chosen, first = self._select
        value = named.get("value", "")
        first.append(value)
        if "selected" in named:
            chosen.append(value)

    def handle_data(self, data: str) -> None:
        if self._textarea is not None and self._form is not None:
            self._form.values[self._textarea][-1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea":
            self._textarea = None
        elif tag == "select" and self._select is not None and self._form is not None:
            name, chosen, options = self._select
            self._form.values[name] += chosen or options[:1]
            self._select = None
        elif tag == "form":
            self._form = None


def page_forms(url: str, html: str) -> Iterator[Form]:
    """The page's forms that submit to this site by GET or POST, with an absolute path."""
    parser = Forms()
    parser.feed(html)
    for form in parser.forms:
        target = urlsplit(urljoin(url, form.action))
        if target.netloc in ("", "testserver") and form.method in ("get", "post") and form.values:
            form.action = target.path
            yield form


def poisoned(values: dict[str, list[str]], name: str, poison: str) -> dict[str, list[str]]:
    return {key: ([poison] if key == name else list(given)) for key, given in values.items()}


def send(
    client: Client, method: str, url: str, values: dict[str, list[str]], kind: str, *, api: bool = False
) -> HttpResponse:
    if api:
        body = json.dumps({key: given[0] if given else "" for key, given in values.items()})
        return getattr(client, method)(url, body, content_type="application/json")
    if kind == "nul":
        return client.get(url, values) if method == "get" else client.post(url, values)
    pairs = [(key, value) for key, given in values.items() for value in given or [""]]
    if method == "get":
        return client.get(f"{url}?{query(dict(pairs))}", CONTENT_TYPE=CRAFTED)
    return client.generic("POST", url, form_body(dict(pairs)), content_type=FORM_CRAFTED)


class Crawl:
    """One persona's walk: every request sent once, every 5xx kept."""

    def __init__(self, world: World, who: str) -> None:
        self.world, self.who = world, who
        self.client = Client(raise_request_exception=False)
        self.sent: set[tuple] = set()
        self.failures: list[str] = []
        self._sign_in()

    def _sign_in(self) -> None:
        if WHO[self.who] is not None:
            self.client.force_login(self.world.users[self.who])

    def each_field(self, method: str, url: str, values: dict[str, list[str]], *, api: bool = False) -> None:
        for name in values:
            for kind, poison in POISONS.items():
                key = (method, url, name, kind)
                if key in self.sent:
                    continue
                self.sent.add(key)
                response = send(self.client, method, url, poisoned(values, name, poison), kind, api=api)
                if response.status_code >= 500:
                    self.failures.append(f"{self.who}: {method.upper()} {url} field {name!r} with {kind}: 500")
                if WHO[self.who] is not None and "_auth_user_id" not in self.client.session:
                    self._sign_in()  # a form that signs out went through: sign in again

    def route(self, name: str, route: Route) -> None:
        url = reverse(name, args=route.args(self.world))
        if route.method == "get" and not route.api:
            response = self.client.get(url)
            if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                for form in page_forms(url, response.content.decode()):
                    self.each_field(form.method, form.action, form.values)
            return
        fields = dict.fromkeys([*route.data, *VIEW_FIELDS.get(name, ())])
        values = {key: [str(route.data.get(key, ""))] for key in fields}
        method = "get" if route.method == "delete" else route.method
        if values:
            self.each_field(method, url, values, api=route.api and method != "get")


def stored_poison() -> list[str]:
    """Every text or JSON column of every model holding NUL or a surrogate, as ``model.field``."""
    found = []
    for model in apps.get_models():
        columns = [
            column.name
            for column in model._meta.concrete_fields
            if isinstance(column, models.CharField | models.TextField | models.JSONField | models.FileField)
        ]
        for row in model._default_manager.values_list(*columns) if columns else []:
            for column, value in zip(columns, row, strict=True):
                bad = text_problem(str(value)) if isinstance(value, str) else json_problem(value)
                if bad:
                    found.append(f"{model._meta.label}.{column}: {bad}")
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("who", list(WHO))
def test_nul_and_surrogates_in_each_form_field_never_give_a_5xx_nor_get_stored(who, world):
    table = {name: ROUTES[name] for name in project_routes() if name in ROUTES}
    table |= {name: Route(Ability.ADMINISTER) for name in ADMIN_SAMPLES}
    crawl = Crawl(world, who)
    for name, route in sorted(table.items(), key=lambda item: item[0] == "logout"):
        if expected(route, who) == OK:
            crawl.route(name, route)
    least = 10 if WHO[who] is None else 20  # anonymous: the sign-in and password-reset pages
    assert len(crawl.sent) >= least, f"{who}: the crawler reached too little ({len(crawl.sent)} requests)"
    assert not crawl.failures, "\n".join(crawl.failures)
    assert not stored_poison(), stored_poison()


# Hostile files and bodies (issue #44): the surfaces added since the crawl above was written take
# files, which it leaves aside. Each hostile file goes to each of them: the case upload page and
# the API's case import (MASER and SimCourt records go through the same reader), import_cases in
# each --format, and the roster upload. Whoever may use the surface gets a 400 that says what is
# wrong; anyone else a refusal (login, 403 or 404); nobody a 5xx, and nothing is stored.

HOSTILE_JSON: dict[str, bytes] = {
    "nul byte": b'{"id": "a\x00b", "title": "t"}',
    "surrogate escape": b'{"id": "x", "title": "\\ud800"}',
    "deep nesting": b"[" * 100_000,
    "deep well-formed": b"[" * 5_000 + b"]" * 5_000,
    "number beyond a float": b'{"id": "x", "title": "t", "claims": 1e400}',
    "huge title": json.dumps({"id": "x", "title": "t" * 2_000_000}).encode(),
    "utf-16": json.dumps({"id": "x", "title": "t"}).encode("utf-16"),
}
HOSTILE_ROSTERS: dict[str, tuple[str, bytes]] = {
    "nul byte": ("roster.csv", b"username,email,full_name\nst\x00u,s@example.edu,S\n"),
    "encoded surrogate": ("roster.csv", b"username,email,full_name\nst\xed\xa0\x80u,s@example.edu,S\n"),
    "huge cell": ("roster.csv", b"username,email,full_name\n" + b"u" * 2_000_000 + b",s@example.edu,S\n"),
    "look-alike of an account": ("roster.csv", "username,email,full_name\n\u0441ourse-instructor,c@x.edu,C\n".encode()),
    "not a workbook": ("roster.xlsx", b"PK\x03\x04" + b"\x00" * 64),
}
UPLOADERS = ("course instructor", "admin")
"""Who may upload to the course's roster and the case library (TEACH, and the course's own)."""


def stored_counts() -> dict[str, int]:
    return {
        "cases": Case.objects.count(),
        "roster jobs": RosterJob.objects.count(),
        "accounts": get_user_model().objects.count(),
    }


def signed_in(world: World, who: str) -> Client:
    client = Client(raise_request_exception=False)
    if WHO[who] is not None:
        client.force_login(world.users[who])
    return client


def refused_as(response: HttpResponse, who: str, *, allowed: bool) -> str | None:
    """What is wrong with ``response`` to a hostile upload (None: nothing)."""
    if response.status_code >= 500:
        return f"{who}: {response.status_code}"
    if allowed:
        return None if response.status_code == 400 else f"{who}: {response.status_code}, not 400"
    refused = response.status_code in (401, 403, 404) or "/login/" in response.get("Location", "")
    return None if refused else f"{who}: {response.status_code}, not refused"


def upload(client: Client, surface: str, name: str, content: bytes, world: World) -> HttpResponse:
    file = SimpleUploadedFile(name, content)
    if surface == "upload page":
        return client.post(reverse("trials:case_upload"), {"files": [file]})
    if surface == "api":
        return client.post(reverse("api:case_import"), {"files": [file]})
    return client.post(reverse("classroom:course_roster", args=["civ"]), {"roster": file})


@pytest.mark.django_db
@pytest.mark.parametrize("surface", ["upload page", "api"])
@pytest.mark.parametrize("kind", list(HOSTILE_JSON))
def test_hostile_case_files_are_refused_with_their_problem_and_store_nothing(world, surface, kind):
    before, wrong = stored_counts(), []
    for who in WHO:
        response = upload(signed_in(world, who), surface, "case.json", HOSTILE_JSON[kind], world)
        problem = refused_as(response, who, allowed=who in (*UPLOADERS, "instructor"))
        if problem is None and response.status_code == 400:
            said = response.json()["problems"] if surface == "api" else [response.content.decode()]
            problem = None if any("case.json" in text for text in said) else f"{who}: the problem names no file"
        wrong += [problem] if problem else []
    assert not wrong, f"{surface}, {kind}:\n" + "\n".join(wrong)
    assert stored_counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("form", ["case", "maser", "simcourt"])
@pytest.mark.parametrize("kind", list(HOSTILE_JSON))
def test_import_cases_refuses_hostile_files_in_each_format(world, tmp_path, form, kind):
    path = tmp_path / (SIMCOURT_FILE if form == "simcourt" else "case.json")
    path.write_bytes(HOSTILE_JSON[kind])
    before = stored_counts()

    with pytest.raises(CommandError, match=r"rejected 1 file\(s\), nothing stored"):
        call_command("import_cases", "--format", form, str(path))
    assert stored_counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("kind", list(HOSTILE_ROSTERS))
def test_hostile_rosters_are_refused_row_by_row_and_enrol_nobody(world, kind):
    before, wrong = stored_counts(), []
    name, content = HOSTILE_ROSTERS[kind]
    for who in WHO:
        response = upload(signed_in(world, who), "roster", name, content, world)
        problem = refused_as(response, who, allowed=who in UPLOADERS)
        if problem is None and response.status_code == 400 and "Nobody was enrolled" not in response.content.decode():
            problem = f"{who}: the page does not say that nobody was enrolled"
        wrong += [problem] if problem else []
    assert not wrong, f"{kind}:\n" + "\n".join(wrong)
    assert stored_counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("who", list(WHO))
def test_deep_json_bodies_to_every_api_route_get_a_400_or_a_refusal(world, who):
    """Item 8 on every API route that reads a body: a 100,000-deep array is never parsed recursively."""
    client = signed_in(world, who)
    wrong = []
    for name, route in ROUTES.items():
        if not route.api or route.method == "get":
            continue
        url = reverse(name, args=route.args(world))
        response = getattr(client, route.method)(url, "[" * 100_000, content_type="application/json")
        if response.status_code >= 500:
            wrong.append(f"{route.method.upper()} {url}: {response.status_code}")
    assert not wrong, f"{who}:\n" + "\n".join(wrong)
