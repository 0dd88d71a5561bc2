from django.contrib import admin

from classroom.models import Assignment, Attempt, Course, Enrolment, Extension


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("slug", "title", "term", "language", "created_at")
    search_fields = ("slug", "title")
    filter_horizontal = ("instructors",)


@admin.register(Enrolment)
class EnrolmentAdmin(admin.ModelAdmin):
    list_display = ("course", "user", "created_at")
    list_filter = ("course",)
    raw_id_fields = ("user",)


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("title", "course", "case", "opens_at", "due_at", "attempts_allowed", "paired")
    list_filter = ("course",)
    raw_id_fields = ("case",)


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("assignment", "student", "number", "trial", "started_at", "submitted_at")
    raw_id_fields = ("student", "trial")


@admin.register(Extension)
class ExtensionAdmin(admin.ModelAdmin):
    list_display = ("assignment", "student", "due_at", "granted_by", "created_at")
    list_filter = ("assignment__course",)
    raw_id_fields = ("student", "granted_by")
