"""The move panel's buttons into a boss room say what waits there (MV-MOVE-6, MV-BOSS-2,
MV-CHECK-16): the boss, its life, its next action and the active maiden's chance of success on
it, equal to the chance the check panel shows once that check is started (the same odds of the
same check: difficulty, slate, mods such as no ascension, a smaller die step, the highest die
rerolled), and her life; with a poor chance and one life left the move is marked dangerous in
words. The buttons keep their order, and no move is suggested."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.utils import translation

from delve.maiden import odds
from delve.maiden.content import load
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.play import maiden_odds, maiden_screen
from tests.server.conftest import session_client
from tests.server.maiden_kit import legal, maiden_game, play_until, view

pytestmark = pytest.mark.django_db


def _beside_boss(
    game: Game,
    users: list[Any],
    boss: str,
    action: int | None,
    *,
    life: int = 1,
    markers: int | None = None,
    **stats: int,
) -> None:
    """Seat 0 in her move step, in a room next to ``boss``'s room with ``life`` life; the boss
    engaged earlier with its pointer on ``action`` (None: nobody fought it yet)."""
    from delve.maiden import settings as settings_module
    from delve.maiden.ctx import Ctx
    from tests.maiden.helpers import set_stats

    play_until(game, users, lambda v: v["phase"] == "move" and v["active_seat"] == 0)
    game.refresh_from_db()
    rules: Any = engine.ruleset_of(game)
    state = engine.load_state(game, rules)
    set_stats(state, 0, **{"pie": 0, "wil": 0, "agi": 0, "ins": 0, **stats})
    ctx = Ctx(state, state.clock, rules.content)
    maiden = state.maidens[0]
    maiden.room = next(r for r in ctx.edges()[boss] if rules.content.rooms[r].type != "boss")
    maiden.life = life
    if markers is not None:
        state.action_markers = markers
    if action is not None:
        st = state.bosses[boss]
        st.engaged = True
        st.life = st.life_max = settings_module.boss_life(state.settings, int(rules.content.bosses[boss].life))
        st.pointer = action
    game.state = rules.encode(state).decode()
    game.version += 1
    game.save()


def _moves(game: Game, player: Any) -> list[dict[str, Any]]:
    """The move buttons as an English reader's screen has them (whatever language an earlier
    request of the process left active)."""
    with translation.override("en"):
        return maiden_screen.panel_context(maiden_screen.load(game, player), "decide")["moves"]


def _into(game: Game, player: Any, room: str) -> dict[str, Any]:
    """Move seat 0 into ``room``: the view once her boss check waits to be rolled."""
    engine.submit(game.pk, player, {"kind": "move", "to": room})
    seen = view(game, 0)
    assert seen["phase"] == "pre_roll" and seen["check"]["kind"] == "boss", seen["phase"]
    return seen


CASES = [(b.id, i) for b in load().bosses.values() for i in range(3) if b.id != "kether"]


@pytest.mark.parametrize(("boss", "action"), CASES)
def test_the_move_shows_the_chance_the_check_panel_shows_for_that_action_MV_BOSS_2(
    clock: Any, player: Any, boss: str, action: int
) -> None:
    game = maiden_game([player])
    _beside_boss(game, [player], boss, action, life=2, wil=1, pie=1)
    moves = _moves(game, player)
    shown = next(b for b in moves if b["boss"] is not None and f'"to":"{boss}"' in b["json"].replace(" ", ""))
    settings = maiden_screen.load(game, player).settings
    checked = _into(game, player, boss)
    panel = maiden_odds.pre_roll(checked, settings)
    assert panel is not None and shown["boss"]["odds"] is not None
    assert shown["boss"]["odds"].p == panel.success.p
    assert shown["boss"]["action"] == maiden_screen._boss_action_name(boss, action, "en")
    assert checked["check"]["action"] == action
    assert shown["boss"]["mine"] == 2 and not shown["boss"]["danger"]


def test_a_boss_nobody_fought_shows_the_life_its_setup_gives_and_its_top_action_MV_SPEC_4(
    clock: Any, player: Any
) -> None:
    game = maiden_game([player])
    _beside_boss(game, [player], "tiphareth", None)
    shown = next(b["boss"] for b in _moves(game, player) if b["boss"] is not None)
    checked = _into(game, player, "tiphareth")
    boss = next(b for b in checked["bosses"] if b["id"] == "tiphareth")
    assert (shown["life"], shown["max"]) == (boss["life_left"], boss["life_max"])
    assert checked["check"]["action"] == 0
    assert shown["action"] == maiden_screen._boss_action_name("tiphareth", 0, "en")


def _decide(game: Game, player: Any, lang: str) -> str:
    client = session_client(player)
    client.cookies["django_language"] = lang
    response = client.get(f"/games/{game.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return unescape(re.sub(r"<span[^>]*>|</span>", "", response.content.decode()))


def test_a_poor_chance_with_one_life_is_marked_dangerous_in_words_MV_MOVE_6_MV_BOSS_4(clock: Any, player: Any) -> None:
    game = maiden_game([player])
    _beside_boss(game, [player], "tiphareth", 1, life=1, markers=8)
    shown = next(b["boss"] for b in _moves(game, player) if b["boss"] is not None)
    assert shown["odds"].p == 0 and shown["danger"]
    en = _decide(game, player, "en")
    name = maiden_screen.boss_name("tiphareth", "en")
    action = maiden_screen._boss_action_name("tiphareth", 1, "en")
    assert f"{name} ♥{shown['life']}/{shown['max']} · next: {action}, 0% · you have ♥1" in en
    assert "Dangerous" in en
    ja = _decide(game, player, "ja")
    name_ja = maiden_screen.boss_name("tiphareth", "ja")
    action_ja = maiden_screen._boss_action_name("tiphareth", 1, "ja")
    assert f"{name_ja} ♥{shown['life']}/{shown['max']}・次の行動：{action_ja} 0%・残りライフ1" in ja
    assert "危険" in ja


def test_no_danger_mark_with_more_than_one_life_or_a_fair_chance_MV_MOVE_6(clock: Any, player: Any) -> None:
    game = maiden_game([player])
    _beside_boss(game, [player], "tiphareth", 1, life=2, markers=8)
    shown = next(b["boss"] for b in _moves(game, player) if b["boss"] is not None)
    assert shown["odds"].p == 0 and not shown["danger"]
    assert "Dangerous" not in _decide(game, player, "en")
    game = maiden_game([player])
    _beside_boss(game, [player], "malkuth", 0, life=1, markers=0, wil=3, pie=2)
    shown = next(b["boss"] for b in _moves(game, player) if b["boss"] is not None)
    assert shown["odds"].p >= 1 / 3 and not shown["danger"]


def test_a_chance_the_odds_refuse_is_left_out_not_guessed_MV_BOSS_2(
    clock: Any, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = maiden_game([player])
    _beside_boss(game, [player], "tiphareth", 1, life=1, markers=8)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise odds.OddsError("size", "refused in this test")

    monkeypatch.setattr(odds, "check_odds", refuse)
    shown = next(b["boss"] for b in _moves(game, player) if b["boss"] is not None)
    assert shown["odds"] is None and not shown["danger"]
    html = _decide(game, player, "en")
    name = maiden_screen.boss_name("tiphareth", "en")
    assert f"{name} ♥{shown['life']}/{shown['max']} · next: " in html and "%" not in html.split(name, 1)[1][:80]


def test_the_moves_keep_their_order_and_none_is_suggested_MV_MOVE_6(clock: Any, player: Any) -> None:
    game = maiden_game([player])
    _beside_boss(game, [player], "tiphareth", 1, life=1, markers=8)
    moves = _moves(game, player)
    assert [b["json"] for b in moves] == [maiden_screen.as_json(c) for c in legal(game, 0) if c["kind"] == "move"]
    assert all(b["boss"] is None for b in moves if "tiphareth" not in b["json"])
    html = _decide(game, player, "en")
    assert " best" not in html.split('class="moves"', 1)[1].split("</ul>", 1)[0]


def test_the_view_lists_boss_checks_only_while_moving_MV_MOVE_12(clock: Any, player: Any) -> None:
    game = maiden_game([player])
    _beside_boss(game, [player], "tiphareth", 1)
    assert "tiphareth" in view(game, 0)["boss_checks"]
    _into(game, player, "tiphareth")
    assert view(game, 0)["boss_checks"] == {}
