"""Commands: the strict parser, ``legal_commands`` (the only place that decides legality) and
``apply``.

A command is a JSON object such as ``{"kind": "move", "dir": "up"}``. ``apply`` parses it,
checks that it is one of ``legal_commands`` (``is_legal`` asks only the part of it that offers
that kind; free-text comments are checked on their own), and
only then changes the state; a refused command raises :class:`IllegalCommand` with a stable
code and a message saying why, and leaves the state untouched.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec

from delve.fated import cards, combat, core, death, defense, moves, play, turns, visibility
from delve.fated.content import CARDS_PER_SET
from delve.fated.ctx import Ctx
from delve.fated.grid import DIRECTIONS, PASSABLE
from delve.fated.state import CORE, DEAD, DEFENSE, MOVE, READY, WAIT, Monster, Player
from delve.kernel import IllegalCommand
from delve.kernel import quote_json as _quote


class Command(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    kind: str
    dir: Literal["up", "down", "left", "right"] | None = None
    card: int | None = None
    use: Literal["trap", "adjacent", "remote"] | None = None
    target: int | None = None
    monster: int | None = None
    reward: Literal["cards", "cp"] | None = None
    text: str | None = None


#: What each phase offers (FL-MOVE, FL-CORE, FL-WAIT, FL-DEF); give_up and comment are always
#: offered to a living player, comment also to the dead (FL-LOGIN-4, AMB-62).
PHASE_KINDS: dict[str, frozenset[str]] = {
    READY: frozenset({"start_turn"}),
    WAIT: frozenset(),
    MOVE: frozenset({"move", "stay", "pass", "swap"}),
    CORE: frozenset({"attack", "pass_by", "pick_up", "escape", "nothing", "draw", "pass", "jump", "steal", "use_card"}),
    DEFENSE: frozenset({"defend", "no_defense", "parry", "accept_pass_by", "decline_pass_by"}),
    DEAD: frozenset(),
}
KINDS = frozenset().union(*PHASE_KINDS.values()) | {"give_up", "comment"}
#: The fields each kind takes besides ``kind`` (docs/api.md lists them): any other field makes
#: the command malformed, as an unknown field does, whatever the phase.
KIND_FIELDS: dict[str, frozenset[str]] = {
    "start_turn": frozenset(),
    "move": frozenset({"dir"}),
    "swap": frozenset({"dir"}),
    "stay": frozenset(),
    "pass": frozenset({"reward"}),
    "attack": frozenset({"dir"}),
    "pass_by": frozenset({"dir"}),
    "jump": frozenset({"dir"}),
    "steal": frozenset({"dir"}),
    "pick_up": frozenset(),
    "escape": frozenset(),
    "nothing": frozenset(),
    "draw": frozenset(),
    "use_card": frozenset({"card", "use", "dir", "target", "monster"}),
    "defend": frozenset({"card"}),
    "no_defense": frozenset(),
    "parry": frozenset(),
    "accept_pass_by": frozenset(),
    "decline_pass_by": frozenset(),
    "give_up": frozenset(),
    "comment": frozenset({"text"}),
}
#: Commands that are not "actions" for the abandonment timer (FL-ABN-3).
NOT_ACTIONS = frozenset({"start_turn", "comment", "give_up"})

_decoder_error = (msgspec.ValidationError, TypeError)


def parse(data: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a command's shape; returns its canonical dict (no null fields, a new one each
    time). A field the command's kind does not take (:data:`KIND_FIELDS`) is malformed, as an
    unknown one is.

    A plain dict of plain values is looked up first among those parsed before (clients send the
    same few commands again and again): by its items and the exact types of its values (``True``
    equals ``1`` but is no card number), so what is found is what parsing it again would give.
    Not a comment: its text is free, and not worth keeping.

    :raises IllegalCommand: ``command/malformed`` quoting (the start of) what is wrong.
    """
    if type(data) is dict and "text" not in data:
        try:
            known = _parsed(tuple(data.items()), tuple(map(type, data.values())))
        except TypeError:  # a list or a dict among the values (unhashable): parsed as it is
            return _parse(data)
        return known.copy()
    return _parse(data)


@functools.lru_cache(maxsize=1024)
def _parsed(items: tuple[tuple[str, Any], ...], types: tuple[type, ...]) -> dict[str, Any]:
    """:func:`_parse` of the dict of ``items`` (whose values have the ``types``), kept: a pure
    function of its arguments (a refused command raises, and nothing is kept). Never changed:
    :func:`parse` hands out copies."""
    return _parse(dict(items))


def _parse(data: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`parse`, without the memo."""
    if type(data) is not dict and not isinstance(data, Mapping):  # a plain dict skips the ABC check
        raise IllegalCommand(
            "command/malformed", f'a command is an object with a "kind", not {type(data).__name__} {_quote(data)}'
        )
    try:
        command = msgspec.convert(data if type(data) is dict else dict(data), type=Command)
    except _decoder_error as exc:
        raise IllegalCommand("command/malformed", f"malformed command {_quote(data)}: {_quote(str(exc))}") from None
    if command.kind not in KINDS:
        raise IllegalCommand(
            "command/unknown_kind", f"unknown command kind {_quote(command.kind)}; known: {', '.join(sorted(KINDS))}"
        )
    canonical: dict[str, Any] = msgspec.to_builtins(command)
    extra = sorted(set(canonical) - {"kind"} - KIND_FIELDS[command.kind])
    if extra:
        takes = sorted(KIND_FIELDS[command.kind])
        raise IllegalCommand(
            "command/malformed",
            f"malformed command {_quote(data)}: {_quote(command.kind)} takes "
            + (f"only {', '.join(takes)}" if takes else "no field but kind")
            + f", not {', '.join(extra)}",
        )
    return canonical


def legal_commands(ctx: Ctx, seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may send now, in a stable order (the bots and replays rely on it)."""
    state = ctx.state
    player = state.players[seat]
    may_comment = _comment_wait(ctx, player) <= 0
    if state.ended or not player.alive:
        return [{"kind": "comment"}] if may_comment else []
    commands: list[dict[str, Any]] = []
    listing = play.Listing(ctx, player)
    for _, offers in _SECTIONS.get(player.phase, ()):
        commands.extend(offers(listing, None))
    commands.append({"kind": "give_up"})
    if may_comment:
        commands.append({"kind": "comment"})
    return commands


def is_legal(ctx: Ctx, seat: int, command: dict[str, Any]) -> bool:
    """Whether a parsed command is one of :func:`legal_commands`, asking only the part of it that
    offers commands of this kind (for a card, only that card's uses). Comments are checked on
    their own (``_comment``)."""
    state = ctx.state
    player = state.players[seat]
    if state.ended or not player.alive:
        return False
    kind = command["kind"]
    if kind == "give_up":
        return command == {"kind": "give_up"}
    offers = _OFFERED_BY.get(player.phase, _NO_OFFERS).get(kind)
    return offers is not None and command in offers(play.Listing(ctx, player), command)


def _comment_wait(ctx: Ctx, player: Player) -> int:
    """Seconds until the player may change their comment again (AMB-62)."""
    return player.comment_at + ctx.state.settings.comment_min_interval - ctx.now


# Each phase's offers, in the order legal_commands lists them: (the kinds offered, a function
# (listing, judged) listing them for the listing's player). ``judged``, when given, is a command
# of that kind to judge: an offer may then leave out what cannot equal it (card commands list
# only that card's uses of the same kind).
Offers = Callable[[play.Listing, dict[str, Any] | None], list[dict[str, Any]]]


def _start_turn(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [{"kind": "start_turn"}]


def _moves(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    grid = here.ctx.state.grid
    out = []  # a loop, not a comprehension (a call of its own in Python 3.11): listed at every move
    for d, tile, occupant in here.around():
        if occupant is None and grid[tile] in PASSABLE:
            out.append({"kind": "move", "dir": d})
    return out


def _stay(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [{"kind": "stay"}]


def _move_pass(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    player = here.player
    if player.move_no == 1 and not player.moved:  # AMB-6
        return [{"kind": "pass", "reward": "cards"}, {"kind": "pass", "reward": "cp"}]
    return []


def _swaps(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    seat = here.player.seat
    out = []  # a loop, as in _moves
    for d, _, occupant in here.around():
        if type(occupant) is Monster and occupant.owner == seat:
            out.append({"kind": "swap", "dir": d})
    return out


def _attacks(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    out = []  # a loop, as in _moves
    for d in here.adjacent_targets(None):
        out.append({"kind": "attack", "dir": d})
    return out


def _adjacent_players(here: play.Listing) -> list[str]:
    out = []  # a loop, as in _moves
    for d, _, occupant in here.around():
        if type(occupant) is Player:
            out.append(d)
    return out


def _pass_bys(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [{"kind": "pass_by", "dir": d} for d in _adjacent_players(here)]


def _pick_up(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [{"kind": "pick_up"}] if core.shows(here.ctx, here.player, "T") else []


def _escape(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    ctx, player = here.ctx, here.player
    return [{"kind": "escape"}] if core.shows(ctx, player, "E") and death.qualifies(ctx, player) else []


def _nothing(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [{"kind": "nothing"}]


def _draw(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [{"kind": "draw"}] if len(here.player.hand) <= 3 else []


def _core_pass(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [{"kind": "pass", "reward": "cards"}, {"kind": "pass", "reward": "cp"}] if here.player.stayed else []


def _jumps(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    ctx, player = here.ctx, here.player
    if not ctx.content.classes[player.cls].has("jump") or player.cp < combat.ABILITY_CP:
        return []
    return [{"kind": "jump", "dir": d} for d in DIRECTIONS if core.jump_landing(ctx, player, d) is not None]


def _steals(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    ctx, player = here.ctx, here.player
    if not ctx.content.classes[player.cls].has("steal") or player.cp < combat.ABILITY_CP:
        return []
    return [{"kind": "steal", "dir": d} for d in _adjacent_players(here)]


def _card_uses(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    ctx, player = here.ctx, here.player
    if judged is not None:  # only that card, and only its uses of the same kind
        card = judged.get("card")
        return play.legal_uses(ctx, player, card, here, use=judged.get("use")) if card in player.hand else []
    out: list[dict[str, Any]] = []
    # ctx.card of each card, written out (asked for every card of the hand)
    content = ctx.content
    kinds = content.card_sets[ctx.state.settings.preset]
    definitions = content.cards
    for card_id in player.hand:  # play.legal_uses of each card, written out (loops, as in _moves)
        found = definitions[kinds[card_id % CARDS_PER_SET]]
        if found.category != "defense":  # defense cards only in the defense phase (FL-CARD-2)
            for how in here.uses(found):
                out.append({"kind": "use_card", "card": card_id, **how})
    return out


def _defenses(here: play.Listing, judged: dict[str, Any] | None) -> list[dict[str, Any]]:
    player = here.player
    return combat.defense_options(here.ctx, player, player.pending[0]) if player.pending else []


_SECTIONS: dict[str, list[tuple[frozenset[str], Offers]]] = {
    READY: [(frozenset({"start_turn"}), _start_turn)],
    WAIT: [],
    MOVE: [
        (frozenset({"move"}), _moves),
        (frozenset({"stay"}), _stay),
        (frozenset({"pass"}), _move_pass),
        (frozenset({"swap"}), _swaps),
    ],
    CORE: [
        (frozenset({"attack"}), _attacks),
        (frozenset({"pass_by"}), _pass_bys),
        (frozenset({"pick_up"}), _pick_up),
        (frozenset({"escape"}), _escape),
        (frozenset({"nothing"}), _nothing),
        (frozenset({"draw"}), _draw),
        (frozenset({"pass"}), _core_pass),
        (frozenset({"jump"}), _jumps),
        (frozenset({"steal"}), _steals),
        (frozenset({"use_card"}), _card_uses),
    ],
    DEFENSE: [(PHASE_KINDS[DEFENSE], _defenses)],
    DEAD: [],
}


#: What a phase that is not listed offers (none).
_NO_OFFERS: dict[str, Offers] = {}

#: Per phase, the offers that list each kind (one per kind), for :func:`is_legal`.
_OFFERED_BY: dict[str, dict[str, Offers]] = {
    phase: {kind: offers for kinds, offers in sections for kind in kinds} for phase, sections in _SECTIONS.items()
}


def apply(ctx: Ctx, seat: int, data: Mapping[str, Any]) -> None:
    """Apply a command for ``seat`` (the caller has advanced the clock to ``ctx.now``).

    :raises IllegalCommand: with a stable code when the command is malformed or not legal now.
    """
    command = parse(data)
    state = ctx.state
    if not 0 <= seat < len(state.players):
        raise IllegalCommand(
            "command/no_such_seat", f"there is no seat index {seat} in this game (seats are numbered from 0)"
        )
    player = state.players[seat]
    kind = command["kind"]
    if kind == "comment":
        _comment(ctx, player, command.get("text"))
        return
    if not is_legal(ctx, seat, command):
        raise _diagnose(ctx, player, command, legal_commands(ctx, seat))
    if kind not in NOT_ACTIONS:
        player.last_action_at = ctx.now
    _dispatch(ctx, player, command)
    visibility.refresh(ctx)


def _dispatch(ctx: Ctx, player: Player, command: dict[str, Any]) -> None:
    kind = command["kind"]
    direction = command.get("dir", "")
    if kind == "start_turn":
        turns.start_turn(ctx, player)
    elif kind == "move":
        moves.move(ctx, player, direction)
    elif kind == "stay":
        moves.stay(ctx, player)
    elif kind == "pass":
        moves.pass_turn(ctx, player, command["reward"], core=player.phase == CORE)
    elif kind == "swap":
        moves.swap_with_monster(ctx, player, direction)
    elif kind == "attack":
        core.attack(ctx, player, direction)
    elif kind == "pass_by":
        core.pass_by(ctx, player, direction)
    elif kind == "pick_up":
        core.pick_up(ctx, player)
    elif kind == "escape":
        core.escape(ctx, player)
    elif kind == "nothing":
        core.do_nothing(ctx, player)
    elif kind == "draw":
        core.draw(ctx, player)
    elif kind == "jump":
        core.jump(ctx, player, direction)
    elif kind == "steal":
        core.steal(ctx, player, direction)
    elif kind == "use_card":
        play.use_card(ctx, player, command)
        core.finish(ctx, player)
    elif kind in {"defend", "no_defense", "parry"}:
        item = player.pending[0]
        method = {"no_defense": "none", "parry": "parry"}.get(kind, "card")
        defense.resolve(ctx, player, item, method, command.get("card"))
        turns.proceed(ctx, player)
    elif kind in {"accept_pass_by", "decline_pass_by"}:
        core.answer_pass_by(ctx, player, player.pending[0], accept=kind == "accept_pass_by")
        turns.proceed(ctx, player)
    elif kind == "give_up":
        defense.abandon(ctx, player, reason="gave_up")
    else:  # pragma: no cover - parse() rejects unknown kinds
        raise IllegalCommand("command/unknown_kind", f"unknown command kind {_quote(kind)}")


def _comment(ctx: Ctx, player: Player, text: str | None) -> None:
    """FL-COM-1..5, AMB-62: replace the own comment; any phase, also when dead or after the end;
    at most ``comment_max_len`` characters and one update per ``comment_min_interval``."""
    settings = ctx.state.settings
    if text is None:
        raise IllegalCommand("comment/missing_text", "a comment needs a text")
    text = " ".join(text.split())
    if len(text) > settings.comment_max_len:
        raise IllegalCommand(
            "comment/too_long", f"a comment has at most {settings.comment_max_len} characters, got {len(text)}"
        )
    wait = _comment_wait(ctx, player)
    if wait > 0:
        raise IllegalCommand(
            "comment/too_soon", f"comments can be changed once per {settings.comment_min_interval} s; wait {wait} s"
        )
    player.comment = text
    player.comment_at = ctx.now
    ctx.public("comment", player=player.seat)


def _diagnose(ctx: Ctx, player: Player, command: dict[str, Any], legal: list[dict[str, Any]]) -> IllegalCommand:
    """Why a well-formed command is not legal now (only for the message: legality itself is
    decided by ``legal_commands``)."""
    kind = command["kind"]
    state = ctx.state
    if state.ended:
        return IllegalCommand("game/ended", "the game has ended; only comments are possible")
    if not player.alive:
        return IllegalCommand("player/dead", "you are dead: you can only change your comment (FL-LOGIN-4)")
    offered = {c["kind"] for c in legal}
    if kind not in offered:
        if kind in PHASE_KINDS.get(player.phase, frozenset()) or (kind == "pass" and player.phase in (MOVE, CORE)):
            return _why_not(ctx, player, command)
        where = [phase for phase, kinds in PHASE_KINDS.items() if kind in kinds]
        return IllegalCommand(
            "command/not_your_phase",
            f"{_quote(kind)} is not possible in the {player.phase} phase"
            + (f" (only in: {', '.join(where)})" if where else "")
            + f"; possible now: {', '.join(sorted(offered))}",
        )
    return _why_not(ctx, player, command)


def _why_not(ctx: Ctx, player: Player, command: dict[str, Any]) -> IllegalCommand:
    kind = command["kind"]
    card = command.get("card")
    if card is not None and card not in player.hand:
        return IllegalCommand("command/no_such_card", f"card {card} is not in your hand")
    if card is not None:
        definition = ctx.card(card)
        use = command.get("use")
        cost = definition.use_cost(use) if use is None or use in definition.uses else None
        if cost is not None and cards.cp_cost(ctx, player, cost) > player.cp:
            return IllegalCommand(
                "command/not_enough_cp",
                f"{definition.name['en']} needs {cards.cp_cost(ctx, player, cost)} CP; you have {player.cp}",
            )
    if kind in {"jump", "steal", "parry"} and player.cp < combat.ABILITY_CP:
        return IllegalCommand("command/not_enough_cp", f"{kind} needs {combat.ABILITY_CP} CP; you have {player.cp}")
    if kind in {"jump", "steal", "parry"} and not ctx.content.classes[player.cls].has(kind):
        return IllegalCommand("command/not_your_class", f"your class cannot {kind}")
    if kind == "move":
        return IllegalCommand("command/blocked", f"you cannot move {command.get('dir')}: wall, door, edge or occupied")
    if kind == "pass":
        return IllegalCommand("command/pass_not_allowed", "you can pass only before doing anything but stay this turn")
    if kind == "draw":
        return IllegalCommand("command/too_many_cards", "you can draw only while holding 3 cards or fewer")
    if kind == "escape":
        return IllegalCommand(
            "command/cannot_escape", "you can escape only from an exit, meeting victory condition A or B"
        )
    if kind == "pick_up":
        return IllegalCommand("command/no_treasure", "there is no treasure on your tile")
    return IllegalCommand("command/invalid_target", f"{_quote(command)} has no valid target or option now")
