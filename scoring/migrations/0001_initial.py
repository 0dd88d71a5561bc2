"""``TrialScore`` moves here from ``trials`` (its migrations 0006 and 0013 made the table):
the model is created in this app's state only, on the table it has, ``trials_trialscore``.
No row moves and no table changes; ``trials`` 0021 drops the model from its own state."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("trials", "0020_batch_strategy"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="TrialScore",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("scorer", models.CharField(help_text="rule-based, or llm:MODEL", max_length=200)),
                        (
                            "seat",
                            models.CharField(help_text="the seat scored (the target lawyer's for score_trials)", max_length=32),
                        ),
                        ("subject", models.CharField(help_text="human or agent: who played the seat", max_length=8)),
                        (
                            "target_model",
                            models.CharField(
                                help_text="the target seat's holder: human:USERNAME or agent:MODEL", max_length=200
                            ),
                        ),
                        (
                            "overall",
                            models.FloatField(
                                help_text="mean of the available capabilities (halves averaged), 0-1", null=True
                            ),
                        ),
                        ("result", models.JSONField()),
                        ("created_at", models.DateTimeField(auto_now=True)),
                        (
                            "subject_user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="trial_scores",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "trial",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="scores", to="trials.trial"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "trials_trialscore",
                        "ordering": ["-created_at"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("trial", "scorer", "seat"), name="one_score_per_trial_seat_and_scorer"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
