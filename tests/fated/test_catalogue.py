"""The card catalogue (FL-CARD-1..4, spec §20: MC-1..MC-18 and the named cards C-1..C-31):
what the content holds, that a broken content file fails with file, card and reason, and the
``delve cards`` table."""

from __future__ import annotations

import pathlib
import re
import shutil
from collections import Counter

import pytest

from delve import cli
from delve.fated import catalogue, content
from delve.fated.content import CATEGORIES, USES
from delve.fated.ruleset import FatedRuleset
from delve.kernel import ContentError, SeatInfo

DATA = content.load()
PRESETS = list(DATA.presets)
CONTENT_DIR = pathlib.Path(content.__file__).parent / "content"
DOCS = pathlib.Path(__file__).parents[2] / "docs" / "cards.md"


def kinds_in(preset: str) -> dict[str, int]:
    return DATA.copies(preset)


def ops(card: content.CardDef) -> set[str]:
    return {e.op for e in card.effects}


def statuses_given(card: content.CardDef) -> set[str]:
    """Statuses a card's effects or special part can put on someone."""
    out = {s for e in card.effects if e.op == "gain" for s in ((e.status,) if e.status else ()) + e.statuses}
    if card.special in DATA.statuses:
        out.add(card.special)
    return out


# ---------------------------------------------------------------- sizes and categories


@pytest.mark.parametrize("preset", PRESETS)
def test_each_set_has_over_100_kinds_in_the_10_categories_and_500_cards_MC_1_MC_2_MC_3(preset):
    """FL-CARD-1, MC-1, MC-2: more than 100 kinds, every one of the 10 categories used;
    FL-CARD-4, MC-3: one set is exactly 500 cards."""
    copies = kinds_in(preset)
    assert len(copies) > 100
    assert sum(copies.values()) == content.CARDS_PER_SET == 500
    assert {DATA.cards[k].category for k in copies} == set(CATEGORIES)
    assert len(CATEGORIES) == 10
    assert len(DATA.cards) >= len(copies)


def test_decks_setting_multiplies_the_cards_FL_CARD_4():
    """FL-CARD-4: ``decks`` sets of 500 cards; card ids 0..500*decks-1, each set the same kinds."""
    ruleset = FatedRuleset()
    seats = [SeatInfo(f"p{i}", {"class": "explorer"}) for i in range(4)]
    state = ruleset.setup({"preset": "fated-labyrinth", "decks": 2}, seats, 3, 1_800_000_000)
    every = state.deck + state.discard + [c for p in state.players for c in p.hand]
    assert sorted(every) == list(range(1000))
    assert Counter(DATA.card(c, "fated-labyrinth").id for c in every) == Counter(
        {k: 2 * v for k, v in kinds_in("fated-labyrinth").items()}
    )


def test_card_data_is_data_with_every_field_of_MC_18_FL_CARD_3():
    """FL-CARD-3, MC-18: card data lives in content files; every kind has Japanese and English
    names and text, a category, costs per use, and a purpose (what it is for)."""
    assert (CONTENT_DIR / "cards.toml").is_file()
    for card in DATA.cards.values():
        assert card.name["en"] and card.name["ja"] and card.text["en"] and card.text["ja"], card.id
        assert card.purpose, card.id
        assert card.is_attack or card.category == "defense" or card.has_effects, card.id


# ---------------------------------------------------------------- costs and uses


def test_costs_per_use_rise_trap_adjacent_remote_and_some_cost_zero_MC_4():
    """MC-4, FL-USE-5, AMB-23: each use has its own cost, 《罠》 < 《隣接》 < 《遠隔》; some cards cost 0."""
    zero = []
    for card in DATA.cards.values():
        costs = [card.uses[u] for u in USES if u in card.uses]
        assert costs == sorted(set(costs)), card.id
        if (costs and costs[0] == 0) or (card.has_effects and card.cost == 0) or (card.defense and card.cost == 0):
            zero.append(card.id)
    assert {"attack-5", "defense-5", "first-aid", "mana-drop"} <= set(zero)
    assert len(zero) < 10  # "most" cards cost something (FL-STAT-2)


def test_damage_cards_have_three_uses_and_most_special_attacks_too_MC_5_FL_USE_1():
    """MC-5, FL-USE-1: all damage cards have the three uses; most special attack cards too, and
    some lack one."""
    damage = [c for c in DATA.cards.values() if c.category == "damage"]
    special = [c for c in DATA.cards.values() if c.category == "special_attack"]
    assert all(set(c.uses) == set(USES) for c in damage)
    full = [c for c in special if set(c.uses) == set(USES)]
    assert len(full) > len(special) / 2
    assert len(full) < len(special)  # e.g. Pickpocket (no remote), Deadly Poison (no trap)
    assert set(DATA.cards["pickpocket"].uses) == {"trap", "adjacent"}
    assert set(DATA.cards["deadly-poison"].uses) == {"adjacent", "remote"}


def test_damage_card_names_follow_attack_NN_plus_XX_MC_6_FL_ATK_2():
    """MC-6, FL-ATK-2, C-1, C-3: 「攻撃○○」 without a special, 「攻撃○○＋△△」 with one; ○○ is the power."""
    digits = str.maketrans("０１２３４５６７８９", "0123456789")
    for card in DATA.cards.values():
        if card.category != "damage":
            continue
        match = re.fullmatch(r"攻撃([０-９]+)(＋.+)?", card.name["ja"])
        assert match, card.name["ja"]
        assert int(match.group(1).translate(digits)) == card.power
        assert (match.group(2) is not None) == (card.special is not None), card.id
        assert card.name["en"].startswith(f"Attack {card.power}")


# ---------------------------------------------------------------- the named cards and families


def test_every_named_card_and_family_of_20_2_exists_C_1_to_C_31():
    """Spec §20.2: the named cards with the ids the imps and necromancers use, and every family."""
    cards = DATA.cards
    assert [c for c in cards.values() if c.category == "damage" and c.special is None]  # C-1
    assert cards["attack-20"].power == 20 and cards["attack-20"].special is None  # C-2
    assert [c for c in cards.values() if c.category == "damage" and c.special]  # C-3
    assert (cards["attack-15-cp-drain"].power, cards["attack-15-cp-drain"].special) == (15, "cp_drain")  # C-4, C-5
    named = {  # C-6..C-15
        "hp-poison": "hp_poison",
        "cp-poison": "cp_poison",
        "stripped": "stripped",
        "fool": "fool",
        "sluggish": "sluggish",
        "blind": "blind",
        "exposed": "exposed",
        "loss": "loss",
        "misfortune": "misfortune",
        "treasure-toss": "treasure_toss",
    }
    for card_id, special in named.items():
        card = cards[card_id]
        assert card.category == "special_attack" and card.special == special
        assert {"trap", "adjacent"} <= set(card.uses)  # imp traps and necromancer magic use them
    assert ops(cards["fake"]) == {"fake"}  # C-16
    reduction = [c for c in cards.values() if c.defense == "reduction"]
    assert {c.name["ja"] for c in reduction} >= {"防御５", "防御１０", "防御２０", "ダメージ防御"}  # C-17, C-18
    traps = [c for c in cards.values() if c.defense == "trap"]
    assert traps and all(c.name["ja"].startswith("罠") for c in traps)  # C-19: 罠○○
    assert [c.id for c in cards.values() if c.defense == "special"] == ["special-defense"]  # C-20
    assert [c.id for c in cards.values() if c.defense == "complete"] == ["complete-defense"]  # C-21
    counters = {c.id: c.counter for c in cards.values() if c.defense == "counter"}  # C-22..C-24
    assert counters == {"deflect": "redirect", "drag-along": "both", "counter": "return"}
    by_category = Counter(c.category for c in cards.values())
    for category in ("summon", "recovery", "utility", "special_utility", "influence", "terrain", "unclassifiable"):
        assert by_category[category] >= 5, category  # C-25..C-31


def test_defense_classes_MC_8_FL_ATK_6():
    """MC-8, FL-ATK-6: exactly 5 defense classes; special and complete defense are single cards;
    exactly three counter cards; some defense cards do not remove a trap."""
    defense = [c for c in DATA.cards.values() if c.category == "defense"]
    assert {c.defense for c in defense} == {"reduction", "trap", "special", "complete", "counter"}
    assert Counter(c.defense for c in defense)["counter"] == 3
    assert [c.id for c in defense if c.keeps_trap or c.seize] == ["trap-sidestep", "trap-seize"]


def test_every_plus_and_minus_status_comes_from_some_card_MC_12_MC_13_FL_STS_13():
    """MC-12, MC-13, FL-STS-13: each of the 9 plus statuses from a utility card, each minus
    status from a special attack, Paralysis (monsters only) from an influence card."""
    given = {card.id: statuses_given(card) for card in DATA.cards.values()}
    for status in DATA.statuses.values():
        sources = [cid for cid, got in given.items() if status.id in got]
        assert sources, status.id
        categories = {DATA.cards[cid].category for cid in sources}
        if status.kind == "plus":
            assert "utility" in categories, status.id
        elif status.id == "paralysis":
            assert "influence" in categories
        else:
            assert "special_attack" in categories, status.id


def test_terrain_movement_recovery_and_player_target_cards_MC_9_to_MC_17():
    """MC-9 terrain (wall/door to floor, freeze, create a door, area damage); MC-10 cards that move
    characters; MC-11 recovery, poison cures, Priest boosts, monster healing and monster status
    removal; MC-15 the Fake; MC-16 a player-designating card besides 《遠隔》; MC-17 card theft."""
    cards = DATA.cards.values()
    terraforms = {(e.terrain, o) for c in cards for e in c.effects if e.op == "terraform" for o in e.only}
    assert {("floor", "wall"), ("floor", "door"), ("ice", "floor"), ("door", "floor")} <= terraforms
    assert [c for c in cards if c.category == "terrain" and "blast" in ops(c)]
    assert {"teleport", "dash", "push", "swap"} <= {op for c in cards for op in ops(c)}
    heals = [c for c in cards if c.category == "recovery" and any(e.op == "heal" for e in c.effects)]
    assert any(e.priest for c in heals for e in c.effects)
    cures = {s for c in cards if c.category == "recovery" for e in c.effects if e.op == "cure" for s in e.statuses}
    cures |= {e.status for c in cards if c.category == "recovery" for e in c.effects if e.status}
    assert {"hp_poison", "cp_poison", "stripped", "sluggish", "fool", "blind", "exposed"} <= cures
    assert any(c.target in {"monster", "own_monster"} and "heal" in ops(c) for c in cards)
    assert any(c.target in {"monster", "own_monster"} and "dispel" in ops(c) for c in cards)
    assert any(c.target == "player" for c in cards)
    assert any(c.special == "steal_card" for c in cards)


@pytest.mark.parametrize("preset", PRESETS)
def test_one_summon_card_per_roster_monster_and_none_other_MC_14(preset):
    """MC-14: every monster of the preset's roster has a summon card in its set, no other does."""
    roster = set(DATA.presets[preset].settings["monster_roster"])
    summons = {DATA.cards[k].monster for k in kinds_in(preset) if DATA.cards[k].category == "summon"}
    assert summons == roster
    assert all(f"summon-{m}" in DATA.cards for m in roster)


# ---------------------------------------------------------------- broken content files


def _broken_copy(tmp_path: pathlib.Path, file: str, old: str, new: str) -> pathlib.Path:
    root = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, root)
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


BROKEN = [
    ("cards.toml", 'id = "potion"\n', 'id = "potion"\nflavour = 1\n', "potion", "flavour"),
    ("cards.toml", 'op = "heal", amount = 25', 'op = "mend", amount = 25', "potion", "unknown effect op 'mend'"),
    ("cards.toml", 'status = "keen_ear"', 'status = "clairvoyance"', "keen-ear", "unknown status 'clairvoyance'"),
    ("cards.toml", "uses = { trap = 4, adjacent = 9, remote = 16 }", "uses = { trap = 9, adjacent = 4, remote = 16 }",
     "attack-20", "trap < adjacent < remote"),
    ("cards.toml", 'target = "adjacent_wall"', 'target = "anywhere"', "tunnel", "unknown target 'anywhere'"),
    ("cards.toml", 'name = { en = "Potion", ja = "傷薬" }', 'name = { en = "Potion" }', "potion", "lacks the ja"),
    ("cards.toml", "copies = 10\ncost = 4", "copies = 11\ncost = 4", "fated-labyrinth",
     "exactly 500 cards, got 501"),
    ("cards.toml", 'purpose = "The common heal: undoes one good hit."', 'purpose = ""', "potion", "purpose"),
    ("cards.toml", 'effects = [{ op = "push", length = 3 }]', 'effects = [{ op = "push" }]', "knockback",
     "needs 'length'"),
    ("presets/level-d.toml", "summon-minotaur = 2", "summon-minotaur = 0\nattack-5 = 12", "level-d",
     "no summon card in the set for ['minotaur']"),
    ("presets/fated-labyrinth.toml", "[classes]", "[deck]\nsummon-minotaur = 1\nattack-5 = 9\n\n[classes]",
     "fated-labyrinth", "'minotaur' is not in its roster"),
    ("cards.toml", "[[card]]\nid = \"potion\"", "[[card]\nid = \"potion\"", "(file)", "not valid TOML"),
]  # fmt: skip


@pytest.mark.parametrize(("file", "old", "new", "key", "reason"), BROKEN)
def test_a_broken_content_file_fails_with_file_card_and_reason_FL_CARD_3(tmp_path, file, old, new, key, reason):
    """FL-CARD-3: the catalogue is validated against its schema at load; a broken file fails fast
    with the file, the card (or preset) and the reason."""
    root = _broken_copy(tmp_path, file, old, new)
    with pytest.raises(ContentError) as error:
        content.load_from(root)
    # the file named is the broken one, or the preset whose 500-card set no longer adds up
    expected = f"presets/{key}.toml" if key in PRESETS else file
    assert error.value.file.endswith(expected), error.value.file
    assert str(root) in error.value.file
    assert error.value.key == key
    assert reason in error.value.reason


def test_the_packaged_content_loads_from_a_copy(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, root)
    assert content.load_from(root).copies("level-d") == DATA.copies("level-d")


# ---------------------------------------------------------------- delve cards, docs/cards.md


def test_delve_cards_prints_an_aligned_table_in_english(capsys):
    assert cli.main(["cards"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["id", "name", "category"]
    row = next(line for line in out if line.startswith("attack-20 "))
    assert "Attack 20" in row and "trap 4 / adj 9 / remote 16" in row and " 18 " in row
    assert out[-1] == f"{len(kinds_in('fated-labyrinth'))} kinds, 500 cards per set"
    assert not any(line.startswith("summon-minotaur") for line in out)
    # aligned: the copies column ends at the same place on every card line
    ends = {catalogue.width(line.split("  Deals")[0]) for line in out if "  Deals " in line}
    assert len(ends) == 1


def test_delve_cards_in_japanese_for_level_d_uses_its_words_and_roster(capsys):
    """P-26: Level D says ワナ; its set has the Minotaur and no Dragon."""
    assert cli.main(["cards", "--lang", "ja", "--preset", "level-d"]) == 0
    out = capsys.readouterr().out
    assert "ワナ解除" in out and "罠解除" not in out
    assert "ミノタウロス召喚" in out and "ドラゴン召喚" not in out
    assert out.rstrip().endswith(f"{len(kinds_in('level-d'))}種類、1組500枚")


def test_docs_cards_md_holds_the_current_catalogue_and_vocabulary():
    """docs/cards.md embeds ``delve cards --markdown`` (the target words, the effect ops and the
    catalogue); regenerate those sections when the catalogue or the effects change."""
    text = DOCS.read_text(encoding="utf-8")
    assert catalogue.reference() in text
    assert catalogue.markdown() in text
