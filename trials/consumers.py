"""The trial room's websocket (docs/protocol.md): thin. It parses what a client sends
(``trials.protocol``), checks the sender's sign-in and seats, and hands the message to the
trial's session (``trials.live.session``), whose methods write, send the frames and wake the
driver; what a socket hears is decided once per frame by its sender (the frame's audience).

Rights are re-checked all the time: every message received re-reads the sender's seats and
session; a seat taken or handed back anywhere makes every socket of the trial re-read its
seats before the next frame (``trial.seats``); signing out closes the sockets opened with
that session (``session.ended``), and a password changed or a person made inactive makes each
of their sockets check its sign-in (``sign_in.check``), as every message received does.

Turns are numbered without gaps, so a frame whose turn skips past the next one (or an ``end``)
shows this socket lost frames on the way from the channel layer: what it missed is sent from
the store before that frame (``_gap_fill``), and a client that never resumes loses no turn.
"""

from __future__ import annotations

import logging
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.sessions.backends.base import SessionBase

from accounts.services import sign_in_holds
from court.engine.machine import next_step
from court.engine.stage_order import preparation_progress
from court.engine.state import TrialState
from court.engine.steps import Speak
from trials.access import seats_of, trial_overseer
from trials.live.driver import ensure_driver
from trials.live.fanout import group_name, user_group
from trials.live.services import LiveError, stage_heard_by, turns_after
from trials.live.session import session_of
from trials.models import Trial
from trials.pool import in_pool
from trials.protocol import (
    END,
    BadMessage,
    ClientMessage,
    ErrorCode,
    Objection,
    Resume,
    Say,
    ServerFrame,
    after_seq_parse,
    await_guided,
    client_message_parse,
    error_frame,
    preparing_frame,
    turn_delta,
    turn_end,
    turn_start_from_end,
)

logger = logging.getLogger(__name__)
CLOSE_SIGNED_OUT = 4401
CLOSE_NO_SEAT = 4403
"""A seat held when the socket opened was handed back."""
CLOSE_NOT_FOUND = 4404
"""No such trial, or one this person may not know of: the two are told apart by nobody."""
AWAITS_WITHDRAWN = frozenset({"control", "preparing", ErrorCode.TRIAL_PAUSED, ErrorCode.AGENT_FAILED})
"""Frames (and error codes) after which what was awaited may be no longer: the ``await`` still
pending is sent again (clients drop it on these; README, "The websocket protocol")."""


def _trial_read(trial_id: int) -> tuple[Trial, TrialState]:
    trial = Trial.objects.get(pk=trial_id)
    return trial, trial.engine_state


class TrialConsumer(AsyncJsonWebsocketConsumer):
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

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.trial_id = int(self.scope["url_route"]["kwargs"]["trial_id"])
        self.sent_starts: set[int] = set()
        self.sent_ends: set[int] = set()
        self.sent_text: dict[int, int] = {}
        self.sent_awaits: set[tuple[int, str, str, str, str]] = set()
        self.known_seq = 0
        """The last turn this socket knows to be stored (sent or not heard): frames of a later
        turn than the next one mean frames were lost."""
        self.speaking: str | None = None
        """The seat whose statement streams now, as this socket heard it (the driver may be
        in another process)."""
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.send_json(error_frame(ErrorCode.NOT_AUTHENTICATED, "log in first"))
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        trial = await in_pool(Trial.objects.filter(pk=self.trial_id).first)()
        if trial is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.teacher = await in_pool(trial_overseer)(trial, self.user)
        """An overseer of the trial (``trials.access``): an instructor of its course, an admin."""
        self.seats = await in_pool(seats_of)(self.trial_id, self.user)
        if not self.seats and not self.teacher:
            await self.close(code=CLOSE_NOT_FOUND)  # as for a trial that does not exist
            return
        self.group = group_name(self.trial_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(user_group(self.user.pk), self.channel_name)
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        try:
            after_seq = after_seq_parse((query.get("after_seq") or ["0"])[0] or 0)
        except BadMessage as error:
            await self.send_json(error_frame(ErrorCode.BAD_MESSAGE, f"{error}; replaying from the start"))
            after_seq = 0
        await session_of(self.trial_id).listen_from_afar()
        await self._replay(after_seq)
        ensure_driver(self.trial_id)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(user_group(self.user.pk), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        """Every frame a client sends: parsed into a typed message or answered ``bad_message``;
        the socket stays open whatever arrives."""
        try:
            message = client_message_parse(text_data, bytes_data)
        except BadMessage as error:
            await self.send_json(error_frame(ErrorCode.BAD_MESSAGE, str(error)))
            return
        if not await self._session_alive() or not await self._seats_reread():
            return
        try:
            await self._handle(message)
        except Exception:
            logger.exception("trial %s: message %r failed", self.trial_id, type(message).__name__)
            await self.send_json(error_frame(ErrorCode.SERVER_ERROR, "the server could not handle that message"))

    async def _handle(self, message: ClientMessage) -> None:
        if isinstance(message, Resume):
            await self._replay(message.after_seq)
            return
        session = session_of(self.trial_id)
        try:
            if isinstance(message, Say):
                frame, duplicate = await session.say(user=self.user, message=message)
                if duplicate:
                    self.sent_awaits.clear()
                    await self._send_turn(frame)
            elif isinstance(message, Objection):
                await session.object(seats=self.seats, heard=self.speaking, message=message)
            else:
                await session.control(user=self.user, message=message)
                ensure_driver(self.trial_id)
        except LiveError as error:
            if isinstance(message, Say):
                self.sent_awaits.clear()  # nothing was recorded: the question stands, asked again
            await self.send_json(error_frame(error.code, str(error)))

    async def _session_alive(self) -> bool:
        """A socket lives as long as the sign-in it was opened with (``sign_in_holds``):
        signed out elsewhere, the password changed or the person made inactive, it closes."""
        session: SessionBase | None = self.scope.get("session")
        key = session.session_key if session is not None else None
        if await in_pool(sign_in_holds)(user_id=self.user.pk, session_key=key):
            return True
        await self._close_signed_out()
        return False

    async def _seats_reread(self) -> bool:
        """The seats this person holds now; someone left with none (and no instructor) is shown out."""
        self.seats = await in_pool(seats_of)(self.trial_id, self.user)
        if self.seats or self.teacher:
            return True
        await self.send_json(error_frame(ErrorCode.NOT_YOUR_SEAT, "take a seat in this trial first"))
        await self.close(code=CLOSE_NO_SEAT)
        return False

    async def _close_signed_out(self) -> None:
        await self.send_json(error_frame(ErrorCode.NOT_AUTHENTICATED, "you are signed out; sign in again"))
        await self.close(code=CLOSE_SIGNED_OUT)

    async def _replay(self, after_seq: int) -> None:
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
            await self._send_turn(current.start)
            if current.text:
                await self._send_turn(turn_delta(current.start["seq"], current.text, 0))
        if trial.status == Trial.Status.PREPARING:
            playing = state.stage_history[-1] if state.stage_history else ""
            progress = preparation_progress(state, trial.first_stage)
            await self.send_json(preparing_frame(playing, trial.first_stage, progress))
        elif state.finished:
            await self.send_json(END)
        elif trial.status == Trial.Status.WAITING:
            step = next_step(state)
            if isinstance(step, Speak) and step.seat in state.human_seats:
                await self._send_turn(await_guided(step, state.language))

    async def _send_turns_after(self, after_seq: int) -> tuple[Trial, TrialState]:
        """Every stored turn after ``after_seq`` this socket has not sent; the trial and its
        state as read (decoded once, off the event loop)."""
        trial, state = await in_pool(_trial_read)(self.trial_id)
        self.known_seq = max(self.known_seq, after_seq)
        for turn in await in_pool(turns_after)(trial, state, after_seq, None if self.teacher else self.seats):
            await self._send_turn(turn_end(turn))
            self.known_seq = max(self.known_seq, turn.seq)
        return trial, state

    async def trial_frame(self, event: dict) -> None:
        frame, audience = event["frame"], event.get("audience")
        await self._gap_fill(frame)
        if frame.get("type") in AWAITS_WITHDRAWN or frame.get("code") in AWAITS_WITHDRAWN:
            self.sent_awaits.clear()
        if frame.get("type") == "turn.start":
            self.speaking = frame["seat"]
        elif frame.get("type") == "turn.end" and frame.get("seat") == self.speaking:
            self.speaking = None
        if self._hears(frame, audience):
            await self._send_turn(frame)
        if frame.get("type") == "turn.end":
            self.known_seq = max(self.known_seq, frame["seq"])

    async def _gap_fill(self, frame: ServerFrame) -> None:
        """Frames lost between the channel layer and this socket (a Redis restart, a process
        that did not yet publish for it): a frame of a turn past the next one, or the ``end``,
        is preceded by the stored turns this socket missed."""
        seq = frame.get("seq")
        if (isinstance(seq, int) and seq > self.known_seq + 1) or frame.get("type") == "end":
            await self._send_turns_after(self.known_seq)

    async def trial_seats(self, event: dict) -> None:
        """A seat of this trial changed hands: the next frame goes out under the rights held now."""
        await self._seats_reread()

    async def session_ended(self, event: dict) -> None:
        session: SessionBase | None = self.scope.get("session")
        if session is not None and session.session_key == event["session_key"]:
            await self._close_signed_out()

    async def sign_in_check(self, event: dict) -> None:
        """The person's password changed or they were made inactive (``accounts.signals``)."""
        await self._session_alive()

    async def _send_turn(self, frame: ServerFrame) -> None:
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
                await self._send_turn(turn_start_from_end(frame))
            self.sent_ends.add(seq)
        elif kind == "await":
            key = (seq, frame["seat"], frame["stage"], frame["phase"], frame["act"])
            if key in self.sent_awaits:  # the driver asks again every POLL_S, for a frame lost
                return
            self.sent_awaits.add(key)
        await self.send_json(frame)

    def _hears(self, frame: ServerFrame, audience: list[str] | None) -> bool:
        """A broadcast frame reaches the seats its sender named (the seats that hear its
        stage; instructors hear all); a socket whose person holds no seat any more hears
        nothing. A delta goes where its ``turn.start`` went (``_send_turn``)."""
        if self.teacher:
            return True
        if not self.seats:
            return False
        return audience is None or not set(audience).isdisjoint(self.seats)

    def _hears_stage(self, state: TrialState, stage: str) -> bool:
        return self.teacher or stage_heard_by(state, stage, self.seats)
