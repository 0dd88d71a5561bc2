"""The driver of a live trial: an asyncio task per trial that walks the engine, lets agents
speak (streaming their words), waits for human seats, stores every step and broadcasts the
frames to the trial's group.

Generation belongs to the trial, not to a socket: the task is started by the first
participant who connects and runs on when browsers go away. It is the only writer of agent
steps; a human's ``say`` is recorded by ``trials.live.human_say`` and wakes the task.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from dataclasses import asdict
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings

from trials import objecting
from trials.driver_store import (
    STALE,
    cached_states,
    status_move,
    status_set,
    step_record,
    trial_pause,
    trial_snapshot,
)
from trials.engine.objections import objectors, statement_resumed
from trials.engine.participants import (
    DeltaSink,
    GenerationCancelled,
    MemoryRequest,
    Participant,
    ParticipantFailed,
    TurnRequest,
)
from trials.engine.state import TrialState
from trials.engine.steps import End, MemoryUpdate, Reply, Speak, StageEnd, StageStart, Step, UpdateMemory
from trials.engine.visibility import build_view
from trials.fanout import (
    broadcast,
    catch_up_ask,
    driver_group,
    notify,
    remote_forget,
    remote_joined,
    remote_recheck,
)
from trials.leases import lease_hand_back, lease_renew, lease_take, orphans
from trials.models import Trial
from trials.objecting import Raised, Resumption
from trials.pool import in_pool
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
from trials.services import trial_agents

logger = logging.getLogger(__name__)
POLL_S = 2.0
FRAME_S = 0.05
TOKEN = re.compile(r"[\u3400-\u9fff]|\w+\s*|\s+|[^\w\s]")

_drivers: dict[int, asyncio.Task] = {}
_wakeups: dict[int, asyncio.Event] = {}
_step_locks: dict[int, asyncio.Lock] = {}
in_progress: dict[int, dict[str, Any]] = {}
"""trial id -> the turn being generated: its ``turn.start`` frame and the text sent so far."""
_windows_given: dict[int, int] = {}
"""trial id -> seq of the last statement whose grace period for objections was given."""


def objection_raise(trial_id: int, objection: Raised) -> str | None:
    """Queue an objection with this process's driver and wake it; the reason it is refused."""
    refused = objecting.objection_raise(trial_id, objection, streaming=trial_id in in_progress)
    if refused is None:
        wake(trial_id)
    return refused


def window_open(trial_id: int, seq: int) -> None:
    """Turn ``seq`` was just recorded: an objection to it is taken from now until the driver,
    on its next pass, gives it its grace period or finds nobody who could object."""
    if drives_here(trial_id):
        objecting.windows[trial_id] = seq


def speaking_seat(trial_id: int) -> str | None:
    """The seat whose statement is streaming in this process now."""
    current = in_progress.get(trial_id)
    return current["start"]["seat"] if current else None


def wake(trial_id: int) -> None:
    event = _wakeups.get(trial_id)
    if event is not None:
        event.set()


def drives_here(trial_id: int) -> bool:
    task = _drivers.get(trial_id)
    return task is not None and not task.done()


async def wake_driver(trial_id: int) -> None:
    """Something the driver waits for happened (a person spoke, a control): wake it, here or
    in the process that holds the trial's lease."""
    if drives_here(trial_id):
        wake(trial_id)
    else:
        await notify(driver_group(trial_id), {"type": "driver.wake"})


async def listen_from_afar(trial_id: int) -> None:
    """A socket of this process joined a trial driven elsewhere (or by nobody yet): its
    driver publishes the trial's frames for it from now on."""
    if not drives_here(trial_id):
        await notify(driver_group(trial_id), {"type": "driver.listener"})


async def object_to_driver(trial_id: int, objection: Raised) -> str | None:
    """Raise an objection with the trial's driver, here or in another process; the reason it
    is refused, or None."""
    if drives_here(trial_id):
        return objection_raise(trial_id, objection)
    await notify(driver_group(trial_id), {"type": "driver.objection", **asdict(objection)})
    return None


async def _listen(trial_id: int) -> None:
    """Objections and wake-ups that sockets on other processes send this trial's driver."""
    layer = get_channel_layer()
    try:
        channel = await layer.new_channel()
        await layer.group_add(driver_group(trial_id), channel)
    except Exception:
        logger.exception("trial %s: the driver hears only sockets of its own process", trial_id)
        return
    try:
        while True:
            message = await layer.receive(channel)
            kind = message.get("type")
            if kind == "driver.objection":
                objection = Raised(str(message["seat"]), str(message["ground"]), str(message.get("detail", "")))
                objection_raise(trial_id, objection)
                continue
            elif kind == "driver.listener":
                remote_joined(trial_id)
                await catch_up_ask(trial_id)
                continue
            wake(trial_id)
    finally:
        await asyncio.shield(layer.group_discard(driver_group(trial_id), channel))


def ensure_driver(trial_id: int) -> None:
    """Drive the trial from this process unless a driver here or elsewhere already does: the
    driver first takes the trial's lease, and gives up at once if another process holds it."""
    task = _drivers.get(trial_id)
    if task is None or task.done():
        _wakeups[trial_id] = asyncio.Event()
        _drivers[trial_id] = asyncio.get_running_loop().create_task(_drive(trial_id))


async def _heartbeat(trial_id: int, driving: asyncio.Task) -> None:
    """Renew the lease every third of its length (a lease lost stops the driver), and ask
    whether sockets of other processes listen to the trial."""
    while True:
        await remote_recheck(trial_id)
        await asyncio.sleep(settings.LEGALSIM_DRIVER_LEASE_S / 3)
        if not await lease_renew(trial_id):
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
    tasks = list(_drivers.values())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    _drivers.clear()
    _wakeups.clear()
    _step_locks.clear()
    cached_states.clear()
    in_progress.clear()


async def _drive(trial_id: int) -> None:
    """Walk the trial while this process holds its lease; whatever fails inside leaves it
    paused with the reason, resumable."""
    if not await lease_take(trial_id):
        return
    loop = asyncio.get_running_loop()
    heartbeat = loop.create_task(_heartbeat(trial_id, asyncio.current_task()))
    listener = loop.create_task(_listen(trial_id))
    try:
        await _loop(trial_id)
    except asyncio.CancelledError:
        raise
    except Exception as error:
        logger.exception("driver of trial %s stopped", trial_id)
        reason = f"the trial stopped on an unexpected error ({type(error).__name__}); resume it to try again"
        await status_set(trial_id, Trial.Status.PAUSED, reason)
        await broadcast(trial_id, error_frame(ErrorCode.TRIAL_PAUSED, reason))
    finally:
        heartbeat.cancel()
        listener.cancel()
        in_progress.pop(trial_id, None)
        objecting.raised.pop(trial_id, None)
        objecting.windows.pop(trial_id, None)
        _windows_given.pop(trial_id, None)
        cached_states.pop(trial_id, None)
        remote_forget(trial_id)
        await lease_hand_back(trial_id)


NOTICES = frozenset({"appeal_determination"})
"""The court's documents every seat is told of as they are made, whoever decided them."""


async def _loop(trial_id: int) -> None:
    trial, state, _ = await trial_snapshot(trial_id)
    _windows_given[trial_id] = len(state.turns)
    participants = await in_pool(trial_agents)(trial)
    while True:
        awaited = None
        async with step_lock(trial_id):
            trial, state, step = await trial_snapshot(trial_id)
            if await _objection_window(trial_id, state):
                continue
            human = isinstance(step, Speak | UpdateMemory) and step.seat in state.human_seats
            if trial.status == Trial.Status.WAITING and not human:
                await status_move(trial_id, Trial.Status.WAITING, Trial.Status.RUNNING)
            if isinstance(step, End):
                await broadcast(trial_id, END)
                return
            if trial.status in (Trial.Status.PAUSED, Trial.Status.PREPARING):
                awaited = "paused"
            elif isinstance(step, StageStart | StageEnd):
                opened = await step_record(trial_id, step)
                await broadcast(
                    trial_id, stage_frame(step.stage, "started" if isinstance(step, StageStart) else "finished")
                )
                if opened not in (STALE, None):
                    await broadcast(trial_id, artifact_frame(opened.kind, opened.title))
                    if opened.kind in NOTICES:
                        await broadcast(trial_id, notice_frame(opened.stage, opened.title, opened.text))
            elif human:
                awaited = step
            elif isinstance(step, Speak):
                await _agent_turn(trial_id, step, participants[step.seat], state)
            else:
                agent = participants[step.seat]
                update = await asyncio.to_thread(_memory_update, agent, step, state)
                await step_record(trial_id, step, update, agent.drain_calls())
        if awaited == "paused":
            await _wait(trial_id)
        elif awaited is not None:
            await _await_human(trial_id, awaited, state.language, waiting=trial.status == Trial.Status.WAITING)


def step_lock(trial_id: int) -> asyncio.Lock:
    """Held by the driver while it takes a step (an agent's whole statement included) and by
    a judge's control while it changes the procedure, so neither overtakes the other."""
    return _step_locks.setdefault(trial_id, asyncio.Lock())


async def _objection_record(trial_id: int, step: Speak) -> bool:
    """An objection stops ``step``: only what was shown stays on the record, then the
    objection; the judge's ruling is the next step of the trial (agent or person). False,
    and the statement goes on, when the engine refuses the objection."""
    objection = objecting.raised.pop(trial_id)
    shown = (in_progress.get(trial_id) or {}).get("text", "")
    recorded = await objecting.objection_store_cut(trial_id, step, shown=shown, objection=objection)
    if isinstance(recorded, objecting.Refused):
        await broadcast(trial_id, objection_refused_frame(recorded.seat, recorded.reason))
        return False
    in_progress.pop(trial_id, None)
    for turn in recorded:
        await broadcast(trial_id, turn_end(turn))
    return True


async def _objection_window(trial_id: int, state: TrialState) -> bool:
    """A statement just ended that a person may object to: the trial waits the grace period
    (``LEGALSIM_OBJECTION_GRACE_S``) for the objection before it goes on. True when one was
    recorded (the judge's ruling comes next)."""
    last = state.turns[-1] if state.turns else None
    if last is None or last.seq <= _windows_given.get(trial_id, 0):
        return False
    _windows_given[trial_id] = last.seq
    grace = settings.LEGALSIM_OBJECTION_GRACE_S
    try:
        if grace > 0 and objectors(state, last):
            loop = asyncio.get_running_loop()
            deadline = loop.time() + grace
            objecting.windows[trial_id] = last.seq
            while trial_id not in objecting.raised and loop.time() < deadline:
                await _wait(trial_id, timeout=deadline - loop.time())
    finally:
        objecting.windows.pop(trial_id, None)
    objection = objecting.raised.pop(trial_id, None)
    if objection is None:
        return False
    recorded = await objecting.objection_store_after(trial_id, last.seq, objection)
    if isinstance(recorded, objecting.Refused):
        await broadcast(trial_id, objection_refused_frame(recorded.seat, recorded.reason))
        return False
    await broadcast(trial_id, turn_end(recorded))
    return True


def _respond(agent: Participant, step: Speak, state: TrialState, on_delta: DeltaSink) -> Reply | None:
    """In a worker thread: the view is built there too, off the event loop."""
    return agent.respond(TurnRequest(step, build_view(state, step.seat, phase=step.phase)), on_delta=on_delta)


def _memory_update(agent: Participant, step: UpdateMemory, state: TrialState) -> MemoryUpdate | None:
    return agent.update_memory(MemoryRequest(step, build_view(state, step.seat, phase="memory")))


async def _wait(trial_id: int, timeout: float = POLL_S) -> None:
    event = _wakeups.setdefault(trial_id, asyncio.Event())
    try:
        await asyncio.wait_for(event.wait(), timeout=timeout)
    except TimeoutError:
        pass
    event.clear()


async def _await_human(trial_id: int, step: Step, language: str, *, waiting: bool) -> None:
    """Ask the seat, then sleep until woken or ``POLL_S``; the next pass asks again (a lost
    ``await`` frame is sent anew) and sets the trial running once the person has spoken.
    The status is written only when it changes: two writes per poll of every waiting trial
    were a fifth of the worker threads' busy time at a hundred trials (ws_load.py)."""
    if isinstance(step, Speak):
        if not waiting:
            await status_set(trial_id, Trial.Status.WAITING)
        await broadcast(trial_id, await_guided(step, language))
        await _wait(trial_id)
    else:
        await step_record(trial_id, step, MemoryUpdate())


async def _agent_turn(trial_id: int, step: Speak, agent: Participant, state: TrialState) -> None:
    """An agent's statement: its words stream as the model writes them (a participant that
    gives its reply whole is paced at LEGALSIM_SCRIPTED_TOKENS_PER_S), then it is stored with
    the model calls it took. An objection that cuts it stops the generation: the model's
    stream is closed at its next token (``GenerationCancelled``)."""
    start = turn_start(step)
    objecting.raised.pop(trial_id, None)
    in_progress[trial_id] = {"start": start, "text": ""}
    await broadcast(trial_id, start)
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
        if trial_id in objecting.raised and await _objection_record(trial_id, step):
            cut.set()
            generation.add_done_callback(lambda task: task.cancelled() or task.exception())
            return
        try:
            delta = await asyncio.wait_for(live.get(), timeout=0.05)
        except TimeoutError:
            continue
        await _send_delta(trial_id, step.seq, delta)
    try:
        reply = generation.result()
    except ParticipantFailed as failure:
        in_progress.pop(trial_id, None)
        await trial_pause(trial_id, f"{step.seat} at {step.stage}: {failure}", agent.drain_calls())
        await broadcast(trial_id, error_frame(ErrorCode.AGENT_FAILED, str(failure)))
        return
    streamed = bool(in_progress[trial_id]["text"])
    reply = resumption.finish(reply)
    if not streamed and not await _pace(trial_id, step, reply.text):
        return
    turn = await step_record(trial_id, step, reply, agent.drain_calls())
    in_progress.pop(trial_id, None)
    if turn is not STALE:
        window_open(trial_id, turn.seq)
        await broadcast(trial_id, turn_end(turn))
        if step.artifact is not None:
            await broadcast(
                trial_id, artifact_frame(step.artifact, reply.artifact.title if reply.artifact else step.artifact)
            )


async def _send_delta(trial_id: int, seq: int, text: str) -> None:
    current = in_progress.get(trial_id)
    offset = len(current["text"]) if current else 0
    if current is not None:
        current["text"] += text
    await broadcast(trial_id, turn_delta(seq, text, offset))


async def _pace(trial_id: int, step: Speak, text: str) -> bool:
    """Stream a whole reply at LEGALSIM_SCRIPTED_TOKENS_PER_S (0: in one frame), a frame per
    ``FRAME_S`` carrying the tokens emitted in it. False when an objection stopped it."""
    rate = settings.LEGALSIM_SCRIPTED_TOKENS_PER_S
    if rate <= 0:
        await _send_delta(trial_id, step.seq, text)
        return True
    tokens = TOKEN.findall(text)
    per_frame = max(1, round(rate * FRAME_S))
    for start in range(0, len(tokens), per_frame):
        if trial_id in objecting.raised and await _objection_record(trial_id, step):
            return False
        await _send_delta(trial_id, step.seq, "".join(tokens[start : start + per_frame]))
        await asyncio.sleep(per_frame / rate)
    return True
