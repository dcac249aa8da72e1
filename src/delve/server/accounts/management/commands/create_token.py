"""``delve manage create_token <username> [--name NAME]``: print a new API token for a user."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from delve.server.accounts.models import ApiToken


class Command(BaseCommand):
    help = "Create an API token for a user (for bots: Authorization: Bearer <token>). Shown once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="", help="a note to recognise the token by")

    def handle(self, *args: Any, username: str, name: str, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"there is no user {username!r}")
        _, token = ApiToken.issue(user, name)
        self.stdout.write(token)
