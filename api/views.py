"""The REST API: thin views over the same services and selectors as the web pages.

Each view declares the ability it needs (``api.permissions``); object rules follow the web:
a participant reaches only trials they hold a seat in (a 404 otherwise), a rater only their
own assignments; evaluation-only case fields reach instructors only.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from annotation.agreement import AgreementError
from annotation.models import Assignment, Rubric, Study, Trajectory
from annotation.reports import report_file
from annotation.selectors import assignment_panels, studies_counted, studies_of, study_progress
from annotation.studies import StudyError, assignment_claim, assignment_submit, draft_save
from api import serializers as s
from api.parsers import FormParser, JSONParser, MultiPartParser
from api.permissions import PUBLIC, HasAbility
from legalsim.roles import Ability
from trials.access import NotSeated, reader_seats, trials_readable
from trials.caselibrary.case_upload import CaseUpload, cases_upload
from trials.live.seating import seat_release, seat_take
from trials.live.services import (
    LiveError,
    transcript_for,
)
from trials.models import Trial
from trials.selectors import case_search
from trials.services import BackendUnavailable, trial_create


class TokenObtainView(ObtainAuthToken):
    """Exchange a username and password for the user's API token (throttled per client)."""

    ability = PUBLIC
    authentication_classes = ()
    permission_classes = (HasAbility,)
    throttle_classes = (ScopedRateThrottle,)
    throttle_scope = "login"
    parser_classes = (FormParser, MultiPartParser, JSONParser)  # ObtainAuthToken's, with the text rule

    @extend_schema(request=s.TokenRequestSerializer, responses={200: s.TokenSerializer}, auth=[])
    def post(self, request: Request, *args, **kwargs) -> Response:
        return super().post(request, *args, **kwargs)


class CaseListView(generics.ListAPIView):
    """The case library: search by title, cause of action or id, optionally by procedure."""

    ability = Ability.PLAY
    serializer_class = s.CaseSerializer

    @extend_schema(parameters=[s.CaseQuerySerializer])
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        query = s.CaseQuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        return case_search(
            query=query.validated_data.get("q", "").strip(), procedure=query.validated_data.get("procedure", "")
        )


class CaseDetailView(generics.RetrieveAPIView):
    ability = Ability.PLAY
    serializer_class = s.CaseDetailSerializer
    lookup_url_kwarg = "case_id"

    def get_queryset(self):
        return case_search()


class CaseImportView(APIView):
    """Upload case files (``.json`` object or list, ``.jsonl``): each file is atomic, every bad
    record is reported as ``FILE:LINE: field: message``. ``files`` gives every file's verdict in
    upload order: ``stored`` with the ids of its cases, or ``refused`` with its problems (nothing
    of it stored). 201 when every file was stored, 400 when any was refused (the files listed as
    stored were stored all the same).

    A case already in the library is replaced only when asked for, as on the authoring page
    (``trials.caselibrary.case_upload``): without ``replace=true`` the upload stores nothing and
    answers 409 with every such case and the trials and assignments using it. Only the case's
    uploader or an admin may replace it: anyone else's upload of its id stores nothing (403)."""

    ability = Ability.TEACH
    parser_classes = (MultiPartParser,)

    @extend_schema(
        request={"multipart/form-data": s.CaseImportSerializer},
        responses={
            201: s.CaseImportResultSerializer,
            400: s.CaseImportResultSerializer,
            403: s.CaseImportHeldSerializer,
            409: s.CaseImportHeldSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        form = s.CaseImportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        upload = cases_upload(
            uploads=form.validated_data["files"], replace=form.validated_data["replace"], by=request.user
        )
        if upload.held:
            return self._held(upload)
        report = upload.report
        body = {
            "imported": report.imported,
            "problems": [str(problem) for problem in report.problems],
            "rejected_files": report.rejected_files,
            "files": [
                {
                    "file": file.file,
                    "status": "stored" if file.stored else "refused",
                    "imported": file.imported,
                    "problems": [str(problem) for problem in file.problems],
                }
                for file in report.files
            ],
        }
        return Response(body, status=status.HTTP_400_BAD_REQUEST if report.problems else status.HTTP_201_CREATED)

    @staticmethod
    def _held(upload: CaseUpload) -> Response:
        """Nothing stored: the cases it would replace, and why it did not."""
        if upload.not_yours:
            detail = "only the instructor who uploaded a case or an admin may replace it; nothing was stored"
        else:
            detail = "these cases are in the library already; send the upload again with replace=true to replace them"
        mine = {case.case_id for case in upload.in_library} - {case.case_id for case in upload.not_yours}
        body = {
            "detail": detail,
            "in_library": [
                {
                    "case": case.case_id,
                    "file": case.file,
                    "trials": case.trials,
                    "assignments": case.assignments,
                    "yours": case.case_id in mine,
                }
                for case in upload.in_library
            ],
        }
        code = status.HTTP_403_FORBIDDEN if upload.not_yours else status.HTTP_409_CONFLICT
        return Response(body, status=code)


class TrialListView(generics.ListCreateAPIView):
    """Trials you may read (``trials.access``): those you hold a seat in, those of the courses
    you teach, and (instructors) the all-agent research runs; a classmate's is never listed.
    Creating one is the lobby's form: the seats you play, the stages, the target side."""

    ability = Ability.PLAY
    serializer_class = s.TrialSerializer

    def get_queryset(self):
        return trials_readable(user=self.request.user)

    @extend_schema(request=s.TrialCreateSerializer, responses={201: s.TrialSerializer})
    def post(self, request: Request, *args, **kwargs) -> Response:
        form = s.TrialCreateSerializer(data=request.data, context={"request": request})
        form.is_valid(raise_exception=True)
        data = form.validated_data
        try:
            trial = trial_create(
                live=True,
                case=data["case"],
                humans=dict.fromkeys(data["seats"], request.user),
                stages=data["stages"] or None,
                target_side=data.get("target_side"),
                created_by=request.user,
            )
        except (ValueError, BackendUnavailable) as error:
            raise ValidationError({"detail": str(error)}) from None
        return Response(self.get_serializer(trial).data, status=status.HTTP_201_CREATED)


class TrialDetailView(generics.RetrieveAPIView):
    """A trial's status and seats, for its participants and overseers (``trials.access``);
    anyone else gets a 404, whether or not the trial exists."""

    ability = Ability.PLAY
    serializer_class = s.TrialSerializer
    lookup_url_kwarg = "trial_id"

    def get_queryset(self):
        return trials_readable(user=self.request.user)


class TrialSeatsView(APIView):
    """Take a seat: with the ``invitation`` token of a participant's invitation link (a free
    seat, for the person invited), or as an overseer of the trial (any seat). Anyone who may
    not read the trial and brings no invitation for it gets a 404."""

    ability = Ability.PLAY

    @extend_schema(request=s.SeatSerializer, responses={200: s.TrialSerializer})
    def post(self, request: Request, trial_id: int) -> Response:
        form = s.SeatSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        invitation = form.validated_data.get("invitation", "")
        trial = trials_readable(user=request.user).filter(pk=trial_id).first()
        if trial is None and invitation:
            trial = Trial.objects.filter(pk=trial_id).first()
        if trial is None:
            raise NotFound("no such trial")
        try:
            seat_take(trial_id=trial.pk, seat=form.validated_data["seat"], user=request.user, invitation=invitation)
        except LiveError as error:
            if not trials_readable(user=request.user).filter(pk=trial_id).exists():
                raise NotFound("no such trial") from None
            raise ValidationError({"detail": str(error)}) from None
        return Response(s.TrialSerializer(trial, context={"request": request}).data)


class TrialSeatView(APIView):
    """Hand a seat back to an agent (its holder, or an overseer)."""

    ability = Ability.PLAY

    @extend_schema(responses={200: s.TrialSerializer})
    def delete(self, request: Request, trial_id: int, seat: str) -> Response:
        trial = get_object_or_404(trials_readable(user=request.user), pk=trial_id)
        try:
            seat_release(trial_id=trial.pk, seat=seat, user=request.user)
        except LiveError as error:
            raise ValidationError({"detail": str(error)}) from None
        return Response(s.TrialSerializer(trial, context={"request": request}).data)


class TrialTranscriptView(APIView):
    """What the printable transcript shows: instructors everything; a participant the
    dialogue of the stages their seats took part in and the documents their views show."""

    ability = Ability.PLAY

    @extend_schema(responses={200: s.TranscriptSerializer})
    def get(self, request: Request, trial_id: int) -> Response:
        trial = Trial.objects.filter(pk=trial_id).first()
        try:
            if trial is None:
                raise NotSeated(trial_id)
            seats = reader_seats(trial, request.user)
        except NotSeated:
            raise NotFound("no such trial") from None
        state = trial.engine_state
        stages = transcript_for(state, seats)
        return Response(s.TranscriptSerializer({"trial": trial.pk, "finished": state.finished, "stages": stages}).data)


def trajectories_readable(user) -> QuerySet[Trajectory]:
    """The trajectories ``user`` may read: imported ones and those of the trials they may read
    (``trials.access``): a student's private practice trial stays with its course's staff."""
    return Trajectory.objects.filter(Q(trial__isnull=True) | Q(trial__in=trials_readable(user=user)))


class TrajectoryListView(generics.ListAPIView):
    ability = Ability.TEACH
    serializer_class = s.TrajectoryListSerializer

    def get_queryset(self) -> QuerySet[Trajectory]:
        return trajectories_readable(self.request.user)


class TrajectoryDetailView(generics.RetrieveAPIView):
    """A trajectory in the trajectory-file format (what ``export_trajectories`` writes)."""

    ability = Ability.TEACH
    serializer_class = s.TrajectoryFileSerializer
    lookup_url_kwarg = "trajectory_id"

    def get_queryset(self) -> QuerySet[Trajectory]:
        return trajectories_readable(self.request.user)


class StudyListView(generics.ListAPIView):
    """The studies one owns, those shared with one, and those nobody owns (an admin: all)."""

    ability = Ability.TEACH
    serializer_class = s.StudySerializer

    def get_queryset(self):
        return studies_counted(user=self.request.user)


class StudyDetailView(generics.RetrieveAPIView):
    """A study with each rater's progress (the study dashboard)."""

    ability = Ability.TEACH
    serializer_class = s.StudyDetailSerializer
    lookup_url_kwarg = "study_id"

    def get_queryset(self):
        return studies_counted(user=self.request.user)

    def get_serializer_context(self) -> dict:
        context = super().get_serializer_context()
        if "study_id" in self.kwargs:
            study = get_object_or_404(studies_of(user=self.request.user), pk=self.kwargs["study_id"])
            context["progress"] = study_progress(study)
        return context


class RaterStudyListView(generics.ListAPIView):
    """The studies you rate for (where you may claim the next trajectory)."""

    ability = Ability.RATE
    serializer_class = s.RaterStudySerializer

    def get_queryset(self):
        return Study.objects.filter(raters=self.request.user)


class StudyClaimView(APIView):
    """Claim the next trajectory of a study you rate for; 204 when nothing is left."""

    ability = Ability.RATE

    @extend_schema(request=None, responses={201: s.AssignmentSerializer, 204: None})
    def post(self, request: Request, study_id: int) -> Response:
        if not Study.objects.filter(pk=study_id).exists():
            raise NotFound("no such study")
        try:
            assignment = assignment_claim(study_id=study_id, rater=request.user)
        except StudyError as error:
            raise NotFound(str(error)) from None
        if assignment is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(s.AssignmentSerializer(assignment).data, status=status.HTTP_201_CREATED)


class MyAssignments:
    """Raters reach only their own assignments; anyone else's is a 404."""

    def get_queryset(self):
        return Assignment.objects.filter(rater=self.request.user).select_related("study__rubric")


class AssignmentListView(MyAssignments, generics.ListAPIView):
    ability = Ability.RATE
    serializer_class = s.AssignmentSerializer

    def get_queryset(self):
        return super().get_queryset().order_by("status", "created_at")


class AssignmentDetailView(MyAssignments, generics.RetrieveAPIView):
    """The questionnaire: the rubric, your draft, and the trajectory (or the pair as A and B)."""

    ability = Ability.RATE
    serializer_class = s.AssignmentDetailSerializer
    lookup_url_kwarg = "assignment_id"

    def get_serializer_context(self) -> dict:
        context = super().get_serializer_context()
        if "assignment_id" in self.kwargs:
            context["panels"] = assignment_panels(self.get_object())
        return context


class AssignmentDraftView(MyAssignments, APIView):
    """Autosave: merge answers into the draft. Once the questionnaire is submitted, 409
    ``{"detail": "this questionnaire was submitted; it can no longer change"}`` and nothing
    changes (``api.exceptions``)."""

    ability = Ability.RATE

    @extend_schema(request=s.AnswersSerializer, responses={200: s.AssignmentSerializer, 409: s.DetailSerializer})
    def put(self, request: Request, assignment_id: int) -> Response:
        get_object_or_404(self.get_queryset(), pk=assignment_id)
        form = s.AnswersSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        assignment = draft_save(assignment_id=assignment_id, rater=request.user, answers=form.validated_data["answers"])
        return Response(s.AssignmentSerializer(assignment).data)


class RatingSubmitView(MyAssignments, APIView):
    """Submit the questionnaire of one of your assignments: the answers are saved as the web
    form saves them and submitted, in one step under the assignment's lock.

    Final and idempotent: the first complete submission answers 201 ``{"assignment", "status":
    "submitted", "already": false}``; every later one, concurrent ones included, answers 200
    with ``"already": true`` and changes nothing (its answers are ignored). 400 names every
    missing answer (they are kept as the draft); 409 when your ratings of this trajectory on
    this rubric are already stored from elsewhere (another study, an imported file)."""

    ability = Ability.RATE

    @extend_schema(
        request=s.RatingSubmitSerializer,
        responses={
            201: s.RatingSubmitResultSerializer,
            200: s.RatingSubmitResultSerializer,
            400: s.ProblemsSerializer,
            409: s.DetailSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        form = s.RatingSubmitSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        assignment = get_object_or_404(self.get_queryset(), pk=form.validated_data["assignment"])
        result = assignment_submit(
            assignment_id=assignment.pk, rater=request.user, answers=form.validated_data["answers"]
        )
        if result.problems:
            return Response({"problems": result.problems}, status=status.HTTP_400_BAD_REQUEST)
        body = {"assignment": assignment.pk, "status": result.assignment.status, "already": result.already}
        return Response(body, status=status.HTTP_200_OK if result.already else status.HTTP_201_CREATED)


class AgreementReportView(APIView):
    """The agreement report JSON (the agreement-report contract, docs/design.md section 4);
    for a pairwise rubric the pairwise report. 404 when there is nothing to compare (no judge,
    no rubric)."""

    ability = Ability.TEACH

    @extend_schema(
        parameters=[s.ReportQuerySerializer],
        responses={
            (200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT, description="the agreement report"),
            404: OpenApiTypes.OBJECT,
        },
    )
    def get(self, request: Request) -> HttpResponse:
        query = s.ReportQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        rubric = Rubric.objects.filter(pk=params["rubric"]).first()
        if rubric is None:
            raise NotFound(f"no rubric {params['rubric']!r}")
        study = None
        if "study" in params:
            study = studies_of(user=request.user).filter(pk=params["study"], rubric=rubric).first()
            if study is None:
                raise NotFound(f"no study {params['study']} on rubric {rubric.pk!r}")
        try:
            content, _summary = report_file(
                rubric=rubric, judge=params.get("judge"), study=study, fmt="json", replicates=params["bootstrap"]
            )
        except AgreementError as error:
            raise NotFound(str(error)) from None
        return HttpResponse(content, content_type="application/json")
