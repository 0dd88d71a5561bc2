"""Scorecards per seat: a score names the seat it scores (existing ones scored the target
lawyer), and a trial has one per seat and scorer."""

from django.db import migrations, models


def seat_of_stored(apps, schema_editor) -> None:
    from court.procedures.seats import target_seat

    TrialScore = apps.get_model("trials", "TrialScore")
    for score in TrialScore.objects.select_related("trial").iterator():
        side = score.result.get("target_side") or score.trial.target_side
        score.seat = target_seat(score.trial.procedure, side)
        score.save(update_fields=["seat"])


class Migration(migrations.Migration):
    dependencies = [("trials", "0012_case_draft")]

    operations = [
        migrations.RemoveConstraint(model_name="trialscore", name="one_score_per_trial_and_scorer"),
        migrations.AddField(
            model_name="trialscore",
            name="seat",
            field=models.CharField(
                default="", help_text="the seat scored (the target lawyer's for score_trials)", max_length=32
            ),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="trialscore",
            name="subject",
            field=models.CharField(help_text="human or agent: who played the seat", max_length=8),
        ),
        migrations.RunPython(seat_of_stored, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="trialscore",
            constraint=models.UniqueConstraint(
                fields=("trial", "scorer", "seat"), name="one_score_per_trial_seat_and_scorer"
            ),
        ),
    ]
