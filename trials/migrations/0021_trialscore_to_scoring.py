"""``TrialScore`` belongs to the ``scoring`` app now (its 0001 took it over, table and rows
as they are): the model leaves this app's state only; the table ``trials_trialscore`` stays."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("trials", "0020_batch_strategy"),
        ("scoring", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="TrialScore")],
            database_operations=[],
        ),
    ]
