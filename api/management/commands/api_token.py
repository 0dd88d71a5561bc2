from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Print a user's REST API token (created when missing; --reset replaces it)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--reset", action="store_true", help="revoke the current token and issue a new one")

    def handle(self, *args, username: str, reset: bool, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        if reset:
            Token.objects.filter(user=user).delete()
        token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)
