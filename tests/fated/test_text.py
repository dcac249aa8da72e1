"""The screen's sentences (FL-INFO-4/5, FL-UI-3, FL-UI-8): every event and message kind the engine
emits has a sentence in English and Japanese; unknown kinds fall back to a readable sentence;
names come from the content with the preset's words (AMB-66)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from delve.fated import text

SOURCE = Path(__file__).resolve().parents[2] / "src" / "delve" / "fated"
GOLDEN = Path(__file__).resolve().parent / "golden"


def _arguments(source: str, start: int) -> str:
    """The text between the parenthesis opened just before ``start`` and its match."""
    depth = 1
    for position in range(start, len(source)):
        depth += {"(": 1, ")": -1}.get(source[position], 0)
        if depth == 0:
            return source[start:position]
    return source[start:]


def emitted_kinds() -> set[str]:
    """Every kind passed to ctx.public(...) or ctx.private(...) anywhere in src/delve/fated."""
    kinds: set[str] = set()
    for path in SOURCE.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        for match in re.finditer(r"ctx\.(public|private)\(", source):
            call = _arguments(source, match.end())
            if match.group(1) == "private":  # the seats come first: a name, an expression or a list
                call = call.split("]", 1)[1] if call.lstrip().startswith("[") else call.split(",", 1)[1]
            head = re.split(r"\b\w+=|\*\*", call, maxsplit=1)[0]
            kinds.update(re.findall(r'"([a-z_.]+)"', head))
    return kinds


def test_the_source_scan_finds_the_kinds():
    kinds = emitted_kinds()
    assert {
        "card.used",
        "defense.result",
        "turn.passed",
        "steal.card",
        "pass_by.declined",
        "pass_by.cancelled",
    } <= kinds
    assert "jump" in kinds and "comment" in kinds


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_emitted_kind_has_a_sentence(lang):
    """New kinds from the card and monster work show up here until they get their words."""
    missing = sorted(kind for kind in emitted_kinds() if not text.has_sentence(kind))
    assert not missing, f"no sentence in delve/fated/text.py for: {', '.join(missing)}"
    for kind in emitted_kinds():
        sentence = text.describe({"kind": kind, "time": 0}, lang, "fated-labyrinth", 0)
        assert sentence and "“" + kind + "”" not in sentence and "「" + kind + "」" not in sentence


def test_an_unknown_kind_falls_back_to_a_readable_sentence():
    entry = {"kind": "card.teleported", "time": 1, "player": 2, "card": "attack-10", "amount": 3}
    assert (
        text.describe(entry, "en", "fated-labyrinth")
        == "Event “card.teleported”: player Player 03, Attack 10, amount 3."
    )
    assert text.describe(entry, "ja", "level-d") == "出来事「card.teleported」：プレイヤー03、攻撃１０、amount 3。"


def test_bad_data_in_a_known_kind_still_gives_a_sentence():
    assert text.describe({"kind": "turn.passed", "reward": "cp", "amount": "lots"}, "en", "fated-labyrinth")


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_every_golden_event_and_message_reads_as_a_sentence(path):
    """Real views: no entry needs the generic fallback, in either language."""
    for snapshot in json.loads(path.read_text(encoding="utf-8")):
        for number, view in snapshot["views"].items():
            seat = None if number == "spectator" else int(number) - 1 if number.isdigit() else None
            preset = view["game"]["preset"]
            entries = view["events"] + view.get("you", {}).get("messages", [])
            for entry in entries:
                for lang in ("en", "ja"):
                    sentence = text.describe(entry, lang, preset, seat)
                    assert not sentence.startswith(("Event “", "出来事「")), (entry, sentence)


def test_sentences_name_players_cards_and_monsters():
    used = {"kind": "card.used", "player": 0, "card": "attack-20", "use": "remote", "target": 2}
    assert text.describe(used, "en", "fated-labyrinth") == "Player 01 used Attack 20 《Remote》 on Player 03."
    assert text.describe(used, "en", "fated-labyrinth", viewer=0) == "You used Attack 20 《Remote》 on Player 03."
    assert text.describe(used, "ja", "fated-labyrinth") == "プレイヤー01がプレイヤー03に攻撃２０《遠隔》を使った。"
    monster = {"kind": "monster.attack", "owner": 1, "monster": "gargoyle", "target": 0}
    assert text.describe(monster, "en", "level-d", viewer=0) == "Player 02's Gargoyle attacked you."
    assert text.describe(monster, "ja", "level-d", viewer=1) == "あなたのガーゴイルがプレイヤー01を攻撃した。"
    trap = {
        "kind": "defense.result",
        "defender": 1,
        "label": "trap",
        "source": 0,
        "card": "hp-poison",
        "use": "trap",
        "method": "none",
        "outcome": "hit",
        "damage": 0,
        "special": "hp_poison",
        "applied": True,
    }
    assert text.describe(trap, "ja", "level-d") == "ワナ（ＨＰ毒）がプレイヤー02に命中し、効果が発動した。"


def test_the_presets_words():
    """AMB-66, P-20..P-33: Level D says ターン for phases, ワナ for traps, 投了 for giving up."""
    assert text.phase_name("move", "ja", "fated-labyrinth") == "移動フェイズ"
    assert text.phase_name("move", "ja", "level-d") == "移動ターン"
    assert text.phase_name("core", "en", "level-d") == "Core turn"
    assert text.use_name("trap", "ja", "level-d") == "《ワナ》"
    assert text.use_name("trap", "ja", "fated-labyrinth") == "《罠》"
    assert text.command_name("give_up", "ja", "level-d") == "投了"
    assert text.class_name("cat", "ja", "level-d") == "忍者"
    assert text.class_name("cat", "en", "fated-labyrinth") == "Cat"
    assert "商人" in text.command_help("pass", "ja", "level-d")


def test_what_a_defense_phase_defends_against():
    """FL-DEF: the source, the card and use, the power."""
    item = {"kind": "attack", "label": "adjacent", "source": 0, "card": "attack-10", "use": "adjacent", "power": 28}
    assert text.defending(item, "en", "fated-labyrinth", 1) == "Incoming: Player 01's Attack 10 《Adjacent》, power 28."
    breath = {"kind": "attack", "label": "breath", "source": 2, "monster_kind": "dragon", "power": 17}
    assert text.defending(breath, "ja", "fated-labyrinth", 1) == "防御対象：プレイヤー03のドラゴンのブレス、威力17。"
    assert "pass by" in text.defending({"kind": "pass_by", "label": "pass_by", "source": 3}, "en", "fated-labyrinth", 1)


def test_each_defense_choice_says_what_follows_FL_DEF_1_FL_DEF_2_FL_DEF_3():
    """FL-DEF-1..5, FL-ATK-9..17: the sentence under each defense button, from the view's
    ``defending.choices`` (the engine's numbers), in English and Japanese."""
    item = {"kind": "attack", "label": "remote", "source": 0, "card": "attack-10-hp-poison", "power": 30}
    item |= {"special": "hp_poison", "defense": 2}
    none = {"kind": "no_defense", "result": "hit", "damage": 28, "reduction": 2, "hp": 92, "special": "hp_poison"}
    say = text.defense_result
    assert say(none, item, "en", "fated-labyrinth", 1) == (
        "You take 28 damage (power 30 − your defense 2) and HP Poison lands; 92 HP left."
    )
    assert (
        say(none, item, "ja", "fated-labyrinth", 1)
        == "28ダメージを受ける（威力30−防御力2）。ＨＰ毒も受ける。残りHP92。"
    )
    card = {"kind": "defend", "method": "reduction", "result": "hit", "damage": 0, "reduction": 32, "hp": 120}
    assert say(card, item, "en", "fated-labyrinth", 1) == (
        "No damage (power 30 − your defense 2 − the card's 30 ≤ 0); "
        "the damage is completely prevented, so HP Poison does not land."
    )
    special = {"kind": "defend", "method": "special", "result": "hit", "damage": 28, "reduction": 2, "hp": 92}
    assert "HP Poison is blocked" in say(special, item, "en", "fated-labyrinth", 1)
    parry = {"kind": "parry", "method": "parry", "cp": 20, "result": "blocked", "damage": 0, "hp": 120}
    assert say(parry, item, "ja", "fated-labyrinth", 1) == "無効化：何も受けない。"
    back = {"kind": "defend", "method": "counter", "counter": "return", "to": 0, "result": "reflected"}
    assert "goes back to Player 01" in say(back, item, "en", "fated-labyrinth", 1)
    deadly = {**none, "hp": 0, "death_check": True}
    assert "death check follows (25% to survive with 10 HP)" in say(deadly, item, "en", "fated-labyrinth", 1)
    trap = {"kind": "trap", "label": "trap", "card": "attack-20", "power": 20, "defense": 2}
    sidestep = {"kind": "defend", "method": "trap", "result": "blocked", "damage": 0, "hp": 120, "trap": "stays"}
    assert say(sidestep, trap, "ja", "level-d", 1) == "無効化：何も受けない。ワナはその場に残る（位置が分かる）。"
    ratio = {**item, "damage_ratio": [3, 2]}
    assert "(power 30 − your defense 2) × 1.5 by Stripped" in say(
        {**none, "damage": 42}, ratio, "en", "fated-labyrinth", 1
    )
    passing = {"kind": "pass_by", "label": "pass_by", "source": 3}
    assert say({"kind": "accept_pass_by", "result": "swap"}, passing, "ja", "fated-labyrinth", 1).startswith(
        "プレイヤー04と位置を入れ替える"
    )
    steal = {"kind": "steal", "label": "steal", "source": 3}
    assert "goes to Player 04" in say({"kind": "no_defense", "result": "stolen"}, steal, "en", "fated-labyrinth", 1)


def test_durations():
    assert text.duration(45, "en") == "45 s"
    assert text.duration(3 * 3600 + 5 * 60, "en") == "3 h 05 min"
    assert text.duration(360000, "ja") == "4日4時間"


JAPANESE_SCRIPT = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff5e]")
ARTICLES = {"a", "an", "the"}  # English words Japanese has no word for


def _literal(node: ast.expr) -> str | None:
    """A string literal's text, an f-string's with ``{}`` for each field; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
    return None


def untranslated_pairs(path: Path) -> list[str]:
    """The English texts of a text module written without their Japanese: ``say(en, ja)``,
    ``_simple(en, ja)`` and ``_pass_by(en, ja)`` calls and ``{"en": ..., "ja": ...}`` tables whose
    Japanese has no Japanese script, and literal ``{"en": ...}`` tables with no ``"ja"``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        pair: tuple[ast.expr, ast.expr | None] | None = None
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("say", "_simple", "_pass_by"):
                pair = (node.args[0], node.args[1])
        elif isinstance(node, ast.Dict):
            table = {
                key.value: value
                for key, value in zip(node.keys, node.values, strict=True)
                if isinstance(key, ast.Constant)
            }
            if "en" in table:
                pair = (table["en"], table.get("ja"))
        if pair is None or (english := _literal(pair[0])) is None:
            continue
        japanese = _literal(pair[1]) if pair[1] is not None else ""
        words = re.sub(r"\{[^}]*\}", "", english).strip()
        if japanese is not None and words and words not in ARTICLES and not JAPANESE_SCRIPT.search(japanese):
            found.append(f"{path.name}:{node.lineno}: {english!r} -> {japanese!r}")
    return found


def test_every_english_text_of_the_module_has_its_japanese():
    """A sentence, a name or a word added in English only (or with an English or empty "ja") fails
    here, whether or not a game reaches it."""
    assert len(re.findall(r"\bsay\(|\{\"en\":", (SOURCE / "text.py").read_text(encoding="utf-8"))) > 100
    assert not untranslated_pairs(SOURCE / "text.py")


# ---------------------------------------------------------------- a message read by someone else

NAMES = ("Grimble", "Nyx", "Aldo", "Wanderer")


def test_every_second_person_message_has_a_third_person_form_FL_INFO_5():
    """FL-INFO-5: a private message is written to its seat ("You drew 1 card."); a reader who is
    not that seat (a replay shows every message) reads every kind told about that seat."""
    from delve.fated import disclosure

    about_monsters = {"monster.poisoned", "monster.made_fake", "monster.set_trap"}
    assert set(disclosure.PRIVATE) - about_monsters <= set(text.OBSERVED)
    for kind in disclosure.PRIVATE:
        for lang in ("en", "ja"):
            sentence = text.describe({"kind": kind, "time": 0}, lang, "fated", None, to=(0,), names=NAMES)
            assert "あなた" not in sentence and not re.search(r"\b(you|your|You|Your)\b", sentence), sentence
            if kind not in about_monsters and kind not in {"steal.failed", "steal.empty"}:
                assert "Grimble" in sentence, (kind, lang, sentence)


@pytest.mark.parametrize(
    ("entry", "to", "own", "en", "ja"),
    [
        (
            {"kind": "status.gained", "status": "insight"},
            (0,),
            "You are now affected by Insight.",
            "Grimble is now affected by Insight.",
            "Grimbleは見破りの状態になった。",
        ),
        (
            {"kind": "cards.drawn", "cards": [7]},
            (0,),
            "You drew 1 card.",
            "Grimble drew 1 card.",
            "Grimbleがカードを1枚引いた。",
        ),
        (
            {"kind": "steal.card", "target": 1, "card": 4, "card_kind": "potion"},
            (0, 1),
            "You stole Potion from Player 02.",
            "Grimble stole Potion from Nyx.",
            "GrimbleがNyxから傷薬を盗んだ。",
        ),
        (
            {"kind": "cp.siphoned", "amount": 5, "by": 2},
            (0,),
            "Player 03 siphoned 5 CP from you.",
            "Aldo siphoned 5 CP from Grimble.",
            "AldoがGrimbleからCPを5吸い取った。",
        ),
        (
            {"kind": "checkpoint.visited", "corner": 1},
            (0,),
            "You visited the top-left checkpoint.",
            "Grimble visited the top-left checkpoint.",
            "Grimbleが左上のチェックポイントを踏破した。",
        ),
    ],
)
def test_a_message_read_by_another_tells_of_its_seat_by_name_FL_INFO_5(entry, to, own, en, ja):
    """FL-INFO-5: the seat the message was written for still reads it in the second person; any
    other reader (no seat, another seat) reads it in the third person, in both languages."""
    body = {**entry, "time": 0}
    assert text.describe(body, "en", "fated", 0) == own
    assert text.describe(body, "en", "fated", 0, to=to, names=NAMES) == own.replace("Player 02", "Nyx").replace(
        "Player 03", "Aldo"
    )
    assert text.describe(body, "en", "fated", None, to=to, names=NAMES) == en
    assert text.describe(body, "ja", "fated", None, to=to, names=NAMES) == ja
    assert text.describe(body, "en", "fated", 3, to=to, names=NAMES) == en  # another seat reads it too


def _hit(**extra):
    return {
        "kind": "defense.result",
        "defender": 1,
        "source": 0,
        "label": "remote",
        "use": "remote",
        "method": "none",
        "outcome": "hit",
        **extra,
    }


def test_a_special_attack_card_named_after_its_effect_is_named_once_FL_ATK_3():
    """FL-ATK-3, FL-ATK-5: a special attack card (Treasure Toss) that lands says it took effect,
    with no '0 damage' and without naming the effect twice; one whose effect has nothing to act
    on says so; a plain status special is named after the damage."""
    toss = _hit(card="treasure-toss", damage=0, special="treasure_toss", applied=True)
    assert text.describe(toss, "en", "fated-labyrinth") == (
        "Player 01's Treasure Toss 《Remote》 hit Player 02 and took effect."
    )
    assert (
        text.describe(toss, "ja", "level-d") == "プレイヤー01の宝飛ばし《遠隔》がプレイヤー02に命中し、効果が発動した。"
    )
    empty = {**toss, "applied": False}
    assert text.describe(empty, "en", "fated-labyrinth") == (
        "Player 01's Treasure Toss 《Remote》 hit Player 02, but Treasure Toss had no effect."
    )
    poison = _hit(card="attack-20", damage=12, special="hp_poison", applied=True)
    assert text.describe(poison, "en", "fated-labyrinth").endswith("hit Player 02: 12 damage, and HP Poison.")
    nothing = _hit(card="attack-10", damage=0)
    assert text.describe(nothing, "en", "fated-labyrinth").endswith("hit Player 02, but did no damage.")
    assert "0ダメージ" not in text.describe(nothing, "ja", "fated-labyrinth")


def test_a_defense_card_that_let_damage_through_says_what_it_did_FL_ATK_6():
    """FL-ATK-6, AMB-27: the damage got through, so the sentence does not say 'defended with':
    a reduction card reduced the damage, Special Defense stopped the special attack only."""
    special = _hit(card="attack-20", damage=10, method="special", defense_card="special-defense")
    assert text.describe(special, "en", "fated-labyrinth", viewer=1) == (
        "Player 01's Attack 20 《Remote》 hit you: 10 damage (Special Defense stopped the special attack only)."
    )
    assert text.describe(special, "ja", "fated-labyrinth").endswith("：10ダメージ（特殊防御で特殊攻撃のみ防いだ）。")
    reduced = _hit(card="attack-20", damage=4, method="reduction", defense_card="defense-10")
    assert text.describe(reduced, "en", "fated-labyrinth").endswith(": 4 damage (Defense 10 reduced the damage).")
    assert "defended with" not in text.describe(reduced, "en", "fated-labyrinth")


def test_the_defense_panel_names_a_magic_named_after_its_effect_once_FL_ATK_5():
    """FL-ATK-5, FL-DEF: the necromancer's magic Fool is 'magic (Fool)', not '..., with Fool'; a
    damage card's special is still named."""
    magic = {"kind": "attack", "label": "magic", "source": 6, "monster_kind": "necromancer", "card": "fool"}
    magic["special"] = "fool"
    assert text.defending(magic, "en", "fated-labyrinth") == "Incoming: Player 07's Necromancer's magic (Fool)."
    assert text.defending(magic, "ja", "fated-labyrinth") == "防御対象：プレイヤー07のネクロマンサーの魔法（愚者）。"
    item = {"kind": "attack", "label": "remote", "source": 0, "card": "attack-20", "use": "remote", "power": 20}
    item["special"] = "hp_poison"
    assert text.defending(item, "en", "fated-labyrinth").endswith(", power 20, with HP Poison.")


def test_a_death_names_the_killer_FL_DEATH_3_FL_KILL_1():
    """FL-DEATH-3, FL-KILL-1..5: the death sentence names whose attack, monster or trap killed
    (the credited player), or the cause when every survivor is credited (poison, FL-KILL-4/5)."""
    died = {"kind": "player.died", "player": 5, "cause": "remote", "credited": [1], "fate": "died"}
    assert text.describe(died, "en", "fated-labyrinth") == (
        "Player 06 was killed by Player 02's attack (failed the death check: 25% to survive)."
        " Kill credited to Player 02."
    )
    assert text.describe(died, "en", "fated-labyrinth", viewer=5) == (
        "You were killed by Player 02's attack (failed the death check: 25% to survive). Kill credited to Player 02."
    )
    assert text.describe(died, "ja", "fated-labyrinth") == (
        "プレイヤー06はプレイヤー02の攻撃で死亡した（死亡判定に失敗：成功率25%）。撃破数：プレイヤー02に+1。"
    )
    trap = {**died, "cause": "trap"}
    assert text.describe(trap, "ja", "level-d").startswith("プレイヤー06はプレイヤー02のワナで死亡した（")
    assert text.describe(trap, "ja", "fated-labyrinth").startswith("プレイヤー06はプレイヤー02の罠で死亡した（")
    poison = {**died, "cause": "poison", "credited": [1, 2]}
    assert text.describe(poison, "en", "fated-labyrinth") == (
        "Player 06 died of poison (failed the death check: 25% to survive). Kill credited to Player 02 and Player 03."
    )
    assert "(an attack)" not in text.describe({**died, "credited": [0, 1]}, "en", "fated-labyrinth")


def test_the_log_says_the_death_check_was_rolled_FL_DEATH_1_FL_DEATH_2():
    """FL-DEATH-1/2: 「死の淵から蘇った」 and 「死亡した」 gave no hint that a 25% check was rolled:
    the sentences say it; a death while abandoning (FL-ABN-5: no check) says none. Only the
    rendering: the recorded events are unchanged."""
    survived = {"kind": "death.survived", "player": 1}
    assert text.describe(survived, "en", "fated-labyrinth") == (
        "Player 02 survived the death check (25% chance) and rose from the brink of death (HP 10)."
    )
    assert text.describe(survived, "ja", "level-d") == (
        "プレイヤー02は死亡判定（成功率25%）に成功し、死の淵から蘇った（HP 10）。"
    )
    abandoning = {"kind": "player.died", "player": 5, "cause": "remote", "credited": [1], "fate": "abandoned"}
    assert "death check" not in text.describe(abandoning, "en", "fated-labyrinth")
    assert "死亡判定" not in text.describe(abandoning, "ja", "fated-labyrinth")


@pytest.mark.parametrize(
    ("counter", "en", "ja"),
    [
        (
            "redirect",
            "Player 02 deflected Player 03's Attack 40 《Remote》 with Deflect onto another player drawn at random.",
            "プレイヤー02は受け流しで、プレイヤー03の攻撃４０《遠隔》をランダムに選ばれたほかのプレイヤーへそらした。",
        ),
        (
            "return",
            "Player 02 sent Player 03's Attack 40 《Remote》 back to Player 03 with Counter.",
            "プレイヤー02はプレイヤー03の攻撃４０《遠隔》をカウンターでプレイヤー03に跳ね返した。",
        ),
    ],
)
def test_a_reflected_attack_says_where_it_went_AMB_30(counter, en, ja):
    """AMB-30: 「…を受け流しで跳ね返した」 sounded as if the attack went back to its attacker, while
    Deflect sends it to another player drawn at random: the sentence says where it went, from
    the card's counter mode the event keeps."""
    card = {"redirect": "deflect", "return": "counter"}[counter]
    event = {
        "kind": "defense.result",
        "defender": 1,
        "source": 2,
        "label": "remote",
        "card": "attack-40",
        "use": "remote",
        "method": "counter",
        "defense_card": card,
        "outcome": "reflected",
        "counter": counter,
    }
    assert text.describe(event, "en", "fated-labyrinth") == en
    assert text.describe(event, "ja", "fated-labyrinth") == ja


def test_a_status_that_does_not_work_on_monsters_says_so_FL_STS_2():
    """FL-STS-2, AMB-35: Blind on a monster did nothing; the log says so instead of '0 damage'."""
    blind = {"kind": "monster.attacked", "monster": "mimic", "owner": 2, "label": "remote", "attacker": 0}
    blind.update(outcome="hit", damage=0, no_effect="blind")
    assert text.describe(blind, "en", "level-d", viewer=0) == (
        "You hit Player 03's Mimic, but Blind has no effect on monsters."
    )
    assert text.describe(blind, "ja", "level-d", viewer=0) == (
        "あなたの攻撃がプレイヤー03のミミックに命中したが、目潰しはモンスターには効かない。"
    )
    plain = {**blind, "no_effect": None}
    assert text.describe(plain, "en", "level-d", viewer=0) == "You hit Player 03's Mimic, but did no damage."
