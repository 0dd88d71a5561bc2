"""Document templates: one definition for prompts, the exporter and the room's editor."""

from __future__ import annotations

from trials.documents import DOCUMENTS, document_compose, document_missing, document_sections


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


def test_sections_are_read_from_headings_in_either_language_and_inline():
    text = "民事判决书\n\n当事人：原告王某\n本院认为，借贷关系成立。\n**Orders**\n1. 驳回原告的诉讼请求。\n法律依据\n"
    assert document_sections(text, "first_instance_judgment") == {
        "parties": "原告王某",
        "reasoning": "借贷关系成立。",
        "orders": "1. 驳回原告的诉讼请求。",
    }


def test_a_judgments_orders_are_found_under_the_customary_judgment_is_as_follows():
    text = "本院认为：借贷关系成立。\n\n判决如下：\n一、被告归还借款120000元；\n二、驳回原告的其他诉讼请求。"
    assert document_sections(text, "first_instance_judgment")["orders"] == (
        "一、被告归还借款120000元；\n二、驳回原告的其他诉讼请求。"
    )
    english = "Reasoning\nThe loan is proved.\n\nThe court orders:\n1. The appeal is dismissed"
    assert document_sections(english, "second_instance_judgment") == {
        "reasoning": "The loan is proved.",
        "orders": "1. The appeal is dismissed",
    }
