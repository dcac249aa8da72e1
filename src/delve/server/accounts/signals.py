"""A changed password revokes the user's API tokens (other browser sessions are already logged
out by Django's session hash). Rehashing on log-in (a hash upgrade) is not a change."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save

from delve.server.accounts.models import ApiToken


def revoke_tokens_on_password_change(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    # set_password() keeps the new raw password in ``_password`` until save() has run the
    # password validators' hooks; Django's hash upgrade on log-in clears it before saving.
    if not created and getattr(instance, "_password", None) is not None:
        ApiToken.objects.filter(user=instance).delete()


def connect() -> None:
    post_save.connect(revoke_tokens_on_password_change, sender=get_user_model(), dispatch_uid="delve-revoke-tokens")
