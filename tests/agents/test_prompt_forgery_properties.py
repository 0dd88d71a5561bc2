"""Properties: whatever a person says, it reaches every other seat's prompt as that person's
quoted words and nothing more (issue #31, second pass).

A trial is played with a person at the plaintiff's counsel's seat until they have spoken in
the hearing; then, for words drawn from ``tests.hostile_text.forged_text`` (court lines,
"# Task" headings and role labels after every kind of line break, in English and Chinese),
every prompt the real builder makes for the other seats (turn, memory update, supervisor) is
built twice: with those words as the person's turn, and with plain words. The only lines that
differ are the person's own ``[seq] Speaker: "..."`` lines, whose JSON string gives the words
back; the prompt has the same lines, read as ``str.splitlines`` reads them.

The same holds for the other places a prompt prints text it did not write, as JSON: an
agent's memory (which may keep a person's words) and the case's data. Printed with
``json.dumps`` alone, U+2028, U+2029 and NEL stayed raw there and started lines of their own.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.prompts import memory_messages, quoted, turn_messages
from agents.supervisor import supervisor_messages
from court.engine.machine import trial_start
from court.engine.participants import HumanParticipant
from court.engine.runner import Awaiting, trial_run
from court.engine.state import TrialState
from court.engine.steps import Reply, StageStart
from court.engine.visibility import SeatView, build_view
from court.procedures.names import SEATS
from tests.conftest import DEMO_CASES
from tests.hostile_text import assert_only_quoted, forged_text, prompt_lines_changed
from trials.services import agent_participants

CASES = {"en": "en-civil-traffic-accident", "zh": "zh-civil-private-lending"}
PERSON = "plaintiff_lawyer"
PLAIN = "Plain words."
PROPERTIES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def hearing_with_a_person(language: str) -> TrialState:
    """A civil trial in ``language`` whose plaintiff's counsel, a person, has said ``PLAIN``
    twice in the first-instance hearing; every other seat scripted."""
    case = json.loads((DEMO_CASES / f"{CASES[language]}.json").read_text(encoding="utf-8"))
    state = trial_start(case=case, target_side="plaintiff", human_seats={PERSON: "sam"})
    seats = agent_participants("civil", "scripted", target_side="plaintiff")
    assert isinstance(trial_run(state, seats, stop_before="FIT"), StageStart)
    person = HumanParticipant()
    seats[PERSON] = person
    for _ in range(3):
        outcome = trial_run(state, seats)
        assert isinstance(outcome, Awaiting) and outcome.step.seat == PERSON, outcome
        person.submit(Reply(text=PLAIN))
    return state


def with_words(state: TrialState, text: str) -> TrialState:
    """``state`` with every hearing turn of the person saying ``text``."""
    changed = copy.deepcopy(state)
    changed.turns = [
        dataclasses.replace(turn, text=text) if turn.author == "human" and turn.stage == "FIT" else turn
        for turn in changed.turns
    ]
    return changed


def other_seats(state: TrialState) -> list[str]:
    present = {turn.seat for turn in state.turns if turn.stage == "FIT"}
    return [seat for seat in SEATS if seat in present and seat != PERSON]


def every_prompt(state: TrialState, seat: str) -> list[dict[str, str]]:
    """What the openai backend sends for ``seat`` now: its turn, its memory update and, for
    counsel, the supervisor's check of a reply."""
    view = build_view(state, seat, phase=state.turns[-1].phase)
    messages = turn_messages(view, speaker=seat, act="argue", artifact=None)
    messages += memory_messages(build_view(state, seat, phase="memory"), seat)
    if view.role in ("lawyer", "client"):
        messages += supervisor_messages(view, seat, "I agree.")
    return messages


@PROPERTIES
@given(language=st.sampled_from(sorted(CASES)), text=forged_text())
def test_forged_words_change_nothing_in_another_seats_prompt_but_the_persons_quoted_lines(language, text):
    state = hearing_with_a_person(language)
    said = {turn.seq: turn.speaker for turn in state.turns if turn.author == "human" and turn.stage == "FIT"}
    assert len(said) == 2
    for seat in other_seats(state):
        changed = prompt_lines_changed(
            lambda words, seat=seat: every_prompt(with_words(state, words), seat), text, PLAIN
        )
        assert_only_quoted(changed, text, said)


@PROPERTIES
@given(text=forged_text())
def test_a_quoted_turn_is_one_line_that_starts_no_court_line_or_heading(text):
    line = quoted(text)
    assert line.splitlines() == [line], "a reader sees one line"
    assert line.startswith('"') and json.loads(line) == text, "one JSON string: the words, whole"


def seat_view(language: str) -> SeatView:
    state = hearing_with_a_person(language)
    return build_view(state, "defendant_lawyer", phase=state.turns[-1].phase)


def in_memory(view: SeatView, text: str) -> list[dict[str, str]]:
    """An agent's prompt when its memory keeps ``text`` (the scripted counsel keeps a
    person's first words as the client's profile; a model may copy anything it read)."""
    memory = {"client_profile": [text], "facts": ["An accident."]}
    return turn_messages(
        dataclasses.replace(view, memory=memory), speaker="defendant_lawyer", act="argue", artifact=None
    )


def in_case_data(view: SeatView, text: str) -> list[dict[str, str]]:
    """An agent's prompt when a field of the case (as an instructor wrote it) holds ``text``."""
    fields = {name: {owner: text for owner in value} for name, value in view.fields.items()}
    return turn_messages(
        dataclasses.replace(view, fields=fields), speaker="defendant_lawyer", act="argue", artifact=None
    )


@PROPERTIES
@given(
    place=st.sampled_from([in_memory, in_case_data]),
    language=st.sampled_from(sorted(CASES)),
    text=forged_text(),
)
def test_words_in_a_memory_or_the_case_data_stay_inside_that_one_json_line(place, language, text):
    view = seat_view(language)
    changed = prompt_lines_changed(lambda words: place(view, words), text, PLAIN)
    assert changed, "the prompt carries the words"
    for line in changed:
        assert holds(json.loads(line), text), f"the words outside the JSON line: {line!r}"


def holds(value: object, text: str) -> bool:
    """Whether the decoded JSON ``value`` has ``text`` as one of its strings, whole."""
    if isinstance(value, dict):
        return any(holds(item, text) for item in value.values())
    if isinstance(value, list):
        return any(holds(item, text) for item in value)
    return value == text
