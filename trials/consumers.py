"""The trial room's websocket (docs/protocol.md), its receiving half: thin. It parses what a
client sends (``trials.protocol``), checks the sender's sign-in and seats, and hands the
message to the trial's session (``trials.live.session``), whose methods write, send the frames
and wake the driver; what a socket hears is decided once per frame by its sender (the frame's
audience), and sent by the socket's sending half (``trials.live.feed``).

Rights are re-checked all the time: every message received re-reads the sender's session,
roles, instructorships and seats (``trials.access.rights_now``) before it is carried out; a seat
taken or handed back anywhere makes every socket of the trial re-read its rights before the
next frame (``trial.seats``); signing out closes the sockets opened with that session
(``session.ended``), a password changed or a person made inactive makes each of their sockets
check its sign-in (``sign_in.check``), and a role revoked or a place among a course's
instructors lost makes each re-read the person's rights (``rights.check``), as every message
received does: a socket left with neither a seat nor oversight closes. A change no notice reported (a
write without signals, a process the in-memory layer cannot reach) is found while frames flow
too: a socket re-reads its sign-in and rights in the background at most every
``trials.live.feed.RIGHTS_RECHECK_S`` seconds, off the frame's path.
"""

from __future__ import annotations

import logging
from urllib.parse import parse_qs

from django.contrib.sessions.backends.base import SessionBase

from accounts.services import sign_in_holds
from trials.access import Rights, rights_now
from trials.live.driver import ensure_driver
from trials.live.fanout import group_name, user_group
from trials.live.feed import TrialFeed
from trials.live.services import LiveError
from trials.live.session import session_of
from trials.models import Trial
from trials.pool import in_pool
from trials.protocol import (
    BadMessage,
    ClientMessage,
    ErrorCode,
    Objection,
    Resume,
    Say,
    after_seq_parse,
    client_message_parse,
    error_frame,
)

logger = logging.getLogger(__name__)
CLOSE_SIGNED_OUT = 4401
CLOSE_NO_SEAT = 4403
"""A seat held when the socket opened was handed back, or the oversight it was opened with
(an instructor's, an admin's) was taken away."""
CLOSE_NOT_FOUND = 4404
"""No such trial, or one this person may not know of: the two are told apart by nobody."""


class TrialConsumer(TrialFeed):
    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.trial_id = int(self.scope["url_route"]["kwargs"]["trial_id"])
        self.feed_start()
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.send_json(error_frame(ErrorCode.NOT_AUTHENTICATED, "log in first"))
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        trial = await in_pool(Trial.objects.filter(pk=self.trial_id).first)()
        if trial is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.rights_take(await in_pool(rights_now)(self.trial_id, self.user.pk))
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
        await self.replay(after_seq)
        ensure_driver(self.trial_id)

    async def disconnect(self, code: int) -> None:
        self.rights_recheck_stop()
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
        if not await self._session_alive() or not await self._rights_reread():
            return
        try:
            await self._handle(message)
        except Exception:
            logger.exception("trial %s: message %r failed", self.trial_id, type(message).__name__)
            await self.send_json(error_frame(ErrorCode.SERVER_ERROR, "the server could not handle that message"))

    async def _handle(self, message: ClientMessage) -> None:
        if isinstance(message, Resume):
            await self.replay(message.after_seq)
            return
        session = session_of(self.trial_id)
        try:
            if isinstance(message, Say):
                frame, duplicate = await session.say(user=self.user, message=message)
                if duplicate:
                    self.awaits_withdrawn()
                    await self.turn_send(frame)
            elif isinstance(message, Objection):
                await session.object(seats=self.seats, heard=self.speaking, message=message)
            else:
                await session.control(user=self.user, message=message)
                ensure_driver(self.trial_id)
        except LiveError as error:
            if isinstance(message, Say):
                self.awaits_withdrawn()  # nothing was recorded: the question stands, asked again
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

    def rights_take(self, rights: Rights) -> None:
        """Act from now on as the person is stored now, with the rights they hold now."""
        if rights.user is not None:
            self.user = rights.user
        self.teacher = rights.overseer
        """An overseer of the trial (``trials.access``): an instructor of its course, an admin."""
        self.seats = rights.seats

    async def _rights_reread(self) -> bool:
        """The oversight and seats this person holds now; someone left with neither is shown out."""
        oversaw = self.teacher
        self.rights_take(await in_pool(rights_now)(self.trial_id, self.user.pk))
        if self.seats or self.teacher:
            return True
        reason = "you no longer oversee this trial" if oversaw else "take a seat in this trial first"
        await self.send_json(error_frame(ErrorCode.NOT_YOUR_SEAT, reason))
        await self.close(code=CLOSE_NO_SEAT)
        return False

    async def _close_signed_out(self) -> None:
        await self.send_json(error_frame(ErrorCode.NOT_AUTHENTICATED, "you are signed out; sign in again"))
        await self.close(code=CLOSE_SIGNED_OUT)

    async def trial_seats(self, event: dict) -> None:
        """A seat of this trial changed hands: the next frame goes out under the rights held now."""
        await self._rights_reread()

    async def rights_check(self, event: dict) -> None:
        """The person's roles or courses changed (``accounts.signals.rights_changed``): the next
        frame goes out under the rights held now, or the socket closes."""
        if await self._session_alive():
            await self._rights_reread()

    async def session_ended(self, event: dict) -> None:
        session: SessionBase | None = self.scope.get("session")
        if session is not None and session.session_key == event["session_key"]:
            await self._close_signed_out()

    async def sign_in_check(self, event: dict) -> None:
        """The person's password changed or they were made inactive (``accounts.signals``)."""
        await self._session_alive()
