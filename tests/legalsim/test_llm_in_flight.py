"""Calls in flight: at most ``LEGALSIM_MAX_IN_FLIGHT`` requests a process sends at once to one
model server, and a call waiting on its server holds no database connection."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction

from legalsim.llm import LLMCall, LLMClient
from tests.llm_server import LoopbackLLM, default_brain
from trials.models import Case

CALL = LLMCall(model="qwen-test", messages=[{"role": "user", "content": "Open the court."}])


class Crowd:
    """A brain that takes 0.2 s a reply and counts the requests it answers at once."""

    def __init__(self) -> None:
        self.now = self.most = 0
        self.lock = threading.Lock()

    def __call__(self, request: dict):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(0.2)
        with self.lock:
            self.now -= 1
        return default_brain(request)


def calls(servers: list[LoopbackLLM], each: int) -> list[str]:
    clients = [LLMClient(base_url=server.base_url, api_key="k", timeout_s=10) for server in servers]
    with ThreadPoolExecutor(max_workers=each * len(servers)) as pool:
        futures = [pool.submit(client.complete, CALL) for client in clients for _ in range(each)]
        return [future.result()[0].text for future in futures]


def test_one_process_sends_at_most_max_in_flight_requests_to_each_server(settings):
    settings.LEGALSIM_MAX_IN_FLIGHT = 2
    first, second = Crowd(), Crowd()
    with LoopbackLLM(first) as one, LoopbackLLM(second) as other:
        replies = calls([one, other], each=6)
    assert len(replies) == 12 and all(replies), "every call was answered in the end"
    assert (first.most, second.most) == (2, 2), "two at a time to each server, the others waiting their turn"


def test_requests_beyond_the_limit_wait_rather_than_fail(settings):
    settings.LEGALSIM_MAX_IN_FLIGHT = 1
    crowd = Crowd()
    with LoopbackLLM(crowd) as server:
        started = time.perf_counter()
        replies = calls([server], each=4)
    assert len(replies) == 4 and crowd.most == 1
    assert time.perf_counter() - started >= 0.8, "four 0.2 s replies one after the other"


@pytest.mark.django_db(transaction=True)
def test_a_thread_waiting_on_a_model_holds_no_database_connection(llm_server):
    def ask() -> bool:
        Case.objects.exists()
        assert connection.connection is not None, "the query took a connection"
        LLMClient(base_url=llm_server.base_url, api_key="k", timeout_s=10).complete(CALL)
        held = connection.connection is not None
        connection.close()
        return held

    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(ask).result() is False, "the connection went back before the request"


@pytest.mark.django_db(transaction=True)
def test_a_call_inside_a_transaction_keeps_the_transaction(llm_server):
    client = LLMClient(base_url=llm_server.base_url, api_key="k", timeout_s=10)
    with transaction.atomic():
        Case.objects.create(id="kept", procedure="civil", title="t", language="en", cause_of_action="c", seed={})
        client.complete(CALL)
        Case.objects.filter(pk="kept").update(title="after the call")
    assert Case.objects.get(pk="kept").title == "after the call"
