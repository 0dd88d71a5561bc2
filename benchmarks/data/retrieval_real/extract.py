#!/usr/bin/env python
"""Rebuild ``criminal.jsonl`` and ``civil.jsonl`` from the released data sets (README.md
says which, at which commit, under which licence). Not run by the benchmark: the files it
writes are committed. Needs the two repositories' files on disk:

    python benchmarks/data/retrieval_real/extract.py JUDGE_TEST_JSON CASEGEN_JUDGEMENT_EVAL_JSON \
        CASEGEN_JUDGEMENT_GENERATE_JSON

(JuDGE ``data/test.json``; CaseGen ``eval/prompt/glm-4/judgement_eval_prompt.json`` for the
judgment's operative part and ``generate/prompt/judgement_generate_prompt.json`` for the
facts.) Only what a party knows before judgment is kept as the query: the charge and the
prosecution's account (up to the court's own reasoning, 本院认为) for a criminal case, the
facts for a civil one; the cited articles are parsed from the judgment's 依照……之规定 clause.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CRIMINAL_SAMPLE = 240
NUMERAL = "一二三四五六七八九十百千零〇0-9"
CITED_LAW = re.compile(
    r"《([^》]+)》((?:[，,、及和]?第["
    + NUMERAL
    + r"]+条(?:之[一二三四五六七八九十]+)?(?:第["
    + NUMERAL
    + r"]+[款项])*)+)"
)
ARTICLE = re.compile(r"第([" + NUMERAL + r"]+)条(之[一二三四五六七八九十]+)?")
ACCOUNT = re.compile(r"指控[：:，,]")
"""Where the prosecution's account opens (公诉机关指控：); the header's 起诉书指控被告人 is not it."""
CRIMINAL_LAW = "中华人民共和国刑法"
"""The criminal set counts the Criminal Law's articles only: its amendments since these
judgments added articles (之一) without renumbering; the Criminal Procedure Law was
renumbered in 2018 and judicial interpretations are not in the corpus."""
CHARGE = re.compile(r"指控被告(?:人|单位)?[^，。；]{0,40}?犯([^，。；]*?罪)")
STABLE_CIVIL_LAWS = ("道路交通安全法", "劳动合同法", "劳动法", "保险法", "劳动争议调解仲裁法", "企业破产法")
"""Laws still in force whose article numbers the revisions since these judgments kept (the
Civil Procedure Law, Company Law and others were renumbered; the Contract Law, Tort Law and
other laws the Civil Code replaced are not in the corpus)."""


def load(path: str) -> list[dict]:
    raw = Path(path).read_text(encoding="utf-8")
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return [json.loads(line) for line in raw.splitlines() if line.strip()]


def key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def citations(clause: str) -> list[str]:
    """《law》第N条 for every article the clause cites (a list after one law name counts for it)."""
    found = []
    for law, articles in CITED_LAW.findall(clause):
        for number, suffix in ARTICLE.findall(articles):
            citation = f"《{law}》第{number}条{suffix}"
            if citation not in found:
                found.append(citation)
    return found


def operative_clause(text: str) -> str:
    """The 依照……判决如下 clause: the articles the judgment rests on."""
    end = text.find("判决如下")
    start = text.rfind("依照", 0, end) if end != -1 else -1
    return text[start:end] if start != -1 else ""


def criminal(rows: list[dict]) -> list[dict]:
    cases = []
    for row in rows:
        full = row["fd"]
        reasoning = full.find("本院认为")
        accused = full.find("指控")
        charges = CHARGE.findall(full[: accused + 60]) if accused != -1 else []
        if reasoning == -1 or accused == -1 or not charges:
            continue
        cited = citations(operative_clause(full))
        if not cited:
            continue
        opening = ACCOUNT.search(full, 0, reasoning)
        start = opening.end() if opening else full.find("审理终结。") + len("审理终结。")
        account = full[start:reasoning].strip()
        counted = [c for c in cited if c.startswith(f"《{CRIMINAL_LAW}》")]
        if not counted or start >= reasoning:
            continue
        cases.append(
            {
                "id": f"judge-{row['text_id']}",
                "procedure": "criminal",
                "cause": "、".join(dict.fromkeys(part.strip() for part in re.split("[、，和及]", charges[0]) if part)),
                "facts": account,
                "cited": counted,
                "cited_elsewhere": len(cited) - len(counted),
            }
        )
    cases.sort(key=lambda case: key(case["id"]))
    return cases[:CRIMINAL_SAMPLE]


def civil(judgments: list[dict], facts_rows: list[dict]) -> list[dict]:
    facts_of = {row["id"]: row["prompt"] for row in facts_rows}
    cases = []
    for row in judgments:
        reference = row["prompt"].split("[参考答案开始]")[1].split("[参考答案结束]")[0]
        cited = citations(operative_clause(reference))
        stable = [c for c in cited if any(f"中华人民共和国{law}》" in c for law in STABLE_CIVIL_LAWS)]
        prompt = facts_of.get(row["id"], "")
        facts = prompt.split("[审理事实]")[1].split("[判决说理]")[0].strip() if "[审理事实]" in prompt else ""
        if not stable or not facts:
            continue
        cases.append(
            {
                "id": f"casegen-{row['id']}",
                "procedure": "civil",
                "cause": "",
                "facts": facts,
                "cited": stable,
                "cited_elsewhere": len(cited) - len(stable),
            }
        )
    return cases


def main() -> None:
    judge, casegen_eval, casegen_generate = sys.argv[1:4]
    for name, cases in (
        ("criminal.jsonl", criminal(load(judge))),
        ("civil.jsonl", civil(load(casegen_eval), load(casegen_generate))),
    ):
        with open(HERE / name, "w", encoding="utf-8") as out:
            for case in cases:
                out.write(json.dumps(case, ensure_ascii=False) + "\n")
        print(name, len(cases))


if __name__ == "__main__":
    main()
