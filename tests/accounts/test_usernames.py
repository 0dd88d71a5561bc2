"""Look-alike usernames are refused (issue #44 item 15): the attack is an account named like an
existing one ("аdmin" with a Cyrillic а beside "admin"), made through each path that makes
accounts here: the admin's "Add user" page, ``createsuperuser`` and a model's ``full_clean``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.usernames import username_key, usernames_confusable
from tests.users import person

pytestmark = pytest.mark.django_db
CYRILLIC_ADMIN = "\u0430dmin"
LOOK_ALIKES = [CYRILLIC_ADMIN, "Admin", "adrnin", "\uff41\uff44\uff4d\uff49\uff4e", "\u0430\u0501min"]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alikes_share_the_key_of_the_name_they_imitate(name):
    assert username_key(name) == username_key("admin")


@pytest.mark.parametrize("name", ["alice", "admin2", "administrator", "张三"])
def test_different_names_have_different_keys(name):
    assert username_key(name) != username_key("admin")


def test_the_admin_add_user_page_refuses_a_look_alike_and_stores_nothing(client):
    person("admin")
    root = get_user_model().objects.create_superuser("root", password="root-password-1")
    client.force_login(root)

    response = client.post(
        "/admin/auth/user/add/",
        {"username": CYRILLIC_ADMIN, "password1": "a-long-password-9", "password2": "a-long-password-9"},
    )

    assert response.status_code == 200
    assert "looks like the existing account “admin”" in response.content.decode()
    assert not get_user_model().objects.filter(username=CYRILLIC_ADMIN).exists()


def test_the_admin_keeps_editing_an_existing_account_whose_name_was_taken_before_the_check(client):
    """Accounts stored before the check ("admin" and "Admin") stay editable under their names."""
    person("admin")
    older = person("Admin")
    root = get_user_model().objects.create_superuser("root", password="root-password-1")
    client.force_login(root)
    page = client.get(f"/admin/auth/user/{older.pk}/change/")
    assert page.status_code == 200

    older.first_name = "Ada"
    older.full_clean(exclude=["password"])


def test_createsuperuser_refuses_a_look_alike(monkeypatch):
    person("admin")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-long-password-9")

    with pytest.raises(CommandError, match="looks like the existing account"):
        call_command(
            "createsuperuser", "--noinput", "--username", CYRILLIC_ADMIN, "--email", "x@example.edu", stdout=StringIO()
        )
    assert not get_user_model().objects.filter(username=CYRILLIC_ADMIN).exists()


def test_full_clean_refuses_a_look_alike_and_names_the_account():
    person("admin")

    with pytest.raises(ValidationError) as refused:
        get_user_model()(username="adrnin", password="!").full_clean()

    assert refused.value.error_dict["username"][0].params == {"other": "admin"}


def test_a_list_of_new_names_is_checked_against_accounts_and_against_itself():
    person("admin")

    found = usernames_confusable(["admin", CYRILLIC_ADMIN, "bob", "b0b", "carol"])

    assert found == {CYRILLIC_ADMIN: "admin", "b0b": "bob"}
