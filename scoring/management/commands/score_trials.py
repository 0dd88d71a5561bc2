from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from legalsim.llm import LLMError
from scoring.complaint import complaint_table
from scoring.models import TrialScore
from scoring.prediction import Sentence, case_statutory_range, ljp_metrics, sentence_from_case
from scoring.report import capabilities_mean, table2, table3
from scoring.scorers import ScoringFailed
from scoring.services import export_csv, export_json, scorer_build, trial_score
from trials.models import Trial


class Command(BaseCommand):
    help = (
        "Score finished trials (LongJud-Bench capabilities, judgment alignment, interaction quality, "
        "criminal prediction, MASER's complaint fields), store the scores and export them as JSON or CSV; prints "
        "Tables 2 and 3 and the complaint fields."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("trial_ids", nargs="*", type=int)
        parser.add_argument("--all", action="store_true", help="every finished trial")
        parser.add_argument("--out", required=True, help="FILE.json or FILE.csv")
        parser.add_argument("--scorer", choices=("rule-based", "llm"), default="rule-based")
        parser.add_argument(
            "--strategy-ablation",
            action="store_true",
            help="compare the criminal trials run with and without SimCourt's Strategy module (SimCourt Table 2)",
        )

    def handle(self, *args, trial_ids: list[int], **options) -> None:
        out = Path(options["out"])
        if out.suffix not in (".json", ".csv"):
            raise CommandError(f"--out must end in .json or .csv, not {out.name!r}")
        trials = self._trials(trial_ids, options["all"])
        try:
            scorer = scorer_build(options["scorer"])
            scores = [trial_score(trial=trial, scorer=scorer) for trial in trials]
        except (LLMError, ScoringFailed) as error:
            raise CommandError(f"scoring stopped: {error}") from None
        (export_json if out.suffix == ".json" else export_csv)(scores, out)
        results = [score.result for score in scores]
        by_model = defaultdict(list)
        for score in scores:
            if score.overall is not None:
                by_model[score.target_model].append(score.result)
        self.stdout.write(f"Scored {len(scores)} trial(s) with {scorer.label}; wrote {out}\n")
        self.stdout.write("Table 2: judicial output alignment (0-10)\n" + table2(results) + "\n")
        self.stdout.write("Table 3: capability profile of the target lawyer ([0,1], first / second)\n")
        profile = {
            model: capabilities_mean([result["capabilities"] for result in rows]) for model, rows in by_model.items()
        }
        self.stdout.write(table3(profile) + "\n")
        complaints = [
            (f"trial {result['trial_id']}", result["complaint"]) for result in results if result.get("complaint")
        ]
        if complaints:
            self.stdout.write("Complaint (MASER B.2), per field in [0,1]\n" + complaint_table(complaints) + "\n")
        if options["strategy_ablation"]:
            self.stdout.write("Strategy ablation (SimCourt, Table 2 layout)\n" + strategy_ablation(scores) + "\n")

    @staticmethod
    def _trials(trial_ids: list[int], every: bool) -> list[Trial]:
        if every == bool(trial_ids):
            raise CommandError("name trial ids or pass --all (not both)")
        trials = Trial.objects.select_related("case").order_by("pk")
        if every:
            return list(trials.filter(status=Trial.Status.FINISHED))
        found = {trial.pk: trial for trial in trials.filter(pk__in=trial_ids)}
        unknown = [str(pk) for pk in trial_ids if pk not in found]
        if unknown:
            raise CommandError(f"no trial {', '.join(unknown)}")
        unfinished = [str(pk) for pk, trial in found.items() if trial.status != Trial.Status.FINISHED]
        if unfinished:
            raise CommandError(f"trial {', '.join(unfinished)} has not finished; only finished trials are scored")
        return [found[pk] for pk in trial_ids]


ABLATION_ROWS = (("SimCourt", True), ("w/o Strategy", False))


def strategy_ablation(scores: list[TrialScore]) -> str:
    """SimCourt's Table 2 for the Strategy module: the judgment-prediction metrics of the
    scored criminal trials run with it and of those run without (``--no-strategy``), a row
    each; relative error with its standard deviation, hit rate and accuracies."""
    groups: dict[bool, list] = {True: [], False: []}
    for score in scores:
        prediction = score.result.get("prediction")
        if score.trial.procedure != "criminal" or not prediction:
            continue
        seed = score.trial.case.seed
        predicted = Sentence(**{key: value for key, value in prediction.items() if key != "judgment"})
        record = (predicted, sentence_from_case(seed), list(seed.get("charges") or []), case_statutory_range(seed))
        groups[score.trial.engine_state.strategy_module].append(record)
    lines = [
        f"{'Method':<14}{'n':>4}{'Imprisonment RE':>18}{'Hit':>7}{'Probation RE':>18}{'Acc':>7}"
        f"{'Fine RE':>18}{'Acc':>7}"
    ]
    for label, strategy in ABLATION_ROWS:
        metrics = ljp_metrics(groups[strategy])
        cells = [
            (_error(metrics[aspect]), _rate(metrics[aspect].get("hit_rate", metrics[aspect].get("accuracy"))))
            for aspect in ("imprisonment", "probation", "fine")
        ]
        lines.append(f"{label:<14}{metrics['n_cases']:>4}" + "".join(f"{error:>18}{rate:>7}" for error, rate in cells))
    return "\n".join(lines)


def _error(aspect: dict) -> str:
    mean, sd = aspect["relative_error_mean"], aspect["relative_error_sd"]
    return "–" if mean is None else f"{mean:.3f}±{sd:.3f}"


def _rate(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"
