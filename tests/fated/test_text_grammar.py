"""Every event and message kind (FL-INFO-4/5) rendered for every viewer role, in English and
Japanese, with the grammar that matters checked: reflexives (you ... yourself, never "you ...
themselves"), possessives (your, never "Player 01's" for the viewer), articles (an Imp), Japanese
particles (no doubled の／が), no raw ids or placeholders, whole sentences.

Each kind gets sample data built from the disclosure allow-list (the only fields a sentence can
read): the seat fields take distinct seats (1 acts, 2 is acted on), then all the same seat (a
card used on oneself); the viewer is the actor, the one acted on, an uninvolved seat or a
spectator. Monsters are an Imp (an article before a vowel) and a Slime."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from delve.fated import disclosure, text

SEATS = ("player", "attacker", "target", "defender", "owner", "by", "requester", "thief", "victim", "source", "winner")
SAMPLES: dict[str, list[Any]] = {
    "card": ["attack-10", "dowsing"],
    "monster": ["imp", "slime"],
    "status": ["nimble"],
    "statuses": [["light", "sage"], []],
    "use": ["remote", "adjacent", "trap"],
    "amount": [5],
    "count": [2, 1],
    "cards": [1, 3],
    "damage": [7],
    "label": ["attack", "monster", "trap"],
    "outcome": ["hit", "evaded", "blocked"],
    "method": ["card"],
    "defense_card": ["defense-10"],
    "special": ["nimble"],
    "applied": [True],
    "reason": ["destroyed", "owner_died", "timeout"],
    "cause": ["poison", "trap"],
    "credited": [[2]],
    "fate": ["died"],
    "reward": ["cards", "cp"],
    "terrain": ["ice"],
    "corner": [1],
    "kinds": [["attack-10", "defense-10"]],
    "gave": ["attack-10"],
    "got": ["defense-10"],
    "fake": ["exit"],
    "stat": ["attack", "max_hp"],
    "found": [True],
    "x": [3],
    "y": [4],
    "radius": [2],
    "card_kind": ["attack-10"],
    "kind": ["escape", "survivor"],
    "players": [4],
    "targets": [[2]],
    "on": ["self", "area"],
    "door": [True],
    "counter": [False],
    "reflected": [False],
}


#: Fields of which an event carries one group only (how a card or an attack was aimed).
AIMS: dict[str, list[dict[str, Any]]] = {
    "card.used": [
        {"target": 2},
        {"target": 1},
        {"monster": "imp", "owner": 2},
        {"door": True},
        {"on": "self"},
        {"on": "area"},
        {},
    ],
    "attack.normal": [{"target": 2}, {"monster": "slime", "owner": 2}, {"monster": "imp", "owner": 1}, {}],
    "cp.siphoned": [{"target": 2}, {"by": 2}],
}
AIMED = {"target", "monster", "owner", "door", "on", "by"}


def samples(kind: str) -> Iterator[dict[str, Any]]:
    """Sample events of one kind: the first seat field is seat 1 (the actor), the others seat 2;
    each other field through its sample values, one at a time."""
    fields = disclosure.FIELDS._fields.get(kind, ())
    aims = AIMS.get(kind, [{}])
    aimed = AIMED if kind in AIMS else set()
    seat_fields = [f for f in fields if f in SEATS and f not in aimed]
    others = [f for f in fields if f not in SEATS and f not in aimed and f in SAMPLES and f != "kind"]
    for aim in aims:
        base: dict[str, Any] = {"kind": kind}
        for i, f in enumerate(seat_fields):
            base[f] = 1 if i == 0 else 2
        for f in others:
            base[f] = SAMPLES[f][0]
        base.update(aim)
        yield dict(base)
        for f in others:
            for value in SAMPLES[f][1:]:
                yield {**base, f: value}


def kinds() -> list[str]:
    return sorted(disclosure.FIELDS._fields)


def viewers(kind: str) -> tuple[int | None, ...]:
    """Public events: the actor, the one acted on, someone else, a spectator. Private messages
    go to a seat the data does not name (the recipient), and for the kinds that tell both sides
    of a theft also to the one named."""
    if kind in disclosure.PUBLIC:
        return (1, 2, 3, None)
    if kind in {"steal.card", "steal.failed", "steal.empty"}:
        return (0, 1)
    return (0,)


def problems_en(sentence: str, viewer: int | None) -> list[str]:
    found = []
    if re.search(r"[{}]|None|\bsomeone\b", sentence):
        found.append("placeholder or missing name")
    if not sentence[:1].isupper() and not sentence.startswith("《"):
        found.append("no capital")
    if not sentence.endswith((".", "!", "?")):
        found.append("no full stop")
    if re.search(r"\ba [AEIOUaeiou]", sentence):
        found.append("'a' before a vowel")
    if re.search(r"\b[Yy]ou\b[^.:]*\bthemselves\b", sentence) or re.search(r"\b[Yy]ou\b[^.:]*\btheir own\b", sentence):
        found.append("'you' with 'themselves'/'their own'")
    if re.search(r"\b[Yy]ou updated their\b", sentence):
        found.append("'you ... their'")
    if re.search(r"\bof you\b|\byou's\b", sentence, re.I):
        found.append("'of you'")
    if re.search(r"^You (was|is|has)\b|[,:] you (was|is|has)\b", sentence):
        found.append("'you was/is/has'")
    if re.search(r"\bit follows them\b", sentence) and re.search(r"^You\b", sentence):
        found.append("'it follows them' said to 'you'")
    if viewer is not None and f"Player {viewer + 1:02d}" in sentence:
        found.append("the viewer named by number")
    if viewer is None and re.search(r"\b[Yy]ou\b", sentence):
        found.append("'you' said to a spectator")
    if re.search(r"\b(attack|defense|hp|cp)-\d|\b[a-z]+_[a-z]+\b", sentence):
        found.append("a raw id")
    return found


def problems_ja(sentence: str, viewer: int | None) -> list[str]:
    found = []
    if re.search(r"[{}]|None|someone|誰か", sentence):
        found.append("placeholder or missing name")
    if not sentence.endswith(("。", "！", "？")):
        found.append("no full stop")
    for doubled in ("のが", "のの", "をを", "にに", "がが", "のを", "、、", "。。"):
        if doubled in sentence:
            found.append(f"doubled particle {doubled}")
    if re.search(r"あなた[がは][^。]*あなた(に|を)", sentence):
        found.append("あなた…あなた instead of 自分")
    if viewer is not None and f"プレイヤー{viewer + 1:02d}" in sentence:
        found.append("the viewer named by number")
    if re.search(r"[a-z]{3,}", sentence):
        found.append("a raw id or English word")
    return found


@pytest.mark.parametrize("kind", kinds())
def test_every_kind_reads_well_for_every_viewer_in_both_languages_FL_INFO_4(kind):
    """FL-INFO-4, FL-INFO-5: the sentence of ``kind`` for the actor, the one acted on, an
    uninvolved player and a spectator, in English and Japanese, for both presets."""
    failures = []
    for event in samples(kind):
        for viewer in viewers(kind):
            for preset in ("fated-labyrinth", "level-d"):
                en = text.describe(event, "en", preset, viewer)
                ja = text.describe(event, "ja", preset, viewer)
                failures += [(event, viewer, en, p) for p in problems_en(en, viewer)]
                failures += [(event, viewer, ja, p) for p in problems_ja(ja, viewer)]
    assert not failures, "\n".join(f"{p}: {s!r} (viewer {v}, {e})" for e, v, s, p in failures[:8])


@pytest.mark.parametrize(
    ("event", "viewer", "en", "ja"),
    [
        (
            {"kind": "card.used", "player": 1, "card": "dowsing", "target": 1},
            1,
            "You used Dowsing on yourself.",
            "あなたが自分にダウジングを使った。",
        ),
        (
            {"kind": "card.used", "player": 1, "card": "dowsing", "target": 1},
            None,
            "Player 02 used Dowsing on themselves.",
            "プレイヤー02が自分にダウジングを使った。",
        ),
        (
            {"kind": "monster.charmed", "monster": "slime", "owner": 2, "by": 1},
            1,
            "You won Player 03's Slime over: it follows you now.",
            "あなたがプレイヤー03のスライムを味方にした。",
        ),
        (
            {"kind": "monster.summoned", "owner": 2, "monster": "imp"},
            None,
            "Player 03 summoned an Imp.",
            "プレイヤー03がインプを召喚した。",
        ),
        (
            {"kind": "monster.status_removed", "monster": "slime", "owner": 2, "statuses": []},
            None,
            "Player 03's Slime lost its statuses.",
            "プレイヤー03のスライムの状態変化が消えた。",
        ),
        (
            {"kind": "comment", "player": 1},
            1,
            "You updated your comment.",
            "あなたがコメントを更新した。",
        ),
        (
            {"kind": "treasure.tossed", "victim": 1},
            1,
            "One of your treasures was sent flying.",
            "あなたの財宝が飛ばされた。",
        ),
    ],
)
def test_the_sentences_reported_wrong_now_read_right(event, viewer, en, ja):
    """Reflexives, the follower of a charmed monster, articles and the particle after an empty
    list of statuses."""
    assert text.describe(event, "en", "fated-labyrinth", viewer) == en
    assert text.describe(event, "ja", "fated-labyrinth", viewer) == ja


def test_the_end_of_the_game_says_how_it_was_won_FL_WIN_6():
    """FL-WIN-5/6: the log's last line says whether the winner escaped or survived (the event's
    own kind field travels as ``win_kind``)."""
    ended = {"kind": "game.ended", "winner": 2, "win_kind": "survivor"}
    assert text.describe(ended, "en", "level-d", None) == "The game ended: Player 03 won as the last survivor."
    assert text.describe(ended, "ja", "level-d", 2) == "ゲーム終了：あなたが最後の生存者として勝利した。"
    escaped = {"kind": "game.ended", "winner": 2, "win_kind": "escape"}
    assert text.describe(escaped, "en", "level-d", None) == "The game ended: Player 03 won."
