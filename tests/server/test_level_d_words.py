"""Level D speaks its own words everywhere a player reads (P-25, P-26, C-19, P-33, FL-CFG-5): ワナ
for 罠 (card names such as 「ワナ解除」 too), ダンジョン / "dungeon" for 迷宮 / "maze", in the help
page, the hand and the log, in both languages."""

from __future__ import annotations

import re
from html import unescape

import pytest

from delve.fated import content, text
from delve.server.games import engine

LEAKS = {"ja": re.compile("罠|迷宮"), "en": re.compile(r"\bmaze|labyrinth", re.IGNORECASE)}


def visible(html: str) -> str:
    """The page's text as read: no tags, no scripts, no preset titles (the preset picker names
    Fated Labyrinth on purpose)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    body = unescape(re.sub(r"<[^>]+>", " ", html))
    for preset in content.load().presets.values():
        if preset.id != "level-d":
            for title in preset.title.values():
                body = body.replace(title, " ")
    return body


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_level_d_card_names_and_texts_say_wana_and_dungeon_P_26_C_19(lang):
    """P-26, C-19: every card of Level D's set, its name and its text, through the preset's
    vocabulary: no 罠 / 迷宮 / "maze"; the trap-countermeasure family reads 「ワナ○○」."""
    data = content.load()
    for kind in data.copies("level-d"):
        card = data.cards[kind]
        for shown in (
            text.card_name(kind, lang, "level-d"),
            text.vocabulary(text.pick(card.text, lang), lang, "level-d"),
        ):
            assert not LEAKS[lang].search(shown), (kind, shown)
    if lang == "ja":
        assert text.card_name("trap-disarm", "ja", "level-d") == "ワナ解除"
        assert text.card_name("trap-disarm", "ja", "fated-labyrinth") == "罠解除"
        assert text.card_name("trap-disarm", "ja") == "罠解除"
        assert "迷宮内" in text.pick(data.cards["treasure-toss"].text, "ja")
        assert "ダンジョン内" in text.vocabulary(text.pick(data.cards["treasure-toss"].text, "ja"), "ja", "level-d")
    else:
        assert "dungeon" in text.vocabulary(text.pick(data.cards["treasure-toss"].text, "en"), "en", "level-d")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_level_d_statuses_monsters_and_classes_say_its_words_P_26(lang):
    """P-26: status names and texts, monster and class descriptions of Level D (浮遊, 鉄壁, the
    Imp's and the Ninja's texts) say ワナ."""
    data = content.load()
    shown = [text.vocabulary(text.pick(s.text, lang), lang, "level-d") for s in data.statuses.values()]
    shown += [text.vocabulary(text.pick(s.name, lang), lang, "level-d") for s in data.statuses.values()]
    shown += [text.vocabulary(text.pick(m.description, lang), lang, "level-d") for m in data.monsters.values()]
    shown += [text.vocabulary(text.pick(c.description, lang), lang, "level-d") for c in data.classes.values()]
    assert not [s for s in shown if LEAKS[lang].search(s)]


def test_level_d_log_names_cards_in_its_words_P_26():
    """P-26, FL-INFO-4: the log names a trap card as Level D does; Fated Labyrinth's log keeps 罠."""
    event = {"kind": "card.used", "player": 0, "card": "trap-disarm"}
    assert "ワナ解除" in text.describe(event, "ja", "level-d", viewer=None)
    assert "罠解除" in text.describe(event, "ja", "fated-labyrinth", viewer=None)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_level_d_help_page_has_no_fated_labyrinth_words_P_25_P_26(db, client, lang):
    """P-25, P-26, FL-CFG-5: the help of a Level D game (its cards, statuses, monsters, classes,
    settings, legend and commands) shows no 罠 / 迷宮 / "maze" / "labyrinth"."""
    game = engine.create_game("fated", "level-d", {"maze_size": 9})
    for url in (f"/games/{game.pk}/help/", "/help/?preset=level-d"):
        body = visible(client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        found = {m.group(0): body[max(m.start() - 30, 0) : m.end() + 30] for m in LEAKS[lang].finditer(body)}
        assert not found, found
    if lang == "ja":
        assert "ワナ解除" in body


@pytest.mark.parametrize(
    ("preset", "lang", "heading"),
    [
        ("level-d", "ja", "ダンジョンの全体"),
        ("level-d", "en", "The whole dungeon"),
        ("fated-labyrinth", "ja", "迷宮の全体"),
        ("fated-labyrinth", "en", "The whole labyrinth"),
    ],
)
def test_the_replay_names_the_board_with_the_presets_maze_word_FL_CFG_5(preset, lang, heading):
    """FL-CFG-5: the replay's board heading says the preset's maze word (Level D: ダンジョン)."""
    from django.utils import translation

    from delve.server.games.models import Game
    from delve.server.records.replay import _board_title

    with translation.override(lang):
        assert _board_title(Game(ruleset="fated", preset=preset), lang) == heading


@pytest.mark.parametrize(("preset", "trap"), [("level-d", "^ ワナ、"), ("fated-labyrinth", "^ 罠、")])
def test_the_replays_board_key_says_the_presets_trap_word_P_26(preset, trap):
    """P-26: the replay's key to the board names a trap as the preset does (Level D: ワナ)."""
    from django.utils import translation

    from delve.server.games.models import Game
    from delve.server.records.replay import _board_legend

    with translation.override("ja"):
        assert trap in _board_legend(Game(ruleset="fated", preset=preset), "ja")
    with translation.override("en"):
        assert "^ a trap, " in _board_legend(Game(ruleset="fated", preset=preset), "en")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_waiting_page_says_resign_for_a_level_d_deadline_P_33(db, clock, make_user, lang):
    """P-33: at the abandon deadline a Level D player is deemed to have resigned (投了); the
    waiting page says so instead of Fated Labyrinth's "the character is abandoned" (放棄)."""
    from tests.server.conftest import START, session_client
    from tests.server.notify_kit import HOUR, fated, step

    users = [make_user(name) for name in ("ann", "bob", "cid", "dan")]
    level_d = fated(users, preset="level-d")
    clock.t = START + HOUR
    step()
    client = session_client(users[0])
    client.cookies["django_language"] = lang
    html = unescape(client.get("/me/waiting/", headers={"Accept-Language": lang}).content.decode())
    assert f"/games/{level_d.pk}/" in html
    assert ("過ぎると投了と見なされる" if lang == "ja" else "then you are deemed to have resigned") in html
    assert "放棄" not in html and "abandoned" not in html
    others = [make_user(name) for name in ("eve", "fay", "gus", "hal")]
    fated(others)
    clock.t = START + 2 * HOUR
    step()
    client = session_client(others[0])
    client.cookies["django_language"] = lang
    html = unescape(client.get("/me/waiting/", headers={"Accept-Language": lang}).content.decode())
    assert ("過ぎるとキャラクターは放棄" if lang == "ja" else "then the character is abandoned") in html


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_level_d_registration_form_describes_the_classes_in_its_words_P_26(db, clock, make_user, lang):
    """P-26, P-28: the registration form of an open Level D game describes the classes (the
    Ninja disarms ワナ) with no 罠 / 迷宮 / "maze"."""
    from tests.server.conftest import session_client

    engine.create_game("fated", "level-d", {"maze_size": 9})
    client = session_client(make_user("ann"))
    body = visible(client.get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert not LEAKS[lang].findall(body), body
    if lang == "ja":
        assert "踏んだワナを50%で解除できる" in body


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_deadline_notices_the_calendar_and_standings_say_resign_in_level_d_P_33(db, clock, make_user, lang):
    """P-33: Level D names giving up 投了 ("resigned") everywhere Fated Labyrinth says 放棄
    ("abandoned"): the deadline notice's consequence, the calendar's summary and the fate in the
    final standings; Fated Labyrinth keeps its words."""
    from types import SimpleNamespace

    from delve.server.notify import text as notify_text
    from delve.server.notify import waiting
    from delve.server.notify.models import Notice
    from delve.server.play.fated_screen import _fate
    from tests.server.conftest import START
    from tests.server.notify_kit import HOUR, fated, player, step

    users = [make_user(name, email=f"{name}@example.org") for name in ("ann", "bob", "cid", "dan")]
    level_d = fated(users, preset="level-d")
    clock.t = START + HOUR
    step()
    deadline = player(level_d, 0).wait_ended_at + 48 * HOUR  # P-15: Level D's 48 hours
    clock.t = deadline - 24 * HOUR
    step()
    notice = Notice.objects.get(user=users[0], kind="deadline_24h")
    assert notice.data["preset"] == "level-d"
    _, body = notify_text.render("deadline_24h", notice.data, lang)
    resign = {"en": "the character is deemed to have resigned", "ja": "投了と見なされます"}[lang]
    abandon = {"en": "the character is abandoned", "ja": "キャラクターは放棄されます"}[lang]
    assert resign in body and abandon not in body
    fl_data = {**notice.data, "preset": "fated-labyrinth"}
    assert abandon in notify_text.render("deadline_24h", fl_data, lang)[1]
    summary = waiting._summary("abandon", level_d, lang).format(game="G", name="Ann")
    assert summary == {"en": "G: Ann resigns unless you act", "ja": "G：行動しないとAnnは投了"}[lang]
    fl_summary = waiting._summary("abandon", SimpleNamespace(ruleset="fated", preset="fated-labyrinth"), lang)
    assert fl_summary == waiting.SUMMARIES["abandon"][lang]
    for fate in ("abandoned", "gave_up"):
        shown = _fate(SimpleNamespace(lang=lang, preset="level-d"), fate)
        assert shown == {"en": "resigned", "ja": "投了"}[lang]
        assert "放棄" not in shown
    assert (
        _fate(SimpleNamespace(lang=lang, preset="fated-labyrinth"), "gave_up") == {"en": "gave up", "ja": "放棄"}[lang]
    )


@pytest.mark.parametrize(
    ("preset", "lang", "said"),
    [
        ("level-d", "ja", "あなたは投了しました"),
        ("level-d", "en", "You resigned"),
        ("fated-labyrinth", "ja", "あなたはゲームを放棄しました"),
        ("fated-labyrinth", "en", "You abandoned the game"),
    ],
)
def test_the_waiting_page_says_a_give_up_in_the_presets_word_P_33(db, clock, make_user, preset, lang, said):
    """P-33: a Level D player who gave up read 「あなたはゲームを放棄しました」 on the waiting page
    while the records and the end notice say 投了: the page says it in the preset's word, by the
    same function as the notice (notify.text.result_word)."""
    from tests.server.conftest import START, session_client
    from tests.server.notify_kit import HOUR, fated, step

    users = [make_user(name) for name in ("ann", "bob", "cid", "dan")]
    game = fated(users, preset=preset)
    clock.t = START + HOUR
    step()
    engine.submit(game.pk, users[0], {"kind": "give_up"})
    client = session_client(users[0])
    client.cookies["django_language"] = lang
    html = unescape(client.get("/me/waiting/", headers={"Accept-Language": lang}).content.decode())
    assert f"<strong>{said}</strong>" in html
    if preset == "level-d":
        assert "放棄" not in html and "abandoned" not in html


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_waiting_pages_stored_turns_cell_says_its_label_once_FL_TURN_6(db, clock, make_user, lang):
    """FL-TURN-6: the stored-turns cell, whose column (and, on a phone, its data-label) says
    "Stored turns", read 「蓄積ターン: 蓄積ターン 1 / 2（…）」: the cell says the count alone."""
    from tests.server.conftest import START, session_client
    from tests.server.notify_kit import HOUR, fated, step

    users = [make_user(name) for name in ("ann", "bob", "cid", "dan")]
    fated(users)
    clock.t = START + HOUR
    step()
    client = session_client(users[0])
    client.cookies["django_language"] = lang
    html = unescape(client.get("/me/waiting/", headers={"Accept-Language": lang}).content.decode())
    cell = re.search(r'<td data-label="([^"]+)">([^<]*)', html[html.index("<tbody>") :].split("</td>", 3)[3])
    assert cell, html
    label, value = cell.groups()
    assert label == ("蓄積ターン" if lang == "ja" else "Stored turns")
    assert value.startswith("1 / 2"), value
    assert label not in value and "stored turn" not in value.lower()


@pytest.mark.parametrize(
    ("preset", "lang", "said"),
    [
        (
            "fated-labyrinth",
            "en",
            [
                "death check",
                "25% chance",
                "10 HP",
                "flung to a random place in the labyrinth",
                "one kill",
                "If you give up",
                "no death check",
            ],
        ),
        ("level-d", "en", ["death check", "25% chance", "If you resign", "random place in the dungeon"]),
        ("fated-labyrinth", "ja", ["死亡判定", "成功率は25%", "HP 10", "迷宮のランダムな場所", "撃破数", "放棄（"]),
        ("level-d", "ja", ["死亡判定", "成功率は25%", "ダンジョンのランダムな場所", "投了（"]),
    ],
)
def test_the_help_explains_the_death_check_and_kill_credit_FL_DEATH_1_FL_DEATH_4_FL_KILL_1(
    db, client, preset, lang, said
):
    """FL-DEATH-1..5, FL-KILL-1..7, FL-ABN-5: the help never said that HP 0 rolls a 25% death
    check, where the treasures go and who gets the kill: a section says it, in the preset's words."""
    body = visible(client.get(f"/help/?preset={preset}", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    heading = {"en": "Death and kills", "ja": "死亡と撃破数"}[lang]
    assert body.count(heading) == 2, "the contents and the section"
    section = body[body.rindex(heading) :]
    for words in said:
        assert words in section, words
