from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from legalsim.roles import MATRIX, Role, role_grant, role_revoke, roles_of


class Command(BaseCommand):
    help = "Give a user a role (student, rater, instructor, admin), or take it back with --revoke."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("role", choices=[str(role) for role in Role])
        parser.add_argument("--revoke", action="store_true", help="take the role away instead")

    def handle(self, *args, username: str, role: str, revoke: bool, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        (role_revoke if revoke else role_grant)(user, Role(role))
        held = sorted(str(held) for held in roles_of(user))
        abilities = sorted({str(ability) for held in roles_of(user) for ability in MATRIX[held]})
        self.stdout.write(f"{username}: roles {', '.join(held) or 'none'}; may {', '.join(abilities) or 'nothing'}")
