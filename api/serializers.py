"""Thin serializers: they shape input and output; the services and selectors decide."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotation.models import Assignment, Study, Trajectory
from annotation.numbers import ACTIVE_MS_MAX
from court.engine.brief import case_brief
from court.engine.visibility import public_header
from court.procedures.seats import PLAYABLE_SEATS
from legalsim.roles import Ability, can
from trials.access import case_seats_open, seats_of, trial_overseer
from trials.models import Case, Trial
from trials.selectors import seats_open_to

ALL_PLAYABLE = sorted({seat for seats in PLAYABLE_SEATS.values() for seat in seats})


class CaseSerializer(serializers.ModelSerializer):
    trial_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Case
        fields = ["id", "procedure", "title", "language", "cause_of_action", "trial_count"]


class CaseQuerySerializer(serializers.Serializer):
    q = serializers.CharField(required=False, allow_blank=True, help_text="words of the title, cause of action or id")
    procedure = serializers.ChoiceField(choices=["civil", "criminal"], required=False)


class CaseDetailSerializer(serializers.ModelSerializer):
    seed = serializers.SerializerMethodField(
        help_text="instructors: the whole case file; anyone else: what is public before a trial "
        "(title, cause of action, court, parties, provenance)"
    )
    brief = serializers.SerializerMethodField(
        help_text="with ?seat=SEAT (and ?target_side=): what that seat may see at its first stage"
    )

    class Meta:
        model = Case
        fields = ["id", "procedure", "title", "language", "cause_of_action", "seed", "brief"]

    def get_seed(self, case: Case) -> dict[str, Any]:
        """The same split as the case page: one visibility rule (``case_brief``) for both."""
        if can(self.context["request"].user, Ability.TEACH):
            return case.seed
        return {**public_header(case.seed), "provenance": case.seed.get("provenance")}

    def get_brief(self, case: Case) -> dict[str, Any] | None:
        query = self.context["request"].query_params
        seat = query.get("seat")
        if seat not in case_seats_open(case, self.context["request"].user):
            return None
        return case_brief(case.seed, seat, target_side=query.get("target_side"))


class CaseImportSerializer(serializers.Serializer):
    files = serializers.ListField(child=serializers.FileField(), allow_empty=False)
    replace = serializers.BooleanField(
        default=False,
        help_text="true: replace the library cases whose ids the files hold (yours, or any for an admin); "
        "without it such an upload stores nothing and answers 409 naming them",
    )


class CaseImportFileSerializer(serializers.Serializer):
    file = serializers.CharField(help_text="the uploaded file's name")
    status = serializers.ChoiceField(
        choices=["stored", "refused"], help_text="stored: every case of the file; refused: none of them"
    )
    imported = serializers.ListField(child=serializers.CharField(), help_text="ids of the cases stored from it")
    problems = serializers.ListField(child=serializers.CharField(), help_text="FILE:LINE: field: message")


class CaseImportResultSerializer(serializers.Serializer):
    imported = serializers.ListField(child=serializers.CharField())
    problems = serializers.ListField(child=serializers.CharField(), help_text="FILE:LINE: field: message")
    rejected_files = serializers.ListField(child=serializers.CharField())
    files = CaseImportFileSerializer(many=True, help_text="every uploaded file's verdict, in upload order")


class CaseInLibrarySerializer(serializers.Serializer):
    case = serializers.CharField(help_text="the id of a case the library holds already")
    file = serializers.CharField(help_text="the uploaded file holding it")
    trials = serializers.IntegerField(help_text="trials played on the case")
    assignments = serializers.IntegerField(help_text="course assignments of the case")
    yours = serializers.BooleanField(help_text="whether you may replace it (its uploader, or an admin)")


class CaseImportHeldSerializer(serializers.Serializer):
    detail = serializers.CharField()
    in_library = CaseInLibrarySerializer(many=True, help_text="every case of the upload the library holds already")


class TrialCreateSerializer(serializers.Serializer):
    case = serializers.CharField(help_text="case id")
    seats = serializers.ListField(
        child=serializers.ChoiceField(choices=ALL_PLAYABLE),
        allow_empty=False,
        help_text="seats you play (at least one: a trial nobody plays is a simulation, see `simulate`)",
    )
    stages = serializers.ListField(
        child=serializers.CharField(), required=False, default=list, help_text="stages to play; empty: all"
    )
    target_side = serializers.ChoiceField(choices=["plaintiff", "defendant"], required=False, allow_null=True)

    def validate_case(self, value: str) -> Case:
        case = Case.objects.filter(pk=value).first()
        if case is None:
            raise serializers.ValidationError(f"no case {value!r}")
        return case

    def validate(self, data: dict) -> dict:
        playable = case_seats_open(data["case"], self.context["request"].user)
        unplayable = [seat for seat in data["seats"] if seat not in playable]
        if unplayable:
            raise serializers.ValidationError(
                {"seats": f"not a seat you may play in this case: {', '.join(unplayable)}"}
            )
        return data


class TrialSerializer(serializers.ModelSerializer):
    """``seats`` (who holds which: ``human:USERNAME`` or ``agent:MODEL``) only for the people
    seated and instructors; anyone else sees the seats they may take, as on the join page."""

    case_title = serializers.CharField(source="case.title", read_only=True)
    ws_path = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    my_seats = serializers.SerializerMethodField()
    open_seats = serializers.SerializerMethodField()

    class Meta:
        model = Trial
        fields = [
            "id",
            "case",
            "case_title",
            "procedure",
            "status",
            "target_side",
            "created_at",
            "finished_at",
            "ws_path",
            "seats",
            "my_seats",
            "open_seats",
        ]

    def _mine(self, trial: Trial) -> list[str]:
        return seats_of(trial, self.context["request"].user)

    def _teacher(self, trial: Trial) -> bool:
        return trial_overseer(trial, self.context["request"].user)

    def get_ws_path(self, trial: Trial) -> str:
        return f"/ws/trials/{trial.pk}/"

    def get_seats(self, trial: Trial) -> dict[str, str]:
        if not (self._teacher(trial) or self._mine(trial)):
            return {}
        return {seat.seat: seat.holder for seat in trial.seats.select_related("user").order_by("id")}

    def get_my_seats(self, trial: Trial) -> list[str]:
        return self._mine(trial)

    def get_open_seats(self, trial: Trial) -> list[str]:
        if not self._teacher(trial):
            return []
        return seats_open_to(trial, my_seats=self._mine(trial), teacher=True)


class SeatSerializer(serializers.Serializer):
    seat = serializers.CharField()
    invitation = serializers.CharField(
        required=False, allow_blank=True, help_text="the token of an invitation link (/trials/ID/invitations/TOKEN/)"
    )


class TurnSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    stage = serializers.CharField()
    phase = serializers.CharField()
    role = serializers.CharField()
    side = serializers.CharField()
    speaker = serializers.CharField()
    author = serializers.CharField()
    text = serializers.CharField()


class ArtifactSerializer(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    text = serializers.CharField()


class TranscriptStageSerializer(serializers.Serializer):
    stage = serializers.CharField()
    turns = TurnSerializer(many=True)
    artifacts = ArtifactSerializer(many=True)


class TranscriptSerializer(serializers.Serializer):
    trial = serializers.IntegerField()
    finished = serializers.BooleanField()
    stages = TranscriptStageSerializer(many=True)


class TrajectoryListSerializer(serializers.ModelSerializer):
    class Meta:
        model = Trajectory
        fields = ["id", "case_id", "procedure", "language", "title", "created_at"]


class TrajectoryFileSerializer(serializers.Serializer):
    """The trajectory-file contract (docs/design.md, section 4), as ``Trajectory.as_contract``
    writes it."""

    id = serializers.CharField()
    case_id = serializers.CharField()
    procedure = serializers.CharField()
    language = serializers.CharField()
    title = serializers.CharField()
    stages = serializers.ListField(child=serializers.DictField())
    meta = serializers.DictField()

    def to_representation(self, trajectory: Trajectory) -> dict[str, Any]:
        return trajectory.as_contract()


class StudySerializer(serializers.ModelSerializer):
    n_raters = serializers.IntegerField(read_only=True)
    n_assignments = serializers.IntegerField(read_only=True)
    n_submitted = serializers.IntegerField(read_only=True)

    class Meta:
        model = Study
        fields = [
            "id",
            "name",
            "rubric",
            "raters_per_trajectory",
            "trajectory_ids",
            "created_at",
            "n_raters",
            "n_assignments",
            "n_submitted",
        ]


class RaterProgressSerializer(serializers.Serializer):
    rater = serializers.CharField(source="rater__username")
    total = serializers.IntegerField()
    submitted = serializers.IntegerField()
    drafts = serializers.IntegerField()


class StudyDetailSerializer(StudySerializer):
    progress = serializers.SerializerMethodField()

    class Meta(StudySerializer.Meta):
        fields = [*StudySerializer.Meta.fields, "progress"]

    @extend_schema_field(RaterProgressSerializer(many=True))
    def get_progress(self, study: Study) -> list[dict[str, Any]]:
        return RaterProgressSerializer(self.context["progress"], many=True).data


class RaterStudySerializer(serializers.ModelSerializer):
    class Meta:
        model = Study
        fields = ["id", "name", "rubric"]


class AssignmentSerializer(serializers.ModelSerializer):
    """``unit`` is what the rater is shown: a pair's trajectory ids never are."""

    study_name = serializers.CharField(source="study.name", read_only=True)
    rubric = serializers.CharField(source="study.rubric_id", read_only=True)
    unit = serializers.CharField(source="label", read_only=True)

    class Meta:
        model = Assignment
        fields = ["id", "study", "study_name", "rubric", "unit", "status", "created_at", "submitted_at"]


class PanelSerializer(serializers.Serializer):
    side = serializers.CharField(help_text='"" for one trajectory; "A" or "B" for a pair')
    title = serializers.CharField()
    stages = serializers.ListField(child=serializers.DictField())


class AssignmentDetailSerializer(AssignmentSerializer):
    draft = serializers.JSONField(read_only=True)
    rubric_document = serializers.JSONField(source="study.rubric.document", read_only=True)
    panels = serializers.SerializerMethodField()

    class Meta(AssignmentSerializer.Meta):
        fields = [*AssignmentSerializer.Meta.fields, "draft", "rubric_document", "panels"]

    @extend_schema_field(PanelSerializer(many=True))
    def get_panels(self, assignment: Assignment) -> list[dict[str, Any]]:
        return PanelSerializer(self.context["panels"], many=True).data


class AnswerSerializer(serializers.Serializer):
    score = serializers.CharField(required=False, allow_blank=True, help_text="an integer, or A / B / draw")
    reason = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    active_ms = serializers.IntegerField(required=False, min_value=0, max_value=ACTIVE_MS_MAX)


class AnswersSerializer(serializers.Serializer):
    answers = serializers.DictField(child=AnswerSerializer(), help_text="item id -> answer")


class RatingSubmitSerializer(AnswersSerializer):
    assignment = serializers.IntegerField()


class RatingSubmitResultSerializer(serializers.Serializer):
    """201 for the submission that stored the ratings; 200 with ``already`` for any other."""

    assignment = serializers.IntegerField()
    status = serializers.CharField()
    already = serializers.BooleanField(
        help_text="false: this request stored the ratings (201); true: it was submitted before, or by a concurrent "
        "request, and nothing changed (200)"
    )


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="why the request was refused")


class ProblemsSerializer(serializers.Serializer):
    problems = serializers.DictField(child=serializers.CharField(), help_text="item id -> what is missing")


class ReportQuerySerializer(serializers.Serializer):
    rubric = serializers.CharField(default="legalworld16")
    judge = serializers.CharField(required=False, help_text="the LLM judge's model (needed when several judged)")
    study = serializers.IntegerField(required=False, help_text="only this study's trajectories and raters")
    bootstrap = serializers.IntegerField(default=1000, min_value=0, max_value=1000)


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
