"""The 400, 403, 404 and 500 pages: the site's own page (header, phone viewport, a way home)
in the reader's language, not Django's bare text."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'


def signed_in(username: str, role: Role, *, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(person(username, role))
    return client


def test_missing_trial_is_the_sites_page_with_its_nav_and_a_way_home() -> None:
    response = signed_in("sam", Role.STUDENT).get("/trials/99999/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in page and "Not Found</h1>" not in page
    assert VIEWPORT in page and 'class="site-nav"' in page and 'id="nav-feedback"' in page
    assert 'href="/" id="error-home"' in page


def test_404_speaks_chinese_to_a_chinese_reader() -> None:
    page = signed_in("sam", Role.STUDENT, language="zh-hans").get("/cases/no-such-case/").content.decode()
    assert '<html lang="zh-hans">' in page
    assert "找不到页面" in page and "返回首页" in page


def test_refused_page_names_the_account_and_keeps_the_nav() -> None:
    response = signed_in("rita", Role.RATER).get("/cases/")
    page = response.content.decode()
    assert response.status_code == 403
    assert "You cannot open this page" in page and "(rita)" in page
    assert VIEWPORT in page and "My ratings" in page, "the rater's own nav, to go on from"
    chinese = signed_in("rita", Role.RATER, language="zh-hans").get("/cases/").content.decode()
    assert "你无法打开此页面" in chinese and "（rita）" in chinese


def test_bad_request_is_the_sites_page() -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE="zh-hans", raise_request_exception=False).get(
        "/", HTTP_HOST="not-a-host-of-ours.example"
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert VIEWPORT in page and "无法处理该请求" in page and 'id="error-home"' in page


def test_server_error_page_renders_without_a_request_context() -> None:
    """Django renders 500.html with no context at all: no user, no CSRF token, no session."""
    with translation.override("zh-hans"):
        response = server_error(RequestFactory().get("/anything/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert VIEWPORT in page and "服务器出现了问题" in page and 'id="error-home"' in page
    assert "language-switch" not in page and "site-nav" not in page, "nothing that needs a request"
