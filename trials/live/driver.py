"""The driver of a live trial: an asyncio task per trial that walks the engine, lets agents
speak (streaming their words), waits for human seats, stores every step and broadcasts the
frames to the trial's group.

Generation belongs to the trial, not to a socket: the task is started by the first
participant who connects and runs on when browsers go away. It is the only writer of agent
steps; a human's ``say`` is recorded by ``trials.live.services.human_say`` and wakes the task.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from court.engine.objections import objectors, statement_resumed
from court.engine.participants import (
    DeltaSink,
    GenerationCancelled,
    MemoryRequest,
    Participant,
    ParticipantFailed,
    TurnRequest,
)
from court.engine.state import TrialState
from court.engine.steps import End, MemoryUpdate, Reply, Speak, StageEnd, StageStart, Step, UpdateMemory
from court.engine.visibility import build_view, stage_heard
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
from trials.preparation import prepared_by_driver, trial_prepare
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
    trial, state, _ = await trial_snapshot(session)
    session.windows_given = len(state.turns)
    participants = await in_pool(trial_agents)(trial)
    while True:
        awaited = None
        async with session.step_lock:
            trial, state, step = await trial_snapshot(session)
            if await _objection_window(session, state):
                continue
            human = isinstance(step, Speak | UpdateMemory) and step.seat in state.human_seats
            if trial.status == Trial.Status.WAITING and not human:
                await status_move(session.trial_id, Trial.Status.WAITING, Trial.Status.RUNNING)
            if isinstance(step, End):
                await session.send(END)
                return
            if trial.status == Trial.Status.PREPARING and prepared_by_driver():
                awaited = "prepare"
            elif trial.status in (Trial.Status.PAUSED, Trial.Status.PREPARING):
                awaited = "paused"
            elif isinstance(step, StageStart | StageEnd):
                await _stage_step(session, step, state, participants)
            elif human:
                awaited = step
            elif isinstance(step, Speak):
                await _agent_turn(session, step, participants[step.seat], state)
            else:
                agent = participants[step.seat]
                update = await asyncio.to_thread(_memory_update, agent, step, state)
                await step_record(session, step, update, agent.drain_calls())
        if awaited == "prepare":
            await sync_to_async(trial_prepare, thread_sensitive=False)(trial_id=session.trial_id)
        elif awaited == "paused":
            await session.wait()
        elif awaited is not None:
            await _await_human(session, awaited, state, waiting=trial.status == Trial.Status.WAITING)


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


async def _objection_record(session: LiveSession, step: Speak, state: TrialState) -> bool:
    """An objection stops ``step``: only what was shown stays on the record, then the
    objection; the judge's ruling is the next step of the trial (agent or person). False,
    and the statement goes on, when the engine refuses the objection."""
    objection, session.objection = session.objection, None
    shown = session.streaming.text if session.streaming else ""
    recorded = await objecting.objection_store_cut(session.trial_id, step, shown=shown, objection=objection)
    if isinstance(recorded, objecting.Refused):
        await session.send(objection_refused_frame(recorded.seat, recorded.reason))
        return False
    session.streaming = None
    for turn in recorded:
        await session.send(turn_end(turn), stage_heard(state, turn.stage))
    return True


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


def _respond(agent: Participant, step: Speak, state: TrialState, on_delta: DeltaSink) -> Reply | None:
    """In a worker thread: the view is built there too, off the event loop."""
    return agent.respond(TurnRequest(step, build_view(state, step.seat, phase=step.phase)), on_delta=on_delta)


def _memory_update(agent: Participant, step: UpdateMemory, state: TrialState) -> MemoryUpdate | None:
    return agent.update_memory(MemoryRequest(step, build_view(state, step.seat, phase="memory")))


async def _await_human(session: LiveSession, step: Step, state: TrialState, *, waiting: bool) -> None:
    """Ask the seat, then sleep until woken or ``POLL_S``; the next pass asks again (a lost
    ``await`` frame is sent anew) and sets the trial running once the person has spoken.
    The status is written only when it changes: two writes per poll of every waiting trial
    were a fifth of the worker threads' busy time at a hundred trials (ws_load.py)."""
    if isinstance(step, Speak):
        if not waiting:
            await status_set(session.trial_id, Trial.Status.WAITING)
        await session.send(await_guided(step, state.language))
        await session.wait()
    else:
        await step_record(session, step, MemoryUpdate())


async def _agent_turn(session: LiveSession, step: Speak, agent: Participant, state: TrialState) -> None:
    """An agent's statement: its words stream as the model writes them (a participant that
    gives its reply whole is paced at LEGALSIM_SCRIPTED_TOKENS_PER_S), then it is stored with
    the model calls it took. An objection that cuts it stops the generation: the model's
    stream is closed at its next token (``GenerationCancelled``)."""
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

    generation = asyncio.create_task(asyncio.to_thread(_respond, agent, step, state, on_delta))
    while not generation.done() or not live.empty():
        if session.objection is not None and await _objection_record(session, step, state):
            cut.set()
            generation.add_done_callback(lambda task: task.cancelled() or task.exception())
            return
        try:
            delta = await asyncio.wait_for(live.get(), timeout=0.05)
        except TimeoutError:
            continue
        await _send_delta(session, step.seq, delta)
    try:
        reply = generation.result()
    except ParticipantFailed as failure:
        session.streaming = None
        await trial_pause(session.trial_id, f"{step.seat} at {step.stage}: {failure}", agent.drain_calls())
        await session.send(error_frame(ErrorCode.AGENT_FAILED, str(failure)))
        return
    streamed = bool(session.streaming.text)
    reply = resumption.finish(reply)
    if not streamed and not await _pace(session, step, state, reply.text):
        return
    strategies_kept(state, {step.seat: agent})
    turn = await step_record(session, step, reply, agent.drain_calls())
    session.streaming = None
    if turn is not STALE:
        session.window_open(turn.seq)
        await session.send(turn_end(turn), audience)
        if step.artifact is not None:
            await session.send(artifact_frame(step.artifact, reply.artifact.title if reply.artifact else step.artifact))


async def _send_delta(session: LiveSession, seq: int, text: str) -> None:
    """Words of the statement streaming: sockets send a delta only after its ``turn.start``,
    which went to the stage's audience, so a delta needs no audience of its own."""
    streaming = session.streaming
    offset = len(streaming.text) if streaming else 0
    if streaming is not None:
        streaming.text += text
    await session.send(turn_delta(seq, text, offset))


async def _pace(session: LiveSession, step: Speak, state: TrialState, text: str) -> bool:
    """Stream a whole reply at LEGALSIM_SCRIPTED_TOKENS_PER_S (0: in one frame), a frame per
    ``FRAME_S`` carrying the tokens emitted in it. False when an objection stopped it."""
    rate = settings.LEGALSIM_SCRIPTED_TOKENS_PER_S
    if rate <= 0:
        await _send_delta(session, step.seq, text)
        return True
    tokens = TOKEN.findall(text)
    per_frame = max(1, round(rate * FRAME_S))
    for start in range(0, len(tokens), per_frame):
        if session.objection is not None and await _objection_record(session, step, state):
            return False
        await _send_delta(session, step.seq, "".join(tokens[start : start + per_frame]))
        await asyncio.sleep(per_frame / rate)
    return True
