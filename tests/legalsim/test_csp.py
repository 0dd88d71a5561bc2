"""The Content-Security-Policy: no page needs an inline script, so none may run."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, str]:
    header = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part for part in (item.strip() for item in header.split(";"))}


def test_every_page_forbids_inline_script_and_foreign_origins(client):
    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
    trial = trial_simulate(case=Case.objects.get(pk="en-civil-traffic-accident"), backend="scripted")
    client.force_login(person("teacher", Role.INSTRUCTOR))
    for url in (
        reverse("login"),
        reverse("trials:case_library"),
        reverse("trials:case_detail", args=["en-civil-traffic-accident"]),
        reverse("trials:trial_room", args=[trial.pk]),
        reverse("trials:trial_transcript", args=[trial.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        policy = directives(response)
        assert policy["script-src"] == "script-src 'self'", url
        assert "unsafe-inline" not in response.headers["Content-Security-Policy"], url
        assert policy["frame-ancestors"] == "frame-ancestors 'none'" and policy["object-src"] == "object-src 'none'"
        html = response.content.decode()
        assert not re.search(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))", html), (
            f"{url} has an inline script"
        )
        assert not re.search(r"\son[a-z]+=\"", html) and "javascript:" not in html, f"{url} has an inline handler"
        nonce = policy["style-src"].split("'nonce-")[1].rstrip("'")
        for style in re.findall(r"<style[^>]*>", html):
            assert f'nonce="{nonce}"' in style, f"{url}: an inline style without this response's nonce"


def test_each_response_has_its_own_nonce(client):
    first, second = client.get(reverse("login")), client.get(reverse("login"))
    assert directives(first)["style-src"] != directives(second)["style-src"]
