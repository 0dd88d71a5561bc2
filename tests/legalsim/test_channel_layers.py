"""The Redis channel layer hands a group's messages to this process's sockets directly and
publishes them for the others: two layer instances stand for two daphne processes."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from legalsim.channel_layers import LocalFirstRedisLayer

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (the Redis layer is tested in CI)")

FRAME = {"type": "trial.frame", "frame": {"type": "turn.delta", "text": "原告请陈述", "seq": 3}}


async def received(layer: LocalFirstRedisLayer, channel: str, wait: float = 0.5) -> list[dict]:
    messages = []
    while True:
        try:
            messages.append(await asyncio.wait_for(layer.receive(channel), timeout=wait))
        except TimeoutError:
            return messages


@pytest.fixture
async def two_processes():
    here, there = LocalFirstRedisLayer(hosts=[REDIS_URL]), LocalFirstRedisLayer(hosts=[REDIS_URL])
    group = f"trial.test-{uuid.uuid4().hex[:8]}"
    yield here, there, group
    await here.flush()
    await there.flush()


async def test_a_local_socket_gets_a_message_once_and_a_remote_one_through_redis(two_processes):
    here, there, group = two_processes
    local, remote = await here.new_channel(), await there.new_channel()
    await here.group_add(group, local)
    await there.group_add(group, remote)
    await asyncio.sleep(0.2)
    await here.group_send(group, FRAME)
    assert await received(here, local) == [FRAME], "the sender's own socket does not get the Redis echo too"
    assert await received(there, remote) == [FRAME]


async def test_a_local_only_message_never_reaches_another_process(two_processes):
    here, there, group = two_processes
    local, remote = await here.new_channel(), await there.new_channel()
    await here.group_add(group, local)
    await there.group_add(group, remote)
    await here.group_send(group, FRAME, remote=False)
    assert await received(here, local) == [FRAME]
    assert await received(there, remote) == []


async def test_other_processes_subscribed_to_a_group_are_counted(two_processes):
    here, there, group = two_processes
    local, remote = await here.new_channel(), await there.new_channel()
    await here.group_add(group, local)
    assert await here.remote_subscribers(group) == 0, "the process's own subscription is not a remote one"
    await there.group_add(group, remote)
    assert await here.remote_subscribers(group) == 1
    assert await there.remote_subscribers(group) == 1
    await there.group_discard(group, remote)
    assert await here.remote_subscribers(group) == 0


async def test_direct_sends_to_a_channel_of_the_same_process_still_arrive(two_processes):
    here, _, _ = two_processes
    channel = await here.new_channel()
    await asyncio.sleep(0.2)
    await here.send(channel, {"type": "driver.wake"})
    assert await received(here, channel) == [{"type": "driver.wake"}]
