"""White Maiden sentences (text.py): every event kind the engine emits has an English and a
Japanese sentence with the content's names; unknown kinds still read as sentences."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from delve.bots.maiden_eval import play_game
from delve.kernel import Event
from delve.maiden import text
from tests.fated.test_text import untranslated_pairs
from tests.maiden.fixtures.content import CONTENT
from tests.maiden.playout import playout
from tests.maiden.test_playouts import FIXTURE, VARIANTS

ENGINE = Path(text.__file__).parent
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
PLAYERS = ["Alba", "Bianca", "Candida", "Dalia"]


def emitted_kinds() -> set[str]:
    """Every kind named in an ``emit(...)`` call of the engine's source (literal kinds and the
    kinds of a conditional such as ``"game.won" if won else "game.lost"``)."""
    kinds: set[str] = set()
    for path in ENGINE.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        for call in re.finditer(r"emit\(\s*((?:\"[a-z_.]+\"(?:\s+if\s+[^\"]+\s+else\s+)?)+)", source):
            kinds.update(re.findall(r"\"([a-z_]+\.[a-z_.]+)\"", call.group(1)))
    return kinds


def played_events() -> list[Event]:
    events: list[Event] = []
    for players in (1, 2, 3, 4):
        for seed in (1, 2, 3, 4):
            for bot in ("random", "heuristic"):
                events += play_game(players, seed, bot=bot, ruleset=FIXTURE, keep_events=True).events
    return events


@pytest.fixture(scope="module")
def events() -> list[Event]:
    return played_events()


def test_every_kind_in_the_engine_source_has_a_sentence() -> None:
    kinds = emitted_kinds()
    assert len(kinds) > 40, "the scan of emit() calls found too few kinds"
    missing = sorted(k for k in kinds if not text.has_sentence(k))
    assert not missing, f"add sentences for {missing} to src/delve/maiden/text.py SENTENCES"


def test_every_english_text_of_the_module_has_its_japanese() -> None:
    """A sentence or a name added in English only (or with an English or empty Japanese) fails
    here, whether or not a playout reaches it."""
    assert len(re.findall(r"\bsay\(|_simple\(|\{\"en\":", Path(text.__file__).read_text(encoding="utf-8"))) > 50
    assert not untranslated_pairs(Path(text.__file__))


def test_every_kind_played_has_a_sentence_in_both_languages(events: list[Event]) -> None:
    """Kinds collected from random and heuristic playouts at 1-4 players: none falls back to
    the generic sentence, and each Japanese sentence is Japanese."""
    kinds = {e.kind for e in events}
    assert {"round.started", "check.resolved", "boss.defeated", "maiden.entered"} <= kinds
    for event in events:
        en = text.event_sentence(event, "en", CONTENT, PLAYERS)
        ja = text.event_sentence(event, "ja", CONTENT, PLAYERS)
        assert not en.startswith("Event “"), (event.kind, event.data)
        assert not ja.startswith("出来事「"), (event.kind, event.data)
        assert JAPANESE.search(ja), (event.kind, ja)
        assert en != ja


def test_sentences_use_the_content_names_in_each_language() -> None:
    event = Event(kind="boss.engaged", time=0, data={"boss": "warden", "life": 4, "seat": 1})
    assert text.event_sentence(event, "en", CONTENT, PLAYERS) == (
        "Bianca challenged Warden! The boss awakens with 4 life."
    )
    ja = text.event_sentence(event, "ja", CONTENT)
    assert ja == "プレイヤー2がWarden（日本語）に挑んだ！ボスはライフ4で目覚めた。"


def test_a_check_sentence_names_the_boss_action_and_slate() -> None:
    data = {"seat": 0, "kind": "boss", "source": "warden", "action": 2, "target": 7, "slate": "red", "required": 1}
    en = text.sentence("check.started", data, "en", CONTENT)
    # the action in brackets, not "Warden's action 2": a boss's name may end in an epithet
    assert en == "Player 1 faces Warden (action 2): target 7, red slate."
    ja = text.sentence("check.started", data, "ja", CONTENT)
    assert "目標値7" in ja and "赤のスレート" in ja


def test_rooms_are_named_by_area_and_position() -> None:
    names = text.Names("en", CONTENT)
    assert names.room("a1_2") == "The Fool, room 2"
    assert names.room("s") == "the start (S)"
    assert names.room("b_warden") == "the hall of Yesod"
    assert text.Names("ja", CONTENT).room("a1_2") == "The Fool（日本語）・ルーム2"


def test_the_shipped_content_names_rooms_and_bosses_in_japanese() -> None:
    names = text.Names("ja")
    assert JAPANESE.search(names.boss("kether"))
    assert JAPANESE.search(names.room("kether"))
    first_area = next(iter(names.content.areas))
    first_room = names.content.area_rooms[first_area][0]
    assert names.room(first_room).endswith("ルーム1")


def test_a_view_log_entry_reads_as_a_sentence() -> None:
    entry: dict[str, Any] = {"time": 0, "kind": "round.started", "data": {"round": 3, "action_markers": 2}}
    entry["data"]["base_target"] = 2
    assert text.describe(entry, "en", CONTENT) == "Round 3 begins: 2 action markers, base target 2."
    assert text.describe(entry, "ja", CONTENT) == "第3ラウンド開始。アクションマーカー2個、基本目標値2。"


def test_an_unknown_kind_gets_a_generic_sentence() -> None:
    sentence = text.sentence("maiden.sang", {"seat": 0, "song": "lullaby"}, "en", CONTENT)
    assert sentence == "Event “maiden.sang”: seat Player 1, song lullaby."
    assert text.sentence("maiden.sang", {}, "ja", CONTENT) == "出来事「maiden.sang」。"


def test_unexpected_data_falls_back_instead_of_failing() -> None:
    sentence = text.sentence("card.kept", {"deck": "room", "discarded": 3}, "en", CONTENT)
    assert sentence.startswith("Event “card.kept”")


# -- the same API as the engine's first version of text.py ------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sentences_of_a_played_game_fill_every_placeholder(lang: str) -> None:
    events: list[Event] = []
    game = playout(FIXTURE, 2, 11, settings=VARIANTS[3], events=events)
    names = [m.name for m in game.maidens]
    kinds = set()
    for entry in events:  # every event of the game, the setup's own first
        line = text.sentence(entry.kind, entry.data, lang, CONTENT, names)
        assert line and "{" not in line and "?" not in line, (entry.kind, line)
        kinds.add(entry.kind)
    assert "game.won" in kinds or "game.lost" in kinds


def test_names_come_from_the_content() -> None:
    assert text.sentence("boss.engaged", {"boss": "urza", "life": 3, "seat": 0}, "ja", CONTENT).startswith(
        "プレイヤー1がMad King Urza（日本語）に挑んだ"
    )
    assert text.sentence("turn.started", {"seat": 1}, "en") == "Player 2's turn."
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        text.sentence("turn.started", {"seat": 0}, "fr")


def test_an_event_of_a_room_card_or_a_boss_is_named_not_shown_by_its_id():
    """A room card's event and a boss action's effect name the card and the boss in both
    languages (the log said "The event of r01" and "Tipharethのイベント")."""
    from delve.maiden import content, text

    data = content.load()
    card = next(iter(data.room_cards))
    room = text.sentence("check.event", {"seat": 0, "kind": "room", "source": card, "on": "success"}, "en")
    assert card not in room and data.room_cards[card].name.en in room
    boss = text.sentence("check.event", {"seat": 0, "kind": "boss", "source": "kether", "on": "always"}, "ja")
    assert boss == "狂王ウルザの行動の効果が発生した（常時）。"


def test_a_players_name_is_never_capitalised_only_the_templates_own_first_letter_is() -> None:
    """MV-TURN-1 log: a maiden named "alma" stays "alma" at the start of a sentence and inside it,
    in English and Japanese; a sentence that starts with the template's own words is capitalised
    in English; no mark of the names is left in a sentence."""
    names = ["alma", "bruno"]
    used = text.sentence("arcana.used", {"seat": 0, "for_seat": 0, "area": "a13"}, "en", None, names)
    assert used.startswith("alma used the Arcana of ") and used.endswith(" for alma.")
    assert text.sentence("turn.started", {"seat": 0}, "ja", None, names) == "almaの手番。"
    assert text.sentence("turn.started", {"seat": 0}, "en", None, names) == "alma's turn."
    assert text.sentence("turn.ended", {"seat": 1}, "en", None, names) == "bruno's turn ended."
    # the template's own words are capitalised; an unnamed seat too ("Player 3", "Someone")
    assert text.sentence("deck.empty", {"deck": "quest"}, "en").startswith("The quest deck")
    assert text.sentence("turn.ended", {"seat": None}, "en", None, names) == "Someone's turn ended."
    for kind, data in (("turn.ended", {"seat": 0}), ("nothing.known", {"seat": 0})):
        for lang in ("en", "ja"):
            said = text.sentence(kind, data, lang, None, names)
            assert text.NAME_OPEN not in said and text.NAME_CLOSE not in said and "alma" in said
            assert "Alma" not in said


def test_a_follow_up_quest_is_named_by_its_card_not_by_its_number_MV_QUEST_4() -> None:
    """MV-QUEST-4: the numbered quest that joins the deck is named as players see it; the quest
    cards' own texts name it too (a quest number is printed nowhere)."""
    assert text.sentence("quest.added", {"number": 3}, "en") == (
        "The quest “The Nurse's Keepsake” was shuffled into the quest deck."
    )
    assert text.sentence("quest.added", {"number": 3}, "ja") == "クエスト「乳母の形見」がクエストの山札に加えられた。"
    from delve.maiden.content import load

    content = load()
    for quest in content.quests.values():
        for lang in ("en", "ja"):
            said = text.pick(quest.text, lang)
            assert not re.search(r"quest \d|クエスト\d", said), said
        for number in quest.follow_ups:
            follow = content.quest_by_number(int(number))
            assert text.pick(follow.name, "en") in quest.text.en and text.pick(follow.name, "ja") in quest.text.ja


def test_a_death_reads_naturally_at_the_start_and_elsewhere_MV_DEATH_1() -> None:
    names = ["alma"]
    from delve.maiden.content import load

    start = next(r.id for r in load().rooms.values() if r.type == "start")
    at_start = {"seat": 0, "room": start, "deaths": 1}
    assert text.sentence("maiden.died", at_start, "en", None, names) == (
        "alma fell at the start (S) and rose again there with 1 life."
    )
    assert text.sentence("maiden.died", at_start, "ja", None, names) == (
        "almaはスタート（S）で倒れ、その場でライフ1で復活した。"
    )
    room = {"seat": 0, "room": "a03_1", "deaths": 1}
    assert text.sentence("maiden.died", room, "en", None, names) == (
        "alma fell in The High Priestess, room 1 and was revived at the start (S) with 1 life."
    )
    assert "Start" not in text.sentence("maiden.died", room, "en", None, names)


def test_the_familiar_is_called_juusha_everywhere_in_japanese() -> None:
    """The familiar is 従者 in every Japanese text (the settings, the causes, the catalogue)."""
    from delve.maiden import settings

    root = Path(text.__file__).parents[1]
    sources = [*root.glob("maiden/**/*.py"), *root.glob("maiden/content/*.toml"), *root.glob("server/**/*.po")]
    sources += [*root.glob("server/**/*.py"), *root.glob("server/templates/**/*.html")]
    assert [str(p) for p in sources if "使い魔" in p.read_text(encoding="utf-8")] == []
    assert settings.LABELS["familiar_evolution"]["ja"] == "従者の進化"
    healed = text.sentence("maiden.healed", {"seat": 0, "cause": "evolution", "amount": 1, "life": 2}, "ja")
    assert "従者の進化" in healed


# -- no internal names in the log ----------------------------------------------------------------

#: An internal name (an op, a setting or a kind such as ``boss_damage``): lower-case words joined
#: by an underscore; no sentence a player reads contains one.
RAW_NAME = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def test_every_effect_that_can_find_nothing_to_act_on_says_so_in_players_words() -> None:
    """``effect.no_target`` is emitted by every op with a pick (``effects._CHOICES``) and by
    cancel_death: each has what it would have done and why it did nothing, in both languages,
    and the op's internal name is never shown (the reviewer's "(boss_damage)")."""
    from delve.maiden import effects

    ops = set(effects._CHOICES) | {"cancel_death"}
    assert not ops - set(text.NO_TARGET), "add the op to text.NO_TARGET"
    for op in [*sorted(ops), "some_future_op"]:
        data = {"op": op, "source": "room:r29", "seat": 0}
        for lang in ("en", "ja"):
            line = text.sentence("effect.no_target", data, lang, None, PLAYERS)
            assert op not in line and not RAW_NAME.search(line), (op, line)
            assert "{" not in line, line
    shard = {"op": "boss_damage", "source": "room:r29", "seat": 0}
    assert text.sentence("effect.no_target", shard, "en", None, PLAYERS) == (
        "Shard of a Stolen Star would damage a boss in a fight, but no boss fight is under way: nothing happened."
    )
    assert text.sentence("effect.no_target", shard, "ja", None, PLAYERS) == (
        "盗まれた星の欠片の効果は戦闘中のボスにダメージを与えるものだが、戦闘中のボスがいないため何も起きなかった。"
    )
    skipped = text.sentence("effect.unsupported", {"op": "boss_damage", "source": "room:r29"}, "en", None, PLAYERS)
    assert "boss_damage" not in skipped


def test_no_log_line_of_a_played_game_contains_an_internal_name(events: list[Event]) -> None:
    """Every sentence of the random and heuristic playouts, in both languages, is free of raw
    names such as ``boss_damage`` or ``choose_engaged``."""
    for event in events:
        for lang in ("en", "ja"):
            line = text.event_sentence(event, lang, CONTENT, PLAYERS)
            assert not RAW_NAME.search(line), (event.kind, line)


def test_prose_agrees_and_fits_the_game() -> None:
    """One action marker is singular; a boss (often a person, MV-COMP-9) is not "it"; the game
    climbs the Tree of Life rather than descending; Shir is no scout (the draft removed scouts:
    斥候をなくして)."""
    one = text.sentence("round.started", {"round": 1, "action_markers": 1, "base_target": 1}, "en", CONTENT)
    assert one == "Round 1 begins: 1 action marker, base target 1."
    two = text.sentence("round.started", {"round": 2, "action_markers": 2, "base_target": 2}, "en", CONTENT)
    assert "2 action markers" in two
    for kind, data in (
        ("boss.engaged", {"boss": "warden", "life": 4, "seat": 0}),
        ("boss.weakened", {"boss": "warden", "amount": 1}),
    ):
        line = text.sentence(kind, data, "en", CONTENT, PLAYERS)
        assert not re.search(r"\b[Ii]t\b", line), line
    setup = text.sentence("setup.done", {}, "en", CONTENT)
    assert "descent" not in setup and "Tree of Life" in setup
    from delve.maiden.content import load

    shir = load().familiars["shir"]
    assert "scout" not in shir.text.en.lower() and "斥候" not in shir.text.ja


def test_MV_END_1_MV_END_2_the_end_of_game_summary_agrees_its_counts_in_english() -> None:
    """The end-of-game line read "1 deaths": every count of the summary (rounds, bosses defeated,
    areas freed, deaths) agrees with its number, with the same helper as "1 action marker";
    Japanese has no plural and is unchanged."""
    one = {"round": 1, "rounds": 1, "bosses_defeated": 1, "areas_freed": 1, "deaths": 1, "danger_level": 2}
    en = text.sentence("game.lost", one, "en", CONTENT)
    assert "(1 round, 1 boss defeated, 1 area freed, 1 death, danger level 2)" in en, en
    many = {**one, "rounds": 24, "bosses_defeated": 7, "areas_freed": 0, "deaths": 23}
    en = text.sentence("game.won", many, "en", CONTENT)
    assert "(24 rounds, 7 bosses defeated, 0 areas freed, 23 deaths, danger level 2)" in en, en
    assert "死亡1回" in text.sentence("game.lost", one, "ja", CONTENT)
    assert (
        text.counted(1, "action marker") == "1 action marker" and text.counted(3, "action marker") == "3 action markers"
    )
    started = {"round": 2, "action_markers": 1, "base_target": 5}
    assert "1 action marker," in text.sentence("round.started", started, "en", CONTENT)


def test_a_success_under_the_target_never_reads_as_an_ordinary_success_mv_check_9() -> None:
    """MV-CHECK-9: a success with AP under the target was made by an Arcana or a skill
    (auto_success); the tester's replay read 「ゆいはAP1で成功した（目標値5）。」 with no word of it."""
    data = {"seat": 0, "ap": 1, "target": 5, "result": "success", "kind": "room"}
    assert text.sentence("check.resolved", data, "ja", CONTENT, ["ゆい"]) == (
        "ゆいはアルカナかスキルの効果で成功した（出目はAP1で目標値5に届かなかった）。"
    )
    assert text.sentence("check.resolved", data, "en", CONTENT, ["Yui"]) == (
        "Yui succeeded through an Arcana or a skill that makes the check succeed (the dice gave 1 AP against target 5)."
    )
    failed = text.sentence("check.resolved", {**data, "result": "failure"}, "ja", CONTENT, ["ゆい"])
    assert failed == "ゆいはAP1で失敗した（目標値5）。"
    reached = text.sentence("check.resolved", {**data, "ap": 5}, "ja", CONTENT, ["ゆい"])
    assert reached == "ゆいはAP5で成功した（目標値5）。"


def test_a_kept_card_and_its_discarded_copy_are_quoted_alike_mv_check_2() -> None:
    """MV-CHECK-2 (keep one of 1 + Ins room cards, discard the rest): every name is quoted alike
    in Japanese, and a discarded copy of the kept card is "the other copy", not the same name
    kept and thrown away."""
    card = next(iter(CONTENT.room_cards))
    other = next(c for c in CONTENT.room_cards if c != card)
    en_name, ja_name = text.Names("en", CONTENT).room_card(card), text.Names("ja", CONTENT).room_card(card)
    ja_other = text.Names("ja", CONTENT).room_card(other)
    data = {"seat": 0, "deck": "room", "card": card, "discarded": [card, other]}
    assert text.sentence("card.kept", data, "en", CONTENT, ["Sakura"]) == (
        f"Sakura kept {en_name} and discarded the other copy of {en_name} and "
        f"{text.Names('en', CONTENT).room_card(other)}."
    )
    assert text.sentence("card.kept", data, "ja", CONTENT, ["さくら"]) == (
        f"さくらは「{ja_name}」を残し、もう1枚の「{ja_name}」、「{ja_other}」を捨てた。"
    )


def test_dice_are_named_as_the_draft_names_them_in_japanese_mv_check_4() -> None:
    """MV-CHECK-4 / MV-COMP-10: the draft names dice ４面体, ８面体 ...: the Japanese log and screen
    say 「8面体」 (full-width brackets around it in a sentence), English keeps d8; one function
    (text.die_name, with text.dice_pool for a pool) writes every die size."""
    assert text.die_name(8, "en") == "d8" and text.die_name(8, "ja") == "8面体"
    assert text.dice_pool(3, 4, "en") == "3 × d4" and text.dice_pool(3, 4, "ja") == "4面体×3"
    rolled = {"seat": 0, "dice": [["red", 8, 7], ["blue", 8, 6], ["black", 8, 2]]}
    assert text.sentence("check.rolled", rolled, "en", CONTENT, ["Yui"]) == "Yui rolled red 7, blue 6, black 2 (d8)."
    assert text.sentence("check.rolled", rolled, "ja", CONTENT, ["ゆい"]) == "ゆいの出目：赤7・青6・黒2（8面体）。"
    chose = text.sentence("check.die_size", {"seat": 0, "size": 6}, "ja", CONTENT, ["ゆい"])
    assert chose == "ゆいは6面体で振ることにした。"
    # no die size is written by hand anywhere a player reads it: "d{size}" is in die_name only
    assert (ENGINE / "text.py").read_text(encoding="utf-8").count('f"d{') == 1
    server = ENGINE.parent / "server"
    sources = [ENGINE / "rules_text.py", ENGINE / "terminal.py", server / "locale/ja/LC_MESSAGES/django.po"]
    sources += [server / "play" / "maiden_screen.py", server / "play" / "maiden_help.py"]
    sources += sorted((server / "templates" / "play" / "maiden").rglob("*.html"))
    for path in sources:
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"(?<![A-Za-z_])d(\{|%\(|(4|6|8|12|20)(?![0-9]))", source), path
