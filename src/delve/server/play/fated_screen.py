"""The Fated Labyrinth game screen: turns a seat's view and its legal commands into what the nine
panels of FL-UI show, in the active language and with the preset's names.

Only views leave here (``present.caller_view``): nothing reads a state. Every choice the command
panel offers is one of ``legal_commands`` as is (FL-UI-5); the text of events, messages, commands
and help comes from :mod:`delve.fated.text`, names from the content.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import dateformat, timezone
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language, gettext

from delve.fated import combat, content, text
from delve.server import clock
from delve.server.games import bots, closing, engine, present
from delve.server.games.models import Game, Seat

PANELS = (
    "takeover",
    "ending",
    "map",
    "tile",
    "events",
    "piles",
    "commands",
    "quickmove",
    "status",
    "players",
    "comment",
)
"""The refreshable panels (FL-UI-1..7, 9; the command help, panel 8, is filled in the browser),
plus the "Take my seat back" banner (empty unless a bot took the caller's seat over), the
end-of-game banner (empty while the game runs) and the comment state line."""

#: Terrain character -> (css class, icon). Icons are language-neutral marks; the legend names them.
TERRAIN: dict[str, tuple[str, str]] = {
    "?": ("unknown", ""),
    ".": ("floor", ""),
    "#": ("wall", ""),
    "+": ("door", ""),
    "~": ("ice", "≈"),
    "C": ("checkpoint", "⚑"),
    "T": ("treasure", "◆"),
    "E": ("exit", "▲"),
    "t": ("fake-treasure", "◇"),
    "e": ("fake-exit", "△"),
    "o": ("own-trap", "◎"),
    "x": ("enemy-trap", "✕"),
}
LEGEND = ("#", "+", "~", "C", "T", "E", "t", "e", "o", "x", "?")
DIRECTION_ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
DIRECTION_KEYS = {"up": "W / ↑", "left": "A / ←", "down": "S / ↓", "right": "D / →"}


def lang() -> str:
    return (get_language() or "en")[:2]


def as_json(command: dict[str, Any]) -> str:
    return json.dumps(command, ensure_ascii=False, sort_keys=True)


COUNTDOWN_TEXT = re.compile(r'(<time class="countdown"[^>]*>)[^<]*(</time>)')
"""A countdown's text: it changes every second, and the page's script writes it from the
deadline (``data-deadline``) anyway, so it is no change of the panel."""


IN_PLACE_TEXT = re.compile(r'(<[^>]* data-in-place="[^"]*"[^>]*>)[^<]*(<)')
"""A counter the page updates in place (the stored turns): no change of what the player can choose."""
IN_PLACE_VALUE = re.compile(r'<[^>]* data-in-place="([^"]*)"[^>]*>([^<]*)<')
AIM_TILE = re.compile(r' data-aim-tile="[^"]*"')
"""Where a target stands (another player who moved): the target, the choice, stays the same."""
TAB_TITLE = re.compile(r' data-title="([^"]*)"')
"""The tab's title, which counts the stored turns: written in place as well."""
AIM_OF_CHOICE = re.compile(r'name="command" value="([^"]*)">\s*<button[^>]*? data-aim-tile="([^"]*)"')


def signature(html: str) -> str:
    """The signature of a panel's content, countdown texts left out: a refresh re-sends (and the
    page swaps) only a panel whose content changed, not one whose countdown moved on. Nor is the
    commands panel re-sent (its hand rebuilt under a finger about to tap) when only a counter or
    a target's tile changed: what the player can choose is the same, and :func:`in_place` carries
    the new values, which the page writes into the panel it keeps (fated.js)."""
    steady = COUNTDOWN_TEXT.sub(r"\1\2", html)
    steady = IN_PLACE_TEXT.sub(r"\1\2", steady)
    steady = AIM_TILE.sub(' data-aim-tile=""', steady)
    steady = TAB_TITLE.sub(' data-title=""', steady)
    return hashlib.sha1(steady.encode(), usedforsecurity=False).hexdigest()[:12]


def countdown(seconds: int, lang: str) -> str:
    """A countdown as the page's script writes it each second (fated.js ``format``), so the first
    paint already shows the right value: "1:05:09", "4:07", "2 d 3 h" / "2日3時間"."""
    seconds = max(0, int(seconds))
    days, hours = seconds // 86400, seconds % 86400 // 3600
    minutes, secs = seconds % 3600 // 60, seconds % 60
    if days > 0:
        return f"{days}日{hours}時間" if lang == "ja" else f"{days} d {hours} h"
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours > 0 else f"{minutes}:{secs:02d}"


def when(epoch: int | None) -> dt.datetime | None:
    return None if epoch is None else dt.datetime.fromtimestamp(epoch, tz=dt.UTC)


@dataclass
class Screen:
    """Everything one caller may see of one Fated game at one moment."""

    game: Game
    seats: list[Seat]
    mine: Seat | None
    view: dict[str, Any] | None
    legal: list[dict[str, Any]]
    lang: str
    selected: tuple[int, int] | None = None
    error: str = ""
    comment_note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def seat(self) -> int | None:
        return None if self.mine is None else self.mine.index

    @property
    def preset(self) -> str:
        return self.game.preset

    @property
    def you(self) -> dict[str, Any] | None:
        return None if self.view is None else self.view.get("you")

    @property
    def now(self) -> int:
        """The server's clock (views carry no time: they change only when what they show does)."""
        return clock.now()

    @property
    def version(self) -> int:
        """The caller's version: it moves only when what the caller can see changes."""
        return engine.seen_version(self.game, self.seat)

    @property
    def choices(self) -> str:
        """The digest of the legal commands shown: a command is refused if they changed."""
        return engine.choices_digest(self.legal)


def just_now(screen: Screen, events: list[dict[str, Any]]) -> list[str]:
    """What the caller's own action just did, as sentences (the answer's events the caller may
    see), routine lines left out: the short result shown where the player is looking."""
    from delve.server.play import fated_log

    lines = []
    for event in events:
        if event.get("kind") in fated_log.NOISE:
            continue
        body = {**event.get("data", {}), "kind": event.get("kind"), "time": event.get("time")}
        sentence = text.describe(body, screen.lang, screen.preset, screen.seat)
        if sentence not in lines:
            lines.append(sentence)
    return lines[:5]


def load(game: Game, user: Any, *, selected: tuple[int, int] | None = None) -> Screen:
    seats = present.public_seats(game)
    mine = present.own_seat(seats, user)
    seat = None if mine is None else mine.index
    view, legal = present.view_and_commands(game, seat)
    # a bot plays the seat for its idle player: no choices until they take it back (the banner)
    legal = engine.offered(legal, taken_over=mine is not None and mine.bot_since is not None)
    return Screen(game=game, seats=seats, mine=mine, view=view, legal=legal, lang=lang(), selected=selected)


# ---------------------------------------------------------------- rendering


def render_panel(screen: Screen, name: str, *, oob: bool = False) -> tuple[str, str]:
    """One panel as its ``<section>`` (the unit htmx swaps) and the signature of its content."""
    inner = render_to_string(f"play/fated/panels/{name}.html", {"s": screen, **panel_context(screen, name)}).strip()
    sig = signature(inner)
    html = render_to_string(
        "play/fated/panel.html",
        {"name": name, "sig": sig, "inner": mark_safe(inner), "oob": oob},
    )
    return html, sig


def render_panels(screen: Screen, *, known: dict[str, str] | None = None, oob: bool = True) -> str:
    """The panels whose content differs from the signatures the browser sent (all without
    ``known``), as out-of-band swaps, plus the version the next command must carry."""
    parts = [
        f'<input type="hidden" id="game-version" name="version" value="{screen.version}" hx-swap-oob="true">',
        f'<input type="hidden" id="game-choices" name="choices" value="{screen.choices}" hx-swap-oob="true">',
    ]
    for name in PANELS:
        html, sig = render_panel(screen, name, oob=oob)
        if known is None or known.get(name) != sig:
            parts.append(html)
        if name == "commands":
            parts.append(in_place(html, oob=oob))
    return "\n".join(parts)


def in_place(html: str, *, oob: bool = True) -> str:
    """The values the page writes into the commands panel it keeps (fated.js): the counters
    (``data-in-place``), the tab's title and each choice's target tile (by its command), copied
    from the panel's HTML, already escaped."""
    items = [f'<span data-in-place-for="{key}">{value}</span>' for key, value in IN_PLACE_VALUE.findall(html)]
    items += [f'<span data-tab-title="{title}"></span>' for title in TAB_TITLE.findall(html)[:1]]
    items += [f'<i data-aim-for="{cmd}" data-aim-tile="{tile}"></i>' for cmd, tile in AIM_OF_CHOICE.findall(html)]
    swap = ' hx-swap-oob="true"' if oob else ""
    return f'<div id="commands-in-place" hidden{swap}>{"".join(items)}</div>'


def all_panels(screen: Screen) -> dict[str, SafeString]:
    return {name: mark_safe(render_panel(screen, name)[0]) for name in PANELS}


def panel_context(screen: Screen, name: str) -> dict[str, Any]:
    builder = _BUILDERS.get(name)
    return builder(screen) if builder is not None else {}


# ---------------------------------------------------------------- (1) the whole map


def _map(screen: Screen) -> dict[str, Any]:
    """The map's cells, written out here (a template loop over a 45x45 maze's 2,025 cells took
    most of a page's time; the HTML is the same): a tile in sight is a button that selects it
    (FL-UI-2), any other a span; each says its place, terrain, whether it is only remembered or
    not seen since the exit appeared, and who stands there (FL-VIS-7)."""
    view = screen.view
    if view is None:
        return {"cells": "", "size": 0}
    m = view["map"]
    n = int(m["size"])
    tiles, lit = m["tiles"], m["lit"]
    stale = m.get("stale") or ""  # remembered, not seen since the exit appeared
    preset = screen.preset
    by_tile: dict[tuple[int, int], dict[str, Any]] = {}
    for char in view["characters"]:
        by_tile[(char["tile"][0], char["tile"][1])] = char
    remembered = _t(screen, "remembered", "記憶")
    unseen = _t(screen, "not seen since the exit appeared", "出口の出現後は未確認")
    names: dict[str, str] = {}  # terrain name by tile code
    selected = screen.selected
    cells: list[str] = []
    append = cells.append
    for y in range(n):
        for x in range(n):
            index = y * n + x
            code = tiles[index]
            bright = lit[index] == "1"
            css, icon = TERRAIN.get(code, ("unknown", ""))
            name = names.get(code)
            if name is None:
                name = names[code] = text.terrain_name(code, screen.lang, preset)
            label = [f"{x + 1},{y + 1}", name]
            old = bool(stale) and stale[index] == "1"
            if code != "?" and not bright:
                label.append(remembered)
            if old:
                label.append(unseen)
            char = by_tile.get((x, y))
            token = None
            if char is not None:
                token = _token(screen, char)
                label.append(token["label"])
            said = escape(", ".join(label))
            classes = escape(f"t-{css} {'lit' if bright else 'dark'}{' stale' if old else ''}")
            if bright:
                chosen = " selected" if selected == (x, y) else ""
                append(
                    f'<button type="button" class="cell {classes}{chosen}" data-x="{x}" data-y="{y}" '
                    f'aria-label="{said}" title="{said}" tabindex="-1">'
                )
            else:
                append(f'<span class="cell {classes}" data-x="{x}" data-y="{y}" title="{said}">')
            if token is not None:
                append(
                    f'<span class="tok {conditional_escape(token["css"])}" aria-hidden="true">'
                    f"{conditional_escape(token['text'])}</span>"
                )
            elif icon:
                append(f'<span class="ico" aria-hidden="true">{conditional_escape(icon)}</span>')
            append("</button>" if bright else "</span>")
    legend = [
        {"css": f"t-{TERRAIN[c][0]}", "icon": TERRAIN[c][1], "label": text.terrain_name(c, screen.lang, preset)}
        for c in LEGEND
    ]
    stale_legend = (
        _t(
            screen,
            "Hatched: not seen since the exit appeared (the exit may be there)",
            "斜線：出口の出現後にまだ見ていないマス（出口があるかもしれません）",
        )
        if stale
        else ""
    )
    monsters = roster(preset, screen.lang)
    return {
        "cells": mark_safe("".join(cells)),
        "size": n,
        "legend": legend,
        "stale_legend": stale_legend,
        "monsters": monsters,
        "example": monsters[0]["glyph"] if monsters else "?",
    }


def _token(screen: Screen, char: dict[str, Any]) -> dict[str, Any]:
    """FL-VIS-7: own position ●, other players by number, monsters by glyph, blue own and
    orange enemy."""
    lang_ = screen.lang
    if char["type"] == "player":
        if char.get("you"):
            return {"css": "you", "text": "●", "label": _t(screen, "you", "あなた")}
        number = char["number"]
        return {"css": "player", "text": number, "label": text.player_name(char["seat"], lang_)}
    name = text.monster_name(char["monster"], lang_)
    owner = char.get("owner")
    if char.get("own"):
        label = _t(screen, f"your {name}", f"あなたの{name}")
    else:
        label = _t(screen, f"{name} of Player {text.number(owner)}", f"プレイヤー{text.number(owner)}の{name}")
    shown = glyph(char, lang_)
    css = ("monster own" if char.get("own") else "monster enemy") + (" wide" if len(shown) > 1 else "")
    return {"css": css, "text": shown, "label": label}


def glyph(char: dict[str, Any], lang_: str) -> str:
    """A monster's map glyph in the screen's language (FL-VIS-7): 粘 in Japanese, S in English
    (``text.monster_glyph``); the view's own glyph for a kind the content does not know."""
    return text.monster_glyph(char.get("monster"), lang_, default=str(char.get("glyph") or "?"))


def roster(preset: str, lang_: str) -> list[dict[str, str]]:
    """The preset's monsters as the map draws them, in the roster's order: glyph and name, for the
    map legend and the help page (the same glyphs as the map's tokens)."""
    data = content.load()
    kinds = data.presets[preset].settings.get("monster_roster", []) if preset in data.presets else []
    return [
        {"id": kind, "glyph": text.monster_glyph(kind, lang_), "name": text.monster_name(kind, lang_)}
        for kind in kinds
        if kind in data.monsters
    ]


# ---------------------------------------------------------------- (2) tile details


def _tile(screen: Screen) -> dict[str, Any]:
    if screen.you is None and not (screen.view is not None and screen.view["game"].get("ended")):
        # a spectator sees no tile of a running game: the panel stays empty (hidden by the CSS);
        # after the end the whole maze is in sight for everyone and the panel works as for a seat
        return {"state": "hidden"}
    if screen.view is None or screen.selected is None:
        return {"state": "none"}
    x, y = screen.selected
    m = screen.view["map"]
    n = int(m["size"])
    if not (0 <= x < n and 0 <= y < n):
        return {"state": "none"}
    if m["lit"][y * n + x] != "1":  # FL-UI-2, FL-INFO-6: only tiles in sight
        return {"state": "out_of_sight", "x": x + 1, "y": y + 1}
    code = m["tiles"][y * n + x]
    key = f"{x},{y}"
    details: dict[str, Any] = {
        "state": "shown",
        "x": x + 1,
        "y": y + 1,
        "terrain": text.terrain_name(code, screen.lang, screen.preset),
        "css": "t-" + TERRAIN.get(code, ("unknown", ""))[0],
        "icon": TERRAIN.get(code, ("", ""))[1],
        "labels": _labels(screen),
    }
    if key in m.get("doors", {}) or code == "+":
        details["door_hp"] = m.get("doors", {}).get(key, 100)
    trap = m.get("traps", {}).get(key)
    if trap is not None:
        details["trap"] = {
            "card": text.card_name(trap["card"], screen.lang, screen.preset),
            "use": text.use_name("trap", screen.lang, screen.preset),
            "own": trap.get("own", False),
            # the preset's trap word (P-26): 罠 in Fated Labyrinth, ワナ in Level D
            "label": text.vocabulary(
                gettext("Your trap" if trap.get("own", False) else "Discovered trap"), screen.lang, screen.preset
            ),
        }
    for char in screen.view["characters"]:
        if tuple(char["tile"]) != (x, y):
            continue
        if char["type"] == "player":
            public = next((p for p in screen.view["players"] if p["seat"] == char["seat"]), None)
            if public is not None:
                details["player"] = _public_player(screen, public)
        else:
            details["monster"] = _monster(screen, char)
    return details


def _monster(screen: Screen, char: dict[str, Any]) -> dict[str, Any]:
    owner = char.get("owner")
    return {
        "name": text.monster_name(char["monster"], screen.lang),
        "glyph": glyph(char, screen.lang),
        "own": bool(char.get("own")),
        "owner": text.player_name(owner, screen.lang, screen.seat) if isinstance(owner, int) else "",
        "hp": char.get("hp"),
        "attack": char.get("attack"),
        "defense": char.get("defense"),
        "evasion": char.get("evasion"),
        "statuses": _statuses(screen, char.get("statuses") or []),
    }


# ---------------------------------------------------------------- (3) recent events, (4) piles


def _events(screen: Screen) -> dict[str, Any]:
    """The recent events and the caller's messages, routine lines folded (``fated_log.NOISE``)."""
    from delve.server.play import fated_log

    if screen.view is None:
        return {"events": [], "messages": []}
    lang_, preset, seat = screen.lang, screen.preset, screen.seat
    win_kind = screen.view["game"].get("win_kind")

    def sentence(e: dict[str, Any]) -> str:
        if bots.is_seat_change(str(e.get("kind"))):
            return fated_log.seat_change_sentence(e, lang_, seat)
        if closing.is_closed_event(str(e.get("kind")), e):
            return closing.sentence(e.get("reason"), lang_)
        return text.describe({**e, "win_kind": win_kind} if e.get("kind") == "game.ended" else e, lang_, preset, seat)

    def lines(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return fated_log.fold(
            (
                {"time": when(e.get("time")), "text": sentence(e), "noise": e.get("kind") in fated_log.NOISE}
                for e in entries
            ),
            lang_,
        )

    events = lines(with_seat_changes(screen.game, screen.view["events"]))
    messages = lines((screen.you or {}).get("messages", [])[:12])
    return {
        "events": events,
        "messages": messages,
        "events_html": log_items(events),
        "messages_html": log_items(messages),
        "log_link": _t(screen, "Full log", "全記録"),
    }


def log_items(lines: list[dict[str, Any]]) -> SafeString:
    """The ``<li>`` of each line of a recent-events list, newest first as given, written out here
    (a template included once per line took most of the panel's time): its local time, then its
    text, or a folded run of routine lines under its summary (``fated_log.fold``)."""
    out = []
    for line in lines:
        folded = line.get("folded")
        if folded:
            inner = "".join(f"<li>{_stamp(f.get('time'))}{_said(f, 'text')}</li>" for f in folded)
            out.append(
                f'<li class="folded"><details><summary>{_stamp(line.get("time"))}{_said(line, "summary")}</summary>'
                f"<ol>{inner}</ol></details></li>\n"
            )
        else:
            out.append(f"<li>{_stamp(line.get('time'))}{_said(line, 'text')}</li>\n")
    return mark_safe("".join(out))


def _stamp(time: dt.datetime | None) -> str:
    """A line's time as ``<time>`` (ISO in the attribute, hours and minutes shown), both in the
    current time zone, and a space; nothing without a time."""
    if not time:
        return ""
    local = template_localtime(time)
    return (
        f'<time datetime="{conditional_escape(dateformat.format(local, "c"))}">'
        f"{conditional_escape(dateformat.format(local, 'H:i'))}</time> "
    )


def _said(line: dict[str, Any], key: str) -> str:
    """A line's text (a missing one says nothing) as ``keep_card_names`` marks it."""
    if key not in line:
        return ""
    return keep_card_names(line[key])


def keep_card_names(sentence: Any) -> SafeString:
    """A log line's text, escaped, each card name in it kept on one line (``card-name``, styled
    ``.log .card-name``: a phone broke 攻撃３０ between its full-width digits). The one rule of
    the recent-events panel and the full log page (its ``card_names`` template filter)."""
    return mark_safe(_card_names().sub(r'<span class="card-name">\g<0></span>', str(conditional_escape(sentence))))


@functools.cache
def _card_names() -> re.Pattern[str]:
    """Every card's name in every language and every preset's words (Level D's ワナ解除), escaped
    as a line's text is, longest first."""
    data = content.load()
    names = {
        str(conditional_escape(text.vocabulary(n, lang, preset)))
        for card in data.cards.values()
        for lang, n in card.name.items()
        if n
        for preset in data.presets
    }
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))


def with_seat_changes(game: Game, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The view's recent events (newest first) with the game's recent seat changes (a bot taking a
    seat over, its player taking it back: the server's events, which no view holds) in their
    place by time, a seat change first among events of the same second (it is saved after the
    clock's events of its moment); as many lines as the view had, or the seat changes alone."""
    changes = bots.seat_events(game)
    if not changes:
        return events
    merged = sorted([*changes, *events], key=lambda e: int(e.get("time") or 0), reverse=True)
    return merged[: max(len(events), len(changes))]


def _takeover(screen: Screen) -> dict[str, Any]:
    """The "Take my seat back" banner, for the player whose seat a bot took over; and the seats
    that have kept the game waiting for days, which the player may hand to a bot."""
    return {
        "offer": bots.reclaim_offer(screen.game, screen.mine),
        "handovers": bots.handover_offers(screen.game, screen.mine),
    }


def _piles(screen: Screen) -> dict[str, Any]:
    return {"piles": None if screen.view is None else screen.view["piles"]}


# ---------------------------------------------------------------- (5) commands, (6) quick moves


def _commands(screen: Screen) -> dict[str, Any]:
    you = screen.you
    lang_, preset = screen.lang, screen.preset
    ctx: dict[str, Any] = {"you": you, "ended": screen.game.status == Game.Status.ENDED}
    if screen.view is not None and screen.view["game"].get("ended"):
        ctx["ended"] = True
        ctx["result"] = _result(screen)
    if ctx["ended"]:  # no phase, no choices: the banner at the top tells the end
        ctx["phase"] = "ended"
        ctx["ended_title"] = _t(screen, "Game over", "ゲーム終了")
        ctx["ended_note"] = _t(
            screen,
            "Only comments are still possible. The standings are at the top of the screen.",
            "コメントだけはまだ変更できます。最終結果は画面の上にあります。",
        )
        return ctx
    if you is None:
        return ctx
    phase = you["phase"]
    legal = [c for c in screen.legal if c["kind"] not in {"comment"}]
    ctx["phase"] = phase
    ctx["phase_name"] = text.phase_name(phase, lang_, preset)
    public = next((p for p in (screen.view or {}).get("players", []) if p["seat"] == you["seat"]), {})
    if phase == "dead" and public.get("fate") in ("abandoned", "gave_up"):
        # FL-ABN: a player who gave up is not "Dead"; the same word as their status and the player
        # list (the stored fate's, _fate), in the preset's words (P-33: Level D's 投了)
        gave_up = text.word(f"fate_{public['fate']}", lang_, preset)
        ctx["phase_name"] = text.capital(gave_up)
        ctx["out_line"] = _t(
            screen,
            f"You {gave_up} the game: you are out of it. You can still change your comment.",
            f"{gave_up}しました。ゲームから退場しました。コメントは変更できます。",
        )
    if phase == "move" and "move" in you:
        ctx["move_of"] = you["move"]
    hand = {card["id"]: card for card in you.get("hand", [])}
    simple, card_uses, defenses = [], [], []
    give_up = None
    # FL-DEF-1..5: each defense choice says what follows, from the engine's own outcome
    defending = you.get("defending") if phase == "defense" else None
    outcomes = {(c["kind"], c.get("card")): c for c in (defending or {}).get("choices", [])}
    for command in legal:
        kind = command["kind"]
        if kind == "give_up":
            give_up = _button(screen, command)
        elif kind == "use_card":
            card_uses.append(command)
        elif kind == "defend":
            card = hand.get(command.get("card"))
            same = card and next((d for d in defenses if d["card_kind"] == card["kind"]), None)
            if same:  # two copies of one card defend alike: one button (the first copy), counted
                same["copies"] += 1
                continue
            label = text.command_label({**command, "card_kind": card and card["kind"]}, lang_, preset, screen.seat)
            entry = _button(screen, command, label=label)
            entry["cp"] = _single_cp(card)
            entry["help"] = _card_help(card, lang_, preset) if card else entry["help"]
            entry["card_kind"], entry["copies"] = (card["kind"] if card else None), 1
            entry["result"] = _outcome(screen, outcomes, command, defending)
            defenses.append(entry)
        else:
            entry = _button(screen, command)
            entry["result"] = _outcome(screen, outcomes, command, defending)
            simple.append(entry)
    for entry in defenses:
        if entry["copies"] > 1:
            n = entry["copies"]
            entry["label"] += _t(screen, f" (you hold {n})", f"（{n}枚あり）")
    # a bot plays the seat for its idle player: the panel says so, the tab raises no alarm
    bot_plays = screen.mine is not None and screen.mine.bot_since is not None
    ctx["bot_plays"] = bot_plays
    stored = int(you.get("stored_turns", 0) or 0)
    ctx["tab_title"], ctx["tab_alert"] = _tab(screen, "wait" if bot_plays else phase, stored)
    ctx["just_now"] = screen.extra.get("just_now", [])
    ctx["just_now_title"] = _t(screen, "Just now", "いまの結果")
    ctx["buttons"] = simple
    ctx["defenses"] = defenses
    ctx["give_up"] = give_up
    # FL-LOGIN-4, FL-DEATH-5: a dead player can do nothing with cards (FL-DEATH-4 removes them
    # from the game at death): no hand is shown, whatever the seat still lists
    ctx["hand"] = [] if phase == "dead" or not you.get("alive", True) else _hand(screen, you, card_uses)
    ctx["aim_label"] = _t(screen, "◎ Pick on the map", "◎ マップで選ぶ")
    ctx["aim_help"] = _t(
        screen,
        "The targets of this use light up on the map: click one of them to use the card on it.",
        "この使い方の対象がマップ上で光ります。その一つをクリックするとカードを使います。",
    )
    if phase == "defense" and you.get("defending"):
        ctx["defending"] = text.defending(you["defending"], lang_, preset, screen.seat)
        ctx["defending_effect"] = text.defending_effect(you["defending"], lang_, preset)
        ctx["waiting_items"] = you.get("waiting_items", 0)
    if phase == "wait":
        ctx["next_turn_at"] = you.get("next_turn_at")
        ctx["next_turn_when"] = when(you.get("next_turn_at"))
        if you.get("next_turn_at") is not None:
            ctx["next_turn_left"] = countdown(int(you["next_turn_at"]) - screen.now, lang_)
    ctx["stored"] = you.get("stored_turns", 0)
    if you.get("alive", True) and not bot_plays:  # said as the "waiting on me" page says it
        cap = (screen.view or {}).get("game", {}).get("max_stored_turns")
        ctx["stored_line"] = present.stored_turns(stored, cap, playing=phase not in {"wait", "ready"})
    if you.get("abandon_at") is not None and phase != "wait":  # FL-ABN-1, FL-UI-5
        ctx["abandon_at"] = you["abandon_at"]
        notice = text.word("give_up_notice", lang_, preset)
        before, _, after = notice.partition("{time}")
        ctx["abandon_notice"] = {"before": before, "after": after, "when": when(you["abandon_at"])}
        ctx["abandon_left"] = countdown(int(you["abandon_at"]) - screen.now, lang_)
    ctx["refresh_help"] = text.command_help("refresh", lang_, preset)
    ctx["refresh_name"] = text.command_name("refresh", lang_, preset)
    ctx["start_help"] = text.command_help("start_turn", lang_, preset)
    return ctx


def _outcome(
    screen: Screen,
    outcomes: dict[tuple[str, Any], dict[str, Any]],
    command: dict[str, Any],
    item: dict[str, Any] | None,
) -> str:
    """What a defense command leads to, said from the view's ``defending.choices`` (the engine's
    ``defense.choices``): "" for any other command."""
    choice = outcomes.get((command["kind"], command.get("card")))
    if choice is None or item is None:
        return ""
    return text.defense_result(choice, item, screen.lang, screen.preset, screen.seat)


def _tab(screen: Screen, phase: str, stored: int) -> tuple[str, str]:
    """The tab's title and alert when something waits for the caller: "(1) Your turn — Game 3",
    "(!) Defend — Game 3" (the page's script sets the title and the favicon from them)."""
    from delve.server.games import present

    game = f"{_t(screen, 'Game', 'ゲーム')} {screen.game.pk} — {present.preset_label(screen.game)} — Delve"
    if phase == "defense":
        return _t(screen, f"(!) Defend — {game}", f"(!) 防御 — {game}"), "defense"
    if phase in {"ready", "move", "core"}:
        count = max(1, stored)
        return _t(screen, f"({count}) Your turn — {game}", f"({count}) あなたの番 — {game}"), "turn"
    return game, ""


def _button(screen: Screen, command: dict[str, Any], *, label: str | None = None) -> dict[str, Any]:
    kind = command["kind"]
    return {
        "kind": kind,
        "json": as_json(command),
        "label": label or text.command_label(command, screen.lang, screen.preset, screen.seat),
        "help": text.command_help(kind, screen.lang, screen.preset),
        "keys": text.command_keys(kind, screen.lang),
        "arrow": DIRECTION_ARROWS.get(command.get("dir", ""), ""),
        # a class ability costs CP like a card (FL-CLS-9): the button says how much
        "cp": combat.ABILITY_CP if kind in ABILITIES else None,
    }


ABILITIES = frozenset({"jump", "steal", "parry"})
"""The class abilities a player pays CP for (FL-CLS-9)."""


def _single_cp(card: dict[str, Any] | None) -> int | None:
    if not card:
        return None
    cp = card.get("cp", {})
    return cp.get("use") if "use" in cp else (min(cp.values()) if cp else None)


def _card_help(card: dict[str, Any], lang_: str, preset: str) -> str:
    definition = content.load().cards.get(card["kind"])
    return text.vocabulary(text.pick(definition.text, lang_), lang_, preset) if definition else card["kind"]


USE_ORDER = ("adjacent", "remote", "effect", "trap")
"""How a card's uses are listed: aimed at someone first, the trap (which surprises most) last."""


def _hand(screen: Screen, you: dict[str, Any], uses: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """FL-UI-14, FL-CP-3: the own hand with the CP consumption per use; in the core phase each
    card lists its legal uses (FL-CORE-1, taken from ``legal_commands``), each use with its CP,
    the expected damage of an attack and one button per target (its tile marked for picking on
    the map); setting a trap and aiming at oneself ask for a confirmation first."""
    lang_, preset = screen.lang, screen.preset
    by_card: dict[int, list[dict[str, Any]]] = {}
    for command in uses:
        by_card.setdefault(command["card"], []).append(command)
    cards = []
    explained: set[str] = set()  # each use's note once per hand, on its first card: a shorter column
    own_tile = you.get("tile")
    own = f"{own_tile[0]},{own_tile[1]}" if own_tile else ""
    for card in you.get("hand", []):
        definition = content.load().cards.get(card["kind"])
        cp = card.get("cp", {})
        costs = [
            {"use": text.use_name(use, lang_, preset) if use != "use" else "", "cp": value}
            for use, value in sorted(cp.items(), key=lambda item: ("trap", "adjacent", "remote", "use").index(item[0]))
        ]
        groups: dict[str, dict[str, Any]] = {}
        for command in by_card.get(card["id"], []):
            use = command.get("use") or "effect"
            group = groups.get(use)
            if group is None:
                group = groups[use] = {
                    "id": f"aim-{card['id']}-{use}",
                    "use": use,
                    "title": text.use_name(use, lang_, preset) if use != "effect" else _t(screen, "Use", "使う"),
                    "cp": cp.get(use, cp.get("use")),
                    "choices": [],
                    "note": "" if use in explained else _use_note(screen, use),
                }
                explained.add(use)
            group["choices"].append(_choice(screen, command, definition))
        ordered = [groups[u] for u in USE_ORDER if u in groups]
        for group in ordered:
            # "Pick on the map" only where the map helps: more than one target, or one not the
            # player themselves (First Aid, Vitality, Teleport act on the user: nothing to pick)
            tiles = {c["tile"] for c in group["choices"] if c["tile"]}
            group["aim"] = group["use"] != "trap" and bool(tiles) and (len(group["choices"]) > 1 or tiles != {own})
        cards.append(
            {
                "id": card["id"],
                "name": text.card_name(card["kind"], lang_, preset),
                "category": text.category_name(card["category"], lang_),
                "category_id": card["category"],
                "costs": costs,
                "text": text.vocabulary(text.pick(definition.text, lang_), lang_, preset) if definition else "",
                "groups": ordered,
                "choices": [c for g in ordered for c in g["choices"]],
            }
        )
    return cards


def _use_note(screen: Screen, use: str) -> str:
    trap = text.word("trap", screen.lang, screen.preset)
    notes = {
        "trap": (
            f"A hidden {trap.lower()} on the tile you stand on: it goes off when someone else steps there.",
            f"今いるマスに{trap}を隠して仕掛けます。他の誰かが踏むと発動します。",
        ),
        "adjacent": ("At a neighbour: your base attack is added.", "隣のマスへ：基本攻撃力が加わります。"),
        "remote": ("At any other player, wherever they are.", "どこにいても他のプレイヤーへ。"),
    }
    en, ja = notes.get(use, ("", ""))
    return _t(screen, en, ja)


def _choice(screen: Screen, command: dict[str, Any], definition: Any) -> dict[str, Any]:
    """One button of a card's use: its target, the tile to pick on the map, the expected damage
    and the confirmation a surprising play asks for."""
    lang_ = screen.lang
    tile, target = _aim(screen, command)
    name = text.card_name(definition.id, lang_, screen.preset) if definition else ""
    confirm = ""
    if command.get("use") == "trap":
        trap = text.word("trap", lang_, screen.preset)
        confirm = _t(
            screen,
            f"Set {name} as a hidden {trap.lower()} on the tile you stand on? The card is spent.",
            f"{name}を{trap}として今いるマスに仕掛けますか？カードは使い切りです。",
        )
    elif command.get("target") == screen.seat:
        confirm = _t(
            screen, f"Use {name} on yourself? The card is spent.", f"{name}を自分に使いますか？カードは使い切りです。"
        )
    label = _target_label(screen, command)
    if target is not None and target.get("type") == "monster" and _no_effect_on_monsters(definition):
        label += _t(screen, " (no effect on monsters)", "（モンスターには効かない）")
    return {
        "json": as_json(command),
        "label": label,
        "tile": f"{tile[0]},{tile[1]}" if tile else "",
        "damage": _expected_damage(screen, command, definition, target),
        "confirm": confirm,
    }


def _no_effect_on_monsters(definition: Any) -> bool:
    """A special attack card with no damage whose special does nothing to a monster (Blind,
    Treasure Toss...): it may still be aimed at one, to no effect (FL-STS-2, AMB-35)."""
    if definition is None or definition.power or not definition.special:
        return False
    status = content.load().statuses.get(definition.special)
    return status is None or not status.monsters


def _aim(screen: Screen, command: dict[str, Any]) -> tuple[tuple[int, int] | None, dict[str, Any] | None]:
    """The map tile a command aims at (and what stands there), as the view shows it."""
    own = (screen.you or {}).get("tile")
    if screen.view is None or not own:
        return None, None
    chars = screen.view["characters"]
    found: dict[str, Any] | None
    if "dir" in command:
        dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[command["dir"]]
        tile = (own[0] + dx, own[1] + dy)
        return tile, next((c for c in chars if tuple(c["tile"]) == tile), None)
    if "target" in command:
        found = next((c for c in chars if c["type"] == "player" and c.get("seat") == command["target"]), None)
    elif "monster" in command:
        found = next((c for c in chars if c["type"] == "monster" and c.get("id") == command["monster"]), None)
    else:
        return (own[0], own[1]), None
    return ((found["tile"][0], found["tile"][1]) if found else None), found


def _target_label(screen: Screen, command: dict[str, Any]) -> str:
    """ "→ right: Player 02", "Player 03", "Your Slime", "On your tile"."""
    lang_ = screen.lang
    if command.get("use") == "trap":
        return _t(screen, "On your tile", "自分のマスに")
    if "dir" in command:
        what = _neighbour(screen, command["dir"])
        arrow = f"{DIRECTION_ARROWS[command['dir']]} {text.direction_name(command['dir'], lang_)}"
        return f"{arrow}: {what}" if what else arrow
    if "target" in command:
        return text.capital(text.player_name(command["target"], lang_, screen.seat))
    if "monster" in command:
        return text.capital(_monster_by_id(screen, command["monster"]))
    return text.command_name("use_card", lang_, screen.preset)


def _expected_damage(screen: Screen, command: dict[str, Any], definition: Any, target: dict[str, Any] | None) -> str:
    """For an attack card aimed at a player or monster whose values the caller can see: the
    damage if it lands, floor(max(0, power - defense) x Ironwall/Stripped), and the chance it is
    evaded (FL-USE-3, FL-ATK-11, FL-ATK-12), before any defense card the target may play (and
    the parry of a target who can parry a remote use: ``_parry_note``). A
    player's values are public (the all-players panel), so a remote use at a player out of sight
    (FL-USE-4: wherever they are) is estimated from them too; a monster is seen on the map only."""
    use = command.get("use")
    if definition is None or use not in {"adjacent", "remote"} or screen.view is None:
        return ""
    if target is None and "target" in command:  # a player out of sight: their public values
        target = {"type": "player", "seat": command["target"]}
    if target is None:
        return ""
    power = int(definition.power or 0)
    if definition.category == "damage" and use == "adjacent":
        power += _my_attack(screen)
    if power <= 0:
        return ""
    values: dict[str, Any] | None = target
    if target["type"] == "player":
        values = next((p for p in screen.view["players"] if p["seat"] == target.get("seat")), None)
        if values is None or values.get("hidden"):
            return _t(screen, "Their values are hidden (Stealth).", "能力値は隠れています（隠密）。")
    if values is None or values.get("defense") is None:
        return ""
    active = {s["id"] for s in values.get("statuses") or [] if not s.get("cancelled")}
    multiplier = (0.5 if "ironwall" in active else 1) * (1.5 if "stripped" in active else 1)
    damage = int(max(0, power - int(values["defense"])) * multiplier)
    evasion = int(values.get("evasion") or 0)
    if "sluggish" in active:
        evasion = 0
    elif "nimble" in active:
        evasion = min(100, evasion + 20)
    parry = _parry_note(screen, values) if use == "remote" and target["type"] == "player" else ""
    return _t(
        screen,
        f"≈ {damage} damage if it lands ({evasion}% evasion), before any defense card{parry}",
        f"命中すれば約{damage}ダメージ（回避率{evasion}%、防御カード使用前{parry}）",
    )


def _parry_note(screen: Screen, player: dict[str, Any]) -> str:
    """FL-CLS-2, FL-DEF-3, FL-ATK-17: a player whose class can parry (the Warrior, 戦士 in both
    presets) may nullify a 《遠隔》 attack aimed at them for a flat 20 CP (FL-CLS-9): the remote
    estimate says so for such a target only, in the preset's class name."""
    cls = player.get("class")
    classes = content.load().classes
    if cls not in classes or not classes[cls].has("parry"):
        return ""
    name = text.class_name(cls, screen.lang, screen.preset)
    article = "an" if name[:1] in set("AEIOU") else "a"
    return _t(
        screen,
        f"; {article} {name} may parry it for {combat.ABILITY_CP} CP (no damage)",
        f"。{name}は{combat.ABILITY_CP} CPで打ち払って無効にできる",
    )


def _my_attack(screen: Screen) -> int:
    me = next((p for p in (screen.view or {}).get("players", []) if p["seat"] == screen.seat), None)
    return int(me.get("attack") or 0) if me else 0


def _neighbour(screen: Screen, direction: str) -> str:
    """What stands on the adjacent tile in that direction, as the view shows it."""
    you = screen.you
    if not you or not you.get("tile") or screen.view is None:
        return ""
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
    x, y = you["tile"][0] + dx, you["tile"][1] + dy
    for char in screen.view["characters"]:
        if tuple(char["tile"]) == (x, y):
            return _token(screen, char)["label"]
    n = int(screen.view["map"]["size"])
    if 0 <= x < n and 0 <= y < n and screen.view["map"]["tiles"][y * n + x] == "+":
        return text.terrain_name("+", screen.lang, screen.preset)
    return ""


def _monster_by_id(screen: Screen, monster_id: int) -> str:
    for char in (screen.view or {}).get("characters", []):
        if char["type"] == "monster" and char.get("id") == monster_id:
            return _token(screen, char)["label"]
    return _t(screen, "a monster", "モンスター")


def _quickmove(screen: Screen) -> dict[str, Any]:
    """FL-UI-6, FL-MOVE-8: one button per direction, active only when that move is legal."""
    legal = {c.get("dir"): c for c in screen.legal if c["kind"] == "move"}
    stay = next((c for c in screen.legal if c["kind"] == "stay"), None)
    pad = {}
    for direction in text.DIRECTIONS:
        command = legal.get(direction)
        pad[direction] = {
            "dir": direction,
            "arrow": DIRECTION_ARROWS[direction],
            "label": text.command_label({"kind": "move", "dir": direction}, screen.lang, screen.preset),
            "json": as_json(command) if command else "",
            "keys": DIRECTION_KEYS[direction],
        }
    return {
        "pad": pad,
        "stay": _button(screen, stay) if stay else None,
        "active": bool(legal) or stay is not None,
        "move_help": text.command_help("move", screen.lang, screen.preset),
        "move_keys": text.command_keys("move", screen.lang),
        # FL-LOGIN-4: a dead player can only change their comment: no pad
        "seated": screen.you is not None and screen.you.get("phase") != "dead",
        "idle_hint": _t(
            screen,
            f"The buttons work in your {text.phase_name('move', 'en', screen.preset).lower()}.",
            f"ボタンは{text.phase_name('move', 'ja', screen.preset)}に使えます。",
        ),
        "ended_note": _t(screen, "The game has ended.", "ゲームは終了しました。")
        if screen.view is not None and screen.view["game"].get("ended")
        else "",
    }


# ---------------------------------------------------------------- (7) own status, (9) players


def _statuses(screen: Screen, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """FL-VIS-11, FL-UI-11: plus statuses light blue, minus red; turns left for one's own."""
    out = []
    for item in items:
        definition = content.load().statuses.get(item["id"])
        out.append(
            {
                "name": text.status_name(item["id"], screen.lang),
                "kind": item.get("kind", "minus"),
                "turns": item.get("turns"),
                "strength": item.get("strength"),
                "text": text.vocabulary(text.pick(definition.text, screen.lang), screen.lang, screen.preset)
                if definition
                else "",
                "cancelled": _t(screen, "cancelled", "無効") if item.get("cancelled") else "",
                "cancelled_help": _t(
                    screen,
                    "Cancelled by its opposite: no effect; it stays listed until its turns run out.",
                    "対極の状態変化で効果は消えています（表示は残り時間まで残ります）。",
                )
                if item.get("cancelled")
                else "",
            }
        )
    return out


def _public_player(screen: Screen, p: dict[str, Any]) -> dict[str, Any]:
    lang_, preset = screen.lang, screen.preset
    entry: dict[str, Any] = {
        "seat": p["seat"],
        "number": p["number"],
        "name": p["name"],
        "class": text.class_name(p["class"], lang_, preset),
        "alive": p["alive"],
        "fate": _fate(screen, p.get("fate")),
        "fate_id": p.get("fate") or "",
        "comment": p.get("comment", ""),
        "practice": p.get("practice", False),
        "hand_size": p.get("hand_size"),
        "hidden": bool(p.get("hidden")),
        "mine": p["seat"] == screen.seat,
        "image": p.get("image") or "",
        "emblem": content.load().class_name(p["image"], preset, "ja")[:1]
        if p.get("image") in content.load().classes
        else "",
        "bot": _bot_mark(screen, int(p["seat"])),
    }
    if not p.get("hidden"):
        entry.update(
            hp=p["hp"],
            max_hp=p["max_hp"],
            cp=p["cp"],
            max_cp=p["max_cp"],
            hp_pct=_pct(p["hp"], p["max_hp"]),
            cp_pct=_pct(p["cp"], p["max_cp"]),
            attack=p["attack"],
            defense=p["defense"],
            magic=p["magic"],
            evasion=p["evasion"],
            statuses=_statuses(screen, p.get("statuses") or []) if p["alive"] else [],  # the dead have none
            treasures=p["treasures"],
            kills=p["kills"],
            visited=p["visited"],
        )
    return entry


def _bot_mark(screen: Screen, index: int) -> str:
    """ "bot" for a seat a computer plays, "took over" for one a bot took over from its idle player."""
    seat = next((s for s in screen.seats if s.index == index), None)
    if seat is None or not seat.is_bot:
        return ""
    return "took_over" if seat.bot_since is not None else "bot"


def _pct(value: int, top: int) -> int:
    """A bar's fill in steps of 5 (the stylesheet has a class per step: no inline styles under the
    CSP); never empty while something is left, never full while something is missing."""
    if top <= 0 or value <= 0:
        return 0
    if value >= top:
        return 100
    return max(5, min(95, 5 * round(20 * value / top)))


def _fate(screen: Screen, fate: str | None) -> str:
    names = {
        "died": ("dead", "死亡"),
        "escaped": ("escaped", "脱出"),
        "survived": ("last survivor", "最後の生存者"),
    }
    if not fate:
        return ""
    if fate in ("abandoned", "gave_up"):  # the preset's give-up word (P-33: Level D says 投了)
        return text.word(f"fate_{fate}", screen.lang, screen.preset)
    en, ja = names.get(fate, (fate, fate))
    return _t(screen, en, ja)


def _labels(screen: Screen) -> dict[str, str]:
    """The preset's ability labels (P-24): 基本攻撃力 / 攻撃..."""
    return {key: text.word(key, screen.lang, screen.preset) for key in ("attack", "defense", "magic", "evasion")}


def _status(screen: Screen) -> dict[str, Any]:
    you = screen.you
    if you is None or screen.view is None:
        return {"me": None}
    public = next(p for p in screen.view["players"] if p["seat"] == you["seat"])
    me = _public_player(screen, public)
    game = screen.view["game"]
    return {
        "me": me,
        "labels": _labels(screen),
        "treasure_quota": game["treasure_quota"],
        "kill_quota": game["kill_quota"],
        "qualifies": you.get("qualifies"),
        "stored": you.get("stored_turns", 0),
        "max_cards": you.get("max_cards"),
        "sight": you.get("sight_radius"),
        "effective_evasion": you.get("effective_evasion"),
        "exit_open": game.get("exit_open"),
        "ended": bool(game.get("ended")),
    }


def _players(screen: Screen) -> dict[str, Any]:
    if screen.view is None:
        return {"players": [], "labels": _labels(screen)}
    players = [_public_player(screen, p) for p in screen.view["players"]]
    return {
        "players": players,
        "labels": _labels(screen),
        "short": {key: text.short_label(key, screen.lang) for key in ("attack", "defense", "magic", "evasion")},
        # FL-UI-9: 練 is explained in words under the list too (a phone shows no hover title)
        "any_practice": any(p.get("practice") for p in players),
    }


def _comment(screen: Screen) -> dict[str, Any]:
    allowed = any(c["kind"] == "comment" for c in screen.legal)
    return {"allowed": allowed, "note": screen.comment_note, "seated": screen.mine is not None}


def _result(screen: Screen, *, prefix: bool = True) -> str:
    """The game's result: "The game has ended: Player 01 escaped and won." (without ``prefix``:
    the sentence after the colon, for the banner whose title already says the game is over)."""
    game = screen.view["game"] if screen.view else {}
    winner = game.get("winner")
    name = None if winner is None else text.player_name(winner, screen.lang, screen.seat)
    return text.game_result(name, game.get("win_kind"), screen.lang, prefix=prefix)


#: How a seat ended, best first (the standings' order after the winner).
FATE_ORDER = ("escaped", "survived", "", "died", "abandoned", "gave_up")


def _ending(screen: Screen) -> dict[str, Any]:
    """The end of the game: a banner with the result (and what it means for the caller), the
    standings with how each seat ended, and the way to the full log. Empty while the game runs."""
    view = screen.view
    if view is None or not view["game"].get("ended"):
        return {"ended": False}
    game = view["game"]
    winner = game.get("winner")
    players = [_public_player(screen, p) for p in view["players"]]
    for entry, raw in zip(players, view["players"], strict=True):
        entry["won"] = raw["seat"] == winner
        entry["fate_id"] = raw.get("fate") or ("" if raw["alive"] else "died")
        if not entry["fate"]:
            entry["fate"] = _t(screen, "still inside", "残留") if raw["alive"] else _fate(screen, "died")
    players.sort(
        key=lambda e: (
            not e["won"],
            FATE_ORDER.index(e["fate_id"]) if e["fate_id"] in FATE_ORDER else len(FATE_ORDER),
            -(e.get("treasures") or 0),
            -(e.get("kills") or 0),
            e["seat"],
        )
    )
    you = screen.seat
    closed = game.get("win_kind") == "closed"  # an operator closed it: no winner, and no loser for it
    if you is None or closed:
        personal = ""
    elif you == winner:
        personal = ""  # the headline already says "you ... won"
    else:
        mine = next((p for p in players if p["seat"] == you), None)
        personal = _t(
            screen,
            f"You did not win this time ({mine['fate'] if mine else ''}).",
            f"今回は勝利を逃しました（{mine['fate'] if mine else ''}）。",
        )
    return {
        "ended": True,
        "headline": _result(screen, prefix=False),
        "reason": _reason_line(screen, closing.reason(screen.game)) if closed else "",
        "personal": personal,
        "won": you is not None and you == winner,
        "standings": players,
        "labels": _labels(screen),
        "words": {
            "title": _t(screen, "Game over", "ゲーム終了"),
            "standings": _t(screen, "Final standings", "最終結果"),
            # FL-WIN-7: the losers have no places among themselves; the line says how they are listed
            "order": _t(
                screen,
                "Everyone but the winner lost; the others are listed by how they ended, "
                "then by treasures, kills and player number.",
                "勝者以外は全員敗北です。ほかのプレイヤーは結末、財宝、撃破、プレイヤー番号の順に並んでいます。",
            )
            if not closed
            else _t(
                screen,
                "Nobody won or lost by the game's end: the players are listed by how they ended, "
                "then by treasures, kills and player number.",
                "決着はついていません。プレイヤーは結末、財宝、撃破、プレイヤー番号の順に並んでいます。",
            ),
            "player": _t(screen, "Player", "プレイヤー"),
            "ended_how": _t(screen, "How it ended", "結末"),
            "treasures": _t(screen, "Treasures", "財宝"),
            "kills": _t(screen, "Kills", "撃破"),
            "check": _t(screen, "Checkpoints", "チェック"),
            "winner": _t(screen, "winner", "勝者"),
            "log": _t(screen, "Read the full log of the game", "ゲームの全記録を読む"),
            "replay": _t(screen, "Watch the replay", "リプレイを見る"),
            "map": _t(
                screen,
                "The whole map is revealed below: every trap and fake included.",
                "マップはすべて公開されています（ワナやニセ物も含む）。",
            ),
        },
    }


def _reason_line(screen: Screen, reason: str | None) -> str:
    """The reason an operator gave for closing the game, as the ending banner says it."""
    if reason is None:
        return ""
    return _t(screen, f"The operator's reason: {reason}", f"運営者からの理由：{reason}")


def _t(screen: Screen, en: str, ja: str) -> str:
    return ja if screen.lang == "ja" else en


_BUILDERS = {
    "takeover": _takeover,
    "ending": _ending,
    "map": _map,
    "tile": _tile,
    "events": _events,
    "piles": _piles,
    "commands": _commands,
    "quickmove": _quickmove,
    "status": _status,
    "players": _players,
    "comment": _comment,
}


def local(moment: dt.datetime | None) -> dt.datetime | None:
    return None if moment is None else timezone.localtime(moment)
