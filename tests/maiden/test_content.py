"""The shipped White Maiden content: it loads, and it has the shape and counts the rules and the
design fix (MV-COMP-1..9, MV-SETUP-2, MISS-1..17, SUG-1..10)."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter, deque

import pytest

from delve.maiden import content as mc

C = mc.load()
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _all_ops() -> list[tuple[str, str, mc.Op]]:
    ops: list[tuple[str, str, mc.Op]] = []
    for area in C.areas.values():
        ops += [("arcana", area.id, op) for op in area.arcana]
    for boss in C.bosses.values():
        for action in boss.actions:
            if action.effect:
                ops += [("boss", boss.id, op) for op in action.effect.ops]
    for card in C.room_cards.values():
        if card.event:
            ops += [("room", card.id, op) for op in card.event.ops]
    for quest in C.quests.values():
        ops += [("quest", quest.id, op) for op in quest.ops]
    for skill in C.skills.values():
        ops += [("skill", skill.id, op) for op in skill.ops]
    return ops


def test_load_is_cached_and_immutable() -> None:
    assert mc.load() is C
    with pytest.raises(AttributeError):
        C.bosses["kether"].life = 1  # type: ignore[misc]


def test_counts_of_every_content_kind() -> None:
    """MV-COMP-3 (22 area cards), MV-COMP-9 (10 bosses, 3 actions), MV-COMP-7 (48 action cards, MISS-10)."""
    assert len(C.areas) == 22
    assert len(C.bosses) == 10
    assert all(len(b.actions) == 3 for b in C.bosses.values())
    assert C.action_counts == {"D": 12, "J": 12, "P": 12, "G": 12}
    assert len(C.action_deck()) == 48
    assert len(C.room_deck()) == 40
    assert len(C.familiars) == 8
    deck = [C.skills[s] for s in C.skill_deck()]
    assert len(deck) == 24
    assert Counter(len(s.condition) for s in deck) == {1: 12, 2: 12}


def test_one_final_boss_the_mad_king_urza_at_kether() -> None:
    """MV-BOSS-11, OQ-21: Urza is one of the 10 bosses, at the top of the tree."""
    assert [b.id for b in C.bosses.values() if b.final] == ["kether"]
    assert C.final_boss.name.ja == "狂王ウルザ"
    assert C.room(C.boss_room("kether")).y == min(r.y for r in C.rooms.values())


def test_bosses_escalate_by_tier() -> None:
    """SUG-2: life and difficulty rise with the tier; the tutorial boss sits at Malkuth."""
    tiers: dict[int, list[mc.Boss]] = {}
    for boss in C.bosses.values():
        tiers.setdefault(boss.tier, []).append(boss)
    assert [b.id for b in tiers[0]] == ["malkuth"] and [b.id for b in tiers[4]] == ["kether"]
    for low, high in itertools.pairwise(sorted(tiers)):
        assert max(b.life for b in tiers[low]) < min(b.life for b in tiers[high])
        total = {b.id: sum(a.difficulty for a in b.actions) for b in tiers[low] + tiers[high]}
        assert max(total[b.id] for b in tiers[low]) < min(total[b.id] for b in tiers[high])


def test_the_map_is_the_tree_of_life() -> None:
    """MISS-1, SUG-1: 10 boss rooms at the sephirot, 22 areas as chains of the suggested lengths,
    S at Malkuth with the Malkuth boss in an alcove off S; 82 squares."""
    assert len(C.rooms) == 82
    assert C.start == "s" and C.room("s").type == "start"
    assert sorted(C.boss_rooms) == sorted(C.bosses)
    assert C.neighbours(C.boss_room("malkuth")) == ("s",)
    lengths = {a: len(rooms) for a, rooms in C.area_rooms.items()}
    assert sum(lengths.values()) == 71
    assert lengths["a03"] == 5 and lengths["a22"] == 2
    sephirot = {"kether", "chokmah", "binah", "chesed", "geburah", "tiphareth", "netzach", "hod", "yesod"}
    for area, chain in C.area_rooms.items():
        ends = {n for r in (chain[0], chain[-1]) for n in C.neighbours(r) if C.room(n).area != area}
        assert len(ends) == 2, area
        assert ends <= sephirot | {"s"}, area
    degree = Counter(n for r in C.rooms.values() if r.type == "boss" for n in [r.id] for _ in C.neighbours(n))
    assert degree["tiphareth"] == 8  # the heart of the tree touches eight paths
    assert len(C.neighbours("s")) == 4  # three Malkuth paths and the Malkuth alcove


def test_every_room_is_reachable_from_s() -> None:
    """MISS-1: the map is connected from the start square (hidden passages not needed)."""
    seen = {C.start}
    queue = deque([C.start])
    while queue:
        for n in C.neighbours(queue.popleft()):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    assert seen == set(C.rooms)


def test_special_rooms_and_their_flags() -> None:
    """MISS-15, CHG-13: 8 rest rooms (4 off at normal difficulty), 6 quest and 4 danger rooms, at
    most one special room per area; some flagged off at 2 and 4 players."""
    kinds = Counter(r.type for r in C.rooms.values())
    assert kinds["rest"] == 8 and kinds["quest"] == 6 and kinds["danger"] == 4 and kinds["boss"] == 10
    assert sum(1 for r in C.rooms.values() if r.type == "rest" and not r.normal_active) == 4
    per_area = Counter(r.area for r in C.rooms.values() if r.type in {"rest", "quest", "danger"})
    assert max(per_area.values()) == 1
    reduced = [r for r in C.rooms.values() if r.active_player_counts]
    assert reduced and all(set(r.active_player_counts) <= {1, 2, 3, 4} for r in reduced)
    assert any(2 not in r.active_player_counts for r in reduced)
    assert C.room(C.area_rooms["a01"][1]).type == "rest"  # a rest before the Mad King


def test_entry_requirements_gate_the_abyss() -> None:
    """CHG-16: the middle of the High Priestess's path needs JJ (the double jump across the Abyss)."""
    assert C.room("a03_3").entry_requirement == ("J", "J")
    assert {r.id for r in C.rooms.values() if r.entry_requirement} >= {"a03_3", "a07_3", "a16_2"}


def test_hidden_passages_daat_and_qesheth() -> None:
    """MISS-13, SUG-10: Da'at opens from the middle of A03 to Binah and Chokmah (Ins 2); Qesheth
    climbs from Yesod to Tiphareth (Ins 1)."""
    assert {(p.a, p.b, p.min_ins) for p in C.passages.values()} == {
        ("a03_3", "chokmah", 2),
        ("a03_3", "binah", 2),
        ("yesod", "tiphareth", 1),
    }
    revealed_by = {op.passage for _, _, op in _all_ops() if op.op == "reveal_passage"}
    assert revealed_by == set(C.passages)


def test_layout_draws_without_overlaps() -> None:
    """The x/y coordinates lie on the 0..10 grid and no two squares overlap on the screen."""
    points = [(r.id, r.x, r.y) for r in C.rooms.values()]
    assert all(0 <= x <= 10 and 0 <= y <= 10 for _, x, y in points)
    closest = min(math.dist(a[1:], b[1:]) for a, b in itertools.combinations(points, 2))
    assert closest >= 0.44


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def test_layout_no_square_sits_on_a_path_it_is_not_on() -> None:
    """Drawn as straight lines, an edge never passes through a square it does not join: where
    paths cross on the classic Tree (A04, A09 and A17 across the middle pillar) they cross between
    rooms, so the map never suggests a link that is not there."""
    for edge in C.edges:
        a, b = C.room(edge.a), C.room(edge.b)
        for room in C.rooms.values():
            if room.id not in (edge.a, edge.b):
                gap = _segment_distance((room.x, room.y), (a.x, a.y), (b.x, b.y))
                assert gap >= 0.3, (room.id, edge.a, edge.b, gap)


def test_areas_carry_the_major_arcana_in_path_order() -> None:
    """MV-COMP-3, SUG-3: path 11 + n carries trump n (Golden Dawn), every Arcana has ops."""
    for area in C.areas.values():
        assert area.path == area.arcanum + 11
        assert area.arcana
    hindered = [a for a in C.areas.values() if not a.mods.empty]
    assert len(hindered) == 21  # The World is the tutorial area
    assert C.areas["a22"].mods.empty


def test_every_text_exists_in_english_and_japanese() -> None:
    """Every name, flavour, effect and event text has en and ja, and the ja text is Japanese."""
    entries: list[object] = [
        C.map,
        *C.areas.values(),
        *C.bosses.values(),
        *C.room_cards.values(),
        *C.quests.values(),
        *C.familiars.values(),
        *C.skills.values(),
        C.actions,
    ]
    count = 0
    for entry in entries:
        for where, text in mc._texts(entry):
            count += 1
            assert text.en.strip() and text.ja.strip(), where
            assert JAPANESE.search(text.ja), (where, text.ja)
    assert count > 300


def test_every_op_is_known_with_its_params() -> None:
    """OPS: every op of every file is known, takes exactly its params, in a window that fits."""
    seen = set()
    for kind, key, op in _all_ops():
        spec = mc.OPS[op.op]
        assert spec.required <= set(op.params()) <= spec.required | spec.optional, (kind, key, op)
        seen.add(op.op)
    assert len(seen) >= 25  # the content exercises nearly the whole vocabulary


def test_ops_read_like_the_toml() -> None:
    op = C.areas["a01"].arcana[0]
    assert dict(op) == {"op": "mp", "amount": 3}
    assert op.get("who") is None and op.target == "self"
    assert dict(C.areas["a01"].name) == {"en": "The Fool", "ja": "愚者"}


def test_quests_initial_deck_and_chains() -> None:
    """MV-SETUP-2: the quest deck starts with the initial quests only; CHG-15: every quest has an
    immediate effect; every numbered quest is added by some follow-up."""
    initial = C.initial_quests()
    assert len(initial) == 8
    numbered = C.numbered_quests()
    assert sorted(numbered) == list(range(1, len(numbered) + 1))
    assert all(q.ops for q in C.quests.values())
    added = {n for q in C.quests.values() for n in q.follow_ups}
    assert added == set(numbered)
    assert C.quest_by_number(8).id == "q_crowns_flaw"
    with pytest.raises(KeyError):
        C.quest_by_number(0)
    ongoing = [q for q in C.quests.values() if q.ongoing]
    assert ongoing and all(q.mods is not None for q in ongoing)


def test_familiars_two_per_kind_with_own_symbol() -> None:
    """SUG-6, CHG-20: two familiars per action kind, one initial skill whose condition has the
    familiar's symbol, and an ultimate for familiar evolution."""
    assert Counter(f.action for f in C.familiars.values()) == {"D": 2, "J": 2, "P": 2, "G": 2}
    for fam in C.familiars.values():
        assert len(fam.skills) == 1
        assert fam.action in C.skills[fam.skills[0]].condition
        assert fam.ultimate and not C.skills[fam.ultimate].deck


def test_skill_levels_scale_amounts_and_counts() -> None:
    """MV-SKILL-10: each level adds ``scale`` to the op's amount (or integer count)."""
    assert [dict(op) for op in C.skills["sprint"].scaled(2)] == [{"op": "mp", "amount": 3}]
    assert [dict(op) for op in C.skills["quick_hands"].scaled(1)] == [{"op": "reroll", "count": 2}]
    assert C.skills["whirlwind"].scaled(3) == C.skills["whirlwind"].ops


def test_room_deck_matches_the_suggested_curve() -> None:
    """SUG-4: difficulty -1..+4 as 4/8/10/8/6/4, slates 3 red, 3 blue, 3 black on difficulty 0..2."""
    deck = [C.room_cards[c] for c in C.room_deck()]
    assert Counter(c.difficulty for c in deck) == {-1: 4, 0: 8, 1: 10, 2: 8, 3: 6, 4: 4}
    slates = [c for c in deck if c.slate]
    assert Counter(c.slate for c in slates) == {"red": 3, "blue": 3, "black": 3}
    assert all(0 <= c.difficulty <= 2 for c in slates)
    events = Counter(c.event.on for c in deck if c.event)
    assert events["success"] >= 6 and events["failure"] >= 6


def test_effect_trigger() -> None:
    """MV-EVENT-2: an event fires on success, on failure, or always."""
    ops = ()
    text = mc.Text(en="x", ja="x")
    assert mc.Effect(on="success", ops=ops, text=text).fires(True)
    assert not mc.Effect(on="success", ops=ops, text=text).fires(False)
    assert mc.Effect(on="failure", ops=ops, text=text).fires(False)
    assert mc.Effect(on="always", ops=ops, text=text).fires(False)
