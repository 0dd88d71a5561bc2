"""The embedded (in-memory) channel layer, with expiry checked at most once per interval.

Channels' ``InMemoryChannelLayer`` walks every channel queue and group for expired entries on
every send and receive: O(channels) per message, which at a hundred live trials streaming
20 frames a second each was a tenth of the event loop's time. Expiry is counted in seconds
(60 s for messages, a day for groups), so sweeping at most every ``SWEEP_S`` changes nothing
anyone can observe.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryLayer


class InMemoryChannelLayer(ChannelsInMemoryLayer):
    SWEEP_S = 1.0
    _swept_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at < self.SWEEP_S:
            return
        self._swept_at = now
        super()._clean_expired()
