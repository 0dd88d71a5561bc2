from django.db import migrations


def fill_stage_ids(apps, schema_editor):
    """Trajectories stored before ``stage_ids`` get theirs from their stages (they are
    immutable, so an update of the queryset, which skips ``save``, is the only way)."""
    trajectory_model = apps.get_model("annotation", "Trajectory")
    for pk, stages in trajectory_model.objects.values_list("pk", "stages").iterator(chunk_size=500):
        stage_ids = [
            str(stage["stage"]) for stage in stages or [] if isinstance(stage, dict) and "stage" in stage
        ]
        trajectory_model.objects.filter(pk=pk).update(stage_ids=stage_ids)


def link_ratings_to_studies(apps, schema_editor):
    """A questionnaire's ratings (not imported, by a person) join the study of the submitted
    assignment they came from. Before studies scoped ratings, a rater's ratings of a
    trajectory on a rubric could come from one study only, so the match is unambiguous."""
    assignment_model = apps.get_model("annotation", "Assignment")
    rating_model = apps.get_model("annotation", "Rating")
    submitted = assignment_model.objects.filter(status="submitted").values_list(
        "study_id", "study__rubric_id", "trajectory_id", "rater__username"
    )
    for study_id, rubric_id, trajectory_id, username in submitted.iterator(chunk_size=500):
        rating_model.objects.filter(
            rubric_id=rubric_id,
            trajectory_id=trajectory_id,
            rater=username,
            source="human",
            imported_from="",
            study__isnull=True,
        ).update(study_id=study_id)


class Migration(migrations.Migration):
    dependencies = [("annotation", "0010_study_ratings_and_na")]
    operations = [
        migrations.RunPython(fill_stage_ids, migrations.RunPython.noop),
        migrations.RunPython(link_ratings_to_studies, migrations.RunPython.noop),
    ]
