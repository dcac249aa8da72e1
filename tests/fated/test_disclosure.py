"""The one allow-list of event data (delve.fated.disclosure): what each event kind may tell, the
same for the views' event lists, the JSON API and the game screen (FL-INFO-3..5)."""

from __future__ import annotations

import pytest

from delve.fated import disclosure, text
from delve.kernel import Rng

from .cardkit import arena, place_trap
from .playout import RULESET, new_playout, step
from .test_traps_fakes import CORRIDOR, step_on

EVERY_KIND = sorted(disclosure.FIELDS.kinds())


def playout_events(preset: str, seed: int, commands: int) -> list[tuple[str, int, dict]]:
    """Every event (public or private) of a random playout, as the engine built it."""
    playout = new_playout(preset, seed, maze_size=15)
    rng = Rng.seeded(seed)
    while playout.commands < commands and step(playout, rng, check=False):
        pass
    return [(event.kind, event.time, event.data) for event in playout.events]


def test_every_event_kind_has_an_allow_list_entry_and_a_sentence_FL_INFO_4_FL_INFO_5():
    """FL-INFO-4/5: each kind the screen can word is listed (so it can show anything at all), and
    each listed kind has a sentence; public and private kinds do not overlap."""
    assert set(text.SENTENCES) == set(EVERY_KIND)
    assert not set(disclosure.PUBLIC) & set(disclosure.PRIVATE)


@pytest.mark.parametrize("preset", ["fated-labyrinth", "level-d"])
def test_the_screen_needs_no_field_the_allow_list_withholds_FL_INFO_4(preset):
    """The screen applies the same allow-list: every sentence of real events reads the same from
    the allowed fields alone as from everything the engine recorded (English and Japanese)."""
    events = playout_events(preset, 3, 400)
    assert len({kind for kind, _, _ in events}) >= 15
    for kind, time, data in events:
        full = {**data, "time": time, "kind": kind}
        shown = disclosure.body(kind, time, data)
        for lang in ("en", "ja"):
            assert text.describe(shown, lang, preset, 0) == text.describe(full, lang, preset, 0), (kind, data)


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_a_field_nobody_listed_never_leaves_FL_INFO_3(kind):
    """A new field is invisible by default: only the listed fields of each kind are shown."""
    listed = disclosure.FIELDS.allowed(kind)
    data = {field: 1 for field in listed} | {"setter": 2, "secret": "x", "rng": [1, 2, 3, 4]}
    body = disclosure.body(kind, 5, data)
    assert set(body) == set(listed) | {"kind", "time"}
    assert body["kind"] == kind and body["time"] == 5


def test_an_unknown_event_kind_shows_only_its_kind_and_time():
    assert disclosure.body("brand.new", 7, {"player": 1, "tile": 40}) == {"kind": "brand.new", "time": 7}
    assert "brand.new" in text.describe(disclosure.body("brand.new", 7, {"player": 1}), "en", "fated-labyrinth")


def test_a_trap_hit_never_names_its_setter_who_learns_it_privately_FL_INFO_3_FL_INFO_5():
    """FL-INFO-3/4/5, FL-TRAP-6: a player steps on seat 0's trap and takes it without defense. The
    public defense result names the trap's card, not its setter; the defender's defense phase does
    not name it either; the setter alone gets a private ``trap.sprung``; no view shows a source."""
    game = arena(rows=CORRIDOR)
    tile = place_trap(game, 4, 3, "attack-40", setter=0)
    step_on(game, 1, "right")
    defending = game.view(1)["you"]["defending"]
    assert defending["kind"] == "trap" and defending["card"] == "attack-40" and "source" not in defending
    game.play(1, {"kind": "no_defense"})
    assert tile not in game.state.traps
    result = next(e for e in game.events if e.kind == "defense.result")
    assert result.public and result.data["label"] == "trap" and "source" not in result.data
    sprung = [e for e in game.events if e.kind == "trap.sprung"]
    assert len(sprung) == 1 and sprung[0].to == (0,)
    damage = game.p(1).max_hp - game.p(1).hp
    assert damage > 0
    assert sprung[0].data == {"card": "attack-40", "defender": 1, "outcome": "hit", "damage": damage}
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        entries = view["events"] + (view.get("you") or {}).get("messages", [])
        assert all("source" not in e for e in entries if e.get("label") == "trap"), seat
        assert any(e["kind"] == "trap.sprung" for e in entries) == (seat == 0), seat
    sentence = text.describe(game.view(0)["you"]["messages"][0], "en", "fated-labyrinth", 0)
    assert sentence == f"Player 02 stepped on your trap (Attack 40): {damage} damage."


def test_the_ruleset_applies_the_same_allow_list_to_stored_events_FL_INFO_3():
    """The server asks the ruleset (``event_data``), which applies the views' list: a trap hit
    recorded with its setter (as events stored before the fix were) still does not show it; an
    attack shows its attacker."""
    trap = {"defender": 1, "label": "trap", "source": 0, "card": "attack-40", "outcome": "hit", "damage": 3}
    assert RULESET.event_data("defense.result", trap) == {k: v for k, v in trap.items() if k != "source"}
    attack = {**trap, "label": "adjacent", "use": "adjacent"}
    assert RULESET.event_data("defense.result", attack) == attack
    assert RULESET.event_data("no.such.kind", trap) == {}


def test_a_card_stealing_trap_tells_its_setter_what_it_did_FL_TRAP_7_FL_INFO_5():
    """FL-TRAP-7, FL-INFO-3/5: a Pickpocket trap steals a card instead of dealing damage. Its setter
    was told "Player 02 stepped on your trap (Pickpocket): 0 damage."; it says the card was
    stolen (which card: the setter's own ``steal.card`` message). The public result names the
    trap's effect, not its setter; the victim alone learns which card it lost."""
    game = arena(rows=CORRIDOR)
    place_trap(game, 4, 3, "pickpocket", setter=0)
    game.p(1).hand = game.p(1).hand[:1] or game.p(1).hand
    assert game.p(1).hand, "the victim holds a card to steal"
    step_on(game, 1, "right")
    game.play(1, {"kind": "no_defense"})
    [sprung] = [e for e in game.events if e.kind == "trap.sprung"]
    assert sprung.to == (0,) and sprung.data["special"] == "steal_card" and sprung.data["applied"] is True
    mine = [text.describe(m, "en", "fated-labyrinth", 0) for m in game.view(0)["you"]["messages"]]
    assert "Player 02 stepped on your trap (Pickpocket): you stole a card." in mine
    assert any(m.startswith("You stole ") and m.endswith(" from Player 02.") for m in mine)
    ja = [text.describe(m, "ja", "fated-labyrinth", 0) for m in game.view(0)["you"]["messages"]]
    assert "プレイヤー02があなたの罠（スリ）を踏んだ：カードを1枚奪った。" in ja
    assert not any("0ダメージ" in m or "0 damage" in m for m in mine + ja)
    levels_d = [text.describe(m, "ja", "level-d", 0) for m in game.view(0)["you"]["messages"]]
    assert any("あなたのワナ（" in m and m.endswith("カードを1枚奪った。") for m in levels_d)
    result = next(e for e in game.events if e.kind == "defense.result")
    assert "source" not in result.data
    public = text.describe(disclosure.body("defense.result", 0, result.data), "en", "fated-labyrinth", 2)
    assert public == "A trap (Pickpocket) hit Player 02: Card theft."
    for seat in (2, 3):
        assert not any(e["kind"] in ("trap.sprung", "steal.card") for e in game.view(seat)["you"]["messages"])


@pytest.mark.parametrize(
    ("special", "applied", "en", "ja"),
    [
        ("steal_card", False, "they had no card to steal", "盗めるカードがなかった"),
        ("treasure_toss", True, "one of their treasures was flung away", "財宝を1つ飛ばした"),
        ("cp_drain", True, "CP Drain", "ＣＰ減少"),
        ("hp_poison", True, "HP Poison", "ＨＰ毒"),
    ],
)
def test_every_special_trap_says_what_it_did_to_its_setter_FL_TRAP_7(special, applied, en, ja):
    """FL-TRAP-7: a trap's special attack is its effect, told to the setter instead of "0 damage"."""
    e = {"kind": "trap.sprung", "card": "pickpocket", "defender": 1, "outcome": "hit", "damage": 0}
    e |= {"special": special, "applied": applied}
    assert text.describe(e, "en", "fated-labyrinth", 0) == f"Player 02 stepped on your trap (Pickpocket): {en}."
    assert text.describe(e, "ja", "fated-labyrinth", 0) == f"プレイヤー02があなたの罠（スリ）を踏んだ：{ja}。"
    assert text.describe({**e, "damage": 3, "special": None}, "en", "fated-labyrinth", 0).endswith(": 3 damage.")
