"""``{{ line|card_names }}``: a log line's text, escaped, each card name in it kept on one line
(the one rule of the recent-events panel and the full log; see ``fated_screen.keep_card_names``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from delve.server.play.fated_screen import keep_card_names

register = template.Library()


@register.filter
def card_names(value: Any) -> SafeString:
    return keep_card_names(value)
