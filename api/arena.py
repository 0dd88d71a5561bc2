"""The arena over the API: comparisons of configurations, their leaderboards, the next blind
pair for a rater and the rater's votes (docs/arena.md)."""

from __future__ import annotations

import numpy as np
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.models import Trajectory
from api.parsers import JSONParser
from arena.configurations import masked
from arena.models import Comparison
from arena.selectors import comparisons_of, contest_next, leaderboard_build
from arena.services import ANSWERS, ArenaError, batch_trajectory_ids, comparison_create, shown_token, votes_submit
from legalsim.roles import Ability
from trials.models import Batch


class ComparisonSerializer(serializers.ModelSerializer):
    configurations = serializers.SerializerMethodField()
    pairs = serializers.SerializerMethodField()

    class Meta:
        model = Comparison
        fields = ("id", "name", "rubric", "uniform_share", "configurations", "pairs", "created_at")

    def get_configurations(self, comparison: Comparison) -> list[dict]:
        return [{"name": c.name, "settings": c.settings} for c in comparison.configurations.all()]

    def get_pairs(self, comparison: Comparison) -> int:
        return comparison.contests.count()


class ComparisonCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    rubric = serializers.CharField(default="simcourt30")
    batch = serializers.IntegerField(required=False)
    trajectory_ids = serializers.ListField(child=serializers.CharField(max_length=200), required=False, default=list)
    configurations = serializers.ListField(child=serializers.CharField(max_length=300), required=False)
    raters = serializers.ListField(child=serializers.CharField(max_length=150), required=False, default=list)


class VoteSerializer(serializers.Serializer):
    pair = serializers.IntegerField()
    shown = serializers.CharField(help_text="the token the next-pair answer gave with the pair")
    answers = serializers.DictField(child=serializers.ChoiceField(choices=ANSWERS))


class ComparisonListView(APIView):
    """Your comparisons (GET); a new one from a batch or trajectory ids (POST)."""

    ability = Ability.TEACH
    parser_classes = (JSONParser,)

    @extend_schema(responses={200: ComparisonSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(ComparisonSerializer(comparisons_of(user=request.user), many=True).data)

    @extend_schema(request=ComparisonCreateSerializer, responses={201: ComparisonSerializer})
    def post(self, request: Request) -> Response:
        given = ComparisonCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        batch = Batch.objects.filter(pk=data["batch"]).first() if "batch" in data else None
        if "batch" in data and batch is None:
            raise ValidationError({"batch": f"no batch {data['batch']}"})
        raters = list(get_user_model().objects.filter(username__in=data["raters"]))
        unknown = sorted(set(data["raters"]) - {rater.username for rater in raters})
        if unknown:
            raise ValidationError({"raters": f"no such people: {', '.join(unknown)}"})
        try:
            comparison = comparison_create(
                name=data["name"],
                rubric_id=data["rubric"],
                trajectory_ids=batch_trajectory_ids(batch) if batch else data["trajectory_ids"],
                raters=raters,
                owner=request.user,
                batch=batch,
                configurations=data.get("configurations"),
            )
        except ArenaError as error:
            raise ValidationError({"detail": str(error)}) from None
        return Response(ComparisonSerializer(comparison).data, status=status.HTTP_201_CREATED)


class LeaderboardView(APIView):
    """The leaderboards of a comparison (``?item=`` one item of the rubric; default all)."""

    ability = Ability.TEACH

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, comparison_id: int) -> Response:
        comparison = get_object_or_404(comparisons_of(user=request.user), pk=comparison_id)
        try:
            return Response(leaderboard_build(comparison, item=request.query_params.get("item", "")))
        except KeyError as error:
            raise ValidationError({"item": str(error.args[0])}) from None


class NextPairView(APIView):
    """The next blind pair for you to vote on (A and B with the configuration names masked); 204 when none."""

    ability = Ability.RATE

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 204: None})
    def get(self, request: Request, comparison_id: int) -> Response:
        comparison = get_object_or_404(Comparison.objects.filter(raters=request.user), pk=comparison_id)
        drawn = contest_next(comparison, request.user, np.random.default_rng())
        if drawn is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        contest, first_shown_as_a = drawn
        ids = (contest.first_trajectory, contest.second_trajectory)
        shown = ids if first_shown_as_a else ids[::-1]
        records = {t.pk: t.as_contract() for t in Trajectory.objects.filter(pk__in=ids)}
        models = [str(c.settings.get("model", "")) for c in comparison.configurations.all()]
        if set(ids) - records.keys():
            raise NotFound("a trajectory of this pair is not stored here")
        blind = [masked(records[tid], models) | {"id": ""} for tid in shown]
        return Response(
            {
                "pair": contest.pk,
                "shown": shown_token(contest, first_shown_as_a),
                "a": blind[0],
                "b": blind[1],
                "items": list(comparison.rubric.definition.item_ids),
            }
        )


class VoteView(APIView):
    """Your answers on every item of one pair: A, B, tie or both_bad. Given once."""

    ability = Ability.RATE
    parser_classes = (JSONParser,)

    @extend_schema(request=VoteSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, comparison_id: int) -> Response:
        comparison = get_object_or_404(Comparison.objects.filter(raters=request.user), pk=comparison_id)
        given = VoteSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            votes = votes_submit(
                comparison=comparison,
                contest_id=given.validated_data["pair"],
                rater=request.user,
                token=given.validated_data["shown"],
                answers=given.validated_data["answers"],
            )
        except ArenaError as error:
            raise ValidationError({"detail": str(error)}) from None
        return Response({"stored": len(votes)}, status=status.HTTP_201_CREATED)
