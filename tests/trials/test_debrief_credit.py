"""Credit where it is due in the debrief (issue 41, item 5): only a person's own turns are
"yours": a consultation an agent played for the student's seat is reported as the agent's, a
student who typed "asdf" drew nothing out, and the law the court cited is quoted from the
provision it cited (the 之一 article, the paragraph)."""

from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from agents.scripted.agent import ScriptedAgent
from agents.scripted.counterfactuals import Counterfactual
from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.engine.state import TrialState, TurnRecord
from court.legaltext.sentences import sentence_extract
from court.procedures import procedure_for
from legalsim.roles import Role
from tests.agents.test_offline_court import Student
from tests.agents.test_withheld_client import ASKS, CANARY, maser_case
from tests.cases import case_stored
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.debrief import Debrief, OutcomeMoves, articles_missed, interview_of, outcome_moves
from trials.models import Trial
from trials.services import trial_simulate


def consultation(lines: dict[str, str] | None) -> TrialState:
    """A consultation in which a person at the plaintiff's lawyer's seat says ``lines``
    (``None``: "asdf" at every turn)."""
    state = trial_start(
        case=maser_case(), target_side="plaintiff", human_seats={"plaintiff_lawyer": "student"}, last_stage="LC"
    )
    participants = {seat: ScriptedAgent() for seat in procedure_for("civil").seats}
    trial_run(state, participants | {"plaintiff_lawyer": Student(lines)})
    return state


def consulted(state: TrialState) -> Debrief:
    return Debrief(title="", orders="", document="", interviews=[interview_of(state, "plaintiff_lawyer")])


def rendered(debrief: Debrief, **context) -> str:
    trial = SimpleNamespace(pk=1, course_id=None, case=SimpleNamespace(language="zh"))
    context = {"debrief": debrief, "trial": trial, "my_seats": ["plaintiff_lawyer"], "agenda": True} | context
    return render_to_string("trials/_debrief.html", context)


def test_a_student_who_typed_asdf_drew_nothing_out_and_asked_about_nothing():
    state = consultation(None)
    told = replace(state.turns[-1], seq=state.turns[-1].seq + 1, stage="FIT", seat="plaintiff_client", text=CANARY)
    state.turns.append(told)
    debrief = consulted(state)
    interview = debrief.interviews[0]
    assert interview.by_person and interview.drawn_out == []
    assert interview.told_unasked == [CANARY], "the client told it at the hearing, unasked"
    assert len(interview.never_asked) == 6, "asdf asks about no item of the agenda"
    page = rendered(debrief)
    assert "Your interview" in page and "you drew it out" not in page


def test_a_student_who_asked_about_the_transfer_drew_it_out():
    debrief = consulted(consultation({"ask_follow_up": ASKS}))
    assert debrief.interviews[0].by_person and debrief.interviews[0].drawn_out == [CANARY]
    assert "you drew it out" in rendered(debrief)


@pytest.mark.django_db
def test_a_consultation_an_agent_played_for_the_students_seat_is_not_reported_as_theirs(client):
    student = person("student", Role.STUDENT)
    finished = trial_simulate(case=case_stored(maser_case()), backend="scripted", until="LC")
    finished.seats.filter(seat="plaintiff_lawyer").update(user=student)
    Trial.objects.filter(pk=finished.pk).update(live=True)
    client.force_login(student)
    page = client.get(reverse("trials:trial_room", args=[finished.pk])).content.decode()
    interview = page.split('id="debrief-interview"', 1)[1]
    assert "played by an agent in your seat" in interview and "the agent drew it out" in interview
    assert "Your interview" not in page and "you drew it out" not in page
    assert "You asked about every item" not in page


CRIMINAL_REFERENCES = [
    "《中华人民共和国刑法》第一百三十三条之一、第六十七条第三款",
    "《中华人民共和国刑法》第六十七条第九款",
]


def test_the_articles_missed_quote_the_sub_article_and_the_paragraph_the_court_cited():
    case = {"procedure": "criminal", "legal_references": CRIMINAL_REFERENCES}
    state = SimpleNamespace(case=case, language="zh", turns=[], artifacts=[])
    missed = articles_missed(state, ["attorney"])
    by_citation = {item.citation: item for item in missed}
    dangerous = by_citation["《中华人民共和国刑法》第一百三十三条之一"]
    assert dangerous.gist.startswith("在道路上驾驶机动车") and dangerous.source.endswith("第一百三十三条之一")
    confession = by_citation["《中华人民共和国刑法》第六十七条第三款"]
    assert confession.gist.startswith("犯罪嫌疑人虽不具有前两款规定的自首情节")
    assert confession.source == "《中华人民共和国刑法》第六十七条第三款"
    lacking = by_citation["《中华人民共和国刑法》第六十七条第九款"]
    assert not lacking.in_corpus and lacking.gist == ""
    page = rendered(Debrief(title="判决书", orders="", document=""), articles_missed=missed)
    assert page.count("article-lacking") == 1, "the paragraph the corpus lacks is said so, not quoted"
    assert "犯罪嫌疑人虽不具有前两款规定的自首情节" in page and "违反交通运输管理法规" not in page


def test_a_pair_of_missing_steps_is_left_on_the_table_with_the_outcome_of_both():
    pair = Counterfactual("exhibit", "谅解书", False, "有期徒刑二年十个月", "circumstance", "取得被害人谅解")
    moves = OutcomeMoves("FIT", "defendant", "有期徒刑三年", [], [pair])
    page = rendered(Debrief(title="判决书", orders="", document=""), outcome_moves=[moves])
    missed = page.split('class="moves-missed"', 1)[1].split("</ul>", 1)[0]
    assert "谅解书" in missed and "取得被害人谅解" in missed and "had your side done both" in missed
    assert "有期徒刑二年十个月" in missed


@pytest.mark.parametrize(("author", "listed"), [("agent", True), ("human", False)])
def test_an_article_an_agent_cited_at_the_students_seat_is_not_the_students(author, listed):
    case = {"procedure": "criminal", "legal_references": ["《中华人民共和国刑法》第六十七条第三款"]}
    said = TurnRecord(
        1, "debate", "debate", "attorney", "lawyer", "defendant", "", author, "argue", "依照刑法第六十七条"
    )
    state = SimpleNamespace(case=case, language="zh", turns=[said], artifacts=[])
    missed = [item.citation for item in articles_missed(state, ["attorney"])]
    assert (missed == ["《中华人民共和国刑法》第六十七条第三款"]) is listed


FRAUD_DEFENCE = {
    "present_evidence": "The defence produces the restitution receipts signed by the victims (RMB 20,000).",
    "argue": "The defendant pleads guilty, confessed truthfully and has made restitution of RMB 20,000.",
}


def test_the_fraud_defence_that_left_out_the_letters_and_the_forgiveness_is_told_both_were_worth_months():
    case = json.loads((DEMO_CASES / "en-criminal-telecom-fraud.json").read_text("utf-8"))
    state = trial_start(case=case, target_side="defendant", human_seats={"attorney": "student"})
    participants = {seat: ScriptedAgent() for seat in procedure_for("criminal").seats}
    trial_run(state, participants | {"attorney": Student(FRAUD_DEFENCE)})
    (moves,) = outcome_moves(state, ["attorney"])
    pairs = [(move.point, move.also, move.outcome) for move in moves.missed if move.also]
    assert pairs == [("Written letters of forgiveness from two victims", "the victims' forgiveness", pairs[0][2])], (
        pairs
    )
    assert (
        sentence_extract(pairs[0][2], "en").imprisonment_months
        < sentence_extract(moves.outcome, "en").imprisonment_months
    )
