"""No NUL and no unpaired surrogate in any text input (legalsim/text_input.py): refused with a
400 naming the field, never a 500, on SQLite and on PostgreSQL (set DATABASE_URL).

The crawler walks every route of the permission walk (tests/legalsim/test_permissions.py) as
someone it lets in, reads every form of every page it gets, and posts NUL and surrogates to
every field of each; it also sends them as query parameters, path segments and JSON bodies
of the API. A lone surrogate cannot be encoded in UTF-8, so the crawler sends it as a crafted
client would: a multipart body (or a query) declared ``charset=unicode_escape``, which Django
honours and decodes to U+D800 (Django refuses a url-encoded body in any charset but UTF-8).
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from urllib.parse import quote, urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from annotation.models import Rating
from classroom.models import Course
from legalsim.roles import Ability, Role
from legalsim.text_input import json_problem, text_problem
from tests.legalsim.permission_routes import ADMIN_SAMPLES, ROUTES, Route, World, project_routes
from tests.legalsim.test_permissions import OK, expected
from tests.legalsim.test_permissions import world as world
from tests.users import person
from trials.models import CaseDraft

NUL = "a\x00b"
SURROGATE = "a\ud800b"
CRAFTED = "text/plain; charset=unicode_escape"
"""A request declared in this charset has its percent-escapes decoded by ``unicode_escape``."""
BOUNDARY = "poison-boundary"
FORM_CRAFTED = f"multipart/form-data; boundary={BOUNDARY}; charset=unicode_escape"
REFUSED_NUL = "contains a NUL character (U+0000)"
REFUSED_SURROGATE = "contains an unpaired surrogate (U+D800)"
PREFERENCE = ("student", "rater", "course instructor", "admin")
"""Whom the crawler walks a route as: the first of these the route lets in."""


def crafted(value: str) -> str:
    """``value`` percent-encoded so that ``unicode_escape`` decodes it back, surrogates included."""
    return quote(value.encode("unicode_escape"), safe="")


def query(fields: dict[str, str]) -> str:
    return "&".join(f"{crafted(name)}={crafted(value)}" for name, value in fields.items())


def form_body(fields: dict[str, str]) -> bytes:
    """A multipart body whose names and values ``unicode_escape`` decodes back to ``fields``."""
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name.encode("unicode_escape").decode()}"\r\n\r\n'
        f"{value.encode('unicode_escape').decode()}\r\n"
        for name, value in fields.items()
    ]
    return ("".join(parts) + f"--{BOUNDARY}--\r\n").encode("ascii")  # sent by client.generic, as is


def test_the_rule_names_nul_and_lone_surrogates_and_passes_other_text():
    assert REFUSED_NUL in text_problem(NUL)
    assert REFUSED_SURROGATE in text_problem(SURROGATE)
    assert text_problem("\U0001f600 中文 \t\n \ufffd") is None
    assert json_problem({"a": [1, {"b": "x\x00"}]}).startswith("a[1].b:")
    assert json_problem({"\udc80": 1}) is not None
    assert json_problem(json.loads('{"ok": "\\ud83d\\ude00"}')) is None  # a proper pair is one character


# -- The inputs the adversarial run found (issue #31, item 1) --------------------------------

LISTED: list[tuple[str, str, str, dict[str, str]]] = [
    # (who, method, route name, fields); the crawler below covers every other field too.
    ("student", "get", "trials:case_library", {"q": NUL}),
    ("student", "post", "classroom:my_courses", {"code": NUL}),
    ("student", "post", "trials:trial_invite", {"seat": "defendant_lawyer", "username": NUL}),
    (
        "rater",
        "post",
        "annotation:assignment_draft",
        {"score__FIT.process_coherence": "5", "reason__FIT.process_coherence": NUL},
    ),
    ("rater", "post", "annotation:assignment_submit", {"reason__FIT.process_coherence": NUL}),
    ("course instructor", "post", "classroom:grade_save", {"grade": "7", "feedback": NUL}),
    ("course instructor", "post", "classroom:course_enrol", {"usernames": NUL}),
    ("course instructor", "post", "classroom:course_instructor_add", {"username": NUL}),
    ("course instructor", "post", "classroom:assignment_pairs", {"first": NUL, "second": "student"}),
    ("course instructor", "post", "classroom:courses", {"slug": "new-course", "title": NUL}),
    ("course instructor", "post", "classroom:assignment_create", {"case": "en-civil-traffic-accident", "title": NUL}),
    ("course instructor", "post", "trials:case_draft_new", {"title": NUL, "action": "save"}),
    ("admin", "post", "annotation:adjudication_item", {"score": "5", "reason": NUL}),
    ("course instructor", "post", "annotation:study_new", {"name": "s", "raters": NUL}),
    ("course instructor", "get", "scoring:model_profile", {"scorer": NUL}),
]


@pytest.mark.django_db
@pytest.mark.parametrize("who, method, name, fields", LISTED, ids=[entry[2] for entry in LISTED])
@pytest.mark.parametrize("poison", [NUL, SURROGATE], ids=["nul", "surrogate"])
def test_each_listed_input_is_refused_with_its_field_named(who, method, name, fields, poison, world):
    client = Client()
    client.force_login(world.users[who])
    route = ROUTES[name]
    url = reverse(name, args=route.args(world))
    fields = {key: value.replace(NUL, poison) for key, value in fields.items()}
    before = Rating.objects.count(), Course.objects.count(), CaseDraft.objects.count()
    if poison == NUL:
        response = getattr(client, method)(url, fields)
    elif method == "get":
        response = client.get(f"{url}?{query(fields)}", CONTENT_TYPE=CRAFTED)
    else:
        response = client.generic("POST", url, form_body(fields), content_type=FORM_CRAFTED)
    page = response.content.decode()
    bad = next(key for key, value in fields.items() if value == poison)
    assert response.status_code == 400, page
    assert f"The field “{bad}” {REFUSED_NUL if poison == NUL else REFUSED_SURROGATE}" in page
    assert (Rating.objects.count(), Course.objects.count(), CaseDraft.objects.count()) == before


@pytest.mark.django_db
def test_a_case_path_with_nul_is_a_400_not_a_database_error(world):
    client = Client()
    client.force_login(world.users["student"])
    response = client.get("/cases/a%00b/")
    assert response.status_code == 400
    assert f"The address {REFUSED_NUL}" in response.content.decode()


@pytest.mark.django_db
def test_the_refusal_page_escapes_the_field_name_and_speaks_the_visitors_language(world):
    client = Client()
    client.force_login(world.users["student"])
    response = client.get("/cases/", {"<img src=x>": NUL}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    page = response.content.decode()
    assert response.status_code == 400 and "<img" not in page and "&lt;img src=x&gt;" in page
    assert 'lang="zh-hans"' in page and "含有 NUL 字符（U+0000）" in page


@pytest.mark.django_db
def test_the_api_refuses_in_its_own_shape(world):
    client = Client()
    client.force_login(world.users["student"])
    response = client.get("/api/cases/", {"search": NUL})
    assert response.status_code == 400
    assert response.json()["search"] == [f"This field {REFUSED_NUL}, which is not allowed in text."]
    body = json.dumps({"seat": SURROGATE})
    response = client.post(f"/api/trials/{world.trial.pk}/seats/", body, content_type="application/json")
    assert response.status_code == 400, response.content


@pytest.mark.django_db
@pytest.mark.parametrize("poison", [NUL, SURROGATE], ids=["nul", "surrogate"])
def test_the_api_refuses_poison_nested_in_a_json_body(world, poison):
    client = Client(raise_request_exception=False)
    client.force_login(world.users["rater"])
    item = "FIT.process_coherence"
    bodies = [
        {"answers": {poison: {"score": 5, "reason": "fine"}}},
        {"answers": {item: {"score": 5, "reason": poison}}},
        {"assignment": world.assignment.pk, "answers": {item: {"score": 5, "reason": poison}}},
    ]
    urls = [reverse("api:assignment_draft", args=[world.assignment.pk])] * 2 + [reverse("api:rating_submit")]
    for url, body in zip(urls, bodies, strict=True):
        method = client.put if url.endswith("/draft/") else client.post
        response = method(url, json.dumps(body), content_type="application/json")
        assert 400 <= response.status_code < 500, (url, body, response.status_code, response.content[:300])


@pytest.mark.django_db
def test_a_cookie_holding_nul_is_ignored_not_looked_up(world):
    client = Client()
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    response = client.get(reverse("login"))
    assert response.status_code == 200


@pytest.mark.parametrize("poison", [NUL, SURROGATE], ids=["nul", "surrogate"])
@pytest.mark.parametrize(
    "name, fields, bad",
    [
        ("login", {"username": NUL, "password": "x"}, "username"),
        ("password_reset", {"email": NUL}, "email"),
    ],
)
def test_a_django_form_says_so_beside_the_field(client, db, name, fields, bad, poison):
    fields = {key: value.replace(NUL, poison) for key, value in fields.items()}
    if poison == NUL:
        response = client.post(reverse(name), fields)
    else:
        response = client.generic("POST", reverse(name), form_body(fields), content_type=FORM_CRAFTED)
    page = response.content.decode()
    message = f"This field {REFUSED_NUL if poison == NUL else REFUSED_SURROGATE}"
    assert response.status_code == 200 and message in page
    assert response.context["form"].errors[bad] == [
        f"{message}, {'which is not allowed in text' if poison == NUL else 'which is not text'}."
    ]


def test_a_field_outside_the_form_of_a_form_view_is_still_refused_at_the_gate(client, db):
    response = client.post(reverse("login"), {"username": "u", "password": "p", "next": NUL})
    assert response.status_code == 400 and f"The field “next” {REFUSED_NUL}" in response.content.decode()


def test_the_change_password_form_checks_the_old_password_field(client, db):
    client.force_login(person("alice", Role.STUDENT, password="correct-horse-42"))
    response = client.post(
        reverse("password_change"), {"old_password": NUL, "new_password1": "n-e-w-1234", "new_password2": "n-e-w-1234"}
    )
    assert response.status_code == 200 and f"This field {REFUSED_NUL}" in response.content.decode()


def test_a_normal_search_still_works(client, db):
    client.force_login(person("student", Role.STUDENT))
    assert client.get("/cases/", {"q": "traffic 中文 \U0001f600"}).status_code == 200


# -- The crawler -----------------------------------------------------------------------------


class Forms(HTMLParser):
    """Every form of a page: (method, action, field names)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, str, list[str]]] = []
        self._open: tuple[str, str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "form":
            self._open = ((named.get("method") or "get").lower(), named.get("action") or "", [])
            self.forms.append(self._open)
        elif tag in ("input", "textarea", "select", "button") and self._open is not None and named.get("name"):
            if named["name"] != "csrfmiddlewaretoken" and named["name"] not in self._open[2]:
                self._open[2].append(named["name"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None


def page_forms(url: str, html: str) -> list[tuple[str, str, list[str]]]:
    parser = Forms()
    parser.feed(html)
    forms = []
    for method, action, names in parser.forms:
        target = urlsplit(urljoin(url, action))
        if target.netloc in ("", "testserver") and names:
            forms.append((method, target.path, names))
    return forms


def walker(route: Route) -> str | None:
    """Whom to walk ``route`` as (None: anonymous)."""
    return next((who for who in PREFERENCE if expected(route, who) == OK), None)


def poisoned_path_urls(name: str, route: Route, place: World) -> list[str]:
    """The route with each text argument of its path replaced by NUL (surrogates cannot be
    percent-encoded in a path)."""
    urls = []
    args = route.args(place)
    for index, arg in enumerate(args):
        if isinstance(arg, str):
            try:
                urls.append(reverse(name, args=[*args[:index], NUL, *args[index + 1 :]]))
            except NoReverseMatch:
                pass
    return urls


def send(client: Client, method: str, url: str, fields: list[str], poison: str, *, api: bool):
    if api and method != "get":
        body = json.dumps({field: poison for field in fields} | {poison: "x"})
        return getattr(client, method)(url, body, content_type="application/json")
    values = {field: poison for field in fields}
    if poison == NUL:
        return client.get(url, values) if method == "get" else client.post(url, values)
    if method == "get":
        return client.get(f"{url}?{query(values)}", CONTENT_TYPE=CRAFTED)
    return client.generic("POST", url, form_body(values), content_type=FORM_CRAFTED)


@pytest.mark.django_db
def test_nul_and_surrogates_in_every_field_of_every_page_never_give_a_500(world):
    table = {name: ROUTES[name] for name in project_routes() if name in ROUTES}
    table |= {name: Route(Ability.ADMINISTER) for name in ADMIN_SAMPLES}
    clients = {who: Client(raise_request_exception=False) for who in (*PREFERENCE, None)}
    for who, client in clients.items():
        if who is not None:
            client.force_login(world.users[who])
    sent: set[tuple] = set()
    failures = []

    def attempt(who: str | None, method: str, url: str, fields: list[str], *, api: bool) -> None:
        for poison in (NUL, SURROGATE):
            key = (who, method, url, tuple(fields), poison)
            if key in sent:
                continue
            sent.add(key)
            client = clients[who]
            response = send(client, method, url, fields, poison, api=api)
            if response.status_code >= 500:
                failures.append(f"{who}: {method.upper()} {url} {fields} with {poison!r}: {response.status_code}")
            if who is not None:
                client.force_login(world.users[who])  # in case the post signed out

    for name, route in table.items():
        who = walker(route)
        url = reverse(name, args=route.args(world))
        for bad_url in poisoned_path_urls(name, route, world):
            attempt(who, "get", bad_url, [], api=route.api)
        fields = [*route.data] or ["q"]
        attempt(who, route.method if route.method != "delete" else "get", url, fields, api=route.api)
        if route.method == "get" and not route.api:
            response = clients[who].get(url)
            if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                for method, action, names in page_forms(url, response.content.decode()):
                    if method in ("get", "post"):
                        attempt(who, method, action, names, api=False)
    assert len(sent) > 250, f"the crawler reached too little: {len(sent)} requests"
    assert not failures, "\n".join(failures)
