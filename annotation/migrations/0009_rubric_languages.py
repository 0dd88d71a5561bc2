import json
from pathlib import Path

from django.db import migrations

RUBRICS = Path(__file__).resolve().parent.parent / "rubrics"


def _without_languages(node):
    """A rubric document as it was before the language maps (issue #18)."""
    if isinstance(node, dict):
        return {key: _without_languages(value) for key, value in node.items() if key not in ("i18n", "language")}
    if isinstance(node, list):
        return [_without_languages(value) for value in node]
    return node


def ship_translations(apps, schema_editor):
    """The shipped rubrics gain their Chinese texts; a rubric someone re-imported with other
    content is left as it is."""
    rubric_model = apps.get_model("annotation", "Rubric")
    for name in ("legalworld16", "simcourt30"):
        document = json.loads((RUBRICS / f"{name}.json").read_text(encoding="utf-8"))
        stored = rubric_model.objects.filter(pk=document["id"]).first()
        if stored is not None and _without_languages(stored.document) == _without_languages(document):
            stored.document = document
            stored.save(update_fields=["document"])


class Migration(migrations.Migration):
    dependencies = [("annotation", "0008_simcourt_rubric")]
    operations = [migrations.RunPython(ship_translations, migrations.RunPython.noop)]
