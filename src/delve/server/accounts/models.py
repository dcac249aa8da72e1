"""API tokens for bots and scripts. Only a SHA-256 digest of a token is stored; the token itself
is shown once, when it is created (admin or ``delve manage create_token``)."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from delve.server.rawsql import Rows, first_read, per_connection

PREFIX = "dlv_"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=100, blank=True, default="")
    digest = models.CharField(_("digest"), max_length=64, unique=True, editable=False)
    hint = models.CharField(_("starts with"), max_length=12, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.hint}… ({self.user})"

    def set_new_token(self) -> str:
        """Give this row a fresh token; returns the token text, which is stored nowhere."""
        token = PREFIX + secrets.token_urlsafe(32)
        self.digest = digest(token)
        self.hint = token[:10]
        return token

    @classmethod
    def issue(cls, user: Any, name: str = "") -> tuple[ApiToken, str]:
        """A new saved token for ``user``: the row and the token text."""
        row = cls(user=user, name=name)
        token = row.set_new_token()
        row.save()
        return row, token

    @classmethod
    def user_for(cls, token: str) -> Any | None:
        """The active user a token belongs to, or ``None``; notes the use (at most hourly).
        Every API request of a bot asks this, so it is one ``SELECT`` written once per connection
        (:class:`TokenLookup`), not a query the ORM builds each time."""
        found = per_connection("_delve_token_lookup", TokenLookup).find(digest(token))
        if found is None:
            return None
        user, token_id, last_used_at = found
        if not user.is_active:
            return None
        now = timezone.now()
        if last_used_at is None or now - last_used_at > dt.timedelta(hours=1):
            cls.objects.filter(pk=token_id).update(last_used_at=now)
        return user


class TokenLookup:
    """``SELECT`` a token's user (every field), the token's id and its last use, by digest."""

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        quote = connection.ops.quote_name
        user_model = get_user_model()
        self.connection = connection
        self.users = Rows(user_model, connection, "u")
        self.tokens = Rows(ApiToken, connection, "t")
        token = ApiToken._meta
        last_used = quote(token.get_field("last_used_at").column)
        self.sql = (
            f"SELECT {self.users.columns}, t.{quote(token.pk.column)}, t.{last_used} "
            f"FROM {quote(token.db_table)} t JOIN {quote(user_model._meta.db_table)} u "
            f"ON u.{quote(user_model._meta.pk.column)} = t.{quote(token.get_field('user').column)} "
            f"WHERE t.{quote(token.get_field('digest').column)} = %s"
        )

    def find(self, token_digest: str) -> tuple[Any, int, dt.datetime | None] | None:
        """The token's row; as a request's first statement it also checks the pooled connection
        (:func:`delve.server.rawsql.first_read`)."""

        def read(cursor: Any) -> Any:
            cursor.execute(self.sql, [token_digest])
            return cursor.fetchone()

        row = first_read(self.connection, read)
        if row is None:
            return None
        token_id, last_used_at = row[self.users.width :]
        return self.users.build(row), int(token_id), self.tokens.convert("last_used_at", last_used_at)


class LoginFailures(models.Model):
    """Recent failed log-ins for one account or one address (see ``accounts/throttle.py``)."""

    key = models.CharField(_("account or address"), max_length=200, unique=True)
    failures = models.PositiveIntegerField(_("failures"), default=0)
    last_failure_at = models.DateTimeField(_("last failure"))
    locked_until = models.DateTimeField(_("locked until"), null=True, blank=True)

    class Meta:
        verbose_name = _("failed log-ins")
        verbose_name_plural = _("failed log-ins")

    def __str__(self) -> str:
        return f"{self.key}: {self.failures}"
