from __future__ import annotations

from django.core.management.base import BaseCommand

from accounts.catalogues import catalogues_compile


class Command(BaseCommand):
    help = "Compile the message catalogues (locale/*/LC_MESSAGES/*.po) to .mo with Babel; no GNU gettext needed."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--force", action="store_true", help="compile every catalogue, not only changed ones")

    def handle(self, *args, force: bool = False, **options) -> None:
        written = catalogues_compile(force=force)
        self.stdout.write(f"compiled {len(written)} catalogue(s)")
