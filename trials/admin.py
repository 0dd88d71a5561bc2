"""The admin site's view of cases and trials, for admins (``administer``).

A trial's state and records are written by the engine through ``trials.store`` only, so the
admin shows them read-only; cases are edited through the case file's validators (the case
pages and ``import_cases``), so the admin lists them and shows their seed read-only too.
"""

from django.contrib import admin

from trials.models import Case, Seat, Trial


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "procedure", "language", "cause_of_action", "imported_at")
    list_filter = ("procedure", "language")
    search_fields = ("id", "title", "cause_of_action")
    readonly_fields = ("id", "procedure", "title", "language", "cause_of_action", "seed", "source_file", "imported_at")


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("seat", "user", "agent_model")
    readonly_fields = ("seat", "agent_model")
    raw_id_fields = ("user",)


@admin.register(Trial)
class TrialAdmin(admin.ModelAdmin):
    list_display = ("id", "case", "procedure", "status", "live", "course", "created_by", "created_at", "finished_at")
    list_filter = ("status", "procedure", "live", "backend")
    search_fields = ("case__id", "case__title", "created_by__username")
    raw_id_fields = ("case", "created_by", "course")
    readonly_fields = (
        "procedure",
        "target_side",
        "backend",
        "state",
        "version",
        "tokens",
        "first_stage",
        "driver",
        "driver_until",
        "created_at",
        "finished_at",
    )
    inlines = [SeatInline]
