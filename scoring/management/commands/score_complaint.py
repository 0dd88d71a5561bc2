from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from legalsim.llm import LLMError
from scoring.complaint import complaint_table
from scoring.complaint_file import complaints_score
from scoring.scorers import ScoringFailed
from scoring.services import scorer_build


class Command(BaseCommand):
    help = (
        "Score complaints against each case's reference complaint, field by field (MASER Appendix B.2: the "
        "plaintiff's and defendant's particulars, facts, reasons, claims, evidence, standardability, "
        "professionalism; each 0-1). Rules: docs/complaint-scoring.md."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--pred", type=Path, required=True, help='FILE.jsonl: one complaint a line, {"case_id", "complaint"}'
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object per scored complaint")
        parser.add_argument(
            "--scorer",
            choices=("rule-based", "llm"),
            default="rule-based",
            help="rule-based (offline, default) or llm (the judge model, LEGALSIM_MODEL_JUDGE on OPENAI_BASE_URL)",
        )

    def handle(self, *args, pred: Path, **options) -> None:
        if not pred.is_file():
            raise CommandError(f"no such file: {pred}")
        try:
            scored, problems = complaints_score(path=pred, scorer=scorer_build(options["scorer"]))
        except (LLMError, ScoringFailed) as error:
            raise CommandError(f"scoring stopped: {error}") from None
        if options["json"]:
            for row in scored:
                self.stdout.write(json.dumps(row, ensure_ascii=False))
        elif scored:
            self.stdout.write(complaint_table([(row["case_id"], row) for row in scored]))
        for problem in problems:
            self.stderr.write(f"not scored: {problem}")
        if problems:
            raise CommandError(
                f"{len({problem.line for problem in problems})} line(s) not scored; {len(scored)} scored"
            )
