"""Submission is final and idempotent under concurrency, on the real request path: many
submissions of one questionnaire at once (a double click, a retrying client, two tabs) store
one set of ratings and answer every request with the documented idempotent answer; a draft
autosave that loses the race to a submission is refused with a 409, never a 500.

Each thread is its own client with its own database connection, as separate requests are in
production; the same tests run on SQLite (the default) and PostgreSQL (``DATABASE_URL``)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.messages import get_messages
from django.db import IntegrityError, connection
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from annotation import studies
from annotation.models import Assignment, Rating, Rubric, Study
from annotation.studies import assignment_new, assignment_submit
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 20
SUBMITTED = "this questionnaire was submitted; it can no longer change"


@dataclass(frozen=True)
class Outcome:
    index: int
    status: int
    body: str
    messages: tuple[str, ...] = ()


def at_once(send: Callable[[int], Outcome], n: int = THREADS) -> list[Outcome]:
    """Call ``send(0..n-1)`` from n threads released together; each thread uses (and then
    closes) its own database connection. An exception in a thread fails the test."""
    barrier, outcomes, errors = threading.Barrier(n, timeout=30), [], []

    def run(index: int) -> None:
        try:
            barrier.wait()
            outcomes.append(send(index))
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert len(outcomes) == n
    return sorted(outcomes, key=lambda outcome: outcome.index)


@pytest.fixture
def assignment(default_rubric) -> Assignment:
    study = Study.objects.create(
        name="race", rubric=default_rubric, raters_per_trajectory=1, trajectory_ids=["race-trajectory"]
    )
    rater = person("racer", Role.RATER)
    study.raters.set([rater])
    return assignment_new(study=study, unit="race-trajectory", rater=rater)


def items() -> list[str]:
    return Rubric.objects.get(pk="legalworld16").definition.item_ids


def answers(index: int) -> dict[str, dict]:
    """A complete questionnaire whose reasons say which request sent it."""
    return {item: {"score": str(index % 11), "reason": f"request {index}"} for item in items()}


def form(index: int) -> dict[str, str]:
    return {
        f"{field}__{item}": answer[field] for item, answer in answers(index).items() for field in ("score", "reason")
    }


def api_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    client.raise_request_exception = False  # a view's exception is a 500 response, as in production
    return client


def web_client(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def stored_ratings(assignment: Assignment) -> list[Rating]:
    return list(Rating.objects.filter(trajectory_id=assignment.trajectory_id, rater="racer", source="human"))


def assert_one_submission_by(assignment: Assignment, winner: int) -> None:
    """Exactly one set of ratings, all of it the winning request's answers (no mix of two)."""
    ratings = stored_ratings(assignment)
    assert sorted(rating.item for rating in ratings) == sorted(items()), "one rating per item, none twice"
    assert {(rating.score, rating.reason) for rating in ratings} == {(winner % 11, f"request {winner}")}
    assignment.refresh_from_db()
    assert assignment.status == Assignment.Status.SUBMITTED
    assert {answer["reason"] for answer in assignment.draft.values()} == {f"request {winner}"}


def test_twenty_concurrent_api_submissions_store_one_and_answer_the_rest_already(assignment):
    clients = [api_client(assignment.rater) for _ in range(THREADS)]

    def submit(index: int) -> Outcome:
        response = clients[index].post(
            "/api/ratings/", {"assignment": assignment.pk, "answers": answers(index)}, format="json"
        )
        return Outcome(index, response.status_code, response.content.decode())

    outcomes = at_once(submit)
    assert Counter(outcome.status for outcome in outcomes) == {201: 1, 200: THREADS - 1}, outcomes
    for outcome in outcomes:
        already = outcome.status == 200
        assert outcome.body == (
            f'{{"assignment":{assignment.pk},"status":"submitted","already":{str(already).lower()}}}'
        )
    winner = next(outcome.index for outcome in outcomes if outcome.status == 201)
    assert_one_submission_by(assignment, winner)


def test_twenty_concurrent_web_submissions_store_one_and_redirect_all_to_the_queue(assignment):
    clients = [web_client(assignment.rater) for _ in range(THREADS)]
    url, queue = reverse("annotation:assignment_submit", args=[assignment.pk]), reverse("annotation:rater_queue")

    def submit(index: int) -> Outcome:
        response = clients[index].post(url, form(index))
        told = tuple(str(message) for message in get_messages(response.wsgi_request))
        return Outcome(index, response.status_code, response.get("Location", ""), told)

    outcomes = at_once(submit)
    assert {(outcome.status, outcome.body) for outcome in outcomes} == {(302, queue)}, outcomes
    assert Counter(outcome.messages for outcome in outcomes) == {
        ("Submitted. Thank you.",): 1,
        ("Already submitted; nothing changed.",): THREADS - 1,
    }
    winner = next(outcome.index for outcome in outcomes if outcome.messages == ("Submitted. Thank you.",))
    assert_one_submission_by(assignment, winner)


def test_draft_autosaves_racing_submissions_are_saved_or_refused_never_a_500(assignment):
    """Even requests submit, odd ones autosave (API and web alike): a draft that arrives
    before the submission is saved and then replaced by the submitted answers; one after it
    is refused with 409 and changes nothing."""
    api = [api_client(assignment.rater) for _ in range(THREADS)]
    web = [web_client(assignment.rater) for _ in range(THREADS)]
    draft_url = reverse("annotation:assignment_draft", args=[assignment.pk])

    def send(index: int) -> Outcome:
        if index % 2 == 0:
            response = api[index].post(
                "/api/ratings/", {"assignment": assignment.pk, "answers": answers(index)}, format="json"
            )
        elif index % 4 == 1:
            response = api[index].put(
                f"/api/assignments/{assignment.pk}/draft/", {"answers": answers(index)}, format="json"
            )
        else:
            response = web[index].post(draft_url, form(index), headers={"HX-Request": "true"})
        return Outcome(index, response.status_code, response.content.decode())

    outcomes = at_once(send)
    submits = [outcome for outcome in outcomes if outcome.index % 2 == 0]
    drafts = [outcome for outcome in outcomes if outcome.index % 2 == 1]
    assert Counter(outcome.status for outcome in submits) == {201: 1, 200: len(submits) - 1}, submits
    assert {outcome.status for outcome in drafts} <= {200, 409}, drafts
    assert all(SUBMITTED in outcome.body for outcome in drafts if outcome.status == 409), drafts
    winner = next(outcome.index for outcome in submits if outcome.status == 201)
    assert_one_submission_by(assignment, winner)


def test_a_draft_after_submission_is_a_409_and_changes_nothing(assignment):
    api, web = api_client(assignment.rater), web_client(assignment.rater)
    submitted = api.post("/api/ratings/", {"assignment": assignment.pk, "answers": answers(7)}, format="json")
    assert submitted.status_code == 201

    late_api = api.put(f"/api/assignments/{assignment.pk}/draft/", {"answers": answers(3)}, format="json")
    assert late_api.status_code == 409 and late_api.json() == {"detail": SUBMITTED}
    late_web = web.post(
        reverse("annotation:assignment_draft", args=[assignment.pk]), form(3), headers={"HX-Request": "true"}
    )
    assert late_web.status_code == 409 and SUBMITTED in late_web.content.decode()
    assert late_web["HX-Reswap"] == "innerHTML", "the message goes into the autosave status, which keeps its id"
    assert_one_submission_by(assignment, 7)


def test_ratings_already_stored_from_elsewhere_are_a_409_not_a_500(assignment, default_rubric):
    """The ratings' unique key (study, trajectory, item, rater) can be taken outside this
    assignment: the same rater's ratings of the trajectory imported into the same study."""
    Rating.objects.create(
        rubric=default_rubric,
        study=assignment.study,
        trajectory_id="race-trajectory",
        item=items()[0],
        rater="racer",
        source="human",
        score=1,
    )
    api, web = api_client(assignment.rater), web_client(assignment.rater)
    refused = api.post("/api/ratings/", {"assignment": assignment.pk, "answers": answers(7)}, format="json")
    assert refused.status_code == 409 and "already stored" in refused.json()["detail"]
    page = web.post(reverse("annotation:assignment_submit", args=[assignment.pk]), form(7))
    assert page.status_code == 409 and "already stored" in page.content.decode()
    assert len(stored_ratings(assignment)) == 1
    assignment.refresh_from_db()
    assert assignment.status != Assignment.Status.SUBMITTED


def test_a_unique_key_clash_on_a_submitted_questionnaire_is_the_idempotent_answer(assignment, monkeypatch):
    """Belt and braces for the row lock: had a second submission of the same questionnaire
    reached the insert, its clash on the ratings' unique key is answered as a repeat."""
    first = assignment_submit(assignment_id=assignment.pk, rater=assignment.rater, answers=answers(7))
    assert not first.already and not first.problems

    def clash(*args, **kwargs):
        raise IntegrityError("duplicate key value violates unique constraint one_rating_per_rater_item")

    monkeypatch.setattr(studies, "_submit", clash)
    again = assignment_submit(assignment_id=assignment.pk, rater=assignment.rater, answers=answers(3))
    assert again.already and not again.problems
    assert_one_submission_by(assignment, 7)
