"""The one engine loop (``court.engine.runner``) as its two kinds of consumer take it: at
once in memory (``trial_run``), and a step at a time on a state read anew before each step,
with people's seats awaited (the live driver)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import apply_reply, step_apply, trial_start
from court.engine.participants import ParticipantFailed, seats_held
from court.engine.runner import Awaiting, Given, Paused, Seats, Stop, trial_loop, trial_run
from court.engine.state import TrialState
from court.engine.steps import ArtifactDraft, End, Reply, Speak, StageStart, Step, UpdateMemory
from court.procedures.civil import CIVIL_SEATS, DECISIONS

PERSON = "plaintiff_lawyer"


def agents() -> dict:
    return {seat: ScriptedAgent() for seat in CIVIL_SEATS}


class Store:
    """A trial as a database holds it: every pass reads it anew, every step taken is stored."""

    def __init__(self, state: TrialState) -> None:
        self.stored = state.to_dict()
        self.taken: list[Step] = []

    def read(self) -> TrialState:
        return TrialState.from_dict(json.loads(json.dumps(self.stored)))

    def run(self, seats: Seats, meanwhile: Callable[[Store], None] = lambda store: None) -> Stop:
        """Take the steps the loop asks for as the live driver does, until it stops;
        ``meanwhile`` writes as another process would, after each step."""
        loop = trial_loop(self.read, seats)
        given: Given = None
        while True:
            try:
                due = loop.send(given)
            except StopIteration as stopped:
                return stopped.value
            given = due.ask()
            if not due.awaits(given):
                step_apply(due.state, due.step, given)
                self.stored = due.state.to_dict()
                self.taken.append(due.step)
                meanwhile(self)

    def seat(self, seat: str, person: str | None) -> None:
        """A person takes ``seat`` (None: hands it back to its agent)."""
        state = self.read()
        if person is None:
            state.human_seats.pop(seat)
        else:
            state.human_seats[seat] = person
        self.stored = state.to_dict()

    def say(self, step: Speak, text: str) -> None:
        """What a person's ``say`` does in another process: the turn is recorded and stored."""
        state = self.read()
        decision = DECISIONS[step.act][0] if step.act in DECISIONS else None
        artifact = ArtifactDraft(text[:300], text) if step.artifact else None
        apply_reply(state, step, Reply(text=text, author="human", decision=decision, artifact=artifact))
        self.stored = state.to_dict()


def test_a_trial_read_anew_before_every_step_plays_as_one_run_in_memory(civil_seed):
    in_memory = trial_start(case=civil_seed, target_side="plaintiff")
    assert isinstance(trial_run(in_memory, agents()), End)
    store = Store(trial_start(case=civil_seed, target_side="plaintiff"))
    assert isinstance(store.run(lambda _: agents()), End)
    assert [(turn.seat, turn.text) for turn in store.read().turns] == [
        (turn.seat, turn.text) for turn in in_memory.turns
    ]


def test_a_persons_seat_is_awaited_until_their_words_are_recorded_and_their_memory_step_is_taken_empty(civil_seed):
    store = Store(trial_start(case=civil_seed, target_side="plaintiff", human_seats={PERSON: "sam"}))
    seats = partial(seats_held, agents=agents())
    said = []
    while not any(isinstance(step, StageStart) and step.stage != "LC" for step in store.taken):
        stopped = store.run(seats)
        assert isinstance(stopped, Awaiting) and isinstance(stopped.step, Speak) and stopped.step.seat == PERSON, (
            stopped
        )
        store.say(stopped.step, f"Question {len(said)} from counsel.")
        said.append(stopped.step.seq)
    state = store.read()
    assert [turn.author for turn in state.turns if turn.seq in said] == ["human"] * len(said)
    assert UpdateMemory("LC", PERSON) in store.taken
    assert state.memory[PERSON] == trial_start(case=civil_seed, target_side="plaintiff").memory[PERSON]


def test_a_seat_taken_while_the_trial_runs_is_awaited_from_its_next_step_and_played_by_its_agent_once_handed_back(
    civil_seed,
):
    store = Store(trial_start(case=civil_seed, target_side="plaintiff"))
    seats = partial(seats_held, agents=agents())
    stopped = store.run(seats, meanwhile=lambda store: store.seat(PERSON, "sam") if len(store.taken) == 1 else None)
    assert isinstance(stopped, Awaiting) and stopped.step.seat == PERSON
    store.seat(PERSON, None)
    assert isinstance(store.run(seats), End)
    assert all(turn.author == "agent" for turn in store.read().turns)


class FailsOnce(ScriptedAgent):
    def __init__(self) -> None:
        super().__init__()
        self.failed = False

    def respond(self, request, *, on_delta=None):
        if not self.failed:
            self.failed = True
            raise ParticipantFailed("the model server is down")
        return super().respond(request, on_delta=on_delta)


def test_a_failed_seat_pauses_the_run_at_its_step_with_nothing_recorded_and_the_next_run_resumes_there(civil_seed):
    state = trial_start(case=civil_seed, target_side="plaintiff")
    participants = agents() | {"judge": FailsOnce()}
    stopped = trial_run(state, participants)
    assert isinstance(stopped, Paused) and stopped.step.seat == "judge"
    assert stopped.reason == "the model server is down"
    assert stopped.step.seq == len(state.turns) + 1
    assert isinstance(trial_run(state, participants), End)
    assert next(turn for turn in state.turns if turn.seq == stopped.step.seq).seat == "judge"
