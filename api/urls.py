from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from api import views
from api.permissions import PUBLIC


class SchemaView(SpectacularAPIView):
    ability = PUBLIC


DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://cdn.jsdelivr.net; font-src 'self' https://fonts.gstatic.com; "
    "worker-src blob:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'"
)
"""The one relaxed Content-Security-Policy: the API documentation pages run Swagger UI and
Redoc, which drf-spectacular loads from their CDN with an inline bootstrap script. These pages
show no case or trial data (only the schema)."""


class DocsPage:
    ability = PUBLIC

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response.headers["Content-Security-Policy"] = DOCS_POLICY
        return response


class SwaggerView(DocsPage, SpectacularSwaggerView):
    pass


class RedocView(DocsPage, SpectacularRedocView):
    pass


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
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", SwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", RedocView.as_view(url_name="api:schema"), name="redoc"),
]
