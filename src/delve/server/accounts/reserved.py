"""The accounts the server makes for itself, and the names kept for them.

Bots sit in their seats as ``bot-<n>`` accounts, and a hot-seat White Maiden table's extra
seats as ``table-<host>-<n>`` accounts. Such an account is *marked* by what it lacks: no usable
password, no API token, no staff rights, so nobody can log in as it or act through it; the
server alone plays it.

The demo account ``delve demo`` makes (``demo``, or ``demo.2``, ``demo.3``... when a person
already held that name) is kept too: it is a shared account with a published password, so it
*can* log in; what marks it is membership of the group :data:`DEMO_GROUP`, given by ``delve demo``
(:func:`delve.server.games.demo.demo_account`), which never takes over a person's account.

Two rules keep anyone from taking those seats over:

- no person may take a name that starts with ``bot-`` or ``table-``, nor ``demo`` or
  ``demo.<n>`` (in any case): sign-up and the admin refuse it (:func:`check_not_reserved`);
- the server never adopts an account that a person can use as its own (:func:`machine_account`):
  if one already has the name (made before the names were kept, or by an operator), the server
  takes the next free name (``bot-9.2``) rather than seat that person.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from delve.server.games.errors import Rejected

#: The beginnings of the names kept for the server's own accounts (compared case-insensitively).
RESERVED_PREFIXES = ("bot-", "table-")

#: The demo account's name, and its alternatives ``demo.2``, ``demo.3``... (compared
#: case-insensitively).
DEMO_NAME = "demo"
_DEMO_NAMES = re.compile(r"demo(\.[0-9]+)?")
#: The group that marks the account ``delve demo`` made as the demo account.
DEMO_GROUP = "delve demo account"

#: How many other names :func:`machine_account` tries when people hold the first ones.
ALTERNATIVES = 50


def is_demo_name(username: str) -> bool:
    """Whether ``username`` is kept for the demo account (``demo``, ``demo.2``, ... in any case)."""
    return _DEMO_NAMES.fullmatch(username.casefold()) is not None


def is_reserved(username: str) -> bool:
    """Whether ``username`` is kept for the server's own accounts (``bot-...``, ``table-...``,
    ``demo``, ``demo.<n>``)."""
    return username.casefold().startswith(RESERVED_PREFIXES) or is_demo_name(username)


def check_not_reserved(username: str) -> None:
    """:raises ValidationError: (code ``reserved``) for a name kept for the server's accounts."""
    if is_demo_name(username):
        raise ValidationError(
            _("The name “%(name)s” is kept for the server’s demo account. Choose another name.") % {"name": username},
            code="reserved",
        )
    if is_reserved(username):
        raise ValidationError(
            _(
                "Names beginning with “bot-” or “table-” are kept for the server’s computer players "
                "and hot-seat tables. Choose another name."
            ),
            code="reserved",
        )


def can_be_used_by_a_person(user: Any) -> bool:
    """Whether someone can log in as ``user`` or act through it: a password (an empty one
    counts: it was never made unusable), staff rights, or an API token."""
    return bool(user.has_usable_password() or user.is_staff or user.is_superuser or user.api_tokens.exists())


def machine_account(username: str, **defaults: Any) -> Any:
    """The server's own account named ``username`` (``defaults``: fields for a new one), made
    without a usable password. When a person's account holds that name, the next of
    ``username.2``, ``username.3``... that is free or the server's own.

    :raises Rejected: 409 ``lobby/accounts_taken`` when people hold all of them (an operator
        must rename those accounts).
    """
    users = get_user_model()
    for number in range(1, ALTERNATIVES + 2):
        name = username if number == 1 else f"{username}.{number}"
        user, created = users.objects.get_or_create(
            username=name, defaults={**defaults, "password": make_password(None)}
        )
        if created or not can_be_used_by_a_person(user):
            return user
    raise Rejected(
        "lobby/accounts_taken",
        f"the accounts {username} to {username}.{ALTERNATIVES + 1} all belong to people, so the server "
        "cannot make its own: an operator must rename them",
        status=409,
    )
