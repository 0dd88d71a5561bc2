import json
from pathlib import Path

from django.db import migrations

RUBRIC_FILE = Path(__file__).resolve().parent.parent / "rubrics" / "simcourt30.json"


def install_simcourt_rubric(apps, schema_editor):
    """SimCourt's 30-aspect pairwise rubric ships beside legalworld16."""
    rubric_model = apps.get_model("annotation", "Rubric")
    document = json.loads(RUBRIC_FILE.read_text(encoding="utf-8"))
    rubric_model.objects.update_or_create(
        id=document["id"], defaults={"title": document["title"], "scale_min": -1, "scale_max": 1, "document": document}
    )


class Migration(migrations.Migration):
    dependencies = [("annotation", "0007_assignment_shown_first")]
    operations = [migrations.RunPython(install_simcourt_rubric, migrations.RunPython.noop)]
