"""The demo lending case, imported: the case of the LLM-path trial tests."""

from __future__ import annotations

import pytest

from tests.conftest import DEMO_CASES
from trials.models import Case
from trials.services import cases_import


@pytest.fixture
def lending_case():
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    return Case.objects.get()
