"""The Fated Labyrinth game state: msgspec structs that serialize to compact JSON.

Tiles are integer indexes ``y * N + x`` (``grid.index``). Seats are 0-based; the displayed player
number is ``seat + 1``. Times are integer seconds since the epoch. Cards are integer ids
``0 .. 500 * decks - 1``; a card's kind is ``Ctx.card(id)`` (each preset has its own 500-card set).

Nothing here has behaviour beyond small accessors: the rules live in the modules named after
the concepts (clock, turns, moves, core, combat, cards, statuses, monsters, death, visibility).

No copy of the events is kept here: the events the engine returns are the record (the server's
event table), and the recent events a view shows come from them (``journal.py``). A state written
before that, with a ``log`` of the game and each player's ``messages``, still decodes: the decoder
ignores fields it does not know, and the next save leaves them out.
"""

from __future__ import annotations

import base64
import struct
import sys
from array import array
from typing import Any

import msgspec

from delve.fated.grid import PASSABLE
from delve.kernel import Rng

# Phases of a player (FL-TURN-2). "ready": a turn is stored and its turn-start event fired,
# the player has not opened the screen yet.
WAIT, READY, DEFENSE, MOVE, CORE, DEAD = "wait", "ready", "defense", "move", "core", "dead"
PHASES = (WAIT, READY, DEFENSE, MOVE, CORE, DEAD)

# Checkpoint bits for Player.visited, in the 2x2 order of the status panel (FL-UI-12).
TOP_LEFT, TOP_RIGHT, BOTTOM_LEFT, BOTTOM_RIGHT = 1, 2, 4, 8


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Resolved settings of one game (preset values plus overrides), see ``settings.py``."""

    preset: str
    players: int
    wait_time: int
    max_stored_turns: int
    maze_size: int
    ice_rate: float
    treasure_count: int
    treasure_quota: int
    kill_quota: int
    move_count: int
    decks: int
    abandon_time: int
    pass_cp_move: int
    pass_cp_core: int
    opposite_status_mode: str
    trap_cancel_on_forced_move: bool
    registration_image: bool
    monster_roster: tuple[str, ...]
    start_hp: int = 120
    start_cp: int = 120
    status_turns: int = 7
    priest_plus_status_turns: int = 10
    poison_step: int = 2
    sight_metric: str = "chebyshev"
    door_rate: float = 3.0
    event_log_size: int = 50
    comment_max_len: int = 100
    comment_min_interval: int = 60
    first_accumulation_max: int = 0
    """0 means: equal to wait_time (FL-CFG-4)."""


#: The packer of a pile of each size met so far.
_PACK: dict[int, struct.Struct] = {}


class Pile(list[int]):
    """A pile of physical card ids (the draw pile, the discard pile, the removed cards): a list in
    memory. Stored compactly: the ids as unsigned 16-bit little-endian numbers in base 64 (about
    2.7 characters a card instead of 4); a pile stored as a JSON list (before this encoding) still
    decodes.

    A pile remembers its last stored form with a copy of the ids it was made from: most commands
    leave the piles alone, and comparing the ids with that copy costs a fraction of packing them
    again (a state is encoded at every durable command)."""

    @staticmethod
    def packed(cards: list[int]) -> bytes | list[int]:
        """The stored form of a pile (an empty one stays an empty list: a default, left out)."""
        if not cards:
            return cards
        memo: tuple[list[int], bytes] | None = getattr(cards, "_packed", None)
        if memo is not None and memo[0] == cards:
            return memo[1]
        packer = _PACK.get(len(cards))
        if packer is None:
            packer = _PACK[len(cards)] = struct.Struct(f"<{len(cards)}H")
        data = packer.pack(*cards)
        if type(cards) is Pile:
            cards._packed = (list(cards), data)  # type: ignore[attr-defined]
        return data

    @classmethod
    def unpacked(cls, stored: object) -> Pile:
        """A pile from its stored form: the base-64 text (msgspec gives it here undecoded) or a
        list of card ids."""
        if isinstance(stored, list):
            if not all(type(card) is int and 0 <= card < 2**16 for card in stored):
                raise ValueError("a card pile holds card ids (integers 0..65535)")
            return cls(stored)
        if not isinstance(stored, str):
            raise TypeError(f"a card pile is a text or a list, not {type(stored).__name__}")
        numbers = array("H")
        numbers.frombytes(base64.b64decode(stored, validate=True))
        if sys.byteorder == "big":
            numbers.byteswap()
        return cls(numbers)


class Status(msgspec.Struct, omit_defaults=True):
    """A status effect on a character. ``turns`` counts down at the bearer's turn-start events;
    0 means it lasts until removed (poisons; every status on a monster). ``strength`` is the
    number of applications of a poison (FL-STS-10). ``cancelled``: in Level D's ``coexist`` mode
    a status whose opposite came later stays listed with no effect at all (FL-STS-12, AMB-34)."""

    id: str
    turns: int = 0
    strength: int = 1
    cancelled: bool = False


class Trap(msgspec.Struct, omit_defaults=True):
    """A trap on a normal-floor tile (FL-TRAP-1). ``setter`` is the seat credited for it (for an
    imp's trap, the imp's owner, FL-MON-26); ``known`` are the other seats that know it."""

    card: str
    setter: int
    known: list[int] = []
    imp: bool = False


class Fake(msgspec.Struct, omit_defaults=True):
    """A fake treasure or fake exit (the tile's terrain says which), FL-FAKE-1."""

    setter: int
    known: list[int] = []
    imp: bool = False


class Monster(msgspec.Struct, omit_defaults=True):
    id: int
    kind: str
    owner: int
    pos: int
    hp: int
    attack: int
    defense: int
    evasion: int
    heading: str
    summoner_bonus: bool = False
    statuses: list[Status] = []


class Pending(msgspec.Struct, omit_defaults=True):
    """An item waiting for its target's defense phase (FL-DEF): an attack, a trap that was
    stepped on, a steal or a pass-by request.

    ``row`` is the attack-method row of the attack/defense matrix (``combat.MATRIX``).
    ``power`` is the basic damage B (FL-ATK-11), fixed when the item was created.
    """

    id: int
    kind: str  # "attack" | "trap" | "steal" | "pass_by"
    created: int
    row: str = ""
    source: int | None = None  # seat responsible (kill credit)
    monster: int | None = None  # the monster that made it, if any
    monster_kind: str | None = None
    card: str | None = None  # card kind id, if a card made it
    use: str | None = None  # "trap" | "adjacent" | "remote"
    label: str = ""  # "normal", "breath", "magic", "steal", "pass_by", or the card's use
    power: int = 0
    special: str | None = None
    amount: int = 0
    tile: int | None = None  # trap: the trap tile; pass-by: the requester's tile
    target_tile: int | None = None  # pass-by: the target's tile when requested
    reflected: bool = False
    evasion_rolled: bool = False


class Player(msgspec.Struct, omit_defaults=True):
    seat: int
    name: str
    cls: str
    pos: int
    hp: int
    cp: int
    max_hp: int
    max_cp: int
    attack: int
    defense: int
    magic: int
    evasion: int
    max_cards: int
    first_at: int
    """The first accumulation instant t0 + r (FL-TURN-4); instants are first_at + k * wait_time."""
    memory: str
    """Per tile: what this player last saw there ('?' = unexplored), see visibility.py."""
    seen_since_exit: str = ""
    """While an exit exists: per tile ``1`` if this player has had it in sight since the exit
    appeared (empty otherwise). The screen marks remembered tiles not seen since then."""
    keep_record: bool = True
    image: str = ""
    alive: bool = True
    fate: str = ""  # "", "died", "abandoned", "gave_up", "escaped", "survived"
    hand: list[int] = []
    statuses: list[Status] = []
    treasures: int = 0
    kills: int = 0
    visited: int = 0
    phase: str = WAIT
    acc_next: int = 0
    stored: int = 0
    capped: bool = False
    """Turns are being lost at the cap (reset when a stored turn is consumed)."""
    lost_turns: int = 0
    move_no: int = 0
    moves_total: int = 0
    moved: bool = False
    """Did something other than "stay" in this turn's move phases (AMB-6)."""
    stayed: bool = False
    """Ended this turn's move phases by "stay" in move phase 1 (pass allowed in core, AMB-6)."""
    turn_ended_at: int = 0
    wait_ended_at: int = 0
    last_action_at: int = 0
    turns_played: int = 0
    pending: list[Pending] = []
    comment: str = ""
    comment_at: int = -(10**12)
    died_at: int | None = None

    @property
    def number(self) -> str:
        return f"{self.seat + 1:02d}"

    def status(self, status_id: str) -> Status | None:
        for status in self.statuses:
            if status.id == status_id:
                return status
        return None

    def has(self, status_id: str) -> bool:
        return any(s.id == status_id for s in self.statuses)


class GameState(msgspec.Struct, omit_defaults=True, dict=True):
    """``dict=True``: the engine keeps caches derived from the state beside it (never encoded,
    never copied; see ``visibility`` and ``view``)."""

    settings: Settings
    size: int
    grid: str
    rng: Rng
    t0: int
    clock: int
    players: list[Player]
    deck: Pile
    """The draw pile; the top card is the last element."""
    discard: Pile = msgspec.field(default_factory=Pile)
    removed: Pile = msgspec.field(default_factory=Pile)
    """Cards removed from the game (a dead player's hand, FL-CARD-11)."""
    door_hp: dict[int, int] = {}
    traps: dict[int, Trap] = {}
    fakes: dict[int, Fake] = {}
    exit: int | None = None
    last_exit: int | None = None
    monsters: list[Monster] = []
    next_id: int = 1
    ended: bool = False
    ended_at: int | None = None
    winner: int | None = None
    win_kind: str = ""  # "escape" | "survivor" | "none"
    schema: int = 1

    def tile(self, index: int) -> str:
        return self.grid[index]

    def set_tile(self, index: int, terrain: str) -> None:
        self.grid = self.grid[:index] + terrain + self.grid[index + 1 :]

    def new_id(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value

    def occupant(self, index: int) -> Player | Monster | None:
        for player in self.players:
            if player.alive and player.pos == index:
                return player
        for monster in self.monsters:
            if monster.pos == index:
                return monster
        return None

    def enterable(self, index: int | None) -> bool:
        """Whether a character may step onto ``index``: inside the grid, passable terrain (not a
        wall or a door) and nobody standing there (FL-MOVE-1, FL-MAP-5, AMB-39)."""
        return index is not None and self.grid[index] in PASSABLE and self.occupant(index) is None

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def monster(self, monster_id: int) -> Monster | None:
        for monster in self.monsters:
            if monster.id == monster_id:
                return monster
        return None


def _decode_hook(kind: type, stored: Any) -> Any:
    if kind is Pile:
        return Pile.unpacked(stored)
    raise NotImplementedError(f"no decoding for {kind!r}")


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(GameState, dec_hook=_decode_hook)


def encode(state: GameState) -> bytes:
    """The state as compact JSON (the card piles packed, see :class:`Pile`)."""
    stored = msgspec.structs.replace(
        state,
        deck=Pile.packed(state.deck),
        discard=Pile.packed(state.discard),
        removed=Pile.packed(state.removed),
    )
    return _encoder.encode(stored)


def decode(data: bytes | str) -> GameState:
    return _decoder.decode(data)
