"""The White Maiden screen's words, in English and Japanese: players' names exactly as written
(MV-TURN-1 log and now-line), an effect's choice naming its card and what choosing does
(MV-QUEST-2/5), the action cards under a stat in words (MV-STAT-2/3, MV-SKILL-4) and the action
card offered at a level-up (MV-LVL)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from delve.maiden import levelup, quests
from delve.maiden.ctx import Ctx
from delve.server import clock as server_clock
from delve.server.games import engine
from delve.server.games.models import Game
from tests.server.conftest import session_client
from tests.server.maiden_kit import SEED, play_until, state, view

pytestmark = pytest.mark.django_db


def lowercase_game(users: list[Any]) -> Game:
    """A running game whose players wrote their names in lower case ("ann", "bob")."""
    game = engine.create_game("maiden", "white-maiden", {"players": len(users), "start_player": 0})
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    for user in users:
        engine.register(game.pk, user, user.get_username().lower())
    game.refresh_from_db()
    return game


def panel(client: Client, game: Game, name: str, lang: str = "en") -> str:
    client.cookies["django_language"] = lang
    response = client.get(f"/games/{game.pk}/maiden/panels/{name}/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return unescape(response.content.decode())


def save(game: Game, current: Any) -> None:
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    game.refresh_from_db()


def test_MV_TURN_1_names_stay_as_their_players_wrote_them_in_the_log_and_the_now_line(
    clock: Any, player: Any, opponent: Any
) -> None:
    game = lowercase_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "post_roll")
    name = player.get_username().lower()
    client = session_client(opponent)
    for lang in ("en", "ja"):
        log = panel(client, game, "log", lang)
        status = panel(client, game, "status", lang)
        assert name in log and name.capitalize() not in log, lang
        assert name in status and name.capitalize() not in status, lang
    assert f"{name}の手番" in panel(client, game, "log", "ja")


@pytest.fixture
def nurse(clock: Any, player: Any, opponent: Any) -> Game:
    """Ann's turn in the move phase; she takes up the quest "The Prince's Old Nurse", whose
    effect (strike off one action of Prince Aurel) waits for her choice."""
    game = lowercase_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "move" and v["active_seat"] == 0)
    current = state(game)
    rules = engine.ruleset_of(game)
    ctx = Ctx(current, server_clock.now(), rules.content)
    quests.resolve(ctx, current.maidens[0], "q_princes_nurse")
    assert current.pending and current.pending[0].kind == "choose"
    save(game, current)
    return game


def test_MV_QUEST_5_an_effects_choice_names_its_card_and_what_choosing_does(nurse: Game, player: Any) -> None:
    pending = view(nurse, 0)["pending"][0]
    assert pending["source"] == "quest:q_princes_nurse" and pending["effect"] == "boss_disable_action"
    client = session_client(player)
    en = panel(client, nurse, "decide", "en")
    assert "The Prince's Old Nurse" in en
    assert "Choose one of the boss's actions to strike off: from now on the boss's pointer skips it." in en
    assert "Strike off one action of Prince Aurel (Tiphareth)." in en  # the quest's own text
    assert "Gilded Glare" in en  # the options: the boss's actions
    ja = panel(client, nurse, "decide", "ja")
    assert "王子の老乳母" in ja and "無効にするボスアクションを1つ選んでください。" in ja
    assert "ボスアクション1つを選んで無効にする" in ja
    # Japanese punctuation: the full-width colon after the card, a boss's action in brackets
    assert "王子の老乳母</strong>：無効にする" in ja and "金色の王子アウレルの「黄金の眼光」" in ja
    assert "The Prince's Old Nurse</strong>: Choose" in en and "Prince Aurel, the Gilded Heir: Gilded Glare" in en


def test_a_decision_other_than_an_effects_choice_names_no_card(clock: Any, player: Any, opponent: Any) -> None:
    game = lowercase_game([player, opponent])
    html = panel(session_client(player), game, "decide", "en")
    assert "effect-source" not in html


def test_MV_STAT_2_the_letters_under_a_stat_have_their_words(clock: Any, player: Any, opponent: Any) -> None:
    """Each letter under a stat names its action card (a title), and the panel says what the
    letters are, in English and Japanese (D Dash, J Jump, P Pray, G Guard; ダ, ジ, プ, ガ)."""
    game = lowercase_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "move")
    client = session_client(player)
    en = panel(client, game, "maidens", "en")
    letters = re.findall(r'<abbr title="([^"]+)">(.)</abbr>', en)
    assert letters, "the cards placed at setup are under the stats"
    assert all(name[0] == letter for name, letter in letters)
    assert {("Dash", "D"), ("Jump", "J"), ("Pray", "P"), ("Guard", "G")} <= set(letters)  # the legend
    assert "Letters under a stat: the action cards on it, bottom to top" in en
    assert re.search(r'<td title="(Piety|Will|Agility|Inspiration): action cards from bottom to top: ', en)
    ja = panel(client, game, "maidens", "ja")
    assert {("ダッシュ", "ダ"), ("ジャンプ", "ジ"), ("プレイ（祈り）", "プ"), ("ガード", "ガ")} <= set(
        re.findall(r'<abbr title="([^"]+)">(.)</abbr>', ja)
    )
    assert "能力値の下の文字は" in ja


def test_MV_LVL_keeping_an_action_card_says_what_the_card_is_and_does(clock: Any, player: Any, opponent: Any) -> None:
    """MV-LVL-3: a level-up with an extra card to draw offers two action cards to keep."""
    game = lowercase_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "move" and v["active_seat"] == 0)
    current = state(game)
    ctx = Ctx(current, server_clock.now(), engine.ruleset_of(game).content)
    current.maidens[0].extra_draw = 1
    levelup.start(ctx, current.maidens[0], "boss")
    assert current.pending[0].kind == "keep_card" and len(current.pending[0].options) == 2
    save(game, current)
    public = view(game, None)
    seat = public["pending"][0]["seat"]
    client = session_client([player, opponent][seat])
    en = panel(client, game, "decide", "en")
    assert re.search(r"Action card, shown as [DJPG] under a stat", en)
    assert "Place it on a stat: that stat rises by 1." in en
    assert not re.search(r'<p class="detail">[DJPG]</p>', en)
    ja = panel(client, game, "decide", "ja")
    assert re.search(r"アクションカード（能力値の下では「[ダジプガ]」と表示）", ja)
    assert "能力値に置くと、その能力値が1上がります。" in ja
