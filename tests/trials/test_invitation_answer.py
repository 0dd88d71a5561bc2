"""What the room's invitation form answers: the link with the seat's name, or why no link."""

from __future__ import annotations

import pytest
from django.urls import reverse

from legalsim.roles import Role
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_create

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def trial(client, civil_seed, write_json):
    cases_import(paths=[write_json("cases.json", [civil_seed])])
    ann = person("ann", Role.STUDENT)
    person("bob", Role.STUDENT)
    client.force_login(ann)
    return trial_create(live=True, case=Case.objects.get(pk="test-civil-loan"), humans={"plaintiff_lawyer": ann})


def test_an_unknown_username_is_answered_where_htmx_swaps_it(client, trial):
    url = reverse("trials:trial_invite", args=[trial.pk])
    response = client.post(url, {"seat": "plaintiff_client", "username": "nobody"}, headers=HTMX)
    fragment = response.content.decode()
    assert response.status_code == 200, "htmx swaps only a 2xx answer"
    assert 'id="invitation-error"' in fragment and "No invitation was made:" in fragment and "nobody" in fragment
    assert "<html" not in fragment


def test_an_unknown_username_without_htmx_is_a_page_saying_so(client, trial):
    url = reverse("trials:trial_invite", args=[trial.pk])
    response = client.post(url, {"seat": "plaintiff_client", "username": "nobody"})
    assert response.status_code == 400 and "<html" in response.content.decode()
    assert "No invitation was made:" in response.content.decode()


def test_the_link_names_the_seat_and_sits_in_a_read_only_field(client, trial):
    url = reverse("trials:trial_invite", args=[trial.pk])
    fragment = client.post(url, {"seat": "plaintiff_client", "username": "bob"}, headers=HTMX).content.decode()
    assert (
        "it gives them the seat Plaintiff (the client), for them only" in fragment
        and "plaintiff_client)" not in fragment
    )
    assert f'value="http://testserver/trials/{trial.pk}/invitations/' in fragment and " readonly>" in fragment
    assert 'data-copy="invitation-url"' in fragment
