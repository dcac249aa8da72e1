"""The White Maiden board screen: turns a seat's view and its legal commands into the panels of
the screen (status, map, decision, dice, maidens, bosses, Arcana, log, decks), in the active
language, with the exact odds of every option (:mod:`maiden_odds`).

Only views leave here: nothing reads a state. Every button is one of ``legal_commands`` as is.
A player who plays several seats in one browser (hot-seat, ``lobby.models.TableSeat``) sees the
screen of the seat that must decide now.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.template import Context
from django.template.base import render_value_in_context
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from delve.kernel import DelveError, Event, journal
from delve.kernel.words import join, listing
from delve.maiden import rules_text
from delve.maiden import settings as maiden_settings
from delve.maiden import text as maiden_text
from delve.server.games import bots, closing, engine, present
from delve.server.games.models import CommandEntry, Game, Seat
from delve.server.lobby.table import controlled_seats
from delve.server.play import maiden_odds
from delve.server.records.verify import own_event

MAIDEN = "maiden"
PANELS = ("takeover", "status", "map", "decide", "dice", "maidens", "bosses", "arcana", "log", "decks")
STATS = ("pie", "wil", "agi", "ins")
SEAT_COLOURS = ("#d4486b", "#2f7fd8", "#2c9a5a", "#c98a12")
LOG_SHOWN = 30


def lang() -> str:
    return (get_language() or "en")[:2]


def pick(text: Any, language: str) -> str:
    """A content text ({en, ja} table or struct) in the language, falling back to English."""
    if text is None:
        return ""
    if isinstance(text, str):
        return text
    try:
        return str(text[language] or text["en"])
    except (KeyError, TypeError):
        return str(dict(text).get(language) or dict(text).get("en") or "")


def as_json(command: dict[str, Any]) -> str:
    return json.dumps(command, ensure_ascii=False, sort_keys=True)


def signature(html: str) -> str:
    return hashlib.sha1(html.encode(), usedforsecurity=False).hexdigest()[:12]


def content() -> Any:
    from delve.maiden.content import load

    return load()


# ---------------------------------------------------------------- loading


@dataclass
class Screen:
    """Everything one caller may see of one White Maiden game at one moment."""

    game: Game
    seats: list[Seat]
    mine: Seat | None
    controlled: list[Seat]
    acting: Seat | None
    view: dict[str, Any] | None
    legal: list[dict[str, Any]]
    settings: dict[str, Any]
    lang: str
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def seat(self) -> int | None:
        return None if self.acting is None else self.acting.index

    @property
    def choices(self) -> str:
        return engine.choices_digest(self.legal)

    @property
    def playing(self) -> list[Seat]:
        """The seats the caller plays now in this browser: those they control that no bot plays
        (a host who left their own seat to a bot still plays their table's)."""
        return [s for s in self.controlled if not s.is_bot]

    @property
    def hot_seat(self) -> bool:
        return len(self.playing) > 1

    @property
    def table(self) -> bool:
        """The caller controls several seats of this game (hot-seat), whoever plays them now."""
        return len(self.controlled) > 1

    @property
    def at_table(self) -> bool:
        """The caller plays a seat of their table (hot-seat), not only their own."""
        return any(self.mine is None or s.pk != self.mine.pk for s in self.playing)

    @property
    def playing_names(self) -> str:
        return join((s.name for s in self.playing), self.lang)

    @functools.cached_property
    def view_key(self) -> str:
        """The view as canonical JSON, made once for all the buttons' kept chances."""
        return maiden_odds.canonical(self.view)

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return _("everyone")
        for s in self.seats:
            if s.index == seat:
                return s.name
        return _("Seat %(n)s") % {"n": seat + 1}


def load(game: Game, user: Any, *, prefer: int | None = None) -> Screen:
    """The screen for ``user``: the view of the seat they play that must decide now (hot-seat),
    else their own seat, else a spectator's view."""
    seats = present.public_seats(game)
    mine = present.own_seat(seats, user)
    controlled = [s for s in controlled_seats(game, user, seats) if s.index is not None or game.status == "open"]
    ruleset = engine.ruleset_of(game)
    settings = ruleset.validate_settings(game.settings)
    screen = Screen(game, seats, mine, controlled, None, None, [], settings, lang())
    if game.status == Game.Status.OPEN or not game.state:
        screen.acting = mine
        return screen
    now = present.current(game)  # the state decoded once, its clock brought up to now in memory
    assert now is not None
    state = now.state
    acting = _acting(ruleset, state, screen.playing or controlled, prefer)
    screen.acting = acting if acting is not None else mine
    index = None if screen.acting is None else screen.acting.index
    screen.view = present.seat_view(game, now, index)  # its log from the event table
    legal = ruleset.legal_commands(state, index) if index is not None and game.status == "running" else []
    # a bot plays the seat for its idle player: no choices until they take it back (the banner)
    screen.legal = engine.offered(legal, taken_over=screen.acting is not None and screen.acting.bot_since is not None)
    return screen


def _acting(ruleset: Any, state: Any, controlled: list[Seat], prefer: int | None) -> Seat | None:
    if not controlled:
        return None
    if len(controlled) == 1:
        return controlled[0]
    by_index = {s.index: s for s in controlled}
    if prefer is not None and prefer in by_index:
        return by_index[prefer]
    public = ruleset.view(state, None)
    order: list[int | None] = [p["seat"] for p in public.get("pending", [])]
    order.append(public.get("active_seat"))
    for seat in order:
        if seat in by_index and ruleset.legal_commands(state, seat):
            return by_index[seat]
    for seat_obj in controlled:
        if seat_obj.index is not None and ruleset.legal_commands(state, seat_obj.index):
            return seat_obj
    return controlled[0]


# ---------------------------------------------------------------- rendering


def render_panel(screen: Screen, name: str, *, oob: bool = False) -> tuple[str, str]:
    # stripped, as the Fated screen does: a panel with nothing to show is :empty (and hidden)
    inner = render_to_string(f"play/maiden/panels/{name}.html", {"s": screen, **panel_context(screen, name)}).strip()
    sig = signature(inner)
    html = render_to_string("play/maiden/panel.html", {"name": name, "sig": sig, "inner": mark_safe(inner), "oob": oob})
    return html, sig


def render_panels(screen: Screen, *, known: dict[str, str] | None = None) -> str:
    parts = [
        f'<input type="hidden" id="game-version" name="version" value="{screen.game.version}" hx-swap-oob="true">',
        f'<input type="hidden" id="game-choices" name="choices" value="{screen.choices}" hx-swap-oob="true">',
        f'<input type="hidden" id="acting-seat" name="seat" value="{"" if screen.seat is None else screen.seat}"'
        ' hx-swap-oob="true">',
    ]
    for name in PANELS:
        html, sig = render_panel(screen, name, oob=True)
        if known is None or known.get(name) != sig:
            parts.append(html)
    return "\n".join(parts)


def all_panels(screen: Screen) -> dict[str, SafeString]:
    return {name: mark_safe(render_panel(screen, name)[0]) for name in PANELS}


#: The panels of a replay step: the board as the game screen showed it to a spectator (no
#: decision, no log: the replay has its own words for the step's command and events; no decks).
REPLAY_PANELS = ("status", "map", "dice", "maidens", "bosses")


def replay_panels(
    game: Game, ruleset: Any, state: Any, at: int | None, happened: Sequence[Event] = ()
) -> dict[str, SafeString]:
    """The board at one step of a finished game's replay (``state``: the game after that step,
    ``at``: its time), drawn by the game screen's own panels from the state's public view, as a
    spectator saw it then: round and danger, the map with the maidens on it, the check, the maidens
    and the bosses; no hidden card, no passage nobody found, no command, no deadline, no "you".
    ``happened``: the events up to that step, oldest first, for the view's recent events (the
    check panel's last check)."""
    seats = present.public_seats(game)
    view = ruleset.view(state, None)
    recent = journal(ruleset, state)
    if recent is not None:
        public = [e for e in happened if e.visible_to(None) and not own_event(e.kind, e.data)]
        recent.add(public[-recent.public_kept :] if recent.public_kept else [])
        view = recent.show(view, None)
    settings = ruleset.validate_settings(game.settings)
    screen = Screen(game, seats, None, [], None, view, [], settings, lang(), extra={"replay": True, "at": at})
    return {name: mark_safe(render_panel(screen, name)[0]) for name in REPLAY_PANELS}


def panel_context(screen: Screen, name: str) -> dict[str, Any]:
    if screen.view is None:
        return {}
    return _BUILDERS[name](screen)


# ---------------------------------------------------------------- names


def stat_name(stat: str) -> str:
    return {
        "pie": _("Piety"),
        "wil": _("Will"),
        "agi": _("Agility"),
        "ins": _("Inspiration"),
    }.get(stat, stat)


def stat_lines(language: str) -> dict[str, str]:
    """What each stat does, one line each, as the guide says it (its "Stats and level-ups" list,
    in the order Piety, Will, Agility, Inspiration): the stat placement shows them."""
    from delve.server.play import maiden_help  # the guide imports this module

    for anchor, _title, blocks in maiden_help.GUIDE:
        if anchor != "stats":
            continue
        for block in blocks:
            if isinstance(block, list) and len(block) == 4:
                return dict(zip(("pie", "wil", "agi", "ins"), (item[language[:2]] for item in block), strict=True))
    return {}


def stat_short(stat: str) -> str:
    return {"pie": _("Pie"), "wil": _("Wil"), "agi": _("Agi"), "ins": _("Ins")}.get(stat, stat)


def symbol_name(symbol: str, language: str) -> str:
    symbols = content().symbols
    return pick(symbols.get(symbol), language) or symbol


def skill_condition(symbols: Iterable[str], language: str, *, joiner: str = ", ") -> str:
    """A skill's condition (its action symbols, MV-SKILL-4) in brackets as the reader's language
    writes them: "[Dash, Guard]" in English (``joiner`` between the names), 「ダッシュ」「ガード」 in
    Japanese, each action card's name in the draft's 「」 as it names them (「ダッシュ（Ｄ）」
    「ジャンプ（Ｊ）」…); empty without symbols. The maidens panel and the guide both use it."""
    names = [symbol_name(s, language) for s in symbols]
    if not names:
        return ""
    if language[:2] == "ja":
        return "".join(f"「{name}」" for name in names)
    return "[" + joiner.join(names) + "]"


def symbol_letter(symbol: str, language: str) -> str:
    """The one letter of an action symbol under a stat (D, J, P, G; ダ, ジ, プ, ガ)."""
    return symbol_name(symbol, language)[:1]


def symbol_legend(language: str) -> list[dict[str, str]]:
    """Every action symbol's letter and name, in the content's order."""
    return [{"letter": symbol_letter(s, language), "name": symbol_name(s, language)} for s in content().symbols]


def colour_name(colour: str | None) -> str:
    return {
        "red": _("red"),
        "blue": _("blue"),
        "black": _("black"),
        "white": _("white"),
    }.get(colour or "", colour or "")


def room_type_name(kind: str) -> str:
    return {
        "normal": _("room"),
        "rest": _("rest room"),
        "quest": _("quest room"),
        "danger": _("danger room"),
        "boss": _("boss room"),
        "start": _("start"),
    }.get(kind, kind)


def room_label(room_id: str | None, language: str) -> str:
    """A room's name: the start square, a Sephirah's boss room, or "The Fool, room 2" (area and
    place in its chain, as the log says it)."""
    if not room_id:
        return ""
    data = content()
    room = data.rooms.get(room_id)
    if room is None:
        return room_id
    if room.type == "start" or room_id == data.start:
        return _("Start (S)")
    if room.boss:
        boss = data.bosses.get(room.boss)
        return pick(boss.sephirah, language) if boss is not None else room_id
    # the same words as the game's log ("The World, room 1" / "世界・ルーム1")
    return maiden_text.Names(language, data).room(room_id)


def skill_name(skill_id: str, language: str) -> str:
    skill = content().skills.get(skill_id)
    return pick(skill.name, language) if skill else skill_id


def boss_name(boss_id: str, language: str) -> str:
    boss = content().bosses.get(boss_id)
    return pick(boss.name, language) if boss else boss_id


def familiar_name(familiar_id: str, language: str) -> str:
    familiar = content().familiars.get(familiar_id)
    return pick(familiar.name, language) if familiar else familiar_id


def area_name(area_id: str, language: str) -> str:
    area = content().areas.get(area_id)
    return pick(area.name, language) if area else area_id


def card_name(deck: str, card_id: str, language: str) -> str:
    data = content()
    if deck == "room":
        card = data.room_cards.get(card_id)
    elif deck == "quest":
        card = data.quests.get(card_id)
    elif deck == "skill":
        card = data.skills.get(card_id)
    else:
        return symbol_name(card_id, language)
    return pick(card.name, language) if card is not None else card_id


def phase_name(phase: str) -> str:
    return {
        "setup": _("setting up"),
        "move": _("moving"),
        "room": _("entering a room"),
        "pre_roll": _("before the roll"),
        "post_roll": _("after the roll"),
        "levelup": _("levelling up"),
        "ended": _("the game has ended"),
    }.get(phase, phase)


def decision_name(kind: str, data: dict[str, Any]) -> str:
    if kind == "choose_familiar":
        return _("choosing a familiar")
    if kind == "choose_start_player":
        return _("choosing the start player")
    if kind == "keep_card":
        deck = data.get("deck")
        return {
            "room": _("keeping one room card"),
            "quest": _("keeping one quest card"),
            "skill": _("keeping one skill card"),
            "action": _("keeping one action card"),
        }.get(str(deck), _("keeping one card"))
    if kind == "place_card":
        return _("placing an action card on a stat")
    if kind == "agi_option":
        return _("choosing what Agility gives")
    what = data.get("for")
    if what == "exhaust":
        return _("choosing a skill to exhaust")
    if what == "evolve":
        return _("choosing: evolve the familiar or keep the Arcana")
    if what == "death":
        return _("about to die: cancel the death or not")
    return _("choosing an effect's target")


def step_name(phase: str) -> str:
    return {
        "move": _("choosing where to move"),
        "pre_roll": _("about to roll the dice"),
        "post_roll": _("ascending and resolving the roll"),
    }.get(phase, phase_name(phase))


# ---------------------------------------------------------------- (1) status: round, danger, turn


def _status(screen: Screen) -> dict[str, Any]:
    view = screen.view
    assert view is not None
    rounds = int(view["rounds"])
    round_ = int(view["round"])
    track = [{"n": n, "done": n < round_, "now": n == round_, "odd": n % 2 == 1} for n in range(1, rounds + 1)]
    dl = int(view["danger_level"])
    danger = [{"n": n, "on": n <= dl} for n in range(1, max(6, dl) + 1)]
    now = _now_line(screen)
    tab_title, tab_alert = _tab(screen, bool(now.get("you")))
    return {
        "round": round_,
        "rounds": rounds,
        "track": track,
        "danger": danger,
        "danger_level": dl,
        "markers": view["action_markers"],
        "base_target": view["base_target"],
        "turn": view["turn_in_round"],
        "turns": view["turns_per_round"],
        "now": now,
        "tab_title": tab_title,
        "tab_alert": tab_alert,
        "ended": view["ended"],
        "result": view["result"],
        "sephirot": view.get("sephirot", 0),
        "deadline": None if screen.extra.get("replay") else view.get("deadline"),  # a replay's clock is gone
        "table": [{"index": s.index, "name": s.name, "acting": s == screen.acting} for s in screen.playing]
        if screen.hot_seat
        else [],
    }


def _tab(screen: Screen, yours: bool) -> tuple[str, str]:
    """The tab's title and alert (screen.js sets the title and the icon from them): "(1) Your
    decision — Game 3 — White Maiden — Delve" while a decision or a turn waits for the caller (a
    seat of theirs, not one a bot plays: its commands are not offered), else the page's title."""
    game = _("Game %(id)s — White Maiden") % {"id": screen.game.pk} + " — Delve"
    if yours:
        return _("(1) Your decision — %(game)s") % {"game": game}, "turn"
    return game, ""


def _now_line(screen: Screen) -> dict[str, Any]:
    """Whose turn it is and what they decide (for everyone, MV-TURN-1)."""
    view = screen.view
    assert view is not None
    if view["ended"]:
        return {"text": "", "you": False}
    pending = view.get("pending") or []
    if pending:
        head = pending[0]
        seat = head.get("seat")
        who = screen.name_of(seat) if seat is not None else _("any player")
        what = decision_name(head["kind"], head.get("data") or {})
        if seat is None and head["kind"] == "choose_start_player":
            # MV-SETUP-15: a decision for the whole table, which any one player takes (the first
            # to choose); "Your decision (any player)" was shown to all three at once
            yours = bool(screen.legal)
            line = {"seat": None, "you": yours, "colour": _colour(None), "who": who, "what": what}
            if not yours:
                line["table"] = _("The players are %(what)s: any one of them may decide for the table.") % {
                    "what": what
                }
            elif screen.hot_seat and screen.acting is not None:
                # the table's chip marks the seat the screen acts as: the line says so too
                line["table"] = _("Choose who starts (anyone at the table may; you choose as %(name)s)") % {
                    "name": screen.acting.name
                }
            else:
                line["table"] = _("Choose who starts (anyone at the table may)")
            return line
    else:
        seat = view.get("active_seat")
        who = screen.name_of(seat)
        what = step_name(view["phase"])
    yours = bool(screen.legal) and (seat is None or seat == screen.seat)
    return {"who": who, "what": what, "seat": seat, "you": yours, "colour": _colour(seat)}


def _colour(seat: int | None) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if isinstance(seat, int) else "#888"


# ---------------------------------------------------------------- (2) the map


MAP_SCALE = 10.0


def _map(screen: Screen) -> dict[str, Any]:
    edges, passages, out_rooms, destinations = _map_parts(screen)
    return {
        "rooms": out_rooms,
        "edges": edges,
        "passages": passages,
        "svg": _map_svg(edges, passages, out_rooms),
        "moving": bool(destinations),
        "legend": [(kind, room_type_name(kind)) for kind in ("normal", "rest", "quest", "danger", "boss", "start")],
    }


def room_mark(index: int) -> str:
    """The mark of the ``index``-th room a maiden can move to (A, B, ... Z, then 27, 28 ...)."""
    return chr(ord("A") + index) if index < 26 else str(index + 1)


ZOOM_PAD, ZOOM_MIN_WIDTH, ZOOM_MIN_HEIGHT = 7.0, 36.0, 26.0  # map units around the rooms a zoom shows
ZOOM_MAX_WIDTH, ZOOM_MAX_HEIGHT = 44.0, 44.0
"""The most of the map a zoom shows (map units): a phone draws the zoom some 350 px wide and at
most 22rem (352 px) high, so 44 units keep 8 px to a unit and a room (4.4 units across) about
35 px (32 at the least on a 360 px phone), its tap ring (7.2 units) 58 px. A zoom spanning
rooms far apart (an Arcana's long move) drew them about 24 px with 40 px tap areas."""
ROOM_HIT = 3.6  # the radius of a lit room's tap ring in the zoom (map units)


def _windows(low: float, high: float, spots: list[float], keep: float, least: float, most: float) -> list[float]:
    """The places one axis of the zoom may start at: ``low``..``high`` (the rooms, padded) grown
    to ``least``; when wider than ``most``, every window of ``most`` with one of the ``spots`` (the
    rooms she can enter) at an edge, its padding inside, that keeps ``keep`` (the moving maiden's
    room) with its padding inside."""
    if high - low < least:
        return [low - (least - (high - low)) / 2]
    if high - low <= most:
        return [low]
    starts = {spot - ZOOM_PAD for spot in spots} | {spot + ZOOM_PAD - most for spot in spots}
    starts |= {keep - most / 2}
    return sorted(a for a in starts if a <= keep - ZOOM_PAD + 1e-9 and a + most >= keep + ZOOM_PAD - 1e-9)


def _zoom(screen: Screen) -> dict[str, Any] | None:
    """The part of the map around a move: the moving maiden's room and every room she can enter,
    drawn large (a phone shows the whole map about 3 px to a map unit, its rooms some 13 px
    wide: too small to tap), each lit room numbered as its move button is. At most
    :data:`ZOOM_MAX_WIDTH` by :data:`ZOOM_MAX_HEIGHT` units around her room, so every room
    drawn is at least 32 px wide on a phone: of those windows, the one holding the most rooms
    she can enter (then the one centred nearest her room); rooms she can enter beyond it are
    counted (``outside``: the hint says they are in the list of moves)."""
    edges, passages, rooms, destinations = _map_parts(screen, zoom=True)
    if not destinations:
        return None
    view = screen.view or {}
    active = view.get("active_seat")
    lit = [(float(r["x"]), float(r["y"])) for r in rooms if r["json"]]
    home = next((r for r in rooms if active in [t["seat"] for t in r["tokens"]]), None)
    near = [*lit, *([(float(home["x"]), float(home["y"]))] if home else [])]
    xs, ys = [x for x, _ in near], [y for _, y in near]
    keep_x = float(home["x"]) if home else (min(xs) + max(xs)) / 2
    keep_y = float(home["y"]) if home else (min(ys) + max(ys)) / 2
    lefts = _windows(
        min(xs) - ZOOM_PAD, max(xs) + ZOOM_PAD, [x for x, _ in lit], keep_x, ZOOM_MIN_WIDTH, ZOOM_MAX_WIDTH
    )
    tops = _windows(
        min(ys) - ZOOM_PAD, max(ys) + ZOOM_PAD, [y for _, y in lit], keep_y, ZOOM_MIN_HEIGHT, ZOOM_MAX_HEIGHT
    )
    width = max(ZOOM_MIN_WIDTH, min(ZOOM_MAX_WIDTH, max(xs) - min(xs) + 2 * ZOOM_PAD))
    height = max(ZOOM_MIN_HEIGHT, min(ZOOM_MAX_HEIGHT, max(ys) - min(ys) + 2 * ZOOM_PAD))

    def shown(left: float, top: float) -> int:
        # a room counts as in view with its whole tap ring inside
        return sum(
            left + ROOM_HIT <= x <= left + width - ROOM_HIT and top + ROOM_HIT <= y <= top + height - ROOM_HIT
            for x, y in lit
        )

    def off_centre(left: float, top: float) -> float:
        return (left + width / 2 - keep_x) ** 2 + (top + height / 2 - keep_y) ** 2

    left, top = max(((a, b) for a in lefts for b in tops), key=lambda w: (shown(*w), -off_centre(*w)))
    box = " ".join(f"{round(n, 2):g}" for n in (left, top, width, height))
    svg = _map_svg(edges, passages, rooms, zoom=True)
    return {"svg": svg, "viewbox": box, "outside": len(lit) - shown(left, top)}


TOKEN_R, TOKEN_STEP, TOKEN_RISE = 1.9, 3.2, 3.4  # a maiden's token: radius, spacing, height above her room
LETTER_R = 1.4  # the room's letter (or S) at its centre


def _token_rows(x: float, y: float, n: int, radius: float) -> list[list[tuple[float, float]]]:
    """Where ``n`` tokens may stand around a room at (x, y) of ``radius``, preferred first: a row
    above (as ever), below, to the right, to the left, then on the four diagonals."""
    spread = [(k - (n - 1) / 2) * TOKEN_STEP for k in range(n)]
    side = radius + TOKEN_R + 0.3
    rows = [
        [(x + d, y - TOKEN_RISE) for d in spread],
        [(x + d, y + TOKEN_RISE) for d in spread],
        [(x + side + k * TOKEN_STEP, y) for k in range(n)],
        [(x - side - k * TOKEN_STEP, y) for k in range(n)],
    ]
    for sx, sy in ((1, -1), (-1, -1), (1, 1), (-1, 1)):
        rows.append([(x + sx * (side - 0.6 + k * TOKEN_STEP), y + sy * (side - 0.6)) for k in range(n)])
    return rows


def _place_tokens(rooms: list[dict[str, Any]], zoom: bool) -> None:
    """Put each room's maiden tokens where they cover no other room, no room's letter and (in the
    zoom) no lit room's tap ring, nor another room's tokens: above the room when that is clear,
    else below, beside or on a diagonal (the maidens' tokens on the start sat over the lit room
    just above it, its letter hidden); when no place is clear, the one meeting the fewest."""
    obstacles = []
    for r in rooms:
        if r["boss"]:
            reach = 3.0  # the diamond, as a circle inside its corners
        else:
            reach = room_radius(r)
        if zoom and r["json"]:
            reach = ROOM_HIT
        obstacles.append((r["id"], float(r["x"]), float(r["y"]), reach))
    placed: list[tuple[float, float]] = []
    left, top, right, bottom = MAP_BOX
    for r in rooms:
        if not r["tokens"]:
            continue
        x, y = float(r["x"]), float(r["y"])
        own = LETTER_R if (r["no"] and r["json"]) or r["type"] == "start" else 0.0
        best: tuple[int, list[tuple[float, float]]] | None = None
        for row in _token_rows(x, y, len(r["tokens"]), room_radius(r)):
            hits = 0
            for tx, ty in row:
                for rid, ox, oy, reach in obstacles:
                    limit = own if rid == r["id"] else reach
                    if limit and (tx - ox) ** 2 + (ty - oy) ** 2 < (limit + TOKEN_R) ** 2:
                        hits += 1
                hits += sum((tx - px) ** 2 + (ty - py) ** 2 < (2 * TOKEN_R) ** 2 for px, py in placed)
                hits += 10 * (tx < left or tx > right or ty < top or ty > bottom)
            if best is None or hits < best[0]:
                best = (hits, row)
            if hits == 0:
                break
        assert best is not None
        for token, (tx, ty) in zip(r["tokens"], best[1], strict=True):
            token["x"], token["y"] = f"{round(tx, 2):g}", f"{round(ty, 2):g}"
        placed += best[1]


def _map_parts(
    screen: Screen, *, zoom: bool = False
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]], Any]:
    """The map's edges, passages and rooms as the SVG draws them, and the move commands by room
    (``zoom``: the maidens' tokens kept off the lit rooms' tap rings too)."""
    view = screen.view
    assert view is not None
    language = screen.lang
    m = view["map"]
    rooms = {r["id"]: r for r in m["rooms"]}
    destinations = {c["to"]: c for c in screen.legal if c["kind"] == "move"}
    moves = [c["to"] for c in screen.legal if c["kind"] == "move"]
    # each lit room marked A, B, C ... as its move button (numbers would read as the maidens' tokens)
    numbers = {room: room_mark(moves.index(room)) for room in destinations}
    bosses = {b["id"]: b for b in view["bosses"]}
    freed = {a["id"] for a in view["areas"] if a["freed"]}
    maidens = {mm["seat"]: mm for mm in view["maidens"]}

    def xy(room: dict[str, Any]) -> tuple[float, float]:
        return round(float(room["x"]) * MAP_SCALE, 2), round(float(room["y"]) * MAP_SCALE, 2)

    def num(value: float) -> str:
        # SVG coordinates as text: the template then skips number localisation (and it is faster)
        return f"{value:g}"

    edges = []
    for a, b in m["edges"]:
        if a in rooms and b in rooms:
            (x1, y1), (x2, y2) = xy(rooms[a]), xy(rooms[b])
            edges.append({"x1": num(x1), "y1": num(y1), "x2": num(x2), "y2": num(y2)})
    passages = []
    for p in m.get("passages", []):
        if p["a"] in rooms and p["b"] in rooms:
            (x1, y1), (x2, y2) = xy(rooms[p["a"]]), xy(rooms[p["b"]])
            passages.append(
                {"x1": num(x1), "y1": num(y1), "x2": num(x2), "y2": num(y2), "revealed": p.get("revealed", False)}
            )
    out_rooms = []
    for room in m["rooms"]:
        x, y = xy(room)
        kind = room["type"]
        label = room_label(room["id"], language)
        info = [label, room_type_name(kind)]
        if room["explored"] and kind != "start":
            info.append(_("explored"))
        boss = bosses.get(room["boss"]) if room.get("boss") else None
        life = None
        if boss is not None:
            info.append(pick(boss["name"], language))
            if boss["engaged"] and not boss["defeated"]:
                life = f"{boss['life_left']}/{boss['life_max']}"
                info.append(_("life %(life)s") % {"life": life})
            elif boss["defeated"]:
                info.append(_("defeated"))
        tokens = []
        here = room.get("maidens", [])
        for k, seat in enumerate(here):
            dx = (k - (len(here) - 1) / 2) * 3.2
            tokens.append({"seat": seat, "n": seat + 1, "x": num(x + dx), "y": num(y - 3.4), "colour": _colour(seat)})
            info.append(_("%(name)s is here") % {"name": maidens.get(seat, {}).get("name", seat)})
        if room.get("entry_requirement"):
            info.append(
                _("needs %(symbols)s")
                % {"symbols": listing((symbol_name(s, language) for s in room["entry_requirement"]), language)}
            )
        command = destinations.get(room["id"])
        if command is not None:
            info.append(_("you can move here"))
        area_freed = room.get("area") in freed
        out_rooms.append(
            {
                "id": room["id"],
                "x": num(x),
                "y": num(y),
                "bx": num(round(x - 3, 2)),
                "by": num(round(y - 3, 2)),
                "req_y": num(round(y + 4.4, 2)),
                "type": kind,
                "explored": room["explored"],
                "label": label,
                "short": label.split(",")[0].split("（")[0].split("(")[0].strip(),
                "info": listing((str(i) for i in info), language),
                "boss": boss is not None,
                "defeated": bool(boss and boss["defeated"]),
                "life": life,
                "tokens": tokens,
                "json": as_json(command) if command else "",
                "no": numbers.get(room["id"], ""),
                "freed": area_freed,
                "requirement": "".join(room.get("entry_requirement") or []),
            }
        )
    _place_tokens(out_rooms, zoom)
    _place_labels(out_rooms)
    return edges, passages, out_rooms, destinations


def _label_width(text: str) -> float:
    """About how wide a boss label is in the map's units (2.3-unit type: a wide character for
    Japanese, a narrower one for Latin letters)."""
    return sum(2.3 if ord(c) > 0x2E80 else 1.5 for c in text)


MAP_BOX = (-9.0, -6.0, 109.0, 104.0)  # the map's viewBox (left, top, right, bottom): room for side names
LABEL_ASCENT, LABEL_DESCENT, LABEL_GAP = 2.15, 0.6, 0.35  # the font's box, as a browser measures it
BOSS_REACH = 4.25  # a boss room's diamond: a 6-unit square turned 45 degrees, |dx| + |dy| <= 4.25


def room_radius(room: dict[str, Any]) -> float:
    return 2.6 if room["type"] == "start" else 2.2


def label_box(x: float, baseline: float, width: float, anchor: str = "middle") -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom) a boss label at ``x`` (its centre, or its start or end
    with that ``anchor``) and ``baseline`` covers."""
    left = {"start": x, "end": x - width}.get(anchor, x - width / 2)
    return (left, baseline - LABEL_ASCENT, left + width, baseline + LABEL_DESCENT)


def _box_hits_circle(box: tuple[float, float, float, float], cx: float, cy: float, r: float) -> bool:
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return (nx - cx) ** 2 + (ny - cy) ** 2 < (r + LABEL_GAP) ** 2


def _box_hits_diamond(box: tuple[float, float, float, float], cx: float, cy: float) -> bool:
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return abs(nx - cx) + abs(ny - cy) < BOSS_REACH + LABEL_GAP


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] + LABEL_GAP and b[0] < a[2] + LABEL_GAP and a[1] < b[3] + LABEL_GAP and b[1] < a[3] + LABEL_GAP


def _label_hits(box: tuple[float, float, float, float], rooms: list[dict[str, Any]], placed: list[Any]) -> int:
    """How many room shapes, maiden tokens, entry marks, other labels and map edges ``box`` meets."""
    hits = 0
    for r in rooms:
        x, y = float(r["x"]), float(r["y"])
        hits += _box_hits_diamond(box, x, y) if r["boss"] else _box_hits_circle(box, x, y, room_radius(r))
        hits += sum(_box_hits_circle(box, float(t["x"]), float(t["y"]), 2.15) for t in r["tokens"])
        if r.get("requirement"):
            half = 0.6 * len(r["requirement"])
            hits += _boxes_meet(box, (x - half, float(r["req_y"]) - 1.4, x + half, float(r["req_y"]) + 0.4))
    hits += sum(_boxes_meet(box, other) for other in placed)
    left, top, right, bottom = MAP_BOX
    edge = 1.5  # a font a little wider than the estimate still fits
    outside = box[0] < left + edge or box[1] < top or box[2] > right - edge or box[3] > bottom
    return hits + 10 * outside  # a name cut off at the map's edge is worse than one over a line


def _label_places(x: float, y: float) -> list[tuple[float, float, str]]:
    """Where a boss name may go around its room at (x, y), nearest first: centred below or above
    the diamond, or starting right of it or ending left of it, stepping outwards."""
    below, above = BOSS_REACH + 0.3 + LABEL_ASCENT, -(BOSS_REACH + 0.3 + LABEL_DESCENT)
    middle = (LABEL_ASCENT - LABEL_DESCENT) / 2
    side = BOSS_REACH + 0.4
    places: list[tuple[float, float, float, str]] = []  # (how far from the room, x, baseline, anchor)
    for j in range(5):
        for i in (0, 1, -1, 2, -2):
            for base in (below + 0.8 * j, above - 0.8 * j):
                places.append((0.8 * j + 1.5 * abs(i) + (0 if base > 0 else 0.1), x + 1.5 * i, y + base, "middle"))
    for i in range(4):
        for j in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5):
            far = 0.8 * i + 0.8 * abs(j) + 0.2
            places.append((far, x + side + 0.8 * i - 0.5 * min(abs(j), 3), y + middle + 0.8 * j, "start"))
            places.append((far + 0.05, x - side - 0.8 * i + 0.5 * min(abs(j), 3), y + middle + 0.8 * j, "end"))
    places.sort(key=lambda p: p[0])
    return [(px, py, anchor) for _, px, py, anchor in places]


def _clear_place(
    x: float, y: float, width: float, rooms: list[dict[str, Any]], placed: list[tuple[float, float, float, float]]
) -> tuple[float, float, str]:
    """The nearest place for a name ``width`` wide that meets nothing, else the one meeting the
    fewest things."""
    places = _label_places(x, y)
    best: tuple[int, int] | None = None
    for n, (px, py, anchor) in enumerate(places):
        hits = _label_hits(label_box(px, py, width, anchor), rooms, placed)
        if hits == 0:
            return px, py, anchor
        if best is None or hits < best[0]:
            best = (hits, n)
    assert best is not None
    return places[best[1]]


def _place_labels(rooms: list[dict[str, Any]]) -> None:
    """Put each boss room's name (and its life in a fight) where it covers no room, no maiden's
    token and no other name: below the diamond if that is clear, else above, beside or on a
    diagonal (names sat on the rooms below them: Chesed ♥3/3, ティファレト ♥4/4). The name's
    anchor point and baseline go to ``label_x``/``label_y``, with ``label_anchor``: a name beside
    its room starts (or ends) next to it, so a font wider than the estimate grows away from the
    room; when no place is clear, the one meeting the fewest things."""
    placed: list[tuple[float, float, float, float]] = []
    for r in rooms:
        if not r["boss"]:
            continue
        x, y = float(r["x"]), float(r["y"])
        width = _label_width(r["short"] + (f" ♥{r['life']}" if r["life"] else ""))
        lx, ly, anchor = _clear_place(x, y, width, rooms, placed)
        r["label_x"], r["label_y"], r["label_anchor"] = f"{round(lx, 2):g}", f"{round(ly, 2):g}", anchor
        placed.append(label_box(lx, ly, width, anchor))


def _map_svg(
    edges: list[dict[str, Any]], passages: list[dict[str, Any]], rooms: list[dict[str, Any]], *, zoom: bool = False
) -> SafeString:
    """The map's edges, passages, rooms, boss names and maidens as SVG, written out here (a
    template loop over the 90-odd rooms took most of a page's time; the markup is the same): each
    room a group that says what it is (its title and label), a destination one a button with
    its move command."""
    v = _value
    out = ['  <g class="edges">']
    for e in edges:
        out.append(f'<line x1="{v(e["x1"])}" y1="{v(e["y1"])}" x2="{v(e["x2"])}" y2="{v(e["y2"])}"/>')
    out.append('</g>\n  <g class="passages">')
    for p in passages:
        revealed = "revealed" if p["revealed"] else ""
        out.append(
            f'<line class="{revealed}" x1="{v(p["x1"])}" y1="{v(p["y1"])}" x2="{v(p["x2"])}" y2="{v(p["y2"])}"/>'
        )
    out.append("</g>\n  ")
    for r in rooms:
        kind, x, y, info = v(r["type"]), v(r["x"]), v(r["y"]), v(r["info"])
        classes = (
            f"room t-{kind}{' explored' if r['explored'] else ''}{' dest' if r['json'] else ''}"
            f"{' defeated' if r['defeated'] else ''}{' freed' if r['freed'] else ''}"
        )
        # the zoom repeats the lit rooms for a tap; the keyboard and a screen reader have the map's and the list's
        focus = "" if zoom else ' tabindex="0" role="button"'
        button = f' data-command="{v(r["json"])}"{focus}' if r["json"] else ""
        if r["boss"]:
            shape = (
                f'<rect x="{v(r["bx"])}" y="{v(r["by"])}" width="6" height="6" rx="1" transform="rotate(45 {x} {y})"/>'
            )
        else:
            shape = f'<circle cx="{x}" cy="{y}" r="{"2.6" if r["type"] == "start" else "2.2"}"/>'
        marker = f'<circle class="marker" cx="{x}" cy="{y}" r="0.9"/>' if r["explored"] and r["type"] != "start" else ""
        glyph = f'<text class="glyph" x="{x}" y="{y}">S</text>' if r["type"] == "start" else ""
        need = f'<text class="req" x="{x}" y="{v(r["req_y"])}">{v(r["requirement"])}</text>' if r["requirement"] else ""
        # a lit room carries its move button's number (its name without a hover: the list beside);
        # in the zoom a wider ring around it takes the tap
        number = f'<text class="no" x="{x}" y="{y}">{v(r["no"])}</text>' if r["json"] and r["no"] else ""
        hit = f'<circle class="hit" cx="{x}" cy="{y}" r="{ROOM_HIT:g}"/>' if zoom and r["json"] else ""
        out.append(
            f'\n  <g class="{classes}" data-room="{v(r["id"])}"{button} aria-label="{info}">\n'
            f"    <title>{info}</title>\n    {hit}{shape}\n    {marker}\n    {glyph}\n    {need}{number}\n  </g>\n  "
        )
    out.append('\n  <g class="tokens" aria-hidden="true">')
    for r in rooms:
        for t in r["tokens"]:
            out.append(
                f'<g class="token seat-{v(t["seat"])}"><circle cx="{v(t["x"])}" cy="{v(t["y"])}" r="{TOKEN_R:g}"/>'
                f'<text x="{v(t["x"])}" y="{v(t["y"])}">{v(t["n"])}</text></g>'
            )
    # the names last, over everything (each placed off the rooms and tokens: _place_labels)
    out.append('</g>\n  <g class="labels" aria-hidden="true">')
    for r in rooms:
        if r["boss"]:
            life = f" ♥{v(r['life'])}" if r["life"] else ""
            out.append(
                f'<text class="boss-name anchor-{v(r["label_anchor"])}" x="{v(r["label_x"])}" y="{v(r["label_y"])}">'
                f"{v(r['short'])}{life}</text>"
            )
    out.append("</g>")
    return mark_safe("".join(out))


_CONTEXT = Context()


def _value(value: Any) -> str:
    """``value`` as a template's ``{{ value }}`` writes it (localised, escaped)."""
    return str(render_value_in_context(value, _CONTEXT))


# ---------------------------------------------------------------- (3) the decision


def command_label(screen: Screen, command: dict[str, Any]) -> str:
    """The words of one legal command on a button."""
    language = screen.lang
    kind = command["kind"]
    view = screen.view or {}
    if kind == "move":
        room = next((r for r in view.get("map", {}).get("rooms", []) if r["id"] == command["to"]), None)
        kind_name = room_type_name(room["type"]) if room else ""
        return _("Move to %(room)s (%(kind)s)") % {"room": room_label(command["to"], language), "kind": kind_name}
    if kind == "stay":
        return _("Stay here (no room to enter)")
    if kind == "roll":
        check = view.get("check") or {}
        n = 3 + int(check.get("white", 0))
        return _("Roll %(n)s %(die)s") % {"n": n, "die": maiden_text.die_name(check.get("size", "?"), language)}
    if kind == "die_size":
        return _("Roll %(die)s instead") % {"die": maiden_text.die_name(command["size"], language)}
    if kind == "ascend":
        i, j = command["dice"]
        dice = (view.get("check") or {}).get("dice") or []
        face = dice[i].get("face") if 0 <= i < len(dice) and isinstance(dice[i], dict) else None
        if face is not None:  # positions alone read like faces ("dice 1 and 2"): the faces come first
            return _("Ascend the pair of %(face)ss (dice %(i)s and %(j)s)") % {"face": face, "i": i + 1, "j": j + 1}
        return _("Ascend dice %(i)s and %(j)s") % {"i": i + 1, "j": j + 1}
    if kind == "boost":
        return _("+1 on die %(n)s") % {"n": command["die"] + 1}
    if kind == "resolve":
        return _("Resolve the check")
    if kind == "use_skill":
        return _with_params(screen, skill_name(command["skill"], language), command)
    if kind == "use_arcana":
        return _with_params(screen, _("Arcana: %(name)s") % {"name": area_name(command["area"], language)}, command)
    if kind == "choose_familiar":
        return familiar_name(command["familiar"], language)
    if kind == "choose_start_player":
        return screen.name_of(int(command["seat"]))
    if kind == "place_card":
        return _("On %(stat)s") % {"stat": stat_name(command["stat"])}
    if kind == "agi_option":
        if command["choice"] == "learn":
            return _("Learn a new skill")
        return _("Raise the level of %(skill)s") % {"skill": skill_name(command["choice"], language)}
    if kind == "keep_card":
        # the card by its name, from the decision in view (its deck and the cards drawn)
        pending = (view.get("pending") or [{}])[0]
        options = pending.get("options") or []
        index = command.get("card")
        if isinstance(index, int) and 0 <= index < len(options):
            deck = str((pending.get("data") or {}).get("deck", ""))
            return _("Keep %(card)s") % {"card": card_name(deck, str(options[index]), language)}
        return _("Keep this card")
    if kind == "choose":
        return _option_label(screen, int(command["option"]))
    return kind


def replay_label(game: Game, ruleset: Any, state: Any, seat: int, command: dict[str, Any]) -> str:
    """A logged command in the words of its button, as the seat saw the game just before it (the
    replay page): the die it named with its colour and face, the room with its kind, the card kept
    by its name, a comment with its text."""
    kind = command.get("kind")
    if kind == "comment":
        return _("Comment: %(text)s") % {"text": command.get("text", "")}
    seats = present.public_seats(game)
    acting = next((s for s in seats if s.index == seat), None)
    view = ruleset.view(state, seat)
    screen = Screen(game, seats, None, [], acting, view, [], ruleset.validate_settings(game.settings), lang())
    try:
        return command_label(screen, command)
    except (KeyError, TypeError, ValueError, IndexError):  # a command of an earlier form: its raw words
        return json.dumps(command, ensure_ascii=False, sort_keys=True)


def _with_params(screen: Screen, name: str, command: dict[str, Any]) -> str:
    words = pick_words(screen, command)
    return " · ".join([name, words]) if words else name


def _die_word(screen: Screen, index: int) -> str:
    """A die of the check in progress as the dice panel shows it: "die 3 (red 5)"."""
    check = (screen.view or {}).get("check") or {}
    rolled = check.get("dice") or []
    if check.get("rolled") and 0 <= index < len(rolled):
        d = rolled[index]
        return _("die %(n)s (%(colour)s %(face)s)") % {
            "n": index + 1,
            "colour": colour_name(d.get("colour")),
            "face": d.get("face"),
        }
    return _("die %(n)s") % {"n": index + 1}


def pick_words(screen: Screen, params: dict[str, Any]) -> str:
    """The words of a pick (the params of a skill or Arcana use, or a dict option of a choose
    decision): which die and face, which dice, which maiden, boss, room, skill or card."""
    language = screen.lang
    parts = []
    if params.get("die") is not None:
        die = _die_word(screen, int(params["die"]))
        parts.append(f"{die} → {params['face']}" if params.get("face") is not None else die)
    elif params.get("face") is not None:
        parts.append(_("face %(n)s") % {"n": params["face"]})
    if params.get("dice"):
        parts.append(listing((_die_word(screen, int(i)) for i in params["dice"]), language))
    if params.get("onto") is not None:
        parts.append(_("bonus on %(die)s") % {"die": _die_word(screen, int(params["onto"]))})
    if params.get("seat") is not None:
        parts.append("→ " + screen.name_of(int(params["seat"])))
    if params.get("boss"):
        boss = boss_name(str(params["boss"]), language)
        if params.get("action") is not None:
            action = _boss_action_name(str(params["boss"]), int(params["action"]), language)
            boss = (
                pgettext("a boss and one of its actions", "%(boss)s: %(action)s") % {"boss": boss, "action": action}
                if action
                else boss
            )
        parts.append("→ " + boss)
    for key in ("room", "to"):
        if params.get(key) and isinstance(params[key], str):
            parts.append("→ " + room_label(str(params[key]), language))
    for key in ("level_skill", "exhaust"):
        if params.get(key):
            parts.append(skill_name(str(params[key]), language))
    if params.get("look_card"):
        parts.append(card_name("room", str(params["look_card"]), language))
    return " · ".join(parts)


def _boss_action_name(boss_id: str, action: int, language: str) -> str:
    boss = content().bosses.get(boss_id)
    if boss is None or not 0 <= action < len(boss.actions):
        return ""
    return pick(boss.actions[action].name, language)


def _option_label(screen: Screen, index: int) -> str:
    view = screen.view or {}
    pending = (view.get("pending") or [{}])[0]
    options = pending.get("options") or []
    if not 0 <= index < len(options):
        return str(index + 1)
    option = options[index]
    language = screen.lang
    data = content()
    if isinstance(option, str):
        if option in data.skills:
            return skill_name(option, language)
        if option in data.bosses:
            return boss_name(option, language)
        if option in data.rooms:
            return room_label(option, language)
        if option == "evolve":
            return _("Evolve the familiar")
        if option == "pool":
            return _("Keep the Arcana for everyone")
        if option in data.areas:
            return _("Arcana: %(name)s") % {"name": area_name(option, language)}
        if option == "die":  # the damage window: no cancel
            return _("Die (revive at the start with 1 life)")
        return option
    if isinstance(option, dict):
        words = pick_words(screen, option) or str(index + 1)
        if pending.get("effect") == "near_pair":
            return _("Ascend as a pair: %(dice)s") % {"dice": words}
        return words
    if isinstance(option, int) and not isinstance(option, bool):
        return screen.name_of(option) if 0 <= option < len(screen.seats) else str(option)
    return str(option)


def _decide(screen: Screen) -> dict[str, Any]:
    view = screen.view
    assert view is not None
    language = screen.lang
    legal = screen.legal
    ctx: dict[str, Any] = {"ended": view["ended"], "now": _now_line(screen), "seated": bool(screen.controlled)}
    # a bot plays the seat for its idle player: the panel says so instead of waiting for them
    ctx["bot_plays"] = screen.acting is not None and screen.acting.bot_since is not None
    if ctx["bot_plays"] and screen.table:  # a hot-seat table: which of the player's seats
        ctx["bot_name"] = screen.name_of(screen.seat)
    if view["ended"]:
        ctx["result"] = view["result"]
        ctx["summary"] = _summary(view)
        ctx["reason"] = closing.reason(screen.game) if view["result"] == "closed" else None
        return ctx
    if not legal:
        return ctx
    pending = (view.get("pending") or [None])[0]
    ctx["who"] = screen.name_of(screen.seat)
    ctx["pass_to"] = _pass_to(screen)
    groups: dict[str, list[dict[str, Any]]] = {}
    for number, command in enumerate(legal):
        groups.setdefault(command["kind"], []).append({"command": command, "n": number})
    buttons: list[dict[str, Any]] = []
    if pending is not None and pending.get("seat") in (None, screen.seat):
        ctx["decision"] = _decision(screen, pending)
        return ctx
    phase = view["phase"]
    ctx["phase"] = phase
    active = view.get("active_seat")
    if screen.seat is not None and active is not None and screen.seat != active:
        # another maiden's turn: this seat may only help her (an Arcana for her, MV-EXPL-4/5)
        ctx["helping"] = screen.name_of(active)
    if phase == "move":
        moves = [c for c in legal if c["kind"] == "move"]
        ctx["moves"] = [
            {
                **_button(screen, c),
                "key": str(i + 1) if i < 9 else "",
                "no": room_mark(i),
                "room": c["to"],
                "boss": _boss_move(screen, c["to"]),
            }
            for i, c in enumerate(moves)
        ]
        ctx["zoom"] = _zoom(screen) if "helping" not in ctx else None
        stay = next((c for c in legal if c["kind"] == "stay"), None)
        ctx["stay"] = _button(screen, stay) if stay else None
        me = next((m for m in view["maidens"] if m["seat"] == view["active_seat"]), None)
        ctx["mp"] = me["mp"] if me else None
    if phase in ("move", "pre_roll") and "helping" not in ctx:
        # MV-MOVE-12: a maiden in a boss fight has no movement step until the boss falls (or she
        # dies): her turn goes straight to the roll, and the panel says why
        me = next((m for m in view["maidens"] if m["seat"] == active), None)
        if me is not None and me.get("boss"):
            ctx["bound"] = {"who": screen.name_of(active), "boss": boss_name(str(me["boss"]), language)}
    if phase == "pre_roll":
        before = maiden_odds.pre_roll(view, screen.settings)
        roll = next((c for c in legal if c["kind"] == "roll"), None)
        if roll is not None:
            ctx["roll"] = {**_button(screen, roll), "odds": before}
        sizes = []
        for c in legal:
            if c["kind"] == "die_size":
                alt = _with_size(view, int(c["size"]))
                sizes.append({**_button(screen, c), "odds": maiden_odds.pre_roll(alt, screen.settings)})
        ctx["sizes"] = sizes
    if phase == "post_roll":
        after = maiden_odds.post_roll(view, screen.settings, legal)
        ctx["after"] = after
        if after is not None:
            ctx["ascensions"] = [{**_button(screen, ch.command), "choice": ch} for ch in after.choices]
            best = next((ch for ch in after.choices if ch.best), None)
            ctx["best"] = _button(screen, best.command) if best is not None else None
        else:
            ctx["ascensions"] = [{**_button(screen, c), "choice": None} for c in legal if c["kind"] == "ascend"]
        resolve = next((c for c in legal if c["kind"] == "resolve"), None)
        ctx["resolve"] = _button(screen, resolve) if resolve else None
        ctx["boosts"] = [_button(screen, c) for c in legal if c["kind"] == "boost"]
    ctx["skills"] = uses(screen, "use_skill")
    ctx["arcana"] = uses(screen, "use_arcana")
    without = _chance_without_uses(ctx, phase)
    _mark_needless_or_lowering(
        [*ctx["skills"], *ctx["arcana"]], without, _needless_via(ctx, phase, without), _chance_to_beat(ctx, phase)
    )
    _die_face_tables([*ctx["skills"], *ctx["arcana"]])
    if phase == "post_roll" and ctx.get("after") is not None and "helping" not in ctx:
        after = ctx["after"]
        best_now = max([after.success_now.p, after.success_best.p, *(ch.success.p for ch in after.choices)])
        ctx["better_use"] = _better_use(best_now, [*ctx["skills"], *ctx["arcana"]])
        # resolving is the main button only when nothing at hand does better than resolving now
        ctx["resolve_primary"] = ctx["better_use"] is None and after.success_now.p >= best_now
    if phase == "post_roll":
        _one_suggestion(ctx)
    if phase == "pre_roll" and "helping" not in ctx and (ctx.get("roll") or {}).get("odds") is not None:
        # before the roll, a use whose chance beats rolling as is becomes the suggestion, and
        # rolling is then not the main button (Roll 0% was drawn filled beside a 66% skill)
        ctx["better_use"] = _better_use(ctx["roll"]["odds"].success.p, [*ctx["skills"], *ctx["arcana"]])
    ctx["roll_primary"] = ctx.get("better_use") is None
    known = {"move", "stay", "roll", "die_size", "ascend", "resolve", "boost", "use_skill", "use_arcana"}
    buttons = [_button(screen, c) for c in legal if c["kind"] not in known]
    ctx["others"] = buttons
    ctx["lang"] = language
    return ctx


def _pass_to(screen: Screen) -> str:
    """Hot-seat: the name of the seat that decides now when the last decision was made by another
    seat this browser plays (the phone goes to her player), else ""."""
    if not screen.hot_seat or screen.seat is None:
        return ""
    last = (
        CommandEntry.objects.filter(game_id=screen.game.pk, source=CommandEntry.Source.PLAYER)
        .order_by("-sequence")
        .values_list("seat", flat=True)
        .first()
    )
    ours = {s.index for s in screen.playing}
    return screen.name_of(screen.seat) if last is not None and last != screen.seat and last in ours else ""


def _boss_move(screen: Screen, room: str) -> dict[str, Any] | None:
    """What a move into a boss room leads to (the view's ``boss_checks``): the boss, its life, its
    next action, the active maiden's chance of success against it (the check panel's odds of
    that check, none when they cannot be counted) and her life; ``danger`` when the chance is
    poor (under 1/3) and one failure can end her with 1 life left. None for other rooms."""
    view = screen.view or {}
    entry = (view.get("boss_checks") or {}).get(room)
    if not entry:
        return None
    me = next((m for m in view.get("maidens", []) if m["seat"] == view.get("active_seat")), None)
    before = maiden_odds.boss_move(view, screen.settings, room)
    chance = before.success if before is not None else None
    life = int(me["life"]) if me else None
    words = {
        "boss": boss_name(entry["boss"], screen.lang),
        "life": entry["life"],
        "max": entry["life_max"],
        "action": _boss_action_name(entry["boss"], int(entry["action"]), screen.lang),
        "mine": "?" if life is None else life,
    }
    if chance is None:
        line = format_html(_("{boss} ♥{life}/{max} · next: {action} · you have ♥{mine}"), **words)
    else:
        p = format_html('<span class="odds {}" data-p="{}">{}</span>', chance.level, chance.fraction, chance.percent)
        line = format_html(_("{boss} ♥{life}/{max} · next: {action}, {p} · you have ♥{mine}"), p=p, **words)
    return {
        **words,
        "odds": chance,
        "line": line,
        "danger": chance is not None and chance.level == "poor" and life == 1,
    }


def _one_suggestion(ctx: dict[str, Any]) -> None:
    """The one suggestion of the ascend-and-resolve step: a skill or Arcana use that beats every
    ascension (``better_use``) or else the best ascension, never both (the line said "Suggested:
    Arcana: The Sun (100%), better than any ascension" while a 0% ascension was outlined and
    labelled suggested, and B pressed it). Only the suggested ascension is outlined and takes the
    B key; with a use suggested instead, no ascension does and B does nothing."""
    use_first = ctx.get("better_use") is not None or "helping" in ctx
    for entry in ctx.get("ascensions", []):
        choice = entry.get("choice")
        entry["suggested"] = bool(choice is not None and choice.best and not use_first)
    if use_first:
        ctx["best"] = None


def _chance_without_uses(ctx: dict[str, Any], phase: str) -> Any:
    """The chance of success with what the player has without any skill or Arcana: before the
    roll, rolling as is; after it, the best of resolving now and every ascension. None when not
    known (no check, or outside the odds model)."""
    if phase == "pre_roll":
        before = (ctx.get("roll") or {}).get("odds")
        return before.success.p if before is not None else None
    after = ctx.get("after")
    if phase != "post_roll" or after is None:
        return None
    return max([after.success_now.p, after.success_best.p, *(ch.success.p for ch in after.choices)])


def _needless_via(ctx: dict[str, Any], phase: str, without: Any) -> str:
    """When a use is not needed only because an ascension reaches the chance that resolving now
    does not (Resolve 0% beside "Arcana: The Sun 100% — not needed: succeeds without it", which
    read as a contradiction): the words naming that ascension; "" when resolving now (or, before
    the roll, rolling as is) already does."""
    after = ctx.get("after")
    if phase != "post_roll" or after is None or without is None or after.success_now.p >= without:
        return ""
    choice = next((ch for ch in after.choices if ch.success.p >= without), None)
    if choice is None:
        return _("the suggested ascensions")
    return _("ascending the pair of %(face)ss") % {"face": choice.face}


def needless_words(entry: dict[str, Any]) -> str:
    """What a use that is not needed says: "not needed: succeeds without it", and after which
    ascension when resolving now would not succeed (``needless_via``)."""
    if entry.get("needless_via"):
        return _("not needed: succeeds without it after %(via)s") % {"via": entry["needless_via"]}
    return _("not needed: succeeds without it")


def _chance_to_beat(ctx: dict[str, Any], phase: str) -> tuple[Any, str] | None:
    """What a use's chance is measured against for "would lower the chance", with the words naming
    it: after the roll, resolving now (no ascension, no use; a player weighs a use against the
    check as it stands, and a note measured against the best ascension read as a drop from a
    number the panel showed nowhere near the use); before it, rolling as is. Both are the odds
    model's exact chances (``maiden_odds``). None when not known."""
    if phase == "pre_roll":
        before = (ctx.get("roll") or {}).get("odds")
        return (before.success, _("rolling as is: %(p)s") % {"p": before.success.percent}) if before else None
    after = ctx.get("after")
    if phase != "post_roll" or after is None:
        return None
    return after.success_now, _("resolving now: %(p)s") % {"p": after.success_now.percent}


def _mark_needless_or_lowering(
    groups: list[dict[str, Any]], without: Any, via: str = "", beat: tuple[Any, str] | None = None
) -> None:
    """Compares every use that changes the check (those with a chance shown) with the check
    without it. When the check already succeeds for certain without any use (``without``, the
    best of resolving now and every ascension), a use that keeps 100% is not needed (Judgement's
    100% beside an ascension's 100% was offered with nothing saying it would be spent for no
    gain). A use whose chance is lower than resolving now (before the roll: rolling as is;
    ``beat``, the chance and the words naming it, ``without`` when not given) says it would lower
    the chance, from that chance to its own ("resolving now: 100% → 33.3%"; Swallow Dive's
    reroll at 33.3% said "not needed: succeeds without it"), is never named the best, and a dice
    picker whose every set lowers it opens with nothing ticked."""
    if without is None:
        return
    base_p = beat[0].p if beat is not None else without
    base_words = beat[1] if beat is not None else maiden_odds.Chance(without).percent
    for group in groups:
        entries = [*group["buttons"], *group["choices"]]
        if group.get("best"):
            entries.append(group["best"])
        for entry in entries:
            odds_ = entry.get("odds")
            if odds_ is None:
                continue
            if odds_.p < base_p:
                entry["lowers"] = True
                entry["lowers_from"] = base_words
            elif without == 1 and odds_.p == 1:
                entry["needless"] = True
                entry["needless_via"] = via
        if (group.get("best") or {}).get("lowers"):
            for die in group["dice"]:
                die["checked"] = False


def _better_use(best_now: Any, groups: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The skill or Arcana use with the best chance, when it beats ``best_now`` (after the roll:
    every ascension and resolving now; before it: rolling as is): the suggestion then names it
    instead of "resolve without ascending" (a player was told to resolve at 0% while a skill
    offered 100%), and its button is marked as the suggested one (``best``; for a picker, its
    Use button, with the best choice selected: ``suggested``). None when no use does better."""
    found: tuple[Any, str, dict[str, Any]] | None = None
    # the reader's colon between the use and its pick (「：」 in Japanese, as 「アルカナ：」 before it)
    colon = pgettext("after the name of a card, before what it does", ": ")
    for group in groups:
        options = [(b["odds"], b["label"], b) for b in group["buttons"]]
        options += [(c["odds"], f"{group['name']}{colon}{c['label']}", c) for c in group["choices"]]
        if group.get("best"):
            options.append((group["best"]["odds"], f"{group['name']}{colon}{group['best']['dice']}", group))
        for odds_, label, entry in options:
            if odds_ is not None and odds_.p > best_now and (found is None or odds_.p > found[0].p):
                found = (odds_, label, entry)
    if found is None:
        return None
    odds_, label, entry = found
    entry["suggested"] = True  # a button, a picker's choice (then selected) or a dice picker
    for group in groups:
        if any(c is entry for c in group["choices"]):
            group["suggested"] = True
    return {"odds": odds_, "label": label}


def _with_size(view: dict[str, Any], size: int) -> dict[str, Any]:
    check = dict(view["check"])
    check["size"] = size
    return {**view, "check": check}


def _button(screen: Screen, command: dict[str, Any] | None) -> dict[str, Any]:
    if command is None:
        return {}
    return {
        "kind": command["kind"],
        "json": as_json(command),
        "label": command_label(screen, command),
        "id": "cmd-" + hashlib.sha1(as_json(command).encode(), usedforsecurity=False).hexdigest()[:10],
    }


def _skill_button(screen: Screen, command: dict[str, Any], *, odds: bool = True) -> dict[str, Any]:
    """A skill or Arcana use, with its text and, for dice skills, the exact odds after it."""
    language = screen.lang
    data = content()
    button = _button(screen, command)
    if command["kind"] == "use_skill":
        definition = data.skills.get(command["skill"])
        button["text"] = pick(definition.text, language) if definition else ""
        ops = [dict(op) for op in definition.ops] if definition else []
    else:
        area = data.areas.get(command["area"])
        button["text"] = pick(area.arcana_text, language) if area else ""
        ops = [dict(op) for op in area.arcana] if area else []
    view = screen.view or {}
    chance = None
    die = command.get("die")
    names = {str(op.get("op")) for op in ops}
    if not odds:
        pass
    elif isinstance(die, int) and names <= {"reroll", "die_adjust"}:
        if "reroll" in names:
            chance = maiden_odds.reroll_chance(view, screen.settings, die)
        elif "die_adjust" in names:
            # the change this button makes: to its face from the die's face now (a skill of ±1
            # offers both a -1 and a +1 button; its amount alone is the +1)
            shown = ((view.get("check") or {}).get("dice") or [])[die : die + 1]
            face, current = command.get("face"), shown[0].get("face") if shown else None
            if isinstance(face, int) and isinstance(current, int):
                delta = face - current
            else:
                amount = next((op.get("amount") for op in ops if op.get("op") == "die_adjust"), 1)
                delta = int(amount) if isinstance(amount, int) else 1
            chance = maiden_odds.adjust_chance(view, screen.settings, die, delta)
    elif isinstance(command.get("dice"), list) and len(command["dice"]) == 1 and names == {"reroll"}:
        chance = maiden_odds.reroll_chance(view, screen.settings, int(command["dice"][0]))
    else:
        # several dice rerolled, colours swapped, a near pair, an AP bonus, a slate ignored, more
        # white dice or a bigger die (skills and Arcana): the same exact model (None: outside it)
        scaled = _scaled_ops(screen, command, ops)
        chance = maiden_odds.use_chance(
            view, screen.settings, scaled, command, view_key=getattr(screen, "view_key", None)
        )
    button["odds"] = chance if odds else None
    return button


def _scaled_ops(screen: Screen, command: dict[str, Any], ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A skill's ops at the level its owner (the active maiden) has it (MV-SKILL-10, as
    ``skills.scaled_ops``); an Arcana's ops as they are."""
    if command["kind"] != "use_skill":
        return ops
    definition = content().skills.get(command["skill"])
    scale = int(getattr(definition, "scale", 0) or 0)
    view = screen.view or {}
    me = next((m for m in view.get("maidens", []) if m["seat"] == view.get("active_seat")), None)
    level = next((int(s["level"]) for s in (me or {}).get("skills", []) if s["id"] == command["skill"]), 0)
    if not scale or not level:
        return ops
    out = []
    for raw in ops:
        op = dict(raw)
        if isinstance(op.get("amount"), int):
            op["amount"] = op["amount"] + scale * level
        elif op.get("op") in ("reroll", "look_rooms") and isinstance(op.get("count"), int):
            op["count"] = op["count"] + scale * level
        out.append(op)
    return out


#: A skill or Arcana use with at most this many variants (its picks) shows one button per
#: variant; more become one picker (a list, or a box per die when only the dice differ).
PICK_BUTTONS = 6

#: A tick-box picker shows the chance of every set it accepts up to this many sets (any number
#: of six dice: 63); a larger pool's picker shows none (counting them takes seconds per check).
PICKER_TABLE_SETS = 63


def uses(screen: Screen, kind: str) -> list[dict[str, Any]]:
    """The skill (``use_skill``) or Arcana (``use_arcana``) uses of the legal commands, one entry
    per skill or Arcana with its variants (the picks its effect offers: die and face, dice, a
    maiden, a boss, a room) grouped: a few as buttons, more as one picker whose every choice is
    still a legal command as is (or, for sets of dice, one of them once the boxes are ticked)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for command in screen.legal:
        if command["kind"] == kind:
            groups.setdefault(str(command.get("skill") or command.get("area")), []).append(command)
    return [_use_group(screen, commands) for commands in groups.values()]


def _use_group(screen: Screen, commands: list[dict[str, Any]]) -> dict[str, Any]:
    first = commands[0]
    language = screen.lang
    if first["kind"] == "use_skill":
        name = skill_name(first["skill"], language)
    else:
        name = _("Arcana: %(name)s") % {"name": area_name(first["area"], language)}
    buttons = [_skill_button(screen, c) for c in commands] if len(commands) <= PICK_BUTTONS else []
    group: dict[str, Any] = {
        "name": name,
        "text": buttons[0]["text"] if buttons else _skill_button(screen, first, odds=False)["text"],
        "buttons": buttons,
        "choices": [],
        "dice": [],
        "count": len(commands),
    }
    if buttons:
        return group
    base = {k: v for k, v in first.items() if k != "dice"}
    only_dice = all(
        isinstance(c.get("dice"), list) and {k: v for k, v in c.items() if k != "dice"} == base for c in commands
    )
    group["id"] = "pick-" + hashlib.sha1(as_json(base).encode(), usedforsecurity=False).hexdigest()[:10]
    if only_dice:
        # sets of dice (reroll any number, a pair to swap or to ascend as a near pair): one box
        # per die; the server sends the ticked set, which must be one of the legal picks
        sizes = sorted({len(c["dice"]) for c in commands})
        indices = sorted({int(i) for c in commands for i in c["dice"]})
        group["json"] = as_json(base)
        group["dice"] = [{"n": i, "label": _die_word(screen, i)} for i in indices]
        # the exact chance of every set that may be ticked (the script shows the ticked set's;
        # without it, the best set is named), None when outside the odds model; not for more
        # than PICKER_TABLE_SETS sets (a ten-die pool has 1023: seconds of counting per check)
        chances = (
            {",".join(str(i) for i in sorted(c["dice"])): _skill_button(screen, c)["odds"] for c in commands}
            if len(commands) <= PICKER_TABLE_SETS
            else {}
        )
        known = {k: v for k, v in chances.items() if v is not None}
        if known and len(known) == len(chances):
            group["odds_json"] = as_json(
                {k: {"percent": v.percent, "fraction": v.fraction, "level": v.level} for k, v in known.items()}
            )
            best_key = max(known, key=lambda k: (known[k].p, -k.count(","), [-int(x) for x in k.split(",")]))
            best_set = [int(x) for x in best_key.split(",")]
            group["best"] = {
                "odds": known[best_key],
                "dice": listing((_die_word(screen, x) for x in best_set), screen.lang),
            }
            # the picker opens with the best set ticked (the set the best line and the suggestion
            # name), so its Use applies it in one tap instead of answering "pick dice first"
            for die in group["dice"]:
                die["checked"] = die["n"] in best_set
        if len(sizes) == 1:
            group["hint"] = ngettext("Tick %(n)s die.", "Tick %(n)s dice.", sizes[0]) % {"n": sizes[0]}
        else:
            group["hint"] = _("Tick %(low)s to %(high)s dice.") % {"low": sizes[0], "high": sizes[-1]}
        return group
    choices = []
    for c in commands:
        button = _skill_button(screen, c)
        choices.append(
            {
                "json": button["json"],
                "label": pick_words(screen, c) or button["label"],
                "odds": button["odds"],
                "group": _die_word(screen, int(c["die"])) if c.get("die") is not None else "",
            }
        )
    group["choices"] = choices
    _mark_top_choice(choices)
    die_face = _die_face_picker(screen, commands, choices)
    if die_face is not None:
        group["die_face"] = die_face
        return group
    grouped: list[dict[str, Any]] = []
    for choice in choices:
        if not grouped or grouped[-1]["name"] != choice["group"]:
            grouped.append({"name": choice["group"], "choices": []})
        grouped[-1]["choices"].append(choice)
    group["grouped"] = grouped
    return group


def _die_face_picker(
    screen: Screen, commands: list[dict[str, Any]], choices: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """Set one die to a face (Justice's Verdict: every die × every face, 89 options in one list
    that stood above the dice on a phone): a choice of die, then of face, two short lists; the
    server puts them in the command (``pick=die_face``), which the engine accepts only if it is
    one of the legal picks. None when the variants differ by more than a die and a face."""
    base = {k: v for k, v in commands[0].items() if k not in ("die", "face")}
    if not all(
        c.get("die") is not None
        and c.get("face") is not None
        and {k: v for k, v in c.items() if k not in ("die", "face")} == base
        for c in commands
    ):
        return None
    top = next((c for c in choices if c.get("top")), choices[0])
    top_command = commands[choices.index(top)]
    known = all(ch["odds"] is not None for ch in choices)
    return {
        "json": as_json(base),
        "dice": [
            {"n": n, "label": _die_word(screen, n), "selected": n == int(top_command["die"])}
            for n in sorted({int(c["die"]) for c in commands})
        ],
        "faces": [
            {"n": f, "selected": f == int(top_command["face"])} for f in sorted({int(c["face"]) for c in commands})
        ],
        "best": top,
        # "die:face" -> the choice (its chance, and the marks set once every use is known)
        "table": {f"{int(c['die'])}:{int(c['face'])}": ch for c, ch in zip(commands, choices, strict=True)}
        if known
        else {},
    }


def _die_face_tables(groups: list[dict[str, Any]]) -> None:
    """The chance of every die and face of a die-and-face picker, for the script to show the
    chosen pair's (``data-odds``), with what the list said of each: not needed, or would lower
    the chance (set by ``_mark_needless_or_lowering``)."""
    for group in groups:
        picker = group.get("die_face")
        if not picker or not picker["table"]:
            continue
        rows = {}
        for key, choice in picker["table"].items():
            odds_ = choice["odds"]
            note = ""
            if choice.get("lowers"):
                note = _("would lower the chance (%(before)s → %(p)s)") % {
                    "before": choice["lowers_from"],
                    "p": odds_.percent,
                }
            elif choice.get("needless"):
                note = needless_words(choice)
            rows[key] = {"percent": odds_.percent, "fraction": odds_.fraction, "level": odds_.level, "note": note}
        picker["odds_json"] = as_json(rows)


def _mark_top_choice(choices: list[dict[str, Any]]) -> None:
    """Marks a picker's choice with the highest chance (the first of equals, as ``_better_use``
    takes it) as ``top``: the list opens on it, so Use without opening the list applies the best
    pick (a partner helping with Justice had die 1 at 0% selected while 100% stood further down),
    and, when the chances differ, its entry says it is the best."""
    known = [c for c in choices if c.get("odds") is not None]
    if not known:
        return
    top = max(known, key=lambda c: c["odds"].p)  # max keeps the first of equals
    top["top"] = True
    top["top_named"] = any(c["odds"].p < top["odds"].p for c in known)


def _mark_best_card(options: list[dict[str, Any]]) -> None:
    """Marks the room card to keep with the best odds (MV-CHECK-2): the highest chance of success,
    then the lowest expected damage, the first of equals, as the pickers mark their best choice
    (the list showed every card's odds and marked none). Only when the odds differ: equal cards
    are not told apart."""
    known = [o for o in options if o.get("odds") is not None]
    if len(known) < 2:
        return
    rank = {id(o): (o["odds"].success.p, -o["odds"].expected_damage) for o in known}
    top = max(known, key=lambda o: rank[id(o)])  # max keeps the first of equals
    if any(rank[id(o)] < rank[id(top)] for o in known):
        top["suggested"] = True
        top["top_named"] = True


def _decision(screen: Screen, pending: dict[str, Any]) -> dict[str, Any]:
    """A pending decision of the viewer's seat: its options as cards or buttons."""
    view = screen.view
    assert view is not None
    language = screen.lang
    kind = pending["kind"]
    data = pending.get("data") or {}
    legal = screen.legal
    out: dict[str, Any] = {"kind": kind, "title": decision_name(kind, data), "options": []}
    content_ = content()
    if kind == "choose_familiar":
        for c in legal:
            fam = content_.familiars.get(c["familiar"])
            skills = [skill_name(s, language) for s in (fam.skills if fam else ())]
            out["options"].append(
                {
                    **_button(screen, c),
                    # each skill's timing, condition and effect, as the maidens panel and the guide say them
                    "skills": [
                        {
                            "name": skill_name(skill.id, language),
                            "timing": timing_name(skill.timing),
                            "condition": skill_condition(skill.condition, language),
                            "text": pick(skill.text, language),
                        }
                        for skill in (content_.skills.get(s) for s in (fam.skills if fam else ()))
                        if skill is not None
                    ],
                    "text": pick(fam.text, language) if fam else "",
                    "detail": _("Action card: %(symbol)s · Skill: %(skills)s")
                    % {"symbol": symbol_name(fam.action, language) if fam else "", "skills": listing(skills, language)},
                }
            )
    elif kind == "keep_card":
        deck = str(data.get("deck", ""))
        options = pending.get("options") or []
        seat = pending.get("seat")
        for c in legal:
            card_id = str(options[int(c["card"])]) if int(c["card"]) < len(options) else ""
            entry = {**_button(screen, c), "name": card_name(deck, card_id, language), "text": "", "detail": ""}
            entry["label"] = entry["name"]
            if deck == "room":
                card = content_.room_cards.get(card_id)
                room_check = pending.get("room_check")
                if card is not None and seat is not None:
                    if room_check is not None:  # the rules in force for the check, as the engine gives them
                        entry["odds"] = maiden_odds.room_card_odds(view, screen.settings, card, seat, room_check)
                    entry["detail"] = _("difficulty %(d)+d") % {"d": card.difficulty} + (
                        " · " + _("slate %(c)s") % {"c": colour_name(card.slate)} if card.slate else ""
                    )
                    entry["text"] = rules_text.event_text(card.event, language)  # with its trigger (MV-EVENT-2)
            elif deck == "quest":
                quest = content_.quests.get(card_id)
                entry["text"] = pick(quest.text, language) if quest else ""
            elif deck == "skill":
                skill = content_.skills.get(card_id)
                if skill is not None:
                    entry["text"] = pick(skill.text, language)
                    entry["detail"] = _("needs %(symbols)s") % {
                        "symbols": listing((symbol_name(s, language) for s in skill.condition), language) or "—"
                    }
            elif deck == "action":
                symbol = symbol_name(card_id, language)
                entry["detail"] = _("Action card, shown as %(letter)s under a stat") % {
                    "letter": symbol_letter(card_id, language)
                }
                entry["text"] = _(
                    "Place it on a stat: that stat rises by 1. While it is the top card there, "
                    "its symbol %(symbol)s counts for the skills that need %(symbol)s."
                ) % {"symbol": symbol}
            out["options"].append(entry)
        _mark_best_card(out["options"])
    elif kind == "place_card":
        card = str(data.get("card", ""))
        out["card"] = symbol_name(card, language) if card else ""
        me = next((m for m in view["maidens"] if m["seat"] == pending.get("seat")), None)
        lines = stat_lines(language)
        for c in legal:
            stat = c["stat"]
            entry = {**_button(screen, c), "text": lines.get(stat, "")}
            if me is not None:
                entry["detail"] = _("now %(level)s") % {"level": me["levels"].get(stat, 0)}
            out["options"].append(entry)
    elif data.get("for") == "death":
        out.update(_death_window(screen, pending))
    else:
        out["options"] = [_button(screen, c) for c in legal]
        out["only"] = len(legal) == 1  # one button, the main one, naming the only choice
        _mark_rooms(screen, pending, out["options"])
        if len(legal) > PICK_BUTTONS * 2:
            out["select"] = out["options"]
            out["options"] = []
            # a long list of rooms: grouped by area, each choice marked on the map (maiden.js)
            out["rooms"] = all(o.get("room") for o in out["select"])
            grouped: dict[str, list[dict[str, Any]]] = {}
            for option in out["select"]:
                grouped.setdefault(option.get("area", "") if out["rooms"] else "", []).append(option)
            out["grouped"] = [{"name": name, "choices": choices} for name, choices in grouped.items()]
        if data.get("for") == "effect" or pending.get("source"):
            out["source"] = effect_source(str(pending.get("source") or ""), language)
            out["does"] = effect_does(pending)
            out["colon"] = pgettext("after the name of a card, before what it does", ": ")
    return out


def _mark_rooms(screen: Screen, pending: dict[str, Any], options: list[dict[str, Any]]) -> None:
    """The options of a decision that names a room get its id (``room``, for the map) and its
    area's name (``area``)."""
    rooms = {r["id"]: r for r in (screen.view or {}).get("map", {}).get("rooms", [])}
    names = pending.get("options") or []
    for option in options:
        command = json.loads(option["json"])
        index = command.get("option") if command.get("kind") == "choose" else None
        name = names[index] if isinstance(index, int) and 0 <= index < len(names) else None
        if isinstance(name, dict):  # an effect's target: {"room": ...}
            name = name.get("room") if len(name) == 1 else None
        if isinstance(name, str) and name in rooms:
            room = rooms[name]
            option["room"] = room["id"]
            option["area"] = area_name(str(room.get("area", "")), screen.lang) if room.get("area") else ""


def _death_window(screen: Screen, pending: dict[str, Any]) -> dict[str, Any]:
    """The damage window (MV-DEATH-1, MV-EXPL-4, MV-SKILL-7): what hurt her, who is about to die
    and what the choice is; each skill or Arcana that cancels the death with its own text."""
    language = screen.lang
    data = content()
    info = pending.get("data") or {}
    cause = str(pending.get("source") or info.get("cause") or "")
    source = effect_source(cause, language) if cause else {"name": "", "text": ""}
    seat = pending.get("seat")
    who = screen.name_of(int(seat)) if isinstance(seat, int) else ""
    options = pending.get("options") or []
    buttons = []
    for c in screen.legal:
        button = _button(screen, c)
        index = c.get("option")
        option = options[index] if isinstance(index, int) and 0 <= index < len(options) else None
        if isinstance(option, str) and option in data.skills:
            button["text"] = pick(data.skills[option].text, language)
        elif isinstance(option, str) and option in data.areas:
            button["text"] = pick(data.areas[option].arcana_text, language)
        buttons.append(button)
    return {
        "options": buttons,
        "source": {"name": capfirst(source["name"]), "text": source["text"]},
        "does": _("%(who)s is about to die. Cancel the death with what is offered below, or let her die.")
        % {"who": who},
        "colon": pgettext("after the name of a card, before what it does", ": "),
    }


def effect_source(source: str, language: str) -> dict[str, str]:
    """The card or ability an effect comes from ("quest:<id>", "skill:<id>", "arcana:<area>",
    "room:<card>", "boss:<id>", "familiar"...): its name and its own text from the content."""
    data = content()
    head, _sep, rest = source.partition(":")
    name = maiden_text.Names(language, data).cause(source) if source else ""
    text = ""
    if head == "quest" and rest in data.quests:
        text = pick(data.quests[rest].text, language)
    elif head == "skill" and rest in data.skills:
        text = pick(data.skills[rest].text, language)
    elif head == "arcana" and rest in data.areas:
        name = _("Arcana: %(name)s") % {"name": area_name(rest, language)}
        text = pick(data.areas[rest].arcana_text, language)
    elif head == "room" and rest in data.room_cards:
        event = data.room_cards[rest].event
        text = pick(event.text, language) if event is not None else ""
    return {"name": name, "text": text}


def effect_does(pending: dict[str, Any]) -> str:
    """What choosing does, in one line, by the effect that waits for the choice."""
    options = pending.get("options") or []
    if options and all(isinstance(o, int) and not isinstance(o, bool) for o in options):
        return _("Choose the maiden the effect applies to.")
    effect = str(pending.get("effect") or "")
    return {
        "boss_disable_action": _(
            "Choose one of the boss's actions to strike off: from now on the boss's pointer skips it."
        ),
        "boss_damage": _("Choose the boss that takes the damage."),
        "exhaust_skill": _("Choose the skill to exhaust."),
        "skill_level": _("Choose the skill that gains a level."),
        "level_skill": _("Choose the skill that gains a level."),
        "room_type": _("Choose the room whose kind changes."),
        "warp": _("Choose the room to move to."),
        "look_rooms": _("Choose the room card to put back on the room deck next: the first one chosen ends up on top."),
        "reroll": _("Choose the dice the effect applies to."),
        "die_adjust": _("Choose the die the effect applies to."),
        "set_die": _("Choose the die the effect applies to."),
        "swap_colours": _("Choose the dice the effect applies to."),
        # the Hanged Man's second part, after the colours were swapped (the first pick): not the
        # same prompt again, but which pair ascends
        "near_pair": _("The colours are swapped. Now choose two dice whose faces differ by 1: they ascend as a pair."),
    }.get(effect, _("Choose what the effect applies to."))


def summary_label(key: str) -> str:
    return {
        "rounds": _("Rounds played"),
        "bosses_defeated": _("Bosses defeated"),
        "areas_freed": _("Areas freed"),
        "deaths": _("Deaths"),
        "danger_level": _("Danger level"),
        "rooms_explored": _("Rooms explored"),
        "sephirot": _("Sephirot recovered"),
    }.get(key, key.replace("_", " ").capitalize())


def _summary(view: dict[str, Any]) -> list[tuple[str, Any]]:
    """The end-of-game summary (MV-END-3) with labels in the language."""
    summary = view.get("summary") or {}
    return [(summary_label(str(k)), v) for k, v in summary.items() if not isinstance(v, (dict, list))]


# ---------------------------------------------------------------- (4) dice


def _dice(screen: Screen) -> dict[str, Any]:
    view = screen.view
    assert view is not None
    check = view.get("check")
    language = screen.lang
    if not check:
        return {"check": None, "ended": view["ended"], "last": None if view["ended"] else _last_check(screen)}
    title, subtitle, effect = _check_source(check.get("kind"), check.get("source"), check.get("action"), language)
    slate = maiden_odds._slate(check)
    dice = []
    if check.get("rolled"):
        for i, d in enumerate(check["dice"]):
            dice.append(
                {
                    "n": i + 1,
                    "colour": d["colour"],
                    "colour_name": colour_name(d["colour"]),
                    "size": d["size"],
                    "size_name": maiden_text.die_name(d["size"], language),
                    "face": d["face"],
                    "bonus": d.get("bonus") or 0,
                    "removed": d["removed"],
                    "slate": slate is not None and d["colour"] == slate,
                }
            )
    else:
        size = check.get("size")
        colours = ["red", "blue", "black"] + ["white"] * int(check.get("white", 0))
        if screen.settings.get("slate_roll_restricted") and slate:
            colours = [slate] + ["white"] * int(check.get("white", 0))
        dice = [
            {
                "n": i + 1,
                "colour": c,
                "colour_name": colour_name(c),
                "size": size,
                "size_name": maiden_text.die_name(size, language),
                "face": None,
                "bonus": 0,
                "removed": False,
                "slate": slate == c,
            }
            for i, c in enumerate(colours)
        ]
    maiden = next((m for m in view["maidens"] if m["seat"] == view.get("active_seat")), None)
    return {
        "check": check,
        "title": title,
        "subtitle": subtitle,
        "effect": effect,
        "slate": slate,
        "slate_name": colour_name(slate),
        "dice": dice,
        "who": screen.name_of(view.get("active_seat")),
        "before": maiden_odds.pre_roll(view, screen.settings),
        "after": maiden_odds.post_roll(view, screen.settings, screen.legal) if check.get("rolled") else None,
        "agi": maiden["levels"]["agi"] if maiden else 0,
        "skills_used": [skill_name(s, language) for s in check.get("skills_used", [])],
        # the check before this one, until this one is rolled: at a hot-seat table the next seat's
        # boss fight starts its check at once, and the last result would never be seen
        "last": None if check.get("rolled") else _last_check(screen, under_way=True),
    }


def _check_source(kind: Any, source: Any, action_index: Any, language: str) -> tuple[str, str, str]:
    """A check's title (the room card, or the boss), subtitle (the boss's action) and effect text."""
    data = content()
    if kind == "boss":
        boss = data.bosses.get(source)
        action = boss.actions[int(action_index or 0)] if boss is not None else None
        # the action's extra rules in force while it is rolled against, and its effect with its
        # trigger (MV-BOSS-10, MV-EVENT-2)
        effect = rules_text.action_text(action, language) if action is not None else ""
        return boss_name(str(source), language), pick(action.name, language) if action is not None else "", effect
    card = data.room_cards.get(source)
    effect = rules_text.event_text(card.event, language) if card is not None else ""  # MV-EVENT-2
    return pick(card.name, language) if card else str(source), _("room card"), effect


_TURN_OVER = {"check.started", "turn.ended", "turn.started", "round.started"}


def _last_check(screen: Screen, *, under_way: bool = False) -> dict[str, Any] | None:
    """The outcome of the last check resolved (MV-CHECK), from the view's log, while no check is
    under way (``under_way``: or while the one under way, started after it, is not rolled yet):
    who checked, against what, success or failure, the damage she took after it and whether she
    died. In a hot-seat game the screen turns to the next seat at once, and the result was only in
    the log further down. None when the log holds no resolved check any more."""
    view = screen.view
    assert view is not None
    log = list(view.get("log") or [])
    at = next((i for i in range(len(log) - 1, -1, -1) if log[i].get("kind") == "check.resolved"), None)
    if at is None or sum(e.get("kind") == "check.started" for e in log[at + 1 :]) > (1 if under_way else 0):
        return None
    resolved = log[at].get("data") or {}
    seat = resolved.get("seat")
    started = next(
        (
            e.get("data") or {}
            for e in reversed(log[:at])
            if e.get("kind") == "check.started" and (e.get("data") or {}).get("seat") == seat
        ),
        {},
    )
    title, subtitle, _effect = _check_source(
        resolved.get("kind"), started.get("source"), started.get("action"), screen.lang
    )
    damage, life, died = 0, None, False
    for event in log[at + 1 :]:
        kind, data = event.get("kind"), event.get("data") or {}
        if kind in _TURN_OVER:
            break
        if data.get("seat") != seat:
            continue
        if kind == "maiden.damaged":
            damage += int(data.get("amount") or 0)
            life = data.get("life")
        elif kind == "maiden.died":
            died = True
        elif kind == "maiden.death_cancelled":
            life = data.get("life")
    maiden = next((m for m in view["maidens"] if m["seat"] == seat), None)
    return {
        "who": screen.name_of(seat if isinstance(seat, int) else None),
        "title": title if started else "",
        "subtitle": subtitle if started and resolved.get("kind") == "boss" else "",
        "boss": resolved.get("kind") == "boss",
        "success": resolved.get("result") == "success",
        "ap": resolved.get("ap"),
        "target": resolved.get("target"),
        "damage": damage,
        "life": life,
        "life_max": maiden["life_max"] if maiden else None,
        "died": died,
    }


# ---------------------------------------------------------------- (5) maidens, (6) bosses, (7) Arcana


def _bot_mark(screen: Screen, index: int) -> str:
    """ "bot" for a seat a computer plays, "took_over" for one a bot took over from its idle player."""
    seat = next((s for s in screen.seats if s.index == index), None)
    if seat is None or not seat.is_bot:
        return ""
    at = screen.extra.get("at")
    if seat.bot_since is not None and isinstance(at, int) and at < seat.bot_since:
        return ""  # a replay step before the bot took the seat over: its player played it then
    return "took_over" if seat.bot_since is not None else "bot"


def _maidens(screen: Screen) -> dict[str, Any]:
    view = screen.view
    assert view is not None
    language = screen.lang
    data = content()
    out = []
    for m in view["maidens"]:
        skills = []
        for sk in m["skills"]:
            definition = data.skills.get(sk["id"])
            skills.append(
                {
                    "name": skill_name(sk["id"], language),
                    "level": sk["level"],
                    "exhausted": sk["exhausted"],
                    "used": sk.get("used_this_turn", False),
                    "text": pick(definition.text, language) if definition else "",
                    "condition": skill_condition(definition.condition, language) if definition else "",
                    "timing": definition.timing if definition else "",
                }
            )
        familiars = []
        for f in m.get("familiars", []):
            fam = data.familiars.get(f)
            familiars.append({"name": familiar_name(f, language), "text": pick(fam.text, language) if fam else ""})
        stats = [
            {
                "key": s,
                "name": stat_name(s),
                "short": stat_short(s),
                "level": m["levels"][s],
                "cards": [
                    {"letter": symbol_letter(c, language), "name": symbol_name(c, language)} for c in m["stats"][s]
                ],
                "cards_full": _("%(stat)s: action cards from bottom to top: %(cards)s")
                % {"stat": stat_name(s), "cards": listing((symbol_name(c, language) for c in m["stats"][s]), language)}
                if m["stats"][s]
                else stat_name(s),
            }
            for s in STATS
        ]
        out.append(
            {
                "seat": m["seat"],
                "n": m["seat"] + 1,
                "name": m["name"],
                "colour": _colour(m["seat"]),
                "room": room_label(m["room"], language),
                "life": m["life"],
                "life_max": m["life_max"],
                "hearts": [i < m["life"] for i in range(m["life_max"])],
                "stats": stats,
                "die": m["die"],
                "pool": m["pool"],
                "pool_text": maiden_text.dice_pool(m["pool"], m["die"], language),
                "mp": m["mp"],
                "skills": skills,
                "familiars": familiars,
                "boss": boss_name(m["boss"], language) if m.get("boss") and not view["ended"] else "",
                "deaths": m.get("deaths", 0),
                "active": m["seat"] == view.get("active_seat"),
                "you": m["seat"] == screen.seat,
                "bot": _bot_mark(screen, int(m["seat"])),
            }
        )
    return {"maidens": out, "legend": symbol_legend(language)}


def _bosses(screen: Screen) -> dict[str, Any]:
    view = screen.view
    assert view is not None
    language = screen.lang
    ended = bool(view["ended"])  # after the end no fight goes on: a boss is defeated or not
    out = []
    for b in view["bosses"]:
        actions = []
        for i, a in enumerate(b["actions"]):
            actions.append(
                {
                    "name": pick(a["name"], language),
                    "difficulty": a["difficulty"],
                    "slate": colour_name(a.get("slate")) if a.get("slate") else "",
                    "slate_key": a.get("slate") or "",
                    # its extra rules (mods) and its effect with its trigger (MV-BOSS-10, MV-EVENT-2)
                    "effect": rules_text.action_text(a, language),
                    "current": b["engaged"] and b["pointer"] == i and not ended,
                    "disabled": i in (b.get("disabled") or []),
                }
            )
        # before its fight a boss shows the life it will awaken with (MV-SPEC-4: the bonus at 2 and 4
        # players), not the content's base life
        awakens = maiden_settings.starting_life(
            int(screen.settings.get("players", 1)), screen.settings.get("boss_life_bonus", "none"), int(b["life"])
        )
        life_max = b["life_max"] if b["engaged"] else awakens
        life_left = b["life_left"] if b["engaged"] else awakens
        out.append(
            {
                "id": b["id"],
                "name": pick(b["name"], language),
                "sephirah": pick(b.get("sephirah"), language),
                "engaged": b["engaged"],
                "in_battle": b["engaged"] and not b["defeated"] and not ended,
                "undefeated": ended and not b["defeated"],
                "defeated": b["defeated"],
                "final": b["final"],
                "life": life_left,
                "life_max": life_max,
                "pips": [i < (life_left or 0) for i in range(life_max or 0)],
                "actions": actions,
                # the maidens in the fight, as a sentence names them ("Ann and Bo" / 「Ann、Bo」)
                "fighting": ""
                if ended
                else join([mm["name"] for mm in view["maidens"] if mm.get("boss") == b["id"]], language),
            }
        )
    out.sort(key=lambda b: (not b["engaged"] or b["defeated"], b["defeated"]))
    return {"bosses": out, "defeated": sum(1 for b in out if b["defeated"])}


def _arcana(screen: Screen) -> dict[str, Any]:
    view = screen.view
    assert view is not None
    language = screen.lang
    usable = {str(c["area"]) for c in screen.legal if c["kind"] == "use_arcana"}
    arcana = [
        {
            "area": a["area"],
            "name": pick(a["name"], language),
            "text": pick(a["text"], language),
            "usable": a["area"] in usable,
        }
        for a in view["arcana"]
    ]
    effects = [
        {"name": pick(a["name"], language), "text": pick(a["effect_text"], language)}
        for a in view["areas"]
        if not a["freed"]
    ]
    here = None
    me = next((m for m in view["maidens"] if m["seat"] == (view.get("active_seat"))), None)
    if me is not None:
        room = next((r for r in view["map"]["rooms"] if r["id"] == me["room"]), None)
        if room is not None and room.get("area"):
            area = next((a for a in view["areas"] if a["id"] == room["area"]), None)
            if area is not None and not area["freed"]:
                here = {"name": pick(area["name"], language), "text": pick(area["effect_text"], language)}
    quests = []
    data = content()
    for q in view.get("quest_area", []):
        quest = data.quests.get(q)
        quests.append(
            {"name": pick(quest.name, language) if quest else q, "text": pick(quest.text, language) if quest else ""}
        )
    return {
        "arcana": arcana,
        "freed": sum(1 for a in view["areas"] if a["freed"]),
        "areas": len(view["areas"]),
        "effects": effects,
        "here": here,
        "quests": quests,
    }


def timing_name(timing: str) -> str:
    return {
        "movement": _("when moving"),
        "pre_roll": _("before the roll"),
        "post_roll": _("after the roll"),
        "result": _("at the result"),
        # the damage window opens only when damage would kill her (MV-DEATH-1, cancel_death)
        "damage": _("when a maiden would die"),
        "any": _("any time"),
    }.get(timing, timing)


# ---------------------------------------------------------------- (8) the log, (9) decks


def describe_event(event: dict[str, Any], screen: Screen) -> str:
    """An event as a sentence from ``delve.maiden.text`` (room ids shown as room names), or a
    readable generic line with names in place of ids for a kind it does not know; the server's
    seat changes (a bot taking a seat over, its player taking it back) in the server's words."""
    language = screen.lang
    kind = str(event.get("kind", ""))
    data = dict(event.get("data") or {})
    if bots.is_seat_change(kind):
        seat = data.get("seat")
        mine = screen.mine is not None and screen.mine.index == seat
        return bots.seat_sentence(kind, screen.name_of(seat if isinstance(seat, int) else None), language, you=mine)
    if closing.is_closed_event(kind, data):
        return closing.sentence(data.get("reason"), language)
    rooms = content().rooms
    for key in ("to", "room", "from"):
        if isinstance(data.get(key), str) and data[key] in rooms:
            data[key] = room_label(data[key], language)
    names = [screen.name_of(i) for i in range(len(screen.seats))]
    try:
        from delve.maiden import text as maiden_text

        said = maiden_text.sentence(kind, data, language if language in ("en", "ja") else "en", content(), names)
    except (ImportError, DelveError, KeyError, TypeError, ValueError, AttributeError):
        said = kind
    return said if said != kind else generic_sentence(event, screen)


def generic_sentence(event: dict[str, Any], screen: Screen) -> str:
    language = screen.lang
    data = event.get("data") or {}
    parts = []
    for key, value in data.items():
        if value is None or value in ([], {}):
            continue
        parts.append(f"{_field_name(key)} {_field_value(key, value, screen, language)}")
    kind = _kind_name(str(event.get("kind", "")))
    return kind + (": " + ", ".join(parts) if parts else "")


def _kind_name(kind: str) -> str:
    return kind.replace("maiden.", "").replace(".", " ").replace("_", " ").capitalize()


def _field_name(key: str) -> str:
    return key.replace("_", " ")


def _field_value(key: str, value: Any, screen: Screen, language: str) -> str:
    data = content()
    if key in {"seat", "for_seat"} and isinstance(value, int):
        return screen.name_of(value)
    if key == "seats" and isinstance(value, list):
        return join((screen.name_of(v) if isinstance(v, int) else str(v) for v in value), language)
    if isinstance(value, str):
        if value in data.rooms:
            return room_label(value, language)
        if value in data.bosses:
            return boss_name(value, language)
        if value in data.skills:
            return skill_name(value, language)
        if value in data.familiars:
            return familiar_name(value, language)
        if value in data.areas:
            return area_name(value, language)
        if value in data.room_cards:
            return card_name("room", value, language)
        if value in data.quests:
            return card_name("quest", value, language)
        return value
    if key == "dice" and isinstance(value, list):
        return " ".join(
            f"{colour_name(d[0])} {maiden_text.die_name(d[1], language)}={d[2]}"
            if isinstance(d, list) and len(d) == 3
            else str(d)
            for d in value
        )
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else str(value)


def _log(screen: Screen) -> dict[str, Any]:
    """The newest entries of the game's log, newest first, with the game's recent seat changes
    (the server's events, which the view does not hold) in their place by time."""
    view = screen.view
    assert view is not None
    changes = [
        {"time": e["time"], "kind": e["kind"], "data": {key: e[key] for key in ("seat", "reason") if key in e}}
        for e in reversed(bots.seat_events(screen.game))
    ]
    # oldest first; a seat change after the view's entries of the same second (saved after them)
    merged = sorted([*view["log"][-LOG_SHOWN:], *changes], key=lambda e: int(e.get("time") or 0))
    entries = list(reversed(merged[-LOG_SHOWN:]))
    return {"events": [{"text": describe_event(e, screen), "kind": e["kind"]} for e in entries]}


def _takeover(screen: Screen) -> dict[str, Any]:
    """The "Take my seat back" banner, for the player whose seat a bot took over; and the seats
    that have kept the game waiting for days, which the player may hand to a bot. At a hot-seat
    table the banner names each seat of the player's a bot plays, each with its own button."""
    if screen.table:
        offers = bots.reclaim_offers(screen.game, screen.controlled)
        return {"offers": offers, "offer_names": join([o["name"] for o in offers], screen.lang)}
    return {
        "offer": bots.reclaim_offer(screen.game, screen.mine),
        "handovers": bots.handover_offers(screen.game, screen.mine),
    }


def _decks(screen: Screen) -> dict[str, Any]:
    view = screen.view
    assert view is not None
    language = screen.lang
    decks = view["decks"]
    names = {
        "action": pgettext("deck", "Action cards"),
        "skill": pgettext("deck", "Skill cards"),
        "room": pgettext("deck", "Room cards"),
        "quest": pgettext("deck", "Quest cards"),
    }
    out = []
    for key in ("room", "quest", "skill", "action"):
        deck = decks.get(key) or {}
        discard = deck.get("discard", [])
        out.append(
            {
                "key": key,
                "name": names[key],
                "count": deck.get("count", 0),
                "discard_count": len(discard),
                "last": card_name(key, str(discard[-1]), language) if discard else "",
                "aside": deck.get("aside"),
            }
        )
    return {"decks": out}


_BUILDERS = {
    "takeover": _takeover,
    "status": _status,
    "map": _map,
    "decide": _decide,
    "dice": _dice,
    "maidens": _maidens,
    "bosses": _bosses,
    "arcana": _arcana,
    "log": _log,
    "decks": _decks,
}
