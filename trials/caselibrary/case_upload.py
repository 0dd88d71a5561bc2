"""Case files uploaded on the authoring page: ``cases_import`` of the uploads, except that a case
already in the library is replaced only when the person uploading says so.

``import_cases`` replaces a case whose id is in the library (docs/commands.md): whoever runs it
chose the files. On the page, a file that happens to reuse an id would silently change a case
that trials and course assignments play; so the upload first names every such case, with how
many trials and assignments use it, and stores nothing until it is sent again with "replace"
ticked. The check and the import share one transaction: what was checked is what is stored,
and a held upload leaves the library as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import Count

from trials.models import Case
from trials.services import ImportReport, cases_import_uploads


@dataclass(frozen=True)
class CaseInLibrary:
    """A case of the upload whose id the library already holds, and what uses it."""

    case_id: str
    file: str
    trials: int
    assignments: int


@dataclass(frozen=True)
class CaseUpload:
    report: ImportReport
    in_library: list[CaseInLibrary]
    held: bool
    """Nothing stored: some case is in the library and replacing was not asked for."""


def cases_upload(*, uploads: Iterable[UploadedFile], replace: bool) -> CaseUpload:
    """Import the uploaded files (each whole or not at all, as ``cases_import``); when one
    would replace a library case and ``replace`` is false, roll every file back."""
    with transaction.atomic():
        before = set(Case.objects.values_list("pk", flat=True))
        report = cases_import_uploads(uploads)
        in_library = _in_library(report, before)
        held = bool(in_library) and not replace
        if held:
            transaction.set_rollback(True)
    return CaseUpload(report, in_library, held)


def _in_library(report: ImportReport, before: set[str]) -> list[CaseInLibrary]:
    """The cases ``report`` stored over ones in ``before``, with their trials and assignments."""
    file_of = {case_id: file.file for file in report.files for case_id in file.imported if case_id in before}
    used = Case.objects.filter(pk__in=file_of).annotate(
        n_trials=Count("trials", distinct=True), n_assignments=Count("course_assignments", distinct=True)
    )
    return [CaseInLibrary(case.pk, file_of[case.pk], case.n_trials, case.n_assignments) for case in used]
