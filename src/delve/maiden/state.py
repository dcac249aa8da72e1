"""The White Maiden game state: msgspec structs that serialize to compact JSON.

Seats are 0-based. Action cards are their symbols (``"D" | "J" | "P" | "G"``); skill, room and
quest cards are content ids (a card with ``copies`` appears that many times in its deck). The
state holds no behaviour: the rules live in the modules named after their concepts.

No copy of the events is kept here: the events the engine returns are the record (the server's
event table), and the recent events a view shows come from them (``journal.py``). A state written
before that, with a ``log`` of the newest public events, still decodes (:func:`decode`; the next
save leaves the log out).
"""

from __future__ import annotations

from typing import Any

import msgspec

from delve.kernel import Rng

ROUNDS = 24
STATS = ("pie", "wil", "agi", "ins")
SYMBOLS = ("D", "J", "P", "G")
COLOURS = ("red", "blue", "black")
WHITE = "white"
DIE_SIZES = (4, 6, 8, 12, 20)

# Flow steps (``Game.step``). The awaiting steps wait for a command of the active seat; the
# others run automatically in ``flow.proceed`` whenever no decision is pending.
SETUP, ROUND_START, TURN_START, MOVE, ROOM, PRE_ROLL, POST_ROLL = (
    "setup",
    "round_start",
    "turn_start",
    "move",
    "room",
    "pre_roll",
    "post_roll",
)
AFTER_CHECK, LEVELUP, END_TURN, ENDED = "after_check", "levelup", "end_turn", "ended"
AWAITING = frozenset({MOVE, PRE_ROLL, POST_ROLL})


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Resolved settings of one game (see ``settings.py``; every §6.3 toggle with its default)."""

    preset: str = "white-maiden"
    players: int = 1
    start_player: int | str = "random"
    turn_deadline_hours: int = 0
    life_max: int = 6
    boss_life_bonus: int | str = "ceil_third"
    ascension_bonus: str = "one_plus_pie"
    slate_damage_per_die: str = "1"
    danger_room_entry_damage: str = "none"
    quest_room_skips_check: bool = False
    danger_room_skips_check: bool = False
    difficulty: str = "easy"
    room_reduction_2p_4p: bool = False
    entry_restrictions: bool = False
    multi_die_checks: bool = False
    pie_mode: str = "ascension"
    agi_skill_level_option: bool = False
    familiar_evolution: bool = False
    familiars_per_player: tuple[int, int, int, int] = (1, 1, 1, 1)
    ins_applies_to_room_deck: bool = True
    boss_rooms_block_passage: bool = False
    allow_smaller_die: bool = False
    slate_roll_restricted: bool = False
    base_target: str = "action_markers"
    event_log_size: int = 60


class SkillState(msgspec.Struct, omit_defaults=True):
    """An owned skill card (MV-SKILL-1, MV-SKILL-10): its level, exhausted or ready, and whether
    it was used this turn (MV-SKILL-2)."""

    id: str
    level: int = 0
    exhausted: bool = False
    used: bool = False


class Maiden(msgspec.Struct, omit_defaults=True):
    """One player's White Maiden (MV-COMP-2). ``stats`` maps pie/wil/agi/ins to the ordered stack
    of action-card symbols, the last one on top (MV-SETUP-14)."""

    seat: int
    name: str
    room: str
    life: int
    life_max: int
    stats: dict[str, list[str]]
    skills: list[SkillState] = []
    familiars: list[str] = []
    boss: str | None = None
    """The boss she is fighting (MV-SPEC-5): she cannot move while it lives."""
    deaths: int = 0
    extra_draw: int = 0
    """Extra cards on her next draw (the ``extra_draw`` op)."""

    def level(self, stat: str) -> int:
        return len(self.stats[stat])

    @property
    def pie(self) -> int:
        return len(self.stats["pie"])

    @property
    def wil(self) -> int:
        return len(self.stats["wil"])

    @property
    def agi(self) -> int:
        return len(self.stats["agi"])

    @property
    def ins(self) -> int:
        return len(self.stats["ins"])

    def top_symbols(self) -> list[str]:
        """MV-SKILL-4, MV-STAT-3: the top card of every non-empty stat."""
        return [self.stats[s][-1] for s in STATS if self.stats[s]]

    def skill(self, skill_id: str) -> SkillState | None:
        for s in self.skills:
            if s.id == skill_id:
                return s
        return None


class BossState(msgspec.Struct, omit_defaults=True):
    """A boss card on the table (MV-SPEC-4, MV-BOSS-5/6): set up once, life and pointer persist."""

    engaged: bool = False
    life: int = 0
    life_max: int = 0
    pointer: int = 0
    defeated: bool = False
    disabled: list[int] = []
    life_delta: int = 0
    """Life added (or, negative, removed) by effects before the boss is set up."""


class Die(msgspec.Struct, omit_defaults=True):
    """One die of a check's pool: colour, size, face after the roll, removed by ascension,
    ``bonus`` added to it (pie_mode boost, multi_die_checks ascension bonuses)."""

    colour: str
    size: int
    face: int | None = None
    removed: bool = False
    bonus: int = 0


class Check(msgspec.Struct, omit_defaults=True):
    """The check in progress (MV-CHECK, Appendix B). ``kind`` is "room" (``source`` = room card
    id) or "boss" (``source`` = boss id, ``action`` = the pointer's action index)."""

    kind: str
    source: str
    target: int
    room: str
    action: int = 0
    slate: str | None = None
    required: int = 1
    size: int = 0
    """A die size chosen under ``allow_smaller_die`` (0: the size Wil gives)."""
    dice: list[Die] = []
    rolled: bool = False
    ascensions: int = 0
    boost_left: int = 0
    extra_white: int = 0
    size_bonus: int = 0
    ap_bonus: int = 0
    auto_success: bool = False
    ignore_slate: bool = False
    ignore_slate_dice: int = 0
    reduce_damage: int = 0
    rerolled_highest: bool = False
    result: str | None = None
    ap: int | None = None
    """The AP the check was resolved with (MV-CHECK): fixed once it is resolved, so a later change
    (Piety and with it the ascension bonus, MV-ASC) does not rewrite a finished check."""
    dead: bool = False
    discarded: bool = False
    skills_used: list[str] = []


class Decision(msgspec.Struct, omit_defaults=True):
    """A pending decision: who decides (``seat``; None = any seat), what (``kind``), between which
    ``options``; ``data`` says what it is for and ``ops`` are effect ops still to run after it."""

    kind: str
    seat: int | None
    options: list[Any] = []
    data: dict[str, Any] = {}
    ops: list[dict[str, Any]] = []
    source: str = ""


class Turn(msgspec.Struct, omit_defaults=True):
    """Facts of the turn in progress (reset at the end of every turn)."""

    number: int = 0
    mp_bonus: int = 0
    free_pass: bool = False
    moved: bool = False
    entered: str | None = None
    skip_room: bool = False
    defeated: list[str] = []


class Entry(msgspec.Struct, array_like=True):
    """A public event as a state stored before ``journal.py`` kept it in its ``log``."""

    time: int
    kind: str
    data: dict[str, Any]


class Decks(msgspec.Struct):
    """Every deck with its discard pile (MV-DECK-1); the top of a deck is its last element."""

    action: list[str] = []
    action_discard: list[str] = []
    skill: list[str] = []
    skill_discard: list[str] = []
    room: list[str] = []
    room_discard: list[str] = []
    quest: list[str] = []
    quest_discard: list[str] = []
    quests_aside: list[str] = []


class Game(msgspec.Struct):
    settings: Settings
    rng: Rng
    clock: int
    maidens: list[Maiden]
    decks: Decks
    bosses: dict[str, BossState]
    t0: int = -1
    """When the game was set up (the time of the setup's own event, ``journal.started``); -1:
    unknown, in a state stored before it was kept whose log no longer reached back to the setup
    (:func:`decode`)."""
    step: str = SETUP
    setup_stage: str = "start_player"
    setup_queue: list[int] = []
    start_player: int | None = None
    round: int = 0
    action_markers: int = 0
    danger_level: int = 1
    order: list[int] = []
    turn_index: int = 0
    turn: Turn = msgspec.field(default_factory=Turn)
    explored: list[str] = []
    freed: list[str] = []
    arcana: list[str] = []
    arcana_used: list[str] = []
    quest_area: list[str] = []
    room_types: dict[str, str] = {}
    extra_edges: list[list[str]] = []
    revealed_passages: list[str] = []
    boss_life_delta: int = 0
    sephirot: int = 0
    check: Check | None = None
    pending: list[Decision] = []
    levelups: list[int] = []
    waiting: list[int] = []
    """The seats that must act now (``flow.waiting_seats``) ..."""
    waiting_turn: int = 0
    """... and the turn they must act in: a new turn or new seats start a new deadline."""
    deadline: int | None = None
    result: str | None = None

    @property
    def ended(self) -> bool:
        return self.step == ENDED

    @property
    def active_seat(self) -> int | None:
        if self.step in (SETUP, ENDED) or not self.order:
            return None
        return self.order[min(self.turn_index, len(self.order) - 1)]

    @property
    def active(self) -> Maiden | None:
        seat = self.active_seat
        return None if seat is None else self.maidens[seat]


class _Earlier(msgspec.Struct):
    """What a state stored before ``t0`` was kept says of the setup's time: its ``log``."""

    log: list[Entry] = []


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Game)
_earlier = msgspec.json.Decoder(_Earlier)


def encode(game: Game) -> bytes:
    return _encoder.encode(game)


def decode(data: bytes) -> Game:
    """The game stored as ``data``. A state stored with its own ``log`` (before the events were
    kept outside it) has no ``t0``: when its log still begins with the setup's own event (the
    start player the setup fixed, ``journal.started``), that event's time is ``t0``; otherwise the
    setup's event is older than anything a view shows and ``t0`` stays unknown (-1; such a
    state's hash is one of ``MaidenRuleset.earlier_state_hashes``)."""
    game = _decoder.decode(data)
    if game.t0 < 0 and game.settings.start_player != "choose":
        log = _earlier.decode(data).log
        if log and log[0].kind == "setup.start_player":
            game.t0 = log[0].time
    return game
