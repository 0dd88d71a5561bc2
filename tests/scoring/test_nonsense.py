"""Scores cannot be gamed with nonsense (issue 32, item 7): a person who types random letters,
one word over and over, or another case's text at every turn of their seat (and writes it in
every section of the documents the seat files, as the room's editor assembles them) scores
under 2/10 on every item of their own performance. The alignment of the court's judgment
with the real one is left out: it measures the court, and a judge seat's judgment is the
court's output."""

from __future__ import annotations

import itertools
import json
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.scripted.agent import ScriptedAgent
from court.documents import DOCUMENTS, document_compose
from court.engine.machine import trial_start
from court.engine.participants import MemoryRequest, TurnRequest
from court.engine.runner import trial_run
from court.engine.steps import ArtifactDraft, MemoryUpdate, Reply
from court.procedures import procedure_for
from court.procedures.seats import seat_info, seat_kind
from scoring.grounding import case_text, case_vocabulary
from scoring.report import seat_result
from scoring.scorers import RuleBasedScorer
from tests.conftest import DEMO_CASES

CASES = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(DEMO_CASES.glob("*.json"))}
BOUND = 0.2
"""2/10: every item of the person's own performance stays under it."""
COURTS_OUTPUT = "judgment_alignment"
WORDS = ("asdf", "objection", "hello", "court", "appeal", "vary", "contract", "法院", "你好", "上诉", "合同")


class Typist:
    """A person at a seat who says ``texts`` in turn, fills every section of a document with
    them, declines mediation and appeals whenever asked (so the second instance is played)."""

    def __init__(self, texts: list[str], language: str) -> None:
        self.texts, self.language = itertools.cycle(texts), language

    def respond(self, request: TurnRequest, *, on_delta=None) -> Reply:
        decision = {"answer_mediation": "decline", "answer_appeal": "appeal"}.get(request.step.act)
        kind = request.step.artifact
        if not kind:
            return Reply(text=next(self.texts), decision=decision, author="human")
        if kind in DOCUMENTS:
            sections = {section.id: next(self.texts) for section in DOCUMENTS[kind].sections}
            text = document_compose(kind, self.language, sections)
        else:
            text = next(self.texts)
        return Reply(text=text, artifact=ArtifactDraft(text.splitlines()[0], text), decision=decision, author="human")

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate:
        return MemoryUpdate()

    def drain_calls(self) -> list[dict]:
        return []


def played(case: dict, seat: str, student, *, first_stage: str | None = None):
    """The trial with ``student`` at ``seat`` and scripted agents elsewhere; with
    ``first_stage`` the stages before it are played by agents first (``create_trial --stages``)."""
    seats = procedure_for(case["procedure"]).seats
    side = seat_info(case["procedure"], seat).side
    target = side if side in ("plaintiff", "defendant", "prosecution") else "plaintiff"
    if first_stage:
        state = trial_start(case=case, target_side=target)
        trial_run(state, {other: ScriptedAgent() for other in seats}, stop_before=first_stage)
        state.human_seats = {seat: "student"}
    else:
        state = trial_start(case=case, target_side=target, human_seats={seat: "student"})
    trial_run(state, {other: ScriptedAgent() for other in seats} | {seat: student})
    return state


def scored_seats() -> list[tuple[str, str]]:
    return [
        (case_id, seat)
        for case_id, case in CASES.items()
        for seat in procedure_for(case["procedure"]).seats
        if seat_kind(case["procedure"], seat) is not None
    ]


@st.composite
def nonsense(draw) -> tuple[str, str, str | None, str, list[str]]:
    """A seat of a demo case, where the person joins, and what they type."""
    case_id, seat = draw(st.sampled_from(scored_seats()))
    case = CASES[case_id]
    first_stage = draw(st.sampled_from((None, "FIT", "SIT"))) if case["procedure"] == "civil" else None
    kind = draw(st.sampled_from(("letters", "word", "other case")))
    if kind == "letters":
        letters = st.text(alphabet=string.ascii_lowercase + " ", min_size=1, max_size=40).filter(str.strip)
        texts = draw(st.lists(letters, min_size=1, max_size=4))
    elif kind == "word":
        words = WORDS + tuple(sorted(case_vocabulary(case, case["language"])))
        word = draw(st.sampled_from(words))
        texts = [" ".join([word] * draw(st.integers(1, 30)))]
    else:
        other = CASES[draw(st.sampled_from(sorted(set(CASES) - {case_id})))]
        whole = case_text(other)
        fields = [line for line in whole.splitlines() if len(line) > 20]
        texts = draw(st.sampled_from(([whole], fields, list(reversed(fields)))))
    return case_id, seat, first_stage, kind, texts


def too_high(result: dict) -> list[tuple[str, float, str]]:
    items = [
        (item["id"], item["score"], item["reason"])
        for item in result["items"]
        if item["capability"] != COURTS_OUTPUT and item["score"] >= BOUND
    ]
    interaction = result.get("interaction") or {}
    return items + [
        (f"MILE.{aspect}", value, "")
        for aspect, value in interaction.items()
        if aspect != "windows" and value is not None and value >= BOUND
    ]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nonsense())
def test_nonsense_at_every_turn_scores_under_two_on_every_item_of_the_persons_own_performance(example):
    case_id, seat, first_stage, _kind, texts = example
    case = CASES[case_id]
    state = played(case, seat, Typist(texts, case["language"]), first_stage=first_stage)
    result = seat_result(state, seat, scorer=RuleBasedScorer())
    assert too_high(result) == []


def test_asdf_scores_nothing_where_it_scored_position_consistency_ten_and_the_scripted_run_wins_the_second_instance():
    """The run of the issue: counsel typing asdf (and writing it under every heading) against
    the scripted counsel on the same seat, through both instances."""
    case = CASES["en-civil-commercial-lease"]
    asdf = seat_result(
        played(case, "plaintiff_lawyer", Typist(["asdf"], "en")), "plaintiff_lawyer", scorer=RuleBasedScorer()
    )
    good = seat_result(played(case, "plaintiff_lawyer", ScriptedAgent()), "plaintiff_lawyer", scorer=RuleBasedScorer())
    for capability, halves in asdf["capabilities"].items():
        values = halves.values() if isinstance(halves, dict) else [halves]
        assert all(value in (None, 0.0) for value in values), capability
    assert asdf["capabilities"]["position_consistency"] == {"first": 0.0, "second": 0.0}
    second = {name: halves["second"] for name, halves in good["capabilities"].items() if isinstance(halves, dict)}
    assert second["position_consistency"] > 0 and second["fact_marshalling"] > 0
    assert not [item for item in asdf["items"] if item["id"].endswith("position_consistency") and item["missing"] == []]


def test_the_judge_seat_typing_asdf_conducts_nothing_but_its_judgments_alignment_is_left_to_the_court():
    case = CASES["en-civil-traffic-accident"]
    result = seat_result(played(case, "judge", Typist(["asdf"], "en")), "judge", scorer=RuleBasedScorer())
    assert result["capabilities"]["procedural_compliance"] == 0.0
    assert result["capabilities"]["neutrality"] == 0.0
    assert all(item["score"] == 0.0 for item in result["items"] if item["capability"] != COURTS_OUTPUT)
