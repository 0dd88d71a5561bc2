"""Issue #31 item 3 across processes: two daphne processes share a Redis, and a sign-in ended
on one (a password changed there, a person made inactive by any process on that Redis)
closes the person's sockets on the other with 4401, at once, without a message from them."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.servers import REDIS_SERVER, two_daphnes_on_private_redis
from tests.trials.prepared import prepared_trial
from tests.trials.test_consumers import Socket, open_socket, password_change, sessions_with_password
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import

pytestmark = [
    pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not on PATH (apt-get install redis-server)"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]
CASE = "en-civil-traffic-accident"


@pytest.fixture
def daphnes(tmp_path):
    """(first port, second port, Redis URL)."""
    with two_daphnes_on_private_redis(tmp_path) as (first, second, redis_port, _):
        yield first, second, f"redis://127.0.0.1:{redis_port}/0"


@sync_to_async
def hearing(username: str) -> Trial:
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    user = person(username, Role.STUDENT)
    return prepared_trial(case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": user}, stages=["FIT"])


async def test_a_password_changed_on_one_process_closes_the_socket_on_the_other(daphnes):
    first, second, _ = daphnes
    trial = await hearing("paul")
    room_session, other_session = await sessions_with_password("paul")
    async with open_socket(first, trial.pk, room_session) as raw:
        student = Socket(raw)
        await student.next(lambda frame: frame["type"] in ("turn.start", "await"))
        await asyncio.to_thread(password_change, second, other_session)
        assert await student.closed_with(timeout=10) == 4401


async def test_a_person_made_inactive_by_another_process_on_the_redis_loses_every_socket(daphnes, settings):
    """The admin's process (here the test's, on the same Redis) tells the sockets of both daphnes."""
    first, second, redis_url = daphnes
    trial = await hearing("paul")
    keys = await sessions_with_password("paul")
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "legalsim.channel_layers.LocalFirstRedisLayer", "CONFIG": {"hosts": [redis_url]}}
    }
    async with open_socket(first, trial.pk, keys[0]) as one, open_socket(second, trial.pk, keys[1]) as other:
        sockets = [Socket(one), Socket(other)]
        for socket in sockets:
            await socket.next(lambda frame: frame["type"] in ("turn.start", "await"))

        @sync_to_async
        def deactivate() -> None:
            user = person("paul")
            user.is_active = False
            user.save(update_fields=["is_active"])

        await deactivate()
        assert [await socket.closed_with(timeout=10) for socket in sockets] == [4401, 4401]
