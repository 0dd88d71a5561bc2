from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("trials", "0019_invitation"),
    ]

    operations = [
        migrations.AddField(
            model_name="batch",
            name="strategy",
            field=models.BooleanField(
                default=True,
                help_text="SimCourt's Strategy module on the model seats (off: simulate_split --no-strategy)",
            ),
        ),
    ]
