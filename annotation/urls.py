from django.urls import path

from annotation import course_views, quality_views, setup_views, staff_views, views

app_name = "annotation"
urlpatterns = [
    path("", views.rater_queue, name="rater_queue"),
    path("studies/<int:study_id>/next/", views.assignment_next, name="assignment_next"),
    path("<int:assignment_id>/", views.assignment_page, name="assignment"),
    path("<int:assignment_id>/stage/<int:index>/", views.assignment_stage, name="assignment_stage"),
    path("<int:assignment_id>/stage/<str:side>/<int:index>/", views.assignment_stage, name="assignment_pair_stage"),
    path("<int:assignment_id>/draft/", views.assignment_draft, name="assignment_draft"),
    path("<int:assignment_id>/submit/", views.assignment_submit_view, name="assignment_submit"),
    path("<int:assignment_id>/feedback/", quality_views.training_feedback_page, name="training_feedback"),
    path("studies/<int:study_id>/instructions/", views.study_instructions, name="study_instructions"),
    path("studies/", staff_views.study_list, name="study_list"),
    path("studies/new/", setup_views.study_new, name="study_new"),
    path("studies/<int:study_id>/", staff_views.study_dashboard, name="study_dashboard"),
    path("studies/<int:study_id>/jobs/", staff_views.study_jobs, name="study_jobs"),
    path("studies/<int:study_id>/report/", staff_views.study_report, name="study_report"),
    path("studies/<int:study_id>/judge/", staff_views.study_judge, name="study_judge"),
    path("studies/<int:study_id>/export/", staff_views.study_export, name="study_export"),
    path("studies/<int:study_id>/quality/", quality_views.study_quality, name="study_quality"),
    path("studies/<int:study_id>/adjudication/", quality_views.adjudication_queue, name="adjudication_queue"),
    path(
        "studies/<int:study_id>/adjudication/<str:item>/<path:trajectory_id>",
        quality_views.adjudication_item,
        name="adjudication_item",
    ),
    path("courses/<slug:slug>/practice-trials/", course_views.course_practice_trials, name="course_practice_trials"),
    path("jobs/<int:job_id>/", staff_views.job_page, name="job"),
    path("jobs/<int:job_id>/progress/", staff_views.job_progress, name="job_progress"),
    path("jobs/<int:job_id>/download/", staff_views.job_download, name="job_download"),
]
