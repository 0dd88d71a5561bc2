from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from api import arena, views
from api.permissions import PUBLIC
from legalsim.csp import HEADER


class SchemaView(SpectacularAPIView):
    ability = PUBLIC


class SwaggerView(SpectacularSwaggerSplitView):
    """Swagger UI from the pinned copy of drf-spectacular-sidecar, served as this site's static
    files, its start-up script a second request to this view (``?script``) rather than inline:
    the page runs under the site's own policy (``legalsim.csp``), its one inline style carrying
    the request's nonce."""

    ability = PUBLIC
    template_name = "api/swagger_ui.html"


REDOC_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
"""Redoc's page: scripts only from this site (the sidecar's pinned Redoc, no inline script),
but styles inline, since Redoc writes its own ``<style>`` elements with no way to give them a
nonce, and a search worker built from a blob. The page shows no case or trial data, only the
schema."""


class RedocView(SpectacularRedocView):
    ability = PUBLIC
    template_name = "api/redoc.html"

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response.headers[HEADER] = REDOC_POLICY
        return response


app_name = "api"
urlpatterns = [
    path("token/", views.TokenObtainView.as_view(), name="token"),
    path("cases/", views.CaseListView.as_view(), name="case_list"),
    path("cases/import/", views.CaseImportView.as_view(), name="case_import"),
    re_path(r"^cases/(?P<case_id>[A-Za-z0-9._-]{1,120})/$", views.CaseDetailView.as_view(), name="case_detail"),
    path("trials/", views.TrialListView.as_view(), name="trial_list"),
    path("trials/<int:trial_id>/", views.TrialDetailView.as_view(), name="trial_detail"),
    path("trials/<int:trial_id>/seats/", views.TrialSeatsView.as_view(), name="trial_seats"),
    re_path(
        r"^trials/(?P<trial_id>[0-9]+)/seats/(?P<seat>[a-z_]+)/$", views.TrialSeatView.as_view(), name="trial_seat"
    ),
    path("trials/<int:trial_id>/transcript/", views.TrialTranscriptView.as_view(), name="trial_transcript"),
    path("trajectories/", views.TrajectoryListView.as_view(), name="trajectory_list"),
    re_path(
        r"^trajectories/(?P<trajectory_id>[^/\x00]{1,200})/$",
        views.TrajectoryDetailView.as_view(),
        name="trajectory_detail",
    ),
    path("studies/", views.StudyListView.as_view(), name="study_list"),
    path("studies/mine/", views.RaterStudyListView.as_view(), name="rater_study_list"),
    path("studies/<int:study_id>/", views.StudyDetailView.as_view(), name="study_detail"),
    path("studies/<int:study_id>/claim/", views.StudyClaimView.as_view(), name="study_claim"),
    path("assignments/", views.AssignmentListView.as_view(), name="assignment_list"),
    path("assignments/<int:assignment_id>/", views.AssignmentDetailView.as_view(), name="assignment_detail"),
    path("assignments/<int:assignment_id>/draft/", views.AssignmentDraftView.as_view(), name="assignment_draft"),
    path("ratings/", views.RatingSubmitView.as_view(), name="rating_submit"),
    path("reports/agreement/", views.AgreementReportView.as_view(), name="agreement_report"),
    path("arena/comparisons/", arena.ComparisonListView.as_view(), name="arena_comparisons"),
    path(
        "arena/comparisons/<int:comparison_id>/leaderboard/",
        arena.LeaderboardView.as_view(),
        name="arena_leaderboard",
    ),
    path("arena/comparisons/<int:comparison_id>/next/", arena.NextPairView.as_view(), name="arena_next"),
    path("arena/comparisons/<int:comparison_id>/votes/", arena.VoteView.as_view(), name="arena_votes"),
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", SwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", RedocView.as_view(url_name="api:schema"), name="redoc"),
]
