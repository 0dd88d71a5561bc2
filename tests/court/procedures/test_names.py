"""Every stage, phase and act a procedure has is named in both languages a case may be in."""

from __future__ import annotations

import pytest

from court.procedures import procedure_for
from court.procedures.names import ACTS, PHASES, STAGES, act_name, phase_name, sentence_words, stage_name


@pytest.mark.parametrize("procedure", ["civil", "criminal"])
def test_every_id_of_a_procedure_has_an_english_and_a_chinese_name(procedure):
    stages = procedure_for(procedure).stages
    phases = {phase.id for stage in stages for phase in stage.phases}
    acts = {slot.act for stage in stages for phase in stage.phases for slot in phase.slots}
    assert {stage.id for stage in stages} <= set(STAGES)
    assert phases <= set(PHASES), phases - set(PHASES)
    assert acts <= set(ACTS), acts - set(ACTS)


def test_names_follow_the_cases_language():
    assert stage_name("LC", "zh") == "法律咨询" and stage_name("LC", "en") == "Legal consultation"
    assert act_name("state_claims", "en") == "State your claims" and act_name("state_claims", "zh") == "陈述诉讼请求"
    assert phase_name("mediation", "zh") == "调解"


@pytest.mark.parametrize(
    ("sentence", "zh", "en"),
    [
        (
            {"imprisonment_months": 10, "probation": 12, "fine": 5000.0},
            "有期徒刑10个月，缓刑12个月，罚金人民币5000元",
            "10 months' imprisonment; suspended for 12 months; a fine of RMB 5,000",
        ),
        ({"penalty": "criminal_detention", "imprisonment_months": 3.0}, "拘役3个月", "3 months' criminal detention"),
        ({"penalty": "life_imprisonment", "imprisonment_months": None}, "无期徒刑", "life imprisonment"),
        (
            {"penalty": "death_suspended", "imprisonment_months": None},
            "死刑缓期二年执行",
            "death with a two-year reprieve",
        ),
        ({"penalty": "acquitted", "imprisonment_months": 0}, "无罪", "acquitted"),
        (
            {"imprisonment_months": 6, "probation": True},
            "有期徒刑6个月，缓刑",
            "6 months' imprisonment; suspended (probation)",
        ),
    ],
)
def test_a_sentence_reads_as_a_court_writes_it_whatever_its_penalty(sentence, zh, en):
    """docs/case-format.md's ``sentence.penalty`` kinds (issue #20 item 2) on the case page
    and in the debrief: no "None months", no 拘役 shown as 有期徒刑."""
    assert sentence_words(sentence, "zh") == zh
    assert sentence_words(sentence, "en") == en
