"""The White Maiden screen with many variants of one skill or Arcana use (the picks of its effect:
a die and a face, a set of dice, a room): one entry per use, never a button per variant; each
choice in a picker is a legal command as is, or (a set of dice) becomes one once the boxes are
ticked, and the engine still judges it (MV-ASC-8: dice change after the roll only through skills
and Arcana)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from html import unescape
from typing import Any

import pytest

from delve.server.games import engine
from delve.server.games.models import CommandEntry, Game
from tests.server.conftest import session_client
from tests.server.maiden_kit import legal, maiden_game, play_until, state

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
WHEEL, JUSTICE = "a11", "a12"  # Arcana: reroll any number of dice; set one die to any face


def key(command: dict[str, Any]) -> str:
    return json.dumps(command, sort_keys=True)


@pytest.fixture
def rolled(clock: Any, player: Any) -> Game:
    """A solo game after a roll, with the Wheel of Fortune and Justice Arcana in the pool."""
    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "post_roll")
    current = state(game)
    current.arcana = [*current.arcana, WHEEL, JUSTICE]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    game.refresh_from_db()
    return game


def decide_panel(client: Any, game: Game) -> str:
    return str(client.get(f"/games/{game.pk}/maiden/panels/decide/").content.decode())


def test_MV_ASC_8_each_use_is_one_entry_and_no_variant_is_lost(rolled: Game, player: Any) -> None:
    """Reroll-any has 2^n - 1 variants and set-die one per die and face: the panel has one
    picker for each, whose choices are exactly the legal commands of that Arcana."""
    commands = legal(rolled, 0)
    wheel = [c for c in commands if c.get("area") == WHEEL]
    justice = [c for c in commands if c.get("area") == JUSTICE]
    assert len(wheel) >= 7 and len(justice) > 6
    html = decide_panel(session_client(player), rolled)
    forms = re.findall(r'<form class="cmd[^"]*".*?</form>', html, re.S)
    assert len(forms) < 40, "one form per use, not one per variant"
    boxes = [f for f in forms if "pick-dice" in f]
    assert len(boxes) == 1 and json.loads(unescape(re.search(r'name="command" value="([^"]*)"', boxes[0])[1])) == {
        "kind": "use_arcana",
        "area": WHEEL,
    }
    dice = {int(d) for d in re.findall(r'name="pick_dice" value="(\d+)"', boxes[0])}
    assert dice == {i for c in wheel for i in c["dice"]}
    # Justice (a die and a face): a choice of die and a choice of face, not one option per pair
    verdict = [f for f in forms if "pick-die-face" in f]
    assert len(verdict) == 1
    assert json.loads(unescape(re.search(r'name="command" value="([^"]*)"', verdict[0])[1])) == {
        "kind": "use_arcana",
        "area": JUSTICE,
    }
    die_list = re.search(r'<select name="pick_die">(.*?)</select>', verdict[0], re.S)[1]
    face_list = re.search(r'<select name="pick_face">(.*?)</select>', verdict[0], re.S)[1]
    dice_offered = {int(v) for v in re.findall(r'<option value="(\d+)"', die_list)}
    faces_offered = {int(v) for v in re.findall(r'<option value="(\d+)"', face_list)}
    assert dice_offered == {int(c["die"]) for c in justice}
    assert faces_offered == {int(c["face"]) for c in justice}
    assert len(dice_offered) + len(faces_offered) < len(justice)
    assert "die 1 (" in html  # a die is named as the dice panel shows it: number, colour, face


def test_ticked_dice_make_the_legal_command(rolled: Game, player: Any) -> None:
    before = rolled.version
    data = {"command": json.dumps({"kind": "use_arcana", "area": WHEEL}), "pick": "dice", "pick_dice": ["1", "0"]}
    response = session_client(player).post(f"/games/{rolled.pk}/maiden/act/", data, **HTMX)
    assert response.status_code == 200 and 'class="refusal"' not in response.content.decode()
    rolled.refresh_from_db()
    assert rolled.version == before + 1
    entry = CommandEntry.objects.filter(game=rolled).latest("sequence")
    assert entry.command == {"kind": "use_arcana", "area": WHEEL, "dice": [0, 1]}


def test_MV_ASC_8_a_chosen_die_and_face_make_the_legal_verdict(rolled: Game, player: Any) -> None:
    """MV-ASC-8: Justice's picker sends its base command with the chosen die and face; the
    server puts them in the command, which is one of the legal commands as the engine judges."""
    justice = next(c for c in legal(rolled, 0) if c.get("area") == JUSTICE)
    before = rolled.version
    data = {
        "command": json.dumps({"kind": "use_arcana", "area": JUSTICE}),
        "pick": "die_face",
        "pick_die": str(justice["die"]),
        "pick_face": str(justice["face"]),
    }
    response = session_client(player).post(f"/games/{rolled.pk}/maiden/act/", data, **HTMX)
    assert response.status_code == 200 and 'class="refusal"' not in response.content.decode()
    rolled.refresh_from_db()
    assert rolled.version == before + 1
    entry = CommandEntry.objects.filter(game=rolled).latest("sequence")
    assert entry.command == justice


@pytest.mark.parametrize(("die", "face"), [("", "3"), ("0", "x"), ("99", "3"), ("0", "999")])
def test_MV_ASC_8_a_bad_die_or_face_is_refused_and_nothing_changes(
    rolled: Game, player: Any, die: str, face: str
) -> None:
    before = rolled.version
    data = {
        "command": json.dumps({"kind": "use_arcana", "area": JUSTICE}),
        "pick": "die_face",
        "pick_die": die,
        "pick_face": face,
    }
    response = session_client(player).post(f"/games/{rolled.pk}/maiden/act/", data, **HTMX)
    assert response.status_code == 200 and 'class="refusal"' in response.content.decode()
    rolled.refresh_from_db()
    assert rolled.version == before


@pytest.mark.parametrize("ticked", [[], ["x"], ["99"]])
def test_no_dice_or_bad_dice_ticked_is_refused_and_nothing_changes(
    rolled: Game, player: Any, ticked: list[str]
) -> None:
    before = (rolled.version, rolled.state)
    data = {"command": json.dumps({"kind": "use_arcana", "area": WHEEL}), "pick": "dice", "pick_dice": ticked}
    response = session_client(player).post(f"/games/{rolled.pk}/maiden/act/", data, **HTMX)
    assert 'class="refusal"' in response.content.decode()
    rolled.refresh_from_db()
    assert (rolled.version, rolled.state) == before


def test_the_damage_window_reads_as_a_choice_to_cancel_the_death(rolled: Game, player: Any) -> None:
    """MV-DEATH-1 with a cancel at hand: the decision panel names the choice and its options
    (the Arcana of Death, or dying) in words."""
    from delve.maiden.state import Decision

    current = state(rolled)
    current.arcana = [*current.arcana, "a14"]
    current.pending.insert(0, Decision(kind="choose", seat=0, options=["a14", "die"], data={"for": "death"}))
    Game.objects.filter(pk=rolled.pk).update(state=engine.ruleset_of(rolled).encode(current).decode())
    html = unescape(decide_panel(session_client(player), rolled))
    assert "About to die: cancel the death or not" in html
    assert "Arcana: Death" in html and "Die (revive at the start with 1 life)" in html


@pytest.mark.parametrize(
    ("lang", "heading", "says", "arcana_text", "not_said"),
    [
        (
            "en",
            "About to die: cancel the death or not",
            "Urza: Ann is about to die. Cancel the death with what is offered below, or let her die.",
            "Rebirth (when a maiden would die): cancel the death;",
            "Choose what the effect applies to.",
        ),
        (
            "ja",
            "倒れる寸前：死亡を取り消すかどうか",
            "Annが倒れる寸前です。下に示したもので死亡を取り消すか、そのまま倒れるかを選んでください。",
            "再生（死亡する時）：その死亡を取り消す。",
            "効果の対象を選んでください。",
        ),
    ],
)
def test_MV_DEATH_1_the_damage_window_says_who_is_dying_and_the_arcana_says_what_it_does(
    rolled: Game, player: Any, lang: str, heading: str, says: str, arcana_text: str, not_said: str
) -> None:
    """MV-DEATH-1, MV-EXPL-4: a boss's damage (Urza) opens the damage window: the line under the
    heading names what hurt her and who is about to die and what the choice is (not "choose
    the target of the effect"); the Death Arcana's button has its text like every Arcana's."""
    from delve.maiden.state import Decision

    current = state(rolled)
    current.arcana = [*current.arcana, "a14"]
    current.pending.insert(
        0,
        Decision(
            kind="choose",
            seat=0,
            options=["a14", "die"],
            data={"for": "death", "cause": "boss:urza", "resume": "ops"},
            source="boss:urza",
        ),
    )
    Game.objects.filter(pk=rolled.pk).update(state=engine.ruleset_of(rolled).encode(current).decode())
    client = session_client(player)
    client.cookies["django_language"] = lang
    html = unescape(decide_panel(client, rolled))
    text = re.sub(r"<[^>]+>", "", html)
    assert heading in text and says in text and arcana_text in text
    assert not_said not in text


def test_a_partner_during_another_maidens_check_is_told_whose_turn_it_is(
    clock: Any, player: Any, opponent: Any
) -> None:
    """MV-EXPL-4, MV-EXPL-5: any seat may use an Arcana for the active maiden. The partner's
    panel says whose turn it is and that what it lists is for her, not the acting maiden's
    "Ascend and resolve" with its suggestion (she cannot ascend or resolve)."""
    game = maiden_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "post_roll" and v["active_seat"] == 0)
    current = state(game)
    current.arcana = [*current.arcana, JUSTICE]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    assert {c["kind"] for c in legal(game, 1)} - {"comment", "give_up"} == {"use_arcana"}
    raw = decide_panel(session_client(opponent), game)
    partner = unescape(raw)
    heading = re.search(r'<h2 id="h-decide"[^>]*>([^<]*)', partner)
    assert heading is not None and heading[1] == "Ann's turn"
    assert "It is Ann's turn, and she makes the turn's choices. You may use what is listed here to help her." in partner
    offered = [json.loads(unescape(v)) for v in re.findall(r'name="command" value="([^"]*)"', raw)]
    assert sorted(map(key, offered)) == sorted(
        {
            key({k: v for k, v in c.items() if k not in ("die", "face")})
            for c in legal(game, 1)
            if c["kind"] == "use_arcana"
        }
    )
    assert "Suggested: resolve" not in partner and 'data-key="e"' not in partner
    acting = unescape(decide_panel(session_client(player), game))
    assert re.search(r'<h2 id="h-decide"[^>]*>Ascend and resolve', acting)
    assert "what is listed here you may use for her" not in acting


def selected_and_best(raw: str) -> tuple[list[str], list[str]]:
    """The options of every picker list: those selected, and those with the list's highest chance;
    for a die-and-face picker (Justice), the selected "die:face" and those of the highest chance."""
    chosen, best = [], []
    for form in re.findall(r'<form class="cmd pick pick-die-face".*?</form>', raw, re.S):
        die = re.search(r'<select name="pick_die">.*?<option value="(\d+)" selected>', form, re.S)
        face = re.search(r'<select name="pick_face">.*?<option value="(\d+)" selected>', form, re.S)
        table = json.loads(unescape(re.search(r'data-odds="([^"]*)"', form)[1]))
        chances = {k: Fraction(v["fraction"]) for k, v in table.items()}
        chosen += [f"{die[1]}:{face[1]}"] if die and face else []
        best += [k for k, p in chances.items() if p == max(chances.values())]
    for form in re.findall(r'<form class="cmd pick pick-list".*?</form>', raw, re.S):
        options = re.findall(r"<option ([^>]*)>([^<]*)</option>", form)
        percent = [int(m[1]) if (m := re.search(r" · (\d+)%", text)) else -1 for _, text in options]
        chosen += [unescape(text) for attrs, text in options if " selected" in attrs]
        best += [unescape(text) for (_, text), p in zip(options, percent, strict=True) if p == max(percent)]
    return chosen, best


def test_MV_EXPL_5_a_partners_arcana_picker_opens_on_its_best_choice(clock: Any, player: Any, opponent: Any) -> None:
    """MV-EXPL-5: a partner may use an Arcana in another maiden's check. Justice's list opened on
    its first entry (die 1 at 0%) while 100% stood further down, so Use without opening the list
    spent the Arcana for nothing: the list opens on the choice with the highest chance, which says
    it is the best, in English and in Japanese."""
    game = maiden_game([player, opponent])
    play_until(game, [player, opponent], lambda v: v["phase"] == "post_roll" and v["active_seat"] == 0)
    current = state(game)
    current.arcana = [*current.arcana, JUSTICE]
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    raw = decide_panel(session_client(opponent), game)
    chosen, best = selected_and_best(raw)
    assert len(chosen) == 1 and chosen[0] in best, (chosen, best)
    percents = [int(p) for p in re.findall(r" · (\d+)%", raw)]
    if min(percents or [0]) < max(percents or [0]):
        assert "best chance" in chosen[0]
        assert unescape(raw).count("· best chance") == 1
    japanese = session_client(opponent)
    japanese.cookies["django_language"] = "ja"
    raw_ja = japanese.get(f"/games/{game.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    chosen_ja, best_ja = selected_and_best(raw_ja)
    assert len(chosen_ja) == 1 and chosen_ja[0] in best_ja
    if min(percents or [0]) < max(percents or [0]):
        assert "最も高い確率" in chosen_ja[0]


def test_MV_ASC_8_the_acting_maidens_picker_opens_on_its_best_choice(rolled: Game, player: Any) -> None:
    chosen, best = selected_and_best(decide_panel(session_client(player), rolled))
    assert chosen and all(text in best for text in chosen), (chosen, best)


def test_MV_EXPL_5_the_best_choice_is_marked_only_when_the_chances_differ() -> None:
    """Justice's die 1 at 0% before two choices at 100%: the first 100% is selected and named the
    best; when every choice has the same chance, the first is selected and none is named."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string
    from django.utils import translation

    from delve.server.play.maiden_screen import _mark_top_choice

    def choices(*chances: float) -> list[dict[str, Any]]:
        return [
            {"json": str(n), "label": f"die {n}", "odds": SimpleNamespace(p=p, percent=f"{round(p * 100)}%")}
            for n, p in enumerate(chances, start=1)
        ]

    differ = choices(0.0, 1.0, 1.0)
    _mark_top_choice(differ)
    assert [c.get("top", False) for c in differ] == [False, True, False] and differ[1]["top_named"]
    same = choices(1.0, 1.0)
    _mark_top_choice(same)
    assert same[0]["top"] and not same[0]["top_named"] and "top" not in same[1]
    use = {"name": "Arcana: Justice", "id": "pick-x", "grouped": [{"name": "", "choices": differ}]}
    s = {"game": SimpleNamespace(pk=1)}
    for language, best in (("en", "best chance"), ("ja", "最も高い確率")):
        with translation.override(language):
            html = render_to_string("play/maiden/_use.html", {"u": use, "s": s})
        assert re.search(rf'<option value="2" selected>die 2 · 100% · {best}</option>', html), html
        assert html.count(" selected") == 1 and html.count(best) == 1


def test_a_list_of_dice_is_written_as_the_readers_language_writes_a_list(rolled: Game, player: Any) -> None:
    """MV-ASC-8: a use that picks several dice names them in a list: 「サイコロ1（赤 1）、サイコロ2
    （青 3）」 in Japanese (it read 「サイコロ1（赤 1）, サイコロ2（青 3）」, an ASCII comma), "die 1
    (red 1), die 2 (blue 3)" in English; the log lists the same way (one helper, ``listing``)."""
    from django.utils import translation

    from delve.maiden.text import listing
    from delve.server.play import maiden_screen

    assert listing(["a", "b", "c"], "ja") == "a、b、c" and listing(["a", "b"], "en") == "a, b"
    assert listing([], "ja") == "" and listing(["a"], "en") == "a"
    pair = next(c for c in legal(rolled, 0) if c.get("area") == WHEEL and len(c["dice"]) == 2)
    for language, comma, other in (("ja", "、", ", "), ("en", ", ", "、")):
        with translation.override(language):
            screen = maiden_screen.load(rolled, player)
            label = maiden_screen.command_label(screen, pair)
        assert comma in label and other not in label, label


@pytest.mark.parametrize(("lang", "best_word"), [("en", "Best: "), ("ja", "最善：")])
def test_MV_ASC_8_a_dice_picker_opens_with_its_best_dice_ticked(
    rolled: Game, player: Any, lang: str, best_word: str
) -> None:
    """MV-ASC-8 (dice change after the roll through skills and Arcana), MV-EXPL-4: the Wheel of
    Fortune's tick boxes opened with nothing ticked while the line under them named the best dice
    and its Use was outlined as the suggestion, so pressing Use answered "pick dice first". The
    boxes of exactly the dice the best line names are ticked, and sending the form as rendered is
    the legal command with those dice (one tap)."""
    client = session_client(player)
    client.cookies["django_language"] = lang
    raw = client.get(f"/games/{rolled.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    form = next(f for f in re.findall(r'<form class="cmd pick pick-dice".*?</form>', raw, re.S) if WHEEL in unescape(f))
    boxes = re.findall(
        r'<label class="pick-die"><input type="checkbox" name="pick_dice" value="(\d+)"([^>]*)> ([^<]*)</label>', form
    )
    ticked = [(int(n), unescape(label)) for n, attrs, label in boxes if " checked" in attrs]
    assert ticked, form
    found = re.search(rf"{best_word}([^<]*) <span", form)
    assert found is not None, form
    from delve.maiden.text import listing

    assert unescape(found[1]).strip() == listing([label for _, label in ticked], lang), (found[1], ticked)
    before = rolled.version
    command = json.dumps({"kind": "use_arcana", "area": WHEEL})
    data = {"command": command, "pick": "dice", "pick_dice": [str(n) for n, _ in ticked]}
    response = client.post(f"/games/{rolled.pk}/maiden/act/", data, **HTMX)
    assert 'class="refusal"' not in response.content.decode()
    rolled.refresh_from_db()
    assert rolled.version == before + 1
    entry = CommandEntry.objects.filter(game=rolled).latest("sequence")
    assert entry.command == {"kind": "use_arcana", "area": WHEEL, "dice": sorted(n for n, _ in ticked)}


@pytest.mark.parametrize(
    ("lang", "prompt", "option", "first"),
    [
        (
            "en",
            "The colours are swapped. Now choose two dice whose faces differ by 1: they ascend as a pair.",
            "Ascend as a pair: die 1 (",
            "Choose the dice the effect applies to.",
        ),
        (
            "ja",
            "色を入れ替えました。次に、目が1違うサイコロ2個を選んでください。ゾロ目としてアセンションします。",
            "ゾロ目としてアセンション：サイコロ1（",
            "効果を受けるサイコロを選んでください。",
        ),
    ],
)
def test_MV_ASC_8_the_hanged_mans_second_pick_says_it_is_the_pair_to_ascend(
    rolled: Game, player: Any, lang: str, prompt: str, option: str, first: str
) -> None:
    """MV-ASC-8, SUG-3 A13: the Hanged Man swaps two dice's colours (picked with the Arcana) and
    then lets two dice 1 apart ascend as a pair, a second pick the engine asks as a decision. It
    was asked as "Choose the dice the effect applies to" with the same dice words as the first
    pick; it now says the colours are swapped and its options are the pair to ascend. (The engine
    asks even with one option, as every effect's pick: nothing is applied for the player.)"""
    current = state(rolled)
    assert current.check is not None
    faces = [1, 2, 5, *[6] * (len(current.check.dice) - 3)][: len(current.check.dice)]
    for die, face in zip(current.check.dice, faces, strict=True):
        die.face, die.removed = face, False
    current.check.slate = None
    current.arcana = [*current.arcana, "a13"]
    Game.objects.filter(pk=rolled.pk).update(state=engine.ruleset_of(rolled).encode(current).decode())
    hanged = next(c for c in legal(rolled, 0) if c.get("area") == "a13" and c.get("dice") == [0, 1])
    client = session_client(player)
    client.cookies["django_language"] = lang
    response = client.post(f"/games/{rolled.pk}/maiden/act/", {"command": json.dumps(hanged)}, **HTMX)
    assert 'class="refusal"' not in response.content.decode()
    assert state(rolled).pending and state(rolled).pending[0].ops[0]["op"] == "near_pair"
    raw = client.get(f"/games/{rolled.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    text = re.sub(r"<[^>]+>", "", unescape(raw))
    assert prompt in text and option in text, text
    assert first not in text


def test_MV_EXPL_4_japanese_suggestion_and_arcana_panel_use_full_width_punctuation(rolled: Game, player: Any) -> None:
    """MV-EXPL-4 (Arcana at hand): in Japanese the suggestion read 「おすすめ：アルカナ：運命の輪: サイコロ1…」
    (an ASCII colon between the use and its dice) and the Arcana panel 「世界 (移動時)」 (ASCII
    brackets) where the rest writes （移動時）. Both use full-width punctuation in Japanese and stay
    as they were in English."""
    from fractions import Fraction
    from types import SimpleNamespace

    from django.utils import translation

    from delve.server.play.maiden_screen import _better_use

    def group() -> dict[str, Any]:
        odds = SimpleNamespace(p=Fraction(1), percent="100%")
        return {"name": "アルカナ：運命の輪", "buttons": [], "choices": [], "best": {"odds": odds, "dice": "サイコロ1"}}

    with translation.override("ja"):
        found = _better_use(Fraction(0), [group()])
    assert found is not None and found["label"] == "アルカナ：運命の輪：サイコロ1"
    with translation.override("en"):
        found = _better_use(Fraction(0), [{**group(), "name": "Arcana: Wheel of Fortune"}])
    assert found is not None and found["label"] == "Arcana: Wheel of Fortune: サイコロ1"
    client = session_client(player)
    for lang, colon in (("ja", "："), ("en", ": ")):
        client.cookies["django_language"] = lang
        raw = client.get(f"/games/{rolled.pk}/maiden/panels/arcana/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        html = unescape(raw)
        effects = re.findall(r"</strong>([^<]{0,2})", html.split('class="effects"', 1)[-1])
        assert effects and all(e.startswith(colon) for e in effects), effects


def test_MV_EXPL_5_the_arcana_panel_names_each_timing_once_as_the_help_does(rolled: Game, player: Any) -> None:
    """MV-EXPL-5: the game screen's Arcana panel named a card's timing twice, after its name and
    again in its text, and in other words: "The Fool (when moving)" over "The Leap (movement): …".
    Each Arcana at hand says its timing once, in its text, in the words of the timing's label
    (the help's and the decision panel's), in English and Japanese (full-width brackets)."""
    from django.utils import translation

    from delve.server.play.maiden_screen import content, timing_name

    data = content()
    current = state(rolled)
    current.arcana = [*current.arcana, "a01"]  # the Fool: a movement Arcana among the roll's
    Game.objects.filter(pk=rolled.pk).update(state=engine.ruleset_of(rolled).encode(current).decode())
    at_hand = current.arcana
    client = session_client(player)
    for lang, brackets in (("en", " ({})"), ("ja", "（{}）")):
        client.cookies["django_language"] = lang
        raw = client.get(f"/games/{rolled.pk}/maiden/panels/arcana/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        items = re.findall(r"<li>(.*?)</li>", unescape(raw).split('<ul class="arcana">', 1)[1].split("</ul>")[0], re.S)
        assert len(items) == len(at_hand), items
        for area_id, item in zip(at_hand, items, strict=True):
            area = data.areas[area_id]
            with translation.override(lang):
                words = brackets.format(timing_name(area.arcana_timing))
            text = re.sub(r"<[^>]+>", "", item)
            assert text.count(words) == 1, (words, text)
            assert text.count("(") + text.count("（") == area.arcana_text[lang].count("(") + area.arcana_text[
                lang
            ].count("（"), text
            assert "(movement)" not in text


@pytest.mark.parametrize(("lang", "best_word"), [("en", "best chance"), ("ja", "最も高い確率")])
def test_MV_CHECK_2_the_room_card_to_keep_with_the_best_odds_is_marked(
    clock: Any, player: Any, lang: str, best_word: str
) -> None:
    """MV-CHECK-2: the player keeps one of the room cards drawn and checks against it. The list
    showed every card's chance and expected damage but marked none: the card with the highest
    chance (then the lowest expected damage) is outlined and says it is the best chance, once."""
    from delve.maiden.state import Decision
    from delve.server.play.maiden_screen import content

    game = maiden_game([player])
    play_until(game, [player], lambda v: v["phase"] == "move")
    cards = sorted(content().room_cards.values(), key=lambda c: c.difficulty)
    easy, hard = cards[0], cards[-1]
    assert easy.difficulty < hard.difficulty
    current = state(game)
    current.action_markers = 6  # the base target (MV-ROUND-8): the hardest card may fail
    current.pending.insert(0, Decision(kind="keep_card", seat=0, options=[hard.id, easy.id], data={"deck": "room"}))
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    client = session_client(player)
    client.cookies["django_language"] = lang
    html = unescape(client.get(f"/games/{game.pk}/maiden/panels/decide/", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    options = re.findall(r'<li class="option">(.*?)</li>', html, re.S)
    assert len(options) == 2, html
    percents = [float(re.search(r'class="odds[^"]*"[^>]*>([\d.]+)%', o)[1]) for o in options]  # type: ignore[index]
    marked = [i for i, o in enumerate(options) if re.search(r'class="cmd-[^"]*\bbest\b', o)]
    assert percents[0] != percents[1], percents  # the hardest card against the easiest
    assert marked == [percents.index(max(percents))], (percents, marked)
    assert best_word in options[marked[0]] and html.count(best_word) == 1
