"""A boss action's extra rules (its MODS, MV-BOSS-10) shown wherever the action is described:
the help's boss list, the bosses panel and the check panel while that action is rolled against,
in English and Japanese; and the odds on the check panel count them (MV-CHECK-3..10, MV-ASC-9:
die size, white dice, ascension; the expected damage with the failure and slate damage they add)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from html import unescape
from typing import Any

import pytest
from django.test import Client

from delve.maiden import rules_text
from delve.maiden.content import load
from delve.server.games.models import Game
from delve.server.play import maiden_screen
from tests.server.conftest import session_client
from tests.server.maiden_kit import into_boss_check, maiden_game, view
from tests.server.test_maiden_odds_shown import enumerate_success

pytestmark = pytest.mark.django_db

UNCOUNTED = "This chance does not count the reroll of the highest die."


def _solo(player: Any, boss: str, action: int, **stats: int) -> Game:
    game = maiden_game([player])
    into_boss_check(game, [player], boss, action, **stats)
    return game


def _dice_panel(game: Game, player: Any, lang: str = "en") -> str:
    client = session_client(player)
    client.cookies["django_language"] = lang
    response = client.get(f"/games/{game.pk}/maiden/panels/dice/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return unescape(response.content.decode())


def _before(game: Game, player: Any) -> Any:
    return maiden_screen.panel_context(maiden_screen.load(game, player), "dice")["before"]


@pytest.mark.parametrize(
    ("boss", "action"),
    [(b.id, i) for b in load().bosses.values() for i, a in enumerate(b.actions) if a.mods.active()],
)
def test_the_check_panel_says_the_rules_of_the_action_being_rolled_MV_BOSS_10(
    clock: Any, player: Any, boss: str, action: int
) -> None:
    game = _solo(player, boss, action, wil=1)
    mods = load().bosses[boss].actions[action].mods
    for lang in ("en", "ja"):
        html = _dice_panel(game, player, lang)
        for sentence in rules_text.mod_sentences(mods, lang):
            assert sentence in html, (lang, sentence)


def test_shrinking_heavens_rolls_and_counts_dice_one_size_smaller_MV_BOSS_10(clock: Any, player: Any) -> None:
    game = _solo(player, "chokmah", 1, wil=2, pie=1)  # Wil 2: d8, one size smaller: d6
    check = view(game, 0)["check"]
    assert check["size"] == 6
    before = _before(game, player)
    assert before.size == 6
    assert before.success.p == enumerate_success(6, 1, check["bonus"], check["target"], None)


def test_sealed_equation_counts_no_ascension_MV_BOSS_10(clock: Any, player: Any) -> None:
    game = _solo(player, "hod", 2, wil=1, pie=1)
    check = view(game, 0)["check"]
    assert check["no_ascension"]
    exact = enumerate_success(check["size"], check["white"], 0, check["target"], None)
    assert _before(game, player).success.p == exact
    assert exact < enumerate_success(check["size"], check["white"], check["bonus"], check["target"], None)


def test_dirge_of_sorrows_rolls_and_counts_no_white_dice_MV_BOSS_10(clock: Any, player: Any) -> None:
    game = _solo(player, "binah", 2, wil=1, pie=2)
    check = view(game, 0)["check"]
    assert check["white"] == 0
    assert _before(game, player).dice == 3


def test_headsmans_sweep_counts_its_extra_failure_damage_MV_BOSS_10_MV_BOSS_4(clock: Any, player: Any) -> None:
    game = _solo(player, "geburah", 0, wil=1)
    public = view(game, 0)
    before = _before(game, player)
    assert public["check"]["failure_damage_delta"] == 1
    assert before.expected_damage == (public["danger_level"] + 1) * (1 - before.success.p)


def test_alms_of_lead_counts_its_extra_slate_damage_per_die_MV_BOSS_10_MV_SLATE_6(clock: Any, player: Any) -> None:
    """Every roll of 3d4 (Wil 0, Pie 0, Agi 0) played as the odds play a slate check (MV-ASC-9:
    the non-slate pair ascended): failure damage DL, slate damage (DL + 1) per die left."""
    game = _solo(player, "chesed", 0, wil=0)
    public = view(game, 0)
    check, dl = public["check"], public["danger_level"]
    assert (check["size"], check["white"], check["slate"], check["slate_per_die_delta"]) == (4, 0, "blue", 1)
    total = Fraction(0)
    for red, blue, black in itertools.product(range(1, 5), repeat=3):
        pairs = 1 if red == black else 0
        left = 2 - 2 * pairs
        ap = blue + pairs * check["bonus"]
        total += (dl if ap < check["target"] else 0) + left * (dl + 1)
    assert _before(game, player).expected_damage == total / 64


def test_gilded_glare_says_its_reroll_and_the_chance_before_the_roll_counts_it_MV_BOSS_10(
    clock: Any, player: Any
) -> None:
    """The chance shown before the roll is the engine's: every roll of 3d6 (Wil 1), the first
    highest die rerolled (``dice.highest``, as ``checks.roll``), then the best ascension
    (MV-ASC-9); no note says it is left out any more."""
    from tests.maiden.test_odds_reroll_highest import _engine_joint

    game = _solo(player, "tiphareth", 0, wil=1)
    check = view(game, 0)["check"]
    assert check["reroll_highest"] and (check["size"], check["white"]) == (6, 0)
    html = _dice_panel(game, player)
    assert "After the roll, the highest die is rerolled once." in html
    assert UNCOUNTED not in html
    assert "最も大きい出目のサイコロを1回振り直す" in _dice_panel(game, player, "ja")
    assert "振り直しを数えていません" not in _dice_panel(game, player, "ja")
    joint = _engine_joint(6, 0, bonus=check["bonus"])
    exact = Fraction(sum(n for (ap, _), n in joint.items() if ap >= check["target"]), 6**4)
    before = _before(game, player)
    assert before.success.p == exact
    assert exact != enumerate_success(6, 0, check["bonus"], check["target"], None)
    dl = view(game, 0)["danger_level"]
    assert before.expected_damage == dl * (1 - exact)


def test_the_bosses_panel_says_every_actions_rules_MV_BOSS_10(clock: Any, player: Any) -> None:
    game = maiden_game([player])
    data = load()
    for lang in ("en", "ja"):
        screen = maiden_screen.load(game, player)
        screen.lang = lang
        for boss in maiden_screen.panel_context(screen, "bosses")["bosses"]:
            for shown, action in zip(boss["actions"], data.bosses[boss["id"]].actions, strict=True):
                for sentence in rules_text.mod_sentences(action.mods, lang):
                    assert sentence in shown["effect"], (boss["id"], sentence)


def test_the_help_lists_every_actions_rules_MV_BOSS_10() -> None:
    data = load()
    for lang in ("en", "ja"):
        html = unescape(Client().get("/help/?preset=white-maiden", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        for boss in data.bosses.values():
            for action in boss.actions:
                for sentence in rules_text.mod_sentences(action.mods, lang):
                    assert sentence in html, (lang, boss.id, sentence)


def test_a_room_card_offered_counts_the_failure_and_slate_damage_its_area_adds_MV_EXPL_8(
    clock: Any, player: Any
) -> None:
    """MV-EXPL-8: an area's failure damage (Strength) and slate damage per die (Death) are in the
    expected damage of a room card offered by a draw, as the engine deals them."""
    from delve.server.play import maiden_odds

    game = maiden_game([player])
    into_boss_check(game, [player], "chokmah", 0, wil=1)
    public = view(game, 0)
    data = load()
    plain_card = next(c for c in data.room_cards.values() if c.slate is None)
    slate_card = next(c for c in data.room_cards.values() if c.slate is not None)
    plain = {"mods": {}, "danger_level": public["danger_level"], "failure_damage_delta": 0}
    base = maiden_odds.room_card_odds(public, {}, plain_card, 0, plain)
    more = maiden_odds.room_card_odds(public, {}, plain_card, 0, {**plain, "failure_damage_delta": 1})
    assert more.expected_damage == base.expected_damage + (1 - base.success.p)
    base = maiden_odds.room_card_odds(public, {}, slate_card, 0, plain)
    more = maiden_odds.room_card_odds(public, {}, slate_card, 0, {**plain, "mods": {"slate_per_die_delta": 1}})
    assert more.expected_damage > base.expected_damage


def test_a_boss_actions_effect_says_its_trigger_on_the_check_panel_the_bosses_panel_and_the_help_MV_EVENT_2(
    clock: Any, player: Any
) -> None:
    """Heir's Sacrifice burns on a success: said before the roll, wherever the action is."""
    game = _solo(player, "tiphareth", 2, wil=1)
    said = "On a success: His golden blood scalds you: take 1 damage."
    assert said in _dice_panel(game, player)
    assert "成功時：金色の血があなたを焼く" in _dice_panel(game, player, "ja")
    screen = maiden_screen.load(game, player)
    screen.lang = "en"
    bosses = maiden_screen.panel_context(screen, "bosses")["bosses"]
    heir = next(b for b in bosses if b["id"] == "tiphareth")["actions"][2]
    assert heir["effect"] == said
    assert said in unescape(Client().get("/help/?preset=white-maiden").content.decode())
    lullaby = load().bosses["yesod"].actions[0]
    assert lullaby.effect is not None
    assert "失敗時：" + lullaby.effect.text.ja in unescape(
        Client().get("/help/?preset=white-maiden", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    )


def test_a_room_cards_event_says_its_trigger_when_offered_and_on_the_check_panel_MV_EVENT_2(
    clock: Any, player: Any
) -> None:
    """A room card's event with its trigger: on the check panel while the card is rolled against,
    and on the card offered by a draw (the same words)."""
    from tests.server.maiden_kit import play_until

    game = maiden_game([player])
    data = load()
    for _ in range(40):
        public = play_until(game, [player], lambda v: v["phase"] == "pre_roll")
        card = data.room_cards.get(public["check"]["source"])
        if card is not None and card.event is not None:
            break
        play_until(game, [player], lambda v: v["phase"] != "pre_roll")
    else:
        pytest.fail("the fixed seed drew no room card with an event in 40 checks: choose another seed")
    said = rules_text.event_text(card.event, "en")
    assert said.startswith(("On a success: ", "On a failure: ", "Success or failure: "))
    assert said in _dice_panel(game, player)


def test_alms_of_lead_counts_its_slate_damage_per_die_after_the_roll_MV_BOSS_10_MV_SLATE_6(
    clock: Any, player: Any
) -> None:
    """After the roll the ascension choices say the slate damage the engine deals: (1 + 1) per
    non-slate die left (MV-SLATE-6 with the action's +1), and the pair that removes two is first."""
    from delve.server.play import maiden_odds

    game = _solo(player, "chesed", 0, wil=0)
    public = view(game, 0)
    check = dict(public["check"])
    assert (check["slate"], check["slate_per_die_delta"]) == ("blue", 1)
    check.update(
        rolled=True,
        result=None,
        ap=None,
        dice=[
            {"colour": "red", "size": 4, "face": 3},
            {"colour": "blue", "size": 4, "face": 2},
            {"colour": "black", "size": 4, "face": 3},
        ],
    )
    after = maiden_odds.post_roll({**public, "check": check}, {}, [{"kind": "ascend", "dice": [0, 2]}])
    assert after is not None
    assert after.slate_damage_now == 2 * 2
    assert [(c.pair, c.slate_damage, c.best) for c in after.choices] == [((0, 2), 0, True)]
