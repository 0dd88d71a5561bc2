"""The trial room's websocket (DESIGN.md websocket contract): thin; rules live in
``trials.live`` and the engine, generation in ``trials.driver``."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from legalsim.roles import Ability, can
from trials import driver
from trials.engine.machine import JUDGE_CONTROLS, next_step
from trials.engine.steps import Speak
from trials.live import LiveError, human_say, judge_control, seats_of, stage_heard_by, turns_after
from trials.models import Trial
from trials.procedures.seats import seat_info
from trials.protocol import END, ErrorCode, await_frame, error_frame, turn_delta, turn_end


class TrialConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.trial_id = int(self.scope["url_route"]["kwargs"]["trial_id"])
        self.sent_starts: set[int] = set()
        self.sent_ends: set[int] = set()
        self.sent_text: dict[int, int] = {}
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.send_json(error_frame(ErrorCode.NOT_AUTHENTICATED, "log in first"))
            await self.close(code=4401)
            return
        trial = await driver.in_pool(Trial.objects.filter(pk=self.trial_id).first)()
        if trial is None:
            await self.close(code=4404)
            return
        self.seats = await driver.in_pool(seats_of)(trial, self.user)
        self.teacher = await driver.in_pool(can)(self.user, Ability.TEACH)
        if not (self.seats or self.teacher):
            await self.send_json(error_frame(ErrorCode.NOT_YOUR_SEAT, "take a seat in this trial first"))
            await self.close(code=4403)
            return
        self.heard: dict[str, bool] = {}
        self.procedure = trial.procedure
        self.group = driver.group_name(self.trial_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        await self._replay(int((query.get("after_seq") or ["0"])[0] or 0))
        driver.ensure_driver(self.trial_id)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs) -> None:
        if not isinstance(content, dict) or content.get("type") not in ("say", "resume", "control", "objection"):
            await self.send_json(
                error_frame(ErrorCode.BAD_MESSAGE, "expected a say, resume, control or objection message")
            )
            return
        if content["type"] == "objection":
            await self._object(content)
            return
        if content["type"] == "resume":
            await self._replay(int(content.get("after_seq") or 0))
        elif content["type"] == "say":
            await self._say(content)
        else:
            await self._control(content)

    async def _say(self, content: dict) -> None:
        try:
            result = await driver.in_pool(human_say)(
                trial_id=self.trial_id,
                user=self.user,
                text=str(content.get("text") or ""),
                client_id=str(content.get("client_id") or ""),
                decision=content.get("decision"),
                sections=content.get("sections") if isinstance(content.get("sections"), dict) else None,
            )
        except LiveError as error:
            await self.send_json(error_frame(error.code, str(error)))
            return
        if not result.duplicate:
            await driver.broadcast(self.trial_id, turn_end(result.turn))
            driver.wake(self.trial_id)
        else:
            await self._send_turn(turn_end(result.turn))

    async def _object(self, content: dict) -> None:
        """A lawyer seat objects to the other side's statement while it streams."""
        advocates = [
            seat for seat in self.seats if seat_info(self.procedure, seat).role in ("lawyer", "attorney", "prosecutor")
        ]
        if not advocates:
            await self.send_json(error_frame(ErrorCode.NOT_YOUR_SEAT, "only counsel may object"))
            return
        seat = advocates[0]
        refused = driver.objection_raise(
            self.trial_id, seat=seat, side=seat_info(self.procedure, seat).side, ground=str(content.get("ground") or "")
        )
        if refused:
            await self.send_json(error_frame(ErrorCode.NOT_YOUR_TURN, refused))

    async def _control(self, content: dict) -> None:
        allowed = "judge" in self.seats or self.teacher
        if not allowed:
            await self.send_json(
                error_frame(ErrorCode.NOT_YOUR_SEAT, "only the judge seat or an instructor controls the trial")
            )
            return
        action = content.get("action")
        if action in (*JUDGE_CONTROLS, "question"):
            await self._steer(action, content)
            return
        if action not in ("pause", "resume"):
            await self.send_json(error_frame(ErrorCode.UNSUPPORTED, f"control {action!r} is not supported"))
            return
        status = Trial.Status.PAUSED if action == "pause" else Trial.Status.RUNNING
        await driver.in_pool(Trial.objects.filter(pk=self.trial_id).update)(status=status)
        driver.wake(self.trial_id)
        await driver.broadcast(self.trial_id, {"type": "control", "action": action})

    async def _steer(self, action: str, content: dict) -> None:
        """Waits for the statement being made to end, then changes the procedure."""
        async with driver.step_lock(self.trial_id):
            try:
                result = await driver.in_pool(judge_control)(
                    trial_id=self.trial_id,
                    user=self.user,
                    action=action,
                    seat=str(content.get("seat") or ""),
                    text=str(content.get("text") or ""),
                )
            except LiveError as error:
                await self.send_json(error_frame(error.code, str(error)))
                return
        if result.turn is not None:
            await driver.broadcast(self.trial_id, turn_end(result.turn))
        await driver.broadcast(self.trial_id, {"type": "control", "action": action, "phase": result.phase})
        driver.wake(self.trial_id)

    async def _replay(self, after_seq: int) -> None:
        """Every stored turn after ``after_seq``, the turn in progress, then the pending await."""
        self.sent_starts = {seq for seq in self.sent_starts if seq <= after_seq}
        self.sent_ends = {seq for seq in self.sent_ends if seq <= after_seq}
        self.sent_text = {seq: sent for seq, sent in self.sent_text.items() if seq <= after_seq}
        trial = await driver.in_pool(Trial.objects.get)(pk=self.trial_id)
        for turn in await driver.in_pool(turns_after)(trial, after_seq):
            await self._send_turn(turn_end(turn))
        current = driver.in_progress.get(self.trial_id)
        if current is not None and current["start"]["seq"] > after_seq:
            await self._send_turn(current["start"])
            if current["text"]:
                await self._send_turn(turn_delta(current["start"]["seq"], current["text"], 0))
        state = trial.engine_state
        step = next_step(state)
        if state.finished:
            await self.send_json(END)
        elif isinstance(step, Speak) and step.seat in state.human_seats and trial.status == Trial.Status.WAITING:
            await self.send_json(await_frame(step, state.language))

    async def trial_frame(self, event: dict) -> None:
        await self._send_turn(event["frame"])

    async def _send_turn(self, frame: dict) -> None:
        """Send a frame once: turns replayed and broadcast are deduplicated by seq and offset."""
        kind, seq = frame.get("type"), frame.get("seq")
        if not await self._hears(frame):
            return
        if kind == "turn.start":
            if seq in self.sent_starts:
                return
            self.sent_starts.add(seq)
        elif kind == "turn.delta":
            sent = self.sent_text.get(seq, 0)
            end = frame["offset"] + len(frame["text"])
            if seq in self.sent_ends or end <= sent:
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
        await self.send_json(frame)

    async def _hears(self, frame: dict) -> bool:
        """Turn frames reach only the seats that hear their stage (instructors hear all)."""
        if self.teacher or frame.get("type") not in ("turn.start", "turn.delta", "turn.end"):
            return True
        if frame["type"] == "turn.delta":
            return frame["seq"] in self.sent_starts
        stage = frame["stage"]
        if stage not in self.heard:
            trial = await driver.in_pool(Trial.objects.get)(pk=self.trial_id)
            self.heard[stage] = stage_heard_by(trial.engine_state, stage, self.seats)
        return self.heard[stage]


def turn_start_from_end(frame: dict) -> dict:
    return {
        "type": "turn.start",
        **{key: frame[key] for key in ("seq", "stage", "phase", "role", "side", "speaker", "seat")},
    }
