"""Trajectories, studies, assignments, ratings and the agreement report over the API."""

from __future__ import annotations

import pytest

from annotation.models import Assignment, Rating, Rubric, Study, Trajectory
from annotation.studies import assignment_new
from legalsim.roles import Role
from tests.api.conftest import CASE, client_for
from tests.users import person
from trials.models import Case
from trials.services import trial_simulate

pytestmark = pytest.mark.django_db


@pytest.fixture
def trajectory_ids(demo_case) -> list[str]:
    case = Case.objects.get(pk=CASE)
    return [trial_simulate(case=case, backend="scripted").trajectory.id for _ in range(2)]


@pytest.fixture
def study(trajectory_ids) -> Study:
    study = Study.objects.create(
        name="pilot", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=trajectory_ids
    )
    study.raters.set([person("rater", Role.RATER), person("rater2", Role.RATER)])
    return study


def items() -> list[str]:
    return Rubric.objects.get(pk="legalworld16").definition.item_ids


def test_a_students_private_trial_is_not_among_the_trajectories_another_instructor_reads(instructor, trajectory_ids):
    """Issue 32 item 6: a practice trial a student played is theirs and their course's staff's."""
    private = Trajectory.objects.get(pk=trajectory_ids[0]).trial
    private.seats.filter(seat="plaintiff_lawyer").update(user=person("student", Role.STUDENT))
    listed = [row["id"] for row in instructor.get("/api/trajectories/").json()["results"]]
    assert listed == [trajectory_ids[1]]
    assert instructor.get(f"/api/trajectories/{trajectory_ids[0]}/").status_code == 404


def test_an_instructor_reads_trajectories_in_the_trajectory_file_format(instructor, trajectory_ids):
    listed = instructor.get("/api/trajectories/").json()["results"]
    assert [row["id"] for row in listed] == sorted(trajectory_ids)
    detail = instructor.get(f"/api/trajectories/{trajectory_ids[0]}/").json()
    assert detail == Trajectory.objects.get(pk=trajectory_ids[0]).as_contract()
    assert set(detail) == {"id", "case_id", "procedure", "language", "title", "stages", "meta"}
    assert {"seq", "phase", "role", "side", "speaker", "author", "text"} <= set(detail["stages"][0]["turns"][0])


def test_raters_and_students_do_not_browse_trajectories(rater, student, trajectory_ids):
    assert rater.get(f"/api/trajectories/{trajectory_ids[0]}/").status_code == 403
    assert student.get("/api/trajectories/").status_code == 403


def test_an_instructor_sees_each_raters_progress(instructor, study):
    rater = study.raters.get(username="rater")
    assignment = assignment_new(study=study, unit=study.trajectory_ids[0], rater=rater)
    Assignment.objects.filter(pk=assignment.pk).update(status=Assignment.Status.SUBMITTED)
    listed = instructor.get("/api/studies/").json()["results"]
    assert listed[0]["name"] == "pilot" and listed[0]["n_raters"] == 2 and listed[0]["n_submitted"] == 1
    detail = instructor.get(f"/api/studies/{study.pk}/").json()
    assert detail["progress"] == [{"rater": "rater", "total": 1, "submitted": 1, "drafts": 0}]


def test_a_rater_sees_their_studies_claims_work_and_reaches_only_their_assignments(rater, study):
    assert [row["name"] for row in rater.get("/api/studies/mine/").json()["results"]] == ["pilot"]
    assert rater.get("/api/studies/").status_code == 403, "the dashboard is for staff"
    claimed = rater.post(f"/api/studies/{study.pk}/claim/")
    assert claimed.status_code == 201
    mine = claimed.json()["id"]
    other = assignment_new(study=study, unit=study.trajectory_ids[1], rater=study.raters.get(username="rater2"))
    assert [row["id"] for row in rater.get("/api/assignments/").json()["results"]] == [mine]
    detail = rater.get(f"/api/assignments/{mine}/").json()
    assert detail["panels"][0]["stages"][0]["turns"]
    assert detail["rubric_document"]["id"] == "legalworld16"
    assert rater.get(f"/api/assignments/{other.pk}/").status_code == 404
    assert rater.post("/api/ratings/", {"assignment": other.pk, "answers": {}}, format="json").status_code == 404
    assert rater.post(f"/api/studies/{study.pk}/claim/").status_code == 204, "k=1: nothing left for this rater"


def test_someone_outside_a_study_cannot_claim_from_it(study):
    outsider = client_for("outsider", Role.RATER)
    assert outsider.post(f"/api/studies/{study.pk}/claim/").status_code == 404
    assert not Assignment.objects.exists()


def test_a_pair_is_shown_as_a_and_b_without_ids_or_authorship(trajectory_ids):
    pairwise = Rubric.objects.get(pk="simcourt30")
    unit = "|".join(trajectory_ids)
    study = Study.objects.create(name="pairs", rubric=pairwise, raters_per_trajectory=1, trajectory_ids=[unit])
    assignment = assignment_new(study=study, unit=unit, rater=person("rater", Role.RATER))
    response = client_for("rater", Role.RATER).get(f"/api/assignments/{assignment.pk}/")
    body = response.content.decode()
    assert [panel["side"] for panel in response.json()["panels"]] == ["A", "B"]
    assert not [tid for tid in trajectory_ids if tid in body]
    assert '"author"' not in body


def answers(score: str = "7") -> dict:
    return {item: {"score": score, "reason": f"reason for {item}"} for item in items()}


def test_a_rater_submits_a_questionnaire_once_and_finally(rater, study):
    assignment = assignment_new(study=study, unit=study.trajectory_ids[0], rater=study.raters.get(username="rater"))
    partial = {item: answer for item, answer in list(answers().items())[:3]}
    incomplete = rater.post("/api/ratings/", {"assignment": assignment.pk, "answers": partial}, format="json")
    assert incomplete.status_code == 400
    assert len(incomplete.json()["problems"]) == len(items()) - 3
    assert not Rating.objects.exists()
    out_of_scale = rater.post("/api/ratings/", {"assignment": assignment.pk, "answers": answers("11")}, format="json")
    assert out_of_scale.status_code == 400
    assert set(out_of_scale.json()["problems"].values()) == {"give an integer from 0 to 10"}

    done = rater.post("/api/ratings/", {"assignment": assignment.pk, "answers": answers("7")}, format="json")
    assert done.status_code == 201
    assert done.json() == {"assignment": assignment.pk, "status": "submitted", "already": False}
    stored = Rating.objects.filter(trajectory_id=study.trajectory_ids[0], rater="rater", source="human")
    assert stored.count() == len(items()) and {rating.score for rating in stored} == {7}

    again = rater.post("/api/ratings/", {"assignment": assignment.pk, "answers": answers("3")}, format="json")
    assert again.status_code == 200 and again.json()["already"] is True
    assert {rating.score for rating in stored.all()} == {7}, "a submission is final"
    draft = rater.put(f"/api/assignments/{assignment.pk}/draft/", {"answers": answers("3")}, format="json")
    assert draft.status_code == 409


def test_a_draft_is_saved_for_later(rater, study):
    assignment = assignment_new(study=study, unit=study.trajectory_ids[0], rater=study.raters.get(username="rater"))
    item = items()[0]
    saved = rater.put(
        f"/api/assignments/{assignment.pk}/draft/",
        {"answers": {item: {"score": "5", "reason": "half", "active_ms": 1200}}},
        format="json",
    )
    assert saved.status_code == 200 and saved.json()["status"] == "draft"
    assert rater.get(f"/api/assignments/{assignment.pk}/").json()["draft"][item] == {
        "score": "5",
        "reason": "half",
        "active_ms": 1200,
    }


def rate_everything(trajectory_ids: list[str]) -> None:
    rubric = Rubric.objects.get(pk="legalworld16")
    rows = []
    for t_index, trajectory_id in enumerate(trajectory_ids):
        for i_index, item in enumerate(items()):
            for rater_index, rater in enumerate(("rater", "rater2")):
                score = (t_index * 3 + i_index + rater_index * 2) % 11
                rows.append(Rating(rubric=rubric, trajectory_id=trajectory_id, item=item, rater=rater, source="human", score=score, reason="r"))  # fmt: skip
            rows.append(Rating(rubric=rubric, trajectory_id=trajectory_id, item=item, rater="judge-model", source="llm", score=(i_index + 1) % 11, reason="j"))  # fmt: skip
    Rating.objects.bulk_create(rows)


def test_an_instructor_gets_the_agreement_report_json(instructor, study):
    rate_everything(study.trajectory_ids)
    response = instructor.get("/api/reports/agreement/", {"bootstrap": 0, "study": study.pk})
    assert response.status_code == 200, response.content
    report = response.json()
    assert report["rubric"] == "legalworld16" and report["judge"] == "judge-model"
    assert [group["id"] for group in report["groups"]] == ["stage_authenticity", "role_consistency"]
    assert report["overall"]["n_pairs"] == 2 * 2 * len(items())
    assert {"pearson", "qwk", "krippendorff_alpha_interval", "icc_1_1"} <= set(report["items"][0])


def test_a_report_without_a_judge_has_the_raters_agreement_and_raters_may_not_read_reports(instructor, rater, study):
    response = instructor.get("/api/reports/agreement/", {"bootstrap": 0})
    assert response.status_code == 200 and response.json()["judge"] is None
    assert instructor.get("/api/reports/agreement/", {"rubric": "nope"}).status_code == 404
    assert rater.get("/api/reports/agreement/").status_code == 403
