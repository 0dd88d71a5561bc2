"""Every stage, phase and act a procedure has is named in both languages a case may be in."""

from __future__ import annotations

import pytest

from trials.procedures import procedure_for
from trials.procedures.names import ACTS, PHASES, STAGES, act_name, phase_name, stage_name


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
