"""Objections as a court rules them (docs/offline-court.md, "Objections"): a ground is
sustained only when the record shows the defect, a sustained objection strikes the statement
or the exhibits objected to and nothing more, a struck exhibit re-offered with its foundation
counts again, and whole trials come out as the rules say."""

from __future__ import annotations

import json

import pytest

from agents.scripted.agent import ScriptedAgent
from agents.scripted.context import Ctx, disposition_of
from agents.scripted.heard import heard_of
from agents.scripted.objections import rule_objection
from court.engine.machine import next_step, step_apply, trial_start
from court.engine.objecting import apply_objection
from court.engine.objections import objection_text
from court.engine.participants import MemoryRequest, TurnRequest
from court.engine.state import TrialState
from court.engine.steps import MemoryUpdate, Speak, UpdateMemory
from court.engine.visibility import SeatView, build_view
from tests.agents.test_offline_court import Student
from tests.conftest import DEMO_CASES

AGENT = ScriptedAgent()
Objection = tuple[str, str, str, str]
"""(seat objecting, ground, its words, the act it objects to)."""


def played(
    case_id: str, people: dict[str, Student], objections: list[Objection], *, last_stage: str | None = None
) -> TrialState:
    """A trial with ``people`` at their seats and scripted agents at the others; each
    objection is made once, just after the first statement of its act by the other side."""
    case = json.loads((DEMO_CASES / f"{case_id}.json").read_text(encoding="utf-8"))
    state = trial_start(
        case=case, target_side="defendant", human_seats=dict.fromkeys(people, "student"), last_stage=last_stage
    )
    waiting = list(objections)
    while not state.finished:
        step = next_step(state)
        if isinstance(step, Speak):
            view = build_view(state, step.seat, phase=step.phase)
            step_apply(state, step, people.get(step.seat, AGENT).respond(TurnRequest(step, view)))
            turn = state.turns[-1]
            for objection in [item for item in waiting if item[3] == turn.act and item[0] != turn.seat]:
                waiting.remove(objection)
                seat, ground, words, _ = objection
                apply_objection(state, seat=seat, ground=ground, detail=words, speaker_seat=turn.seat)
        elif isinstance(step, UpdateMemory):
            view = build_view(state, step.seat, phase="memory")
            step_apply(
                state, step, MemoryUpdate() if step.seat in people else AGENT.update_memory(MemoryRequest(step, view))
            )
        else:
            step_apply(state, step)
    assert not waiting, waiting
    return state


CLAIMS = ["Order the defendant to repay the loan of RMB 50,000"]
FACTS = "The defendant borrowed RMB 50,000 from the plaintiff by bank transfer on 1 March 2024 and has not repaid it."
DEFENCE = "The loan was repaid in cash in June 2024."
IOU = "IOU signed by the defendant"
RECEIPT = "Bank transfer receipt"
PHOTO = "Photograph of the plaintiff's holiday"
EXHIBITS = {
    "plaintiff": [
        {"name": IOU, "purpose": "the defendant borrowed RMB 50,000"},
        {"name": RECEIPT, "purpose": "the loan was transferred to the defendant"},
        {"name": PHOTO, "purpose": "the plaintiff spent a week in Hainan"},
    ],
    "defendant": [{"name": "Cash withdrawal slip", "purpose": "the defendant withdrew cash to repay"}],
}
OFFER = f"We present the following evidence:\n1. {IOU}, to prove the loan.\n2. {RECEIPT}, to prove the transfer."
OFFER_ALL = f"{OFFER}\n3. {PHOTO}, to prove the plaintiff's week away."
SPECULATIVE = f"We present:\n1. {IOU}, which he probably signed after dinner.\n2. {RECEIPT}, to prove the transfer."
STATEMENT = "statement"


def hearing(statement: dict, objection: str) -> list[dict]:
    """A civil evidence phase as the judge's seat hears it: the defendant's counsel answered
    with its defence, the plaintiff's counsel offered its evidence when the defendant's
    cross-examines, then ``statement`` and the objection to it."""
    said = [{"seq": 1, "phase": "investigation", "act": "state_defence", "seat": "defendant_lawyer", "text": DEFENCE}]
    if statement["seat"] == "defendant_lawyer":
        said.append(
            {"seq": 2, "phase": "evidence", "act": "present_evidence", "seat": "plaintiff_lawyer", "text": OFFER}
        )
    said.append({"seq": len(said) + 1, "phase": "evidence"} | statement)
    objecting = "plaintiff_lawyer" if statement["seat"] == "defendant_lawyer" else "defendant_lawyer"
    return [*said, {"seq": len(said) + 1, "phase": "evidence", "act": "object", "seat": objecting, "text": objection}]


def judge(dialogue: list[dict]) -> Ctx:
    fields = {
        "claims": {"shared": CLAIMS},
        "facts": {"plaintiff": FACTS, "defendant": DEFENCE},
        "evidence": EXHIBITS,
    }
    view = SeatView(
        "judge", "judge", "court", "FIT", "FIT", "evidence", "civil", "en", {}, fields=fields, dialogue=dialogue
    )
    return Ctx(view)


# fmt: off
RULES = [
    # ground, act, what was said, the objection's words -> the ruling, what it strikes, why
    ("irrelevant", "present_evidence", OFFER, "", "Overruled", [], "both exhibits go to the loan in dispute"),
    ("irrelevant", "present_evidence", OFFER_ALL, "", "Sustained", [PHOTO], "only the holiday photograph is off the point"),
    ("irrelevant", "argue", "asdf", "", "Sustained", STATEMENT, "asdf shares nothing with the dispute"),
    ("irrelevant", "argue", "The defendant never repaid the loan.", "", "Overruled", [], "argument on the loan"),
    ("hearsay", "answer_judge", "My neighbour told me he had the money.", "", "Sustained", STATEMENT, "told me"),
    ("hearsay", "answer_judge", "I transferred the money on 1 March.", "", "Overruled", [], "the party's own words"),
    ("speculation", "present_evidence", SPECULATIVE, "", "Sustained", [IOU], "only the IOU was offered on a guess"),
    ("speculation", "present_evidence", OFFER, "", "Overruled", [], "nothing conjectured"),
    ("speculation", "answer_judge", "He must have spent it all.", "", "Sustained", STATEMENT, "must have"),
    ("leading", "ask_question", "You signed the IOU, didn't you?", "", "Sustained", STATEMENT, "its answer attached"),
    ("leading", "ask_question", "What happened on 1 March?", "", "Overruled", [], "an open question"),
    ("argumentative", "present_evidence", f"1. {IOU}: so the defendant is liable.", "", "Sustained", [IOU], "a conclusion"),
    ("beyond_scope", "cross_examine", "asdf", "", "Sustained", STATEMENT, "it answers nothing raised"),
    ("beyond_scope", "cross_examine", "The transfer receipt is a copy.", "", "Overruled", [], "it answers the offer"),
    ("irrelevant", "present_evidence", OFFER_ALL, "The holiday photograph is beside the point.", "Sustained", [PHOTO],
     "the exhibit the objection names"),
    ("speculation", "present_evidence", SPECULATIVE, f"The {RECEIPT.lower()} is a guess.", "Overruled", [],
     "the exhibit named shows no guess; the one that does was not objected to"),
    ("irrelevant", "present_evidence", f"1. {IOU}\n2. {PHOTO} —", "", "Sustained", [PHOTO], "cut while offering it"),
    ("irrelevant", "present_evidence", f"1. {IOU} —", "", "Overruled", [], "cut while offering one on the point"),
    ("irrelevant", "argue", "The defendant submits —", "", "Overruled", [], "cut before it said anything"),
    ("irrelevant", "argue", "The weather in Hainan was lovely that week —", "", "Sustained", STATEMENT, "cut off the point"),
    ("leading", "present_evidence", OFFER, "", "Overruled", [], "a ground that does not fit the act"),
    ("other", "argue", "asdf", "", "Overruled", [], "no recognised ground"),
]
# fmt: on


@pytest.mark.parametrize(("ground", "act", "said", "words", "ruling", "struck", "why"), RULES)
def test_the_court_sustains_a_ground_only_on_the_record_and_strikes_only_what_shows_it(
    ground, act, said, words, ruling, struck, why
):
    seat = "defendant_lawyer" if act == "cross_examine" else "plaintiff_lawyer"
    dialogue = hearing({"act": act, "text": said, "seat": seat}, objection_text(ground, words, "en"))
    text = rule_objection(judge(dialogue))
    assert text.startswith(ruling), (why, text)
    if struck == STATEMENT:
        heard = [turn["seq"] for turn in heard_of([*dialogue, ruled(text)]).turns]
        assert text.endswith(" is struck.") and heard == [turn["seq"] for turn in dialogue[:-2]], why
        return
    heard = [*dialogue, ruled(text)]
    assert heard_of(heard).struck == frozenset(struck), why
    assert ("The court strikes" in text) == bool(struck), text
    record = heard_of(heard).turns[-1]["text"]
    assert all((name in record) == (name not in struck) for name in (IOU, RECEIPT, PHOTO) if name in said), why


def ruled(text: str) -> dict:
    return {"seq": 99, "phase": "evidence", "act": "rule_objection", "seat": "judge", "text": text}


FOUNDED = f"We offer the {IOU} again: the original, signed by the defendant, to prove he borrowed RMB 50,000."
# fmt: off
CURES = [
    # a later statement: its words, phase and seat -> the struck IOU counts again, why
    (FOUNDED, "evidence", "plaintiff_lawyer", True, "re-offered with where it comes from, authenticity and purpose"),
    (f"We rely on the {IOU} as well.", "evidence", "plaintiff_lawyer", False, "named again without its foundation"),
    (f"The original {IOU}, signed by him.", "evidence", "plaintiff_lawyer", False, "no purpose given"),
    (FOUNDED, "debate", "plaintiff_lawyer", False, "argument is not evidence: only the evidence phase cures"),
    (FOUNDED, "evidence", "defendant_lawyer", False, "only the side that offered it may re-offer it"),
]
# fmt: on


@pytest.mark.parametrize(("said", "phase", "seat", "cured", "why"), CURES)
def test_a_struck_exhibit_counts_again_only_when_its_side_reoffers_it_with_its_foundation(
    said, phase, seat, cured, why
):
    dialogue = hearing(
        {"act": "present_evidence", "text": SPECULATIVE, "seat": "plaintiff_lawyer"},
        objection_text("speculation", "", "en"),
    )
    dialogue.append(ruled(rule_objection(judge(dialogue))))
    assert heard_of(dialogue).struck == {IOU}
    later = {"seq": 100, "phase": phase, "act": "cross_examine", "seat": seat, "text": said}
    assert (IOU not in heard_of([*dialogue, later]).struck) == cured, why
    heard = heard_of([*dialogue, later]).turns[-1]["text"]
    offered_again = phase == "evidence" and seat == "plaintiff_lawyer"
    assert (IOU in heard) == (cured or not offered_again), "a mention without its foundation is left out"


def test_a_ruling_that_names_no_exhibit_strikes_the_whole_statement():
    """A student presiding who says only "Sustained." strikes what was objected to, whole."""
    dialogue = hearing(
        {"act": "present_evidence", "text": OFFER_ALL, "seat": "plaintiff_lawyer"},
        objection_text("irrelevant", "", "en"),
    )
    assert [turn["seq"] for turn in heard_of([*dialogue, ruled("Sustained.")]).turns] == [1]
    assert heard_of([*dialogue, ruled("Overruled.")]).turns[-1]["text"] == OFFER_ALL


def judgment(state: TrialState, kind: str) -> str:
    return state.artifacts_of(kind)[-1].text


def ruling_on(state: TrialState, act: str) -> str:
    """The judge's ruling on the objection to the first statement of ``act``."""
    at = next(index for index, turn in enumerate(state.turns) if turn.act == act)
    assert state.turns[at + 1].act == "object"
    return state.turns[at + 2].text


@pytest.mark.parametrize(
    ("case_id", "dismissed"),
    [("en-civil-traffic-accident", "dismissed in full"), ("zh-civil-private-lending", "驳回原告的全部诉讼请求")],
)
def test_an_asdf_defence_objecting_irrelevant_to_the_plaintiffs_evidence_is_overruled_and_the_claims_stand(
    case_id, dismissed
):
    """Issue 41: the objection used to be sustained, the evidence struck and every claim dismissed."""
    objecting = played(
        case_id,
        {"defendant_lawyer": Student()},
        [("defendant_lawyer", "irrelevant", "", "present_evidence")],
        last_stage="FIT",
    )
    silent = played(case_id, {"defendant_lawyer": Student()}, [], last_stage="FIT")
    ruling = ruling_on(objecting, "present_evidence")
    assert ruling.startswith(("Overruled", "反对无效")) and ("point in dispute" in ruling or "争议焦点" in ruling)
    decided = disposition_of(judgment(objecting, "first_instance_judgment"))
    assert dismissed not in decided
    assert decided == disposition_of(judgment(silent, "first_instance_judgment")), "the objection changed nothing"


HEARSAY_EVIDENCE = (
    "The prosecution presents:\n"
    "1. Bank statements of the three accounts: a bank clerk told me they show RMB 86,000 passing through.\n"
    "2. Victims' statements and transfer records: I heard from the police that three victims were defrauded.\n"
    "3. Chat records recovered from the defendant's phone: an officer told me they show his instructions.\n"
    "4. The defendant's statements: I was told he admitted renting out cards."
)
CURED = (
    "The prosecution offers again the chat records recovered from his phone: extracted by the police forensic unit, "
    "certified and unaltered, to prove that he took his instructions from the ring."
)


def criminal_trial(cross_examination: str) -> TrialState:
    """Defence counsel types asdf and objects "hearsay" to a prosecutor (a student) who offers
    every exhibit on what others told them; the prosecutor then answers the defence's evidence."""
    prosecutor = Student({"present_evidence": HEARSAY_EVIDENCE, "cross_examine": cross_examination})
    return played(
        "en-criminal-telecom-fraud",
        {"attorney": Student(), "prosecutor": prosecutor},
        [("attorney", "hearsay", "", "present_evidence")],
    )


def test_every_prosecution_exhibit_struck_and_not_cured_acquits():
    state = criminal_trial("The prosecution has nothing to add on the defence's evidence.")
    ruling = ruling_on(state, "present_evidence")
    assert ruling.startswith("Sustained") and "The court strikes" in ruling and "Chat records" in ruling
    decided = judgment(state, "criminal_judgment")
    assert "acquitted" in disposition_of(decided) and "produced no evidence" in decided


def test_a_struck_exhibit_reoffered_with_its_foundation_counts_and_convicts():
    state = criminal_trial(CURED)
    assert "convicted" in disposition_of(judgment(state, "criminal_judgment"))
    heard = build_view(state, "judge", phase="pronouncement").dialogue
    assert heard_of(heard).struck == {
        "Bank statements of the three accounts",
        "Victims' statements and transfer records",
        "The defendant's statements",
    }, "the chat records count again; the exhibits still struck do not"


def test_every_prosecution_exhibit_struck_acquits_though_the_prosecutor_then_cross_examines():
    """The scripted prosecutor answers the defence's evidence naming "Statement of the
    defendant's mother": half the words of "The defendant's statements", which the record
    then reads as produced although the court struck it."""
    prosecutor = Student({"present_evidence": HEARSAY_EVIDENCE})
    state = played(
        "en-criminal-telecom-fraud",
        {"attorney": Student(), "prosecutor": prosecutor},
        [("attorney", "hearsay", "", "present_evidence")],
    )
    assert "acquitted" in disposition_of(judgment(state, "criminal_judgment"))


def test_the_chinese_court_strikes_only_the_exhibit_offered_on_hearsay_and_says_so():
    offer = "公诉人出示以下证据：\n1. 血液酒精含量检验鉴定书，听说结果是醉酒。\n2. 道路交通事故认定书，证明被告人负事故全部责任。"
    state = played(
        "zh-criminal-dangerous-driving",
        {"attorney": Student(), "prosecutor": Student({"present_evidence": offer})},
        [("attorney", "hearsay", "", "present_evidence")],
        last_stage="evidence",
    )
    ruling = ruling_on(state, "present_evidence")
    assert ruling.startswith("反对有效") and "本庭排除《血液酒精含量检验鉴定书》。" in ruling
    assert "《道路交通事故认定书》予以保留" in ruling
    heard = build_view(state, "judge", phase="pronouncement").dialogue
    assert heard_of(heard).struck == {"血液酒精含量检验鉴定书"}
