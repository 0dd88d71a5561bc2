"""What a student reads never shows the procedure's ids: no seat id (``plaintiff_lawyer``),
stage code (``FIT``, ``AD-Det``) or act id (``state_claims``) on any page of a whole trial,
civil and criminal, English and Chinese. Ids stay in attributes and in the protocol."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from classroom.assignments import assignment_create
from classroom.services import course_create, course_enrol
from court.procedures import procedure_for
from court.procedures.names import ACTS, PHASES, SEATS
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.django_db
CASES = {
    "en-civil-traffic-accident": "plaintiff_lawyer",
    "zh-civil-private-lending": "defendant_lawyer",
    "en-criminal-telecom-fraud": "attorney",
    "zh-criminal-dangerous-driving": "attorney",
}


class VisibleText(HTMLParser):
    """The text a reader sees: no tags, attributes, scripts or styles."""

    HIDDEN = {"script", "style", "template"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        self.hidden += tag in self.HIDDEN

    def handle_endtag(self, tag) -> None:
        self.hidden -= tag in self.HIDDEN

    def handle_data(self, data) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(parser.parts)


def ids_shown(text: str, procedure: str) -> list[str]:
    """The ids in ``text``: every seat, stage, phase and act id that no English word spells
    (the ones with an underscore or a hyphen, and the stage codes)."""
    stages = [stage.id for stage in procedure_for(procedure).stages]
    coded = [word for word in (*SEATS, *PHASES, *ACTS) if "_" in word or "-" in word]
    codes = [stage for stage in stages if stage.isupper() or "-" in stage]
    found = [word for word in coded if word in text]
    found += [code for code in codes if re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text)]
    return found


def pages_of(client, trial: Trial) -> dict[str, str]:
    urls = {
        "room": reverse("trials:trial_room", args=[trial.pk]),
        "transcript": reverse("trials:trial_transcript", args=[trial.pk]),
        "scorecard": reverse("scoring:trial_scorecard", args=[trial.pk]),
        "case page": reverse("trials:case_detail", args=[trial.case_id]),
        "my scorecards": reverse("scoring:my_scorecards"),
        "my assignments": reverse("classroom:my_assignments"),
    }
    pages = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        pages[name] = visible(response.content.decode())
    return pages


@pytest.mark.parametrize("case_id", list(CASES))
def test_no_page_of_a_finished_trial_shows_an_id_to_its_student(client, case_id):
    cases_import(paths=[DEMO_CASES / f"{case_id}.json"])
    student = person("student", Role.STUDENT)
    case = Case.objects.get(pk=case_id)
    course = course_create(slug="course", title="Course", instructor=person("prof", Role.INSTRUCTOR))
    course_enrol(course=course, usernames=[student.username])
    assignment_create(course=course, case=case, seats=[CASES[case_id]])
    trial = trial_simulate(case=case, backend="scripted")
    trial.seats.filter(seat=CASES[case_id]).update(user=student)
    Trial.objects.filter(pk=trial.pk).update(live=True)
    client.force_login(student)
    shown = {name: ids_shown(text, trial.procedure) for name, text in pages_of(client, trial).items()}
    assert not any(shown.values()), shown


@pytest.mark.parametrize("case_id", ["en-civil-traffic-accident", "zh-civil-private-lending"])
def test_the_room_mid_trial_names_seats_stages_and_phases_in_the_cases_language(client, case_id):
    cases_import(paths=[DEMO_CASES / f"{case_id}.json"])
    student = person("student", Role.STUDENT)
    trial = prepared_trial(case=Case.objects.get(pk=case_id), humans={"plaintiff_lawyer": student}, stages=["FIT"])
    client.force_login(student)
    room = visible(client.get(reverse("trials:trial_room", args=[trial.pk])).content.decode())
    assert not ids_shown(room, trial.procedure), ids_shown(room, trial.procedure)
    if case_id.startswith("zh"):
        assert "一审庭审" in room and "原告代理人" in room and "法律咨询" in room
    else:
        assert "First-instance trial" in room and "Counsel for the plaintiff" in room
