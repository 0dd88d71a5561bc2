"""Writes for the trials app: importing cases and running trials through the engine."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from trials.agents.base import Participant
from trials.agents.scripted import ScriptedAgent
from trials.case_file import Problem, read_records, validate_record
from trials.engine.machine import trial_start
from trials.engine.runner import trial_run
from trials.engine.state import TrialState
from trials.models import Artifact, Case, MemoryOperation, Seat, Trial, Turn
from trials.procedures import procedure_for


@dataclass
class ImportReport:
    imported: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rejected_files: list[str] = field(default_factory=list)


def cases_import(*, paths: Iterable[Path]) -> ImportReport:
    """Import case files, each atomically: a file with any bad record stores nothing.

    A case id already in the library is replaced; the same id twice in one run is an error.
    """
    report = ImportReport()
    seen: dict[str, str] = {}
    for path in _expand(paths):
        records, problems = read_records(path)
        cases = []
        for record in records:
            case = validate_record(record, str(path))
            problems.extend(record.problems)
            if case is None:
                continue
            if case["id"] in seen:
                problems.append(
                    Problem(str(path), record.line, "id", f"duplicate id {case['id']!r} (first in {seen[case['id']]})")
                )
                continue
            seen[case["id"]] = f"{path}:{record.line}"
            cases.append(case)
        if problems:
            report.problems.extend(problems)
            report.rejected_files.append(str(path))
            continue
        with transaction.atomic():
            for case in cases:
                _case_store(case, source_file=str(path))
        report.imported.extend(case["id"] for case in cases)
    return report


def _expand(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(item for item in path.iterdir() if item.suffix in (".json", ".jsonl")))
        else:
            files.append(path)
    return files


def _case_store(case: dict, *, source_file: str) -> Case:
    stored, _ = Case.objects.update_or_create(
        id=case["id"],
        defaults={
            "procedure": case["procedure"],
            "title": case["title"],
            "language": case["language"],
            "cause_of_action": case["cause_of_action"],
            "seed": case,
            "source_file": source_file,
        },
    )
    return stored


def default_target_side(case: Case) -> str:
    return "defendant" if case.procedure == "criminal" else "plaintiff"


class BackendUnavailable(RuntimeError):
    pass


def agent_participants(procedure: str, backend: str) -> dict[str, Participant]:
    """Every seat of a procedure played by an agent of ``backend``."""
    if backend != "scripted":
        raise BackendUnavailable(f"the {backend!r} agent backend is not available in this version; use scripted")
    return {seat: ScriptedAgent() for seat in procedure_for(procedure).seats}


def agent_model_name(backend: str) -> str:
    return "scripted" if backend == "scripted" else settings.LEGALSIM_MODEL


@transaction.atomic
def trial_simulate(
    *, case: Case, target_side: str | None = None, backend: str | None = None, until: str | None = None
) -> Trial:
    """Run a case through its procedure with every seat an agent and store what happened."""
    backend = backend or settings.LEGALSIM_AGENT_BACKEND
    target_side = target_side or default_target_side(case)
    state = trial_start(case=case.seed, target_side=target_side, last_stage=until)
    trial_run(state, agent_participants(case.procedure, backend))
    trial = Trial.objects.create(
        case=case,
        procedure=case.procedure,
        target_side=target_side,
        backend=backend,
        status=Trial.Status.FINISHED,
        state=state.to_dict(),
        tokens=sum(turn.tokens for turn in state.turns),
        finished_at=timezone.now(),
    )
    model = agent_model_name(backend)
    Seat.objects.bulk_create(
        Seat(trial=trial, seat=seat, agent_model=model) for seat in procedure_for(case.procedure).seats
    )
    _records_store(trial, state)
    from annotation.services import trajectory_from_trial

    trajectory_from_trial(trial=trial)
    return trial


def _records_store(trial: Trial, state: TrialState) -> None:
    Turn.objects.bulk_create(
        Turn(
            trial=trial,
            seq=turn.seq,
            stage=turn.stage,
            phase=turn.phase,
            seat=turn.seat,
            role=turn.role,
            side=turn.side,
            speaker=turn.speaker,
            author=turn.author,
            act=turn.act,
            text=turn.text,
            tokens=turn.tokens,
        )
        for turn in state.turns
    )
    Artifact.objects.bulk_create(
        Artifact(
            trial=trial,
            stage=artifact.stage,
            kind=artifact.kind,
            title=artifact.title,
            text=artifact.text,
            author_seat=artifact.author_seat,
            side=artifact.side,
        )
        for artifact in state.artifacts
    )
    MemoryOperation.objects.bulk_create(
        MemoryOperation(trial=trial, stage=entry.stage, seat=entry.seat, op=entry.op, key=entry.key, value=entry.value)
        for entry in state.memory_log
    )
