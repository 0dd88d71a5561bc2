#!/usr/bin/env python
"""MASER's released civil cases played offline through the whole life cycle, and the offline
court's judgments checked as a lawyer reads them (issue "The offline court as a lawyer reads it",
item 6; docs/offline-court.md, "Measured on real cases").

    .venv/bin/python benchmarks/offline_court_maser.py PATH [--limit N]

PATH is MASER's released ``src/evaluation/evaluate_data/evaluate_data.json`` (or a copy of
the repository holding it), read unchanged by ``import_cases --format maser``. Each case is
played with every seat a scripted agent, the plaintiff's side the subject, LC to SIT, in a
throw-away SQLite database (unless DATABASE_URL is set). For every judgment pronounced it
prints how many have:

* an empty reasoning section (every claim must be answered);
* a whole dismissal of a claim the plaintiff stated and proved with an exhibit produced in the
  evidence phase while the defendant raised nothing against it;
* a payment order above what was claimed (the sums the claims ask for; a base that interest
  runs on is not a sum claimed).

MASER's cases hold the plaintiff's side only (no defence, no defendant's evidence), so the
undefended claim is the case the court meets most; the goal is 0 of each. The figures are
printed for all cases and for the held-out half (odd record ids): a rule is fixed on what the
even half shows, never on a judgment of the odd half.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RELEASED = Path("src/evaluation/evaluate_data/evaluate_data.json")


def released_file(path: Path) -> Path:
    return path / RELEASED if path.is_dir() else path


def main() -> None:
    parser = argparse.ArgumentParser(description="MASER's cases through the offline court's life cycle.")
    parser.add_argument("path", type=Path, help="evaluate_data.json, or the MASER repository holding it")
    parser.add_argument("--limit", type=int, default=0, help="play only the first N cases (0: all)")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="legalsim-maser-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from trials.models import Case

    call_command("migrate", verbosity=0)
    call_command("import_cases", "--format", "maser", str(released_file(args.path)), verbosity=0)
    cases = Case.objects.filter(id__startswith="maser-").order_by("imported_at", "pk")
    if args.limit:
        cases = cases[: args.limit]
    started = time.perf_counter()
    tally, examples = play_all(list(cases))
    report(tally, examples, time.perf_counter() - started)


def held_out(case_id: str) -> bool:
    """The held-out half: the odd record ids (``maser-N``)."""
    number = case_id.removeprefix("maser-")
    return number.isdigit() and int(number) % 2 == 1


def play_all(cases: list) -> tuple[Counter, dict[str, list[str]]]:
    """Each case played; every problem counted over all cases and, prefixed ``held-out``, over
    the odd half."""
    from trials.services import trial_simulate

    tally: Counter = Counter()
    examples: dict[str, list[str]] = {}
    for case in cases:
        trial = trial_simulate(case=case, target_side="plaintiff", backend="scripted")
        problems = judgment_problems(trial.engine_state)
        judgments = sum(1 for turn in trial.engine_state.turns if turn.act == "pronounce_judgment")
        tally[f"status {trial.status}"] += 1
        for prefix in ("", "held-out ") if held_out(case.pk) else ("",):
            tally.update({f"{prefix}cases": 1, f"{prefix}judgments": judgments})
            tally.update(prefix + problem for problem, _ in problems)
        for problem, stage in problems if not held_out(case.pk) else ():
            examples.setdefault(problem, []).append(f"{case.pk} {stage}")
    return tally, examples


def judgment_problems(state) -> list[tuple[str, str]]:
    """What a lawyer would object to in each judgment the trial's hearings pronounced."""
    from agents.scripted.civil_court import civil_decision
    from agents.scripted.context import Ctx
    from agents.scripted.record import civil_record
    from court.documents import document_sections
    from court.engine.machine import JUDGE_SEAT
    from court.engine.visibility import build_view

    found = []
    judgments = {artifact.stage: artifact for artifact in state.artifacts if artifact.kind.endswith("_judgment")}
    for turn in (turn for turn in state.turns if turn.act == "pronounce_judgment"):
        record = civil_record(Ctx(build_view(state, JUDGE_SEAT, stage=turn.stage, phase=turn.phase)))
        decision = civil_decision(record)
        artifact = judgments.get(turn.stage)
        if artifact is None or not document_sections(artifact.text, artifact.kind).get("reasoning", "").strip():
            found.append(("empty reasoning", turn.stage))
        for kind in sorted({ruling.kind for ruling in decision.rulings if _unanswered_loss(record, ruling)}):
            found.append((f"stated, proven, undefended claim dismissed ({kind})", turn.stage))
        if decision.total is not None and decision.total > claimed_ceiling(state.case) + 0.5:
            found.append(("order above the claim", turn.stage))
    return found


def _unanswered_loss(record, ruling) -> bool:
    claim = next((claim for claim in record.claims if claim.text == ruling.claim), None)
    produced = [item for item in record.exhibits if item.side == record.claimant and item.produced]
    defended = any(point.raised for point in record.defences)
    return bool(claim and claim.stated and produced and not defended and ruling.granted <= 0)


BASE = re.compile(r"以[^，,；;。为]{0,12}?\d[\d,.]*\s*万?元[^，,；;。为]{0,12}为(?:计算)?(?:基数|本金)")
TOTAL = re.compile(r"[，,]\s*(?:以上|上述)?(?:合计|共计|总计)\s*(?:人民币)?\s*\d[\d,.]*\s*万?元")


def claimed_ceiling(case: dict) -> float:
    """Every sum the first-instance claims name, added up, less the bases interest runs on and
    the totals that add up the others (or the largest total, when the claims name their sums
    only as totals): the most a court could order. Read from the claims'
    text by these two patterns alone, not by the court's own claim reader, so a misreading
    of the reader shows here."""
    from court.legaltext.text import amounts

    text = BASE.sub("", "\n".join((case.get("first_instance") or {}).get("claims") or []))
    text = re.sub(r"(?<=\d) (?=\d{3}(?!\d))", "", text)  # 110 000.00元 is one number
    totals = [max(amounts(found[0]) or {0.0}) for found in TOTAL.finditer(text)]
    named = sum(sum(amounts(part)) for part in re.split(r"[，、；;。\n]|,(?!\d)", TOTAL.sub("", text)))
    return max(named, *totals, 0.0)


def report(tally: Counter, examples: dict[str, list[str]], seconds: float) -> None:
    """The counts over all cases and over the held-out half, with examples from the even half
    only (what a rule may be fixed on)."""
    print(f"offline_court_maser: {tally['cases']} MASER cases, {tally['judgments']} judgments, {seconds:.0f} s")
    for key in sorted(key for key in tally if key.startswith("status ")):
        print(f"  trials {key[7:]:<12} {tally[key]}")
    print(f"  {'':<58} {'all':>5} {'odd':>5}   (held out: {tally['held-out cases']} cases, odd record ids)")
    dismissed = [f"stated, proven, undefended claim dismissed ({kind})" for kind in ("sum", "accrual", "declaration")]
    for problem in ("empty reasoning", *dismissed, "order above the claim"):
        shown = ", ".join(examples.get(problem, [])[:5])
        counts = f"{tally[problem]:>5} {tally['held-out ' + problem]:>5}"
        print(f"  {problem:<58} {counts}{'   e.g. (even) ' + shown if shown else ''}")


if __name__ == "__main__":
    main()
