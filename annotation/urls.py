from django.urls import path

from annotation import staff_views, views

app_name = "annotation"
urlpatterns = [
    path("", views.rater_queue, name="rater_queue"),
    path("studies/<int:study_id>/next/", views.assignment_next, name="assignment_next"),
    path("<int:assignment_id>/", views.assignment_page, name="assignment"),
    path("<int:assignment_id>/stage/<int:index>/", views.assignment_stage, name="assignment_stage"),
    path("<int:assignment_id>/stage/<str:side>/<int:index>/", views.assignment_stage, name="assignment_pair_stage"),
    path("<int:assignment_id>/draft/", views.assignment_draft, name="assignment_draft"),
    path("<int:assignment_id>/submit/", views.assignment_submit_view, name="assignment_submit"),
    path("studies/", staff_views.study_list, name="study_list"),
    path("studies/<int:study_id>/", staff_views.study_dashboard, name="study_dashboard"),
    path("studies/<int:study_id>/jobs/", staff_views.study_jobs, name="study_jobs"),
    path("studies/<int:study_id>/report/", staff_views.study_report, name="study_report"),
    path("studies/<int:study_id>/judge/", staff_views.study_judge, name="study_judge"),
    path("studies/<int:study_id>/export/", staff_views.study_export, name="study_export"),
    path("jobs/<int:job_id>/", staff_views.job_page, name="job"),
    path("jobs/<int:job_id>/progress/", staff_views.job_progress, name="job_progress"),
    path("jobs/<int:job_id>/download/", staff_views.job_download, name="job_download"),
]
