"""Roster files: a CSV or an Excel workbook (.xlsx, its first sheet) of
``username,email,full_name`` enrolled in a course (read by ``classroom.roster_files``).

The whole file is checked first, in the request (or command) that brings it: every bad row
is reported as ``FILE:LINE: field: message`` and nobody is created; a file longer than
``LEGALSIM_ROSTER_MAX_ROWS`` is refused before its rows are looked at. A good file becomes a
``RosterJob`` that a Celery worker (in process when Celery is eager) enrols in transactions
of ``ROSTER_BATCH_ROWS`` rows, so another writer (a live trial, a grade) waits for one batch
at most; the job row records how far it got, so a failure names the rows that are enrolled
and a second delivery of the task carries on where the first stopped. New accounts are
created in bulk with no usable password (no password hashing); their set-password links are
made from the job's list of accounts when its instructor downloads them, once.

A job whose worker was killed is resumed where it stopped: the run holds a lease in the
cache (Redis with workers), renewed at every batch, and a job left unfinished without one
is handed to a worker again by the workers' recovery pass or by the next look at its page
(``roster_job_revive``). Each batch moves the job on only from where it found it, so two
runs of one job never enrol a batch twice: the later stops.
"""

from __future__ import annotations

import io
import logging
import secrets
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.contrib.auth.models import AbstractBaseUser, Group
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.usernames import usernames_confusable
from classroom.models import Course, Enrolment, RosterJob
from classroom.roster_files import UnreadableRoster, roster_table
from classroom.services import ClassroomError, not_student_roles, set_password_path, users_by_name
from legalsim.json_input import Problem
from legalsim.roles import MATRIX, Ability, Role
from legalsim.spreadsheet import CsvWriter
from trials.workers import task_send

logger = logging.getLogger(__name__)

ROSTER_KEYS = ("username", "email", "full_name")
ROSTER_BATCH_ROWS = 200
"""Rows per transaction: a batch of new accounts takes a few tens of milliseconds, the
longest another writer waits."""


@dataclass(frozen=True)
class RosterRow:
    line: int
    username: str
    email: str
    full_name: str


@dataclass
class RosterCheck:
    """A roster file read and checked whole: its rows, the existing accounts it names
    differently (kept as they are), and every bad row; nothing is stored either way."""

    label: str
    rows: list[RosterRow] = field(default_factory=list)
    kept: list[tuple[str, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def roster_check(*, path: Path, label: str | None = None, as_student_anyway: bool = False) -> RosterCheck:
    """Read and check every row of a roster file. An existing account that holds a role but
    not the student's (a rater, an instructor) is a bad row unless ``as_student_anyway``."""
    check = RosterCheck(label=label or str(path))
    where, rows, check.problems = _roster_rows(path, check.label)
    if check.problems:
        return check
    if not rows:
        check.problems.append(Problem(where, 1, "file", "has no rows under its header"))
        return check
    existing = users_by_name([row.username for row in rows])
    roles = {} if as_student_anyway else not_student_roles(list(existing.values()))
    seen: dict[str, int] = {}
    alike = usernames_confusable(row.username for row in rows)
    for row in rows:
        check.problems += [
            Problem(where, row.line, column, message)
            for column, message in _row_problems(row, existing.get(row.username), roles, seen)
        ]
        if row.username in alike:
            message = f"{row.username!r} looks like the account or row {alike[row.username]!r}"
            check.problems.append(Problem(where, row.line, "username", message))
        seen.setdefault(row.username, row.line)
    if not check.problems:
        check.rows = rows
        check.kept = [
            (row.username, differs)
            for row in rows
            if row.username in existing and (differs := _roster_differences(existing[row.username], row))
        ]
    return check


def _roster_rows(path: Path, label: str) -> tuple[str, list[RosterRow], list[Problem]]:
    """What a row's problem names (``RosterTable.where``), the rows of the file, or the
    problem that stops it being read (CSV or workbook, its header, more rows than
    ``LEGALSIM_ROSTER_MAX_ROWS``)."""
    cap = settings.LEGALSIM_ROSTER_MAX_ROWS
    rows: list[RosterRow] = []
    try:
        table = roster_table(path, label)
        missing = [key for key in ROSTER_KEYS if key not in table.header]
        if missing:
            return table.where, [], [Problem(table.where, 1, "header", f"missing column(s): {', '.join(missing)}")]
        for number, cells in table.rows:
            if len(rows) == cap:
                message = f"has more than {cap} rows, the most a roster may have: split it into files of {cap} rows"
                return table.where, [], [Problem(table.where, number, "file", message)]
            rows.append(RosterRow(number, *(cells.get(key, "") for key in ROSTER_KEYS)))
    except UnreadableRoster as error:
        return label, [], [error.problem]
    return table.where, rows, []


def _row_problems(
    row: RosterRow, user: AbstractBaseUser | None, roles: dict[int, list[str]], seen: dict[str, int]
) -> list[tuple[str, str]]:
    """(field, message) of each problem of one row; ``seen``: the line of each username so far."""
    User = get_user_model()
    name, email = row.username, row.email
    problems = []
    if not name:
        problems.append(("username", "is empty"))
    else:
        try:
            User.username_validator(name)
        except ValidationError:
            problems.append(("username", f"{name!r}: letters, digits and @ . + - _ only"))
        if len(name) > User._meta.get_field("username").max_length:
            problems.append(("username", "is too long"))
        if name in seen:
            problems.append(("username", f"{name!r} is on line {seen[name]} already"))
    if user is not None and user.pk in roles:
        problems.append(
            ("username", f"{name!r} is {' and '.join(roles[user.pk])}, not a student: tick “enrol as student anyway”")
        )
    if email:
        try:
            validate_email(email)
        except ValidationError:
            problems.append(("email", f"{email!r} is not an email address"))
    elif name and user is None:
        problems.append(("email", "a new account needs an email address"))
    if len(row.full_name) > 300:
        problems.append(("full_name", "is longer than 300 characters"))
    return problems


def _roster_differences(user: AbstractBaseUser, row: RosterRow) -> str:
    """What a roster row says differently about an existing account (its e-mail, its full
    name), as the upload reports it; blank when they agree or the row leaves them blank."""
    differs = []
    if row.email and row.email.lower() != (user.email or "").lower():
        differs.append(
            _("e-mail %(roster)s in the roster, %(account)s on the account")
            % {"roster": row.email, "account": user.email or "—"}
        )
    name = " ".join(row.full_name.split())
    if name and name != " ".join(user.get_full_name().split()):
        differs.append(
            _("name %(roster)s in the roster, %(account)s on the account")
            % {"roster": name, "account": user.get_full_name() or "—"}
        )
    return "; ".join(differs)


class RosterJobMoved(RuntimeError):
    """Another run of the job enrolled the batch first: this one stops."""


QUEUED = "queued"
"""The lease's value while the job waits for a worker, which takes the lease over."""

ROSTER_JOB_RUN = "classroom.tasks.roster_job_run_task"
"""The task that runs a job (``roster_job_run``), sent by its name: ``classroom.tasks`` is the
Celery layer on top of this module and imports it, so this module never imports it back."""


def _lease_key(job: RosterJob) -> str:
    return f"legalsim:roster-job:{job.pk}:{job.created_at.isoformat()}"


def _lease_s() -> float:
    """How long a run's lease lasts unrenewed: a batch takes well under a second."""
    return settings.LEGALSIM_BATCH_LEASE_S / 4


def roster_job_start(
    *, course: Course, check: RosterCheck, by: AbstractBaseUser | None, in_process: bool = False
) -> RosterJob:
    """The job that enrols a checked roster, handed to a worker once it is committed (run
    here when Celery is eager), or run to its end here (``in_process``: the command, which
    prints the links when it is done)."""
    if check.problems or not check.rows:
        raise ClassroomError(_("a roster with problems cannot be enrolled"))
    job = RosterJob.objects.create(
        course=course,
        created_by=by,
        label=check.label[:255],
        rows=[[row.line, row.username, row.email, row.full_name] for row in check.rows],
        total=len(check.rows),
        kept=[list(pair) for pair in check.kept],
    )
    if in_process:
        return roster_job_run(job.pk)
    cache.set(_lease_key(job), QUEUED, timeout=settings.LEGALSIM_BATCH_LEASE_S)
    transaction.on_commit(lambda: task_send(ROSTER_JOB_RUN, job.pk))
    return job


def roster_job_revive(job: RosterJob) -> bool:
    """Hand an unfinished job nobody runs (its worker was killed, or its message lost) to a
    worker again, run here when Celery is eager; it goes on from its last batch. A job that
    waits for a worker is sent again after ``LEGALSIM_BATCH_LEASE_S``, by one caller only.
    Returns whether it was sent."""
    if job.finished or not cache.add(_lease_key(job), QUEUED, timeout=settings.LEGALSIM_BATCH_LEASE_S):
        return False
    logger.warning("roster job %s was left at row %d of %d: resumed", job.pk, job.done, job.total)
    task_send(ROSTER_JOB_RUN, job.pk)
    return True


def rosters_recover() -> int:
    """The workers' recovery pass: every unfinished job nobody runs, resumed."""
    jobs = RosterJob.objects.filter(status__in=(RosterJob.Status.QUEUED, RosterJob.Status.RUNNING))
    return sum(roster_job_revive(job) for job in jobs.only("pk", "status", "done", "total", "created_at"))


def roster_job_run(job_id: int) -> RosterJob:
    """Enrol the job's rows batch by batch, from where it stands, under its lease (none while
    another run holds it). A failure stops the job and says which rows are enrolled (every
    batch before the failing one) and which are not."""
    job = RosterJob.objects.select_related("course").get(pk=job_id)
    runner = uuid.uuid4().hex
    if job.finished or not _lease_take(job, runner):
        return job
    try:
        _job_run(job, runner)
    except RosterJobMoved:
        job.refresh_from_db()
    finally:
        _lease_drop(job, runner)
    return job


def _job_run(job: RosterJob, runner: str) -> None:
    RosterJob.objects.filter(pk=job.pk, status=RosterJob.Status.QUEUED).update(status=RosterJob.Status.RUNNING)
    job.status = RosterJob.Status.RUNNING
    while job.done < job.total:
        batch = job.rows[job.done : job.done + ROSTER_BATCH_ROWS]
        try:
            roster_batch_enrol(job, batch)
        except RosterJobMoved:
            raise
        except Exception as error:
            logger.exception("roster job %s failed", job.pk)
            _job_end(job, status=RosterJob.Status.FAILED, error=_batch_failure(job, batch, error))
            return
        cache.set(_lease_key(job), runner, timeout=_lease_s())
    _job_end(job, status=RosterJob.Status.DONE, rows=[])


def _lease_take(job: RosterJob, runner: str) -> bool:
    """Take the job's lease unless a live run holds it (a waiting job's lease is for the
    worker that takes it)."""
    held = cache.get(_lease_key(job))
    if held not in (None, QUEUED):
        return False
    cache.set(_lease_key(job), runner, timeout=_lease_s())
    return True


def _lease_drop(job: RosterJob, runner: str) -> None:
    if cache.get(_lease_key(job)) == runner:
        cache.delete(_lease_key(job))


def _batch_failure(job: RosterJob, batch: list[list], error: Exception) -> str:
    first, last = batch[0][0], batch[-1][0]
    return _(
        "Lines %(first)d-%(last)d could not be enrolled (%(error)s). The %(done)d row(s) before line %(first)d "
        "are enrolled; line %(first)d and the %(rest)d row(s) after it are not: upload those rows again."
    ) % {
        "first": first,
        "last": last,
        "error": f"{type(error).__name__}: {error}",
        "done": job.done,
        "rest": job.total - job.done - 1,
    }


def _job_end(job: RosterJob, **fields) -> None:
    """Finish the job as it stands (``done`` rows enrolled); another run that moved it on
    meanwhile finishes it instead."""
    fields["finished_at"] = timezone.now()
    ended = RosterJob.objects.filter(
        pk=job.pk, done=job.done, status__in=(RosterJob.Status.QUEUED, RosterJob.Status.RUNNING)
    ).update(**fields)
    if not ended:
        raise RosterJobMoved(job.pk)
    for name, value in fields.items():
        setattr(job, name, value)


def roster_batch_enrol(job: RosterJob, batch: list[list]) -> None:
    """One transaction: create the batch's new accounts (in bulk, unusable passwords), enrol
    everyone not enrolled yet, make students of those who may not play, and move the job on,
    from where this run found it only (``RosterJobMoved`` otherwise)."""
    User = get_user_model()
    with transaction.atomic():
        stored = RosterJob.objects.select_for_update().filter(pk=job.pk).values_list("done", flat=True).first()
        if stored != job.done:
            raise RosterJobMoved(job.pk)
        users = users_by_name([username for _line, username, _email, _name in batch])
        fresh = [_account(username, email, name) for _line, username, email, name in batch if username not in users]
        User.objects.bulk_create(fresh)
        created = users_by_name([user.get_username() for user in fresh])
        users |= created
        ids = [user.pk for user in users.values()]
        enrolled = set(Enrolment.objects.filter(course=job.course, user_id__in=ids).values_list("user_id", flat=True))
        Enrolment.objects.bulk_create(
            [Enrolment(course=job.course, user_id=pk) for pk in ids if pk not in enrolled], ignore_conflicts=True
        )
        _students_make(ids)
        moved = {
            "done": job.done + len(batch),
            "enrolled": job.enrolled + len(ids) - len(enrolled),
            "already": job.already + len(enrolled),
            "created": job.created + sorted(user.pk for user in created.values()),
        }
        RosterJob.objects.filter(pk=job.pk).update(**moved)
    for name, value in moved.items():
        setattr(job, name, value)


def _account(username: str, email: str, full_name: str) -> AbstractBaseUser:
    """A new account with an unusable password, as ``set_unusable_password`` makes one (its
    random part from ``secrets`` at once: ``make_password(None)`` draws it a character at a
    time, which was half the cost of a batch)."""
    first, _space, last = full_name.rpartition(" ") if " " in full_name else (full_name, "", "")
    password = UNUSABLE_PASSWORD_PREFIX + secrets.token_urlsafe(30)
    return get_user_model()(
        username=username, email=email, first_name=first[:150], last_name=last[:150], password=password
    )


def _students_make(ids: list[int]) -> None:
    """Give the student role to those of ``ids`` whose roles do not let them play (as
    ``legalsim.roles.role_grant`` does, for many at once)."""
    User = get_user_model()
    playing = [role for role, abilities in MATRIX.items() if Ability.PLAY in abilities]
    players = User.objects.filter(pk__in=ids).filter(Q(is_superuser=True) | Q(groups__name__in=playing))
    lacking = set(ids) - set(players.values_list("pk", flat=True))
    group, _created = Group.objects.get_or_create(name=Role.STUDENT)
    Membership = User.groups.through
    Membership.objects.bulk_create(
        [Membership(user_id=pk, group_id=group.pk) for pk in sorted(lacking)], ignore_conflicts=True
    )


def roster_links(*, job: RosterJob) -> list[tuple[AbstractBaseUser, str]]:
    """(account, set-password path) of each account the job created that has no password
    yet, in the file's order; none once the links have been downloaded."""
    if job.links_taken_at is not None or not job.created:
        return []
    accounts = get_user_model().objects.filter(pk__in=job.created, password__startswith=UNUSABLE_PASSWORD_PREFIX)
    return [(user, set_password_path(user)) for user in accounts.order_by("pk")]


def roster_links_take(*, job: RosterJob) -> list[tuple[AbstractBaseUser, str]]:
    """The links, for the one download: from now on they are not shown again."""
    if not job.finished:
        raise ClassroomError(_("the roster is still being enrolled: download the links when it is done"))
    links = roster_links(job=job)
    with transaction.atomic():
        taken = RosterJob.objects.filter(pk=job.pk, links_taken_at__isnull=True).update(links_taken_at=timezone.now())
    if not taken:
        raise ClassroomError(_("the set-password links were downloaded already; they are not shown again"))
    return links


def roster_links_csv(links: list[tuple[AbstractBaseUser, str]]) -> str:
    """The links as a CSV (``username,email,full_name,set_password_link``), cells escaped
    against formulas; each link is as given (a page makes them absolute)."""
    handle = io.StringIO()
    writer = CsvWriter(handle)
    writer.writerow(["username", "email", "full_name", "set_password_link"])
    writer.writerows([user.get_username(), user.email, user.get_full_name(), link] for user, link in links)
    return handle.getvalue()
