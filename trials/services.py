"""Writes for the trials app: importing cases and running trials through the engine."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.files.uploadedfile import UploadedFile
from django.db import DatabaseError, transaction
from django.db.models import Model

from agents.openai_agent import OpenAIAgent
from agents.routing import Route, sampling, seat_route, supervisor_route
from agents.scripted.agent import ScriptedAgent
from agents.skill_notes import SkillNote
from agents.strategy import stage_end_reflectors
from agents.supervisor import Supervisor
from court.engine.machine import trial_start
from court.engine.participants import Participant
from court.engine.runner import Paused, trial_run
from court.engine.state import TrialState
from court.engine.steps import End, StageEnd, Step
from court.engine.visibility import build_view
from court.procedures import procedure_for
from court.procedures.seats import target_seat
from legalsim.json_input import Problem, Record, read_records
from legalsim.llm import LLMClient, LLMError
from trials.caselibrary.case_file import validate_record
from trials.caselibrary.precedent_library import precedent_search
from trials.leases import preparation_enqueue
from trials.models import Case, Seat, Trial
from trials.reflection import cause_notes
from trials.selectors import side_played
from trials.store import progress_started, progress_store, writing


@dataclass
class FileReport:
    """One file's verdict: stored (``imported`` names its cases) or refused (``problems``)."""

    file: str
    imported: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def stored(self) -> bool:
        return not self.problems


@dataclass
class ImportReport:
    files: list[FileReport] = field(default_factory=list)

    @property
    def imported(self) -> list[str]:
        return [case_id for file in self.files for case_id in file.imported]

    @property
    def problems(self) -> list[Problem]:
        return [problem for file in self.files for problem in file.problems]

    @property
    def rejected_files(self) -> list[str]:
        return [file.file for file in self.files if not file.stored]


class _NotStored(Exception):
    def __init__(self, line: int, error: DatabaseError) -> None:
        super().__init__(str(error))
        self.line, self.error = line, error


def cases_import(
    *,
    paths: Iterable[Path],
    labels: Mapping[Path, str] | None = None,
    validate: Callable[[Record, str], dict | None] = validate_record,
) -> ImportReport:
    """Import case files, each atomically: a file with any bad record stores nothing.

    Every file gets a verdict in ``report.files``, in order, whatever it holds: stored, or
    refused with its problems (a database that refuses a record refuses the file too).
    A case id already in the library is replaced; the same id twice in one run is an error.
    ``labels`` names files in problems and ``source_file`` (an upload's own name rather than
    the temporary file it was saved to). ``validate`` turns a record into a case (another
    format's reader, ``trials.caselibrary.simcourt_format``).
    """
    report = ImportReport()
    seen: dict[str, str] = {}
    for path in _expand(paths):
        label = (labels or {}).get(path, str(path))
        verdict = FileReport(label)
        report.files.append(verdict)
        records, problems = read_records(path)
        problems = [replace(problem, path=label) for problem in problems]
        cases: list[tuple[int, dict]] = []
        for record in records:
            case = validate(record, label)
            problems.extend(record.problems)
            if case is None:
                continue
            if case["id"] in seen:
                problems.append(
                    Problem(label, record.line, "id", f"duplicate id {case['id']!r} (first in {seen[case['id']]})")
                )
                continue
            seen[case["id"]] = f"{label}:{record.line}"
            cases.append((record.line, case))
        if problems:
            verdict.problems = sorted(problems, key=lambda problem: problem.line)
            continue
        try:
            with transaction.atomic():
                for line, case in cases:
                    try:
                        case_store(case, source_file=label)
                    except DatabaseError as error:
                        raise _NotStored(line, error) from error
        except _NotStored as failure:
            verdict.problems = [Problem(label, failure.line, "record", f"could not be stored: {failure.error}")]
            continue
        verdict.imported = [case["id"] for _, case in cases]
    return report


def _expand(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(item for item in path.iterdir() if item.suffix in (".json", ".jsonl")))
        else:
            files.append(path)
    return files


def cases_import_uploads(uploads: Iterable[UploadedFile]) -> ImportReport:
    """``cases_import`` of uploaded files (the API's and the authoring page's), each named in
    problems by the name it was uploaded with."""
    with tempfile.TemporaryDirectory(prefix="legalsim-upload-") as scratch:
        labels = {}
        for index, upload in enumerate(uploads):
            name = Path(upload.name or "upload.json").name
            # Saved under a name of our own: the upload's may not be a valid file name here.
            path = Path(scratch) / f"{index}{'.jsonl' if name.lower().endswith('.jsonl') else '.json'}"
            with path.open("wb") as saved:
                for chunk in upload.chunks():
                    saved.write(chunk)
            labels[path] = name
        return cases_import(paths=list(labels), labels=labels)


def case_store(case: dict, *, source_file: str) -> Case:
    stored, _ = Case.objects.update_or_create(
        id=case["id"],
        defaults={
            "procedure": case["procedure"],
            "title": case["title"],
            "language": case["language"],
            "cause_of_action": case["cause_of_action"],
            "seed": case,
            "source_file": source_file[-500:],
        },
    )
    return stored


def default_target_side(procedure: str) -> str:
    return "defendant" if procedure == "criminal" else "plaintiff"


class BackendUnavailable(RuntimeError):
    pass


def agent_participants(
    procedure: str,
    backend: str,
    *,
    target_side: str,
    supervised: bool = False,
    target_model: str = "",
    skill_notes: tuple[SkillNote, ...] = (),
    strategies: dict[str, list[dict[str, str]]] | None = None,
) -> dict[str, Participant]:
    """Every seat of a procedure played by an agent of ``backend``, each on the model and
    server ``agents.routing`` gives it (the target lawyer, the attorney in a criminal
    trial, on ``LEGALSIM_MODEL_TARGET`` unless ``LEGALSIM_SEAT_MODELS`` says otherwise);
    ``target_model`` puts the target seat on another model of its server (a batch comparing
    models) and ``skill_notes`` are that seat's reflective notes. ``strategies`` (None: the
    Strategy module is off) are the seats' strategies so far, each agent given its own."""
    seats = procedure_for(procedure).seats
    if backend == "scripted":
        return {seat: ScriptedAgent() for seat in seats}
    if backend != "openai":
        raise BackendUnavailable(f"unknown agent backend {backend!r}; use scripted or openai")
    target = target_seat(procedure, target_side)
    clients: dict[tuple[str, str], LLMClient] = {}

    def client_of(route: Route) -> LLMClient:
        server = (route.base_url, route.api_key)
        if server not in clients:
            try:
                clients[server] = route.client()
            except LLMError as error:
                raise BackendUnavailable(str(error)) from None
        return clients[server]

    supervisor = None
    if supervised:
        route = supervisor_route()
        supervisor = Supervisor(client_of(route), route.model)
    routes = {seat: seat_route(procedure, seat, is_target=seat == target, target_model=target_model) for seat in seats}
    return {
        seat: OpenAIAgent(
            client_of(route),
            route.model,
            case_search=precedent_search,
            supervisor=supervisor,
            skill_notes=skill_notes if seat == target else (),
            strategy=None if strategies is None else list(strategies.get(seat, [])),
            **sampling(),
        )
        for seat, route in routes.items()
    }


def trial_agents(trial: Trial) -> dict[str, Participant]:
    """The agents of a stored trial, as it was created: backend, supervisor, target model,
    the skill notes it was given and, with the Strategy module on, the strategies so far."""
    state = trial.engine_state
    return agent_participants(
        trial.procedure,
        trial.backend,
        target_side=trial.target_side,
        supervised=trial.supervised,
        target_model=trial.target_model,
        skill_notes=tuple(SkillNote.from_dict(note) for note in trial.skill_notes),
        strategies=state.strategies if state.strategy_module else None,
    )


def strategies_kept(state: TrialState, participants: Mapping[str, Participant]) -> None:
    """Copy the agents' strategies onto ``state``, which stores them with the trial."""
    for seat, participant in participants.items():
        if isinstance(participant, OpenAIAgent) and participant.strategy:
            state.strategies[seat] = [dict(entry) for entry in participant.strategy]


def strategies_revised(state: TrialState, stage: str, participants: Mapping[str, Participant]) -> None:
    """SimCourt's reflection at the end of ``stage`` for the seats that keep a strategy and
    no memory (the criminal judge); the others reflected in their memory update."""
    for seat in stage_end_reflectors(state, stage):
        participant = participants[seat]
        if isinstance(participant, OpenAIAgent):
            participant.stage_ended(build_view(state, seat, stage=stage, phase="memory"), stage)


def agent_model_name(backend: str, procedure: str, seat: str, *, is_target: bool, target_model: str = "") -> str:
    if backend == "scripted":
        return "scripted"
    return seat_route(procedure, seat, is_target=is_target, target_model=target_model).model


def trial_simulate(
    *,
    case: Case,
    target_side: str | None = None,
    backend: str | None = None,
    until: str | None = None,
    supervised: bool = False,
    skill_notes: bool = False,
    strategy: bool = True,
) -> Trial:
    """Run a case through its procedure with every seat an agent and store what happened.

    A model server that keeps failing pauses the trial (status ``paused``) at the step it
    could not take; ``trial_resume`` carries on from there.
    """
    trial = trial_create(
        case=case,
        target_side=target_side,
        backend=backend,
        until=until,
        supervised=supervised,
        skill_notes=skill_notes,
        strategy=strategy,
    )
    return trial_continue(trial=trial)


def trial_create(
    *,
    case: Case,
    live: bool = False,
    humans: Mapping[str, AbstractBaseUser] | None = None,
    stages: list[str] | None = None,
    until: str | None = None,
    seed: dict | None = None,
    target_side: str | None = None,
    backend: str | None = None,
    supervised: bool = False,
    target_model: str = "",
    skill_notes: bool = False,
    strategy: bool = True,
    created_by: AbstractBaseUser | None = None,
    course: Model | None = None,
    on_created: Callable[[Trial], None] | None = None,
) -> Trial:
    """The one way a trial is made, for the live room and for simulation alike: a trial of
    ``case`` (run on ``seed``, the case's own by default), not started yet, whose ``humans``
    seats are held by those users and every other seat by an agent of ``backend`` (the
    server's ``LEGALSIM_AGENT_BACKEND`` when blank).

    ``live`` trials are played in the room, walked by a driver; the others are run by
    ``trial_continue`` (``trial_simulate``, batches). ``stages`` are the stages people play:
    the trial ends after the last (as after ``until``), and when the first is not the
    procedure's first the trial is ``preparing`` until a worker has played the stages before
    it with agents (``trials.preparation``), so the played stage starts from a real state.
    ``target_model`` plays the target seat (blank: the settings'), given the enabled skill
    notes of the case's cause when ``skill_notes`` is set; model seats keep SimCourt's
    strategies unless ``strategy`` is off. ``on_created`` is told of the trial inside the
    transaction that stores it (a batch links it to its run); raising rolls the trial back.
    """
    humans = dict(humans or {})
    chosen = _stages_checked(case.procedure, humans, stages)
    backend = backend or settings.LEGALSIM_AGENT_BACKEND
    target_side = target_side or side_played(case.procedure, humans) or default_target_side(case.procedure)
    supervised = supervised and backend == "openai"
    agent_participants(case.procedure, backend, target_side=target_side, supervised=supervised)
    target_model = target_model if backend == "openai" else ""
    last_stage = until or (chosen[-1] if chosen else None)
    state = trial_start(case=seed or case.seed, target_side=target_side, last_stage=last_stage)
    state.human_seats = {seat: user.get_username() for seat, user in humans.items()}
    state.seated = bool(humans)
    state.strategy_module = strategy and backend == "openai"
    first_stage = chosen[0] if chosen and chosen[0] != procedure_for(case.procedure).stage_ids[0] else ""
    with writing():
        trial = Trial.objects.create(
            case=case,
            procedure=case.procedure,
            target_side=target_side,
            backend=backend,
            supervised=supervised,
            target_model=target_model,
            skill_notes=cause_notes(case) if skill_notes and backend == "openai" else [],
            state=state.to_dict(),
            status=Trial.Status.PREPARING if first_stage else Trial.Status.RUNNING,
            first_stage=first_stage,
            live=live,
            created_by=created_by,
            course=course,
        )
        progress_started(trial)
        _seats_store(trial, humans)
        if first_stage:
            preparation_enqueue(trial.pk)
        if on_created is not None:
            on_created(trial)
    return trial


"""The name simulation's callers knew ``trial_create`` by."""


def _stages_checked(procedure_id: str, humans: Mapping[str, AbstractBaseUser], stages: list[str] | None) -> list[str]:
    """``stages`` (none: every stage), refused with a ``ValueError`` naming the stages or seats
    ``procedure_id`` does not have."""
    procedure = procedure_for(procedure_id)
    unknown = sorted(set(humans) - set(procedure.seats))
    if unknown:
        raise ValueError(f"unknown seat(s) {', '.join(unknown)}; seats: {', '.join(procedure.seats)}")
    bad = [stage for stage in stages or () if stage not in procedure.stage_ids]
    if bad:
        raise ValueError(f"unknown stage(s) {', '.join(bad)}; stages: {', '.join(procedure.stage_ids)}")
    return list(stages or ())


def _seats_store(trial: Trial, humans: Mapping[str, AbstractBaseUser]) -> None:
    """A row per seat of the trial: the person who holds it, or the model its agent runs on."""
    target = target_seat(trial.procedure, trial.target_side)
    Seat.objects.bulk_create(
        Seat(
            trial=trial,
            seat=seat,
            user=humans.get(seat),
            agent_model=""
            if seat in humans
            else agent_model_name(
                trial.backend, trial.procedure, seat, is_target=seat == target, target_model=trial.target_model
            ),
        )
        for seat in procedure_for(trial.procedure).seats
    )


def trial_resume(*, trial: Trial) -> Trial:
    if trial.status != Trial.Status.PAUSED:
        raise ValueError(f"trial {trial.pk} is {trial.status}, not paused")
    return trial_continue(trial=trial)


Checkpoint = Callable[[Trial, str], None]
"""Told of each store (the stage just finished, or "" for the last store), inside the
transaction that makes it; raising rolls the store back."""


def trial_continue(*, trial: Trial, on_checkpoint: Checkpoint | None = None) -> Trial:
    """Run an all-agent trial on from its stored state (new, checkpointed or paused).

    Every finished stage is stored at once (a checkpoint), so a process that dies loses at
    most the stage in progress, and running the trial again carries on from the last one.
    """
    participants = trial_agents(trial)
    state = trial.engine_state
    unstored = False  # a step taken since the last store (each stage's end stores them all)

    def checkpoint(step: Step, outcome: object) -> None:
        nonlocal unstored
        unstored = not isinstance(step, StageEnd)
        if isinstance(step, StageEnd):
            strategies_revised(state, step.stage, participants)
            with writing():
                if on_checkpoint is not None:
                    on_checkpoint(trial, step.stage)
                strategies_kept(state, participants)
                progress_store(trial, state, calls=calls_drained(participants))

    outcome = trial_run(state, participants, on_event=checkpoint)
    if isinstance(outcome, End) and not unstored and trial.status == Trial.Status.FINISHED:
        return trial  # the last stage's end stored the finished trial
    with writing():
        if on_checkpoint is not None:
            on_checkpoint(trial, "")
        paused = isinstance(outcome, Paused)
        if paused:
            trial.status = Trial.Status.PAUSED
            trial.pause_reason = f"{outcome.step.seat} at {outcome.step.stage}: {outcome.reason}"
        strategies_kept(state, participants)
        progress_store(
            trial, state, calls=calls_drained(participants), fields=("status", "pause_reason") if paused else ()
        )
    return trial


def calls_drained(participants: Mapping[str, Participant]) -> list[dict]:
    """The model calls every participant made since the last drain (each agent once)."""
    unique = {id(participant): participant for participant in participants.values()}
    return [call for participant in unique.values() for call in participant.drain_calls()]
