from django.contrib import admin

from arena.models import Comparison, Configuration, Contest, Vote


@admin.register(Comparison)
class ComparisonAdmin(admin.ModelAdmin):
    list_display = ("name", "rubric", "owner", "created_at")
    filter_horizontal = ("raters",)


@admin.register(Configuration)
class ConfigurationAdmin(admin.ModelAdmin):
    list_display = ("name", "comparison")


@admin.register(Contest)
class ContestAdmin(admin.ModelAdmin):
    list_display = ("__str__", "comparison", "case_id", "seat", "first", "second")


@admin.register(Vote)
class VoteAdmin(admin.ModelAdmin):
    list_display = ("contest", "item", "source", "rater", "judge", "outcome", "created_at")
    list_filter = ("source", "outcome")
