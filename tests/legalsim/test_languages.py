"""Every page a student, rater or instructor reaches (the permission walk's routes) speaks the
language chosen: in Chinese no English word of the interface is left, in English no Chinese.

What the database holds (a case's facts, names, a trial's turns, a course's title) is content,
not interface: every stored text is taken out of the page before it is read, so an English
case in a Chinese interface (and the reverse) is not counted against it. So are the names of
seats, stages, phases and acts, which follow the case's language (``court.procedures.names``),
and code (commands and ids shown to instructors in ``<code>``).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator

import pytest
from django.apps import apps
from django.db import models
from django.test import Client
from django.urls import reverse

from court.procedures import names
from tests.legalsim import test_permissions
from tests.legalsim.permission_routes import ROUTES, World, project_routes

world = test_permissions.world
"""The permission walk's world: a trial, a study, a course, a draft and their people."""

READERS = ("student", "rater", "course instructor")
ALLOWED_ENGLISH = {
    *("LegalSim", "English"),
    *("LegalWorld", "SimCourt", "LongJud-Bench", "MILE", "Bradley-Terry", "Dawid-Skene"),
    *("PDF", "CSV", "XLSX", "JSON", "HTML", "SVG", "API", "LLM", "ID"),
    *("Ctrl", "Alt", "Shift", "Enter"),
    *("person", "organization", "plaintiff", "defendant", "prosecution"),
}
"""Names that stay as they are in a Chinese interface: the product, a language named in
itself, the papers' and their methods' names, file formats and acronyms, the keys a keyboard prints, and the
values a case-file field takes as typed (a party's side and kind)."""
FILE_NAME = re.compile(r"[\w.-]+\.(?:csv|xlsx|json|html|jsonl)\b")
LANGUAGES_NAMED_IN_THEMSELVES = {"简体中文", "中文"}
HIDDEN = re.compile(r"<(script|style|code)\b.*?</\1>|<!--.*?-->", re.DOTALL | re.IGNORECASE)
READ_ATTRIBUTES = re.compile(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"')
TAG = re.compile(r"<[^>]+>")
ENGLISH_WORD = re.compile(r"\b[A-Za-z][A-Za-z'’-]*[a-z][A-Za-z'’-]*\b")
CHINESE = re.compile(r"[\u4e00-\u9fff]+")


def stored_texts() -> list[str]:
    """Every text the database holds, longest first, JSON documents walked to their strings
    (shorter than four characters, a text could be a piece of an interface word)."""
    found: set[str] = set()
    for model in apps.get_models():
        fields = [
            field.name
            for field in model._meta.concrete_fields
            if isinstance(field, models.CharField | models.TextField | models.JSONField | models.FileField)
        ]
        for row in model.objects.values_list(*fields) if fields else []:
            for value in row:
                found.update(_strings(value))
    texts = {re.sub(r"\s+", " ", text).strip() for text in found}
    return sorted((text for text in texts if len(text) >= 4), key=len, reverse=True)


def case_language_names() -> re.Pattern[str]:
    """The names of seats, stages, phases, acts and case-file fields in both languages, as
    whole words: they follow the case's language, however short ("no", 否)."""
    tables = (names.STAGES, names.PHASES, names.SEATS, names.FIELDS, names.GROUNDS, names.ACTS, names.AGENDA)
    words = {text for table in tables for text in _strings(list(table.values())) if text.strip()}
    return whole_words(sorted(words, key=len, reverse=True))


def _strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
        if value[:1] in "[{":
            try:
                yield from _strings(json.loads(value))
            except ValueError:
                pass
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def page_text(body: str, content: list[str]) -> str:
    """What a person reads on the page (text and the attributes read aloud or shown on
    hover), with the database's content taken out."""
    body = HIDDEN.sub(" ", body)
    attributes = " ".join(READ_ATTRIBUTES.findall(body))
    text = re.sub(r"\s+", " ", html.unescape(TAG.sub(" ", body) + " " + attributes))
    kept = list(text)
    for pattern in (CASE_LANGUAGE_NAMES, whole_words(content), FILE_NAME):
        for match in pattern.finditer(text):
            kept[match.start() : match.end()] = " " * (match.end() - match.start())
    return "".join(kept)


def whole_words(texts: list[str]) -> re.Pattern[str]:
    """One pattern for ``texts`` (longest first), each matched where it is not part of a
    longer word: the stored app label "auth" must not eat into "authenticity". Each text is
    looked for in the whole page, so one found inside another is no matter."""
    return re.compile("|".join(rf"(?<![A-Za-z]){re.escape(text)}(?![A-Za-z])" for text in texts))


CASE_LANGUAGE_NAMES = case_language_names()


def pages(world: World, language: str) -> Iterator[tuple[str, str, str]]:
    """(who, url, body) of every GET route each reader may open, rendered in ``language``."""
    routes = project_routes()
    for who in READERS:
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(world.users[who])
        for name, route in ROUTES.items():
            if route.method != "get" or name not in routes or route.api or name.startswith("admin:"):
                continue
            response = client.get(reverse(name, args=route.args(world)))
            if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                yield who, response.wsgi_request.path, response.content.decode()


@pytest.mark.django_db
def test_no_english_word_of_the_interface_is_left_in_chinese(world):
    content = stored_texts()
    leftovers = {}
    for who, url, body in pages(world, "zh-hans"):
        words = {word for word in ENGLISH_WORD.findall(page_text(body, content)) if word not in ALLOWED_ENGLISH}
        if "<html" in body and 'lang="zh-hans"' not in body:
            words.add("<html lang> is not zh-hans")
        if words:
            leftovers[f"{who} {url}"] = sorted(words)[:15]
    assert not leftovers, "English in the Chinese interface:\n" + "\n".join(
        f"{page}: {words}" for page, words in leftovers.items()
    )


@pytest.mark.django_db
def test_no_chinese_is_left_in_english(world):
    content = stored_texts()
    leftovers = {}
    for who, url, body in pages(world, "en"):
        found = set(CHINESE.findall(page_text(body, content))) - LANGUAGES_NAMED_IN_THEMSELVES
        if found:
            leftovers[f"{who} {url}"] = sorted(found)[:15]
    assert not leftovers, "Chinese in the English interface:\n" + "\n".join(
        f"{page}: {words}" for page, words in leftovers.items()
    )
