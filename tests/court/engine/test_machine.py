from __future__ import annotations

import json

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import (
    EngineError,
    apply_judge_control,
    apply_judge_question,
    apply_reply,
    apply_stage_start,
    next_step,
    step_apply,
    trial_start,
)
from court.engine.objecting import apply_objection_cut
from court.engine.objections import objection_refusal, statement_resumed, words_after
from court.engine.participants import HumanParticipant
from court.engine.runner import Awaiting, trial_run
from court.engine.state import TrialState
from court.engine.steps import End, MemoryUpdate, Reply, Speak, UpdateMemory
from court.procedures.civil import CIVIL_LIFE_CYCLE, CIVIL_SEATS, FOLLOW_UPS
from court.procedures.names import phase_name
from court.procedures.structure import DIALOGUE_TURN_BUDGET, TRIAL_TURN_BUDGET
from tests.conftest import DEMO_CASES


def agents() -> dict:
    return {seat: ScriptedAgent() for seat in CIVIL_SEATS}


def run(seed: dict, **options) -> TrialState:
    state = trial_start(case=seed, **options)
    assert isinstance(trial_run(state, agents()), End)
    return state


def artifacts_by_stage(state: TrialState) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for artifact in state.artifacts:
        result.setdefault(artifact.stage, []).append(artifact.kind)
    return result


def test_plaintiff_target_runs_the_whole_life_cycle(civil_seed):
    state = run(civil_seed, target_side="plaintiff")
    assert state.stage_history == ["LC", "CD", "FIT", "AD-Det", "AR", "SIT"]
    assert artifacts_by_stage(state) == {
        "LC": ["consultation_record"],
        "CD": ["complaint"],
        "FIT": ["first_instance_judgment"],
        "AD-Det": ["appeal_determination"],
        "AR": ["appeal_response"],
        "SIT": ["second_instance_judgment"],
    }
    assert state.appellant_side == "defendant"


def test_defendant_target_drafts_the_defence_and_the_appeal(civil_seed):
    state = run(civil_seed, target_side="defendant")
    assert state.stage_history == ["LC", "DD", "FIT", "AD-Det", "AD", "SIT"]
    lc_speakers = {turn.seat for turn in state.turns if turn.stage == "LC"}
    assert lc_speakers == {"defendant_client", "defendant_lawyer"}


def test_without_appeal_fields_the_case_ends_after_first_instance(civil_seed):
    del civil_seed["second_instance"]
    state = run(civil_seed, target_side="plaintiff")
    assert state.stage_history == ["LC", "CD", "FIT"]


def test_mediation_accepted_by_both_sides_ends_the_case_with_a_mediation_record(civil_seed):
    for side in ("plaintiff", "defendant"):
        civil_seed["goals"][side]["accepts_mediation"] = True
    state = run(civil_seed, target_side="plaintiff")
    assert state.stage_history == ["LC", "CD", "FIT"]
    assert artifacts_by_stage(state)["FIT"] == ["mediation_record"]
    assert state.turns[-1].act == "write_mediation_record"


def test_mediation_declined_by_one_side_goes_on_to_judgment(civil_seed):
    civil_seed["goals"]["plaintiff"]["accepts_mediation"] = True
    state = run(civil_seed, target_side="plaintiff")
    assert artifacts_by_stage(state)["FIT"] == ["first_instance_judgment"]


def test_trial_phases_follow_algorithm_one(civil_seed):
    state = run(civil_seed, target_side="plaintiff")
    phases = list(dict.fromkeys(turn.phase for turn in state.turns if turn.stage == "FIT"))
    assert phases == [
        "opening",
        "investigation",
        "evidence",
        "questioning",
        "debate",
        "final_statements",
        "mediation",
        "pronouncement",
    ]


def test_consultation_turn_budget_is_enforced_and_the_record_still_written(civil_seed):
    civil_seed["consultation"] = [{"question": f"Question {n}?", "side": "plaintiff"} for n in range(40)]
    state = run(civil_seed, target_side="plaintiff", last_stage="LC")
    lc_turns = [turn for turn in state.turns if turn.stage == "LC"]
    assert len(lc_turns) == DIALOGUE_TURN_BUDGET
    assert lc_turns[-1].act == "write_consultation_record"
    assert [artifact.kind for artifact in state.artifacts] == ["consultation_record"]


def test_the_lawyer_puts_several_follow_up_questions_each_answered_before_the_next(civil_seed):
    """Issue #44 item 2: one follow-up question made the lawyer cram the whole agenda into one
    turn. The lawyer now asks, the client answers, and the lawyer may ask again, up to
    ``FOLLOW_UPS`` questions."""
    state = trial_start(case=civil_seed, target_side="plaintiff", human_seats={"plaintiff_lawyer": "student"})
    human = HumanParticipant()
    participants = agents() | {"plaintiff_lawyer": human}
    for number in range(FOLLOW_UPS):
        outcome = trial_run(state, participants)
        assert isinstance(outcome, Awaiting) and outcome.step.act == "ask_follow_up", number
        human.submit(Reply(text=f"Question {number + 1}: when did you hand over the money?"))
    outcome = trial_run(state, participants)

    follow_ups = [(turn.seat, turn.act) for turn in state.turns if turn.phase == "follow_up"]
    assert follow_ups == [("plaintiff_lawyer", "ask_follow_up"), ("plaintiff_client", "answer_follow_up")] * FOLLOW_UPS
    assert isinstance(outcome, Awaiting) and outcome.step.act == "answer_question", "then the client's questions"


def test_the_lawyer_closes_the_interview_and_the_client_asks_next(civil_seed):
    state = trial_start(case=civil_seed, target_side="plaintiff", human_seats={"plaintiff_lawyer": "student"})
    human = HumanParticipant()
    participants = agents() | {"plaintiff_lawyer": human}
    trial_run(state, participants)
    human.submit(Reply(text="What evidence do you have?"))
    trial_run(state, participants)
    human.submit(Reply(text="That is all I need to know.", ends_phase=True))
    outcome = trial_run(state, participants)

    asked = [turn.text for turn in state.turns if turn.seat == "plaintiff_lawyer"]
    assert asked == ["What evidence do you have?", "That is all I need to know."]
    assert [turn.act for turn in state.turns][-1] == "ask_question", "the client's own questions come next"
    assert isinstance(outcome, Awaiting) and outcome.step.act == "answer_question"


def test_trial_budget_is_sixty_turns():
    assert TRIAL_TURN_BUDGET == 60 and DIALOGUE_TURN_BUDGET == 30


def test_seq_is_gap_free_across_stages(civil_seed):
    state = run(civil_seed, target_side="plaintiff")
    assert [turn.seq for turn in state.turns] == list(range(1, len(state.turns) + 1))


def test_until_stops_after_the_named_stage(civil_seed):
    state = run(civil_seed, target_side="plaintiff", last_stage="FIT")
    assert state.stage_history == ["LC", "CD", "FIT"] and state.finished


def test_a_human_seat_is_awaited_and_the_run_resumes_with_their_words(civil_seed):
    state = trial_start(case=civil_seed, target_side="plaintiff", human_seats={"plaintiff_lawyer": "student"})
    human = HumanParticipant()
    participants = agents() | {"plaintiff_lawyer": human}

    outcome = trial_run(state, participants)

    assert isinstance(outcome, Awaiting)
    assert outcome.step.seat == "plaintiff_lawyer" and outcome.step.act == "ask_follow_up"
    human.submit(Reply(text="When exactly did you hand over the money?"))
    outcome = trial_run(state, participants)
    asked = next(turn for turn in state.turns if turn.text == "When exactly did you hand over the money?")
    assert asked.author == "human" and asked.seat == "plaintiff_lawyer"
    assert isinstance(outcome, Awaiting) and outcome.step.seat == "plaintiff_lawyer"


def test_state_survives_a_json_round_trip_mid_trial(civil_seed):
    state = trial_start(case=civil_seed, target_side="plaintiff", human_seats={"judge": "teacher"})
    judge = HumanParticipant()
    trial_run(state, agents() | {"judge": judge})
    restored = TrialState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert next_step(restored) == next_step(state)
    for copy in (state, restored):
        trial_run(copy, agents())
    assert [turn.text for turn in restored.turns] == [turn.text for turn in state.turns]


def test_a_reply_to_a_step_that_was_not_asked_is_refused(civil_seed):
    state = trial_start(case=civil_seed, target_side="plaintiff")
    trial_run(state, agents() | {"plaintiff_lawyer": HumanParticipant()})
    step = next_step(state)
    assert isinstance(step, Speak)
    wrong = Speak(**{**step.__dict__, "seat": "judge"})
    with pytest.raises(EngineError):
        apply_reply(state, wrong, Reply(text="I speak out of turn"))


def test_until_names_a_stage_or_its_alternative(civil_seed):
    assert run(civil_seed, target_side="defendant", last_stage="CD").stage_history == ["LC", "DD"]
    assert run(civil_seed, target_side="plaintiff", last_stage="AD").stage_history == [
        "LC",
        "CD",
        "FIT",
        "AD-Det",
        "AR",
    ]
    assert run(civil_seed, target_side="plaintiff", last_stage="AD-Det").stage_history == ["LC", "CD", "FIT", "AD-Det"]


def at_fit(seed: dict) -> TrialState:
    """A state whose first-instance trial has just started (earlier stages played by agents)."""
    state = trial_start(case=seed, target_side="plaintiff")
    trial_run(state, agents(), stop_before="FIT")
    apply_stage_start(state, next_step(state))
    return state


def test_a_presiding_judge_moves_the_hearing_on(civil_seed):
    state = at_fit(civil_seed)
    phases = [phase.id for phase in CIVIL_LIFE_CYCLE.stage("FIT").phases]
    first = next_step(state).phase
    apply_judge_control(state, "advance")
    assert next_step(state).phase == phases[phases.index(first) + 1]
    apply_judge_control(state, "mediation")
    mediation = next(phase.id for phase in CIVIL_LIFE_CYCLE.stage("FIT").phases if phase.decision == "mediation")
    assert next_step(state).phase == mediation
    apply_judge_control(state, "pronounce")
    step = next_step(state)
    assert step.seat == "judge" and step.artifact == "first_instance_judgment", "straight to the judgment"
    with pytest.raises(EngineError, match="only while it is in progress"):
        apply_judge_control(state, "advance")


def test_a_party_the_judge_questions_answers_before_anything_else(civil_seed):
    state = at_fit(civil_seed)
    before = next_step(state)
    question = apply_judge_question(
        state, seat="defendant_lawyer", text="When did you first see the car?", author="human"
    )
    assert (question.seat, question.act, question.author) == ("judge", "question_party", "human")
    answer = next_step(state)
    assert (answer.seat, answer.act, answer.seq) == ("defendant_lawyer", "answer_judge", question.seq + 1)
    with pytest.raises(EngineError, match="defendant_lawyer must first answer judge"):
        apply_judge_control(state, "advance")
    apply_reply(state, answer, Reply(text="At the crossing."))
    resumed = next_step(state)
    assert (resumed.seat, resumed.act, resumed.phase) == (before.seat, before.act, before.phase)
    assert resumed.seq == before.seq + 2, "the procedure picks up where it was, numbering on"
    with pytest.raises(EngineError, match="does not take part"):
        apply_judge_question(state, seat="witness", text="?", author="human")
    assert TrialState.from_dict(json.loads(json.dumps(state.to_dict()))).to_dict() == state.to_dict()


def criminal_before(seat: str, act: str, phase: str) -> TrialState:
    """A criminal trial played by scripted agents until ``seat`` is asked for ``act`` in ``phase``
    (defence counsel is a person's seat, answered with the scripted words)."""
    from tests.court.engine.test_objections import respond

    case = json.loads((DEMO_CASES / "en-criminal-telecom-fraud.json").read_text(encoding="utf-8"))
    state = trial_start(case=case, target_side="defendant", human_seats={"attorney": "ann"})
    while True:
        step = next_step(state)
        if isinstance(step, Speak) and (step.seat, step.act, step.phase) == (seat, act, phase):
            return state
        if isinstance(step, Speak):
            step_apply(state, step, respond(state, step))
        elif isinstance(step, UpdateMemory):
            step_apply(state, step, MemoryUpdate())
        else:
            step_apply(state, step)


def test_an_objection_cutting_the_last_statement_of_a_stage_is_heard_before_the_stage_closes():
    """Issue 32 item 2: defence counsel objects (leading question) while the prosecutor answers
    the defence's evidence, the last statement of the evidence stage. The cut used to close the
    stage first, so the objection raised EngineError and paused the trial."""
    state = criminal_before("prosecutor", "cross_examine", "defence_evidence")
    step = next_step(state)
    cut, objection = apply_objection_cut(
        state, step, shown="The prosecution disputes", seat="attorney", ground="leading", detail=""
    )
    assert (cut.seq, cut.seat, cut.text) == (step.seq, "prosecutor", "The prosecution disputes —")
    assert objection.text == "Objection: leading question." and state.stage_status == "running"
    ruling = next_step(state)
    assert (ruling.seat, ruling.act, ruling.stage) == ("judge", "rule_objection", "evidence")


def test_an_overruled_objection_lets_the_cut_statement_resume_where_it_was_cut():
    state = criminal_before("prosecutor", "cross_examine", "defence_evidence")
    step = next_step(state)
    apply_objection_cut(state, step, shown="The prosecution disputes", seat="attorney", ground="leading", detail="")
    step_apply(state, next_step(state), Reply(text='Overruled: "leading question" does not apply.'))
    again = next_step(state)
    assert (again.seat, again.act, again.seq) == ("prosecutor", "cross_examine", step.seq + 3)
    assert statement_resumed(state, again) == "The prosecution disputes"
    assert words_after("The prosecution disputes", "The prosecution  disputes the receipts.") == " the receipts."
    assert words_after("The prosecution disputes", "The prosecution") == ""
    assert words_after("The prosecution disputes", "Something else.") is None
    step_apply(state, again, Reply(text="— the receipts."))
    assert state.stage_status != "running", "the resumed statement closed the stage as the whole one would have"
    texts = [turn.text for turn in state.turns[-4:]]
    assert texts[0].endswith("—") and texts[-1] == "— the receipts."


def test_a_sustained_objection_ends_the_cut_statement_and_the_procedure_moves_on():
    state = criminal_before("prosecutor", "present_evidence", "prosecution_evidence")
    step = next_step(state)
    apply_objection_cut(state, step, shown="1. The bank", seat="attorney", ground="speculation", detail="")
    step_apply(state, next_step(state), Reply(text="Sustained: that is conjecture."))
    after = next_step(state)
    assert (after.seat, after.act) == ("attorney", "cross_examine"), "the struck statement is not made again"
    assert statement_resumed(state, after) is None
    cut, objection, ruling = state.turns[-3:]
    assert (cut.text, objection.act, ruling.act) == ("1. The bank —", "object", "rule_objection")


def test_an_objection_to_a_statement_that_closed_the_hearing_is_refused_with_the_reason():
    state = criminal_before("prosecutor", "cross_examine", "defence_evidence")
    step = next_step(state)
    step_apply(state, step, Reply(text="The prosecution disputes the receipts."))
    refusal = objection_refusal(state, seat="attorney", speaker_seat="prosecutor")
    assert refusal and "can no longer be heard" in refusal


def test_counsel_without_their_client_advises_before_the_client_agent_answers_mediation(civil_seed):
    """Issue 32 item 8: a person in counsel's seat, the client an agent, was never asked
    about mediation; now counsel advises first and the client hears it before deciding."""
    state = at_fit(civil_seed)
    state.human_seats["plaintiff_lawyer"] = "student"
    apply_judge_control(state, "mediation")
    step = next_step(state)
    assert (step.seat, step.act) == ("judge", "propose_mediation")
    step_apply(state, step, Reply(text="Will the parties settle?"))
    advice = next_step(state)
    assert (advice.seat, advice.act, advice.phase) == ("plaintiff_lawyer", "summarise_advice", "mediation")
    step_apply(state, advice, Reply(text="I advise you to accept: the evidence on fault is mixed.", author="human"))
    answer = next_step(state)
    assert (answer.seat, answer.act) == ("plaintiff_client", "answer_mediation")
    assert state.turns[-1].act == "summarise_advice" and state.turns[-1].author == "human"
    step_apply(state, answer, Reply(text="I accept.", decision="accept"))
    other = next_step(state)
    assert (other.seat, other.act) == ("defendant_client", "answer_mediation"), "the other side's counsel is an agent"


def test_an_agent_counsel_or_a_client_played_by_a_person_gets_no_advice_step(civil_seed):
    state = at_fit(civil_seed)
    state.human_seats["plaintiff_client"] = "student"
    apply_judge_control(state, "mediation")
    step_apply(state, next_step(state), Reply(text="Will the parties settle?"))
    assert (next_step(state).seat, next_step(state).act) == ("plaintiff_client", "answer_mediation")


def test_a_consultation_writes_its_record_in_a_phase_of_its_own_not_a_pronouncement(civil_seed):
    """Issue 32 item 12: the consultation record's writing was labelled "Pronouncement"."""
    state = run(civil_seed, target_side="plaintiff", last_stage="LC")
    record = next(turn for turn in state.turns if turn.act == "write_consultation_record")
    assert record.phase == "document" and phase_name(record.phase, "en") == "Writing the document"
