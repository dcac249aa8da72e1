"""What waits on a player across their games: the dashboard's rows and the calendar's deadlines."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import get_language

from delve.kernel import Attention, DelveError
from delve.server import usertime
from delve.server.games import present
from delve.server.games.engine import load_state, ruleset_of
from delve.server.games.models import Game, Seat
from delve.server.lobby.table import waiting_for
from delve.server.notify import calendar, text
from delve.server.notify.triggers import game_label, site_url


@dataclass
class Row:
    game: Game
    seat: Seat
    label: dict[str, str]
    attention: Attention
    url: str
    for_seat: Seat | None = None
    """The seat of the player's table (hot-seat) whose decision waits, when it is not their own."""

    @property
    def waiting(self) -> bool:
        return bool(self.attention.action)

    @property
    def out(self) -> str:
        """How the player's seat left the running game (``"died"``, ``"abandoned"``, ...; ``""``
        while it plays): nothing will wait for it again (FL-DEATH-5)."""
        return self.attention.out

    @property
    def clocked(self) -> bool:
        """Whether a clock moves the game on without the others: Fated Labyrinth's turns always,
        a White Maiden game only with a turn deadline (its setting; 0 or none: it waits for the
        players alone)."""
        if self.game.ruleset != "maiden":
            return True
        from delve.server.games.bots import abandonment_seconds

        try:
            return abandonment_seconds(ruleset_of(self.game), self.game.settings) is not None
        except DelveError:
            return False

    @property
    def deadline_text(self) -> str:
        return usertime.say(self.attention.deadline) if self.attention.deadline is not None else ""

    @property
    def stored_text(self) -> str:
        """The stored turns out of the cap, as the game screen says them."""
        seen = self.attention
        if not seen.cap or self.out:
            return ""
        return present.stored_turns(seen.stored or 0, seen.cap, playing=seen.playing, labelled=False)

    @property
    def gave_up_text(self) -> str:
        """ "You gave up" in the words of a Fated preset that has its own (P-33: Level D's 投了 /
        "resigned", as its records and the end notice say them); "" where the page's own "You
        abandoned the game" says the preset's word (Fated Labyrinth's 放棄) or for another game."""
        if self.game.ruleset != "fated":
            return ""
        lang = text.language((get_language() or "en")[:2])
        said = text.result_word({"result": "abandoned", "preset": self.game.preset}, lang)
        if said == text.result_word({"result": "abandoned", "preset": "fated-labyrinth"}, lang):
            return ""
        return f"あなたは{said}" if lang == "ja" else f"You {said}"

    @property
    def loses_text(self) -> str:
        seen = self.attention
        return usertime.say(seen.loses_turns_at) if seen.action and seen.loses_turns_at is not None else ""

    @property
    def abandon_text(self) -> str:
        """What the abandon deadline brings, in the preset's words (P-33: Level D says 投了)."""
        from delve.fated import text as fated_text

        return fated_text.word("deadline_abandon", get_language() or "en", self.game.preset)

    def sort_key(self) -> tuple[int, int, int]:
        deadline = self.attention.deadline if self.attention.deadline is not None else 2**62
        return (0 if self.waiting else 2 if self.out else 1, deadline, self.game.pk)


def rows(user: Any) -> tuple[list[Row], list[Seat]]:
    """The running games of ``user`` (what waits first, then by deadline, those their seat is out
    of last: listed until the game ends) and their seats in
    games still open for registration. A decision that waits for a seat of their table
    (hot-seat) waits for them (:func:`delve.server.lobby.table.waiting_for`).

    One query: the player's own seats and those of their table, with their games."""
    if user is None or not user.is_authenticated:
        return [], []
    found = list(
        Seat.objects.filter(
            Q(user=user) | Q(table__host=user), game__status__in=[Game.Status.RUNNING, Game.Status.OPEN]
        )
        .select_related("game")
        .order_by("game_id", "index")
    )
    table: dict[int, list[Seat]] = {}
    for seat in found:
        if seat.user_id != user.pk and seat.index is not None:
            table.setdefault(seat.game_id, []).append(seat)
    running, open_seats = [], []
    for seat in (seat for seat in found if seat.user_id == user.pk):
        game = seat.game
        if game.status == Game.Status.OPEN or seat.index is None:
            open_seats.append(seat)
            continue
        waiting = seat
        try:
            ruleset = ruleset_of(game)
            waiting, seen = waiting_for(ruleset, load_state(game, ruleset), seat, table.get(game.pk, []))
        except DelveError:
            seen = Attention()
        url = reverse("play:game", args=[game.pk])
        row = Row(game=game, seat=seat, label=game_label(game), attention=seen, url=url)
        row.for_seat = waiting if waiting.pk != seat.pk else None
        running.append(row)
    running.sort(key=Row.sort_key)
    return running, open_seats


def count(running: list[Row]) -> int:
    """How many games wait for the player, of their running games' rows: the number the "waiting on
    me" page and the site header's "waiting on you" both say."""
    return sum(row.waiting for row in running)


class Waiting:
    """The site header's "waiting on you: N" for ``user``, worked out the first time a page shows it
    (the template context of every page holds one: :func:`delve.server.notify.context.waiting`)."""

    def __init__(self, user: Any) -> None:
        self.user = user

    @cached_property
    def count(self) -> int:
        return count(rows(self.user)[0])


SUMMARIES = {
    "abandon": {"en": "{game}: {name} is abandoned unless you act", "ja": "{game}：行動しないと{name}は放棄"},
    "autoplay": {"en": "{game}: the autopilot plays for {name}", "ja": "{game}：{name}をオートパイロットがプレイ"},
    "cap": {"en": "{game}: {name} starts losing turns", "ja": "{game}：{name}のターンが失われ始める"},
}


def _summary(kind: str, game: Any, lang: str) -> str:
    """A deadline's calendar summary; a Fated game's abandon deadline in its preset's words (P-33)."""
    if kind == "abandon" and game.ruleset == "fated":
        from delve.fated import text as fated_text

        return fated_text.word("abandon_summary", lang, game.preset)
    return SUMMARIES[kind][lang]


def deadlines(user: Any, lang: str, now: int, zone: Any = None) -> list[calendar.Deadline]:
    """The upcoming deadlines of ``user``'s running games, for the calendar feed; each event's
    description says its time in ``zone`` (the reader's)."""
    lang = text.language(lang)
    items = []
    for row in rows(user)[0]:
        seen = row.attention
        fields = {"game": row.label[lang], "name": row.seat.name}
        url = site_url(row.url)
        base = f"delve-game-{row.game.pk}-seat-{row.seat.index}"
        if seen.deadline is not None and seen.deadline >= now:
            kind = seen.deadline_kind or "abandon"
            items.append(
                calendar.Deadline(
                    uid=f"{base}-deadline-{seen.deadline}",
                    at=seen.deadline,
                    summary=_summary(kind, row.game, lang).format(**fields),
                    description=f"{text.when(seen.deadline, zone)} · {url}",
                    url=url,
                )
            )
        if seen.action and seen.loses_turns_at is not None and seen.loses_turns_at >= now:
            items.append(
                calendar.Deadline(
                    uid=f"{base}-cap-{seen.loses_turns_at}",
                    at=seen.loses_turns_at,
                    summary=SUMMARIES["cap"][lang].format(**fields),
                    description=f"{text.when(seen.loses_turns_at, zone)} · {seen.stored}/{seen.cap} · {url}",
                    url=url,
                )
            )
    return sorted(items, key=lambda item: (item.at, item.uid))
