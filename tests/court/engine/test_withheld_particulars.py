"""A client's withheld detail that also stands in a party's particulars (a MASER record whose
withheld detail is the defendant's address) reaches no seat, page or API answer before the
client says it (issue #44 item 12; a canary string)."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from court.engine.machine import trial_start
from court.engine.state import TurnRecord
from court.engine.visibility import build_view
from court.procedures import procedure_for
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.services import case_store

CANARY = "西虹市历城区CANARY路77号"


def case_with_withheld_address() -> dict:
    case = json.loads((DEMO_CASES / "zh-civil-private-lending.json").read_text(encoding="utf-8"))
    case["id"] = "withheld-address"
    defendant = next(party for party in case["parties"] if party["side"] == "defendant")
    defendant["details"] = f"女，1980年10月5日出生，住{CANARY}。"
    case["personas"]["plaintiff"] = {
        **case["personas"].get("plaintiff", {}),
        "withheld": [{"detail": CANARY, "mode": "omit", "asked_by": ["地址", "住在哪"]}],
    }
    return case


def test_only_the_withholding_client_sees_the_detail_in_the_particulars_until_they_say_it():
    state = trial_start(case=case_with_withheld_address(), target_side="plaintiff")
    seats = procedure_for("civil").seats
    views = {seat: json.dumps(build_view(state, seat).case, ensure_ascii=False) for seat in seats}
    assert CANARY in views["plaintiff_client"], "the client knows the address"
    assert [seat for seat, text in views.items() if CANARY in text] == ["plaintiff_client"]
    state.turns.append(
        TurnRecord(
            seq=1,
            stage="LC",
            phase="",
            seat="plaintiff_client",
            role="client",
            side="plaintiff",
            speaker="",
            author="agent",
            act="answer",
            text=f"她住{CANARY}。",
        )
    )
    assert CANARY in json.dumps(build_view(state, "plaintiff_lawyer").case, ensure_ascii=False), "told, now seen"


@pytest.mark.django_db
def test_the_case_page_and_the_api_leave_a_withheld_detail_out_of_the_particulars(client):
    case_store(case_with_withheld_address(), source_file="test")
    student = person("student", Role.STUDENT)
    client.force_login(student)
    page = client.get("/cases/withheld-address/")
    assert page.status_code == 200 and CANARY not in page.content.decode()
    api = APIClient()
    api.force_authenticate(student)
    for url in ("/api/cases/", "/api/cases/withheld-address/"):
        answer = api.get(url)
        assert answer.status_code == 200 and CANARY not in answer.content.decode(), url
