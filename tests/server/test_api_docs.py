"""docs/api.md stays complete for a bot writer: every refusal code a ruleset (or the API's own
layers) can raise is listed, and so are every field of both rulesets' views and every command
kind (and its fields) of both rulesets; the sample bot keeps its waiting loop and its retry."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from delve.fated import commands as fated_commands
from delve.maiden import commands as maiden_commands
from delve.maiden.content import load
from delve.maiden.ruleset import MaidenRuleset
from tests.maiden.helpers import autoplay_one, new_game
from tests.server.test_maiden_room_card_odds import room_draw_game

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "delve"
DOC = (ROOT / "docs" / "api.md").read_text()
#: The API's own layers: every Rejected these raise reaches an API caller.
API_LAYERS = [
    SRC / "server" / "api",
    SRC / "server" / "games" / "engine.py",
    SRC / "server" / "games" / "errors.py",
    SRC / "server" / "games" / "bots.py",
    SRC / "server" / "guard.py",
    SRC / "server" / "inputs.py",
]
#: Codes of the lobby's host tools (seating bots from the game page) and of an operator closing a
#: game (``engine.close``: ``delve close``, the admin), which no API request reaches.
NOT_API = re.compile(r"^(lobby/|game/(not_running|cannot_close)$)")


def _codes(paths: list[Path], constructors: set[str]) -> set[str]:
    """The literal codes passed first to ``constructors`` anywhere in ``paths``."""
    found: set[str] = set()
    files = [f for p in paths for f in (sorted(p.rglob("*.py")) if p.is_dir() else [p])]
    for file in files:
        for node in ast.walk(ast.parse(file.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            first = node.args[0]
            if name in constructors and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    return found


def _section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + len(title))
    return DOC[start:] if end < 0 else DOC[start:end]


def _named(text: str) -> set[str]:
    return set(re.findall(r"`([a-z_/]+)`", text))


def test_every_refusal_code_the_rulesets_raise_is_listed_with_its_meaning() -> None:
    engine_codes = _codes([SRC], {"IllegalCommand"})
    assert {"command/decision_pending", "command/invalid_option", "command/blocked"} <= engine_codes
    listed = _named(_section("### The rulesets' refusals"))
    assert sorted(engine_codes - listed) == []


def test_every_refusal_code_of_the_api_layers_is_listed() -> None:
    api_codes = {c for c in _codes(API_LAYERS, {"Rejected"}) if not NOT_API.match(c)}
    assert {"seat/not_yours", "command/stale_version"} <= api_codes
    assert sorted(api_codes - _named(_section("## Errors"))) == []


def _walk_views() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The keys seen in White Maiden views (by part) and the fields of each legal command kind,
    over a short game of two maidens."""
    parts: dict[str, set[str]] = {k: set() for k in ("top", "check", "maidens", "bosses", "pending")}
    fields: dict[str, set[str]] = {}
    ruleset, game = new_game(2, seed=3, start_player=0)
    for _ in range(400):
        if game.ended:
            break
        for seat in (0, 1, None):
            view: dict[str, Any] = ruleset.view(game, seat)
            parts["top"] |= set(view)
            if view["check"]:
                parts["check"] |= set(view["check"])
            for name in ("maidens", "bosses", "pending"):
                for item in view[name]:
                    parts[name] |= set(item)
            if seat is not None:
                for command in ruleset.legal_commands(game, seat):
                    fields.setdefault(command["kind"], set()).update(command)
        autoplay_one(ruleset, game)
    parts["top"].add("log")  # filled in by whoever shows the view, from the events (maiden/journal.py)
    # a choice of room cards for a check (the short game above draws one card at a time)
    shipped = MaidenRuleset(content=load())
    drawing = room_draw_game(shipped, 3)
    head = shipped.view(drawing, drawing.pending[0].seat)["pending"][0]
    parts["pending"] |= set(head)
    parts["room_check"] = set(head["room_check"])
    return parts, fields


def test_the_white_maiden_view_and_its_commands_are_described() -> None:
    section = _section("## White Maiden: the view and the commands")
    named = _named(section)
    parts, fields = _walk_views()
    for part, keys in parts.items():
        assert sorted(keys - named) == [], part
    assert set(fields) <= maiden_commands.KINDS  # legal_commands offers only kinds the parser knows
    kinds = _named(section[section.index("**The commands.**") :])
    assert sorted(maiden_commands.KINDS - kinds) == []
    assert sorted(set(maiden_commands.Command.__struct_fields__) - kinds) == []  # every field of a command
    for kind, keys in fields.items():
        assert sorted(keys - named) == [], kind


def test_the_fated_command_kinds_are_described() -> None:
    section = _section("## Fated Labyrinth and Level D: the view and the commands")
    named = _named(section)
    assert sorted(fated_commands.KINDS - named) == []
    assert sorted(set(fated_commands.Command.__struct_fields__) - named) == []
    assert sorted(set(fated_commands.PHASE_KINDS) - named) == []


def _walk_fated_views() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The keys seen in Fated Labyrinth views (by part) and the fields of each legal command kind,
    over random playouts of a few hundred commands (both presets)."""
    from delve.fated.journal import Journal
    from tests.fated.playout import RULESET, new_playout, run

    parts: dict[str, set[str]] = {
        k: set() for k in ("top", "game", "map", "player", "monster", "players", "statuses", "you", "defending")
    }
    fields: dict[str, set[str]] = {}
    for preset, seed in (("fated-labyrinth", 5), ("level-d", 6)):
        playout = new_playout(preset, seed, players=4)
        for _ in range(8):
            run(playout, playout.commands + 60)
            journal = Journal(playout.state)
            journal.add(playout.events)
            for seat in (*range(len(playout.state.players)), None):
                view = journal.show(RULESET.view(playout.state, seat), seat)
                parts["top"] |= set(view)
                parts["game"] |= set(view["game"])
                parts["map"] |= set(view["map"])
                for character in view["characters"]:
                    parts[character["type"]] |= set(character)
                    for status in character.get("statuses", []):
                        parts["statuses"] |= set(status)
                for entry in view["players"]:
                    parts["players"] |= set(entry)
                    for status in entry.get("statuses", []):
                        parts["statuses"] |= set(status)
                if "you" in view:
                    parts["you"] |= set(view["you"])
                    parts["defending"] |= set(view["you"].get("defending", {}))
                    for command in RULESET.legal_commands(playout.state, seat):
                        fields.setdefault(command["kind"], set()).update(command)
    return parts, fields


def test_the_fated_view_is_described() -> None:
    """A bot reads the Fated view from the docs: every field a view shows is named there."""
    section = _section("## Fated Labyrinth and Level D: the view and the commands")
    named = _named(section)
    parts, fields = _walk_fated_views()
    assert {"you", "map", "players", "characters", "events"} <= parts["top"]
    assert parts["monster"] and parts["defending"], "the playouts no longer show a monster or a defense"
    for part, keys in parts.items():
        assert sorted(keys - named) == [], part
    for kind, keys in fields.items():
        assert sorted(keys - named) == [], kind
        assert keys - {"kind"} <= fated_commands.KIND_FIELDS[kind], kind  # listed commands can be sent


def test_the_sample_bot_waits_with_the_etag_and_retries_a_moved_game() -> None:
    section = _section("## Writing a bot")
    sample = section[section.index("```python") + len("```python") : section.rindex("```")]
    ast.parse(sample)
    for needed in (
        "If-None-Match",
        "ETag",
        "304",
        "command/choices_changed",
        "command/stale_version",
        "idempotency_key",
    ):
        assert needed in sample, needed
    assert "delve manage create_token" in section
