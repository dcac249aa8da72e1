"""Personal records pages: ``/records/`` (yours) and ``/records/<username>/``."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from delve.server.records.models import Record


def record_dict(record: Record) -> dict[str, Any]:
    return {
        "game": record.game_id,
        "date": record.ended_at.isoformat(),
        "ruleset": record.ruleset,
        "preset": record.preset,
        "character_name": record.character_name,
        "class": record.character_class,
        "options": record.options,
        "result": record.result,
        "won": record.won,
        "kills": record.kills,
        "treasures": record.treasures,
        "turns": record.turns,
        "stats": record.stats,
    }


def public_records(username: str) -> tuple[str, list[Record]]:
    """The name to show and the records of the player called ``username``.

    An unknown name answers exactly like a player without records (no way to learn which names
    exist); a name no account could have is not even looked up.
    """
    if len(username) > 150 or not re.fullmatch(r"[\w.@+-]+", username):
        return username, []
    owner = get_user_model().objects.filter(username=username).first()
    if owner is None:
        return username, []
    return owner.get_username(), list(owner.records.all())


#: The result words of the records page (the stored values are stable ids, the API keeps them).
RESULT_WORDS: dict[str, dict[str, str]] = {
    "won_escape": {"en": "Won (escaped)", "ja": "勝利（脱出）"},
    "won_survivor": {"en": "Won (last survivor)", "ja": "勝利（最後の生存者）"},
    "won": {"en": "Won", "ja": "勝利"},
    "lost": {"en": "Lost", "ja": "敗北"},
    "abandoned": {"en": "Abandoned", "ja": "放棄"},
    "closed": {"en": "Closed by an operator (no result)", "ja": "運営者により途中終了"},
}


def shown(record: Record) -> dict[str, Any]:
    """A record in words of the active language: the preset's title, the class as the preset
    names it, the result as a word (never the stored ids such as ``won_escape``)."""
    from delve.fated import text
    from delve.kernel import get_ruleset
    from delve.server.games import present

    lang = (get_language() or "en")[:2]
    preset = record.preset
    try:
        choices = get_ruleset(record.ruleset).presets()
        preset = next((present.text(c.label) for c in choices if c.value == record.preset), record.preset)
    except KeyError:
        pass
    cls = record.character_class
    if record.ruleset == "fated" and cls:
        cls = text.class_name(cls, lang, record.preset)
    words = RESULT_WORDS.get(record.result)
    result = present.text(words) if words else record.result
    if record.result == "abandoned" and record.preset == "level-d":
        result = "投了" if lang == "ja" else "Resigned"
    url = reverse("play:game", kwargs={"game_id": record.game_id}) if record.game_id is not None else None
    row = {"record": record, "preset": preset, "class": cls, "result": result, "url": url}
    if record.ruleset == "maiden":
        row["maiden"] = {key: _stat(record.stats, key) for key in MAIDEN_STATS}
    return row


#: What a White Maiden record shows (the shared summary of MV-END-3 and the seat's own deaths).
MAIDEN_STATS = ("rounds", "bosses_defeated", "areas_freed", "deaths", "deaths_own", "danger_level")


def _stat(stats: dict[str, Any], key: str) -> int | None:
    value = stats.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _page(request: HttpRequest, name: str, records: list[Record]) -> HttpResponse:
    wins = sum(record.won for record in records)
    rows = [shown(record) for record in records]
    # the deaths column counts the page owner's deaths in brackets: "yours" on one's own page
    user = request.user
    own = bool(user.is_authenticated) and user.get_username() == name
    deaths = _("Deaths (yours)") if own else _("Deaths (%(name)s's)") % {"name": name}
    return render(
        request,
        "records/records.html",
        {
            "owner_name": name,
            "own": own,
            "deaths_heading": deaths,
            "records": rows,
            "wins": wins,
            # each game's own columns: Fated Labyrinth and Level D (and any other ruleset) count
            # kills, treasures and turns; White Maiden its shared summary
            "dungeon_records": [row for row in rows if "maiden" not in row],
            "maiden_records": [row for row in rows if "maiden" in row],
        },
    )


@require_safe
@login_required
def mine(request: HttpRequest) -> HttpResponse:
    return _page(request, request.user.get_username(), list(request.user.records.all()))


@require_safe
def of_user(request: HttpRequest, username: str) -> HttpResponse:
    return _page(request, *public_records(username))
