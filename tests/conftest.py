from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _fresh_sync_executor_in_child() -> None:
    """A live server forked from this process (ChannelsLiveServerTestCase) inherits asgiref's
    one-thread executor for thread-sensitive calls without its thread: once an in-process
    websocket test has started that thread, every consumer's database call in the server
    would wait forever and its websocket handshakes time out."""
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync

    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)


os.register_at_fork(after_in_child=_fresh_sync_executor_in_child)
DEMO_CASES = ROOT / "demo" / "cases"


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session) -> None:
    """The pages are tested in both languages: compile the catalogues that changed (Babel, no
    GNU gettext), as ``dev.py`` does before serving; once, before pytest-xdist starts its
    workers, so no worker reads a catalogue another is writing."""
    from accounts.catalogues import catalogues_compile

    if not hasattr(session.config, "workerinput"):
        catalogues_compile()


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """A request made in a test leaves its language active in the test's thread
    (``LocaleMiddleware`` activates it per request and a server thread's next request
    activates its own); every test starts, and ends, in the default language."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """No connection pool inside the test process: pytest-asyncio gives every test its own
    event loop, whose executor threads end with the test still holding their pooled
    connections, so the pool would run dry. The processes the tests start (daphne, Celery
    workers) read the environment and use the pool as a deployment does."""
    from django.db import connections

    connections["default"].settings_dict["OPTIONS"].pop("pool", None)


def demo_case_seeds() -> list[dict]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(DEMO_CASES.glob("*.json"))]


CIVIL_CASE = {
    "id": "test-civil-loan",
    "procedure": "civil",
    "title": "Zhang v. Li (private lending)",
    "language": "en",
    "cause_of_action": "Private lending dispute",
    "parties": [
        {"side": "plaintiff", "name": "Zhang Wei", "kind": "person", "details": "lender"},
        {"side": "defendant", "name": "Li Na", "kind": "person", "details": "borrower"},
    ],
    "personas": {
        "plaintiff": {
            "legal_literacy": "high",
            "disclosure_willingness": "high",
            "emotional_stability": "high",
            "narrative_proficiency": "high",
        }
    },
    "goals": {
        "plaintiff": {
            "goal": "Recover the RMB 50,000 loan",
            "bottom_line": "the principal",
            "accepts_mediation": False,
        },
        "defendant": {"goal": "Pay nothing beyond RMB 20,000", "bottom_line": "RMB 30,000", "accepts_mediation": False},
    },
    "first_instance": {
        "claims": ["Repay the RMB 50,000 principal", "Pay interest at the LPR from 1 March 2023"],
        "facts_and_reasons": "On 1 March 2022 the plaintiff lent RMB 50,000 to the defendant. The defendant has not repaid.",
        "evidence": [
            {"side": "plaintiff", "name": "IOU", "purpose": "the loan"},
            {"side": "plaintiff", "name": "Bank transfer record", "purpose": "delivery of the money"},
            {"side": "defendant", "name": "WeChat transfer of RMB 30,000", "purpose": "partial repayment"},
        ],
        "defenses": "RMB 30,000 was already repaid by WeChat transfer in 2023.",
        "court_findings": "The court finds the loan proved and RMB 30,000 repaid.",
        "legal_references": ["Civil Code of the People's Republic of China, Article 675"],
        "disposition": "The defendant shall repay RMB 20,000.",
    },
    "second_instance": {
        "appellant_side": "defendant",
        "appeal_requests": ["Set aside item 1 of the judgment"],
        "appeal_reasons": "The repayment was not credited.",
        "appellee_defenses": "The judgment is correct.",
        "new_evidence": [{"side": "defendant", "name": "Bank statement", "purpose": "a further repayment"}],
        "appellate_findings": "Appeal dismissed.",
        "affected_items": ["All items affirmed"],
        "final_disposition": "Appeal dismissed, judgment affirmed.",
    },
    "consultation": [
        {"question": "Can I get my money back?", "reference_answer": "Yes, with the IOU.", "side": "plaintiff"},
        {"question": "Must I pay interest?", "reference_answer": "Only if agreed.", "side": "defendant"},
    ],
}


@pytest.fixture
def civil_seed() -> dict:
    return copy.deepcopy(CIVIL_CASE)


@pytest.fixture
def write_json(tmp_path):
    def write(name: str, content) -> Path:
        path = tmp_path / name
        path.write_text(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, indent=2))
        return path

    return write


@pytest.fixture
def llm_server():
    from tests.llm_server import LoopbackLLM

    with LoopbackLLM() as server:
        yield server


@pytest.fixture
def openai_settings(settings, llm_server):
    """Point the app's openai backend at the loopback server, with no backoff delay."""
    settings.OPENAI_BASE_URL = llm_server.base_url
    settings.OPENAI_API_KEY = "test-key"
    settings.LEGALSIM_MODEL = "env-model"
    settings.LEGALSIM_MODEL_TARGET = "target-model"
    settings.LEGALSIM_LLM_BACKOFF_S = 0.0
    return settings


@pytest.fixture
def tasks_in_process():
    """Run Celery tasks in this process even when REDIS_URL points Celery at a broker (a test
    with a real worker process belongs to the production-path issue)."""
    from tests.celery_mode import celery_eager

    with celery_eager(True):
        yield


@pytest.fixture
def default_rubric(transactional_db):
    """``legalworld16`` for transactional tests: each one's flush also empties what the data
    migration installed, so such a test cannot count on it being there."""
    from annotation.rubric import RUBRIC_DIR
    from annotation.services import rubric_import

    return rubric_import(path=RUBRIC_DIR / "legalworld16.json")
