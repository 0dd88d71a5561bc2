"""``import_cases --format maser``: MASER's released evaluation list becomes civil cases whose
plaintiff is a client with Big-5 traits, a legal-sense level and a withheld detail; a bad
record is refused with its line and field, and nothing of the file is stored."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from agents.scripted import ScriptedAgent
from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.engine.visibility import build_view
from court.procedures import procedure_for
from scoring.complaint import complaint_score, reference_complaint
from scoring.scorers import RuleBasedScorer
from trials.models import Case

pytestmark = pytest.mark.django_db

REFERENCE = "CANARY-REFERENCE-COMPLAINT 民事起诉状 原告张三……"


def maser_case(number: int, **changes) -> dict:
    record = {
        "id": number,
        "case_r_f": "2022年5月，被告李四向原告借款5万元，约定半年后归还。到期后被告未还款。原告多次催讨无果。",
        "plaintiff": "原告：张三，男，1985年3月2日出生，汉族，住北京市朝阳区。",
        "defendant": "被告：李四，男，1987年6月9日出生，汉族，住北京市海淀区。",
        "law_level": "Level 2. Has basic legal awareness",
        "personality": "外向性：低；情绪稳定性：高；开放性：中；宜人性：低；尽责性：高。说话简短。",
        "speak_style": {"tone": "冷淡", "content": "简短", "interaction": "被动回答"},
        "less": "借款时被告出具了借条",
        "evidence": {"plaintiff": ["借条", "微信聊天记录"]},
        "claim": "1. 判令被告归还借款5万元；2. 本案诉讼费由被告承担。",
        "law_reason": "民间借贷纠纷",
        "output": REFERENCE,
    }
    return record | changes


def write(tmp_path, records: list) -> str:
    path = tmp_path / "maser_eval.json"
    path.write_text(json.dumps(records, ensure_ascii=False, indent=2), encoding="utf-8")
    return str(path)


def test_a_maser_case_becomes_a_civil_case_with_its_client_traits(tmp_path):
    call_command("import_cases", "--format", "maser", write(tmp_path, [maser_case(7)]))
    case = Case.objects.get(pk="maser-7").seed
    assert case["cause_of_action"] == "民间借贷纠纷" and case["language"] == "zh"
    assert [party["name"] for party in case["parties"]] == ["张三", "李四"]
    assert case["first_instance"]["claims"] == ["判令被告归还借款5万元；", "本案诉讼费由被告承担。"]
    assert [item["name"] for item in case["first_instance"]["evidence"]] == ["借条", "微信聊天记录"]
    persona = case["personas"]["plaintiff"]
    assert persona["big5"] == {
        "extraversion": "low",
        "emotional_stability": "high",
        "openness": "medium",
        "agreeableness": "low",
        "conscientiousness": "high",
    }
    assert persona["legal_sense"] == 2 and "冷淡" in persona["speaking_style"]
    assert persona["withheld"] == [{"detail": "借款时被告出具了借条", "mode": "omit", "asked_by": ["借条"]}]
    assert case["extra"]["maser"]["output"] == REFERENCE


def test_the_reference_complaint_reaches_no_seat(tmp_path):
    call_command("import_cases", "--format", "maser", write(tmp_path, [maser_case(1)]))
    state = trial_start(case=Case.objects.get(pk="maser-1").seed, target_side="plaintiff", last_stage="FIT")
    trial_run(state, {seat: ScriptedAgent() for seat in procedure_for("civil").seats})
    assert state.finished
    for seat in procedure_for("civil").seats:
        assert "CANARY-REFERENCE" not in build_view(state, seat).as_json()
    assert not any("CANARY-REFERENCE" in turn.text for turn in state.turns)


def test_a_bad_record_is_refused_with_its_line_and_nothing_of_the_file_is_stored(tmp_path, capsys):
    path = write(tmp_path, [maser_case(1), maser_case(2, case_r_f="", law_level="很高"), maser_case(3)])
    with pytest.raises(CommandError, match="rejected 1 file"):
        call_command("import_cases", "--format", "maser", path)
    errors = capsys.readouterr().err
    second = next(n for n, line in enumerate(open(path, encoding="utf-8"), 1) if '"id": 2' in line) - 1
    assert f"{path}:{second}: case_r_f: is required and must be a non-empty string" in errors
    assert f"{path}:{second}: law_level: must name a legal-sense level from 1 to 5" in errors
    assert not Case.objects.exists()


OUTPUT = """民事起诉状
原告：张三，男，1985年3月2日出生，汉族，住北京市朝阳区。
被告：李四，男，1987年6月9日出生，汉族，住北京市海淀区。
诉讼请求：
判令被告归还借款5万元；
判令被告按年利率3.65%支付逾期利息；
本案诉讼费由被告承担。
事实与理由：
2022年5月，被告向原告借款5万元并出具借条，约定半年后归还。到期后被告未还款。
证据和证据来源：
借条一份
微信聊天记录
此致
北京市朝阳区人民法院
具状人：张三
"""


def test_the_reference_complaint_of_a_maser_case_is_its_released_output(tmp_path):
    call_command("import_cases", "--format", "maser", write(tmp_path, [maser_case(5, output=OUTPUT)]))
    case = Case.objects.get(pk="maser-5").seed
    reference = reference_complaint(case)
    assert "判令被告按年利率3.65%支付逾期利息；" in reference.claims, "the claim only the released complaint holds"
    scorer = RuleBasedScorer()
    itself = complaint_score(OUTPUT, reference, scorer)["fields"]
    without_interest = complaint_score(OUTPUT.replace("判令被告按年利率3.65%支付逾期利息；\n", ""), reference, scorer)
    assert itself["claims"] >= 0.95 > without_interest["fields"]["claims"]
