"""Fault tolerance of the live room: the Redis channel layer killed and restarted under live
trials served by two real daphne processes, with JSON-protocol clients holding human seats:
each trial has a socket on each process, so one of them hears its driver only through Redis."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import websockets

from legalsim.roles import Role
from tests.browser import CHROMIUM, chromium_start, page_logged_in
from tests.conftest import DEMO_CASES
from tests.servers import REDIS_SERVER, redis_start, session_key_for, two_daphnes_on_private_redis
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.live.services import turns_heard
from trials.models import Case, Trial
from trials.services import cases_import

pytestmark = [
    pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not on PATH (apt-get install redis-server)"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]
CASE = "en-civil-traffic-accident"
TRIALS = 4
OUTAGE_AFTER_S = 2.0
OUTAGE_S = 1.5
PLAY_S = 75.0


@dataclass
class Player:
    """A human seat over the JSON protocol: answers every await, reconnects with backoff and
    asks for a replay (``resume``) when it sees a seq gap or hears nothing for a while."""

    trial_id: int
    session_key: str
    seat: str = "plaintiff_lawyer"
    """The seat it answers for; a watcher (another socket of the same person) answers none."""
    ends: dict[int, str] = field(default_factory=dict)
    """seq -> text of every turn.end received, deduplicated by seq."""
    sent: set[str] = field(default_factory=set)
    connects: int = 0
    resumes: int = 0
    errors: list[str] = field(default_factory=list)
    ended: bool = False

    @property
    def last_seq(self) -> int:
        return max(self.ends, default=0)

    async def play(self, port: int, deadline: float) -> None:
        backoff = 0.1
        while not self.ended and time.monotonic() < deadline:
            try:
                await self._session(port, deadline)
                backoff = 0.1
            except (OSError, websockets.WebSocketException, TimeoutError):
                await asyncio.sleep(backoff)
                backoff = min(2.0, backoff * 2)

    async def _session(self, port: int, deadline: float) -> None:
        url = f"ws://127.0.0.1:{port}/ws/trials/{self.trial_id}/?after_seq={self.last_seq}"
        headers = {"Cookie": f"sessionid={self.session_key}", "Origin": f"http://127.0.0.1:{port}"}
        async with websockets.connect(url, additional_headers=headers, open_timeout=5) as ws:
            self.connects += 1
            resumed_at = -1
            while not self.ended and time.monotonic() < deadline:
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=3.0))
                except TimeoutError:
                    await self._resume(ws)
                    continue
                seq = frame.get("seq")
                if frame["type"] in ("turn.start", "await") and seq > self.last_seq + 1 and resumed_at != self.last_seq:
                    resumed_at = self.last_seq
                    await self._resume(ws)
                if frame["type"] == "turn.end":
                    self.ends[seq] = frame["text"]
                elif frame["type"] == "await" and frame["seat"] == self.seat and seq not in self.ends:
                    client_id = f"{self.trial_id}-{seq}"
                    self.sent.add(client_id)
                    await ws.send(
                        json.dumps({"type": "say", "text": f"Counsel submits ({seq}).", "client_id": client_id})
                    )
                elif frame["type"] == "error":
                    self.errors.append(f"{frame['code']}: {frame['message']}")
                elif frame["type"] == "end":
                    self.ended = True

    async def _resume(self, ws) -> None:
        self.resumes += 1
        await ws.send(json.dumps({"type": "resume", "after_seq": self.last_seq}))


def players_make(count: int) -> tuple[list[Player], list[Player]]:
    """A player per trial and a watcher beside each (the same person in a second tab)."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    case = Case.objects.get(pk=CASE)
    players, watchers = [], []
    for index in range(count):
        user = person(f"fault{index}", Role.STUDENT)
        trial = prepared_trial(case=case, humans={"plaintiff_lawyer": user}, stages=["FIT"])
        players.append(Player(trial.pk, session_key_for(user)))
        watchers.append(Player(trial.pk, session_key_for(user), seat=""))
    return players, watchers


async def play_through_outage(
    players: list[Player], watchers: list[Player], ports: list[int], redis_port: int, redis: list
) -> None:
    """Players alternate between the two processes, each watcher on the other one."""
    deadline = time.monotonic() + PLAY_S
    games = asyncio.gather(
        *(player.play(ports[index % 2], deadline) for index, player in enumerate(players)),
        *(watcher.play(ports[(index + 1) % 2], deadline) for index, watcher in enumerate(watchers)),
    )
    await asyncio.sleep(OUTAGE_AFTER_S)
    assert not any(player.ended for player in players), "the outage starts mid-trial"
    redis[0].send_signal(signal.SIGKILL)
    redis[0].wait()
    await asyncio.sleep(OUTAGE_S)
    redis[0] = await asyncio.to_thread(redis_start, redis_port)
    await games


@pytest.fixture
def daphne_on_redis(tmp_path: Path):
    """([daphne ports], redis port, [redis process]): a private Redis and two daphne
    processes sharing it."""
    # WhiteNoise serves static/ through the finders (room.js) only in debug.
    env = {"LEGALSIM_SCRIPTED_TOKENS_PER_S": "200", "DJANGO_DEBUG": "true"}
    with two_daphnes_on_private_redis(tmp_path, **env) as (first, second, redis_port, redis):
        yield [first, second], redis_port, redis


def test_trials_finish_without_a_lost_turn_when_redis_restarts_mid_trial(daphne_on_redis, tmp_path: Path) -> None:
    ports, redis_port, redis = daphne_on_redis
    players, watchers = players_make(TRIALS)
    asyncio.run(play_through_outage(players, watchers, ports, redis_port, redis))
    for player, watcher in zip(players, watchers, strict=True):
        trial = Trial.objects.get(pk=player.trial_id)
        seqs = list(trial.turns.order_by("seq").values_list("seq", flat=True))
        human = list(trial.turns.filter(author="human").values_list("client_id", flat=True))
        fit = dict(trial.turns.filter(stage="FIT").values_list("seq", "text"))
        assert trial.status == Trial.Status.FINISHED, player
        assert seqs == list(range(1, len(seqs) + 1)), "seq is gap-free"
        assert watcher.sent == set()
        assert sorted(human) == sorted(player.sent), "every human turn sent is stored exactly once"
        for socket_ in (player, watcher):
            assert {seq: socket_.ends.get(seq) for seq in fit} == fit, "each socket saw every turn it hears"
            assert socket_.errors == []
    logs = "".join(path.read_text() for path in tmp_path.glob("*.log"))
    assert "channel layer unreachable" in logs, "the outage dropped frames: the server filled the gaps itself"


def browser_play(page, redis_port: int, redis: list) -> int:
    """Plays every awaited turn of the room open in ``page``, Redis killed after the first
    one and started again 1.5 s later; returns the number of turns the page sent."""
    said = 0
    while not page.locator("#banner-stage:has-text('The trial has ended')").count():
        page.wait_for_function(
            "() => !document.getElementById('composer-text').disabled"
            " || document.getElementById('banner-stage').textContent.includes('ended')"
        )
        if not page.locator("#composer-send").is_enabled():
            continue
        said += 1
        page.fill("#composer-text", f"Counsel submits ({said}).")
        page.click("#composer-send")
        if said == 1:
            redis[0].send_signal(signal.SIGKILL)
            redis[0].wait()
            page.wait_for_timeout(OUTAGE_S * 1000)
            redis[0] = redis_start(redis_port)
        page.wait_for_selector(f"li.turn.human:has-text('Counsel submits ({said}).')")
    return said


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_room_in_a_browser_shows_every_turn_after_redis_restarts(daphne_on_redis, monkeypatch) -> None:
    (port, _), redis_port, redis = daphne_on_redis
    # Playwright's sync API keeps an event loop in this thread (Django's documented setting).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    user = person("fault-browser", Role.STUDENT, password="a-demo-password-1")
    trial = prepared_trial(case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": user}, stages=["FIT"])
    playwright, browser = chromium_start()
    try:
        page = page_logged_in(browser, f"http://127.0.0.1:{port}", "fault-browser", "a-demo-password-1")
        page.goto(f"http://127.0.0.1:{port}/trials/{trial.pk}/")
        said = browser_play(page, redis_port, redis)
        shown = page.eval_on_selector_all(
            "#transcript li.turn", "items => items.map(item => [Number(item.dataset.seq), item.className])"
        )
    finally:
        browser.close()
        playwright.stop()
    trial.refresh_from_db()
    heard = [turn.seq for turn in turns_heard(trial, ["plaintiff_lawyer"])]
    assert trial.status == Trial.Status.FINISHED
    assert said == trial.turns.filter(author="human").count() > 1
    assert [seq for seq, _ in shown] == heard, "the transcript has every turn, in order, once"
    assert not [seq for seq, classes in shown if "streaming" in classes], "no turn is left half-shown"
