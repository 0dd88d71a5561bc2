from django.urls import path

from classroom import assignment_views, gradebook_views, roster_views, views

app_name = "classroom"
urlpatterns = [
    path("teaching/courses/", views.courses, name="courses"),
    path("teaching/courses/<slug:slug>/", views.course_page, name="course"),
    path("teaching/courses/<slug:slug>/enrol/", views.course_enrol_view, name="course_enrol"),
    path("teaching/courses/<slug:slug>/roster/", roster_views.course_roster_upload, name="course_roster"),
    path("teaching/courses/<slug:slug>/rosters/<int:job_id>/", roster_views.roster_job_page, name="roster_job"),
    path(
        "teaching/courses/<slug:slug>/rosters/<int:job_id>/links.csv",
        roster_views.roster_links_download,
        name="roster_links",
    ),
    path(
        "teaching/courses/<slug:slug>/students/<int:student_id>/unenrol/",
        views.course_unenrol_view,
        name="course_unenrol",
    ),
    path("teaching/courses/<slug:slug>/invite-code/", views.course_invite_code, name="course_invite_code"),
    path("teaching/courses/<slug:slug>/instructors/", views.course_instructor_add, name="course_instructor_add"),
    path(
        "teaching/courses/<slug:slug>/assignments/", assignment_views.assignment_create_view, name="assignment_create"
    ),
    path(
        "teaching/courses/<slug:slug>/assignments/<int:assignment_id>/pairs/",
        assignment_views.assignment_pairs_view,
        name="assignment_pairs",
    ),
    path(
        "teaching/courses/<slug:slug>/assignments/<int:assignment_id>/",
        gradebook_views.class_view_page,
        name="class_view",
    ),
    path(
        "teaching/courses/<slug:slug>/assignments/<int:assignment_id>/edit/",
        assignment_views.assignment_edit_view,
        name="assignment_edit",
    ),
    path(
        "teaching/courses/<slug:slug>/assignments/<int:assignment_id>/delete/",
        assignment_views.assignment_delete_view,
        name="assignment_delete",
    ),
    path(
        "teaching/courses/<slug:slug>/assignments/<int:assignment_id>/extensions/",
        assignment_views.extension_view,
        name="assignment_extension",
    ),
    path(
        "teaching/courses/<slug:slug>/gradebook/<int:assignment_id>/release/",
        gradebook_views.grades_release_view,
        name="grades_release",
    ),
    path("teaching/courses/<slug:slug>/gradebook/", gradebook_views.gradebook_page, name="gradebook"),
    path(
        "teaching/courses/<slug:slug>/gradebook/attempt/",
        gradebook_views.gradebook_attempt_view,
        name="gradebook_attempt",
    ),
    path(
        "teaching/courses/<slug:slug>/gradebook/<int:assignment_id>/<int:student_id>/",
        gradebook_views.grade_save_view,
        name="grade_save",
    ),
    path(
        "teaching/courses/<slug:slug>/gradebook.<str:fmt>",
        gradebook_views.gradebook_download,
        name="gradebook_download",
    ),
    path("teaching/trials/<int:trial_id>/comments/", views.comment_add_view, name="comment_add"),
    path("feedback/", views.feedback_page, name="feedback"),
    path("feedback/<int:comment_id>/reply/", views.comment_reply_view, name="comment_reply"),
    path("courses/", views.my_courses, name="my_courses"),
    path("assignments/", views.my_assignments, name="my_assignments"),
    path("assignments/<int:assignment_id>/", views.my_assignment, name="my_assignment"),
    path("assignments/<int:assignment_id>/start/", views.assignment_start_view, name="assignment_start"),
]
