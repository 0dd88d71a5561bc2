"""``import_cases --format simcourt``: SimCourt's released per-case files become case-format
cases, the real outcome evaluation-only, every bad file refused whole with its problems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.procedures import procedure_for
from tests.court.engine.test_visibility import ViewAuditor
from trials.models import Case

pytestmark = pytest.mark.django_db

STATEMENT = (
    "某某区人民检察院  \n起 诉 书  \n\n被告人李某甲，男，1985年6月14日出生。  \n\n本案由某某公安分局侦查终结，以被告人李某甲涉嫌危险驾驶罪，"
    "于2017年2月23日向本院移送起诉。……建议判处被告人李某甲拘役三个月，并处罚金人民币二千元。  \n\n此致  \n某某区人民法院  \n"
)
RESULT = (
    "被告人李某甲归案后能如实供述其犯罪事实。综上，依照《中华人民共和国刑法》第一百三十三条之一第一款、第六十七条第三款之规定，"
    "判决如下：被告人李某甲犯危险驾驶罪，判处拘役三个月，并处罚金人民币二千元。CANARY-RESULT"
)


def simcourt_case(**changes) -> dict:
    """A SimCourt ``data_anonymized.json`` in the released layout (the values shortened)."""
    return {
        "defendant_information": "被告人李某甲，男，1985年6月14日出生于河南省郑州市，汉族。曾因犯寻衅滋事罪，于2007年1月11日被判处有期徒刑一年。",
        "prosecution_statement": STATEMENT,
        "evidence": [
            [
                "1.被告人在侦查阶段的供述：（1）案件经过。我酒后驾驶轿车追尾。",
                "2.书证：户籍证明，证实被告人李某甲的身份信息",
                "",
            ],
            ["1.谅解书一份，证明被害人对被告人表示谅解"],
        ],
        "term": 3.0,
        "fine": 2000.0,
        "reprieve": 0.0,
        "charge": ["危险驾驶罪"],
        "result": RESULT,
        "prosecution_statement_sub": STATEMENT.replace("拘役三个月", "拘役XX"),
        "fact": "（1）案件经过。我酒后驾驶轿车追尾。CANARY-FACT",
    } | changes


def write_release(root: Path, cases: dict[str, dict | str]) -> Path:
    for number, case in cases.items():
        folder = root / "data_LJP" / number
        folder.mkdir(parents=True)
        text = case if isinstance(case, str) else json.dumps(case, ensure_ascii=False, indent=2)
        (folder / "data_anonymized.json").write_text(text, encoding="utf-8")
    return root / "data_LJP"


def test_a_simcourt_case_maps_onto_the_case_format(tmp_path):
    call_command("import_cases", "--format", "simcourt", str(write_release(tmp_path, {"0": simcourt_case()})))
    case = Case.objects.get(pk="simcourt-0")
    seed = case.seed
    assert (case.procedure, case.language, case.cause_of_action) == ("criminal", "zh", "危险驾驶罪")
    assert case.title == "某某区人民检察院诉李某甲危险驾驶案"
    assert [(party["side"], party["name"]) for party in seed["parties"]] == [
        ("prosecution", "某某区人民检察院"),
        ("defendant", "李某甲"),
    ]
    assert seed["metadata"] == {"court_name": "某某区人民法院"}
    assert seed["indictment"] == STATEMENT.strip() and seed["charges"] == ["危险驾驶罪"]
    assert seed["evidence"] == [
        {"side": "prosecution", "name": "被告人在侦查阶段的供述", "purpose": "（1）案件经过。我酒后驾驶轿车追尾。"},
        {"side": "prosecution", "name": "书证：户籍证明", "purpose": "证实被告人李某甲的身份信息"},
        {"side": "defendant", "name": "谅解书一份", "purpose": "证明被害人对被告人表示谅解"},
    ]
    # term 3.0 read as 拘役 from the judgment; whole months; reprieve 0 = no probation
    assert seed["sentence"] == {
        "penalty": "criminal_detention",
        "imprisonment_months": 3,
        "probation": False,
        "fine": 2000,
    }
    assert seed["sentencing_recommendation"] == {
        "penalty": "criminal_detention",
        "imprisonment_months": 3,
        "probation": False,
        "fine": 2000.0,
    }
    assert seed["court_findings"] == RESULT
    assert seed["legal_references"] == [
        "《中华人民共和国刑法》第一百三十三条之一第一款",
        "《中华人民共和国刑法》第六十七条第三款",
    ]
    assert seed["extra"]["simcourt"]["fact"].endswith("CANARY-FACT")
    assert seed["extra"]["simcourt"]["term"] == 3.0 and "prosecution_statement_sub" in seed["extra"]["simcourt"]
    assert seed["provenance"]["real_outcome"] is True


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"term": "无期徒刑", "charge": ["故意杀人罪"]}, {"penalty": "life_imprisonment", "imprisonment_months": None}),
        ({"term": "死刑缓期二年执行"}, {"penalty": "death_suspended", "imprisonment_months": None}),
        ({"term": "死刑，缓期二年执行"}, {"penalty": "death_suspended", "imprisonment_months": None}),
        ({"term": "死刑"}, {"penalty": "death", "imprisonment_months": None}),
        (
            {"term": 24.0, "reprieve": 36.0, "result": "判决如下：被告人李某甲犯盗窃罪，判处有期徒刑二年，缓刑三年。"},
            {"penalty": "fixed_term", "imprisonment_months": 24, "probation": 36},
        ),
        (
            {"term": 0.0, "fine": 0.0, "charge": [""], "result": "判决如下：被告人李某甲无罪。"},
            {"penalty": "acquitted", "imprisonment_months": 0, "fine": 0},
        ),
        (
            {"term": 0.0, "result": "判决如下：被告人李某甲犯盗窃罪，免予刑事处罚。"},
            {"penalty": "exempt", "imprisonment_months": 0},
        ),
        ({"term": 1.5}, {"penalty": "criminal_detention", "imprisonment_months": 2}),  # 1.5 stays in extra
    ],
)
def test_every_kind_of_term_is_read(tmp_path, changes: dict, sentence: dict):
    call_command("import_cases", "--format", "simcourt", str(write_release(tmp_path, {"7": simcourt_case(**changes)})))
    seed = Case.objects.get(pk="simcourt-7").seed
    assert seed["sentence"].items() >= sentence.items()


def test_an_empty_charge_list_takes_the_cause_from_the_indictment(tmp_path):
    call_command(
        "import_cases", "--format", "simcourt", str(write_release(tmp_path, {"3": simcourt_case(charge=[""])}))
    )
    case = Case.objects.get(pk="simcourt-3")
    assert case.cause_of_action == "危险驾驶罪" and case.seed["charges"] == []


def test_the_real_outcome_and_the_defendants_own_account_reach_no_seat(tmp_path):
    call_command("import_cases", "--format", "simcourt", str(write_release(tmp_path, {"0": simcourt_case()})))
    state = trial_start(case=Case.objects.get(pk="simcourt-0").seed, target_side="defendant")
    auditor = ViewAuditor(state, {"eval:result": "CANARY-RESULT", "eval:fact": "CANARY-FACT"})
    trial_run(state, {seat: auditor for seat in procedure_for("criminal").seats})
    assert state.finished and auditor.checked > 20
    assert not any("CANARY" in turn.text for turn in state.turns)


def test_every_bad_file_is_refused_whole_with_its_fields_and_the_good_ones_are_stored(tmp_path, capsys):
    release = write_release(
        tmp_path,
        {
            "2": simcourt_case(),
            "10": simcourt_case(term="三年", evidence=[["证据"]], fine="很多"),
            "11": {key: value for key, value in simcourt_case().items() if key != "defendant_information"},
            "12": "{not json",
        },
    )
    with pytest.raises(CommandError, match="rejected 3 file"):
        call_command("import_cases", "--format", "simcourt", str(release))
    errors = capsys.readouterr().err
    bad = release / "10" / "data_anonymized.json"
    lines = bad.read_text(encoding="utf-8").splitlines()
    line_of = {
        key: next(n for n, line in enumerate(lines, 1) if line.startswith(f'  "{key}"'))
        for key in ("term", "evidence", "fine")
    }
    assert (
        f"{bad}:{line_of['term']}: term: must be months (a number >= 0) or 无期徒刑, 死刑缓期二年执行 or 死刑, got '三年'"
        in errors
    )
    assert f"{bad}:{line_of['evidence']}: evidence: must be [prosecution items, defence items]" in errors
    assert f"{bad}:{line_of['fine']}: fine: must be an amount >= 0, got '很多'" in errors
    assert f"{release / '11' / 'data_anonymized.json'}:1: defendant_information: is required" in errors
    assert f"{release / '12' / 'data_anonymized.json'}:1: json: invalid JSON" in errors
    assert list(Case.objects.values_list("pk", flat=True)) == ["simcourt-2"]


def test_a_folder_without_simcourt_files_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(CommandError, match=r"no data_anonymized\.json under"):
        call_command("import_cases", "--format", "simcourt", str(tmp_path / "empty"))
