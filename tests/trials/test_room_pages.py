from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from classroom.services import course_create
from legalsim.roles import Role
from tests.cases import case_stored
from tests.conftest import DEMO_CASES
from tests.court.engine.test_visibility import plant
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.models import Case, Trial
from trials.preparation import trial_prepare
from trials.services import cases_import, trial_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def student(client, django_user_model):
    user = person("student", Role.STUDENT)
    client.force_login(user)
    return user


def test_create_trial_prints_the_contract(capsys, django_user_model):
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    person("alice", Role.STUDENT)
    call_command(
        "create_trial", "zh-civil-private-lending", "--stages", "FIT,SIT", "--human", "plaintiff_lawyer=alice", "--json"
    )
    result = json.loads(capsys.readouterr().out)
    assert result["ws_path"] == f"/ws/trials/{result['trial_id']}/"
    assert result["seats"] == {
        "plaintiff_client": "agent:scripted",
        "defendant_client": "agent:scripted",
        "plaintiff_lawyer": "human:alice",
        "defendant_lawyer": "agent:scripted",
        "judge": "agent:scripted",
    }
    assert Trial.objects.get(pk=result["trial_id"]).status == Trial.Status.PREPARING
    state = trial_prepare(trial_id=result["trial_id"]).engine_state
    assert state.stage_history == ["LC", "CD"] and state.last_stage == "SIT", "a worker played LC and CD first"


def test_play_creates_a_trial_with_my_seat_and_opens_the_room(client, student):
    cases_import(paths=[DEMO_CASES / "en-civil-commercial-lease.json"])
    response = client.post(
        reverse("trials:trial_play", args=["en-civil-commercial-lease"]),
        {"seats": ["defendant_lawyer"], "stage": "FIT", "target_side": "defendant"},
    )
    trial = Trial.objects.get()
    assert response.url == reverse("trials:trial_room", args=[trial.pk])
    assert trial.seats.get(seat="defendant_lawyer").user == student and trial.target_side == "defendant"
    page = client.get(response.url).content.decode()
    assert 'data-my-seats="defendant_lawyer"' in page and "Your case file: Counsel for the defendant" in page


def test_the_room_shows_my_seat_only_what_it_may_see(client, student):
    seed, planted = plant(json.loads((DEMO_CASES / "en-civil-traffic-accident.json").read_text()))
    case_stored(seed)
    client.post(reverse("trials:trial_play", args=[seed["id"]]), {"seats": ["plaintiff_lawyer"], "stage": "all"})
    page = client.get(reverse("trials:trial_room", args=[Trial.objects.get().pk])).content.decode()
    assert planted["facts:plaintiff"] in page, "the seat's own facts are in its case file"
    hidden = [label for label, value in planted.items() if not label.endswith(":plaintiff") and value in page]
    assert not hidden


def invite(client, trial: Trial, seat: str, username: str) -> str:
    """The invitation link the room makes for ``username`` (as the signed-in participant)."""
    page = client.post(reverse("trials:trial_invite", args=[trial.pk]), {"seat": seat, "username": username})
    assert page.status_code == 200, page.content
    return re.search(r'value="http://testserver(\S+)"', page.content.decode()).group(1)


def test_a_second_student_takes_the_opposing_seat_only_by_a_named_invitation(client, student, django_user_model):
    cases_import(paths=[DEMO_CASES / "en-civil-commercial-lease.json"])
    client.post(
        reverse("trials:trial_play", args=["en-civil-commercial-lease"]),
        {"seats": ["plaintiff_lawyer"], "stage": "FIT"},
    )
    trial = Trial.objects.get()
    bob = person("bob", Role.STUDENT)
    link = invite(client, trial, "defendant_lawyer", "bob")
    client.force_login(bob)
    assert client.get(reverse("trials:trial_room", args=[trial.pk])).status_code == 404, "the trial is private"
    uninvited = client.post(reverse("trials:trial_join", args=[trial.pk]), {"seat": "defendant_lawyer"})
    assert uninvited.status_code == 404
    lobby = client.get(link).content.decode()
    assert (
        "student invited you to play <strong>Counsel for the defendant</strong>" in lobby
        and 'id="transcript"' not in lobby
    )
    client.force_login(person("carl", Role.STUDENT))
    assert client.get(link).status_code == client.post(link).status_code == 404, "the link is bob's only"
    client.force_login(bob)
    assert client.post(link).status_code == 302
    trial.refresh_from_db()
    assert trial.seats.get(seat="defendant_lawyer").user == bob
    assert trial.engine_state.human_seats == {"plaintiff_lawyer": "student", "defendant_lawyer": "bob"}
    taken = client.post(reverse("trials:trial_join", args=[trial.pk]), {"seat": "plaintiff_lawyer"})
    assert taken.status_code == 400 and b"invitation" in taken.content
    assert client.get(reverse("trials:trial_room", args=[trial.pk])).status_code == 200


def test_an_invitation_is_only_to_a_free_seat_of_a_trial_one_sits_in(client, student):
    cases_import(paths=[DEMO_CASES / "en-civil-commercial-lease.json"])
    client.post(
        reverse("trials:trial_play", args=["en-civil-commercial-lease"]),
        {"seats": ["plaintiff_lawyer"], "stage": "FIT"},
    )
    trial = Trial.objects.get()
    person("bob", Role.STUDENT)
    url = reverse("trials:trial_invite", args=[trial.pk])
    held = client.post(url, {"seat": "plaintiff_lawyer", "username": "bob"})
    assert held.status_code == 400 and b"held by a person" in held.content
    assert client.post(url, {"seat": "defendant_lawyer", "username": "ghost"}).status_code == 400
    client.force_login(person("carl", Role.STUDENT))
    assert client.post(url, {"seat": "defendant_lawyer", "username": "carl"}).status_code == 404


def test_case_text_in_the_room_is_escaped(client, student):
    seed = json.loads((DEMO_CASES / "en-civil-traffic-accident.json").read_text())
    seed["first_instance"]["claims"][0] = "<img src=x onerror=alert(1)>"
    case_stored(seed)
    client.post(reverse("trials:trial_play", args=[seed["id"]]), {"seats": ["plaintiff_lawyer"], "stage": "FIT"})
    trial = trial_prepare(trial_id=Trial.objects.get().pk)
    page = client.get(reverse("trials:trial_room", args=[trial.pk])).content.decode()
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def test_the_course_instructor_takes_over_any_seat_and_hands_it_back(client, student, django_user_model):
    cases_import(paths=[DEMO_CASES / "en-civil-commercial-lease.json"])
    client.post(
        reverse("trials:trial_play", args=["en-civil-commercial-lease"]),
        {"seats": ["plaintiff_lawyer"], "stage": "FIT"},
    )
    trial = Trial.objects.get()
    teacher = person("teacher", Role.INSTRUCTOR)
    client.force_login(teacher)
    refused = client.post(reverse("trials:trial_join", args=[trial.pk]), {"seat": "judge"})
    assert refused.status_code == 404, "an instructor of no course of this trial does not see it"
    Trial.objects.filter(pk=trial.pk).update(course=course_create(slug="c", title="C", instructor=teacher))
    for seat in ("judge", "plaintiff_lawyer"):
        client.post(reverse("trials:trial_join", args=[trial.pk]), {"seat": seat})
    trial.refresh_from_db()
    assert trial.engine_state.human_seats == {"plaintiff_lawyer": "teacher", "judge": "teacher"}
    client.post(reverse("trials:trial_leave", args=[trial.pk]), {"seat": "judge", "confirm": "yes"})
    trial.refresh_from_db()
    assert "judge" not in trial.engine_state.human_seats
    assert trial.seats.get(seat="judge").holder == "agent:scripted"


def test_the_printable_transcript_is_for_participants_and_staff(client, student, django_user_model):
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    client.post(
        reverse("trials:trial_play", args=["zh-civil-private-lending"]), {"seats": ["plaintiff_lawyer"], "stage": "FIT"}
    )
    trial = trial_prepare(trial_id=Trial.objects.get().pk)
    page = client.get(reverse("trials:trial_transcript", args=[trial.pk])).content.decode()
    assert "@media print" in page and "民事起诉状" in page, "the seat's own earlier documents are in its record"
    opponent = person("opponent", Role.STUDENT)
    link = invite(client, trial, "defendant_lawyer", "opponent")
    client.force_login(opponent)
    client.post(link)
    theirs = client.get(reverse("trials:trial_transcript", args=[trial.pk])).content.decode()
    assert "民事起诉状" not in theirs and "法律咨询记录" not in theirs, "the other side's LC and drafting stay hidden"
    client.force_login(person("stranger", Role.STUDENT))
    assert client.get(reverse("trials:trial_transcript", args=[trial.pk])).status_code == 404


def test_a_seat_the_lobby_does_not_offer_cannot_be_taken(client, student):
    """Hardening #7: the stenographer's seat was taken through the join form (and the API),
    and the trial then waited on that person."""
    cases_import(paths=[DEMO_CASES / "en-criminal-telecom-fraud.json"])
    case = Case.objects.get(pk="en-criminal-telecom-fraud")
    trial = trial_create(live=True, case=case, humans={"attorney": person("other", Role.STUDENT)})
    client.force_login(person("teacher", Role.INSTRUCTOR))
    Trial.objects.filter(pk=trial.pk).update(created_by=person("teacher"))
    response = client.post(reverse("trials:trial_join", args=[trial.pk]), {"seat": "stenographer"})
    assert response.status_code == 400, "not even the trial's overseer takes it"
    assert trial.seats.get(seat="stenographer").user is None
    assert "stenographer" not in trial.engine_state.human_seats


def test_a_judge_in_a_first_instance_trial_is_offered_only_real_parties_to_question(client, django_user_model):
    """Hardening #11: "None_client"/"None_lawyer" (second-instance seats with no appellant yet)."""
    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
    judge = person("jude", Role.STUDENT)
    trial = prepared_trial(
        case=Case.objects.get(pk="en-civil-traffic-accident"), humans={"judge": judge}, stages=["FIT"]
    )
    client.force_login(judge)
    page = client.get(reverse("trials:trial_room", args=[trial.pk])).content.decode()
    assert 'value="plaintiff_lawyer"' in page and "None_" not in page


def test_a_trial_that_is_not_yours_and_one_that_does_not_exist_look_the_same(client, student):
    """Hardening #11: the transcript's 404 told "not yours" from "does not exist"."""
    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
    trial = trial_create(
        live=True,
        case=Case.objects.get(pk="en-civil-traffic-accident"),
        humans={"judge": person("other", Role.STUDENT)},
    )
    for name in ("trials:trial_transcript", "scoring:trial_scorecard"):
        theirs_at, missing_at = reverse(name, args=[trial.pk]), reverse(name, args=[trial.pk + 999])
        theirs, missing = client.get(theirs_at), client.get(missing_at)
        assert theirs.status_code == missing.status_code == 404
        assert unmasked(theirs.content, theirs_at) == unmasked(missing.content, missing_at)


def unmasked(page: bytes, address: str) -> bytes:
    """A page with its CSRF tokens and its own address blanked: Django masks the token afresh
    for every response and the language switch returns to the address asked for, so two
    renderings of one page differ there and nowhere else."""
    page = page.replace(address.encode(), b"ADDRESS")
    return re.sub(rb'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', rb"\1", page)


def test_handing_a_seat_back_asks_first_and_never_ends_on_a_404(client, student):
    """Issue 32 item 1: one click handed the seat back and answered with the debug 404."""
    cases_import(paths=[DEMO_CASES / "en-civil-commercial-lease.json"])
    client.post(
        reverse("trials:trial_play", args=["en-civil-commercial-lease"]),
        {"seats": ["plaintiff_lawyer"], "stage": "FIT"},
    )
    trial = Trial.objects.get()
    room = client.get(reverse("trials:trial_room", args=[trial.pk])).content.decode()
    assert '<details class="hand-back while-running"' in room and 'name="confirm" value="yes"' in room
    url = reverse("trials:trial_leave", args=[trial.pk])
    asked = client.post(url, {"seat": "plaintiff_lawyer"})
    assert asked.status_code == 200 and "Hand Counsel for the plaintiff back to an agent?" in asked.content.decode()
    assert trial.seats.get(seat="plaintiff_lawyer").user == student, "nothing happens before the confirmation"
    handed = client.post(url, {"seat": "plaintiff_lawyer", "confirm": "yes"}, follow=True)
    assert handed.status_code == 200 and handed.redirect_chain[-1][0] == reverse("trials:trial_room", args=[trial.pk])
    assert "is played by an agent now" in handed.content.decode()
    assert trial.seats.get(seat="plaintiff_lawyer").user is None
    case_page = client.get(reverse("trials:case_detail", args=["en-civil-commercial-lease"])).content.decode()
    assert reverse("trials:trial_room", args=[trial.pk]) in case_page, "the trial stays in Your trials"
    assert client.get(reverse("trials:trial_transcript", args=[trial.pk])).status_code == 200
