"""``benchmarks/data/retrieval_real/extract.py`` on slices of the released files it reads."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from agents.tools.statutes import article_number

ROOT = Path(__file__).resolve().parents[4]
JUDGE = Path(__file__).parent / "judge_slice" / "test.json"


def _extract() -> ModuleType:
    """The script by its path: ``benchmarks/data/retrieval_real`` is not a package."""
    spec = importlib.util.spec_from_file_location(
        "extract", ROOT / "benchmarks" / "data" / "retrieval_real" / "extract.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _numbers(cited: list[str]) -> set[int]:
    extract = _extract()
    return {article_number(extract.ARTICLE.search(citation).group(1)) for citation in cited}


def test_judges_released_lines_are_read_as_released():
    rows = _extract().load(str(JUDGE))
    assert [row["text_id"] for row in rows] == [
        "ff08a56d-11a3-4369-b5c4-7b61d24842c5",
        "fad80e6e-048f-4e1f-b0bb-1dee2896635e",
        "fc90ce22-b77b-46cb-9720-7a82ef039c3e",
    ]


def test_the_prosecutions_account_is_the_query_and_never_the_courts_reasoning():
    extract = _extract()
    cases = {case["id"]: case for case in extract.criminal(extract.load(str(JUDGE)))}
    fraud = cases["judge-ff08a56d-11a3-4369-b5c4-7b61d24842c5"]
    assert fraud["procedure"] == "criminal"
    assert fraud["cause"] == "诈骗罪"
    assert fraud["facts"].startswith("2017年4月28日15时许，被告人张3为偿还债务伪造其妹妹“张2”的身份证")
    assert fraud["facts"].endswith("足以认定。")
    for case in cases.values():
        assert "本院认为" not in case["facts"]
        assert "判决如下" not in case["facts"]


def test_a_judgment_without_an_account_opening_is_read_from_the_facts_found():
    """The 容留他人吸毒 judgment has no 指控： line: its query opens at 经审理查明."""
    extract = _extract()
    cases = {case["id"]: case for case in extract.criminal(extract.load(str(JUDGE)))}
    drugs = cases["judge-fc90ce22-b77b-46cb-9720-7a82ef039c3e"]
    assert drugs["cause"] == "容留他人吸毒罪"
    assert drugs["facts"].startswith("经审理查明，2016年7月3日下午，被告人牟某甲")


def test_the_answer_is_the_criminal_law_articles_judge_itself_lists():
    extract = _extract()
    rows = extract.load(str(JUDGE))
    cases = {case["id"]: case for case in extract.criminal(rows)}
    assert len(cases) == len(rows)
    for row in rows:
        case = cases[f"judge-{row['text_id']}"]
        assert all(citation.startswith("《中华人民共和国刑法》第") for citation in case["cited"])
        assert _numbers(case["cited"]) == set(row["la"])
    assert cases["judge-ff08a56d-11a3-4369-b5c4-7b61d24842c5"]["cited"] == [
        "《中华人民共和国刑法》第二百六十六条",
        "《中华人民共和国刑法》第二十三条",
        "《中华人民共和国刑法》第六十七条",
    ]


CASEGEN = Path(__file__).parent / "casegen_slice"


def _casegen(extract: ModuleType) -> tuple[list[dict], list[dict]]:
    return (
        extract.load(str(CASEGEN / "eval" / "prompt" / "glm-4" / "judgement_eval_prompt.json")),
        extract.load(str(CASEGEN / "generate" / "prompt" / "judgement_generate_prompt.json")),
    )


def test_casegens_reference_judgment_yields_the_articles_it_rests_on():
    extract = _extract()
    judgments, _ = _casegen(extract)
    reference = judgments[2]["prompt"].split("[参考答案开始]")[1].split("[参考答案结束]")[0]
    cited = extract.citations(extract.operative_clause(reference))
    assert cited[:2] == ["《中华人民共和国合同法》第六十条", "《中华人民共和国合同法》第一百三十条"]
    assert "《中华人民共和国民事诉讼法》第六十四条" in cited


def test_a_casegen_judgment_citing_only_repealed_or_renumbered_laws_gives_no_case():
    """Ids 0-2 rest on the Contract Law (repealed by the Civil Code), judicial interpretations
    and the renumbered Civil Procedure Law: none has an answer the corpus can hold."""
    extract = _extract()
    judgments, facts = _casegen(extract)
    assert [row["id"] for row in judgments] == [row["id"] for row in facts] == [0, 1, 2]
    assert extract.civil(judgments, facts) == []
