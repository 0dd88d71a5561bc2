"""Document templates: one definition for prompts, the exporter and the room's editor."""

from __future__ import annotations

from trials.documents import DOCUMENTS, document_compose, document_missing


def test_sections_compose_in_order_under_localised_headings():
    text = document_compose("appeal", "zh", {"grounds": "认定事实错误", "appellant": "王某", "unknown": "x"})
    assert text == "民事上诉状\n\n上诉人\n王某\n\n上诉理由\n认定事实错误"
    assert document_missing("appeal", {"grounds": "x", "appellant": "y"}) == [
        "appellee",
        "appeal_requests",
        "new_evidence",
    ]


def test_the_prompt_listing_is_the_documents_sections():
    assert DOCUMENTS["complaint"].listing("zh") == "当事人、诉讼请求、事实与理由、此致法院"
    assert DOCUMENTS["criminal_judgment"].listing("en").endswith("orders (offence and sentence)")
