"""The White Maiden help page: how to play in the reader's language (MV-OVER-2..5, MV-CHECK,
MV-ASC, MV-SLATE, MV-SKILL, MV-STAT, MV-EXPL, MV-BOSS, MV-DEATH) and the shipped familiars,
bosses and areas; a game's page adds its settings. Linked from the game screen, the new-game page,
the lobby and Fated Labyrinth's help."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import msgspec
import pytest
from django.test import Client

from delve.maiden.content import load
from delve.server.games import engine
from delve.server.play import maiden_help
from tests.server.conftest import session_client
from tests.server.maiden_kit import maiden_game

pytestmark = pytest.mark.django_db

URL = "/help/?preset=white-maiden"


def page(client: Client, url: str, lang: str = "en") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_every_part_of_the_guide_reads_in_english_and_japanese() -> None:
    for anchor, title, blocks in maiden_help.GUIDE:
        assert title["en"] and title["ja"], anchor
        for block in blocks:
            for text in block if isinstance(block, list) else [block]:
                assert text["en"].strip() and text["ja"].strip(), (anchor, text)
                assert text["en"] != text["ja"]


def test_the_help_page_explains_the_rules_and_lists_the_shipped_content() -> None:
    """The page a stranger reads before a first game: every guide section, then every familiar
    with its skill, every boss with its life and actions, every area with its effect and Arcana."""
    html = page(Client(), URL)
    assert "<h1>How to play White Maiden</h1>" in html
    for anchor, title, _blocks in maiden_help.GUIDE:
        assert f'<section id="{anchor}"><h2>{title["en"]}</h2>' in html
    assert "everyone wins; if round 24 ends with Urza alive, everyone loses" in html  # MV-OVER-5
    assert "add 1 + Piety to your AP" in html  # MV-ASC-1
    data = load()
    for familiar in data.familiars.values():
        assert familiar.name["en"] in html
        for skill in familiar.skills:
            assert data.skills[skill].name["en"] in html
    for boss in data.bosses.values():
        assert re.search(rf"{re.escape(boss.name['en'])} <span class=\"hint\">{boss.life} life</span>", html)
        for action in boss.actions:
            assert action.name["en"] in html
    rows = re.findall(r'<tr><th scope="row">([^<]*)</th>', html.split('id="area-list"')[1])
    assert sorted(rows) == sorted(area.name["en"] for area in data.areas.values()) and len(rows) == 22
    assert "Rules of:" in html and 'href="/help/?preset=fated-labyrinth"' in html


def test_the_help_page_reads_in_japanese() -> None:
    html = page(Client(), URL, "ja")
    assert "<h1>白き乙女の遊び方</h1>" in html
    for _anchor, title, _blocks in maiden_help.GUIDE:
        assert f"<h2>{title['ja']}</h2>" in html
    assert "狂王ウルザ" in html and "暁の雌鹿アイェレト" in html
    assert "How to play" not in html


def test_a_games_help_page_shows_its_settings_and_leads_back(clock: Any, player: Any, opponent: Any) -> None:
    game = maiden_game([player, opponent])
    html = page(Client(), f"/games/{game.pk}/help/")
    assert f"These are the rules of game {game.pk}." in html
    assert f'<a href="/games/{game.pk}/">Back to the game</a>' in html
    settings = html.split('<section id="settings">')[1]
    assert "<dt>Players</dt><dd>2</dd>" in settings


def test_the_screen_the_new_game_page_the_lobby_and_fated_help_link_to_it(clock: Any, player: Any) -> None:
    game = maiden_game([player])
    client = session_client(player)
    assert f'href="/games/{game.pk}/help/"' in page(client, f"/games/{game.pk}/")
    assert f'href="{URL}"' in page(client, "/maiden/new/").replace("&amp;", "&")
    waiting = engine.create_game("maiden", "white-maiden", {"players": 2, "start_player": 0})
    assert f'href="/games/{waiting.pk}/help/"' in page(client, "/")  # a game open for registration
    assert 'href="?preset=white-maiden"' in page(Client(), "/help/")


def test_MV_STAT_2_the_help_explains_the_letters_under_a_stat_in_both_languages(client: Client) -> None:
    """The letters the Maidens panel shows under a stat (D, J, P, G; ダ, ジ, プ, ガ) are explained
    on the help page, each with its action card's name from the content."""
    symbols = load().symbols
    en, ja = page(client, URL, "en"), page(client, URL, "ja")
    assert "the letters under a stat's level are the action cards placed on it, from bottom to top" in en
    for letter, name in symbols.items():
        assert f"{letter} {name.en}" in en
        assert f"{name.ja[0]}＝{name.ja}" in ja
    assert "能力値のレベルの下に並ぶ文字は" in ja


def test_the_help_says_which_inspiration_opens_which_hidden_passage_from_the_map_SUG_10(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SUG-10, MV-MOVE-13: a hidden passage opens to a maiden whose Inspiration reaches its
    ``min_ins``; the help's words come from the map (Qesheth needs 1, the Da'at stairs 2; the
    help said 2 for all), so a map with other thresholds reads otherwise."""
    html = page(Client(), URL)
    assert "at 1 or more, Qesheth, the Rainbow Bridge; at 2 or more, Da'at: the Abyss Stair to Binah and" in html
    assert "At 2 or more you may also take the hidden passages" not in html
    assert "霊感1以上で虹の橋ケシェト、2以上でダアト" in page(Client(), URL, "ja")
    data = load()
    assert sorted(p.min_ins for p in data.passages.values()) == [1, 2, 2]
    even = msgspec.structs.replace(
        data, passages={k: msgspec.structs.replace(p, min_ins=3) for k, p in data.passages.items()}
    )
    monkeypatch.setattr(maiden_help, "content", lambda: even)
    html = page(Client(), URL)
    assert "At 3 or more you may also take the hidden passages (the dashed lines on the map)." in html
    assert "3以上になると隠し通路（地図の点線）も通れる。" in page(Client(), URL, "ja")


def test_MV_ASC_9_the_help_and_the_key_list_say_B_is_the_one_suggested_ascension(client: Client, player: Any) -> None:
    """MV-ASC-9: the panel has one suggestion; B presses the suggested ascension and nothing when
    a skill or Arcana is suggested instead. The help page and the screen's key list say so."""
    en, ja = page(client, URL, "en"), page(client, URL, "ja")
    assert "B the suggested ascension (nothing when a skill or Arcana is suggested instead" in en
    assert "B おすすめのアセンション（スキルかアルカナがおすすめの時は何もしない" in ja
    game = maiden_game([player])
    mine = session_client(player)
    for lang, says in (
        ("en", "the suggested ascension (none when a skill or Arcana is suggested instead)"),
        ("ja", "おすすめのアセンション（スキルかアルカナがおすすめの時は何もしない）"),
    ):
        mine.cookies["django_language"] = lang
        assert says in page(mine, f"/games/{game.pk}/", lang)


def test_the_guides_keyboard_help_is_marked_for_keyboards_only() -> None:
    """The guide's keys (R, B, E, 1-9, S) are a paragraph of their own marked .keys-hint, which a
    touch screen leaves out (site.css), in both languages; the rest of the screen's part stays."""
    for lang, keys, kept in (
        ("en", "Keys: R roll the dice", "The decision panel lists"),
        ("ja", "キー操作：R", "決定パネル"),
    ):
        html = page(Client(), URL, lang)
        assert f'<p class="keys-hint">{keys}' in html
        assert f"<p>{kept}" in html


def test_the_familiar_table_writes_brackets_as_each_language_does() -> None:
    """MV-SKILL-4: a familiar's skill with its condition and timing: "Dawn Stride [Dash] (when
    moving)" in English; in Japanese the draft's 「」 around each action card's name and
    full-width parentheses, with no space before them (暁の歩み「ダッシュ」（移動時）), and no
    half-width bracket anywhere in the table; the area table's timings alike."""
    data = load()
    ayelet = next(f for f in data.familiars.values() if f.name["en"].startswith("Ayelet"))
    skill = data.skills[ayelet.skills[0]]
    english = page(Client(), URL)
    assert f"<strong>{skill.name['en']}</strong> [Dash]<small> (when moving)</small>" in english
    japanese = page(Client(), URL, "ja")
    assert f"<strong>{skill.name['ja']}</strong>「ダッシュ」<small>（移動時）</small>" in japanese
    familiars = japanese.split('<section id="familiars">')[1].split("</table>")[0]
    text = re.sub(r"<[^>]+>", "", familiars)
    assert not re.search(r"[\[\]()]", text), text
    # a condition of two cards: each name in its own brackets, as the draft lists the cards
    from delve.server.play.maiden_screen import skill_condition

    assert skill_condition(["D", "P"], "ja") == "「ダッシュ」「プレイ（祈り）」"
    assert skill_condition(["D", "P"], "en") == "[Dash, Pray]"
    assert skill_condition(["D", "P"], "en", joiner=" + ") == "[Dash + Pray]"
    assert skill_condition([], "ja") == ""
    areas = re.sub(r"<[^>]+>", "", japanese.split('id="area-list"')[1].split("</table>")[0])
    assert not re.search(r"[()]", areas) and "（" in areas


#: What an Arcana's text says of its timing, by the content's ``arcana_timing`` (MV-EXPL-5).
ARCANA_TIMING_WORDS = {
    "any": ("(any time)", "（いつでも）"),
    "movement": ("(when moving)", "（移動時）"),
    "pre_roll": ("(before the roll)", "（ロール前）"),
    "post_roll": ("(after the roll)", "（ロール後）"),
    "damage": ("(when a maiden would die)", "（死亡する時）"),
}


def test_MV_EXPL_5_each_arcana_says_its_timing_once_and_the_one_it_is_used_at() -> None:
    """MV-EXPL-5, MV-DEATH-1: the area table printed each Arcana's timing twice ("Abundance (any
    time): every maiden heals 6. (any time)"), and Death's two different ones: "Rebirth (when a
    maiden would die)" then "(when taking damage)", while its window opens only when damage would
    kill her. Each Arcana's text names the timing it is used at, and the page says it once."""
    from delve.server.play.maiden_screen import timing_name

    data = load()
    english = page(Client(), URL).split('id="area-list"')[1].split("</table>")[0]
    japanese = page(Client(), URL, "ja").split('id="area-list"')[1].split("</table>")[0]
    from django.utils import translation

    for area in data.areas.values():
        en, ja = ARCANA_TIMING_WORDS[area.arcana_timing]
        assert en in area.arcana_text["en"] and ja in area.arcana_text["ja"], area.name["en"]
        # the same words as every label of that timing (a skill's, the screen's): "(movement)"
        # stood where the labels say "when moving"
        with translation.override("en"):
            assert en == f"({timing_name(area.arcana_timing)})", en
        with translation.override("ja"):
            assert ja == f"（{timing_name(area.arcana_timing)}）", ja
        row = re.search(rf"<th scope=\"row\">{re.escape(area.name['en'])}</th>(.*?)</tr>", english, re.S)[1]
        row = re.sub(r"<[^>]+>", "", row)  # the text only (a cell's label names its column)
        assert row.count("(") == area.arcana_text["en"].count("(") + area.effect_text["en"].count("("), row
        row_ja = re.search(rf"<th scope=\"row\">{re.escape(area.name['ja'])}</th>(.*?)</tr>", japanese, re.S)[1]
        row_ja = re.sub(r"<[^>]+>", "", row_ja)
        assert row_ja.count("（") == area.arcana_text["ja"].count("（") + area.effect_text["ja"].count("（"), row_ja

    with translation.override("en"):
        assert timing_name("damage") == "when a maiden would die"
    with translation.override("ja"):
        assert timing_name("damage") == "死亡する時"
    assert "when taking damage" not in english
