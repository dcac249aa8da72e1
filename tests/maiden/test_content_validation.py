"""Every validation rule of the White Maiden content loader refuses a broken copy of the shipped
files with ContentError(file, entry, reason), and nothing else (MV-COMP-1..9, MV-SETUP-2, OPS and
MODS of the contract)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest

from delve.kernel import ContentError
from delve.maiden import content as mc

SOURCE = Path(str(resources.files("delve.maiden") / "content"))


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(SOURCE, target)
    return target


def _replace(old: str, new: str, count: int = 1) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, f"the fixture text {old!r} is not in the file any more"
        return text.replace(old, new, count)

    return edit


def _cut_entry(table: str, entry_id: str) -> Callable[[str], str]:
    """Remove the whole ``[[table]]`` entry with this id (and its sub-tables)."""

    def edit(text: str) -> str:
        blocks = re.split(rf"(?=^\[\[{table}\]\]$)", text, flags=re.M)
        kept = [b for b in blocks if f'\nid = "{entry_id}"\n' not in b]
        assert len(kept) == len(blocks) - 1
        return "".join(kept)

    return edit


def _cut_entries(table: str, *entry_ids: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        for entry_id in entry_ids:
            text = _cut_entry(table, entry_id)(text)
        return text

    return edit


def _renumber_initial(text: str) -> str:
    """Give every initial quest a number of its own (90, 91, ...): no initial quest is left."""
    numbers = iter(range(90, 100))
    return re.sub(r"^number = 0$", lambda _: f"number = {next(numbers)}", text, flags=re.M)


def _append(extra: str) -> Callable[[str], str]:
    return lambda text: text + "\n" + extra + "\n"


def _prepend(extra: str) -> Callable[[str], str]:
    return lambda text: extra + "\n" + text


def test_the_copy_itself_loads(tmp_path: Path) -> None:
    content = mc.load_from(_copy(tmp_path))
    assert len(content.areas) == 22
    assert mc.load_from(str(_copy(tmp_path / "again"))).room_deck() == mc.load().room_deck()


CASES: list[tuple[str, str, Callable[[str], str], str, str]] = [
    # (case id, file, edit, entry key in the error, reason fragment)
    ("toml-syntax", "rooms.toml", _append("[[cards]\n"), "(file)", "not valid TOML"),
    ("unknown-top-key", "rooms.toml", _prepend("deck_size = 40"), "(file)", "unknown top-level keys"),
    # map.toml (MV-COMP-1, MISS-1, SUG-1)
    ("room-unknown-key", "map.toml", _replace('id = "a01_1"\n', 'id = "a01_1"\ncolour = "red"\n'), "(file)", "colour"),
    ("room-bad-type", "map.toml", _replace('type = "danger"', 'type = "trap"'), "(file)", "trap"),
    ("room-unknown-area", "map.toml", _replace('area = "a22"', 'area = "a23"'), "a22_1", "not an area"),
    ("room-duplicate", "map.toml", _replace('id = "a01_2"', 'id = "a01_1"'), "a01_1", "duplicate"),
    ("boss-room-no-boss", "map.toml", _replace('boss = "hod"\n', ""), "hod", "needs boss"),
    ("boss-room-in-area", "map.toml", _replace('boss = "hod"\n', 'boss = "hod"\narea = "a17"\n'), "hod", "no area"),
    ("boss-room-unknown-boss", "map.toml", _replace('boss = "hod"', 'boss = "hodd"'), "hod", "not a boss"),
    ("boss-in-two-rooms", "map.toml", _replace('boss = "hod"', 'boss = "yesod"'), "hod", "already sits"),
    (
        "boss-without-room",
        "map.toml",
        _replace('type = "boss"\nboss = "hod"', 'type = "normal"\narea = "a17"'),
        "hod",
        "no boss room",
    ),
    (
        "normal-room-names-boss",
        "map.toml",
        _replace('id = "a01_1"\n', 'id = "a01_1"\nboss = "hod"\n'),
        "a01_1",
        "only boss",
    ),
    ("start-missing", "map.toml", _replace('start = "s"', 'start = "a01_1"'), "start", "type 'start'"),
    (
        "normal-active-on-quest",
        "map.toml",
        _replace('type = "quest"', 'type = "quest"\nnormal_active = false'),
        "a21_2",
        "rest rooms only",
    ),
    (
        "player-counts-on-normal",
        "map.toml",
        _replace('id = "a01_1"\n', 'id = "a01_1"\nactive_player_counts = [1]\n'),
        "a01_1",
        "active_player_counts",
    ),
    (
        "player-count-5",
        "map.toml",
        _replace("active_player_counts = [1, 3]", "active_player_counts = [1, 5]"),
        "a12_2",
        "1..4",
    ),
    (
        "requirement-on-boss",
        "map.toml",
        _replace('boss = "hod"\n', 'boss = "hod"\nentry_requirement = ["J"]\n'),
        "hod",
        "entry requirement",
    ),
    (
        "requirement-bad-symbol",
        "map.toml",
        _replace('entry_requirement = ["J", "J"]', 'entry_requirement = ["J", "X"]'),
        "(file)",
        "X",
    ),
    ("off-grid", "map.toml", _replace("x = 5.00\ny = 0.50", "x = 5.00\ny = 10.50"), "kether", "0..10"),
    ("edge-unknown-room", "map.toml", _append('[[edges]]\na = "s"\nb = "nowhere"'), "edge s–nowhere", "not a room"),
    ("edge-loop", "map.toml", _append('[[edges]]\na = "s"\nb = "s"'), "edge s–s", "two different"),
    ("edge-duplicate", "map.toml", _append('[[edges]]\na = "malkuth"\nb = "s"'), "edge malkuth–s", "duplicate"),
    ("not-connected", "map.toml", _replace('[[edges]]\na = "s"\nb = "malkuth"\n', ""), "malkuth", "not reachable"),
    ("area-not-a-chain", "map.toml", _append('[[edges]]\na = "a03_1"\nb = "a03_3"'), "a03", "chain"),
    (
        "passage-duplicates-edge",
        "map.toml",
        _replace('a = "yesod"\nb = "tiphareth"', 'a = "yesod"\nb = "a15_3"'),
        "qesheth",
        "already joined",
    ),
    ("passage-missing-ja", "map.toml", _replace('ja = "虹の橋ケシェト"', 'ja = ""'), "qesheth", "ja"),
    ("passage-negative-ins", "map.toml", _replace("min_ins = 1", "min_ins = -1"), "qesheth", "min_ins"),
    # areas.toml (MV-COMP-3, MISS-2)
    ("area-count", "areas.toml", _cut_entry("areas", "a22"), "areas", "exactly 22"),
    ("area-duplicate", "areas.toml", _replace('id = "a02"', 'id = "a01"'), "a01", "duplicate id"),
    ("area-bad-id", "areas.toml", _replace('id = "a02"', 'id = "A02"'), "A02", "must match"),
    ("area-missing-ja", "areas.toml", _replace('ja = "愚者"', 'ja = " "'), "a01", "name lacks the ja"),
    ("area-arcanum-twice", "areas.toml", _replace("arcanum = 1\n", "arcanum = 0\n"), "areas", "arcanum"),
    (
        "area-unknown-mod",
        "areas.toml",
        _replace("explored_pass_cost = 1", "explored_pass_fee = 1"),
        "a01",
        "explored_pass_fee",
    ),
    ("area-mod-wrong-type", "areas.toml", _replace('default_slate = "red"', 'default_slate = "white"'), "a04", "white"),
    ("area-unknown-op", "areas.toml", _replace('op = "set_die"', 'op = "set_dice"'), "a12", "unknown op"),
    (
        "area-op-missing-param",
        "areas.toml",
        _replace('{ op = "mp", amount = 3 }', '{ op = "mp" }'),
        "a01",
        "missing params",
    ),
    (
        "area-op-extra-param",
        "areas.toml",
        _replace('{ op = "set_die" }', '{ op = "set_die", amount = 2 }'),
        "a12",
        "not taken",
    ),
    (
        "area-op-unknown-param",
        "areas.toml",
        _replace('{ op = "set_die" }', '{ op = "set_die", face = 2 }'),
        "a12",
        "face",
    ),
    (
        "area-op-wrong-timing",
        "areas.toml",
        _replace('arcana_timing = "movement"', 'arcana_timing = "any"'),
        "a01",
        "movement op",
    ),
    (
        "area-op-dl-amount",
        "areas.toml",
        _replace('{ op = "mp", amount = 3 }', '{ op = "mp", amount = "dl" }'),
        "a01",
        "integer",
    ),
    ("area-op-zero-delta", "areas.toml", _replace("delta = -2", "delta = 0"), "a17", "delta"),
    (
        "area-op-unknown-passage",
        "areas.toml",
        _replace('passage = "qesheth"', 'passage = "rainbow"'),
        "a19",
        "not a passage",
    ),
    ("area-op-bad-warp", "areas.toml", _replace('to = "explored"', 'to = "boss"'), "a10", "to must be"),
    (
        "area-no-arcana",
        "areas.toml",
        _replace('arcana = [{ op = "set_die" }]', "arcana = []"),
        "a12",
        "at least one op",
    ),
    # bosses.toml (MV-COMP-9, MISS-7)
    ("boss-count", "bosses.toml", _cut_entry("bosses", "hod"), "bosses", "exactly 10"),
    (
        "boss-two-finals",
        "bosses.toml",
        _replace("tier = 3\n", "tier = 3\nfinal = true\n"),
        "bosses",
        "exactly one boss must be final",
    ),
    (
        "boss-two-actions",
        "bosses.toml",
        _replace('[[bosses.actions]]\nname = { en = "Rattling Keys", ja = "鳴り響く鍵束" }\ndifficulty = 0\n', ""),
        "malkuth",
        "exactly 3 actions",
    ),
    ("boss-zero-life", "bosses.toml", _replace("life = 2", "life = 0"), "malkuth", "life"),
    (
        "boss-action-map-mod",
        "bosses.toml",
        _replace("mods = { no_ascension = true }", "mods = { stop_at_first_unexplored = true }"),
        "hod",
        "do not apply to one check",
    ),
    (
        "boss-slate-multi-die",
        "bosses.toml",
        _replace('slate = "red"\n', 'slate = "red"\nrequired_count = 2\n'),
        "malkuth",
        "exactly one die",
    ),
    ("boss-effect-bad-trigger", "bosses.toml", _replace('on = "failure"', 'on = "miss"'), "yesod", "miss"),
    (
        "boss-effect-movement-op",
        "bosses.toml",
        _replace(
            '{ op = "dl", delta = 1 }], text = { en = "The omen', '{ op = "mp", amount = 1 }], text = { en = "The omen'
        ),
        "chokmah",
        "cannot be used at timing 'any'",
    ),
    (
        "boss-effect-unknown-boss",
        "bosses.toml",
        _replace('{ op = "damage", amount = 1, who = "self" }', '{ op = "boss_damage", boss = "urza", amount = 1 }'),
        "hod",
        "neither a boss id",
    ),
    ("boss-effect-bad-who", "bosses.toml", _replace('who = "area"', 'who = "party"'), "netzach", "party"),
    (
        "boss-misspelt-key",
        "bosses.toml",
        _replace("life = 2\n", 'life = 2\nflavor = { en = "x", ja = "x" }\n'),
        "malkuth",
        "flavor",
    ),
    (
        "boss-effect-no-ops",
        "bosses.toml",
        _replace('ops = [{ op = "dl", delta = 1 }], text = { en = "The omen', 'ops = [], text = { en = "The omen'),
        "chokmah",
        "at least one op",
    ),
    (
        "area-boss-life-delta",
        "areas.toml",
        _replace("mods = { difficulty_delta = 1 }", "mods = { boss_life_delta = -1 }"),
        "a05",
        "global",
    ),
    ("area-die-step-up", "areas.toml", _replace("die_step = -1", "die_step = 1"), "a15", "hindrance"),
    # rooms.toml (MV-COMP-4, MISS-3)
    ("room-white-slate", "rooms.toml", _replace('slate = "blue"', 'slate = "white"'), "r05", "white"),
    ("room-no-copies", "rooms.toml", _replace("copies = 2", "copies = 0"), "r02", "copies"),
    ("room-required-4", "rooms.toml", _replace("required_count = 3", "required_count = 4"), "r04", "1..3"),
    (
        "room-event-unknown-passage",
        "rooms.toml",
        _replace('passage = "daat_binah"', 'passage = "daat"'),
        "r33",
        "not a passage",
    ),
    ("room-event-count-any", "rooms.toml", _replace("count = 3 }", 'count = "any" }'), "r15", "integer"),
    (
        "room-event-no-text",
        "rooms.toml",
        _replace(
            '{ op = "heal", amount = 1, who = "self" }], text = ', '{ op = "heal", amount = 1, who = "self" }], txt = '
        ),
        "r01",
        "txt",
    ),
    # quests.toml (MV-COMP-5, MV-SETUP-2, MV-QUEST-4, CHG-15)
    (
        "quest-unknown-follow-up",
        "quests.toml",
        _replace("follow_ups = [1]", "follow_ups = [42]"),
        "q_lost_pilgrims",
        "42",
    ),
    ("quest-never-added", "quests.toml", _replace("follow_ups = [9]\n", ""), "q_kings_confessor", "never added"),
    (
        "quest-no-immediate-effect",
        "quests.toml",
        _replace('ops = [{ op = "dl", delta = -1 }]', "ops = []"),
        "q_torn_star_chart",
        "immediate effect",
    ),
    ("quest-mods-not-ongoing", "quests.toml", _replace("ongoing = true\n", ""), "q_pilgrims_vigil", "ongoing"),
    ("quest-number-twice", "quests.toml", _replace("number = 2\n", "number = 1\n"), "q_scholars_lantern", "also quest"),
    ("quest-no-initial", "quests.toml", _renumber_initial, "quests", "initial quest"),
    (
        "quest-add-edge-existing",
        "quests.toml",
        _replace('a = "hod", b = "geburah"', 'a = "hod", b = "a13_4"'),
        "q_deserters_map",
        "already an edge",
    ),
    (
        "quest-room-type-boss",
        "quests.toml",
        _replace('room = "choose_unexplored", to = "rest"', 'room = "hod", to = "rest"'),
        "q_empty_almshouse",
        "boss room",
    ),
    (
        "quest-room-type-danger",
        "quests.toml",
        _replace('to = "rest"', 'to = "danger"'),
        "q_empty_almshouse",
        "to must be",
    ),
    # skills.toml and familiars.toml (MV-COMP-6/8, MV-SKILL-3/10, CHG-20)
    (
        "skill-empty-condition",
        "skills.toml",
        _replace('condition = ["D"]', "condition = []"),  # the first skill: sprint
        "sprint",
        "1..4 symbols",
    ),
    ("skill-bad-timing", "skills.toml", _replace('timing = "damage"', 'timing = "whenever"'), "sanctuary", "whenever"),
    (
        "skill-op-wrong-window",
        "skills.toml",
        _replace(
            'timing = "pre_roll"\nops = [{ op = "extra_white"', 'timing = "movement"\nops = [{ op = "extra_white"'
        ),
        "candle_prayer",
        "pre_roll op",
    ),
    (
        "skill-scale-nothing",
        "skills.toml",
        _replace('ops = [{ op = "swap_colours" }]', 'ops = [{ op = "swap_colours" }]\nscale = 1'),
        "somersault",
        "scale needs",
    ),
    (
        "skill-orphan",
        "familiars.toml",
        _replace('ultimate = "gatekeepers_howl"\n', ""),
        "gatekeepers_howl",
        "no familiar",
    ),
    (
        "familiar-deck-skill",
        "familiars.toml",
        _replace('skills = ["shell"]', 'skills = ["parry"]'),
        "magen",
        "skill deck",
    ),
    (
        "familiar-unknown-skill",
        "familiars.toml",
        _replace('skills = ["shell"]', 'skills = ["shel"]'),
        "magen",
        "not a skill",
    ),
    (
        "familiar-own-symbol",
        "familiars.toml",
        _replace('action = "G"\nskills = ["shell"]', 'action = "D"\nskills = ["shell"]'),
        "magen",
        "must have D",
    ),
    (
        "familiar-shared-skill",
        "familiars.toml",
        _replace('ultimate = "bulwark"', 'ultimate = "shell"'),
        "magen",
        "already belongs",
    ),
    (
        "familiars-too-few",
        "familiars.toml",
        _cut_entries("familiars", "shir", "arnevet", "yonah", "ophan", "magen"),
        "familiars",
        "at least 4",
    ),
    # actions.toml (MV-COMP-7, MISS-10, OQ-33)
    ("actions-47", "actions.toml", _replace("G = 12 }", "G = 11 }"), "counts", "exactly 48"),
    (
        "actions-missing-label",
        "actions.toml",
        _replace('G = { en = "Guard", ja = "ガード" }\n', ""),
        "symbols",
        "missing symbols",
    ),
    ("actions-unknown-symbol", "actions.toml", _replace("G = 12 }", "G = 6, X = 6 }"), "(file)", "X"),
]

ERROR_FILE = {"skill-orphan": "skills.toml"}
"""Cases whose error names another file than the one edited (the rule sits with that file)."""


@pytest.mark.parametrize(("case", "file", "edit", "key", "reason"), CASES, ids=[c[0] for c in CASES])
def test_broken_copy_is_refused_naming_file_entry_and_reason(
    tmp_path: Path, case: str, file: str, edit: Callable[[str], str], key: str, reason: str
) -> None:
    root = _copy(tmp_path)
    path = root / file
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        mc.load_from(root)
    error = caught.value
    file = ERROR_FILE.get(case, file)
    assert error.file == f"{root}/{file}", (case, str(error))
    assert error.key == key, (case, str(error))
    assert reason in error.reason, (case, str(error))
    assert str(error).startswith(f"{root}/{file}: {key}: ")


def test_missing_file_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "skills.toml").unlink()
    with pytest.raises(ContentError) as caught:
        mc.load_from(root)
    assert (caught.value.file, caught.value.key, caught.value.reason) == (f"{root}/skills.toml", "(file)", "missing")


def test_packaged_errors_name_the_package_path() -> None:
    files = mc._Files(resources.files("delve.maiden") / "content", packaged=True)
    assert files.label("map.toml") == "delve/maiden/content/map.toml"
