"""examples/research_client.py against a real daphne server: token, trial, websocket, transcript.

Daphne runs as a separate process, started as benchmarks/ws_load.py starts it, on the test
database: exactly how a researcher's server runs, with nothing inherited from the tests.
"""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from django.db import connection

from examples.research_client import ApiError, run
from legalsim.roles import Role
from tests.conftest import DEMO_CASES, ROOT
from tests.users import person
from trials.models import Trial
from trials.services import cases_import

CASE = "en-civil-traffic-accident"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url_in_use() -> str:
    """The URL of the database this test uses, for the server process."""
    config = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{config['NAME']}"
    credentials = quote(config["USER"] or "") + (f":{quote(config['PASSWORD'])}" if config.get("PASSWORD") else "")
    return f"postgres://{credentials}@{config['HOST'] or '127.0.0.1'}:{config['PORT'] or 5432}/{config['NAME']}"


@pytest.fixture
def daphne_url(transactional_db) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url_in_use(), "LEGALSIM_SCRIPTED_TOKENS_PER_S": "0"}
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "legalsim.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"daphne did not start: {server.stderr.read().decode()}") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_client_plays_its_seat_to_the_end_and_reads_its_turns_back(daphne_url):
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    person("researcher", Role.STUDENT, password="a-research-password-1")
    with pytest.raises(ApiError):
        run(base_url=daphne_url, username="researcher", password="nope", case=CASE, seat="judge")
    assert not Trial.objects.exists(), "a wrong password stops the client before anything is created"

    out = io.StringIO()
    result = run(
        base_url=daphne_url,
        username="researcher",
        password="a-research-password-1",
        case=CASE,
        seat="plaintiff_lawyer",
        stages=["FIT"],
        out=out,
    )
    trial = Trial.objects.get(pk=result["trial_id"])
    assert trial.status == Trial.Status.FINISHED
    assert result["said"], "the client was awaited and answered"
    human = list(trial.turns.filter(author="human").order_by("seq").values_list("seat", "text"))
    assert human == [("plaintiff_lawyer", text) for text in result["said"]], "each answer recorded once"
    transcript_fit = next(stage for stage in result["transcript"]["stages"] if stage["stage"] == "FIT")
    said_in_transcript = [turn["text"] for turn in transcript_fit["turns"] if turn["author"] == "human"]
    assert said_in_transcript == result["said"]
    assert result["transcript"]["finished"] is True
    assert f"trial {trial.pk} ended" in out.getvalue()
