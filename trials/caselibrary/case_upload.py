"""Case files uploaded on the authoring page: ``cases_import`` of the uploads, except that a case
already in the library is replaced only when the person uploading says so.

``import_cases`` replaces a case whose id is in the library (docs/commands.md): whoever runs it
chose the files. On the page, a file that happens to reuse an id would silently change a case
that trials and course assignments play; so the upload first names every such case, with how
many trials and assignments use it, and stores nothing until it is sent again with "replace"
ticked. The check and the import share one transaction: what was checked is what is stored,
and a held upload leaves the library as it was.

The API's ``POST /api/cases/import/`` asks the same way (``replace=true``). A case belongs to
whoever first uploaded it (``Case.imported_by``): another instructor's upload of its id is
refused whatever it asks (``not_yours``), so one course cannot change the case another
course's assignment plays; an admin may replace any case, and a case imported from the command
line (no uploader) only an admin.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import Count

from legalsim.roles import Ability, can
from trials.models import Case
from trials.services import ImportReport, cases_import_uploads


@dataclass(frozen=True)
class CaseInLibrary:
    """A case of the upload whose id the library already holds, and what uses it."""

    case_id: str
    file: str
    trials: int
    assignments: int
    imported_by: int | None = None
    """Who first uploaded the case (None: the command line)."""


@dataclass(frozen=True)
class CaseUpload:
    report: ImportReport
    in_library: list[CaseInLibrary]
    held: bool
    """Nothing stored: some case is in the library and replacing was not asked for, or is
    not the uploader's to replace."""
    not_yours: list[CaseInLibrary] = field(default_factory=list)
    """The library cases of the upload that the person uploading may not replace."""


def cases_upload(*, uploads: Iterable[UploadedFile], replace: bool, by: AbstractBaseUser | None = None) -> CaseUpload:
    """Import the uploaded files (each whole or not at all, as ``cases_import``); when one
    would replace a library case and ``replace`` is false, or ``by`` (the person uploading)
    may not replace it, roll every file back. Cases new to the library are recorded as ``by``'s."""
    with transaction.atomic():
        before = set(Case.objects.values_list("pk", flat=True))
        report = cases_import_uploads(uploads)
        in_library = _in_library(report, before)
        not_yours = [case for case in in_library if not case_replaceable(case, by)]
        held = bool(not_yours) or (bool(in_library) and not replace)
        if held:
            transaction.set_rollback(True)
        elif by is not None:
            Case.objects.filter(pk__in=set(report.imported) - before).update(imported_by=by)
    return CaseUpload(report, in_library, held, not_yours)


def case_replaceable(case: CaseInLibrary, by: AbstractBaseUser | None) -> bool:
    """Whether ``by`` may replace the library case: its uploader or an admin (anyone when
    nobody is named, as on the command line, whose user chose the files)."""
    return by is None or case.imported_by == by.pk or can(by, Ability.ADMINISTER)


def _in_library(report: ImportReport, before: set[str]) -> list[CaseInLibrary]:
    """The cases ``report`` stored over ones in ``before``, with their trials and assignments."""
    file_of = {case_id: file.file for file in report.files for case_id in file.imported if case_id in before}
    used = Case.objects.filter(pk__in=file_of).annotate(
        n_trials=Count("trials", distinct=True), n_assignments=Count("course_assignments", distinct=True)
    )
    return [
        CaseInLibrary(case.pk, file_of[case.pk], case.n_trials, case.n_assignments, case.imported_by_id)
        for case in used
    ]
