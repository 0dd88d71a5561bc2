"""An instructor sets up a study in the browser (``/rate/studies/new/``): trajectories picked
from a filterable list or typed, raters who can rate, k checked against them, pointwise or
pairwise; every problem beside its field and nothing created, or the study created with its
assignments planned and the instructor on its dashboard."""

from __future__ import annotations

import re
from collections import Counter
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotation.models import Assignment, Study, Trajectory
from legalsim.roles import Role
from tests.users import person
from trials.models import Case

pytestmark = pytest.mark.django_db
NEW = reverse("annotation:study_new")
HTMX = {"HTTP_HX_REQUEST": "true"}


def stored(trajectory_id: str, case_id: str, stages: tuple[str, ...], model: str, days_ago: int = 0) -> Trajectory:
    trajectory = Trajectory.objects.create(
        id=trajectory_id,
        case_id=case_id,
        procedure="civil",
        language="en",
        title=f"Title of {trajectory_id}",
        stages=[{"stage": stage, "turns": [], "artifacts": []} for stage in stages],
        meta={"target_side": "plaintiff", "seats": {"plaintiff_lawyer": f"agent:{model}", "judge": "agent:other"}},
    )
    Trajectory.objects.filter(pk=trajectory_id).update(created_at=timezone.now() - timedelta(days=days_ago))
    return trajectory


@pytest.fixture
def library() -> list[str]:
    """Four trajectories of two cases (two causes), two models, with and without an appeal,
    stored on different days."""
    for case_id, cause in (("lease", "Lease dispute"), ("loan", "Private lending")):
        Case.objects.create(id=case_id, procedure="civil", title=case_id, language="en", cause_of_action=cause, seed={})
    full = ("LC", "CD", "FIT", "AD-Det", "AD", "SIT")
    rows = [
        stored("lease.trial1", "lease", full, "model-a", days_ago=10),
        stored("lease.trial2", "lease", ("LC", "CD", "FIT"), "model-b", days_ago=5),
        stored("lease.trial3", "lease", full, "model-b", days_ago=1),
        stored("loan.trial4", "loan", ("LC", "CD", "FIT"), "model-a", days_ago=1),
    ]
    return [row.id for row in rows]


@pytest.fixture
def instructor(client):
    for name in ("ann", "bo", "cy"):
        person(name, Role.RATER)
    person("stu", Role.STUDENT)
    client.force_login(person("boss", Role.INSTRUCTOR))
    return client


def form(**fields) -> dict:
    return {"action": "create", "name": "Pilot", "rubric": "legalworld16", "mode": "pointwise", "k": "2"} | fields


def errors_of(page: str, field_id: str) -> list[str]:
    """The problems listed beside one field (its ``*-errors`` list)."""
    block = re.search(rf'<ul class="field-errors error" id="{field_id}">(.*?)</ul>', page, re.DOTALL)
    return re.findall(r"<li>(.*?)</li>", block.group(1)) if block else []


def ticked(page: str) -> set[str]:
    return set(re.findall(r'name="trajectories" value="([^"]+)"[^>]*\schecked', page))


def listed(page: str) -> set[str]:
    return set(re.findall(r'name="trajectories" value="([^"]+)"', page))


def test_a_study_is_created_planned_and_the_instructor_lands_on_its_dashboard(instructor, library):
    deadline = (timezone.localtime() + timedelta(days=7)).replace(second=0, microsecond=0)
    response = instructor.post(
        NEW,
        form(
            trajectories=library[:3],
            raters=["ann", "bo", "cy"],
            instructions="Read every stage first.",
            deadline=deadline.strftime("%Y-%m-%dT%H:%M"),
        ),
    )
    study = Study.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "annotation:study_dashboard", args=[study.pk]
    )
    assert study.trajectory_ids == library[:3] and study.raters_per_trajectory == 2
    assert study.instructions == "Read every stage first." and study.deadline == deadline
    assert Counter(study.assignments.values_list("trajectory_id", flat=True)) == {tid: 2 for tid in library[:3]}
    assert sorted(Counter(study.assignments.values_list("rater__username", flat=True)).values()) == [2, 2, 2]
    dashboard = instructor.get(response["Location"]).content.decode()
    assert "Study Pilot created, 6 assignments planned." in dashboard


def test_an_unknown_typed_or_tampered_trajectory_is_refused_beside_its_field_and_nothing_is_created(
    instructor, library
):
    response = instructor.post(
        NEW,
        form(
            trajectories=[library[0], "forged.trial0"],
            typed_ids=f"{library[1]}\nno-such.trial99\n",
            raters=["ann", "bo"],
        ),
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert errors_of(page, "typed-errors") == ["line 2: no trajectory &#x27;no-such.trial99&#x27; is stored here"]
    assert errors_of(page, "trajectories-errors") == ["no trajectory &#x27;forged.trial0&#x27; is stored here"]
    assert "Nothing was created" in page
    assert not Study.objects.exists() and not Assignment.objects.exists()
    assert 'value="Pilot"' in page and re.search(r'name="typed_ids"[^>]*>[^<]*\nno-such\.trial99', page), "kept"
    assert ticked(page) == {library[0]}


def test_k_above_the_raters_chosen_and_a_person_who_cannot_rate_are_refused(instructor, library):
    page = instructor.post(NEW, form(trajectories=library[:1], raters=["ann", "stu"], k="2")).content.decode()
    assert errors_of(page, "raters-errors") == [
        "&#x27;stu&#x27; does not hold the rater role; grant it with grant_role"
    ]
    assert errors_of(page, "k-errors") == ["2 raters per trajectory need at least 2 raters who can rate; 1 given"]
    page = instructor.post(NEW, form(trajectories=[], raters=[], k="1")).content.decode()
    assert errors_of(page, "trajectories-errors") == [
        "choose at least one trajectory: tick it in the list, or type its id"
    ]
    assert errors_of(page, "raters-errors") == ["name at least one rater"]
    assert not Study.objects.exists()


def test_only_people_who_can_rate_are_offered(instructor, library):
    page = instructor.get(NEW).content.decode()
    offered = set(re.findall(r'name="raters" value="([^"]+)"', page))
    assert offered == {"ann", "bo", "cy", "boss"}, "instructors may rate; the student may not"


def test_a_taken_name_and_a_past_deadline_are_refused(instructor, library):
    instructor.post(NEW, form(trajectories=library[:1], raters=["ann"], k="1"))
    past = (timezone.localtime() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    page = instructor.post(NEW, form(trajectories=library[:1], raters=["ann"], k="1", deadline=past)).content.decode()
    assert errors_of(page, "name-errors") == ["a study named &#x27;Pilot&#x27; exists already"]
    assert errors_of(page, "deadline-errors") == ["this moment has passed; give a deadline in the future, or none"]
    assert Study.objects.count() == 1


def test_the_filters_narrow_the_list_and_the_chosen_stay_chosen(instructor, library):
    def fragment(**query) -> str:
        response = instructor.get(NEW, {"part": "trajectories", **query}, **HTMX)
        assert "<html" not in response.content.decode(), "a fragment, not the page"
        return response.content.decode()

    assert listed(fragment()) == set(library)
    assert listed(fragment(f_case="loan")) == {"loan.trial4"}
    assert listed(fragment(f_cause="Lease dispute")) == {"lease.trial1", "lease.trial2", "lease.trial3"}
    assert listed(fragment(f_model="model-b")) == {"lease.trial2", "lease.trial3"}
    assert listed(fragment(f_stage=["AD", "SIT"])) == {"lease.trial1", "lease.trial3"}
    since = (timezone.localdate() - timedelta(days=6)).isoformat()
    assert listed(fragment(f_since=since)) == {"lease.trial2", "lease.trial3", "loan.trial4"}
    kept = fragment(f_case="loan", trajectories=["lease.trial1"])
    assert listed(kept) == {"loan.trial4", "lease.trial1"} and ticked(kept) == {"lease.trial1"}
    everything = fragment(f_model="model-a", action="choose_all", trajectories=["lease.trial2"])
    assert ticked(everything) == {"lease.trial1", "loan.trial4", "lease.trial2"}


def test_without_javascript_the_filter_posts_back_keeping_everything_and_creates_nothing(instructor, library):
    response = instructor.post(
        NEW, form(action="filter", f_case="loan", trajectories=["lease.trial1"], raters=["bo"], name="Kept")
    )
    page = response.content.decode()
    assert response.status_code == 200 and not Study.objects.exists()
    assert listed(page) == {"loan.trial4", "lease.trial1"} and ticked(page) == {"lease.trial1"}
    assert 'value="Kept"' in page and re.search(r'name="raters" value="bo"\s+checked', page)
    assert "Nothing was created" not in page, "filtering is no failed attempt"


def test_the_rater_filter_keeps_the_chosen_raters(instructor, library):
    page = instructor.get(NEW, {"part": "raters", "f_rater": "cy", "raters": ["ann"]}, **HTMX).content.decode()
    assert re.findall(r'name="raters" value="([^"]+)"', page) == ["ann", "cy"]


def test_a_pairwise_study_pairs_every_two_chosen_trajectories_of_one_case(instructor, library):
    page = instructor.post(
        NEW, form(mode="pairwise", rubric="simcourt30", trajectories=library, raters=["ann"], k="1")
    ).content.decode()
    assert errors_of(page, "trajectories-errors") == [
        "a pair needs two trajectories of one case; only one of loan is chosen"
    ]
    page = instructor.post(NEW, form(mode="pairwise", trajectories=library[:3], raters=["ann"], k="1")).content.decode()
    assert errors_of(page, "mode-errors") == [
        "the rubric legalworld16 scores one trajectory at a time; choose pointwise, or a pairwise rubric"
    ]
    assert not Study.objects.exists()
    page = instructor.post(
        NEW, form(mode="pairwise", rubric="simcourt30", trajectories=library[:3], raters=["ann"], k="1")
    ).content.decode()
    assert (
        "the rubric simcourt30 rates the stages investigation, evidence, debate" in errors_of(page, "rubric-errors")[0]
    )
    assert not Study.objects.exists(), "civil trajectories have none of a criminal rubric's stages"
    criminal = [{"stage": "investigation", "turns": [], "artifacts": []}]
    Trajectory.objects.filter(case_id="lease").update(
        procedure="criminal", stages=criminal, stage_ids=["investigation"]
    )
    instructor.post(NEW, form(mode="pairwise", rubric="simcourt30", trajectories=library[:3], raters=["ann"], k="1"))
    study = Study.objects.get()
    assert study.trajectory_ids == [
        "lease.trial1|lease.trial2",
        "lease.trial1|lease.trial3",
        "lease.trial2|lease.trial3",
    ]
    assert all(assignment.shown_first in assignment.trajectory_id.split("|") for assignment in study.assignments.all())
    assert study.assignments.count() == 3


def test_the_studies_list_links_to_the_form(instructor):
    page = instructor.get(reverse("annotation:study_list")).content.decode()
    assert f'href="{NEW}"' in page
