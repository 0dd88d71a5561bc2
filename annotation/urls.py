from django.urls import path

from annotation import views

app_name = "annotation"
urlpatterns = [
    path("", views.rater_queue, name="rater_queue"),
    path("studies/<int:study_id>/next/", views.assignment_next, name="assignment_next"),
    path("<int:assignment_id>/", views.assignment_page, name="assignment"),
    path("<int:assignment_id>/stage/<int:index>/", views.assignment_stage, name="assignment_stage"),
    path("<int:assignment_id>/draft/", views.assignment_draft, name="assignment_draft"),
    path("<int:assignment_id>/submit/", views.assignment_submit_view, name="assignment_submit"),
]
