"""The game-agnostic kernel: seeded RNG, events with visibility, the Ruleset protocol,
errors with stable codes, replay and state hashing.

Nothing here knows about a particular game, the database or the clock.
"""

from delve.kernel import durations
from delve.kernel.attention import Attention, attention
from delve.kernel.errors import (
    ContentError,
    DelveError,
    IllegalCommand,
    SettingsError,
    number_text,
    quote,
    quote_json,
    seat_words,
    setting_int,
)
from delve.kernel.events import Event, EventFields
from delve.kernel.journal import Journal, Recorder, has_journal, journal
from delve.kernel.replay import plain_hash, replay, state_hash
from delve.kernel.rng import Rng
from delve.kernel.ruleset import (
    Choice,
    Command,
    GameOutcome,
    Ruleset,
    SeatInfo,
    SeatOption,
    SettingHelp,
    SettingLine,
    Text,
    can_close,
    get_ruleset,
    register,
    registered_names,
    takes_comments,
    views_of,
)

__all__ = [
    "Attention",
    "Choice",
    "Command",
    "ContentError",
    "DelveError",
    "Event",
    "EventFields",
    "GameOutcome",
    "IllegalCommand",
    "Journal",
    "Recorder",
    "Rng",
    "Ruleset",
    "SeatInfo",
    "SeatOption",
    "SettingHelp",
    "SettingLine",
    "SettingsError",
    "Text",
    "attention",
    "can_close",
    "durations",
    "get_ruleset",
    "has_journal",
    "journal",
    "number_text",
    "plain_hash",
    "quote",
    "quote_json",
    "register",
    "registered_names",
    "replay",
    "seat_words",
    "setting_int",
    "state_hash",
    "takes_comments",
    "views_of",
]
