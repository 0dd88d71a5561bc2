"""The driver of a live trial: an asyncio task per trial that runs the engine loop
(``court.engine.runner.trial_loop``, the loop simulation and preparation run on) with a
``HumanParticipant`` in every seat a person holds, and does the I/O around each step: agents'
words stream to the room, every step is stored under the trial's row lock, people are asked
and waited for, and the frames go to the trial's group.

Generation belongs to the trial, not to a socket: the task is started by the first
participant who connects and runs on when browsers go away. It is the only writer of agent
steps; a human's ``say`` is recorded by ``trials.live.services.human_say`` and wakes the task.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from functools import partial

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from court.engine.objections import objectors, statement_resumed
from court.engine.participants import GenerationCancelled, HumanParticipant, Participant, ParticipantFailed, seats_held
from court.engine.runner import Awaiting, Due, Given, Paused, Stop, trial_loop
from court.engine.state import TrialState
from court.engine.steps import End, Reply, Speak, StageEnd, StageStart
from court.engine.visibility import stage_heard
from trials.leases import lease_hand_back, lease_renew, lease_take, orphans
from trials.live import objecting
from trials.live.driver_store import (
    STALE,
    status_move,
    status_set,
    step_record,
    trial_pause,
    trial_snapshot,
)
from trials.live.fanout import catch_up_ask, driver_group
from trials.live.objecting import Raised, Resumption
from trials.live.services import notice_audience
from trials.live.session import LiveSession, Streaming, session_end, session_for, sessions_driven
from trials.models import Trial
from trials.pool import in_pool
from trials.preparation import trial_prepare
from trials.protocol import (
    END,
    ErrorCode,
    artifact_frame,
    await_guided,
    error_frame,
    notice_frame,
    objection_refused_frame,
    stage_frame,
    turn_delta,
    turn_end,
    turn_start,
)
from trials.services import strategies_kept, strategies_revised, trial_agents
from trials.workers import prepared_by_driver

logger = logging.getLogger(__name__)
FRAME_S = 0.05
TOKEN = re.compile(r"[\u3400-\u9fff]|\w+\s*|\s+|[^\w\s]")


async def _listen(session: LiveSession) -> None:
    """Objections and wake-ups that sockets on other processes send this trial's driver."""
    layer = get_channel_layer()
    group = driver_group(session.trial_id)
    try:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
    except Exception:
        logger.exception("trial %s: the driver hears only sockets of its own process", session.trial_id)
        return
    try:
        while True:
            message = await layer.receive(channel)
            kind = message.get("type")
            if kind == "driver.objection":
                session.objection_queue(
                    Raised(str(message["seat"]), str(message["ground"]), str(message.get("detail", "")))
                )
            elif kind == "driver.listener":
                session.remote_joined()
                await catch_up_ask(session.trial_id)
            else:
                session.wake()
    finally:
        await asyncio.shield(layer.group_discard(group, channel))


def ensure_driver(trial_id: int) -> None:
    """Drive the trial from this process unless a driver here or elsewhere already does: the
    driver first takes the trial's lease, and gives up at once if another process holds it."""
    session = session_for(trial_id)
    if not session.drives_here():
        session.driver = asyncio.get_running_loop().create_task(_drive(session))


async def _heartbeat(session: LiveSession, driving: asyncio.Task) -> None:
    """Renew the lease every third of its length (a lease lost stops the driver), and ask
    whether sockets of other processes listen to the trial."""
    while True:
        await session.remote_recheck()
        await asyncio.sleep(settings.LEGALSIM_DRIVER_LEASE_S / 3)
        if not await lease_renew(session.trial_id):
            driving.cancel()
            return


async def take_over_forever() -> None:
    """Every half lease, start drivers for the orphaned live trials (one process wins each)."""
    while True:
        try:
            for trial_id in await orphans():
                ensure_driver(trial_id)
        except Exception:
            logger.exception("taking over orphaned trials failed; trying again")
        await asyncio.sleep(settings.LEGALSIM_DRIVER_LEASE_S / 2)


async def stop_all() -> None:
    """Cancel every driver of this process (tests, shutdown)."""
    tasks = [session.driver for session in sessions_driven() if session.driver is not None]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _drive(session: LiveSession) -> None:
    """Walk the trial while this process holds its lease; whatever fails inside leaves it
    paused with the reason, resumable. The lease is handed back however the driver stops."""
    trial_id = session.trial_id
    if not await lease_take(trial_id):
        session_end(session)
        return
    loop = asyncio.get_running_loop()
    heartbeat = loop.create_task(_heartbeat(session, asyncio.current_task()))
    listener = loop.create_task(_listen(session))
    try:
        await _loop(session)
    except asyncio.CancelledError:
        raise
    except Exception as error:
        logger.exception("driver of trial %s stopped", trial_id)
        reason = f"the trial stopped on an unexpected error ({type(error).__name__}); resume it to try again"
        await status_set(trial_id, Trial.Status.PAUSED, reason)
        await session.send(error_frame(ErrorCode.TRIAL_PAUSED, reason))
    finally:
        heartbeat.cancel()
        listener.cancel()
        session_end(session)
        await lease_hand_back(trial_id)


NOTICES = frozenset({"appeal_determination"})
"""The court's documents every seat is told of as they are made, whoever decided them."""


async def _loop(session: LiveSession) -> None:
    """Run the engine loop (``court.engine.runner.trial_loop``) run after run. A run stops
    at the end, when a person must speak, when a seat failed, or when the trial's status holds
    it (paused, preparing); the driver answers the stop (asks the person and waits, prepares
    the earlier stages, waits for a resume) and runs again."""
    trial, state = await trial_snapshot(session)
    session.windows_given = len(state.turns)
    agents = await in_pool(trial_agents)(trial)
    while True:
        stop, trial, state = await _run(session, agents)
        if isinstance(stop, End):
            await session.send(END)
            return
        if stop is None and trial.status == Trial.Status.PREPARING and prepared_by_driver():
            await sync_to_async(trial_prepare, thread_sensitive=False)(trial_id=session.trial_id)
        elif isinstance(stop, Awaiting) and isinstance(stop.step, Speak):
            await _await_person(session, stop.step, state, waiting=trial.status == Trial.Status.WAITING)
        elif not isinstance(stop, Paused):
            await session.wait()


async def _run(session: LiveSession, agents: dict[str, Participant]) -> tuple[Stop | None, Trial, TrialState]:
    """One run of the engine loop, a step at a time under the step lock, on the state as
    stored before each step (a person's ``say``, a control or another process may have moved
    it). Every statement a person may object to is given its grace period first. Returns
    where the run stopped (None: the trial's status holds it), with the trial and state last read."""
    loop = trial_loop(lambda: state, partial(seats_held, agents=agents))
    given: Given = None
    while True:
        async with session.step_lock:
            trial, state = await trial_snapshot(session)
            if await _objection_window(session, state):
                continue
            try:
                due = loop.send(given)
            except StopIteration as stopped:
                return stopped.value, trial, state
            if trial.status in (Trial.Status.PAUSED, Trial.Status.PREPARING):
                return None, trial, state
            given = await _take(session, due, trial, agents)


async def _take(session: LiveSession, due: Due, trial: Trial, agents: dict[str, Participant]) -> Given:
    """Take the step the loop asks for, with the frames the room sees, and hand back what
    its seat gave; a seat that failed pauses the trial with the reason. A person's words
    come through ``say`` (``human_say`` records them), so their seat is asked at once and
    nothing streams: it has nothing yet, and the run stops to wait for them."""
    if isinstance(due.participant, HumanParticipant) and isinstance(due.step, Speak):
        return due.ask()
    if trial.status == Trial.Status.WAITING:
        await status_move(session.trial_id, Trial.Status.WAITING, Trial.Status.RUNNING)
    if due.participant is None:
        await _stage_step(session, due.step, due.state, agents)
        return None
    try:
        if isinstance(due.step, Speak):
            return await _agent_turn(session, due)
        update = await asyncio.to_thread(due.ask)
        await step_record(session, due.step, update, due.participant.drain_calls())
        return update
    except ParticipantFailed as failure:
        session.streaming = None
        reason = f"{due.step.seat} at {due.step.stage}: {failure}"
        await trial_pause(session.trial_id, reason, due.participant.drain_calls())
        await session.send(error_frame(ErrorCode.AGENT_FAILED, str(failure)))
        return failure


async def _stage_step(
    session: LiveSession, step: StageStart | StageEnd, state: TrialState, participants: dict[str, Participant]
) -> None:
    """A stage starts or ends: every seat is told, and the documents it opens announced. At a
    stage's end the model seats that keep a strategy without a memory revise it (SimCourt's
    reflection; the others did in their memory update), stored with the step."""
    if isinstance(step, StageEnd):
        await asyncio.to_thread(strategies_revised, state, step.stage, participants)
        strategies_kept(state, participants)
    opened = await step_record(session, step)
    await session.send(stage_frame(step.stage, "started" if isinstance(step, StageStart) else "finished"))
    if opened not in (STALE, None):
        await session.send(artifact_frame(opened.kind, opened.title))
        if opened.kind in NOTICES:
            await session.send(notice_frame(opened.stage, opened.title, opened.text), notice_audience(state))


async def _objection_record(session: LiveSession, step: Speak, state: TrialState) -> Reply | None:
    """An objection stops ``step``: only what was shown stays on the record, then the
    objection; the judge's ruling is the next step of the trial (agent or person). Returns
    the statement as cut, or None, and the statement goes on, when the engine refuses the
    objection."""
    objection, session.objection = session.objection, None
    shown = session.streaming.text if session.streaming else ""
    recorded = await objecting.objection_store_cut(session.trial_id, step, shown=shown, objection=objection)
    if isinstance(recorded, objecting.Refused):
        await session.send(objection_refused_frame(recorded.seat, recorded.reason))
        return None
    session.streaming = None
    for turn in recorded:
        await session.send(turn_end(turn), stage_heard(state, turn.stage))
    return Reply(text=shown)


async def _objection_window(session: LiveSession, state: TrialState) -> bool:
    """A statement just ended that a person may object to: the trial waits the grace period
    (``LEGALSIM_OBJECTION_GRACE_S``) for the objection before it goes on. True when one was
    recorded (the judge's ruling comes next)."""
    last = state.turns[-1] if state.turns else None
    if last is None or last.seq <= session.windows_given:
        return False
    session.windows_given = last.seq
    grace = settings.LEGALSIM_OBJECTION_GRACE_S
    try:
        if grace > 0 and objectors(state, last):
            loop = asyncio.get_running_loop()
            deadline = loop.time() + grace
            session.window = last.seq
            while session.objection is None and loop.time() < deadline:
                await session.wait(timeout=deadline - loop.time())
    finally:
        session.window = None
    objection, session.objection = session.objection, None
    if objection is None:
        return False
    recorded = await objecting.objection_store_after(session.trial_id, last.seq, objection)
    if isinstance(recorded, objecting.Refused):
        await session.send(objection_refused_frame(recorded.seat, recorded.reason))
        return False
    await session.send(turn_end(recorded), stage_heard(state, recorded.stage))
    return True


async def _await_person(session: LiveSession, step: Speak, state: TrialState, *, waiting: bool) -> None:
    """Ask the seat, then sleep until woken or ``POLL_S``; the next run asks again (a lost
    ``await`` frame is sent anew) and sets the trial running once the person has spoken.
    The status is written only when it changes: two writes per poll of every waiting trial
    were a fifth of the worker threads' busy time at a hundred trials (ws_load.py)."""
    if not waiting:
        await status_set(session.trial_id, Trial.Status.WAITING)
    await session.send(await_guided(step, state.language))
    await session.wait()


async def _agent_turn(session: LiveSession, due: Due) -> Reply:
    """An agent's statement: its words stream as the model writes them (a participant that
    gives its reply whole is paced at LEGALSIM_SCRIPTED_TOKENS_PER_S), then it is stored with
    the model calls it took. An objection that cuts it stops the generation: the model's
    stream is closed at its next token (``GenerationCancelled``), and the statement as cut
    is what the seat gave. Raises ``ParticipantFailed``."""
    step, state, agent = due.step, due.state, due.participant
    audience = stage_heard(state, step.stage)
    start = turn_start(step)
    session.objection = None
    session.streaming = Streaming(start)
    await session.send(start, audience)
    loop = asyncio.get_running_loop()
    live: asyncio.Queue[str] = asyncio.Queue()
    cut = threading.Event()
    resumption = Resumption(statement_resumed(state, step))

    def on_delta(delta: str) -> None:
        if cut.is_set():
            raise GenerationCancelled
        delta = resumption.feed(delta)
        if delta:
            loop.call_soon_threadsafe(live.put_nowait, delta)

    generation = asyncio.create_task(asyncio.to_thread(due.ask, on_delta=on_delta))
    while not generation.done() or not live.empty():
        if session.objection is not None and (statement := await _objection_record(session, step, state)):
            cut.set()
            generation.add_done_callback(lambda task: task.cancelled() or task.exception())
            return statement
        try:
            delta = await asyncio.wait_for(live.get(), timeout=0.05)
        except TimeoutError:
            continue
        await _send_delta(session, step.seq, delta)
    streamed = bool(session.streaming.text)
    reply = resumption.finish(generation.result())
    if not streamed and (statement := await _pace(session, step, state, reply.text)):
        return statement
    strategies_kept(state, {step.seat: agent})
    turn = await step_record(session, step, reply, agent.drain_calls())
    session.streaming = None
    if turn is not STALE:
        session.window_open(turn.seq)
        await session.send(turn_end(turn), audience)
        if step.artifact is not None:
            await session.send(artifact_frame(step.artifact, reply.artifact.title if reply.artifact else step.artifact))
    return reply


async def _send_delta(session: LiveSession, seq: int, text: str) -> None:
    """Words of the statement streaming: sockets send a delta only after its ``turn.start``,
    which went to the stage's audience, so a delta needs no audience of its own."""
    streaming = session.streaming
    offset = len(streaming.text) if streaming else 0
    if streaming is not None:
        streaming.text += text
    await session.send(turn_delta(seq, text, offset))


async def _pace(session: LiveSession, step: Speak, state: TrialState, text: str) -> Reply | None:
    """Stream a whole reply at LEGALSIM_SCRIPTED_TOKENS_PER_S (0: in one frame), a frame per
    ``FRAME_S`` carrying the tokens emitted in it. The statement as cut when an objection
    stopped it, else None."""
    rate = settings.LEGALSIM_SCRIPTED_TOKENS_PER_S
    if rate <= 0:
        await _send_delta(session, step.seq, text)
        return None
    tokens = TOKEN.findall(text)
    per_frame = max(1, round(rate * FRAME_S))
    for start in range(0, len(tokens), per_frame):
        if session.objection is not None and (statement := await _objection_record(session, step, state)):
            return statement
        await _send_delta(session, step.seq, "".join(tokens[start : start + per_frame]))
        await asyncio.sleep(per_frame / rate)
    return None
