"""A served process told to stop stops, even with a request thread that can never finish
(``legalsim.shutdown``): under daphne such a thread waits for ever on the stopped event loop."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVED = """
import sys, threading
from twisted.internet import asyncioreactor
asyncioreactor.install()
from twisted.internet import reactor
from legalsim.shutdown import exit_after_shutdown
if sys.argv[1] == "hooked":
    assert exit_after_shutdown(0.5)
threading.Thread(target=threading.Event().wait, name="request").start()
reactor.callLater(0.2, reactor.stop)
reactor.run()
"""


def served(mode: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", SERVED, mode], cwd=ROOT, stderr=subprocess.PIPE, text=True)


def test_the_process_ends_after_the_reactor_stops_although_a_request_thread_is_stuck():
    process = served("hooked")
    started = time.monotonic()
    assert process.wait(timeout=30) == 0
    assert time.monotonic() - started < 15
    assert "1 thread(s) that cannot finish: request" in process.stderr.read()


def test_without_the_hook_the_stuck_thread_holds_the_process():
    process = served("bare")
    try:
        time.sleep(3)
        assert process.poll() is None, "the stuck thread no longer holds the process: the hook may be unneeded"
    finally:
        process.kill()
        process.wait()


def test_a_process_without_a_reactor_is_left_alone():
    check = (
        "import sys; from legalsim.shutdown import exit_after_shutdown; "
        "assert exit_after_shutdown() is False; assert 'twisted.internet.reactor' not in sys.modules"
    )
    assert subprocess.run([sys.executable, "-c", check], cwd=ROOT, timeout=60).returncode == 0
