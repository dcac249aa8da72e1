"""``delve manage createsuperuser``: Django's command, keeping the names kept for the server's
own accounts (``bot-...``, ``table-...``, ``demo``, ``demo.<n>``: :mod:`delve.server.accounts.reserved`)
as sign-up and the admin keep them, and holding a password given with ``--noinput``
(``DJANGO_SUPERUSER_PASSWORD``) to the site's password rules.

Django checks the password rules only when it asks for the password at a terminal (where the
operator sees each refusal and may still answer ``y`` to go on); with ``--noinput`` it would
take any password, ``123`` too, for the most powerful account of the site. Here such a password
is refused in one line naming the rules it breaks, and nothing is created.

This app comes before ``django.contrib.auth`` in ``INSTALLED_APPS``, so this command is the one
``createsuperuser`` runs.
"""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth.management.commands import createsuperuser
from django.contrib.auth.password_validation import validate_password
from django.core import exceptions
from django.core.management.base import CommandError

from delve.server.accounts.reserved import check_not_reserved


class Command(createsuperuser.Command):
    help = (
        "Create a superuser (an operator account). Names kept for the server's own accounts (bot-..., table-..., "
        "demo) are refused; with --noinput, DJANGO_SUPERUSER_PASSWORD must pass the site's password rules."
    )

    def _validate_username(self, username: Any, verbose_field_name: Any, database: Any) -> str | None:
        error: str | None = super()._validate_username(username, verbose_field_name, database)
        if error or not username:
            return error
        try:
            check_not_reserved(str(username))
        except exceptions.ValidationError as exc:
            return "Error: " + "; ".join(exc.messages)
        return None

    def handle(self, *args: Any, **options: Any) -> None:
        password = os.environ.get("DJANGO_SUPERUSER_PASSWORD")
        if not options["interactive"] and password is not None:
            username = options[self.UserModel.USERNAME_FIELD] or os.environ.get(
                "DJANGO_SUPERUSER_" + self.UserModel.USERNAME_FIELD.upper()
            )
            fields = {self.UserModel.USERNAME_FIELD: username or ""}
            for name in self.UserModel.REQUIRED_FIELDS:
                value = options.get(name) or os.environ.get("DJANGO_SUPERUSER_" + name.upper())
                if value and not self.UserModel._meta.get_field(name).is_relation:
                    fields[name] = value
            try:
                validate_password(password, self.UserModel(**fields))
            except exceptions.ValidationError as exc:
                raise CommandError(
                    "DJANGO_SUPERUSER_PASSWORD does not pass the site's password rules: " + " ".join(exc.messages)
                ) from None
        super().handle(*args, **options)
