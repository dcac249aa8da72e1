"""Monsters: rosters, summoning, action counts, timing, movement, attacks, statuses, death and
views (spec §13 FL-MON-1..22 with §11, §14, AMB-39..41, AMB-45..47, AMB-67, AMB-77/78).

The specials (imp, necromancer, breath) are in ``test_monster_specials.py``."""

from __future__ import annotations

from importlib import resources

import pytest

from delve.fated import combat, content, death, monsters, statuses, turns
from delve.fated.ctx import Ctx
from delve.fated.state import Monster, Trap
from delve.kernel import ContentError

from .monster_kit import activate, kinds, put, reseeded, runs, xy_of
from .scenario import Scenario

# A corridor on row 1 (x = 1..7); the players stand apart on rows 3 and 5.
CORRIDOR = [
    "#########",
    "#.......#",
    "#########",
    "#1.....2#",
    "#########",
    "#3#4#####",
    "#########",
    "#########",
    "#########",
]
SUMMONER_FIRST = ["summoner", "explorer", "explorer", "explorer"]


def corridor(row: str, *, preset: str = "fated-labyrinth", classes: list[str] | None = None, **kw) -> Scenario:
    """CORRIDOR with row 1 replaced (digits there move those players into the corridor)."""
    rows = list(CORRIDOR)
    rows[1] = row
    for digit in "1234":
        if digit in row:
            rows = [r.replace(digit, ".") if i != 1 else r for i, r in enumerate(rows)]
    settings = {"players": 4} if preset == "level-d" else {}
    return Scenario.from_map(rows, preset=preset, classes=classes, **settings, **kw)


# ---------------------------------------------------------------- rosters (content)

FL_TABLE = {  # FL-MON-2: hp, attack, defense, evasion, actions, glyph (FL-VIS-7)
    "slime": (30, 6, 0, 0, (1, 1), "粘", "スライム"),
    "zombie": (45, 9, 0, 0, (1, 1), "腐", "ゾンビ"),
    "ghost": (25, 9, 0, 20, (1, 2), "霊", "ゴースト"),
    "imp": (35, 13, 0, 5, (1, 1), "妖", "インプ"),
    "necromancer": (40, 11, 0, 5, (1, 1), "術", "ネクロマンサー"),
    "golem": (50, 18, 2, 2, (1, 1), "像", "ゴーレム"),
    "dragon": (70, 17, 1, 5, (1, 2), "龍", "ドラゴン"),
}
LD_TABLE = {  # FL-MON-2, AMB-65 (8 kinds), AMB-67 (glyphs)
    "slime": (30, 6, 0, 0, (1, 1), "粘", "スライム"),
    "mimic": (45, 9, 0, 0, (1, 1), "箱", "ミミック"),
    "wisp": (25, 9, 0, 20, (1, 2), "灯", "ウィスプ"),
    "imp": (35, 13, 0, 5, (1, 1), "妖", "インプ"),
    "necromancer": (40, 11, 0, 5, (1, 1), "術", "ネクロマンサー"),
    "ogre": (50, 18, 2, 2, (1, 1), "鬼", "オーガ"),
    "gargoyle": (70, 17, 1, 5, (1, 2), "像", "ガーゴイル"),
    "minotaur": (100, 20, 1, 2, (1, 1), "牛", "ミノタウロス"),
}
SUMMONER_HP = {"slime": 45, "zombie": 67, "mimic": 67, "ghost": 37, "wisp": 37, "imp": 52, "necromancer": 60}
SUMMONER_HP |= {"golem": 75, "ogre": 75, "dragon": 105, "gargoyle": 105, "minotaur": 150}


@pytest.mark.parametrize(("preset", "table"), [("fated-labyrinth", FL_TABLE), ("level-d", LD_TABLE)])
def test_each_preset_has_its_roster_as_content_data(preset, table):
    """FL-MON-2, AMB-65, AMB-67, FL-VIS-7: FL has 7 kinds, LD 8 with the Minotaur."""
    data = content.load()
    roster = data.presets[preset].settings["monster_roster"]
    assert list(roster) == list(table)
    for kind, (hp, attack, defense, evasion, actions, glyph, ja) in table.items():
        m = data.monsters[kind]
        assert (m.hp, m.attack, m.defense, m.evasion, tuple(m.actions), m.glyph) == (
            hp,
            attack,
            defense,
            evasion,
            actions,
            glyph,
        )
        assert m.name["ja"] == ja and m.name["en"]
    specials = {k: data.monsters[k].special for k in table if data.monsters[k].special}
    breather = "dragon" if preset == "fated-labyrinth" else "gargoyle"
    assert specials == {"imp": "imp", "necromancer": "necromancer", breather: "breath"}


ENGLISH_GLYPHS = {  # the English screen's map glyphs: the first letter(s) of the English name
    "fated-labyrinth": {"slime": "S", "zombie": "Z", "ghost": "Gh", "imp": "I", "necromancer": "N", "golem": "Go",
                        "dragon": "D"},
    "level-d": {"slime": "S", "mimic": "Mi", "wisp": "W", "imp": "I", "necromancer": "N", "ogre": "O",
                "gargoyle": "G", "minotaur": "Mn"},
}  # fmt: skip


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_each_roster_has_unique_glyphs_in_both_languages_FL_VIS_7(preset):
    """FL-VIS-7, AMB-67: a glyph tells one kind of the roster apart on the map, in Japanese (the
    kanji) and in English (one or two letters the English name starts with: S, Gh, Go, Mi, Mn);
    ``text.monster_glyph`` gives the screen's."""
    from delve.fated import text

    data = content.load()
    roster = data.presets[preset].settings["monster_roster"]
    english = {kind: data.monsters[kind].glyph_en for kind in roster}
    assert english == ENGLISH_GLYPHS[preset]
    for kind, letters in english.items():
        name = data.monsters[kind].name["en"]
        assert letters[0] == name[0] and letters[1:] in name[1:], (kind, letters)  # "Mn": M…n of Minotaur
        assert text.monster_glyph(kind, "en") == letters and text.monster_glyph(kind, "en-gb") == letters
        assert text.monster_glyph(kind, "ja") == data.monsters[kind].glyph
    for lang in ("en", "ja"):
        glyphs = [text.monster_glyph(kind, lang) for kind in roster]
        assert len(set(glyphs)) == len(roster), (lang, glyphs)
    assert text.monster_glyph(None, "en") == "?" and text.monster_glyph("basilisk", "ja", default="蛇") == "蛇"


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"),
    [
        ('glyph_en = "Gh"', 'glyph_en = "Go"', "fated-labyrinth", "share the glyph_en ['Go']"),
        ('glyph = "牛"', 'glyph = "箱"', "level-d", "share the glyph ['箱']"),
        ('glyph_en = "Mn"', 'glyph_en = "牛"', "minotaur", "one or two Latin letters"),
        ('glyph_en = "Mn"', 'glyph_en = "Min"', "minotaur", "one or two Latin letters"),
    ],
)
def test_a_roster_with_a_shared_or_bad_glyph_does_not_load_FL_VIS_7(tmp_path, old, new, key, reason):
    """FL-VIS-7: two kinds of one roster with the same glyph (either language), or an English
    glyph that is not one or two Latin letters, fail when the content loads."""
    import shutil

    root = tmp_path / "content"
    shutil.copytree(str(resources.files("delve.fated") / "content"), root)
    path = root / "monsters.toml"
    source = path.read_text(encoding="utf-8")
    assert old in source
    path.write_text(source.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ContentError) as error:
        content.load_from(root)
    assert error.value.key == key
    assert reason in error.value.reason


def test_imp_and_necromancer_options_name_the_spec_cards():
    """FL-MON-24 (13 options), FL-MON-28 (10 magic effects): the named cards exist."""
    data = content.load()
    imp, necro = data.monsters["imp"], data.monsters["necromancer"]
    assert len(imp.sets) == 13 and len(set(imp.sets)) == 13 and "fake" in imp.sets
    assert {data.cards[c].name["ja"] for c in imp.sets if c != "fake"} == {
        "攻撃２０",
        "攻撃１５＋ＣＰ減少",
        "ＨＰ毒",
        "ＣＰ毒",
        "丸裸",
        "愚者",
        "鈍化",
        "目潰し",
        "筒抜け",
        "紛失",
        "不幸",
        "宝飛ばし",
    }
    assert len(necro.magic) == 10
    assert {data.cards[c].name["ja"] for c in necro.magic} == {
        "ＨＰ毒",
        "ＣＰ毒",
        "丸裸",
        "愚者",
        "鈍化",
        "目潰し",
        "筒抜け",
        "紛失",
        "不幸",
        "宝飛ばし",
    }


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ('"attack-20", "attack-15-cp-drain"', '"defense-5", "attack-15-cp-drain"', "sets: 'defense-5'"),
        (
            '"hp-poison", "cp-poison", "stripped", "fool", "sluggish", "blind", "exposed", "loss", "misfortune",\n',
            '"attack-20", ',
            "magic: 'attack-20'",
        ),
    ],
)
def test_a_monster_option_that_names_no_fitting_card_fails_loading(tmp_path, old, new, reason):
    """FL-MON-24/28 as data: the imp's traps must be cards with a 《罠》 use, the magic special
    attack cards; a broken entry names the file, the monster and the reason."""
    root = resources.files("delve.fated") / "content"
    for name in ("classes.toml", "statuses.toml", "monsters.toml", "cards.toml"):
        (tmp_path / name).write_text(root.joinpath(name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "presets").mkdir()
    for name in ("fated-labyrinth.toml", "level-d.toml"):
        (tmp_path / "presets" / name).write_text(root.joinpath("presets", name).read_text(encoding="utf-8"))
    monsters_toml = tmp_path / "monsters.toml"
    text = monsters_toml.read_text(encoding="utf-8")
    assert old in text
    monsters_toml.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        content.load_from(tmp_path)
    assert caught.value.file == f"{tmp_path}/monsters.toml"
    assert caught.value.key == ("imp" if reason.startswith("sets") else "necromancer")
    assert reason in caught.value.reason


# ---------------------------------------------------------------- summoning


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_a_summoners_monsters_have_one_and_a_half_hp_rounded_down(preset):
    """FL-MON-3, FL-CLS-4, AMB-45; FL-MON-1: the summoner is the owner."""
    roster = content.load().presets[preset].settings["monster_roster"]
    for cls, expect in (("summoner", SUMMONER_HP), ("explorer", None)):
        game = corridor("#1......#", preset=preset, classes=[cls, "explorer", "explorer", "explorer"])
        for kind in roster:
            monster = put(game, 0, kind, 4, 1)
            table_hp = content.load().monsters[kind].hp
            assert monster.owner == 0
            assert monster.hp == (expect[kind] if expect else table_hp)
            assert monster.summoner_bonus is (cls == "summoner")
            game.state.monsters.clear()


def test_summon_goes_to_an_adjacent_free_tile_heading_away_from_the_summoner():
    """AMB-46, FL-MON-1: the monster stands next to its summoner, heading away; the event is
    public and names no tile (FL-INFO-4)."""
    game = Scenario.from_map(
        [
            "#########",
            "#.#.....#",
            "#+1.2...#",
            "#.......#",
            "#########",
            "#3#4#####",
            "#########",
            "#########",
            "#########",
        ]
    )
    ctx = game.ctx
    owner = game.p(0)
    tiles = monsters.summon_tiles(ctx, owner)
    assert tiles == {"down": game.at(2, 3), "right": game.at(3, 2)}  # not the wall, door or player
    monster = monsters.summon(ctx, owner, "slime", game.at(2, 3))
    assert monster.heading == "down" and monster.pos == game.at(2, 3)
    [event] = ctx.events
    assert event.kind == "monster.summoned" and event.to is None
    assert event.data == {"owner": 0, "monster": "slime"}
    assert monsters.summon_tiles(ctx, owner) == {"right": game.at(3, 2)}  # monsters occupy tiles
    for tile in (game.at(1, 2), game.at(2, 1), game.at(4, 2), game.at(2, 3)):  # door, wall, player, monster
        with pytest.raises(ValueError, match="cannot summon"):
            monsters.summon(ctx, owner, "slime", tile)
    far = monsters.summon(ctx, owner, "slime", game.at(7, 3))  # placing farther (tests only)
    assert far.heading == "right"
    with pytest.raises(ValueError, match="roster"):
        monsters.summon(ctx, owner, "minotaur", game.at(3, 2))  # a Level D monster in FL


# ---------------------------------------------------------------- action counts


def _counts(game: Scenario, monster: Monster, seeds: int = 80) -> set[int]:
    out = set()
    for seed in range(seeds):
        copy = reseeded(game, seed)
        out.add(monsters.action_count(copy.ctx, copy.state.monster(monster.id)))
    return out


@pytest.mark.parametrize(
    ("kind", "cls", "haste", "expected"),
    [
        ("slime", "explorer", False, {1}),
        ("slime", "summoner", False, {2}),
        ("ghost", "explorer", False, {1, 2}),
        ("ghost", "summoner", False, {2, 3}),
        ("dragon", "summoner", False, {2, 3}),
        ("golem", "explorer", True, {2}),
        ("dragon", "summoner", True, {3, 4}),
    ],
)
def test_action_counts_with_the_random_ones_the_summoner_bonus_and_haste(kind, cls, haste, expected):
    """FL-MON-4, FL-STS-16, AMB-41, AMB-45: "1-2" is rolled at each activation, +1 for a
    Summoner's monster, +1 with Haste."""
    game = corridor("#1......#", classes=[cls, "explorer", "explorer", "explorer"])
    monster = put(game, 0, kind, 4, 1)
    if haste:
        assert statuses.apply(game.ctx, monster, "haste")
    assert _counts(game, monster) == expected


def test_a_summoners_dragon_has_105_hp_two_or_three_actions_and_breathes_for_17():
    """T-9 (FL-MON-3/4, FL-MON-32)."""
    game = corridor("#1......#", classes=SUMMONER_FIRST)
    dragon = put(game, 0, "dragon", 4, 1)
    assert dragon.hp == 105
    assert _counts(game, dragon) == {2, 3}
    assert monsters.BREATH_POWER == 17 == content.load().monsters["dragon"].attack


def test_each_action_of_a_monster_is_a_step():
    """FL-MON-4 end to end: a slime walks 1 tile per activation, a Summoner's slime 2, and a
    Summoner's slime with Haste 3 (FL-STS-16)."""
    for cls, haste, steps in (("explorer", False, 1), ("summoner", False, 2), ("summoner", True, 3)):
        game = corridor("#.......#", classes=[cls, "explorer", "explorer", "explorer"])
        slime = put(game, 0, "slime", 1, 1)
        if haste:
            statuses.apply(game.ctx, slime, "haste")
        activate(game, 0)
        assert xy_of(game, slime.id) == (1 + steps, 1)


# ---------------------------------------------------------------- timing and order


def test_monsters_act_at_their_owners_turn_start_event_only():
    """FL-MON-6, FL-TURN-14: a monster moves when its owner's wait phase ends, not at other
    players' events."""
    game = corridor("#.......#")
    slime = put(game, 0, "slime", 1, 1)
    instants = sorted((p.first_at, p.seat) for p in game.state.players)
    x = 1
    for at, seat in instants:
        game.tick(at - game.now)
        if seat == 0:
            x += 1
        assert xy_of(game, slime.id) == (x, 1), f"after seat {seat}'s accumulation"
    assert x == 2


def test_monsters_act_when_a_stored_turn_starts_at_once():
    """FL-MON-6: "or when the wait time has elapsed and the wait phase is skipped"."""
    game = corridor("#.......#")
    slime = put(game, 0, "slime", 1, 1)
    game.to_core(0)
    assert xy_of(game, slime.id) == (1, 1)
    game.p(0).stored = 1
    game.play(0, {"kind": "nothing"})
    assert xy_of(game, slime.id) == (2, 1)
    assert game.p(0).phase == "move"


def test_an_owners_monsters_act_in_summoning_order_each_finishing_first():
    """AMB-41, AMB-77: the first-summoned monster moves first, so the one behind it can follow
    (in the other order it would find the way blocked and turn back)."""
    game = corridor("#.......#", classes=SUMMONER_FIRST)  # two actions each
    first = put(game, 0, "slime", 3, 1)
    second = put(game, 0, "slime", 2, 1)
    activate(game, 0)
    assert xy_of(game, first.id) == (5, 1)
    assert xy_of(game, second.id) == (4, 1)


# ---------------------------------------------------------------- movement


def test_a_monster_keeps_its_heading_and_turns_back_only_at_a_dead_end():
    """AMB-39, FL-MON-11: walls turn it; the way back is taken only when nothing else is left."""
    game = corridor("#.......#")
    slime = put(game, 0, "slime", 7, 1, heading="right")
    activate(game, 0)
    assert xy_of(game, slime.id) == (6, 1)
    assert game.state.monster(slime.id).heading == "left"
    activate(game, 0)
    assert xy_of(game, slime.id) == (5, 1)


def test_at_a_fork_the_direction_is_random_and_never_back():
    """FL-MON-7, AMB-39."""
    game = Scenario.from_map(
        [
            "#########",
            "#########",
            "#.......#",
            "####.####",
            "####.####",
            "#########",
            "#1#2#3#4#",
            "#########",
            "#########",
        ]
    )
    slime = put(game, 0, "slime", 4, 2, heading="up")
    seen = {xy_of(copy, slime.id) for copy, _ in runs(game, 0, seeds=40)}
    assert seen == {(3, 2), (5, 2)}


def test_a_monster_goes_around_its_owner_another_monster_a_door_or_a_wall():
    """FL-MON-9, FL-MON-10, FL-MON-11, AMB-47: blocked ahead, it moves another way (here the
    only one is back); it never attacks the owner, another monster or a door."""
    cases = {
        "owner": "#...1...#",
        "monster": "#.......#",
        "door": "#...+...#",
        "wall": "#...#...#",
    }
    for case, row in cases.items():
        game = corridor(row)
        slime = put(game, 0, "slime", 3, 1)
        other = put(game, 1, "golem", 4, 1) if case == "monster" else None
        events = activate(game, 0)
        assert xy_of(game, slime.id) == (2, 1), case
        assert "monster.attack" not in kinds(events), case
        assert all(not p.pending for p in game.state.players), case
        if other is not None:
            assert game.state.monster(other.id).hp == 50
        assert game.state.door_hp == {}


def test_a_monster_that_can_neither_move_nor_attack_stays():
    """FL-MON-12, AMB-39: boxed in by its owner; the heading is kept."""
    game = Scenario.from_map(
        [
            "#########",
            "#.1######",
            "#########",
            "#2......#",
            "#########",
            "#3#4#####",
            "#########",
            "#########",
            "#########",
        ]
    )
    slime = put(game, 0, "slime", 1, 1, heading="left")
    activate(game, 0)
    assert xy_of(game, slime.id) == (1, 1)
    assert game.state.monster(slime.id).heading == "left"


def test_monsters_do_not_trigger_traps_or_slip_and_walk_over_items():
    """FL-MON-13, FL-TRAP-3, FL-MAP-9, AMB-39, AMB-47: a Summoner's slime (2 actions) crosses
    ice and a trap tile one step at a time; the trap stays, nobody gets an item, and treasure,
    exit, fake and checkpoint tiles are walked over unchanged."""
    game = corridor("#.~.TECt#", classes=SUMMONER_FIRST)
    game.state.traps[game.at(3, 1)] = Trap(card="attack-20", setter=1)
    grid = game.state.grid
    slime = put(game, 0, "slime", 1, 1)
    activate(game, 0)
    assert xy_of(game, slime.id) == (3, 1)  # one tile per action on ice: no slip
    assert game.at(3, 1) in game.state.traps
    for _ in range(2):
        activate(game, 0)
    assert xy_of(game, slime.id) == (7, 1)
    assert game.state.grid == grid
    assert all(not p.pending for p in game.state.players)


# ---------------------------------------------------------------- attacking


def _victim_ready(game: Scenario, seat: int) -> None:
    game.p(seat).evasion = 0
    game.start_turn(seat)
    assert game.p(seat).phase == "defense"


def test_a_monster_attacks_an_adjacent_player_other_than_its_owner_instead_of_moving():
    """FL-MON-8, FL-MON-19, FL-ATK-5: a pending normal attack with the monster's base attack,
    credited to the owner; the public event names owner, kind and target, no tile."""
    game = corridor("#...2...#")
    golem = put(game, 0, "golem", 3, 1)
    events = activate(game, 0)
    assert xy_of(game, golem.id) == (3, 1)
    [item] = game.p(1).pending
    assert (item.kind, item.row, item.power, item.source, item.monster, item.label) == (
        "attack",
        "dmg_adjacent",
        18,
        0,
        golem.id,
        "monster",
    )
    [event] = [e for e in events if e.kind == "monster.attack"]
    assert event.to is None and event.data == {"owner": 0, "monster": "golem", "target": 1}


def test_an_attack_ends_the_monsters_actions():
    """FL-MON-5: a Summoner's golem (2 actions) attacks once; a Summoner's slime steps next to
    the player with its first action and attacks with its second."""
    game = corridor("#...2...#", classes=SUMMONER_FIRST)
    put(game, 0, "golem", 3, 1)
    activate(game, 0)
    assert len(game.p(1).pending) == 1

    game = corridor("#.....2.#", classes=SUMMONER_FIRST)
    slime = put(game, 0, "slime", 4, 1)
    activate(game, 0)
    assert xy_of(game, slime.id) == (5, 1)
    assert [i.power for i in game.p(1).pending] == [6]


def test_never_the_owner_and_a_random_one_of_several_targets_even_under_stealth():
    """FL-MON-8, AMB-40: the owner is never attacked; among several adjacent players one is
    chosen at random; Stealth does not protect (FL-STS-18)."""
    game = Scenario.from_map(
        [
            "#########",
            "####2####",
            "###1.3###",
            "#########",
            "#########",
            "#4#######",
            "#########",
            "#########",
            "#########",
        ]
    )
    statuses.apply(game.ctx, game.p(2), "stealth")
    golem = put(game, 0, "golem", 4, 2, heading="up")
    targets = set()
    for copy, events in runs(game, 0, seeds=30):
        [event] = [e for e in events if e.kind == "monster.attack"]
        targets.add(event.data["target"])
        assert not copy.p(0).pending
        assert xy_of(copy, golem.id) == (4, 2)
    assert targets == {1, 2}


def test_a_monster_attack_is_defended_like_a_normal_attack():
    """FL-MON-19, FL-ATK-5, FL-ATK-8: reduction, complete defense and counters are offered; trap
    countermeasures, special defense and parry are not; evasion applies (FL-ATK-12)."""
    game = corridor("#...2...#", classes=["explorer", "warrior", "explorer", "explorer"])
    put(game, 0, "golem", 3, 1)
    hand = game.set_hand(1, "defense-5", "trap-disarm", "special-defense", "complete-defense", "counter")
    activate(game, 0)
    assert game.p(1).pending[0].row in combat.EVADABLE_ROWS
    _victim_ready(game, 1)
    offered = {c.get("card") for c in game.legal(1) if c["kind"] == "defend"}
    assert offered == {hand[0], hand[3], hand[4]}
    assert "parry" not in game.kinds(1) and "no_defense" in game.kinds(1)
    game.play(1, {"kind": "no_defense"})
    assert game.p(1).hp == 120 - (18 - 3)  # reduced by the warrior's base defense


def test_a_counter_against_a_monster_attack_hits_the_monster():
    """FL-MON-19, FL-ATK-16, AMB-30: the attack returns to the monster, which defends with its
    base defense only (FL-MON-14); the defender takes nothing."""
    game = corridor("#...2...#")
    golem = put(game, 0, "golem", 3, 1)
    golem.evasion = 0
    [counter] = game.set_hand(1, "counter")
    activate(game, 0)
    _victim_ready(game, 1)
    events = game.play(1, {"kind": "defend", "card": counter})
    assert game.p(1).hp == 120
    assert game.state.monster(golem.id).hp == 50 - (18 - 2)
    [hit] = [e for e in events if e.kind == "monster.attacked"]
    assert hit.data["label"] == "reflected" and hit.data["attacker"] == 1


def test_deflecting_a_monster_attack_may_send_it_to_the_owner():
    """AMB-30: "against monster attacks the source is the monster", so Deflect picks among all
    other living players, the owner included; the deflecting player becomes the source."""
    game = corridor("#...2...#")
    put(game, 0, "golem", 3, 1)
    for seat in (2, 3):
        game.p(seat).alive = False
    [deflect] = game.set_hand(1, "deflect")
    activate(game, 0)
    _victim_ready(game, 1)
    game.play(1, {"kind": "defend", "card": deflect})
    [item] = game.p(0).pending
    assert item.reflected and item.source == 1 and item.power == 18 and item.monster is None


def test_a_kill_by_a_monster_credits_its_owner():
    """FL-KILL-2, FL-MON-19."""
    game = corridor("#...2...#")
    put(game, 0, "golem", 3, 1)
    activate(game, 0)
    game.p(1).hp = 5
    _victim_ready(game, 1)
    for seed in range(40):
        copy = reseeded(game, seed)
        copy.play(1, {"kind": "no_defense"})
        if not copy.p(1).alive:
            break
    else:
        raise AssertionError("the death check never failed")
    assert copy.p(0).kills == 1 and copy.p(2).kills == copy.p(3).kills == 0
    [died] = [e for e in copy.events if e.kind == "player.died"]
    assert died.data["credited"] == [0]


def test_a_monster_attack_still_resolves_after_its_owner_died_and_credits_every_survivor():
    """FL-DEATH-6, FL-KILL-4, FL-MON-18: the owner's monsters vanish with it; their items still
    resolve; a kill then goes to every surviving player."""
    game = corridor("#...2...#")
    put(game, 0, "golem", 3, 1)
    activate(game, 0)
    death.die(game.ctx, game.p(0), credit=death.CREDIT_NONE, cause="test")
    assert game.state.monsters == []
    game.p(1).hp = 5
    _victim_ready(game, 1)
    for seed in range(40):
        copy = reseeded(game, seed)
        copy.play(1, {"kind": "no_defense"})
        if not copy.p(1).alive:
            break
    else:
        raise AssertionError("the death check never failed")
    assert [p.kills for p in copy.state.players] == [0, 0, 1, 1]


# ---------------------------------------------------------------- attacked monsters


def test_attacks_on_monsters_resolve_at_once_with_base_defense_and_vanish_at_zero():
    """FL-MON-14, FL-MON-15, FL-ATK-19: no defense phase; D = attack - base defense; at 0 HP it
    vanishes with no death check and no kill for anyone."""
    game = corridor("#.1.2...#", classes=["explorer"] * 4)
    golem = put(game, 0, "golem", 3, 1)
    golem.evasion = 0
    game.to_core(1)
    events = game.play(1, {"kind": "attack", "dir": "left"})
    assert game.state.monster(golem.id).hp == 50 - (14 - 2)
    assert "monster.attacked" in kinds(events)
    game.state.monster(golem.id).hp = 3
    game.to_core(1)
    events = game.play(1, {"kind": "attack", "dir": "left"})
    assert game.state.monster(golem.id) is None
    [vanished] = [e for e in events if e.kind == "monster.vanished"]
    assert vanished.data == {"monster": "golem", "owner": 0, "reason": "destroyed"}
    assert [p.kills for p in game.state.players] == [0, 0, 0, 0]


def test_monsters_block_players_and_owners_neither_attack_them_nor_walk_into_them_but_swap():
    """FL-MON-20, FL-MOVE-1, FL-MOVE-4, AMB-13: a monster occupies its tile; the owner cannot
    attack its own monster but may swap places with it in the move phase (no trap, no slip);
    an enemy monster can be attacked but not swapped with."""
    game = corridor("#1..2...#")
    own = put(game, 0, "slime", 2, 1)
    enemy = put(game, 1, "slime", 3, 1)
    game.state.traps[game.at(2, 1)] = Trap(card="attack-20", setter=1)
    game.start_turn(0)
    legal = game.legal(0)
    assert {"kind": "move", "dir": "right"} not in legal
    assert {"kind": "swap", "dir": "right"} in legal
    game.play(0, {"kind": "swap", "dir": "right"})
    assert game.p(0).pos == game.at(2, 1) and xy_of(game, own.id) == (1, 1)
    assert not game.p(0).pending  # swapping onto a trap does not trigger it
    assert game.p(0).phase == "move" and game.p(0).move_no == 2
    assert {"kind": "swap", "dir": "right"} not in game.legal(0)  # the enemy's slime
    game.play(0, {"kind": "stay"})
    attacks = [c for c in game.legal(0) if c["kind"] == "attack"]
    assert attacks == [{"kind": "attack", "dir": "right"}]  # the enemy slime, not the own one
    assert game.state.monster(enemy.id) is not None


def test_a_cat_jumps_over_any_monster():
    """FL-MON-20, FL-CORE-10: the tile jumped over may hold a monster, own or enemy."""
    for owner in (0, 1):
        game = corridor("#1......#", classes=["cat", "explorer", "explorer", "explorer"])
        slime = put(game, owner, "slime", 2, 1)
        game.to_core(0)
        assert {"kind": "jump", "dir": "right"} in game.legal(0)
        game.play(0, {"kind": "jump", "dir": "right"})
        assert game.p(0).pos == game.at(3, 1) and xy_of(game, slime.id) == (2, 1)


def test_monsters_have_no_max_hp():
    """FL-MON-16: a monster's HP is never capped (no max HP exists to clamp it)."""
    game = corridor("#.......#")
    slime = put(game, 0, "slime", 1, 1)
    assert "max_hp" not in Monster.__struct_fields__
    slime.hp = 500
    activate(game, 0)
    assert game.state.monster(slime.id).hp == 500


# ---------------------------------------------------------------- statuses on monsters


def test_which_statuses_work_on_monsters_and_that_they_last_until_removed():
    """FL-STS-2, FL-STS-3, FL-STS-7, FL-MON-17, AMB-35: Ironwall, Nimble, Haste, HP Poison,
    Stripped, Sluggish and Paralysis are recorded (with no countdown); the others are not."""
    game = corridor("#.......#")
    slime = put(game, 0, "slime", 1, 1)
    ctx = game.ctx
    works = {"ironwall", "nimble", "haste", "hp_poison", "stripped", "sluggish", "paralysis"}
    for status_id in ctx.content.statuses:
        slime.statuses = []
        assert statuses.apply(ctx, slime, status_id) is (status_id in works), status_id
        assert [s.id for s in slime.statuses] == ([status_id] if status_id in works else []), status_id
    slime.statuses = []
    works -= {"stripped", "sluggish"}  # the opposites of Ironwall and Nimble
    for status_id in sorted(works):
        statuses.apply(ctx, slime, status_id)
    assert all(s.turns == 0 for s in slime.statuses)
    slime.hp = 1000
    for _ in range(12):
        turns.turn_start_event(Ctx(game.state, game.now), game.p(0))
    assert {s.id for s in game.state.monster(slime.id).statuses} == works
    statuses.apply(ctx, game.state.monster(slime.id), "stripped")  # FL-STS-11 on a monster
    assert not statuses.active(game.state.monster(slime.id), "ironwall", ctx)


def test_statuses_change_how_monsters_take_attacks():
    """FL-STS-2, FL-ATK-19: Ironwall halves, Stripped x1.5, Sluggish 0% / Nimble +20 evasion; a
    special part applies only if it works on monsters; special effects do nothing."""
    game = corridor("#.......#")
    golem = put(game, 0, "golem", 1, 1)
    ctx = game.ctx
    assert statuses.evasion(ctx, golem) == 2
    statuses.apply(ctx, golem, "nimble")
    assert statuses.evasion(ctx, golem) == 22
    statuses.apply(ctx, golem, "sluggish")  # replaces Nimble (FL)
    assert statuses.evasion(ctx, golem) == 0
    combat.hit_monster(ctx, 1, golem, 22, "fool", label="adjacent")
    assert golem.hp == 50 - 20 and "fool" not in {s.id for s in golem.statuses}
    statuses.apply(ctx, golem, "ironwall")
    combat.hit_monster(ctx, 1, golem, 22, "loss", label="adjacent")
    assert golem.hp == 30 - 10
    combat.hit_monster(ctx, 1, golem, 12, "stripped", label="adjacent")
    assert golem.hp == 20 - 5 and statuses.active(golem, "stripped", ctx)
    combat.hit_monster(ctx, 1, golem, 12, None, label="adjacent")
    assert golem.hp == 15 - 15
    assert game.state.monster(golem.id) is None


def test_hp_poison_on_a_monster_ticks_at_the_owners_turn_start_before_it_acts():
    """FL-STS-14, AMB-78, FL-MON-15: -2 per strength; at 0 HP the monster vanishes before it
    could attack."""
    game = corridor("#...2...#")
    slime = put(game, 0, "slime", 3, 1)
    ctx = game.ctx
    statuses.apply(ctx, slime, "hp_poison")
    statuses.apply(ctx, slime, "hp_poison")
    events = activate(game, 0)
    assert game.state.monster(slime.id).hp == 30 - 4
    assert any(e.kind == "monster.poisoned" and e.to == (0,) for e in events)
    game.p(1).pending.clear()
    game.state.monster(slime.id).hp = 4
    events = activate(game, 0)
    assert game.state.monster(slime.id) is None
    assert "monster.attack" not in kinds(events) and not game.p(1).pending
    assert [e.data["reason"] for e in events if e.kind == "monster.vanished"] == ["poison"]


def test_a_paralysed_monster_does_nothing_and_paralysis_never_takes_on_a_player():
    """FL-MON-21, FL-STS-2, FL-STS-3: no attack, no move; poison still ticks; a player is never
    paralysed."""
    game = corridor("#...2...#")
    golem = put(game, 0, "golem", 3, 1)
    ctx = game.ctx
    statuses.apply(ctx, golem, "paralysis")
    statuses.apply(ctx, golem, "hp_poison")
    for _ in range(3):
        activate(game, 0)
    assert xy_of(game, golem.id) == (3, 1) and not game.p(1).pending
    assert game.state.monster(golem.id).hp == 50 - 6
    assert statuses.apply(ctx, game.p(1), "paralysis") is False
    assert not game.p(1).statuses


def test_an_owners_death_makes_all_its_monsters_vanish():
    """FL-MON-18, FL-DEATH-4: every monster of the dead player vanishes; others stay."""
    game = corridor("#.......#")
    mine = [put(game, 0, "slime", 1, 1), put(game, 0, "zombie", 3, 1)]
    theirs = put(game, 1, "golem", 6, 1)
    ctx = game.ctx
    death.die(ctx, game.p(0), credit=1, cause="test")
    assert [m.id for m in game.state.monsters] == [theirs.id]
    vanished = [e.data for e in ctx.events if e.kind == "monster.vanished"]
    assert vanished == [
        {"monster": "slime", "owner": 0, "reason": "owner_died"},
        {"monster": "zombie", "owner": 0, "reason": "owner_died"},
    ]
    assert all(game.state.monster(m.id) is None for m in mine)


# ---------------------------------------------------------------- views


def _monsters_in(view: dict) -> dict[int, dict]:
    return {c["id"]: c for c in view["characters"] if c["type"] == "monster"}


def test_views_show_monsters_in_sight_own_blue_enemy_orange():
    """FL-MON-22, FL-VIS-6, FL-VIS-7: in sight with glyph, details and own/enemy; outside sight
    not at all; a spectator sees none while the game runs."""
    game = corridor("#1..2...#")
    own = put(game, 0, "slime", 2, 1)
    enemy = put(game, 1, "dragon", 3, 1, heading="left")
    far = put(game, 1, "ghost", 6, 1)
    seen = _monsters_in(game.view(0))
    assert set(seen) == {own.id, enemy.id}
    assert seen[own.id]["own"] is True and seen[enemy.id]["own"] is False
    assert (seen[own.id]["glyph"], seen[enemy.id]["glyph"]) == ("粘", "龍")
    assert seen[enemy.id]["in_sight"] and seen[enemy.id]["hp"] == 70 and seen[enemy.id]["owner"] == 1
    assert seen[enemy.id]["tile"] == [3, 1]
    theirs = _monsters_in(game.view(1))
    assert set(theirs) == {own.id, enemy.id, far.id}
    assert theirs[far.id]["own"] is True and theirs[own.id]["own"] is False
    assert _monsters_in(game.view(None)) == {}


def test_keen_ear_shows_every_monster_with_its_position_only():
    """FL-VIS-6, FL-STS-17, FL-MON-22, FL-UI-2: under Keen Ear all monsters, own and enemy;
    outside sight only where they are and whether they are the viewer's (for the colour), not
    whose they are, nor their HP or statuses; a dead player hears nothing."""
    game = corridor("#1......#")
    near = put(game, 1, "slime", 2, 1)
    far_enemy = put(game, 1, "ghost", 7, 1)
    far_own = put(game, 0, "golem", 6, 1)
    assert set(_monsters_in(game.view(0))) == {near.id}
    statuses.apply(game.ctx, game.p(0), "keen_ear")
    seen = _monsters_in(game.view(0))
    assert set(seen) == {near.id, far_enemy.id, far_own.id}
    assert seen[far_enemy.id] == {
        "type": "monster",
        "id": far_enemy.id,
        "monster": "ghost",
        "glyph": "霊",
        "own": False,
        "tile": [7, 1],
        "in_sight": False,
    }
    assert seen[far_own.id]["own"] is True and "hp" not in seen[far_own.id]
    game.p(0).alive = False
    assert _monsters_in(game.view(0)) == {}


def test_level_d_views_use_the_level_d_glyphs():
    """AMB-67, FL-VIS-7."""
    game = corridor("#1......#", preset="level-d")
    ids = {kind: put(game, 0, kind, x, 1).id for x, kind in ((2, "gargoyle"), (3, "mimic"), (4, "minotaur"))}
    seen = _monsters_in(game.view(0))
    assert {kind: seen[i]["glyph"] for kind, i in ids.items() if i in seen} == {"gargoyle": "像", "mimic": "箱"}
    statuses.apply(game.ctx, game.p(0), "keen_ear")
    assert _monsters_in(game.view(0))[ids["minotaur"]]["glyph"] == "牛"


def test_monster_events_never_carry_a_tile():
    """FL-INFO-4: monster events name the owner and the kind, never coordinates."""
    game = corridor("#1..2...#", classes=SUMMONER_FIRST)
    put(game, 0, "golem", 3, 1, heading="left")
    put(game, 1, "slime", 6, 1)
    for seat in (0, 1, 0, 1):
        activate(game, seat)
    assert any(e.kind == "monster.attack" for e in game.events)
    for event in game.events:
        if event.kind.startswith("monster."):
            assert not {"tile", "pos", "x", "y", "at"} & set(event.data), event


def test_an_attack_on_a_monster_reports_a_special_that_does_nothing_to_it_FL_STS_2():
    """FL-STS-2, AMB-35: the public monster.attacked event names a status or special effect that
    had no effect on the monster (``no_effect``), so the log can say so; one that works is
    ``special``."""
    game = corridor("#.......#")
    golem = put(game, 0, "golem", 1, 1)
    assert combat.hit_monster(game.ctx, 1, golem, 0, "blind", label="remote", evadable=False)["no_effect"] == "blind"
    report = combat.hit_monster(game.ctx, 1, golem, 0, "stripped", label="remote", evadable=False)
    assert report["special"] == "stripped" and "no_effect" not in report
    assert "no_effect" not in combat.hit_monster(game.ctx, 1, golem, 12, None, label="adjacent", evadable=False)
