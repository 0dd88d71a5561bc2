import json
from pathlib import Path

from django.db import migrations

RUBRIC_FILE = Path(__file__).resolve().parent.parent / "rubrics" / "legalworld16.json"


def install_default_rubric(apps, schema_editor):
    rubric_model = apps.get_model("annotation", "Rubric")
    document = json.loads(RUBRIC_FILE.read_text(encoding="utf-8"))
    rubric_model.objects.update_or_create(
        id=document["id"],
        defaults={
            "title": document["title"],
            "scale_min": document["scale"]["min"],
            "scale_max": document["scale"]["max"],
            "document": document,
        },
    )


class Migration(migrations.Migration):
    dependencies = [("annotation", "0002_rubric_rating")]
    operations = [migrations.RunPython(install_default_rubric, migrations.RunPython.noop)]
