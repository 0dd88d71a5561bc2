"""A scorecard shows the rule-based scorer's reasons in the reader's language; the stored
reasons stay English (the export is data) and an LLM scorer's own words are shown as written."""

from __future__ import annotations

from django.utils import translation

from scoring.reasons import reason_shown
from scoring.selectors import capability_name

STORED = "covers 3 of 12 reference terms; cites 1 of 2 reference articles"


def test_a_chinese_reader_reads_the_reasons_in_chinese_with_the_numbers_kept():
    with translation.override("zh-hans"):
        shown = reason_shown(STORED, capability_name)
        alignment = reason_shown("verdict 6.7, entity 5.0, overall 4.9", capability_name)
        missing_name = reason_shown("does not name 'Liu Fang'", capability_name)
    assert shown == "涵盖参考答案 12 个要点词中的 3 个; 引用了参考答案 2 条法条中的 1 条"
    assert "6.7" in alignment and "verdict" not in alignment and "entity" not in alignment
    assert missing_name == "未写明 'Liu Fang'", "the name quoted is kept as it is"


def test_english_readers_and_an_llm_scorers_words_are_left_as_they_are():
    with translation.override("en"):
        assert reason_shown(STORED, capability_name) == STORED
    with translation.override("zh-hans"):
        assert reason_shown("The claims are well argued.", capability_name) == "The claims are well argued."


def test_the_appeal_slots_reasons_read_in_chinese():
    """LegalWorld Table 9's appellate-role and request slots (AD/AR)."""
    with translation.override("zh-hans"):
        named = reason_shown("names 刘芳 as appellee", capability_name)
        unnamed = reason_shown("does not name 黄军 as appellant", capability_name)
        requests = reason_shown("requests vary against affirm", capability_name)
    assert named == "写明刘芳为被上诉人" and unnamed == "未写明黄军为上诉人"
    assert requests == "请求改判；实际上诉请求为维持原判"
