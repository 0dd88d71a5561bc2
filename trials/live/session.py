"""One live trial as this process plays it: ``LiveSession``, and the registry of them.

Everything the process knows of a trial between messages lives on its session (the driver's
task and wake-up, the step lock, the statement streaming now, the objection waiting, whether
sockets of other processes listen, the state as last stored) and nowhere else: the driver and
the sockets reach it through ``session_for``, and ``session_end`` forgets it when the driver
stops. The room's writes are the session's methods (``say``, ``object``, ``control``,
``steer``): each stores through ``trials.live.services``, sends the frames with their audience
computed once, after the commit, then wakes the driver, here or in the process that holds the
trial's lease. Seats change over HTTP, in a request's thread that may not touch a session:
``trials.live.seating`` does the same after its write, through the channel layer.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import asdict, dataclass, field

from django.contrib.auth.base_user import AbstractBaseUser

from court.engine.machine import JUDGE_CONTROLS
from court.engine.state import TrialState
from trials.live.fanout import broadcast, driver_group, group_name, notify, remote_subscribers
from trials.live.objecting import Raised
from trials.live.services import (
    LiveError,
    human_say,
    judge_control,
    objector_seat,
    trial_pause_set,
)
from trials.pool import in_pool
from trials.protocol import (
    Control,
    ErrorCode,
    Objection,
    Say,
    ServerFrame,
    TurnEnd,
    TurnStart,
    control_frame,
    turn_end,
)

logger = logging.getLogger(__name__)
POLL_S = 2.0
"""How long the driver sleeps between passes when nothing wakes it."""


@dataclass
class Streaming:
    """The statement being generated now: its ``turn.start`` frame and the text sent so far."""

    start: TurnStart
    text: str = ""

    @property
    def seat(self) -> str:
        return self.start["seat"]


@dataclass(eq=False)
class LiveSession:
    trial_id: int
    driver: asyncio.Task | None = None
    wakeup: asyncio.Event = field(default_factory=asyncio.Event)
    step_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by the driver while it takes a step (an agent's whole statement included) and by
    a judge's control while it changes the procedure, so neither overtakes the other."""
    streaming: Streaming | None = None
    windows_given: int = 0
    """Seq of the last statement whose grace period for objections was given."""
    objection: Raised | None = None
    """The objection waiting for the driver."""
    window: int | None = None
    """Seq of the statement that may still be objected to, its grace period running."""
    remote_listening: bool = True
    """Whether a socket in another process may hear the trial: frames go to this process's
    sockets directly and through Redis only while this holds (``remote_recheck``)."""
    remote_changes: int = 0
    cached: tuple[int, TrialState] | None = None
    """(version, state) as this process last read or stored it (``trials.live.driver_store``)."""

    def drives_here(self) -> bool:
        return self.driver is not None and not self.driver.done()

    def speaking_seat(self) -> str | None:
        """The seat whose statement is streaming in this process now."""
        return self.streaming.seat if self.streaming else None

    def wake(self) -> None:
        self.wakeup.set()

    async def wait(self, timeout: float | None = None) -> None:
        """Sleep until woken or ``timeout`` (None: ``POLL_S``)."""
        try:
            await asyncio.wait_for(self.wakeup.wait(), timeout=POLL_S if timeout is None else timeout)
        except TimeoutError:
            pass
        self.wakeup.clear()

    async def send(self, frame: ServerFrame, audience: frozenset[str] | None = None) -> None:
        """Send ``frame`` to the trial's sockets; ``audience`` (the seats that hear it, None:
        everyone in the trial) is computed once here, not by every socket."""
        await broadcast(self.trial_id, frame, audience=audience, remote=self.remote_listening)

    async def wake_driver(self) -> None:
        """Something the driver waits for happened (a person spoke, a control): wake it, here
        or in the process that holds the trial's lease."""
        if self.drives_here():
            self.wake()
        else:
            await notify(driver_group(self.trial_id), {"type": "driver.wake"})

    async def listen_from_afar(self) -> None:
        """A socket of this process joined a trial driven elsewhere (or by nobody yet): its
        driver publishes the trial's frames for it from now on."""
        if not self.drives_here():
            await notify(driver_group(self.trial_id), {"type": "driver.listener"})

    def remote_joined(self) -> None:
        self.remote_listening = True
        self.remote_changes += 1

    async def remote_recheck(self) -> None:
        """Ask Redis whether another process holds a socket of the trial; a socket that joins
        while the question is out wins over the answer."""
        changes = self.remote_changes
        try:
            subscribers = await remote_subscribers(group_name(self.trial_id))
        except Exception:
            logger.warning("trial %s: could not count the sockets of other processes", self.trial_id, exc_info=True)
            return
        if self.remote_changes == changes:
            self.remote_listening = subscribers > 0

    def window_open(self, seq: int) -> None:
        """Turn ``seq`` was just recorded: an objection to it is taken from now until the
        driver, on its next pass, gives it its grace period or finds nobody who could object."""
        if self.drives_here():
            self.window = seq

    def objection_queue(self, objection: Raised) -> str | None:
        """Queue an objection against the statement streaming now or just ended, and wake the
        driver; the reason it is refused, or None. The engine's rules were checked by the
        sender and are checked again when it is stored."""
        if self.streaming is None and self.window is None:
            return "there is no statement to object to now: the moment has passed"
        self.objection = objection
        self.wake()
        return None

    async def say(self, *, user: AbstractBaseUser, message: Say) -> tuple[TurnEnd, bool]:
        """Record what a person says in the seat the trial waits for; the ``turn.end`` frame
        and whether it was a retry of a message already recorded (then only its sender is
        sent the frame again). Raises ``LiveError``."""
        result = await in_pool(human_say)(
            trial_id=self.trial_id,
            user=user,
            text=message.text,
            client_id=message.client_id,
            decision=message.decision,
            sections=message.sections,
            last=message.last,
        )
        frame = turn_end(result.turn)
        if not result.duplicate:
            self.window_open(result.turn.seq)
            await self.send(frame, result.audience)
            await self.wake_driver()
        return frame, result.duplicate

    async def object(self, *, seats: list[str], heard: str | None, message: Objection) -> None:
        """Counsel objects to the other side's statement while it streams or just after it
        ended; ``heard`` is the seat the sender's socket last heard start speaking (the driver
        may be in another process). Raises ``LiveError``."""
        speaker = self.speaking_seat() or heard
        seat = await in_pool(objector_seat)(trial_id=self.trial_id, seats=seats, speaker=speaker)
        objection = Raised(seat, message.ground, message.detail)
        if not self.drives_here():
            await notify(driver_group(self.trial_id), {"type": "driver.objection", **asdict(objection)})
            return
        refused = self.objection_queue(objection)
        if refused:
            raise LiveError(ErrorCode.NOT_YOUR_TURN, refused)

    async def control(self, *, user: AbstractBaseUser, message: Control) -> None:
        """Pause or resume (the judge seat or an instructor), or steer the hearing. Raises
        ``LiveError``."""
        if message.action in (*JUDGE_CONTROLS, "question"):
            await self.steer(user=user, message=message)
            return
        if message.action not in ("pause", "resume"):
            raise LiveError(ErrorCode.UNSUPPORTED, f"control {message.action!r} is not supported")
        by = await in_pool(trial_pause_set)(trial_id=self.trial_id, user=user, paused=message.action == "pause")
        await self.send(control_frame(message.action, by=by))
        await self.wake_driver()

    async def steer(self, *, user: AbstractBaseUser, message: Control) -> None:
        """Waits for the statement being made to end, then changes the procedure."""
        async with self.step_lock:
            result = await in_pool(judge_control)(
                trial_id=self.trial_id, user=user, action=message.action, seat=message.seat, text=message.text
            )
        if result.turn is not None:
            await self.send(turn_end(result.turn), result.audience)
        await self.send(control_frame(message.action, result.phase))
        await self.wake_driver()


_sessions: dict[int, LiveSession] = {}


def session_for(trial_id: int) -> LiveSession:
    """The trial's session in this process, made and kept on first use (by its driver)."""
    session = _sessions.get(trial_id)
    if session is None:
        session = _sessions[trial_id] = LiveSession(trial_id)
    return session


def session_of(trial_id: int) -> LiveSession:
    """The trial's session if this process keeps one, else a passing one that is not kept: a
    socket of a trial driven elsewhere acts through it (its writes wake the other process's
    driver) and leaves nothing behind."""
    return _sessions.get(trial_id) or LiveSession(trial_id)


def sessions_driven() -> list[LiveSession]:
    return [session for session in _sessions.values() if session.driver is not None]


def session_end(session: LiveSession) -> None:
    """The driver stopped: what it knew of the trial is forgotten, and the next driver or
    socket starts a fresh session (sockets still connected keep theirs until then)."""
    if _sessions.get(session.trial_id) is session:
        del _sessions[session.trial_id]


def sessions_clear() -> None:
    _sessions.clear()
