"""The precedent search over the case library (``trials/caselibrary/precedent_library.py``):
its index follows the library."""

from __future__ import annotations

import json

import pytest

from tests.conftest import DEMO_CASES
from trials.caselibrary.precedent_library import library_index
from trials.models import Case
from trials.services import cases_import


@pytest.fixture
def library(db) -> None:
    report = cases_import(paths=[DEMO_CASES])
    assert not report.problems, report.problems


def test_the_index_is_rebuilt_when_the_library_changes_and_only_then(library):
    first = library_index()
    assert library_index() is first
    seed = json.loads((DEMO_CASES / "zh-civil-private-lending.json").read_text(encoding="utf-8"))
    added = seed | {"id": "zh-new-loan", "metadata": {}, "title": "新借款案"}
    added["first_instance"] = added["first_instance"] | {
        "facts_and_reasons": "被告向原告借款五万元，约定月底归还，逾期未还。"
    }
    Case.objects.create(
        id="zh-new-loan", procedure="civil", title="新借款案", language="zh", cause_of_action="民间借贷纠纷", seed=added
    )
    rebuilt = library_index()
    assert rebuilt is not first and "zh-new-loan" in {case.id for case in rebuilt.cases}
    Case.objects.filter(pk="zh-new-loan").delete()
    assert "zh-new-loan" not in {case.id for case in library_index().cases}
