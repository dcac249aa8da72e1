"""The White Maiden check screen shows the exact chance of success on every skill or Arcana use
that changes a check, not only on the one-die ones: rerolling two dice or any number (SUG-7 "+1 die
per level", SUG-3 A11 Wheel of Fortune), setting a face (A12 Justice), an AP bonus (A20 The Sun),
an automatic success (A21 Judgement), ignoring the slate (A16 The Devil, MV-SLATE-2), swapping
colours and a near pair (A13 The Hanged Man), more white dice (A06 The Hierophant, MV-CHECK-5) and a
bigger die (A08 The Chariot, MV-CHECK-4); Arcana are used for the active maiden (MV-EXPL-4/5).
Every number is checked against enumeration of every roll, each scored by trying every legal set
of ascensions (MV-ASC-1..6, best play MV-ASC-9)."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from html import unescape
from types import SimpleNamespace
from typing import Any

import pytest

from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.play import maiden_odds
from delve.server.play.maiden_screen import _skill_button
from tests.server.conftest import session_client
from tests.server.maiden_kit import legal, maiden_game, play_until, state, view
from tests.server.test_maiden_odds_shown import COLOURS, best_ap, enumerate_success, post_roll_view, pre_roll_view

WHEEL, JUSTICE, HANGED, DEVIL, SUN, JUDGEMENT = "a11", "a12", "a13", "a16", "a20", "a21"
HIEROPHANT, CHARIOT = "a06", "a08"


def reroll_success(
    faces: list[int], chosen: list[int], *, size: int, bonus: int, target: int, slate: str | None
) -> Fraction:
    """Every roll of the chosen dice, each scored by the best of every legal set of pairs."""
    colours = [*COLOURS, *["white"] * (len(faces) - 3)]
    slate_index = colours.index(slate) if slate else None
    hits = 0
    rolls = list(itertools.product(range(1, size + 1), repeat=len(chosen)))
    for roll in rolls:
        now = list(faces)
        for i, face in zip(chosen, roll, strict=True):
            now[i] = face
        hits += best_ap(now, slate_index, bonus) >= target
    return Fraction(hits, len(rolls))


def screen_of(view_: dict[str, Any]) -> SimpleNamespace:
    return SimpleNamespace(view=view_, lang="en", settings={}, seat=0, legal=[])


@pytest.mark.parametrize(
    ("faces", "chosen", "target", "slate"),
    [
        ([2, 5, 3], [0, 2], 6, None),  # two dice rerolled: a pair of the new faces or a 6
        ([2, 5, 3, 1], [0, 1, 3], 7, None),  # three of four
        ([1, 4, 4, 2], [0, 3], 5, "red"),  # the slate die among them (MV-SLATE-2)
        ([6, 2, 3], [1, 2], 4, "red"),  # not the slate die: pairs lower slate damage only
        ([3, 1, 6, 6, 2], [0, 1, 4], 9, None),
    ],
)
def test_a_reroll_of_several_dice_shows_the_chance_enumeration_gives(faces, chosen, target, slate) -> None:
    """SUG-7 Quick Hands at level 1 (two dice) and SUG-3 A11 (any number): P(success) after the
    reroll and the best ascensions, as enumeration of every roll of those dice gives."""
    view_ = post_roll_view(faces, bonus=1, target=target, slate=slate)
    exact = reroll_success(faces, chosen, size=6, bonus=1, target=target, slate=slate)
    for command in (
        {"kind": "use_arcana", "area": WHEEL, "dice": chosen},
        {"kind": "use_skill", "skill": "whirlwind", "dice": chosen},
    ):
        button = _skill_button(screen_of(view_), command)
        assert button["odds"] is not None and button["odds"].p == exact, command
    if len(chosen) == 1:
        assert maiden_odds.reroll_chance(view_, {}, chosen[0]).p == exact


def test_a_one_die_reroll_and_the_reroll_of_one_die_among_many_agree() -> None:
    """SUG-7: Quick Hands at level 0 rerolls one die through the one-die path; the Wheel of
    Fortune's pick of that one die goes through the many-dice path: the same number."""
    view_ = post_roll_view([2, 5, 3, 3], bonus=2, target=7, slate=None)
    for die in range(4):
        one = _skill_button(screen_of(view_), {"kind": "use_skill", "skill": "quick_hands", "dice": [die]})["odds"]
        many = _skill_button(screen_of(view_), {"kind": "use_arcana", "area": WHEEL, "dice": [die]})["odds"]
        assert one is not None and many is not None and one.p == many.p


def test_a_reroll_counts_the_ap_bonus_already_gained() -> None:
    """MV-CHECK-8: AP bonuses of skills used earlier count after a reroll too (the engine's AP
    is 3 above the dice's): the one-die and the many-dice reroll both read it."""
    view_ = post_roll_view([2, 5, 3], bonus=1, target=8, slate=None)
    view_["check"]["ap"] = 5 + 3
    exact = reroll_success([2, 5, 3], [0], size=6, bonus=1, target=5, slate=None)
    assert maiden_odds.reroll_chance(view_, {}, 0).p == exact
    exact_two = reroll_success([2, 5, 3], [0, 2], size=6, bonus=1, target=5, slate=None)
    assert _skill_button(screen_of(view_), {"kind": "use_arcana", "area": WHEEL, "dice": [0, 2]})["odds"].p == exact_two


@pytest.mark.parametrize(
    ("area", "extra", "faces", "target", "slate", "expected"),
    [
        (SUN, {}, [2, 5, 3], 8, None, 1),  # +3 AP: 5 + 3 reaches 8
        (SUN, {}, [2, 5, 3], 9, None, 0),
        (JUDGEMENT, {}, [1, 1, 2], 20, None, 1),  # success whatever the dice
        (DEVIL, {}, [1, 6, 2], 6, "red", 1),  # the slate ignored: the 6 is the AP
        (DEVIL, {}, [1, 5, 2], 6, "red", 0),
        (JUSTICE, {"die": 0, "face": 6}, [1, 5, 2], 6, "red", 1),  # the slate die set to 6
        (JUSTICE, {"die": 1, "face": 6}, [1, 5, 2], 6, "red", 0),
        # swap red and blue (the blue 5 becomes the slate die), then the near pair 4-3 of the
        # others ascends: 5 + 1 = 6
        (HANGED, {"dice": [0, 1]}, [1, 5, 4, 3], 6, "red", 1),
        (HANGED, {"dice": [0, 2]}, [1, 5, 4, 3], 6, "red", 0),  # the black 4 is the slate die: 4 + 1
    ],
)
def test_an_arcana_that_changes_a_rolled_check_shows_its_certain_outcome(area, extra, faces, target, slate, expected):
    """MV-EXPL-4/5 with SUG-3: after the roll the dice are known, so the chance is 100% or 0%,
    the best play after the Arcana (MV-ASC-9)."""
    view_ = post_roll_view(faces, bonus=1, target=target, slate=slate)
    button = _skill_button(screen_of(view_), {"kind": "use_arcana", "area": area, **extra})
    assert button["odds"] is not None, button
    assert button["odds"].p == expected


def test_an_arcana_that_does_not_change_the_check_shows_nothing() -> None:
    """A heal (A04) changes no die nor the outcome: no chance on its button."""
    view_ = post_roll_view([2, 5, 3], bonus=1, target=8, slate=None)
    assert _skill_button(screen_of(view_), {"kind": "use_arcana", "area": "a04"})["odds"] is None


def test_dice_carrying_points_are_outside_the_model_and_show_nothing() -> None:
    """CHG-17 (pie_mode boost) puts points on dice, which the screen's pool does not keep apart
    from their faces: the many-dice reroll shows no number rather than a wrong one."""
    view_ = post_roll_view([2, 5, 3], bonus=1, target=8, slate=None)
    view_["check"]["dice"][1]["bonus"] = 1
    assert _skill_button(screen_of(view_), {"kind": "use_arcana", "area": WHEEL, "dice": [0, 2]})["odds"] is None


def test_more_white_dice_or_a_bigger_die_show_the_chance_of_the_check_they_make() -> None:
    """A06 (+3 white dice, MV-CHECK-5) and A08 (die two sizes bigger, MV-CHECK-4) before the
    roll: the chance of the changed pool, as enumeration gives."""
    base = pre_roll_view(size=4, white=0, bonus=1, target=6, slate=None)
    base["maidens"][0]["levels"]["wil"] = 0
    base["check"].update({"size_bonus": 0, "die_step": 0, "size_chosen": False, "no_white_dice": False})
    white = _skill_button(screen_of(base), {"kind": "use_arcana", "area": HIEROPHANT})["odds"]
    assert white is not None and white.p == enumerate_success(4, 3, 1, 6, None)
    bigger = _skill_button(screen_of(base), {"kind": "use_arcana", "area": CHARIOT})["odds"]
    assert bigger is not None and bigger.p == enumerate_success(8, 0, 1, 6, None)
    base["check"]["no_white_dice"] = True  # the mod: white dice are not rolled at all
    white = _skill_button(screen_of(base), {"kind": "use_arcana", "area": HIEROPHANT})["odds"]
    assert white is not None and white.p == enumerate_success(4, 0, 1, 6, None)


@pytest.mark.django_db
def test_the_check_screen_shows_the_chance_on_every_arcana_that_changes_the_check(clock: Any, player: Any) -> None:
    """A live game after its roll with the Wheel of Fortune, Justice and the Sun in the pool: the
    Sun's button carries the exact chance, and the Wheel's tick-box picker carries the exact
    chance of every set of dice it accepts, named at its best without the script."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "post_roll")
    current = state(game)
    current.arcana = [*current.arcana, WHEEL, JUSTICE, SUN]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    game.refresh_from_db()
    check = view(game, 0)["check"]
    faces = [d["face"] for d in check["dice"]]
    slate = check["slate"] if not check["slate_ignored"] else None
    slate_index = [d["colour"] for d in check["dice"]].index(slate) if slate else None
    bonus, target, size = check["bonus"], check["target"], check["dice"][0]["size"]
    html = session_client(player).get(f"/games/{game.pk}/maiden/panels/decide/").content.decode()

    sun = re.search(r"<button[^>]*>[^<]*(?:<kbd>[^<]*</kbd>)?[^<]*The Sun.*?</button>", html, re.S)
    assert sun is not None, html
    certain = Fraction(int(best_ap(faces, slate_index, bonus) + 3 >= target))
    assert f'data-p="{certain}"' in sun.group(0)

    picker = re.search(r'<form class="cmd pick pick-dice".*?</form>', html, re.S)
    assert picker is not None
    table = json.loads(unescape(re.search(r'data-odds="([^"]*)"', picker.group(0))[1]))
    wheel = [c for c in legal(game, 0) if c.get("area") == WHEEL]
    assert sorted(table) == sorted(",".join(map(str, sorted(c["dice"]))) for c in wheel)
    for key, shown in table.items():
        chosen = [int(x) for x in key.split(",")]
        exact = reroll_success(faces, chosen, size=size, bonus=bonus, target=target, slate=slate)
        assert shown["fraction"] == str(exact), key
    best = max(Fraction(v["fraction"]) for v in table.values())
    assert "Best:" in html and f'data-p="{best}"' in picker.group(0)


def test_the_same_use_is_counted_once_per_process_and_reads_the_same() -> None:
    """Every poll renders the check panel again while a check waits: the chance of a use with the
    same view, settings and picks is kept (a nine-die picker is 511 sets), and equals a fresh count."""
    view_ = post_roll_view([3, 1, 6, 6, 2], bonus=1, target=9, slate=None)
    command = {"kind": "use_arcana", "area": WHEEL, "dice": [0, 1, 4]}
    ops = [{"op": "reroll", "count": 99}]
    first = maiden_odds.use_chance(view_, {}, ops, command)
    hits = maiden_odds._kept_use_chance.cache_info().hits
    again = maiden_odds.use_chance(json.loads(json.dumps(view_)), {}, ops, dict(command))
    assert maiden_odds._kept_use_chance.cache_info().hits == hits + 1
    assert first is not None and again == first == maiden_odds._use_chance(view_, {}, ops, command)


def test_a_large_pool_shows_no_chance_on_uses_that_set_or_pair_dice_but_still_on_rerolls() -> None:
    """Every poll renders the check again: after the roll a use that sets, swaps or pairs dice
    counts every plan of the pool for each of its variants, so above USE_ODDS_DICE dice left it
    shows nothing (a twelve-die pool's thirty Hanged Man variants took seconds); rerolls count face
    totals and keep their chance (SUG-3 A11/A12/A13)."""
    faces = [1, 2, 3, 4, 5, 6, 1, 2, 3]
    assert len(faces) > maiden_odds.USE_ODDS_DICE
    view_ = post_roll_view(faces, bonus=1, target=12, slate=None)
    for command in (
        {"kind": "use_arcana", "area": JUSTICE, "die": 0, "face": 6},
        {"kind": "use_arcana", "area": HANGED, "dice": [0, 1]},
    ):
        assert _skill_button(screen_of(view_), command)["odds"] is None, command
    reroll = _skill_button(screen_of(view_), {"kind": "use_arcana", "area": WHEEL, "dice": [0, 1]})
    assert reroll["odds"] is not None
    smaller = post_roll_view(faces[:8], bonus=1, target=12, slate=None)
    assert _skill_button(screen_of(smaller), {"kind": "use_arcana", "area": JUSTICE, "die": 0, "face": 6})["odds"]


@pytest.mark.django_db
def test_a_use_that_beats_every_ascension_is_the_suggestion_and_resolving_is_not_the_main_button(
    clock: Any, player: Any
) -> None:
    """MV-ASC-9 with SUG-3 A21: after the roll no ascension reaches a target of 99, but Judgement
    succeeds outright: the panel suggests it (it told the player to resolve at 0% while a skill
    offered 100%) and the resolve button is not drawn as the main one."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "post_roll")
    current = state(game)
    assert current.check is not None
    current.check.target = 99
    current.arcana = [a for a in current.arcana if a != JUDGEMENT]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    client = session_client(player)
    html = unescape(client.get(f"/games/{game.pk}/maiden/panels/decide/").content.decode())
    assert "better than any ascension" not in html  # nothing at hand does better: no such suggestion
    current.arcana = [*current.arcana, JUDGEMENT]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    html = unescape(client.get(f"/games/{game.pk}/maiden/panels/decide/").content.decode())
    assert "Suggested: Arcana: Judgement" in html and "(100%), better than any ascension." in html, html
    assert "Suggested: resolve without ascending." not in html
    resolve = re.search(r'<button[^>]*class="[^"]*cmd-resolve[^"]*"', html)
    assert resolve is not None and "primary" not in resolve.group(0)


@pytest.mark.django_db
def test_a_use_on_a_check_that_already_succeeds_says_it_is_not_needed(clock: Any, player: Any) -> None:
    """MV-ASC-9 with SUG-3 A21: when resolving or ascending already succeeds for certain, Judgement
    (and every other use that changes the check) still shows its 100% but says it is not needed, so
    an Arcana is not spent for nothing; on a check that can fail it says no such thing (both
    languages)."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "post_roll")
    current = state(game)
    assert current.check is not None
    current.arcana = [*[a for a in current.arcana if a != JUDGEMENT], JUDGEMENT]
    client = session_client(player)
    needless = "not needed: succeeds without it"

    def panel(target: int, language: str = "en") -> str:
        assert current.check is not None
        current.check.target = target
        Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
        url = f"/games/{game.pk}/maiden/panels/decide/"
        return unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())

    html = panel(1)  # every roll reaches 1
    judgement = re.search(r"<button[^>]*>[^<]*Arcana: Judgement.*?</button>", html, re.S)
    assert judgement is not None and needless in judgement.group(0), html
    assert "Suggested: Arcana: Judgement" not in html
    assert "不要：使わなくても成功" in panel(1, "ja")
    html = panel(99)  # nothing but Judgement reaches 99
    assert needless not in html and "Suggested: Arcana: Judgement" in html


@pytest.mark.django_db
def test_the_check_panel_after_a_near_pair_shows_the_pool_and_its_odds(clock: Any, player: Any) -> None:
    """MV-ASC-8 (SUG-7 Many Eyes, SUG-3 A13): a near pair leaves the pool with unequal faces,
    which the odds model's removed pairs cannot hold; the game page, its panels and every later
    poll answered 400 from then on (the command had been applied). The panel now shows AP now,
    the best reachable and the ascensions still open, from the dice left."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "post_roll")
    current = state(game)
    assert current.check is not None and len(current.check.dice) >= 3
    faces = [3, 4, 6, 6, 2, 5, 1, 2][: len(current.check.dice)]
    for die, face in zip(current.check.dice, faces, strict=True):
        die.face, die.removed = face, False
    current.check.slate = None
    current.check.dice[0].removed = current.check.dice[1].removed = True  # the 3 and the 4
    current.check.ascensions = 1
    current.check.target = 99
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    client = session_client(player)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/maiden/panels/decide/"):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
    html = unescape(client.get(f"/games/{game.pk}/maiden/panels/decide/").content.decode())
    ap = view(game, 0)["check"]["ap"]
    assert f"AP now {ap};" in html, html
    if len(current.check.dice) >= 4:  # the two 6s can still ascend: one choice, 0% at 99
        assert re.search(r"cmd-ascend", html)


@pytest.mark.django_db
def test_a_pool_the_odds_cannot_count_leaves_the_odds_out_not_the_page(
    clock: Any, player: Any, monkeypatch: Any, caplog: Any
) -> None:
    """MV-ASC-9: the odds on the screen are an aid; a pool the odds model refuses is logged as a
    defect and the page shows its buttons without chances (it answered 400 to every poll)."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "post_roll")

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise maiden_odds.odds.OddsError("removed", "a pool the model cannot hold")

    monkeypatch.setattr(maiden_odds.odds, "ascension_plans", refuse)
    client = session_client(player)
    with caplog.at_level("ERROR", logger="delve.server.play.maiden_odds"):
        page = client.get(f"/games/{game.pk}/")
        panel = client.get(f"/games/{game.pk}/maiden/panels/decide/")
    assert page.status_code == panel.status_code == 200
    assert "cmd-resolve" in panel.content.decode()
    assert any("could not be counted" in r.getMessage() for r in caplog.records)


def _suggested_button(html: str, name: str) -> str:
    button = re.search(rf"<button[^>]*>[^<]*(?:<kbd>[^<]*</kbd>)?[^<]*{name}.*?</button>", html, re.S)
    assert button is not None, html
    return button.group(0)


@pytest.mark.django_db
def test_the_suggested_use_after_the_roll_is_the_highlighted_button_not_resolve(clock: Any, player: Any) -> None:
    """MV-ASC-9 with SUG-3 A20: no ascension reaches the target but the Sun (+3 AP) does: the
    suggestion names the Sun, whose button is the highlighted one (class best), and Resolve at 0%
    is not the filled main button (a player saw 'Suggested: Arcana: The Sun (100%)' beside a
    filled Resolve 0% and a plain Sun button)."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "post_roll")
    current = state(game)
    assert current.check is not None
    check = view(game, 0)["check"]
    faces = [d["face"] for d in check["dice"]]
    slate = check["slate"] if not check["slate_ignored"] else None
    slate_index = [d["colour"] for d in check["dice"]].index(slate) if slate else None
    current.check.target = best_ap(faces, slate_index, check["bonus"]) + 3
    current.arcana = [a for a in current.arcana if a not in (JUDGEMENT, WHEEL, JUSTICE, HANGED)] + [SUN]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    html = unescape(session_client(player).get(f"/games/{game.pk}/maiden/panels/decide/").content.decode())
    assert "Suggested: Arcana: The Sun (100%), better than any ascension." in html, html
    assert re.search(r'class="[^"]*\bbest\b', _suggested_button(html, "The Sun"))
    resolve = re.search(r'<button[^>]*class="[^"]*cmd-resolve[^"]*"', html)
    assert resolve is not None and "primary" not in resolve.group(0)


@pytest.mark.django_db
def test_before_the_roll_a_use_that_beats_rolling_as_is_is_suggested_and_roll_is_not_the_main_button(
    clock: Any, player: Any
) -> None:
    """MV-CHECK-4 with SUG-3 A08: before the roll the Chariot (a bigger die) gives a better chance
    than rolling as is: the panel suggests it and highlights its button, and Roll is not drawn as
    the main button (Roll 0% was filled beside a 66.5% skill with nothing marking it)."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "pre_roll")
    current = state(game)
    assert current.check is not None
    current.arcana = [a for a in current.arcana if a not in (CHARIOT, HIEROPHANT, JUDGEMENT)]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    client = session_client(player)
    html = unescape(client.get(f"/games/{game.pk}/maiden/panels/decide/").content.decode())
    roll = re.search(r'<button[^>]*class="[^"]*cmd-roll[^"]*"', html)
    assert roll is not None and "primary" in roll.group(0), html  # nothing at hand does better
    assert "better than rolling as is" not in html
    current.arcana = [*current.arcana, CHARIOT]
    for target in range(3, 40):  # a target the Chariot's bigger die makes likelier
        current.check.target = target
        Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
        before = maiden_odds.pre_roll(view(game, 0), {})
        chariot = _skill_button(screen_of(view(game, 0)), {"kind": "use_arcana", "area": CHARIOT})["odds"]
        if before is not None and chariot is not None and chariot.p > before.success.p:
            break
    else:
        pytest.fail("no target where the Chariot helps")
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    html = unescape(client.get(f"/games/{game.pk}/maiden/panels/decide/").content.decode())
    assert "Arcana: The Chariot" in html and "better than rolling as is." in html, html
    roll = re.search(r'<button[^>]*class="[^"]*cmd-roll[^"]*"', html)
    assert roll is not None and "primary" not in roll.group(0)
    assert re.search(r'class="[^"]*\bbest\b', _suggested_button(html, "Chariot"))


def _rolled_a_pair_of_twos(player: Any) -> tuple[Game, Any, list[int]]:
    """A solo game in its post-roll step, its dice set (in the state, not yet saved) to a pair of
    2s, a 5 and 1s: the game, that state and the faces."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "post_roll")
    current = state(game)
    assert current.check is not None
    faces = [2, 2, 5, *[1] * (len(current.check.dice) - 3)][: len(current.check.dice)]
    for die, face in zip(current.check.dice, faces, strict=True):
        die.face = face
    return game, current, faces


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "says", "suggested_word"),
    [("en", "better than any ascension", "suggested"), ("ja", "どのアセンションよりも", "おすすめ")],
)
def test_MV_ASC_9_one_suggestion_an_ascension_is_not_marked_when_a_use_is_suggested(
    clock: Any, player: Any, lang: str, says: str, suggested_word: str
) -> None:
    """MV-ASC-9 with SUG-3 A20: a pair of 2s can be ascended but reaches nothing, while the Sun
    (+3 AP) succeeds. The line suggested the Sun "better than any ascension" while the pair's
    button was also outlined, labelled suggested and taken by B. One suggestion on the panel: the
    Sun's button is outlined; no ascension is outlined, labelled suggested or bound to B. Without
    the Sun, the best ascension is again the suggestion (outlined, B)."""
    game, current, faces = _rolled_a_pair_of_twos(player)
    assert any(faces.count(f) >= 2 for f in faces)
    check = view(game, 0)["check"]
    current.check.target = 99
    current.arcana = [a for a in current.arcana if a not in (JUDGEMENT, WHEEL, JUSTICE, HANGED, SUN)]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    client = session_client(player)
    client.cookies["django_language"] = lang
    url = f"/games/{game.pk}/maiden/panels/decide/"
    html = unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    ascend = re.findall(r'<button[^>]*class="cmd-ascend[^"]*"[^>]*>', html)
    assert ascend and any(" best" in b and 'data-key="b"' in b for b in ascend), html  # no better use: B
    slate = check["slate"] if not check["slate_ignored"] else None
    slate_index = [d["colour"] for d in check["dice"]].index(slate) if slate else None
    current.check.target = best_ap(faces, slate_index, check["bonus"]) + 3
    current.arcana = [*current.arcana, SUN]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    html = unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert says in html, html
    ascend = re.findall(r'<button[^>]*class="cmd-ascend[^"]*"[^>]*>', html)
    assert ascend and not any(" best" in b or "data-key" in b for b in ascend), ascend
    assert f'<strong class="suggest">{suggested_word}</strong>' not in html
    assert html.count('data-key="b"') == 0
    assert len(re.findall(r'<button[^>]*class="[^"]*\bbest\b', html)) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "needless", "lowers"),
    [
        ("en", "not needed: succeeds without it", "would lower the chance (resolving now: 100% → "),
        ("ja", "不要：使わなくても成功", "使うと確率が下がる（今解決すると100% → "),
    ],
)
def test_MV_ASC_9_a_use_that_lowers_a_certain_chance_says_so_and_is_not_called_needless_or_best(
    clock: Any, player: Any, lang: str, needless: str, lowers: str
) -> None:
    """MV-ASC-9 with SUG-3 A12 (Justice) and A11 (Wheel of Fortune): the check already succeeds for
    certain when resolved now. A reroll offered at 33.3% said "not needed: succeeds without it":
    only a use that keeps 100% is not needed; one that would lower the chance says so with both
    chances, resolving now's and its own ("resolving now: 100% → 0%"), is never named the best
    chance and is not the suggestion."""
    game, current, _ = _rolled_a_pair_of_twos(player)
    current.check.dice = current.check.dice[:3]  # 1, 3, 4: no pair; a die set lower can fail
    for die, face in zip(current.check.dice, [1, 3, 4], strict=True):
        die.face = face
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    current.check.target = int(view(game, 0)["check"]["ap"])  # succeeds now, only just
    current.arcana = [*[a for a in current.arcana if a not in (JUDGEMENT, WHEEL, JUSTICE, HANGED, SUN)], JUSTICE, WHEEL]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    client = session_client(player)
    client.cookies["django_language"] = lang
    html = unescape(client.get(f"/games/{game.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    # Justice is a choice of die and face: the chance of each pair (and what it says beside it,
    # shown by the script for the chosen pair) is the picker's table; its best line names a 100%
    form = re.search(r'<form class="cmd pick pick-die-face".*?</form>', html, re.S)
    assert form, html
    table = json.loads(re.search(r'data-odds="(\{.*?\})"><span class="pick-best">', form[0], re.S)[1])
    lowered = 0
    for pair, row in table.items():
        if row["fraction"] == "1":
            assert needless in row["note"] and "→" not in row["note"], (pair, row)
        else:
            lowered += 1
            close = ")" if lang == "en" else "）"
            assert row["note"] == f"{lowers}{row['percent']}{close}", (pair, row)
    assert lowered, table
    best_line = re.search(r'<span class="pick-best">(.*?)</span><span class="pick-ticked"', form[0], re.S)[1]
    assert needless in best_line and lowers not in best_line, best_line
    assert "best chance" not in html and "最も高い確率" not in html
    assert not re.search(r'<button[^>]*class="[^"]*\bbest\b', html.split('class="uses"', 1)[-1])


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_MV_ASC_9_would_lower_is_measured_against_resolving_now_not_the_best_ascension(
    clock: Any, player: Any, lang: str
) -> None:
    """MV-ASC-9 with SUG-3 A12 (Justice): resolving now fails (0%) while ascending the pair
    succeeds (100%). A use was said to "lower the chance" against the best ascension, a number
    shown nowhere near it; measured against resolving now, no pick lowers it (each is 0% or
    100%), the 100% picks are not needed after the ascension, and the ascension stays the
    suggestion. The engine's AP confirms the setup: now below the target, the best reachable at it."""
    game, current, faces = _rolled_a_pair_of_twos(player)
    check = view(game, 0)["check"]
    slate = check["slate"] if not check["slate_ignored"] else None
    slate_index = [d["colour"] for d in check["dice"]].index(slate) if slate else None
    target = best_ap(faces, slate_index, check["bonus"])
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    assert int(view(game, 0)["check"]["ap"]) < target, (view(game, 0)["check"], target)
    current.check.target = target
    current.arcana = [*[a for a in current.arcana if a not in (JUDGEMENT, WHEEL, JUSTICE, HANGED, SUN)], JUSTICE]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    client = session_client(player)
    client.cookies["django_language"] = lang
    html = unescape(client.get(f"/games/{game.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    form = re.search(r'<form class="cmd pick pick-die-face".*?</form>', html, re.S)
    assert form, html
    table = json.loads(re.search(r'data-odds="(\{.*?\})"><span class="pick-best">', form[0], re.S)[1])
    assert "0" in {row["fraction"] for row in table.values()}, table
    assert all("→" not in row["note"] for row in table.values()), table
    assert "lower the chance" not in html and "確率が下がる" not in html, html
    ascend = re.findall(r'<button[^>]*class="cmd-ascend[^"]*"[^>]*>', html)
    assert any(" best" in b and 'data-key="b"' in b for b in ascend), ascend


def test_MV_ASC_9_lowering_and_needless_marks_are_set_against_the_chance_without_uses() -> None:
    """A button or choice at 100% on a certain check is not needed; below the chance without any
    use it lowers the chance (also when the check is not certain); a dice picker whose best set
    lowers it opens with nothing ticked and says every set lowers it (English and Japanese)."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from delve.server.play.maiden_screen import _chance_to_beat, _mark_needless_or_lowering

    def odds(p: Fraction) -> SimpleNamespace:
        return SimpleNamespace(p=p, percent=f"{float(p) * 100:.1f}%", level="low", fraction=str(p))

    keep, low = {"odds": odds(Fraction(1))}, {"odds": odds(Fraction(1, 3))}
    dice = [{"n": 0, "label": "die 1", "checked": True}]
    picker = {"buttons": [], "choices": [], "dice": dice, "best": {"odds": odds(Fraction(1, 3)), "dice": "die 1"}}
    _mark_needless_or_lowering([{"buttons": [keep, low], "choices": []}, picker], Fraction(1))
    assert low["lowers_from"] == "100%"  # no words given: the chance without uses
    assert keep.get("needless") and not keep.get("lowers")
    assert low.get("lowers") and not low.get("needless")
    assert picker["best"]["lowers"] and not dice[0]["checked"]
    half = {"odds": odds(Fraction(1, 2))}
    _mark_needless_or_lowering([{"buttons": [half], "choices": []}], Fraction(2, 3))
    assert half.get("lowers") and not half.get("needless")
    s = {"game": SimpleNamespace(pk=1)}
    # against resolving now (its words), not the best ascension: 0% now, 100% ascending
    zero, third = {"odds": odds(Fraction(0))}, {"odds": odds(Fraction(1, 3))}
    _mark_needless_or_lowering([{"buttons": [zero, third], "choices": []}], Fraction(1), "", (odds(Fraction(0)), "x"))
    assert not zero.get("lowers") and not third.get("lowers") and not third.get("needless")
    # what is beaten: resolving now after the roll, rolling as is before it (the odds model's own)
    before = SimpleNamespace(success=odds(Fraction(2, 3)))
    after = SimpleNamespace(success_now=odds(Fraction(1)))
    with translation.override("en"):
        assert _chance_to_beat({"roll": {"odds": before}}, "pre_roll") == (before.success, "rolling as is: 66.7%")
        assert _chance_to_beat({"after": after}, "post_roll") == (after.success_now, "resolving now: 100.0%")
    for language, now, says, every in (
        (
            "en",
            "resolving now: 100%",
            "would lower the chance (resolving now: 100% → 33.3%)",
            "any dice would lower the chance (resolving now: 100% → at best 33.3%)",
        ),
        (
            "ja",
            "今解決すると100%",
            "使うと確率が下がる（今解決すると100% → 33.3%）",
            "どのサイコロでも確率が下がる（今解決すると100% → 最善でも33.3%）",
        ),
    ):
        with translation.override(language):
            low["lowers_from"] = picker["best"]["lowers_from"] = now
            button = {"kind": "use_skill", "json": "{}", "id": "cmd-x", "label": "Swallow Dive · die 1 (red 6)", **low}
            html = render_to_string("play/maiden/_cmd.html", {"b": button, "odds": low["odds"], "s": s})
            assert says in html and "not needed" not in html and "不要" not in html, html
            use = {**picker, "name": "Wheel", "id": "pick-x", "json": "{}", "hint": "", "odds_json": "{}"}
            html = render_to_string("play/maiden/_use.html", {"u": use, "s": s})
            assert every in html and " checked" not in html, html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "plain", "after_ascending"),
    [
        (
            "en",
            "not needed: succeeds without it<",
            r"not needed: succeeds without it after ascending the pair of (\d+)s",
        ),
        ("ja", "不要：使わなくても成功<", r"不要：(\d+)のゾロ目でアセンションをすれば使わなくても成功"),
    ],
)
def test_MV_ASC_9_not_needed_names_the_ascension_when_resolving_now_fails(
    clock: Any, player: Any, lang: str, plain: str, after_ascending: str
) -> None:
    """MV-ASC-9 with SUG-3 A20: "Resolve the check 0%" stood beside "Arcana: The Sun 100% — not
    needed: succeeds without it", true only after the suggested ascension. When resolving now
    fails and an ascension succeeds for certain, a use at 100% says it is not needed after that
    ascension, by name; when resolving now succeeds, it says plainly that it is not needed."""
    game, current, _ = _rolled_a_pair_of_twos(player)
    current.arcana = [*[a for a in current.arcana if a not in (JUDGEMENT, WHEEL, JUSTICE, HANGED, SUN)], SUN]
    rules = engine.ruleset_of(game)
    client = session_client(player)
    client.cookies["django_language"] = lang
    seen = set()
    for target in range(1, 16):
        current.check.target = target
        Game.objects.filter(pk=game.pk).update(state=rules.encode(current).decode())
        html = unescape(
            client.get(f"/games/{game.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        )
        resolve = re.search(r'class="cmd-resolve[^"]*".*?class="odds[^"]*"[^>]*>([\d.]+)%', html, re.S)
        ascend = re.findall(
            r'class="cmd-ascend[^"]*"[^>]*>(?:<kbd[^>]*>[^<]*</kbd>)?[^<]*?(\d+)[^<]*'
            r'<span class="odds[^"]*"[^>]*>([\d.]+)%',
            html,
        )
        sun = re.search(r'(<button[^>]*class="cmd-use_arcana[^"]*".*?</button>)', html, re.S)
        if resolve is None or sun is None or "needless" not in sun[1]:
            continue
        if float(resolve[1]) < 100 and any(float(p) == 100 for _, p in ascend):
            named = re.search(after_ascending, sun[1])
            assert named is not None, sun[1]
            assert (named[1], "100") in ascend, (named[1], ascend)  # the pair named succeeds
            seen.add("after")
        elif float(resolve[1]) == 100:
            assert plain in sun[1] and re.search(after_ascending, sun[1]) is None, sun[1]
            seen.add("plain")
    assert seen == {"after", "plain"}, seen
