"""The engine contract every game implements, and the registry of rulesets by name.

A ruleset is a stateless object; all game data lives in the state it creates. The server (and
the bots, the replay tool and the tests) drive every game through these methods only:

- ``setup(settings, seats, seed, now) -> state``
- ``advance(state, now) -> events``: bring the clock up to ``now``. Idempotent.
- ``legal_commands(state, seat) -> commands``: the only place that decides what is allowed.
- ``apply(state, seat, command, now) -> events``: raises :class:`IllegalCommand` and leaves
  the state untouched when the command is not allowed.
- ``view(state, seat | None) -> dict``: what that seat (or a spectator) may see; it depends on
  the state only (no time of the request), so the server can tell whether a viewer saw a change.
- ``event_data(kind, data) -> dict``: the allow-listed fields of an event that may leave.
- optionally ``journal(state) -> Journal``: recent events a view shows but the state does not keep
  (:mod:`delve.kernel.journal`); the server fills them in from its event table.
- optionally ``views(state, seats) -> list[dict]``: the views of several audiences at once (seat
  indexes, ``None`` for a spectator), equal to ``[view(state, seat) for seat in seats]`` but free
  to share the work they have in common (the server builds every audience's view after each
  change). The views it returns may share their unchanged parts (the same dict or list in
  several views), and may hand out lasting parts kept from earlier views
  (:mod:`delve.kernel.lasting`, at the top level of a view or in a dict there; their JSON is
  then encoded once while kept): callers read them and never change them. :func:`views_of`
  calls it, or ``view`` per seat for a ruleset without it.
- optionally ``comments``: ``False`` when the seats have no one-line public comment (White
  Maiden); the server then refuses the ``comment`` command itself (422 ``command/illegal``,
  saying so) before the ruleset sees it. Absent: ``True`` (:func:`takes_comments`).
- optionally ``close(state, now) -> events``: end a running game now, outside its rules, with no
  winner: an operator closed it (``delve close``, the admin). Afterwards ``outcome(state)`` says
  it ended (each seat's result ``"closed"``, or how it had already left the game), ``advance``
  changes nothing and ``next_due`` is ``None``. The server brings the clock up to ``now`` first
  and tells the players why in an event of its own. A ruleset without it cannot be closed
  (:func:`can_close`).
- optionally ``digest_parts``: a tuple of view keys (``"areas"``, or ``"map.rooms"`` for a key
  of the dict under ``map``) whose values the server's view digests identify by their own
  digest (``delve.server.games.engine.view_digests``): for large parts that seldom change,
  best handed out as lasting parts by ``views``. A ruleset that names parts names its lasting
  ones: the rest of its views is encoded anew for each view's digest. Once named, a part stays
  named (the digests stored before are compared with whole-view digests once, not after it is
  dropped again).

Commands cross this boundary as JSON objects (``{"kind": "move", "dir": "up"}``); each ruleset
parses them with its own strict schema, so the API, the web pages and the bots share one parser.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import msgspec

from delve.kernel.events import Event

S = TypeVar("S")

Command = dict[str, Any]
"""A command as a JSON object with a ``kind`` key and the kind's parameters."""


class SeatInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """Who sits at a seat when a game is set up: a display name and game-specific options
    (for Fated Labyrinth: ``{"class": "warrior"}``)."""

    name: str
    options: dict[str, Any] = {}


Text = dict[str, str]
"""A display text per language code: ``{"en": "Warrior", "ja": "戦士"}``."""


class Choice(msgspec.Struct, frozen=True):
    value: str
    label: Text


class SeatOption(msgspec.Struct, frozen=True, omit_defaults=True):
    """A choice a player makes when taking a seat (Fated Labyrinth: the class)."""

    key: str
    label: Text
    choices: tuple[Choice, ...]
    default: str
    help: Text = {}


class SettingLine(msgspec.Struct, frozen=True):
    """One active setting as shown to players before they join: ``key``, ``label``, ``value`` (as
    the settings read it: ``"30m"``, ``"ceil_third"``; the API's value) and ``shown``, the value
    for people in each language (``"30 min"``/``"30分"``, ``"+⅓ of its life"``; empty: ``value``).

    For a form built from the lines: ``choices``, the values a setting accepts with their labels
    (empty: free input), and ``low``/``high``, the bounds of a whole number, as validation
    enforces them (``None``: not a bounded number)."""

    key: str
    label: Text
    value: str
    shown: Text = {}
    choices: tuple[Choice, ...] = ()
    low: int | None = None
    high: int | None = None


class SettingHelp(msgspec.Struct, frozen=True):
    """One setting a game may be given, for the operators' forms: its ``key``, its ``label`` and a
    short ``help`` in each language. A ruleset may list every key it accepts so (its optional
    ``setting_help()``), those a preset fixes included, where ``describe_settings`` shows players
    only the active rules."""

    key: str
    label: Text
    help: Text
    #: For the staff form, where values are typed: the values the setting takes when they are not
    #: the words the players' form shows (White Maiden's start player: 0-3 for "seat 1" to "seat 4").
    values: Text | None = None


class GameOutcome(msgspec.Struct, frozen=True, omit_defaults=True):
    """How a game stands: ``ended`` with its ``winners`` and a result word per seat
    (``"won"``, ``"lost"``, ``"abandoned"``...) plus game-specific numbers for records."""

    ended: bool
    winners: tuple[int, ...] = ()
    results: dict[int, str] = {}
    stats: dict[int, dict[str, Any]] = {}


@runtime_checkable
class Ruleset(Protocol[S]):
    """The engine contract. See the module docstring."""

    name: str

    def validate_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """The complete settings a game would run with (defaults filled in).

        :raises SettingsError: naming the first invalid setting.
        """
        ...

    def presets(self) -> list[Choice]:
        """The named presets a game of this ruleset can start from (settings key ``preset``)."""
        ...

    def seat_count(self, settings: Mapping[str, Any]) -> int:
        """How many seats a game with these (validated) settings has; it starts when all are taken."""
        ...

    def seat_options(self, settings: Mapping[str, Any]) -> list[SeatOption]:
        """The choices a player makes when registering into a seat."""
        ...

    def describe_settings(self, settings: Mapping[str, Any]) -> list[SettingLine]:
        """The active settings, for the top page and the help page."""
        ...

    def setup(self, settings: Mapping[str, Any], seats: Sequence[SeatInfo], seed: int, now: int) -> S: ...

    def advance(self, state: S, now: int) -> list[Event]: ...

    def legal_commands(self, state: S, seat: int) -> list[Command]: ...

    def apply(self, state: S, seat: int, command: Mapping[str, Any], now: int) -> list[Event]: ...

    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    def event_data(self, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """The data fields of an event of ``kind`` that may leave the server, by an allow-list
        (:class:`~delve.kernel.events.EventFields`): a field or a kind the ruleset does not list
        is dropped. Views apply the same list to the events they carry."""
        ...

    def command_on_open(self, state: S, seat: int) -> Command | None:
        """A command to apply automatically when ``seat`` opens the game screen, if any
        (Fated Labyrinth: loading the screen while a turn is stored starts that turn)."""
        ...

    def next_due(self, state: S) -> int | None:
        """The earliest time at which ``advance`` would change the state, or ``None``."""
        ...

    def outcome(self, state: S) -> GameOutcome: ...

    def encode(self, state: S) -> bytes:
        """The state as compact JSON bytes."""
        ...

    def decode(self, data: bytes) -> S:
        """The inverse of :meth:`encode`: ``decode(encode(state))`` goes on exactly as ``state``
        (the same commands, events, views and encoding from then on), since the server keeps the
        state it saved and goes on with it for the game's next change instead of decoding the
        row (caches derived from the state may be kept beside it, never anything else)."""
        ...


def takes_comments(ruleset: Ruleset[Any]) -> bool:
    """Whether a game of ``ruleset`` has the seats' one-line public comments (the ``comment``
    command): its optional ``comments`` attribute, ``True`` when absent."""
    return bool(getattr(ruleset, "comments", True))


def can_close(ruleset: Ruleset[Any]) -> bool:
    """Whether an operator may close a running game of ``ruleset`` (its optional ``close``, see
    the module docstring)."""
    return callable(getattr(ruleset, "close", None))


def views_of(ruleset: Ruleset[S], state: S, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """The views of ``seats`` (``None``: a spectator), in that order: the ruleset's ``views`` when
    it has one (see the module docstring; its views may share parts, to be read only), else
    ``view`` for each seat."""
    many = getattr(ruleset, "views", None)
    if many is None:
        return [ruleset.view(state, seat) for seat in seats]
    found: list[dict[str, Any]] = many(state, seats)
    return found


# Built-in rulesets are imported lazily so that the kernel never imports a game.
_BUILTIN: dict[str, str] = {
    "fated": "delve.fated.ruleset:FatedRuleset",
    "maiden": "delve.maiden.ruleset:MaidenRuleset",
}
_REGISTRY: dict[str, Ruleset[Any]] = {}


def register(ruleset: Ruleset[Any]) -> None:
    """Register a ruleset instance under its ``name`` (replacing any earlier one)."""
    _REGISTRY[ruleset.name] = ruleset


def registered_names() -> list[str]:
    return sorted(set(_REGISTRY) | set(_BUILTIN))


def get_ruleset(name: str) -> Ruleset[Any]:
    """The ruleset registered as ``name``.

    :raises KeyError: with the known names, if there is none.
    """
    if name not in _REGISTRY and name in _BUILTIN:
        module_name, _, attr = _BUILTIN[name].partition(":")
        cls = getattr(importlib.import_module(module_name), attr)
        _REGISTRY[name] = cls()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(registered_names())}") from None
