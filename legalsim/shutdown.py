"""A served process that was told to stop stops (issue: "daphne ignores SIGINT").

Under daphne a request runs its sync middleware and view in a worker thread that calls back
into the event loop (asgiref's ``AsyncToSync``). When Ctrl+C or SIGTERM stops the reactor while
such a request is in flight (the room's polling during a trial's preparation is one), daphne
cancels the request's task, the loop stops, and the worker thread waits for ever on a loop that
will not run again; the interpreter joins that thread at exit and the process hangs (seen for
minutes). Nothing can finish that request any more: its client was cut off, its database work
is transactional and a live trial is leased, so another process takes it over. So once the
reactor has shut down, the process is given ``grace`` seconds to exit on its own and is then
ended.
"""

from __future__ import annotations

import logging
import os
import sys
import threading

logger = logging.getLogger(__name__)

SHUTDOWN_GRACE_SECONDS = 3.0


def exit_after_shutdown(grace: float = SHUTDOWN_GRACE_SECONDS) -> bool:
    """Under a Twisted reactor (daphne), end the process ``grace`` seconds after the reactor
    shuts down if it has not exited by then. Returns whether the hook was installed: other
    servers (and the tests' in-process ASGI clients) run no reactor and are left alone."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:
        return False
    reactor.addSystemEventTrigger("after", "shutdown", _end_after, grace)
    return True


def _end_after(grace: float) -> None:
    timer = threading.Timer(grace, _end)
    timer.daemon = True
    timer.start()


def _end() -> None:
    stuck = [
        thread.name
        for thread in threading.enumerate()
        if not thread.daemon and thread.is_alive() and thread is not threading.main_thread()
    ]
    logger.warning("stopping with %d thread(s) that cannot finish: %s", len(stuck), ", ".join(stuck))
    logging.shutdown()
    os._exit(0)
