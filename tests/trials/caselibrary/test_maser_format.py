"""``import_cases --format maser``: MASER's released evaluation list becomes civil cases whose
plaintiff is a client with a legal-sense level, a speaking style and a withheld detail; a bad
record is refused with its line and field, and nothing of the file is stored.

MASER's data has no licence, so none of it is committed: the records here are written in the
exact shape of ``src/evaluation/evaluate_data/evaluate_data.json`` (integer ids, Appendix A's
level texts, ``身份：`` particulars, object claims and speaking styles, evidence keyed by side,
empty and ``None`` particulars, a complaint that names its claims by ``claim``'s keys), with
invented parties."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.engine.visibility import build_view
from court.procedures import procedure_for
from scoring.complaint import maser_output
from trials.caselibrary.maser_format import LEGAL_SENSE
from trials.models import Case

pytestmark = pytest.mark.django_db

OUTPUT = """                                                起诉状

            原告：张三，男，1985年3月2日，汉族，地址：西虹市苹果区。
            被告一：李四，女，1987年6月9日，汉族，地址：西虹市香蕉区。
            被告二：某某公司1，地址：西虹市西瓜区，负责人或法定代表人：None身份：被告3，王五，男，1990年1月1日，汉族。
            诉讼请求：
            1. 非诉讼费用内容。
            2. 诉讼费用内容。
            事实和理由：
            2022年5月，被告李四向原告借款5万元，某某公司1与王五提供担保，约定半年后归还。到期后被告未还款。原告多次催讨无果。
            证据和证据来源，证人姓名和住所：
            1. 借条
            2. 微信聊天记录"""


def maser_case(number: int, **changes) -> dict:
    """One record as MASER releases it."""
    record = {
        "id": number,
        "case_r_f": "2022年5月，被告李四向原告借款5万元，某某公司1与王五提供担保，约定半年后归还。到期后被告未还款。原告多次催讨无果。",
        "plaintiff_type": "personal",
        "plaintiff": "身份：原告，姓名：张三，性别：男，出生日期：1985年3月2日，民族：汉族，地址：西虹市苹果区，",
        "law_level": LEGAL_SENSE[1],
        "personality": "你是一个内向、情绪不稳定、开放、不太宜人、尽责的人。",
        "speak_style": {"tone": "语气冷淡。", "content": "回答简短。", "interaction": "很少主动提问。"},
        "less": "出生日期",
        "defendant": (
            "身份：被告1，姓名：李四，性别：女，出生日期：1987年6月9日，民族：汉族，地址：西虹市香蕉区，"
            "身份：被告2，公司名称：某某公司1，地址：西虹市西瓜区，负责人或法定代表人：None"
            "身份：被告3，姓名：王五，性别：男，出生日期：1990年1月1日，民族：汉族，地址：，"
        ),
        "evidence": {"原告": ["借条", "微信聊天记录"]},
        "claim": {
            "非诉讼费用内容": "判令被告李四归还借款5万元及利息；判令某某公司1、王五承担连带责任",
            "诉讼费用内容": "本案诉讼费由三被告承担",
        },
        "law_reason": "合同、准合同纠纷",
        "output": OUTPUT,
    }
    return record | changes


def write(tmp_path, records: list) -> str:
    path = tmp_path / "evaluate_data.json"
    path.write_text(json.dumps(records, ensure_ascii=False, indent=4), encoding="utf-8")
    return str(path)


def test_a_released_record_becomes_a_civil_case_with_its_client(tmp_path):
    call_command("import_cases", "--format", "maser", write(tmp_path, [maser_case(7)]))
    case = Case.objects.get(pk="maser-7").seed
    assert case["cause_of_action"] == "合同、准合同纠纷" and case["title"] == "张三诉李四等合同、准合同纠纷"
    parties = [(party["side"], party["name"], party["kind"], party["details"]) for party in case["parties"]]
    assert parties == [
        ("plaintiff", "张三", "person", "性别：男，出生日期：1985年3月2日，民族：汉族，地址：西虹市苹果区"),
        ("defendant", "李四", "person", "性别：女，出生日期：1987年6月9日，民族：汉族，地址：西虹市香蕉区"),
        ("defendant", "某某公司1", "organization", "地址：西虹市西瓜区"),
        ("defendant", "王五", "person", "性别：男，出生日期：1990年1月1日，民族：汉族"),
    ]
    assert case["first_instance"]["claims"] == [
        "判令被告李四归还借款5万元及利息；判令某某公司1、王五承担连带责任",
        "本案诉讼费由三被告承担",
    ], "the costs claim comes last"
    assert [(item["side"], item["name"]) for item in case["first_instance"]["evidence"]] == [
        ("plaintiff", "借条"),
        ("plaintiff", "微信聊天记录"),
    ]
    persona = case["personas"]["plaintiff"]
    assert persona["legal_sense"] == 2
    assert persona["speaking_style"] == "语气冷淡。\n回答简短。\n很少主动提问。"
    assert persona["withheld"][0]["detail"] == "出生日期"
    assert case["extra"]["maser"]["output"] == OUTPUT and case["extra"]["maser"]["claim"] == maser_case(7)["claim"]


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_each_of_appendix_a_level_texts_is_its_level(tmp_path, level):
    text = LEGAL_SENSE[level - 1] + (" " if level == 1 else "")
    call_command("import_cases", "--format", "maser", write(tmp_path, [maser_case(level, law_level=text)]))
    assert Case.objects.get(pk=f"maser-{level}").seed["personas"]["plaintiff"]["legal_sense"] == level


def test_a_bad_record_is_refused_with_its_line_and_nothing_of_the_file_is_stored(tmp_path, capsys):
    unknown = "略懂法律"
    path = write(tmp_path, [maser_case(1), maser_case(2, case_r_f="", law_level=unknown), maser_case(3)])
    with pytest.raises(CommandError, match="rejected 1 file"):
        call_command("import_cases", "--format", "maser", path)
    errors = capsys.readouterr().err
    second = next(n for n, line in enumerate(open(path, encoding="utf-8"), 1) if '"id": 2' in line) - 1
    assert f"{path}:{second}: case_r_f: is required and must be a non-empty string" in errors
    level_error = next(line for line in errors.splitlines() if f"{path}:{second}: law_level: " in line)
    assert all(f"{n}: {text}" in level_error for n, text in enumerate(LEGAL_SENSE, 1)), "names the five"
    assert not Case.objects.exists()


def test_a_particulars_entry_without_a_name_is_refused(tmp_path, capsys):
    nameless = "身份：原告，性别：男，地址：西虹市苹果区，"
    with pytest.raises(CommandError):
        call_command("import_cases", "--format", "maser", write(tmp_path, [maser_case(1, plaintiff=nameless)]))
    assert "plaintiff: entry 1 (身份：原告) gives no 姓名 or 公司名称" in capsys.readouterr().err


def test_the_reference_complaint_reaches_no_seat(tmp_path):
    canary = OUTPUT.replace("起诉状", "CANARY-REFERENCE")
    call_command("import_cases", "--format", "maser", write(tmp_path, [maser_case(1, output=canary)]))
    state = trial_start(case=Case.objects.get(pk="maser-1").seed, target_side="plaintiff", last_stage="FIT")
    trial_run(state, {seat: ScriptedAgent() for seat in procedure_for("civil").seats})
    assert state.finished
    for seat in procedure_for("civil").seats:
        assert "CANARY-REFERENCE" not in build_view(state, seat).as_json()
    assert not any("CANARY-REFERENCE" in turn.text for turn in state.turns)


def score(tmp_path, capsys, complaints: list[str]) -> list[dict]:
    """``score_complaint --json`` on each complaint for case maser-5 (a case once a file)."""
    pred = tmp_path / "pred.jsonl"
    scored = []
    for text in complaints:
        pred.write_text(json.dumps({"case_id": "maser-5", "complaint": text}, ensure_ascii=False), encoding="utf-8")
        call_command("score_complaint", "--pred", str(pred), "--json")
        out, err = capsys.readouterr()
        assert not err, err
        scored.append(json.loads(out))
    return scored


def test_the_released_complaint_scores_at_the_top_and_an_empty_one_zero(tmp_path, capsys):
    record = maser_case(5)
    call_command("import_cases", "--format", "maser", write(tmp_path, [record]))
    capsys.readouterr()
    written_out = maser_output(OUTPUT, record["claim"])
    assert "1. 判令被告李四归还借款5万元及利息；判令某某公司1、王五承担连带责任" in written_out
    reference, placeholders, empty = score(tmp_path, capsys, [written_out, OUTPUT, ""])
    fields = reference["fields"]
    assert min(fields["plaintiff_info"], fields["defendant_info"], fields["claims"]) >= 0.95
    assert placeholders["fields"]["claims"] < 0.5, "the claims' keys are not the claims"
    assert set(empty["fields"].values()) == {0}
