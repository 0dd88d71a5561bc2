"""examples/research_client.py against a real daphne server: token, trial, websocket, transcript.

Daphne runs as a separate process, started as benchmarks/ws_load.py starts it, on the test
database: exactly how a researcher's server runs, with nothing inherited from the tests.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterator

import pytest

from examples.research_client import ApiError, run
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.servers import celery_worker, daphne
from tests.users import person
from trials.models import Trial
from trials.services import cases_import

CASE = "en-civil-traffic-accident"


@pytest.fixture
def daphne_url(transactional_db, tmp_path) -> Iterator[str]:
    """Daphne and, on Redis, a Celery worker: the trial the client starts at FIT has its
    earlier stages played by the worker, as on a researcher's server."""
    queue = {"LEGALSIM_CELERY_QUEUE": f"research-{uuid.uuid4().hex[:8]}"}
    with celery_worker(tmp_path / "worker.log", **queue), daphne(tmp_path / "daphne.log", **queue) as port:
        yield f"http://127.0.0.1:{port}"


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
