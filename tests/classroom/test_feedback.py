"""Feedback on the transcript as the people involved meet it: an instructor comments on a
turn (or a passage of it), the student sees it beside the turn and on the scorecard, gets a
notice until they have seen it, and replies once; everyone else finds nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from classroom.assignments import assignment_create, assignment_start, pair_set
from classroom.models import Attempt, TurnComment
from classroom.services import course_create, course_enrol
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_continue

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"
SCRIPT = "<script>alert(2)</script>"


@pytest.fixture
def attempt() -> Attempt:
    """ann's finished attempt in prof's course; eve studies in another course."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    course = course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    course_enrol(course=course, usernames=[person("ann", Role.STUDENT).username])
    other = course_create(slug="crim", title="Criminal", instructor=person("other-prof", Role.INSTRUCTOR))
    course_enrol(course=other, usernames=[person("eve", Role.STUDENT).username])
    assignment = assignment_create(
        course=course, case=Case.objects.get(pk=CASE), seats=["plaintiff_lawyer"], stages=["LC"]
    )
    attempt = assignment_start(assignment=assignment, student=person("ann"))
    trial_continue(trial=attempt.trial)
    return attempt


def first_turn(attempt: Attempt):
    return attempt.trial.engine_state.turns[0]


def comment(client, attempt: Attempt, text: str, excerpt: str = "", seq: int | None = None):
    seq = first_turn(attempt).seq if seq is None else seq
    url = reverse("classroom:comment_add", args=[attempt.trial_id])
    return client.post(url, {"seq": seq, "text": text, "excerpt": excerpt})


def badge(client) -> str | None:
    page = client.get(reverse("classroom:my_assignments")).content.decode()
    found = re.search(r'id="feedback-unread"[^>]*>(\d+)<', page)
    return found.group(1) if found else None


def test_an_instructor_comments_on_a_passage_and_the_student_sees_it_beside_the_turn(client, attempt):
    turn = first_turn(attempt)
    passage = " ".join(turn.text.split()[:4])
    client.force_login(person("prof"))
    response = comment(client, attempt, "Ask about the injuries first.", excerpt=passage)
    saved = TurnComment.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"#comment-{saved.pk}")
    assert (saved.seq, saved.excerpt, saved.author.username) == (turn.seq, passage, "prof")
    assert comment(client, attempt, "x", excerpt="words nobody said").status_code == 400
    assert "no such turn" in comment(client, attempt, "x", seq=99_999).content.decode()

    client.force_login(person("ann"))
    assert badge(client) == "1"
    transcript = client.get(reverse("trials:trial_transcript", args=[attempt.trial_id])).content.decode()
    beside = transcript.split(f'id="turn-{turn.seq}"', 1)[1].split('class="turn"', 1)[0]
    assert "Ask about the injuries first." in beside and escape(passage) in beside
    assert "Comment on turn" not in transcript  # students reply; they do not comment
    assert badge(client) is None  # seen on the transcript: read
    scorecard = client.get(reverse("scoring:trial_scorecard", args=[attempt.trial_id])).content.decode()
    assert 'id="feedback"' in scorecard and "Ask about the injuries first." in scorecard


def test_a_comment_on_a_passage_of_a_document_is_shown_under_the_document_not_the_turn(client, attempt):
    state = attempt.trial.engine_state
    record = state.artifacts_of("consultation_record")[-1]
    filing = state.filing_turn(record)
    passage = " ".join(record.text.split()[3:9])
    url = reverse("classroom:comment_add", args=[attempt.trial_id])
    client.force_login(person("prof"))
    fields = {"seq": filing.seq, "document": record.kind, "text": "Cite the statute here."}
    assert client.post(url, {**fields, "excerpt": passage}).status_code == 302
    assert TurnComment.objects.get().document == record.kind
    refused = client.post(url, {**fields, "excerpt": "words nobody wrote"})
    assert refused.status_code == 400 and "does not contain this passage" in refused.content.decode()
    other_turn = next(turn for turn in state.turns if turn.seq != filing.seq)
    unfiled = client.post(url, {**fields, "seq": other_turn.seq, "excerpt": ""})
    assert unfiled.status_code == 400 and f"turn {other_turn.seq} filed no {record.kind}" in unfiled.content.decode()

    client.force_login(person("ann"))
    transcript = client.get(reverse("trials:trial_transcript", args=[attempt.trial_id])).content.decode()
    under_turn = transcript.split(f'id="turn-{filing.seq}"', 1)[1].split('class="document"', 1)[0]
    under_document = transcript.split(f'id="doc-{record.stage}-{record.kind}"', 1)[1]
    assert "Cite the statute here." not in under_turn
    assert "Cite the statute here." in under_document and escape(passage) in under_document


def test_the_feedback_page_lists_unread_comments_and_viewing_it_marks_them_read(client, attempt):
    client.force_login(person("prof"))
    comment(client, attempt, "One")
    comment(client, attempt, "Two")
    client.force_login(person("ann"))
    assert badge(client) == "2"
    page = client.get(reverse("classroom:feedback")).content.decode()
    assert page.count('<span class="badge">new</span>') == 2 and "One" in page and "Two" in page
    assert badge(client) is None
    again = client.get(reverse("classroom:feedback")).content.decode()
    assert "One" in again and '<span class="badge">new</span>' not in again


def test_the_student_replies_once_and_a_second_reply_is_refused(client, attempt):
    client.force_login(person("prof"))
    comment(client, attempt, "Why this claim?")
    saved = TurnComment.objects.get()
    client.force_login(person("ann"))
    url = reverse("classroom:comment_reply", args=[saved.pk])
    assert client.post(url, {"text": "Because of the contract."}).status_code == 302
    second = client.post(url, {"text": "And another thing"})
    assert second.status_code == 400 and "replied to this comment already" in second.content.decode()
    saved.refresh_from_db()
    assert saved.reply == "Because of the contract." and saved.replied_by.username == "ann"
    client.force_login(person("prof"))
    transcript = client.get(reverse("trials:trial_transcript", args=[attempt.trial_id])).content.decode()
    assert "Because of the contract." in transcript and "And another thing" not in transcript
    assert client.post(url, {"text": "the instructor is not the student"}).status_code == 404


def test_comments_and_replies_are_text_never_markup(client, attempt):
    client.force_login(person("prof"))
    comment(client, attempt, f"Look {SCRIPT}")
    client.force_login(person("ann"))
    client.post(reverse("classroom:comment_reply", args=[TurnComment.objects.get().pk]), {"text": f"Me {SCRIPT}"})
    for url in (
        reverse("trials:trial_transcript", args=[attempt.trial_id]),
        reverse("scoring:trial_scorecard", args=[attempt.trial_id]),
        reverse("classroom:feedback"),
    ):
        page = client.get(url).content.decode()
        assert SCRIPT not in page and "&lt;script&gt;alert(2)&lt;/script&gt;" in page, url


def test_a_student_or_instructor_of_another_course_finds_nothing(client, attempt):
    client.force_login(person("prof"))
    comment(client, attempt, "Private to ann")
    saved = TurnComment.objects.get()
    client.force_login(person("eve"))
    for name in ("trials:trial_transcript", "scoring:trial_scorecard", "trials:trial_room"):
        assert client.get(reverse(name, args=[attempt.trial_id])).status_code == 404, name
    assert client.post(reverse("classroom:comment_reply", args=[saved.pk]), {"text": "hi"}).status_code == 404
    assert "Private to ann" not in client.get(reverse("classroom:feedback")).content.decode()
    assert badge(client) is None
    assert comment(client, attempt, "students do not comment").status_code == 403
    client.force_login(person("other-prof"))
    assert comment(client, attempt, "not my course").status_code == 404
    assert client.get(reverse("classroom:gradebook", args=["civ"])).status_code == 404
    assert TurnComment.objects.count() == 1


def test_in_a_paired_trial_a_comment_belongs_to_the_student_whose_turn_it_is(client):
    """Issue #31, item 7: a comment on bob's turn went to ann (who could reply) and bob's own
    reply was refused as "already replied". Both see both comments; each replies for
    themselves and gets the notice for their own turns only."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    course = course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    course_enrol(course=course, usernames=[person("ann", Role.STUDENT).username, person("bob", Role.STUDENT).username])
    assignment = assignment_create(
        course=course,
        case=Case.objects.get(pk=CASE),
        seats=["plaintiff_lawyer", "defendant_lawyer"],
        stages=["FIT"],
        paired=True,
    )
    pair_set(assignment=assignment, first="ann", second="bob")
    trial = assignment_start(assignment=assignment, student=person("ann")).trial
    trial_continue(trial=trial)
    turns = trial.engine_state.turns
    ann_turn = next(turn for turn in turns if turn.seat == "plaintiff_lawyer" and turn.author == "human")
    bob_turn = next(turn for turn in turns if turn.seat == "defendant_lawyer" and turn.author == "human")
    url = reverse("classroom:comment_add", args=[trial.pk])
    client.force_login(person("prof"))
    client.post(url, {"seq": ann_turn.seq, "text": "Ann: cite the contract."})
    client.post(url, {"seq": bob_turn.seq, "text": "Bob: answer the claim."})
    for_ann, for_bob = TurnComment.objects.order_by("pk")
    assert (for_ann.student.username, for_bob.student.username) == ("ann", "bob")

    client.force_login(person("ann"))
    assert badge(client) == "1", "only the comment on her own turn is hers"
    transcript = client.get(reverse("trials:trial_transcript", args=[trial.pk])).content.decode()
    assert "Ann: cite the contract." in transcript and "Bob: answer the claim." in transcript
    assert transcript.count('class="reply-form"') == 1 and "On bob’s turn: bob replies." in transcript
    refused = client.post(reverse("classroom:comment_reply", args=[for_bob.pk]), {"text": "I answer for bob"})
    assert refused.status_code == 400 and "only they reply to it" in refused.content.decode()
    assert client.post(reverse("classroom:comment_reply", args=[for_ann.pk]), {"text": "Will do."}).status_code == 302
    feedback = client.get(reverse("classroom:feedback")).content.decode()
    assert "Ann: cite the contract." in feedback and "Bob: answer the claim." not in feedback

    client.force_login(person("bob"))
    assert badge(client) == "1", "ann's reading did not take bob's notice away"
    answered = client.post(reverse("classroom:comment_reply", args=[for_bob.pk]), {"text": "I will."})
    assert answered.status_code == 302
    for_bob.refresh_from_db()
    assert (for_bob.reply, for_bob.replied_by.username) == ("I will.", "bob")
