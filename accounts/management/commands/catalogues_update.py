from __future__ import annotations

import fcntl
import json
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from accounts.catalogues import catalogues_compile, translations_apply

LANGUAGES = ("en", "zh_Hans")
IGNORED = (".venv/*", "tests/*", "staticfiles/*", "docs/*", "media/*")


class Command(BaseCommand):
    help = (
        "Extract the marked strings into locale/ (GNU gettext's makemessages), fill translations from "
        "JSON files ({msgid: msgstr}) into a language's catalogue, and compile the catalogues."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--translations", nargs="*", default=[], help="JSON files of {msgid: msgstr}")
        parser.add_argument("--language", default="zh_Hans", help="the catalogue the translations go to")

    def handle(self, *args, translations: list[str], language: str, **options) -> None:
        locale = Path(settings.LOCALE_PATHS[0])
        with (locale / ".lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            call_command(
                "makemessages", locale=list(LANGUAGES), add_location="file", ignore_patterns=list(IGNORED), verbosity=0
            )
            unknown = []
            for name in translations:
                given = json.loads(Path(name).read_text(encoding="utf-8"))
                unknown += translations_apply(locale / language / "LC_MESSAGES" / "django.po", given)
            catalogues_compile(force=True)
        if unknown:
            raise CommandError("not marked in the code: " + "; ".join(unknown))
        self.stdout.write("catalogues updated")
