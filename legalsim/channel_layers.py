"""The channel layers: the embedded (in-memory) one and Redis pub/sub delivering locally first.

The embedded layer checks expiry at most once per interval.

Channels' ``InMemoryChannelLayer`` walks every channel queue and group for expired entries on
every send and receive: O(channels) per message, which at a hundred live trials streaming
20 frames a second each was a tenth of the event loop's time. Expiry is counted in seconds
(60 s for messages, a day for groups), so sweeping at most every ``SWEEP_S`` changes nothing
anyone can observe.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close


class InMemoryChannelLayer(ChannelsInMemoryLayer):
    SWEEP_S = 1.0
    _swept_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at < self.SWEEP_S:
            return
        self._swept_at = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict, *, remote: bool = True) -> None:
        """``remote`` is for the Redis layer (see ``LocalFirstRedisLayer``): here every socket is local."""
        await super().group_send(group, message)

    async def remote_subscribers(self, group: str) -> int:
        return 0


ORIGIN_BYTES = 12


class LocalFirstRedisLayer(RedisPubSubChannelLayer):
    """Redis pub/sub that hands a group's message to the sockets of this process directly.

    Channels' pub/sub layer publishes every group message to Redis and reads it back, even
    when every socket of the group lives in the sending process; at two hundred streaming
    trials that round trip (a write to Redis, the echo read and decoded per socket) was a
    third of a daphne process's event loop. Here a group message goes to the group's local
    channels at once, and is published (tagged with this process, whose receiver then skips
    the echo) unless the caller passes ``remote=False``: the trial's driver does so while it
    knows no other process holds a socket of the trial (``trials.live.fanout``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.origin = uuid.uuid4().bytes[:ORIGIN_BYTES]

    def _get_layer(self) -> _LocalFirstLoopLayer:
        loop = asyncio.get_running_loop()
        if loop not in self._layers:
            self._layers[loop] = _LocalFirstLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return self._layers[loop]

    def serialize(self, message: dict) -> bytes:
        """A message sent to a channel: untagged, so no process skips it."""
        return bytes(ORIGIN_BYTES) + super().serialize(message)

    def serialize_tagged(self, message: dict) -> bytes:
        """A group message published by this process, whose receiver skips it."""
        return self.origin + super().serialize(message)

    def deserialize(self, message: bytes | dict) -> dict:
        if isinstance(message, dict):
            return message
        return super().deserialize(message[ORIGIN_BYTES:])

    async def group_send(self, group: str, message: dict, *, remote: bool = True) -> None:
        await self._get_layer().group_send(group, message, remote=remote)

    async def remote_subscribers(self, group: str) -> int:
        """How many other processes subscribe to ``group`` now (one Redis round trip)."""
        return await self._get_layer().remote_subscribers(group)


class _LocalFirstLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [_EchoSkippingShard(shard.host, self) for shard in self._shards]

    async def group_send(self, group: str, message: dict, *, remote: bool = True) -> None:
        group_channel = self._get_group_channel_name(group)
        for channel in self.groups.get(group_channel, ()):
            if channel in self.channels:
                self.channels[channel].put_nowait(message)
        if remote:
            await self._get_shard(group_channel).publish(group_channel, self.channel_layer.serialize_tagged(message))

    async def remote_subscribers(self, group: str) -> int:
        group_channel = self._get_group_channel_name(group)
        shard = self._get_shard(group_channel)
        shard._ensure_redis()
        [(_, subscribers)] = await shard._redis.pubsub_numsub(group_channel)
        return subscribers - (group_channel in shard._subscribed_to)


class _EchoSkippingShard(RedisSingleShardConnection):
    """Skips the group messages this process published: its own sockets already had them."""

    def _receive_message(self, message: dict | None) -> None:
        if message is not None and message["data"][:ORIGIN_BYTES] == self.channel_layer.channel_layer.origin:
            return
        super()._receive_message(message)
