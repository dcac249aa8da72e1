"""What a seat (or a spectator) may see: built from an allow-list, never by stripping secrets.

A new field of the state is invisible until a line here shows it. Hidden by construction:
other hands (only sizes), the deck order, unknown traps and fakes (they look like floor, a
treasure or an exit), positions outside sight (except Exposed players and, under Keen Ear,
monsters), stored turns and clock times of others, statuses of players under Stealth
(FL-VIS, FL-INFO, FL-UI).

The recent events (``events``) and a player's messages (``you.messages``) are not built here: the
state keeps no copy of them. Whoever shows a view fills them in from the events themselves
(``journal.py``: the server from its event table, an in-process driver from what the engine
returned).

Speed: a view is built after every command (and, by the server, for every audience), so the
parts that do not depend on the viewer (the game's settings and standing, every player's public
entry as others see it, the spectator's and the final map) are built once per :class:`_Views`
and handed to each view as a fresh copy. The players' entries and the game's standing are also
kept beside the state across views and commands (:class:`_Kept`) with what they were made of,
and copied again while that is unchanged (a copy of a dict is made faster than the dict written
out anew); a hand's entries are copied from the list kept per seat of the entries of a table kept
per card number and price (:meth:`_Kept.hand_of`, :func:`_priced`). Every view is a tree of its
own: nothing in one is shared with another.

The ruleset's ``views`` hook asks for read-only views (``build_many(..., lasting=True)``: the
server only hashes them for its change counters): there the parts are shared instead of copied,
between the audiences of one call and with earlier calls while equal, as lasting parts
(:mod:`delve.kernel.lasting`) whose canonical encoding is made once while they are held. Most of
an audience's parts are the same after a command (a command changes one or two players), so
there each part is handed out again without being made or compared while the change marks of
what it is made of are unchanged: beside the state are kept copies of every player, of the maze
(terrain, traps, fakes, doors) and of the monsters, compared whole with the state at each call
(:meth:`_Kept.marks`), so a state changed in any way, in place or not, still shows what a fresh
build would.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar

import msgspec

from delve.fated import cards, clock, combat, death, defense, statuses, visibility
from delve.fated.content import Content
from delve.fated.ctx import Ctx
from delve.fated.state import (
    CORE,
    DEFENSE,
    MOVE,
    WAIT,
    Fake,
    GameState,
    Monster,
    Pending,
    Player,
    Status,
    Trap,
)
from delve.kernel.lasting import Ring

V = TypeVar("V")


def build(state: GameState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator's)."""
    return _Views(state).view(seat)


def build_many(state: GameState, seats: Sequence[int | None], *, lasting: bool = False) -> list[dict[str, Any]]:
    """``[build(state, seat) for seat in seats]``, with the parts common to every audience built
    once. The views share no mutable object.

    ``lasting``: the views are to be read only (the ruleset's ``views`` hook, used for the
    server's view digests), so their parts are shared instead of copied: between the views of
    this call (the game's standing, the piles, a players list or map that several audiences see
    alike) and with the views of earlier calls on this state while they are equal (each
    audience's map, characters, players list, ``you`` and hand), and those are lasting parts
    (:mod:`delve.kernel.lasting`), whose canonical encoding is made once while they last, as
    is each whole view while it is handed out again. The views are equal to those built without
    it."""
    views = _Views(state, lasting=lasting)
    built = [views.view(seat) for seat in seats]
    if lasting:
        _held_again(built)
    return built


def _held_again(views: list[dict[str, Any]]) -> None:
    """Hold each view and each part of one (again, if the memo forgot it meanwhile: it forgets
    the part held longest ago, which may be one handed out ever since, such as the game's
    standing), so that all are held when handed out. Parts handed out again are held here only,
    once all are made: a part held again is the newest, and it may make the memo forget
    another part of these views, so this goes round again while it held some (a few rounds at
    most, unless the memo is too small to hold them all)."""
    memo = _LASTING
    parts: list[Any] = list(views)
    for view in views:
        parts.extend(view.values())
    for _ in range(4):
        if not memo.hold_all(parts):
            return


class _Views:
    """The views of one state at one moment: the parts every audience sees alike are built on
    first use and copied for each later view."""

    __slots__ = (
        "ctx",
        "entries",
        "final_map",
        "game",
        "kept",
        "keys",
        "lasting",
        "marks",
        "numbers",
        "others",
        "piles",
        "spectator_map",
        "state",
        "used",
    )

    def __init__(self, state: GameState, *, lasting: bool = False) -> None:
        self.state = state
        self.ctx = Ctx(state, state.clock)
        players = state.players
        numbers = _NUMBERS.get(len(players))
        if numbers is None:
            numbers = _NUMBERS[len(players)] = tuple(p.number for p in players)
        self.numbers = numbers
        self.game: dict[str, Any] | None = None
        self.others: list[dict[str, Any] | None] = [None] * len(players)
        """Per seat: the player's public entry as anyone else sees it (FL-INFO-1/2), as kept
        beside the state (:class:`_Kept`, copied for each view) once found for this moment."""
        self.spectator_map: dict[str, Any] | None = None
        self.final_map: dict[str, Any] | None = None
        self.used = False
        """Whether a view was handed out: from then on shared parts are copied."""
        self.lasting = lasting
        """Whether the views are read-only (:func:`build_many`): parts are shared, never copied."""
        self.kept = _kept(state, self.ctx.content)
        self.keys: list[tuple[Any, ...] | None] = [None] * len(players)
        """Per seat: what its public entry is made of (as :meth:`_entry` found it now)."""
        self.piles: dict[str, int] | None = None
        self.entries: list[dict[str, Any]] | None = None
        """With ``lasting``: every player's public entry as others see it (kept, not copied)."""
        self.marks: _Marks | None = None
        """With ``lasting``: the change marks of this moment (:meth:`_Kept.marks`)."""

    def view(self, seat: int | None) -> dict[str, Any]:
        if self.lasting:
            return self._lasting_view(seat)
        state = self.state
        ctx = self.ctx
        viewer = state.players[seat] if seat is not None else None
        copy = self.used
        # the sight radius, read once for the map, the characters and "you" (FL-VIS-1)
        radius = statuses.sight(ctx, viewer)[0] if viewer is not None and viewer.alive else 0
        sight: AbstractSet[int] = (
            visibility.within(state, viewer.pos, radius)
            if viewer is not None and viewer.alive and not state.ended
            else frozenset()
        )
        if self.game is None:
            self.game = _kept_game(self.kept, state)
        view: dict[str, Any] = {
            "game": self.game.copy(),
            "piles": {"deck": len(state.deck), "discard": len(state.discard)},
            "map": self._map(viewer, radius, sight, copy),
            "characters": self._characters(viewer, sight),
            "players": self._players(viewer),
        }
        if viewer is not None:
            hand = _copied(self.kept.hand_of(ctx, viewer))
            view["you"] = _you(ctx, viewer, self.numbers[viewer.seat], radius, hand)
        self.used = True
        return view

    def _lasting_view(self, seat: int | None) -> dict[str, Any]:
        """:meth:`view` for read-only views: the same parts, shared (see :func:`build_many`), and
        each part of the audience's view handed out last used again, without being looked at,
        while what it is made of is unchanged: the change marks of the players, the maze, the
        characters and the game's standing (:meth:`_Kept.marks`), and what the viewer's map and
        characters read of it (:func:`_sees`)."""
        state = self.state
        kept = self.kept
        marks = self.marks
        if marks is None:  # the first view of this moment
            self.game = _kept_game(kept, state)
            self.piles = kept.piles_of(len(state.deck), len(state.discard))
            marks = self.marks = kept.marks(state)
        tokens, board, characters, game = marks
        slot = -1 if seat is None else seat
        seen = kept.audiences.get(slot)
        if seen is None:
            seen = kept.audiences[slot] = _Audience()
        if seat is None:
            viewer = None
            own = -1
            sees = _SPECTATOR
        else:
            viewer = state.players[seat]
            own = tokens[seat]
            found = seen.sees
            if found is not None and found[0] == own:
                sees = found[1]
            else:
                sees = _sees(self.ctx, viewer)
                seen.sees = (own, sees)
        # the map: what the viewer's sight reads, the maze and the game's standing
        if seen.map_board == board and seen.map_game == game and (seen.map_sees is sees or seen.map_sees == sees):
            map_part = seen.map
        else:
            map_part = kept.alike(("map", slot), self._map(viewer, sees[2], self._sight(sees), False))
            seen.map = map_part
            seen.map_sees = sees
            seen.map_board = board
            seen.map_game = game
        # the characters: where everyone is, the monsters, the viewer's sight and Keen Ear, and
        # the game's standing (its settings give the sight's metric)
        if (
            seen.characters_mark == characters
            and seen.characters_game == game
            and (seen.characters_sees is sees or seen.characters_sees == sees)
        ):
            characters_part = seen.characters
        else:
            characters_part = kept.alike(("characters", slot), self._characters(viewer, self._sight(sees)))
            seen.characters = characters_part
            seen.characters_sees = sees
            seen.characters_mark = characters
            seen.characters_game = game
        players_part = self._lasting_players(kept, seen, viewer, tokens, game)
        you_part: dict[str, Any] | None = None
        if viewer is not None:
            # "you": the viewer and the game's standing and settings
            if seen.you_own == own and seen.you_game == game:
                you_part = seen.you
            else:
                hand = kept.hand_of(self.ctx, viewer)
                you = _you(self.ctx, viewer, self.numbers[viewer.seat], sees[2], hand)
                you_part = seen.you = kept.alike(("you", slot), you)
                seen.you_own = own
                seen.you_game = game
        # the whole view, handed out again while made of the same parts (looked at before a view
        # is made): a lasting part too, so that the server's digest of it is made once while it lasts
        game_part = self.game
        piles_part = self.piles
        last = seen.view
        if (
            last is not None
            and seen.parts_game is game_part
            and seen.parts_piles is piles_part
            and seen.parts_map is map_part
            and seen.parts_characters is characters_part
            and seen.parts_players is players_part
            and seen.parts_you is you_part
        ):
            return last
        view: dict[str, Any] = {
            "game": game_part,
            "piles": piles_part,
            "map": map_part,
            "characters": characters_part,
            "players": players_part,
        }
        if you_part is not None:
            view["you"] = you_part
        seen.view = view
        seen.parts_game = game_part
        seen.parts_piles = piles_part
        seen.parts_map = map_part
        seen.parts_characters = characters_part
        seen.parts_players = players_part
        seen.parts_you = you_part
        return _hold(view)

    def _sight(self, sees: _Sees) -> AbstractSet[int]:
        """The tiles in the viewer's sight now (FL-VIS-1; none once the game ended), as
        :meth:`view` reads them."""
        alive, pos, radius = sees[0], sees[1], sees[2]
        state = self.state
        if not alive or state.ended:
            return frozenset()
        return visibility.within(state, pos, radius)

    # -- the map ------------------------------------------------------------------------------

    def _map(self, viewer: Player | None, radius: int, sight: AbstractSet[int], copy: bool) -> dict[str, Any]:
        """``tiles``: one character per tile as the viewer knows it (``?`` unexplored);
        ``lit``: ``1`` for tiles in sight now (bright), ``0`` otherwise (remembered or unexplored).
        After the game ends everyone sees the whole maze as it is."""
        state = self.state
        if state.ended:
            if self.final_map is None:
                self.final_map = _final_map(state)
                return self.final_map
            return _copy_map(self.final_map) if copy else self.final_map
        if viewer is None:
            if self.spectator_map is None:
                n = state.size
                self.spectator_map = {
                    "size": n,
                    "tiles": visibility.UNEXPLORED * (n * n),
                    "lit": "0" * (n * n),
                    "doors": {},
                    "traps": {},
                }
                return self.spectator_map
            return _copy_map(self.spectator_map) if copy else self.spectator_map
        return _seat_map(self.state, viewer, radius, sight)

    # -- characters ---------------------------------------------------------------------------

    def _characters(self, viewer: Player | None, sight: AbstractSet[int]) -> list[dict[str, Any]]:
        """Players in sight (and Exposed players anywhere, FL-VIS-6, AMB-38); monsters in sight,
        or all of them under Keen Ear, marked own or enemy (FL-VIS-7, FL-MON-22)."""
        ctx = self.ctx
        state = self.state
        n = state.size
        everything = state.ended
        own_seat = viewer.seat if viewer is not None else None
        numbers = self.numbers
        out: list[dict[str, Any]] = []
        for player in state.players:
            if not player.alive:
                continue
            pos = player.pos
            in_sight = everything or pos in sight
            you = player.seat == own_seat
            # Exposed (a status) shows a player anywhere (FL-VIS-6)
            if in_sight or you or (player.statuses and _active(player.statuses, "exposed")):
                y, x = divmod(pos, n)
                out.append(
                    {
                        "type": "player",
                        "seat": player.seat,
                        "number": numbers[player.seat],
                        "tile": [x, y],
                        "you": you,
                        "in_sight": in_sight,
                    }
                )
        if state.monsters:
            keen = (
                viewer is not None and viewer.alive and bool(viewer.statuses) and _active(viewer.statuses, "keen_ear")
            )
            for monster in state.monsters:
                in_sight = everything or monster.pos in sight
                if in_sight or keen:
                    out.append(_monster(ctx, monster, own_seat, in_sight=in_sight))
        return out

    # -- players ------------------------------------------------------------------------------

    def _players(self, viewer: Player | None) -> list[dict[str, Any]]:
        """Each player's public entry: the viewer's own (with its statuses' turns) and the
        others' as anyone else sees them (FL-INFO-1/2), copied from the entries kept beside the
        state (:class:`_Kept`) while everything they are made of is unchanged, else built again
        and kept."""
        own_seat = viewer.seat if viewer is not None else None
        others = self.others
        out: list[dict[str, Any]] = []
        append = out.append
        for index in range(len(others)):
            if index == own_seat:
                source = self._entry(index, True)
            else:
                found = others[index]  # found for an earlier view of this moment, or not yet
                source = found if found is not None else self._entry(index, False)
            # a copy that shares no list or dict with the kept entry (written out: four per view)
            entry = source.copy()
            visited = source.get("visited")
            if visited is not None:
                top, bottom = visited
                entry["visited"] = [top.copy(), bottom.copy()]
                statuses_found = source["statuses"]
                if statuses_found:
                    copied = []  # a loop, not a comprehension (a call of its own in Python 3.11)
                    for status in statuses_found:
                        copied.append(status.copy())
                    entry["statuses"] = copied
                else:
                    entry["statuses"] = []
            append(entry)
        return out

    def _shared_players(
        self, kept: _Kept, viewer: Player | None, own: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """:meth:`_players` for read-only views: a list of the kept entries themselves, the
        viewer's own entry being its public one when the two are equal (no status turns to
        show, no Stealth), the same list for every audience and call that shows the same
        entries (kept by the entries' identities)."""
        entries = self.entries
        if entries is None:
            others = self.others
            entries = self.entries = [
                entry if entry is not None else self._entry(index, False) for index, entry in enumerate(others)
            ]
        chosen = entries
        if viewer is not None:
            seat = viewer.seat
            if own is None:
                own = self._entry(seat, True)
            public = entries[seat]
            known = kept.own.get(seat)
            if known is None or known[0] is not own or known[1] is not public:
                known = kept.own[seat] = (own, public, own == public)
            if not known[2]:
                chosen = entries.copy()
                chosen[seat] = own
        # the ids name the entries: the kept list holds them, so no other object has their ids
        key = tuple([id(entry) for entry in chosen])
        found = kept.lists.get(key)
        if found is None:
            if len(kept.lists) >= 64:
                kept.lists.clear()
            found = kept.lists[key] = list(chosen)
            # the entries are lasting parts too: a new list (one player's entry changed) is
            # encoded with the others' encodings made before
            for entry in found:
                _hold(entry)
        return _hold(found)

    def _lasting_players(
        self, kept: _Kept, seen: _Audience, viewer: Player | None, tokens: tuple[int, ...], game: int
    ) -> list[dict[str, Any]]:
        """:meth:`_shared_players`, with each player's entries (as others see it, as its own view
        shows it) looked for again only when its change mark or the game's standing's changed,
        and the audience's list handed out last used again while made of the same entries."""
        entries = self.entries
        if entries is None:  # the first list of this moment
            last = kept.entries
            if last is not None and last[1] == game and len(last[0]) == len(tokens):
                marks, before = last[0], last[2]
                entries = [
                    before[index] if marks[index] == mark else self._entry(index, False)
                    for index, mark in enumerate(tokens)
                ]
                for entry, old in zip(entries, before, strict=True):
                    if entry is not old:
                        break
                else:
                    entries = before
            else:
                entries = [self._entry(index, False) for index in range(len(tokens))]
            kept.entries = (tokens, game, entries)
            self.entries = entries
        own: dict[str, Any] | None = None
        if viewer is not None:
            seat = viewer.seat
            found = seen.own
            if found is not None and found[0] == tokens[seat] and found[1] == game:
                own = found[2]
            else:
                own = self._entry(seat, True)
                seen.own = (tokens[seat], game, own)
        if seen.players_from is entries and seen.players_own is own:
            return seen.players
        seen.players = self._shared_players(kept, viewer, own)
        seen.players_from = entries
        seen.players_own = own
        return seen.players

    def _entry(self, index: int, own: bool) -> dict[str, Any]:
        """The player's public entry as others see it (``own``: as its own view shows it), kept
        beside the state (:class:`_Kept`, not a copy), built again when what it is made of
        changed; an entry as others see it is remembered for the later views of this moment."""
        state = self.state
        player = state.players[index]
        key = self.keys[index]
        if key is None:
            key = self.keys[index] = (
                player.seat,
                player.name,
                player.cls,
                player.alive,
                player.fate,
                player.comment,
                player.keep_record,
                len(player.hand),
                player.hp,
                player.max_hp,
                player.cp,
                player.max_cp,
                player.attack,
                player.defense,
                player.magic,
                player.evasion,
                player.treasures,
                player.kills,
                player.visited,
                player.image,
                state.ended,
            )
        public = self.kept.public
        slot = -1 - index if own else index
        found = public.get(slot)
        if found is None or found[0] != key or found[1] != player.statuses:
            if player.statuses:
                found = (
                    key,
                    [msgspec.structs.replace(status) for status in player.statuses],
                    _public_player(self.ctx, player, self.numbers[index], own=own),
                )
            else:
                # without statuses the entry as its own view shows it and as others see it are
                # alike (only a status's turns or Stealth tell them apart): the other one is
                # used when it is up to date (kept entries are never changed, views copy them)
                other = public.get(-1 - slot)
                if other is not None and not other[1] and other[0] == key:
                    found = other
                else:
                    found = (key, [], _public_player(self.ctx, player, self.numbers[index], own=own))
            public[slot] = found
        if not own:
            self.others[index] = found[2]
        return found[2]


class _Kept:
    """Parts of views kept beside a state across views and commands, each with what it was made
    of, and used again (copied, except in read-only views: a caller's view never holds what is
    kept here) only while that is equal, so a state changed in any way still shows what a fresh
    build would. Kept in ``GameState.__dict__``: never encoded, never copied; a decoded state
    starts without it. Nothing kept here is ever changed: it is replaced.

    ``public``: per player, its public entry as others see it (at its index in ``players``) and
    as its own view shows it (at ``-1 - index``), with the fields :func:`_public_player` read and
    copies of the statuses. ``game``: :func:`_game` with what it read. The rest serves read-only
    views only (:func:`build_many` with ``lasting``), whose parts are handed out as they are."""

    __slots__ = (
        "audiences",
        "board",
        "characters",
        "content",
        "counter",
        "entries",
        "game",
        "hands",
        "lists",
        "monsters",
        "own",
        "parts",
        "piles",
        "players",
        "public",
    )

    def __init__(self, content: Content) -> None:
        self.content = content
        self.public: dict[int, tuple[tuple[Any, ...], list[Status], dict[str, Any]]] = {}
        self.game: tuple[tuple[Any, ...], dict[str, Any], int] | None = None
        self.piles: tuple[int, int, dict[str, int]] | None = None
        self.parts: dict[tuple[str, int], Any] = {}
        """Per part and audience (``-1``: a spectator), the part last handed out."""
        self.own: dict[int, tuple[dict[str, Any], dict[str, Any], bool]] = {}
        """Per seat: its own entry, its public entry and whether they are equal."""
        self.lists: dict[tuple[int, ...], list[dict[str, Any]]] = {}
        """Players lists by the ids of the kept entries they hold."""
        self.hands: dict[int, tuple[dict[int, dict[str, Any]], list[int], list[dict[str, Any]]]] = {}
        """Per seat: the price table and the cards its hand list was made from, and the list."""
        self.counter = 0
        """The last change mark given out (marks are never given out twice)."""
        self.players: list[tuple[Player, int, tuple[bool, int, bool]] | None] = []
        """Per player: a copy of it as last seen (its lists and their structs copied too), its
        change mark, and what the characters show of it (alive, tile, Exposed)."""
        self.board: tuple[str, dict[int, Trap], dict[int, Fake], dict[int, int], int] | None = None
        """The maze as last seen (terrain, copies of the traps and fakes, the doors' hit points)
        and its change mark."""
        self.monsters: tuple[list[Monster], int] | None = None
        """Copies of the monsters as last seen and their change mark."""
        self.characters: tuple[tuple[Any, ...], int] | None = None
        """What every audience's characters are made of, but its own sight, and its change mark."""
        self.entries: tuple[tuple[int, ...], int, list[dict[str, Any]]] | None = None
        """Every player's entry as others see it, with the change marks of the players and of
        the game's standing they were found under."""
        self.audiences: dict[int, _Audience] = {}
        """Per audience (``-1``: a spectator): the parts of its view handed out last, each with
        the change marks it was made under."""

    def marks(self, state: GameState) -> _Marks:
        """The change marks of ``state`` now: per player, of the maze, of the characters and of
        the game's standing. A mark is given anew whenever what it covers differs from the copy
        kept when it was given (compared whole, so the state may be changed in any way), so
        equal marks mean equal inputs, and a part made under the same marks is made alike."""
        players = state.players
        known = self.players
        if len(known) != len(players):
            known = self.players = [None] * len(players)
        tokens = []
        for index, player in enumerate(players):
            found = known[index]
            if found is None or found[0] != player:
                self.counter += 1
                found = known[index] = (_copy_player(player), self.counter, _shown(player))
            tokens.append(found[1])
        board = self.board
        if (
            board is None
            or board[0] != state.grid
            or board[1] != state.traps
            or board[2] != state.fakes
            or board[3] != state.door_hp
        ):
            self.counter += 1
            board = self.board = (
                state.grid,
                {tile: msgspec.structs.replace(trap, known=list(trap.known)) for tile, trap in state.traps.items()},
                {tile: msgspec.structs.replace(fake, known=list(fake.known)) for tile, fake in state.fakes.items()},
                dict(state.door_hp),
                self.counter,
            )
        monsters = self.monsters
        if monsters is None or monsters[0] != state.monsters:
            self.counter += 1
            copies = [msgspec.structs.replace(m, statuses=_copy_statuses(m.statuses)) for m in state.monsters]
            monsters = self.monsters = (copies, self.counter)
        shown = (*[found[2] for found in known if found is not None], monsters[1], state.ended)
        characters = self.characters
        if characters is None or characters[0] != shown:
            self.counter += 1
            characters = self.characters = (shown, self.counter)
        game = self.game
        assert game is not None  # found before the marks
        return (tuple(tokens), board[4], characters[1], game[2])

    def piles_of(self, deck: int, discard: int) -> dict[str, int]:
        found = self.piles
        if found is None or found[0] != deck or found[1] != discard:
            found = self.piles = (deck, discard, {"deck": deck, "discard": discard})
        return _hold(found[2])

    def alike(self, slot: tuple[str, int], part: Any) -> Any:
        """The part handed out last for ``slot`` when it equals ``part`` (the views' parts hold
        values of one type per key, so equal parts encode alike), else ``part``, kept."""
        found = self.parts.get(slot)
        if found is not None and found == part:
            return _hold(found)
        self.parts[slot] = part
        return _hold(part)

    def hand_of(self, ctx: Ctx, player: Player) -> list[dict[str, Any]]:
        """The player's cards with their CP cost per use (``use``: its effects), at its prices
        now: the price table's entries themselves (:func:`_priced`; a caller's view holds copies,
        :func:`_copied`), the same list while the table and the cards are."""
        table = _priced(ctx, player)
        found = self.hands.get(player.seat)
        if found is None or found[0] is not table or found[1] != player.hand:
            hand = []
            for card_id in player.hand:
                template = table.get(card_id)
                if template is None:
                    template = table[card_id] = _card_entry(ctx, player, card_id)
                hand.append(template)
            found = self.hands[player.seat] = (table, list(player.hand), hand)
        return found[2]


#: Read-only parts handed out by :func:`build_many` with ``lasting`` (without keys: a part is
#: never looked up, it is handed out again while equal, so a ring that forgets the part held
#: longest ago will do), so that their canonical encoding is made once while they are held. A
#: 4-player game's views hold about 14 parts and 4 players' entries at a time: room for those
#: of the games the server keeps decoded (128); a part forgotten meanwhile is held again when
#: it is handed out again.
_LASTING: Ring[Any] = Ring(2048)


def _hold(part: V) -> V:
    """``part``, held by :data:`_LASTING` (again, if it was forgotten meanwhile)."""
    _LASTING.hold(part)
    return part


def _kept(state: GameState, content: Content) -> _Kept:
    """The parts kept for ``state`` (started again under another content)."""
    kept: _Kept | None = state.__dict__.get("_view_kept")
    if kept is None or kept.content is not content:
        kept = state.__dict__["_view_kept"] = _Kept(content)
    return kept


def _kept_game(kept: _Kept, state: GameState) -> dict[str, Any]:
    """:func:`_game`, built again only when something it reads changed (not a copy)."""
    key = (
        state.settings,
        state.size,
        state.t0,
        state.ended,
        state.ended_at,
        state.winner,
        state.win_kind,
        state.exit is not None,
    )
    found = kept.game
    if found is None or found[0] != key:
        kept.counter += 1
        found = kept.game = (key, _game(state), kept.counter)
    return found[1]


#: The change marks of a moment (:meth:`_Kept.marks`): per player, of the maze, of the
#: characters, of the game's standing.
_Marks = tuple[tuple[int, ...], int, int, int]


class _Audience:
    """The parts of an audience's read-only view handed out last, each with the change marks it
    was made under (see :meth:`_Views._lasting_view`)."""

    __slots__ = (
        "characters",
        "characters_game",
        "characters_mark",
        "characters_sees",
        "map",
        "map_board",
        "map_game",
        "map_sees",
        "own",
        "parts_characters",
        "parts_game",
        "parts_map",
        "parts_piles",
        "parts_players",
        "parts_you",
        "players",
        "players_from",
        "players_own",
        "sees",
        "view",
        "you",
        "you_game",
        "you_own",
    )

    def __init__(self) -> None:
        self.map: dict[str, Any] = {}
        self.map_sees: _Sees | None = None
        """What the viewer's map read of it, and the change marks of the maze and of the game's
        standing, that ``map`` was made under."""
        self.map_board = -1
        self.map_game = -1
        self.characters: list[dict[str, Any]] = []
        self.characters_sees: _Sees | None = None
        """What the viewer's characters read of it, and the change marks of the characters and
        of the game's standing, that ``characters`` was made under."""
        self.characters_mark = -1
        self.characters_game = -1
        self.own: tuple[int, int, dict[str, Any]] | None = None
        """The viewer's own entry with the change marks of the viewer and of the game's standing
        it was found under."""
        self.players: list[dict[str, Any]] = []
        self.players_from: list[dict[str, Any]] | None = None
        """The entries as others see them (a list of the moment it was made) and the viewer's own
        entry that ``players`` was made of."""
        self.players_own: dict[str, Any] | None = None
        self.you: dict[str, Any] = {}
        self.you_own = -1
        """The change marks of the viewer and of the game's standing that ``you`` was made under."""
        self.you_game = -1
        self.sees: tuple[int, _Sees] | None = None
        """What the viewer's map and characters read of it (:func:`_sees`), with the viewer's
        change mark it was found under."""
        self.view: dict[str, Any] | None = None
        """The whole view handed out last, and the parts it was made of (the game's standing,
        the piles, the map, the characters, the players and ``you``, ``None`` for a spectator)."""
        self.parts_game: dict[str, Any] | None = None
        self.parts_piles: dict[str, int] | None = None
        self.parts_map: dict[str, Any] | None = None
        self.parts_characters: list[dict[str, Any]] | None = None
        self.parts_players: list[dict[str, Any]] | None = None
        self.parts_you: dict[str, Any] | None = None


def _copy_statuses(found: list[Status]) -> list[Status]:
    return [msgspec.structs.replace(status) for status in found] if found else []


def _copy_player(player: Player) -> Player:
    """A copy of ``player`` that shares nothing it could change in place (its lists and their
    structs are copied), to compare it with later."""
    return msgspec.structs.replace(
        player,
        hand=list(player.hand),
        statuses=_copy_statuses(player.statuses),
        pending=[msgspec.structs.replace(item) for item in player.pending] if player.pending else [],
    )


#: What a viewer's map and characters read of the viewer (:func:`_sees`): whether it lives, its
#: tile, its sight radius, Keen Ear, its memory and its marks of tiles seen since the exit appeared.
_Sees = tuple[bool, int, int, bool, str, str]

#: :data:`_Sees` of a spectator: no sight, no memory.
_SPECTATOR: _Sees = (False, -1, 0, False, "", "")


def _sees(ctx: Ctx, viewer: Player) -> _Sees:
    """What the viewer's map and characters read of the viewer (FL-VIS-1, FL-VIS-3, FL-VIS-7,
    FL-MON-22)."""
    alive = viewer.alive
    if not alive:
        return (False, viewer.pos, 0, False, viewer.memory, viewer.seen_since_exit)
    found = viewer.statuses
    return (
        True,
        viewer.pos,
        statuses.sight_radius(ctx, viewer),
        bool(found) and statuses.active(viewer, "keen_ear", ctx),
        viewer.memory,
        viewer.seen_since_exit,
    )


def _shown(player: Player) -> tuple[bool, int, bool]:
    """What the characters of a view read of a player: whether it lives, its tile and whether it
    is Exposed (FL-VIS-6)."""
    found = player.statuses
    return (player.alive, player.pos, bool(found) and _active(found, "exposed"))


#: Player count -> each seat's number as :attr:`Player.number` gives it (a function of the seat;
#: the seats of a game are 0, 1, 2...).
_NUMBERS: dict[int, tuple[str, ...]] = {}


def _game(state: GameState) -> dict[str, Any]:
    """The game's public settings and standing. Not the clock: a view depends only on what the
    viewer can know, so that it changes exactly when something the viewer can see changes (the
    server's per-viewer change counters rely on it)."""
    s = state.settings
    return {
        "preset": s.preset,
        "size": state.size,
        "started_at": state.t0,
        "ended": state.ended,
        "ended_at": state.ended_at,
        "winner": state.winner,
        "win_kind": state.win_kind or None,
        "exit_open": state.exit is not None,
        "treasure_quota": s.treasure_quota,
        "kill_quota": s.kill_quota,
        "move_count": s.move_count,
        "wait_time": s.wait_time,
        "abandon_time": s.abandon_time,
        "max_stored_turns": s.max_stored_turns,
    }


def _final_map(state: GameState) -> dict[str, Any]:
    """After the end: the whole maze as it is, every trap shown (``x``), for everyone."""
    n = state.size
    traps = state.traps
    grid = state.grid
    if traps:
        marked = list(grid)
        for tile in traps:
            marked[tile] = visibility.KNOWN_TRAP
        tiles = "".join(marked)
    else:
        tiles = grid
    return {
        "size": n,
        "tiles": tiles,
        "lit": "1" * (n * n),
        "doors": {_key(t, n): hp for t, hp in state.door_hp.items()},
        "traps": {_key(t, n): {"card": trap.card, "own": False} for t, trap in traps.items()},
    }


def _seat_map(state: GameState, viewer: Player, radius: int, sight: AbstractSet[int]) -> dict[str, Any]:
    """A playing seat's map while the game runs (``sight``: the tiles in its sight now, within
    ``radius``)."""
    n = state.size
    tiles = visibility.memory_in_sight(state, viewer, radius, sight)
    lit = _lit(frozenset(sight), n)
    doors = {}
    if state.door_hp:
        for tile, hp in state.door_hp.items():
            if tile in sight:
                doors[_key(tile, n)] = hp
    known = {}
    if state.traps:
        # FL-UI-2: for in-sight tiles holding a trap the viewer knows, which trap it is
        seat = viewer.seat
        for tile, trap in state.traps.items():
            # visibility.knows_trap, written out (asked for every trap)
            if tile in sight and (trap.setter == seat or seat in trap.known):
                known[_key(tile, n)] = {"card": trap.card, "own": trap.setter == seat}
    out = {"size": n, "tiles": tiles, "lit": lit, "doors": doors, "traps": known}
    seen = viewer.seen_since_exit
    if state.exit is not None and len(seen) == n * n:
        # FL-EXIT-1/2: the tiles the viewer has not had in sight since the exit appeared, where
        # it may be: remembered ones and never-seen (black) ones alike (the exit's tile is any
        # normal floor, which an unexplored tile may be as well as a remembered one)
        stale = int(seen.encode("ascii").translate(_UNSEEN), 2)
        out["stale"] = format(stale & ~int(lit, 2), f"0{n * n}b")
    return out


def _copy_map(source: dict[str, Any]) -> dict[str, Any]:
    out = source.copy()
    out["doors"] = source["doors"].copy()
    out["traps"] = {key: trap.copy() for key, trap in source["traps"].items()}
    return out


#: Byte table for the "stale" marks: tiles not seen since the exit appeared (``0``) become ``1``,
#: everything else ``0``.
_UNSEEN = bytes(b"1"[0] if i == ord("0") else b"0"[0] for i in range(256))


@functools.lru_cache(maxsize=4096)
def _lit(sight: frozenset[int], n: int) -> str:
    """``1`` for the tiles in sight, ``0`` elsewhere (a pure function of its arguments, cached)."""
    marks = bytearray(b"0" * (n * n))
    for tile in sight:
        marks[tile] = ord("1")
    return marks.decode("ascii")


def _key(tile: int, n: int) -> str:
    y, x = divmod(tile, n)
    return f"{x},{y}"


def _active(found: list[Status], status_id: str) -> bool:
    """:func:`statuses.active` on a character's statuses (its first entry of the status decides):
    Stealth (:func:`statuses.hidden_by_stealth`), Exposed (:func:`statuses.exposed`)."""
    for status in found:
        if status.id == status_id:
            return not status.cancelled
    return False


def _status_list(ctx: Ctx, items: list[Status], *, own: bool) -> list[dict[str, Any]]:
    out = []
    definitions = ctx.content.statuses
    for status in items:
        entry: dict[str, Any] = {"id": status.id, "kind": definitions[status.id].kind}
        if status.strength > 1:
            entry["strength"] = status.strength
        if own and status.turns:
            entry["turns"] = status.turns
        if status.cancelled:
            entry["cancelled"] = True  # FL-STS-12, FL-STS-19: listed, no effect
        out.append(entry)
    return out


def _monster(ctx: Ctx, monster: Monster, own_seat: int | None, *, in_sight: bool) -> dict[str, Any]:
    y, x = divmod(monster.pos, ctx.state.size)
    entry: dict[str, Any] = {
        "type": "monster",
        "id": monster.id,
        "monster": monster.kind,
        "glyph": ctx.content.monsters[monster.kind].glyph,
        "own": monster.owner == own_seat,
        "tile": [x, y],
        "in_sight": in_sight,
    }
    if in_sight:  # details only for what the viewer can see (FL-UI-2); Keen Ear gives the place
        entry["owner"] = monster.owner
        entry["hp"] = monster.hp
        entry["attack"] = monster.attack
        entry["defense"] = monster.defense
        entry["evasion"] = monster.evasion
        entry["statuses"] = _status_list(ctx, monster.statuses, own=False) if monster.statuses else []
    return entry


def _public_player(ctx: Ctx, player: Player, number: str, *, own: bool) -> dict[str, Any]:
    """FL-INFO-1/2, FL-UI-9: always public fields; the status fields unless under Stealth."""
    found = player.statuses
    # only a status (Stealth, FL-STS-18) hides the status fields
    shown = own or not found or ctx.state.ended or not _active(found, "stealth")
    if shown and not player.image:  # the usual entry, made in one step
        top_left, top_right, bottom_left, bottom_right = _MARKS[player.visited]
        return {
            "seat": player.seat,
            "number": number,
            "name": player.name,
            "class": player.cls,
            "alive": player.alive,
            "fate": player.fate or None,
            "comment": player.comment,
            "practice": not player.keep_record,
            "hand_size": len(player.hand),
            "hp": player.hp,
            "max_hp": player.max_hp,
            "cp": player.cp,
            "max_cp": player.max_cp,
            "attack": player.attack,
            "defense": player.defense,
            "magic": player.magic,
            "evasion": player.evasion,
            "statuses": _status_list(ctx, found, own=own) if found else [],
            "treasures": player.treasures,
            "kills": player.kills,
            "visited": [[top_left, top_right], [bottom_left, bottom_right]],
        }
    entry: dict[str, Any] = {
        "seat": player.seat,
        "number": number,
        "name": player.name,
        "class": player.cls,
        "alive": player.alive,
        "fate": player.fate or None,
        "comment": player.comment,
        "practice": not player.keep_record,
        "hand_size": len(player.hand),
    }
    if player.image:
        entry["image"] = player.image
    if shown:
        top_left, top_right, bottom_left, bottom_right = _MARKS[player.visited]
        entry["hp"] = player.hp
        entry["max_hp"] = player.max_hp
        entry["cp"] = player.cp
        entry["max_cp"] = player.max_cp
        entry["attack"] = player.attack
        entry["defense"] = player.defense
        entry["magic"] = player.magic
        entry["evasion"] = player.evasion
        entry["statuses"] = _status_list(ctx, found, own=own) if found else []
        entry["treasures"] = player.treasures
        entry["kills"] = player.kills
        entry["visited"] = [[top_left, top_right], [bottom_left, bottom_right]]
    else:
        entry["hidden"] = True
    return entry


#: The 2x2 checkpoint marks of each ``Player.visited`` value (bits 1, 2, 4, 8): top-left,
#: top-right, bottom-left, bottom-right.
_MARKS = tuple((bool(bits & 1), bool(bits & 2), bool(bits & 4), bool(bits & 8)) for bits in range(16))


def _pending(ctx: Ctx, item: Pending) -> dict[str, Any]:
    """What the defender is defending against; a trap's setter is not said (FL-INFO-3)."""
    data: dict[str, Any] = {"kind": item.kind, "label": item.label}
    source = combat.public_source(item)
    if source is not None:
        data["source"] = source
    for key in ("monster_kind", "card", "use"):
        value = getattr(item, key)
        if value is not None:
            data[key] = value
    if item.kind in {"attack", "trap"} and combat.has_damage(item.row) and item.row:
        data["power"] = item.power
    if item.special:
        data["special"] = item.special
        if item.amount:
            data["amount"] = item.amount
    return data


def _defending(ctx: Ctx, player: Player, item: Pending) -> dict[str, Any]:
    """The item of the defense phase (:func:`_pending`); for damage, the defender's base defense
    and the Ironwall/Stripped multiplier when it is not 1 (FL-ATK-11); and what each choice leads to
    (``choices``: :func:`defense.choices`, from the rules that resolve it)."""
    data = _pending(ctx, item)
    if "power" in data:
        data["defense"] = player.defense
        ratio = statuses.damage_ratio(ctx, player)
        if ratio != (1, 1):
            data["damage_ratio"] = list(ratio)
    data["choices"] = defense.choices(ctx, player, item)
    return data


#: Per content and preset, per price (the numerator and denominator that
#: :func:`cards.cp_prices` applies), per card number: the card's hand entry at that price (its
#: number, kind, category and CP cost per use), a template each view's entry is copied from.
_PRICED: dict[tuple[int, str], tuple[Content, dict[tuple[int, int], dict[int, dict[str, Any]]]]] = {}


#: The content, preset and price tables :func:`_priced` found last (checked first).
_LAST_PRICED: list[tuple[Any, str, dict[tuple[int, int], dict[int, dict[str, Any]]]]] = [(None, "", {})]


def _priced(ctx: Ctx, player: Player) -> dict[int, dict[str, Any]]:
    """The table of hand entries at ``player``'s prices now (kept per content, preset and
    price, filled on first use by :func:`_card_entry`)."""
    content = ctx.content
    preset = ctx.state.settings.preset
    # one tuple, read and replaced whole: requests of games of other presets run in other threads
    last = _LAST_PRICED[0]
    tables: dict[tuple[int, int], dict[int, dict[str, Any]]]
    if last[0] is content and last[1] == preset:  # the usual case: the same content and preset
        tables = last[2]
    else:
        key = (id(content), preset)
        found = _PRICED.get(key)
        if found is None or found[0] is not content:
            if len(_PRICED) >= 16:  # contents other than the packaged one (tests): keep few
                _PRICED.clear()
            found = _PRICED[key] = (content, {})
        tables = found[1]
        _LAST_PRICED[0] = (content, preset, tables)
    price = cards.cp_terms(ctx, player)
    table = tables.get(price)
    if table is None:
        if len(tables) >= 256:  # prices are few (magic 0..100, three ratios); keep them bounded
            tables.clear()
        table = tables[price] = {}
    return table


def _card_entry(ctx: Ctx, player: Player, card_id: int) -> dict[str, Any]:
    """A hand card's entry at the player's prices now: its kind, category and CP costs, one
    per use, and ``use`` (its effects) when it has effects or no uses."""
    card = ctx.card(card_id)
    price = cards.cp_prices(ctx, player)
    cp = {use: price(cost) for use, cost in card.uses.items()}
    if card.effects or not card.uses:
        cp["use"] = price(card.cost)
    return {"id": card_id, "kind": card.id, "category": card.category, "cp": cp}


def _copied(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of a hand's entries (:meth:`_Kept.hand_of`) that share nothing with them (a copied
    dict of the same keys is made faster than a new one is written out)."""
    hand: list[dict[str, Any]] = []
    append = hand.append
    for template in entries:
        entry = template.copy()
        entry["cp"] = template["cp"].copy()
        append(entry)
    return hand


def _you(ctx: Ctx, player: Player, number: str, radius: int, hand: list[dict[str, Any]]) -> dict[str, Any]:
    """``radius``: the player's sight radius now (0 when dead); ``hand``: its hand's entries
    (:meth:`_Kept.hand_of`, or copies of them)."""
    state = ctx.state
    alive = player.alive
    phase = player.phase
    if alive:
        y, x = divmod(player.pos, state.size)
    you: dict[str, Any] = {
        "seat": player.seat,
        "number": number,
        "phase": phase,
        "alive": alive,
        "tile": [x, y] if alive else None,
        "hand": hand,
        "max_cards": player.max_cards,
        "stored_turns": player.stored,
        "turns_played": player.turns_played,
        "qualifies": death.qualifies(ctx, player),
        "sight_radius": radius,
        "effective_evasion": statuses.evasion(ctx, player),
    }
    if phase == MOVE:
        you["move"] = {"number": player.move_no, "of": player.moves_total}
    if phase == DEFENSE and player.pending:
        you["defending"] = _defending(ctx, player, player.pending[0])
        you["waiting_items"] = len(player.pending) - 1
    if phase == CORE:
        you["can_pass"] = player.stayed
    if alive and not state.ended:
        you["abandon_at"] = clock.abandon_deadline(state, player)
        if phase == WAIT:
            you["next_turn_at"] = clock.accumulation_at(state, player, player.acc_next)
    return you
