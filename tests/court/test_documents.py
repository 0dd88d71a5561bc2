"""Document templates: one definition for prompts, the exporter and the room's editor."""

from __future__ import annotations

from court.documents import DOCUMENTS, document_compose, document_missing, document_sections, document_without
from scoring.complaint_text import SECTIONS, complaint_read, in_template_order


def test_sections_compose_in_order_under_localised_headings():
    text = document_compose("appeal", "zh", {"grounds": "认定事实错误", "appellant": "王某", "unknown": "x"})
    assert text == "民事上诉状\n\n上诉人\n王某\n\n上诉理由\n认定事实错误"
    assert document_missing("appeal", {"grounds": "x", "appellant": "y"}) == [
        "appellee",
        "appeal_requests",
        "new_evidence",
    ]


def test_the_prompt_listing_is_the_documents_sections():
    assert DOCUMENTS["complaint"].listing("zh") == "当事人、诉讼请求、事实与理由、证据和证据来源、此致、具状人"
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


COMPLAINT = {
    "parties": "原告：陈某某，男，1979年出生\n被告：周某某，男，1985年出生",
    "claims": "1. 判令被告归还借款20万元",
    "facts_and_reasons": "2023年3月1日原告向被告出借20万元，被告到期未还。",
    "evidence": "1. 借条，证明双方存在借贷合意\n2. 转账凭证，证明原告已交付借款",
    "court": "江苏省南京市鼓楼区人民法院",
    "signature": "陈某某\n2024年3月1日",
}


def test_a_complaint_written_in_the_editor_reads_as_every_section_of_the_complaint_template():
    """MASER's standardability: a complaint whose every field is filled in the room's editor
    has the template's seven sections in order (the parties' section names each side)."""
    english = COMPLAINT | {"parties": "Plaintiff: Chen, male, born 1979\nDefendant: Zhou, male, born 1985"}
    for language, sections in (("zh", COMPLAINT), ("en", english)):
        text = document_compose("complaint", language, sections)
        order = complaint_read(text, language).order
        assert in_template_order(order) == len(SECTIONS), (language, order)
    assert document_compose("complaint", "zh", COMPLAINT).endswith(
        "此致\n江苏省南京市鼓楼区人民法院\n\n具状人\n陈某某\n2024年3月1日"
    )


def test_a_reader_who_may_not_see_the_evidence_reads_the_complaint_without_its_list():
    text = document_compose("complaint", "zh", COMPLAINT)
    hidden = document_without("complaint", text, {"evidence"}, "zh")
    assert "借条" not in hidden and "转账凭证" not in hidden
    assert "证据和证据来源\n（证据于庭审举证质证时出示。）" in hidden
    assert document_sections(hidden, "complaint") | {"evidence": COMPLAINT["evidence"]} == document_sections(
        text, "complaint"
    )
    inline = "Evidence: IOU, to prove the loan\nBank record\n\nTo: the court"
    assert document_without("complaint", inline, {"evidence"}, "en") == (
        "Evidence\n(Presented at the evidence phase of the hearing.)\n\nTo: the court"
    )
    assert document_without("complaint", text, {"facts"}, "zh") == text, "no section holds the facts"
    assert document_without("defence", text, {"evidence"}, "zh") == text, "the defence lists no evidence"
