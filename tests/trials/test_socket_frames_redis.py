"""Issue #31: after a Redis restart a socket on the daphne process not driving its trial missed
``turn.end`` frames, and a raw protocol client (one that never sends ``resume``) never learnt.
The players of tests/trials/test_faults.py, made raw: every socket still sees every turn."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from tests.servers import REDIS_SERVER
from tests.trials.test_faults import Player, daphne_on_redis, play_through_outage, players_make
from trials.models import Trial

pytestmark = [
    pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not on PATH (apt-get install redis-server)"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(150),
]
__all__ = ["daphne_on_redis"]


@dataclass
class RawPlayer(Player):
    """Never asks for a replay: what it would have asked for is only counted."""

    async def _resume(self, ws) -> None:
        self.resumes += 1


def test_raw_clients_see_every_turn_when_redis_restarts_mid_trial(daphne_on_redis, tmp_path) -> None:
    ports, redis_port, redis = daphne_on_redis
    made = players_make(4)
    players, watchers = ([RawPlayer(p.trial_id, p.session_key, p.seat) for p in group] for group in made)
    asyncio.run(play_through_outage(players, watchers, ports, redis_port, redis))
    logs = "".join(path.read_text() for path in tmp_path.glob("*.log"))
    assert "channel layer unreachable" in logs, "the outage dropped frames"
    for player, watcher in zip(players, watchers, strict=True):
        trial = Trial.objects.get(pk=player.trial_id)
        fit = dict(trial.turns.filter(stage="FIT").values_list("seq", "text"))
        assert trial.status == Trial.Status.FINISHED, player
        for socket_ in (player, watcher):
            assert {seq: socket_.ends.get(seq) for seq in fit} == fit, "each socket saw every turn it hears"
            assert socket_.errors == [] and socket_.connects == 1
