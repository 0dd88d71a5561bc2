"""The interface language: the browser's Accept-Language by default, the header's switch
remembered per person (on every device) and in a cookie, and <html lang> set to match."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Profile
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db
CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9,en;q=0.5"}


def nav(client: Client, **headers) -> str:
    return client.get("/cases/", **headers).content.decode()


def test_the_browsers_language_is_the_default():
    client = Client()
    client.force_login(person("lin", Role.STUDENT))
    chinese = nav(client, **CHINESE)
    assert '<html lang="zh-hans">' in chinese and ">案例库</a>" in chinese and "My assignments" not in chinese
    english = nav(client, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    assert '<html lang="en">' in english and ">Cases</a>" in english


def test_the_switch_is_remembered_for_the_person_on_another_device():
    lin = person("lin", Role.STUDENT)
    laptop = Client()
    laptop.force_login(lin)
    response = laptop.post("/i18n/language/", {"language": "zh-hans", "next": "/cases/"})
    assert response.status_code == 302 and response["Location"] == "/cases/"
    assert Profile.objects.get(user=lin).language == "zh-hans"
    assert ">案例库</a>" in nav(laptop, HTTP_ACCEPT_LANGUAGE="en")

    phone = Client()
    phone.force_login(lin)
    assert ">案例库</a>" in nav(phone, HTTP_ACCEPT_LANGUAGE="en"), "the choice beats an English browser"
    phone.post("/i18n/language/", {"language": "en", "next": "/cases/"})
    assert ">Cases</a>" in nav(phone, **CHINESE)


def test_someone_signed_out_switches_the_sign_in_page_with_a_cookie():
    client = Client()
    response = client.post("/i18n/language/", {"language": "zh-hans", "next": "/accounts/login/"})
    assert response.cookies["django_language"].value == "zh-hans"
    assert '<html lang="zh-hans">' in client.get("/accounts/login/").content.decode()


def test_a_language_that_does_not_exist_is_refused_and_next_never_leaves_the_site():
    client = Client()
    assert client.post("/i18n/language/", {"language": "fr"}).status_code == 400
    response = client.post("/i18n/language/", {"language": "en", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_the_header_offers_each_language_named_in_itself_and_marks_the_current_one():
    client = Client()
    client.force_login(person("lin", Role.STUDENT))
    page = nav(client, **CHINESE)
    assert 'value="en" lang="en" class="link">English</button>' in page
    assert 'value="zh-hans" lang="zh-hans" class="link" aria-current="true">简体中文</button>' in page
