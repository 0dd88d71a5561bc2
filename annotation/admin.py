from django.contrib import admin, messages
from django.utils.translation import gettext_lazy, ngettext

from annotation.models import Assignment, JudgeFlag, Rating, Rubric, Study, Trajectory
from annotation.studies import StudyError, study_plan


@admin.register(Study)
class StudyAdmin(admin.ModelAdmin):
    list_display = ("name", "rubric", "raters_per_trajectory", "created_at")
    filter_horizontal = ("raters", "shared_with")
    actions = ("plan_assignments",)

    @admin.action(description=gettext_lazy("Plan assignments (k raters per trajectory, balanced)"))
    def plan_assignments(self, request, queryset) -> None:
        for study in queryset:
            try:
                created = study_plan(study=study)
            except StudyError as error:
                self.message_user(request, f"{study}: {error}", messages.ERROR)
            else:
                self.message_user(
                    request,
                    ngettext(
                        "%(study)s: %(count)d assignment created", "%(study)s: %(count)d assignments created", created
                    )
                    % {"study": study, "count": created},
                )


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("study", "trajectory_id", "rater", "status", "submitted_at")
    list_filter = ("study", "status")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("trajectory_id", "item", "rater", "source", "score")
    list_filter = ("rubric", "source")


admin.site.register((Rubric, Trajectory, JudgeFlag))
