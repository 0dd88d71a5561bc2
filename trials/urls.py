from django.urls import path

from trials import skill_note_views, views
from trials.caselibrary import authoring_views

app_name = "trials"
urlpatterns = [
    path("", views.home, name="home"),
    path("cases/", views.case_library, name="case_library"),
    path("cases/<str:case_id>/", views.case_detail, name="case_detail"),
    path("cases/<str:case_id>/play/", views.trial_play, name="trial_play"),
    path("trials/<int:trial_id>/", views.trial_room, name="trial_room"),
    path("trials/<int:trial_id>/join/", views.trial_join, name="trial_join"),
    path("trials/<int:trial_id>/invite/", views.trial_invite, name="trial_invite"),
    path("trials/<int:trial_id>/invitations/<str:token>/", views.trial_invitation, name="trial_invitation"),
    path("trials/<int:trial_id>/leave/", views.trial_leave, name="trial_leave"),
    path("trials/<int:trial_id>/retake/", views.trial_retake, name="trial_retake"),
    path("trials/<int:trial_id>/transcript/", views.trial_transcript, name="trial_transcript"),
    path("authoring/cases/", authoring_views.case_drafts, name="case_drafts"),
    path("authoring/cases/new/", authoring_views.case_draft_new, name="case_draft_new"),
    path("authoring/cases/upload/", authoring_views.case_upload, name="case_upload"),
    path("authoring/cases/<int:draft_id>/", authoring_views.case_draft, name="case_draft"),
    path("authoring/cases/edit/<str:case_id>/", authoring_views.case_edit, name="case_edit"),
    path("scoring/notes/", skill_note_views.skill_notes, name="skill_notes"),
    path("scoring/notes/<int:note_id>/", skill_note_views.skill_note_edit, name="skill_note_edit"),
    path("scoring/notes/<int:note_id>/delete/", skill_note_views.skill_note_delete, name="skill_note_delete"),
    path("batches/", views.batch_list, name="batches"),
    path("batches/<int:batch_id>/", views.batch_page, name="batch"),
    path("batches/<int:batch_id>/progress/", views.batch_progress_fragment, name="batch_progress"),
]
