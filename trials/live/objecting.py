"""Objections in a live trial, as the driver keeps them: raised by a socket (of any process)
while the other side's statement streams or within the grace period after it ends, then
stored with the engine's rules (``court.engine.objections``) checked again under the row lock.

A statement cut by an objection keeps on the record what was shown, then the objection, and
the procedure waits at it: sustained, the statement ends there; overruled, its speaker
resumes where they were cut (``court.engine.objecting.apply_objection_cut``), and
``Resumption`` keeps an agent from saying again what it had said. An objection in the grace
period leaves the statement whole. Either way the judge's ruling is the trial's next step.
An objection the engine refuses when it is stored (the moment passed, the hearing moved on)
records nothing and its reason goes back to the room; it never stops the trial.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db import transaction

from court.engine.machine import EngineError
from court.engine.objecting import apply_objection, apply_objection_cut
from court.engine.objections import RESUMED, objection_refusal, words_after
from court.engine.state import TurnRecord
from court.engine.steps import Reply, Speak
from trials.models import Trial
from trials.pool import in_pool
from trials.store import progress_store


@dataclass(frozen=True)
class Raised:
    seat: str
    ground: str
    detail: str = ""


@dataclass(frozen=True)
class Refused:
    """An objection the engine would not hear, and why (for the objector's room)."""

    seat: str
    reason: str


@in_pool
def objection_store_cut(trial_id: int, step: Speak, *, shown: str, objection: Raised) -> tuple | Refused:
    """The cut statement and the objection, in one transaction, if the engine allows it."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        state = trial.engine_state
        try:
            recorded = apply_objection_cut(
                state, step, shown=shown, seat=objection.seat, ground=objection.ground, detail=objection.detail
            )
        except EngineError as error:
            return Refused(objection.seat, str(error))
        progress_store(trial, state)
        return recorded


@in_pool
def objection_store_after(trial_id: int, seq: int, objection: Raised) -> TurnRecord | Refused:
    """The objection to turn ``seq``, which ended within the grace period, if it is still the
    last turn and the engine allows it."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        state = trial.engine_state
        last = state.turns[-1] if state.turns else None
        if last is None or last.seq != seq:
            return Refused(objection.seat, "there is no statement to object to now: the moment has passed")
        refusal = objection_refusal(state, seat=objection.seat, speaker_seat=last.seat)
        if refusal is not None:
            return Refused(objection.seat, refusal)
        recorded = apply_objection(
            state, seat=objection.seat, ground=objection.ground, detail=objection.detail, speaker_seat=last.seat
        )
        progress_store(trial, state)
        return recorded


class Resumption:
    """A statement resumed after the objection that cut it was overruled: the speaker (an
    agent asked again) goes on from where they were cut; the words they had already said are
    neither streamed nor recorded again. A speaker who says it otherwise is heard whole."""

    def __init__(self, said: str | None) -> None:
        self.said, self.seen, self.passed = said, "", said is None

    def feed(self, delta: str) -> str:
        """What of a streamed ``delta`` is new."""
        if self.passed:
            return delta
        self.seen += delta
        rest = words_after(self.said or "", self.seen)
        if rest == "":
            return ""
        self.passed = True
        return self.seen if rest is None else RESUMED + rest.lstrip()

    def finish(self, reply: Reply) -> Reply:
        """The reply as recorded: the rest of the statement, marked as resumed."""
        if self.said is None:
            return reply
        rest = words_after(self.said, reply.text)
        return reply if rest is None else replace(reply, text=RESUMED + rest.lstrip())
