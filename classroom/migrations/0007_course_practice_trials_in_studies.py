from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0006_grade_release_extension"),
    ]

    operations = [
        migrations.AddField(
            model_name="course",
            name="practice_trials_in_studies",
            field=models.BooleanField(
                default=False,
                help_text="the course's instructors may put the trajectories of its students' trials in rating "
                "studies, where raters read and score them; students are told so on their list of courses",
                verbose_name="practice trials may be used for rating studies",
            ),
        ),
    ]
