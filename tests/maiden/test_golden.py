"""A golden transcript: one seeded 2-player game of heuristic bots on the shipped content, every
event with its data and its English and Japanese sentence (tests/maiden/golden/two-player-seed-7.json).

Any change to the engine, the content, the bots or the sentences that changes this game shows up
as a diff here. When the change is intended, regenerate the file deliberately and review its diff:

    DELVE_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/maiden/test_golden.py -q
    git diff --stat tests/maiden/golden/
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from delve.bots.maiden_eval import NAMES, play_game
from delve.maiden import text
from delve.maiden.ruleset import MaidenRuleset

GOLDEN = Path(__file__).parent / "golden" / "two-player-seed-7.json"
PLAYERS, SEED = 2, 7


def transcript() -> dict[str, Any]:
    ruleset = MaidenRuleset()
    record = play_game(PLAYERS, SEED, bot="heuristic", ruleset=ruleset, keep_events=True)
    names = list(NAMES[:PLAYERS])
    events = [
        {
            "kind": e.kind,
            "data": json.loads(json.dumps(dict(e.data))),
            "en": text.event_sentence(e, "en", ruleset.content, names),
            "ja": text.event_sentence(e, "ja", ruleset.content, names),
        }
        for e in record.events
    ]
    return {
        "game": "maiden",
        "players": PLAYERS,
        "seed": SEED,
        "bots": "heuristic (will_first)",
        "result": "won" if record.won else "lost",
        "rounds": record.rounds,
        "summary": record.summary,
        "events": events,
    }


def dump(data: dict[str, Any]) -> str:
    """JSON with one event per line, so that a diff shows the events that changed."""
    head = {k: v for k, v in data.items() if k != "events"}
    lines = [json.dumps(e, ensure_ascii=False) for e in data["events"]]
    body = json.dumps(head, ensure_ascii=False)[:-1]
    return body + ', "events": [\n' + ",\n".join(lines) + "\n]}\n"


def test_two_player_seed_7_matches_the_golden_transcript() -> None:
    """MV-END-3 summary and every event of the game, in both languages."""
    now = transcript()
    if os.environ.get("DELVE_REGENERATE_GOLDEN"):
        GOLDEN.write_text(dump(now), encoding="utf-8")
    saved = json.loads(GOLDEN.read_text(encoding="utf-8"))
    hint = "regenerate deliberately: DELVE_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/maiden/test_golden.py"
    for index, (old, new) in enumerate(zip(saved["events"], now["events"], strict=False)):
        assert old == new, f"event {index} differs ({hint}):\n  golden: {old}\n  now:    {new}"
    assert len(saved["events"]) == len(now["events"]), f"the game has a different length ({hint})"
    assert saved == now, hint


def test_the_golden_game_is_complete_and_bilingual() -> None:
    saved = json.loads(GOLDEN.read_text(encoding="utf-8"))
    kinds = [e["kind"] for e in saved["events"]]
    assert kinds[-1] in ("game.won", "game.lost")
    assert saved["result"] == kinds[-1].split(".")[1]
    assert {"round.started", "check.resolved", "boss.defeated"} <= set(kinds)
    for event in saved["events"]:
        assert event["en"] and event["ja"] and event["en"] != event["ja"]
        assert not event["en"].startswith("Event “"), event
