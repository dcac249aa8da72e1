"""The JSON API's bodies as msgspec types. The request types *are* the validation (``parse_body``
decodes into them, constraints included), and together with the response types they generate
the OpenAPI components (``schema.py``): one definition, so the description cannot drift from
what the server accepts.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from delve.server.games.engine import KEY_MAX, NAME_MAX
from delve.server.inputs import BLANK_LETTERS, INT_MAX, format_ranges

_PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"  # no control characters (NUL, newlines, escapes ...)


def _points(first: int, last: int) -> str:
    def one(point: int) -> str:
        return f"\\u{point:04x}" if point <= 0xFFFF else f"\\U{point:08x}"

    return one(first) if first == last else f"{one(first)}-{one(last)}"


#: A character name: no control or format characters (category Cf: zero-width spaces, text
#: direction controls...), and something visible (not only spaces and blank letters).
_FORMAT = "".join(_points(first, last) for first, last in format_ranges())
_BLANK = "".join(_points(ord(char), ord(char)) for char in BLANK_LETTERS)
_NAME = rf"^[^\x00-\x1f\x7f-\x9f{_FORMAT}]*[^\s\x00-\x1f\x7f-\x9f{_FORMAT}{_BLANK}][^\x00-\x1f\x7f-\x9f{_FORMAT}]*$"

#: What the text patterns above mean, said in words in place of the regex a refusal would quote.
PATTERN_WORDS = {
    _PRINTABLE: "a text without control characters (tabs, line breaks, escapes...)",
    _NAME: (
        "a name without control characters (tabs, line breaks, escapes...) or invisible format characters "
        "(zero-width spaces, text direction controls...), not only spaces"
    ),
}

KIND_PATTERN = r"^[a-z][a-z_]*$"
#: The refusal of a command without a proper kind; ``stay`` is a kind of both games.
KIND_EXAMPLE = (
    'a command has a "kind" in lower case, e.g. {"kind": "stay"} (a kind of White Maiden and of Fated '
    "Labyrinth); GET .../commands lists the commands possible now"
)
AFTER_MAX = INT_MAX  # the largest events cursor (``after``) the API takes

VERSION_MAX = INT_MAX  # a database's signed 64-bit integer (delve.server.inputs)


Version = Annotated[
    int,
    Meta(ge=0, le=VERSION_MAX, description="The game version you decided on; 409 `command/stale_version` if it moved."),
]
IdempotencyKey = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=KEY_MAX,
        pattern=_PRINTABLE,
        description="A repeated key returns the first answer and applies nothing (header `Idempotent-Replayed`).",
    ),
]
CharacterName = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=NAME_MAX,
        pattern=_NAME,
        description=(
            'Unique within the game (case-sensitive: "grimble" may sit next to "Grimble", AMB-60); leading '
            "and trailing spaces are dropped. No control characters and "
            "no format characters (Unicode category Cf: zero-width spaces and joiners, text direction controls "
            "such as U+202E), and not only spaces."
        ),
    ),
]
OptionKey = Annotated[str, Meta(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$")]
OptionValue = Annotated[str, Meta(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9_-]*$")]
CommentText = Annotated[
    str,
    Meta(
        max_length=1000,
        # described, but checked by the server's comment check (the screens' too) for its message
        extra_json_schema={"pattern": _PRINTABLE},
        description="Runs of spaces become one. Each game has its own limit (Fated Labyrinth: 100 characters, "
        "422 `comment/too_long`) and a minimum interval between two comments. No control characters "
        "(400 `request/malformed`). A White Maiden game has no comments (422 `command/illegal`).",
    ),
]
Choices = Annotated[
    str,
    Meta(
        pattern=r"^[0-9a-f]{16}$",
        description="The `choices` digest of the legal commands you decided on "
        "(GET .../commands); 409 `command/choices_changed` if your options changed meanwhile.",
    ),
]
ParamKey = Annotated[str, Meta(min_length=1, max_length=40, pattern=KIND_PATTERN)]
ParamText = Annotated[str, Meta(max_length=200, pattern=_PRINTABLE)]
ParamNumber = Annotated[int, Meta(ge=-(2**53), le=2**53)]
ParamValue = (
    ParamText | ParamNumber | bool | None | Annotated[list[ParamText | ParamNumber | bool | None], Meta(max_length=50)]
)
Command = Annotated[
    dict[ParamKey, ParamValue],
    Meta(
        title="Command",
        description='A command of the game\'s ruleset, as GET .../commands lists them, e.g. {"kind": "move", '
        '"dir": "up"}: a "kind" and parameters that are texts, numbers, true/false/null or lists of them. '
        "A command the rules refuse now answers 422 with the ruleset's code (docs/api.md lists them all): "
        "`command/malformed` (an unknown field, a field of the wrong type, or one the kind does not take), "
        "`command/unknown_kind`, `command/not_your_phase`, `command/not_your_turn`, `command/decision_pending`, "
        "`command/invalid_option`, `command/invalid_target` and the like, `comment/missing_text`, `game/ended`.",
        extra_json_schema={"required": ["kind"], "properties": {"kind": {"type": "string", "pattern": KIND_PATTERN}}},
    ),
]


# -- requests -------------------------------------------------------------------------------------


class RegisterBody(msgspec.Struct, forbid_unknown_fields=True):
    """Register a character. ``options`` are the ruleset's registration choices (Fated Labyrinth:
    ``{"class": "warrior"}``); a choice the game does not offer answers 400 ``registration/invalid_option``."""

    name: CharacterName
    options: dict[OptionKey, OptionValue] = {}
    keep_record: bool = True


class CommandBody(msgspec.Struct, forbid_unknown_fields=True):
    """Submit a command for the caller's own seat (or, with ``seat``, a seat of their hot-seat table)."""

    command: Command
    version: Version | None = None
    choices: Choices | None = None
    idempotency_key: IdempotencyKey | None = None
    seat: (
        Annotated[
            int,
            Meta(
                ge=0,
                le=255,
                description="The seat to act for (0-based index): by default the caller's own; another only if the "
                "caller plays it, a seat of their hot-seat table (else 403 `seat/not_yours`). `version`, `choices` "
                "and the idempotency key are then that seat's.",
            ),
        ]
        | None
    ) = None

    def __post_init__(self) -> None:
        kind = self.command.get("kind")
        if not isinstance(kind, str) or len(kind) > 40 or not re.fullmatch(KIND_PATTERN, kind):
            raise ValueError(KIND_EXAMPLE)


class CommentBody(msgspec.Struct, forbid_unknown_fields=True):
    """Replace the caller's comment (the ruleset's ``comment`` command)."""

    text: CommentText
    version: Version | None = None
    idempotency_key: IdempotencyKey | None = None


class ReclaimBody(msgspec.Struct, forbid_unknown_fields=True):
    """Take a seat back from a bot: the caller's own (no body, or ``{}``), or ``seat``."""

    seat: (
        Annotated[
            int,
            Meta(
                ge=0,
                le=255,
                description="The seat to take back (0-based index): by default the caller's own; another only if "
                "the caller controls it, a seat of their hot-seat table (else 403 `seat/not_yours`, nothing changes).",
            ),
        ]
        | None
    ) = None


class LeaveBody(msgspec.Struct, forbid_unknown_fields=True):
    """Leave a seat to a bot: the caller's own (no body, or ``{}``), or ``seat``."""

    seat: (
        Annotated[
            int,
            Meta(
                ge=0,
                le=255,
                description="The seat to hand to a bot (0-based index): by default the caller's own; another only "
                "if the caller controls it, a seat of their hot-seat table (else 403 `seat/not_yours`, nothing "
                "changes).",
            ),
        ]
        | None
    ) = None


class HandOverBody(msgspec.Struct, forbid_unknown_fields=True):
    """Hand a seat that has kept the game waiting for days to a bot."""

    seat: Annotated[int, Meta(ge=0, le=255, description="The seat's index (0-based).")]


# -- responses ------------------------------------------------------------------------------------


class ErrorBody(msgspec.Struct, omit_defaults=True):
    code: Annotated[str, Meta(examples=["command/stale_version"])]
    message: str
    details: dict[str, Any] | None = None


class Error(msgspec.Struct):
    """Every refusal: ``{"error": {"code": ..., "message": ...}}`` (``details`` when there are some)."""

    error: ErrorBody


class SettingLine(msgspec.Struct):
    """A setting: ``value`` as the settings write it (``"30m"``, ``"ceil_third"``), ``label`` and
    ``shown`` (the value for people: ``"30 min"``, ``"a third of its life, rounded up"``) in the
    request's language."""

    key: str
    label: str
    value: str
    shown: str


class OptionChoice(msgspec.Struct):
    value: str
    label: str


class SeatOptionOut(msgspec.Struct):
    """A registration choice: its ``key`` in ``options``, the ``choices`` and the ``default``."""

    key: str
    label: str
    default: str
    choices: list[OptionChoice]


class Seat(msgspec.Struct):
    """Public fields of a seat. ``number`` (01, 02, ...) and ``index`` are set at the start."""

    index: int | None
    number: str
    name: str
    options: dict[str, str]
    comment: str
    keep_record: bool
    bot: bool
    bot_since: int | None
    """When a bot took the seat over from its idle player (epoch seconds); ``None`` otherwise."""


class Game(msgspec.Struct):
    id: int
    ruleset: str
    preset: str
    preset_label: str
    status: Literal["open", "running", "ended"]
    version: int
    seat_count: int
    seats_taken: int
    started_at: Annotated[int | None, Meta(description="seconds since the epoch")]
    ended_at: int | None
    settings: list[SettingLine]
    seats: list[Seat]
    seed_sha256: Annotated[str, Meta(description="SHA-256 of the seed's decimal text, public from the start")]
    seed: Annotated[int | None, Meta(description="the seed, revealed once the game has ended (else null)")]
    seat_options: Annotated[
        list[SeatOptionOut],
        Meta(description="while the game is open: what a registration chooses (`options` of POST .../seats)"),
    ]


class Outcome(msgspec.Struct):
    winners: list[int]
    results: dict[str, str]


class GameView(msgspec.Struct):
    """The caller's view of a game: a seat's view, or the public view for everyone else."""

    game: Game
    seat: Annotated[int | None, Meta(description="the caller's seat index, null for spectators")]
    view: Annotated[dict[str, Any] | None, Meta(description="the ruleset's view for that seat")]
    outcome: Annotated[Outcome | None, Meta(description="once the game has ended")]


class Games(msgspec.Struct):
    games: list[Game]


class MyGame(Game):
    seat: Annotated[int | None, Meta(description="the caller's seat index (null before the start)")]
    must_act: Annotated[bool, Meta(description="the game waits for the caller now")]
    deadline: Annotated[int | None, Meta(description="when the caller's wait ends (abandonment, autopilot), epoch s")]
    out: Annotated[
        str | None,
        Meta(
            description="how the caller's character left the running game (died, abandoned): nothing waits for "
            "them again (must_act false) though the game is listed until it ends; null while they play"
        ),
    ] = None


class MyGames(msgspec.Struct):
    games: list[MyGame]


class Event(msgspec.Struct, omit_defaults=True):
    kind: str
    time: int
    data: dict[str, Any]
    private: Annotated[bool, Meta(description="present (true) when only some seats see it")] = False


class Events(msgspec.Struct):
    events: list[Event]
    cursor: Annotated[int, Meta(description="pass it back as `after`")]


class Answer(msgspec.Struct):
    """An applied command: its log sequence, the new version and the events the caller may see."""

    sequence: int
    version: int
    events: list[Event]


class CommandAnswer(Answer):
    """An applied command (:class:`Answer`), with the caller's legal commands right after it."""

    commands: Annotated[
        list[Command],
        Meta(
            description="your legal commands right after this one (as GET .../commands would list them then; "
            "on a replayed answer, as it lists them now): decide your next command from them"
        ),
    ]
    choices: Annotated[str, Meta(description="digest of `commands`; send it back as `choices` with your next command")]


class LegalCommands(msgspec.Struct):
    version: int
    seat: int | None
    commands: list[Command]
    choices: Annotated[str, Meta(description="digest of these commands; send it back as `choices`")]


class Registered(msgspec.Struct):
    seat: Seat
    game: Game


class Withdrawn(msgspec.Struct):
    game: Game


class Record(msgspec.Struct):
    game: int | None
    date: Annotated[str, Meta(extra_json_schema={"format": "date-time"})]
    ruleset: str
    preset: str
    character_name: str
    options: dict[str, str]
    result: str
    won: bool
    kills: int | None
    treasures: int | None
    turns: int | None
    class_: str = msgspec.field(name="class")
    #: everything the ruleset reported for the seat when the game ended (White Maiden: rounds,
    #: bosses_defeated, areas_freed, deaths, deaths_own, danger_level, rooms_explored)
    stats: dict[str, Any] = msgspec.field(default_factory=dict)


class Records(msgspec.Struct):
    user: str
    records: list[Record]


REQUESTS: tuple[type, ...] = (RegisterBody, CommandBody, CommentBody, ReclaimBody, LeaveBody, HandOverBody)
RESPONSES: tuple[type, ...] = (
    Error,
    Games,
    MyGames,
    GameView,
    Registered,
    Withdrawn,
    LegalCommands,
    Answer,
    CommandAnswer,
    Events,
    Records,
)
