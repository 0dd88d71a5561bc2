"""What one socket of the room sends its client: the stored turns on connect and on
``resume``, then the frames of the trial's broadcasts it hears, each sent once.

The receiving half of the socket (``trials.consumers``: parse, check, hand to the session)
and this sending half are two modules, so a ``say`` goes from one socket through the session,
its write and the fan-out to the others' feeds without entering a module twice
(``tests/trials/live/test_say_path.py``).

Turns are numbered without gaps, so a frame whose turn skips past the next one (or an ``end``)
shows this socket lost frames on the way from the channel layer: what it missed is sent from
the store before that frame (``_gap_fill``), and a client that never resumes loses no turn.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from court.engine.machine import next_step
from court.engine.stage_order import preparation_progress
from court.engine.state import TrialState
from court.engine.steps import Speak
from trials.live.services import stage_heard_by, turns_after
from trials.live.session import session_of
from trials.models import Trial
from trials.pool import in_pool
from trials.protocol import (
    END,
    ErrorCode,
    ServerFrame,
    await_guided,
    preparing_frame,
    turn_delta,
    turn_end,
    turn_start_from_end,
)

logger = logging.getLogger(__name__)
RIGHTS_RECHECK_S = 10.0
"""While frames flow, how often a socket re-reads its sign-in and rights unasked: a change
whose notice it missed (a write without signals, a process the in-memory layer cannot reach)
closes it within this time, not only when its client next speaks."""
AWAITS_WITHDRAWN = frozenset({"control", "preparing", ErrorCode.TRIAL_PAUSED, ErrorCode.AGENT_FAILED})
"""Frames (and error codes) after which what was awaited may be no longer: the ``await`` still
pending is sent again (clients drop it on these; README, "The websocket protocol")."""


def _trial_read(trial_id: int) -> tuple[Trial, TrialState]:
    trial = Trial.objects.get(pk=trial_id)
    return trial, trial.engine_state


class TrialFeed(AsyncJsonWebsocketConsumer):
    """A socket of the room as a sender: ``trial_id``, ``seats`` and ``teacher`` are the
    receiving half's (``TrialConsumer``), re-read as rights change."""

    trial_id: int
    seats: list[str]
    teacher: bool

    async def rights_check(self, event: dict) -> None:
        """Re-read the sign-in and rights, closing the socket if none are left (the receiving half's)."""
        raise NotImplementedError

    def feed_start(self) -> None:
        """Nothing sent yet."""
        self.rights_due = time.monotonic() + RIGHTS_RECHECK_S
        self.rights_task: asyncio.Task | None = None
        self.sent_starts: set[int] = set()
        self.sent_ends: set[int] = set()
        self.sent_text: dict[int, int] = {}
        self.sent_awaits: set[tuple[int, str, str, str, str]] = set()
        self.replayed_after = 0
        self.known_seq = 0
        """The last turn this socket knows to be stored (sent or not heard): frames of a later
        turn than the next one mean frames were lost."""
        self.speaking: str | None = None
        """The seat whose statement streams now, as this socket heard it (the driver may be
        in another process)."""

    def awaits_withdrawn(self) -> None:
        """What was awaited may be no longer (a ``say`` that recorded nothing): the ``await``
        still pending is sent again."""
        self.sent_awaits.clear()

    async def dispatch(self, message: dict) -> None:
        """A trial's frames skip channels' per-message ``close_old_connections``: it runs in
        the one thread all thread-sensitive calls of the process share, so every frame of
        every socket queued there (at a hundred trials, most of the p99 latency); a frame
        needs no connection, and the database work a socket does runs in ``trials.pool.in_pool``,
        which tidies its own connections."""
        if message["type"] == "trial.frame":
            await self.trial_frame(message)
        else:
            await super().dispatch(message)

    async def replay(self, after_seq: int) -> None:
        """Every stored turn after ``after_seq``, the turn in progress, then the pending await."""
        self.sent_starts = {seq for seq in self.sent_starts if seq <= after_seq}
        self.sent_ends = {seq for seq in self.sent_ends if seq <= after_seq}
        self.sent_text = {seq: sent for seq, sent in self.sent_text.items() if seq <= after_seq}
        self.sent_awaits = {key for key in self.sent_awaits if key[0] <= after_seq}
        self.replayed_after = after_seq
        await self._send_stored(after_seq)

    async def trial_catch_up(self, event: dict) -> None:
        """What was stored since the last replay and not yet sent (frames published before
        the driver knew of this socket were not): sends are deduplicated by seq."""
        await self._send_stored(self.replayed_after)

    async def _send_stored(self, after_seq: int) -> None:
        trial, state = await self._send_turns_after(after_seq)
        current = session_of(self.trial_id).streaming
        if (
            current is not None
            and current.start["seq"] > after_seq
            and self._hears_stage(state, current.start["stage"])
        ):
            await self.turn_send(current.start)
            if current.text:
                await self.turn_send(turn_delta(current.start["seq"], current.text, 0))
        if trial.status == Trial.Status.PREPARING:
            playing = state.stage_history[-1] if state.stage_history else ""
            progress = preparation_progress(state, trial.first_stage)
            await self.send_json(preparing_frame(playing, trial.first_stage, progress))
        elif state.finished:
            await self.send_json(END)
        elif trial.status == Trial.Status.WAITING:
            step = next_step(state)
            if isinstance(step, Speak) and step.seat in state.human_seats:
                await self.turn_send(await_guided(step, state.language))

    async def _send_turns_after(self, after_seq: int) -> tuple[Trial, TrialState]:
        """Every stored turn after ``after_seq`` this socket has not sent; the trial and its
        state as read (decoded once, off the event loop)."""
        trial, state = await in_pool(_trial_read)(self.trial_id)
        self.known_seq = max(self.known_seq, after_seq)
        for turn in await in_pool(turns_after)(trial, state, after_seq, None if self.teacher else self.seats):
            await self.turn_send(turn_end(turn))
            self.known_seq = max(self.known_seq, turn.seq)
        return trial, state

    def _rights_recheck_due(self) -> None:
        """Now and then a frame's arrival starts a re-read of the rights in the background:
        the frame never waits on the database."""
        if time.monotonic() < self.rights_due or (self.rights_task is not None and not self.rights_task.done()):
            return
        self.rights_due = time.monotonic() + RIGHTS_RECHECK_S
        self.rights_task = asyncio.create_task(self._rights_recheck())

    async def _rights_recheck(self) -> None:
        try:
            await self.rights_check({})
        except Exception:
            logger.warning("trial %s: could not re-read a socket's rights", self.trial_id, exc_info=True)

    def rights_recheck_stop(self) -> None:
        """The socket is gone: a re-read still running is dropped."""
        if getattr(self, "rights_task", None) is not None:
            self.rights_task.cancel()

    async def trial_frame(self, event: dict) -> None:
        self._rights_recheck_due()
        frame, audience = event["frame"], event.get("audience")
        await self._gap_fill(frame)
        if frame.get("type") in AWAITS_WITHDRAWN or frame.get("code") in AWAITS_WITHDRAWN:
            self.awaits_withdrawn()
        if frame.get("type") == "turn.start":
            self.speaking = frame["seat"]
        elif frame.get("type") == "turn.end" and frame.get("seat") == self.speaking:
            self.speaking = None
        if self._hears(audience):
            await self.turn_send(frame)
        if frame.get("type") == "turn.end":
            self.known_seq = max(self.known_seq, frame["seq"])

    async def _gap_fill(self, frame: ServerFrame) -> None:
        """Frames lost between the channel layer and this socket (a Redis restart, a process
        that did not yet publish for it): a frame of a turn past the next one, or the ``end``,
        is preceded by the stored turns this socket missed."""
        seq = frame.get("seq")
        if (isinstance(seq, int) and seq > self.known_seq + 1) or frame.get("type") == "end":
            await self._send_turns_after(self.known_seq)

    async def turn_send(self, frame: ServerFrame) -> None:
        """Send a frame once: turns replayed and broadcast are deduplicated by seq and offset."""
        kind, seq = frame.get("type"), frame.get("seq")
        if kind == "turn.start":
            if seq in self.sent_starts:
                return
            self.sent_starts.add(seq)
        elif kind == "turn.delta":
            sent = self.sent_text.get(seq, 0)
            end = frame["offset"] + len(frame["text"])
            if seq not in self.sent_starts or seq in self.sent_ends or end <= sent:
                return
            frame = {
                **frame,
                "text": frame["text"][max(0, sent - frame["offset"]) :],
                "offset": max(sent, frame["offset"]),
            }
            self.sent_text[seq] = end
        elif kind == "turn.end":
            if seq in self.sent_ends:
                return
            if seq not in self.sent_starts:
                await self.turn_send(turn_start_from_end(frame))
            self.sent_ends.add(seq)
        elif kind == "await":
            key = (seq, frame["seat"], frame["stage"], frame["phase"], frame["act"])
            if key in self.sent_awaits:  # the driver asks again every POLL_S, for a frame lost
                return
            self.sent_awaits.add(key)
        await self.send_json(frame)

    def _hears(self, audience: list[str] | None) -> bool:
        """A broadcast frame reaches the seats its sender named (the seats that hear its
        stage; instructors hear all); a socket whose person holds no seat any more hears
        nothing. A delta goes where its ``turn.start`` went (``turn_send``)."""
        if self.teacher:
            return True
        if not self.seats:
            return False
        return audience is None or not set(audience).isdisjoint(self.seats)

    def _hears_stage(self, state: TrialState, stage: str) -> bool:
        return self.teacher or stage_heard_by(state, stage, self.seats)
