"""Private practice trials do not leak into studies (issue 32, item 6).

A trajectory of a trial people played in reaches a study only when its course allows
"practice trials may be used for rating studies" (off by default), and only by that course's
instructors (or an admin). The test walks every way into a study (the set-up page's picker,
its fragment, "choose all", ticked and typed ids, ``study_create``, ``study_gold``) and every
way out to a rater or a model (planning, claiming, the queue, the questionnaire and its
stages, the API's panels, the LLM judge's units), for each kind of trajectory."""

from __future__ import annotations

import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from annotation.models import Assignment, Study, Trajectory
from annotation.selectors import assignment_panels, rater_queue, study_units_stored
from annotation.studies import assignment_claim, study_plan
from annotation.trajectory_access import trajectories_for_studies
from classroom.models import Course
from legalsim.roles import Role
from tests.users import person
from trials.models import Case, Seat, Trial

pytestmark = pytest.mark.django_db
NEW = reverse("annotation:study_new")
SECRET = "the student's own words, never for a stranger"
KINDS = ("research", "imported", "practice", "course_off", "course_on", "elsewhere_on")
"""research: an all-agent run; imported: no trial here; practice: a student's trial in no
course; course_off / course_on: a student's trial of the instructor's course, the setting off /
on; elsewhere_on: a student's trial of another instructor's course that allows it."""


def trajectory_of(kind: str, case: Case, course: Course | None, student) -> str:
    trajectory_id = f"case.{kind}"
    trial = None
    if kind != "imported":
        trial = Trial.objects.create(
            case=case,
            procedure="civil",
            target_side="plaintiff",
            backend="scripted",
            state={},
            live=kind != "research",
            course=course,
            status=Trial.Status.FINISHED,
        )
        Seat.objects.create(trial=trial, seat="plaintiff_lawyer", user=None if kind == "research" else student)
    Trajectory.objects.create(
        id=trajectory_id,
        case_id=case.pk,
        procedure="civil",
        language="en",
        title=f"Title of {kind}",
        stages=[
            {
                "stage": "FIT",
                "turns": [
                    {
                        "seq": 1,
                        "phase": "opening",
                        "role": "lawyer",
                        "side": "plaintiff",
                        "speaker": "Counsel",
                        "author": "human",
                        "text": f"{kind}: {SECRET}",
                    }
                ],
                "artifacts": [],
            }
        ],
        trial=trial,
    )
    return trajectory_id


@pytest.fixture
def world(db) -> dict[str, str]:
    case = Case.objects.create(
        id="case", procedure="civil", title="case", language="en", cause_of_action="Lease", seed={}
    )
    student = person("stu", Role.STUDENT)
    teach, other = person("teach", Role.INSTRUCTOR), person("other", Role.INSTRUCTOR)
    person("root", Role.ADMIN)
    for name in ("ann", "bo"):
        person(name, Role.RATER)
    courses = {
        "course_off": Course.objects.create(slug="off", title="Off"),
        "course_on": Course.objects.create(slug="on", title="On", practice_trials_in_studies=True),
        "elsewhere_on": Course.objects.create(slug="there", title="There", practice_trials_in_studies=True),
    }
    courses["course_off"].instructors.add(teach)
    courses["course_on"].instructors.add(teach)
    courses["elsewhere_on"].instructors.add(other)
    return {kind: trajectory_of(kind, case, courses.get(kind), student) for kind in KINDS}


ALLOWED = {
    "teach": {"research", "imported", "course_on"},
    "other": {"research", "imported", "elsewhere_on"},
    "root": {"research", "imported", "course_on", "elsewhere_on"},
}
"""Who may put which trajectory in a study; nobody ever the practice trial outside a course or
the trial of a course that does not allow it."""


def listed(page: str) -> set[str]:
    return set(re.findall(r'name="trajectories" value="([^"]+)"', page))


def form(**fields) -> dict:
    return {"action": "create", "name": "Pilot", "rubric": "legalworld16", "mode": "pointwise", "k": "1"} | fields


def test_the_default_is_off():
    assert Course._meta.get_field("practice_trials_in_studies").default is False


@pytest.mark.parametrize("username", sorted(ALLOWED))
def test_the_set_up_page_offers_and_accepts_only_what_its_user_may_put_in_a_study(client, world, username):
    client.force_login(person(username))
    allowed = {world[kind] for kind in ALLOWED[username]}
    refused = set(world.values()) - allowed
    assert set(trajectories_for_studies(user=person(username)).values_list("pk", flat=True)) == allowed

    page = client.get(NEW).content.decode()
    assert listed(page) == allowed and SECRET not in page
    fragment = client.get(NEW, {"part": "trajectories"}, HTTP_HX_REQUEST="true").content.decode()
    assert listed(fragment) == allowed
    chosen_all = client.post(NEW, {"action": "choose_all", "f_case": "case"}).content.decode()
    assert listed(chosen_all) == allowed, "choose all takes only what the list may show"

    for trajectory_id in refused:
        for fields in ({"trajectories": [trajectory_id]}, {"typed_ids": trajectory_id}):
            response = client.post(NEW, form(raters=["ann"], **fields))
            assert response.status_code == 400 and "is stored here" in response.content.decode()
    assert not Study.objects.exists(), "nothing refused reached a study"

    response = client.post(NEW, form(name=f"ok-{username}", trajectories=sorted(allowed), raters=["ann"]))
    assert response.status_code == 302
    assert set(Study.objects.get(name=f"ok-{username}").trajectory_ids) == allowed


def test_study_create_and_study_gold_refuse_a_private_trial_unless_its_course_allows_it(world, tmp_path, capsys):
    ids = tmp_path / "ids.txt"
    ids.write_text(f"{world['research']}\n{world['practice']}\n{world['course_off']}\n")
    with pytest.raises(CommandError):
        call_command("study_create", "cli", "--rubric", "legalworld16", "--trajectories", str(ids), "--raters", "ann", "--k", "1")  # fmt: skip
    err = capsys.readouterr().err
    assert f"ids.txt:2: id: '{world['practice']}' is the trajectory of a trial students played in" in err
    assert f"ids.txt:3: id: '{world['course_off']}' is the trajectory of a trial students played in" in err
    assert not Study.objects.exists()

    ids.write_text(f"{world['research']}\n{world['course_on']}\n")
    call_command("study_create", "cli", "--rubric", "legalworld16", "--trajectories", str(ids), "--raters", "ann", "--k", "1")  # fmt: skip
    study = Study.objects.get(name="cli")
    assert study.trajectory_ids == [world["research"], world["course_on"]]

    gold = tmp_path / "gold.csv"
    gold.write_text(
        "trajectory_id,item,score,reason,kind\n"
        + "".join(f"{world['practice']},{item},5,why,gold\n" for item in study.rubric.definition.item_ids)
    )
    with pytest.raises(CommandError):
        call_command("study_gold", "cli", "--file", str(gold))
    assert not study.references.exists(), "a private practice trial is no reference trajectory either"


def test_withdrawing_the_permission_takes_the_trials_out_of_every_queue_and_judge_run(client, world, settings):
    study = Study.objects.create(
        name="withdrawn",
        rubric_id="legalworld16",
        raters_per_trajectory=1,
        trajectory_ids=[world["research"], world["course_on"]],
    )
    ann, bo = person("ann"), person("bo")
    study.raters.set([ann, bo])
    assert study_plan(study=study) == 2
    mine = Assignment.objects.get(study=study, trajectory_id=world["course_on"])
    client.force_login(mine.rater)
    assert client.get(reverse("annotation:assignment", args=[mine.pk])).status_code == 200
    assert set(study_units_stored(study)) == {world["research"], world["course_on"]}

    Course.objects.filter(slug="on").update(practice_trials_in_studies=False)
    assert study_units_stored(study) == [world["research"]], "the judge no longer sends it to a model"
    assert world["course_on"] not in {entry.trajectory_id for entry in rater_queue(rater=mine.rater)}
    queue = client.get(reverse("annotation:rater_queue")).content.decode()
    assert world["course_on"] not in queue and "Title of course_on" not in queue
    assert client.get(reverse("annotation:assignment", args=[mine.pk])).status_code == 404
    assert client.get(reverse("annotation:assignment_stage", args=[mine.pk, 0])).status_code == 404
    assert all(not panel["stages"] for panel in assignment_panels(mine)), "the API's panels show nothing of it"

    Assignment.objects.filter(study=study).delete()
    assert study_plan(study=study) == 1, "planning leaves it out"
    assert not Assignment.objects.filter(trajectory_id=world["course_on"]).exists()
    for rater in (ann, bo):
        claimed = assignment_claim(study_id=study.pk, rater=rater)
        assert claimed is None or claimed.trajectory_id != world["course_on"], "claiming never hands it out"


def test_the_course_page_sets_the_permission_and_students_are_told(client, world):
    course = Course.objects.get(slug="off")
    client.force_login(person("other"))
    url = reverse("annotation:course_practice_trials", args=[course.slug])
    assert client.post(url, {"allowed": "1"}).status_code == 404, "only the course's own instructors"
    client.force_login(person("teach"))
    page = client.get(reverse("classroom:course", args=[course.slug])).content.decode()
    assert 'id="rating-studies"' in page and "Practice trials may be used for rating studies" in page
    assert re.search(r'name="allowed" value="1"(?! checked)', page), "off by default"
    assert client.post(url, {"allowed": "1"}).status_code == 302
    course.refresh_from_db()
    assert course.practice_trials_in_studies
    assert world["course_off"] in set(trajectories_for_studies(user=person("teach")).values_list("pk", flat=True))

    student = person("stu")
    course.enrolments.create(user=student)
    client.force_login(student)
    mine = client.get(reverse("classroom:my_courses")).content.decode()
    assert "Your instructors may use your trials in this course in rating studies" in mine

    client.force_login(person("teach"))
    client.post(url, {})
    course.refresh_from_db()
    assert not course.practice_trials_in_studies
