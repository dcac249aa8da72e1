"""The White Maiden help page: how to play, in the reader's language, and the shipped content a
player meets (familiars and their skills, bosses and their actions, areas with their effects and
Arcana); for a game, also that game's settings and turns per round.

The guide follows the rules as this server plays them (``../shared/spec/maiden-rules.md``: the
rule IDs are named beside each section for whoever maintains it, never shown to players). Its
English and Japanese stand side by side here, as the content's texts do, so that one change
reaches both languages.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language

from delve.maiden import rules_text
from delve.maiden.text import die_name as _die
from delve.server.games.models import Game
from delve.server.games.present import settings_lines
from delve.server.play.maiden_screen import colour_name, content, pick, skill_condition, timing_name

Text = dict[str, str]

#: The guide: (anchor, title, blocks); a block is a paragraph, or a list of items (a list of texts).
GUIDE: tuple[tuple[str, Text, tuple[Text | list[Text], ...]], ...] = (
    (
        "goal",  # MV-OVER-2..5, MV-END-1/2
        {"en": "Goal", "ja": "目的"},
        (
            {
                "en": "White Maiden is cooperative: one to four maidens explore the Tree of Life together. Ten "
                "bosses hold its ten Sephirot. Defeat Urza, the Mad King, in Kether at the top of the tree "
                "before the 24th round ends and everyone wins; if round 24 ends with Urza alive, everyone loses.",
                "ja": "白き乙女は協力ゲームです。1〜4人の乙女が力を合わせて生命の樹を探索します。"
                "樹の10のセフィラは10体のボスが握っています。24ラウンド目が終わるまでに樹の頂ケテルにいる狂王ウルザを倒せば全員の勝利、"
                "ウルザが生きたまま24ラウンド目が終われば全員の敗北です。",
            },
            {
                "en": "Urza is strong: defeat other bosses first. Each defeated boss levels up every maiden, "
                "and freed areas give the party Arcana, one-shot powers.",
                "ja": "ウルザは強敵です。まずほかのボスを倒しましょう。ボスを倒すたびに乙女全員がレベルアップし、"
                "解放したエリアは一度きりの力、アルカナをもたらします。",
            },
        ),
    ),
    (
        "rounds",  # MV-ROUND-3/4/7/8
        {"en": "Rounds and turns", "ja": "ラウンドと手番"},
        (
            {
                "en": "A round starts by moving the round marker on; on an odd round an action marker is added. "
                "The action markers are the base target of every check: 1 in rounds 1-2, 2 in rounds 3-4, up "
                "to 12 in rounds 23-24. Checks get harder as time passes.",
                "ja": "ラウンドの始めにラウンドマーカーが進み、奇数ラウンドではアクションマーカーが1つ増えます。"
                "アクションマーカーの数がすべての判定の基本目標値です（1〜2ラウンドは1、3〜4ラウンドは2、"
                "23〜24ラウンドは12）。時間が経つほど判定は難しくなります。",
            },
            [
                {"en": "Solo: three turns in a row each round.", "ja": "1人：毎ラウンド3手番を続けて行う。"},
                {
                    "en": "Two players: you alternate, two turns each (four a round).",
                    "ja": "2人：交互に2手番ずつ（1ラウンド4手番）。",
                },
                {
                    "en": "Three or four players: one turn each, in seat order.",
                    "ja": "3〜4人：席順に1手番ずつ。",
                },
            ],
        ),
    ),
    (
        "turn",  # MV-TURN-1, MV-MOVE-1..11, MV-SPEC-1..4
        {"en": "A turn", "ja": "手番の流れ"},
        (
            [
                {
                    "en": "Move. You have Agility + 1 movement points. Explored rooms cost nothing to pass, an "
                    "unexplored one costs 1. Stop in an unexplored room or a boss room; the screen lights the "
                    "rooms you can reach. With nowhere to go you stay where you are.",
                    "ja": "移動：移動力は敏捷＋1。探索済みのルームは0、未探索のルームは1で通過できます。未探索の"
                    "ルームかボスルームで止まります（行けるルームは画面で光ります）。行き先がなければその場に"
                    "とどまります。",
                },
                {
                    "en": "Enter. The room is explored. A rest room restores your life and readies your skills "
                    "(no check this turn); a danger room raises the danger level by 1; a quest room draws a "
                    "quest; a boss room starts a boss fight.",
                    "ja": "入室：そのルームは探索済みになります。レストルームではライフが全回復しスキルが再び"
                    "使えるようになります（この手番は判定なし）。デンジャールームではデンジャーレベルが1上がり、クエスト"
                    "ルームではクエストを引き、ボスルームではボス戦が始まります。",
                },
                {
                    "en": "Check. Draw a room card (or face the boss's current action) and roll against it (below).",
                    "ja": "判定：ルームカードを引き（ボス戦ではボスの現在のアクション）、それに対してサイコロを振り"
                    "ます（下記）。",
                },
                {
                    "en": "Level up, if a boss was defeated; then the turn passes on.",
                    "ja": "ボスを倒していればレベルアップし、手番を次に渡します。",
                },
            ],
        ),
    ),
    (
        "check",  # MV-CHECK-3..10, MV-SLATE-2..6
        {"en": "Checks", "ja": "判定"},
        (
            {
                "en": "Roll one red, one blue and one black die, plus one white die for each level of Piety. "
                f"Will sets the size of every die: {_die(4, 'en')} at 0, {_die(6, 'en')} at 1, {_die(8, 'en')} at 2, "
                f"{_die(12, 'en')} at 3, {_die(20, 'en')} at 4 or more. "
                "Your action points (AP) are your highest die plus ascension bonuses. The target is the base "
                "target plus the card's difficulty: AP at least the target succeeds; otherwise you take damage "
                "equal to the danger level.",
                "ja": "赤・青・黒のサイコロ各1個と、信仰のレベルと同じ数の白いサイコロを振ります。"
                f"サイコロの面体数は意思で決まります（0で{_die(4, 'ja')}、1で{_die(6, 'ja')}、2で{_die(8, 'ja')}、"
                f"3で{_die(12, 'ja')}、4以上で{_die(20, 'ja')}）。アクションポイント（AP）は最も大きい"
                "出目にアセンションのボーナスを足したものです。目標値は基本目標値＋カードの難度。APが目標値"
                "以上なら成功、届かなければデンジャーレベルと同じダメージを受けます。",
            },
            {
                "en": "A slate (a colour printed on the card) is a dangerous attack: your AP is that colour's die "
                "instead of the highest, and after the check, success or not, you take 1 damage for each other "
                "die still on the table, less one per level of Agility.",
                "ja": "スレート（カードに描かれた色）は避けにくい攻撃です。APは最大の出目ではなくその色のサイコロの"
                "出目になり、判定の後には成否にかかわらず、場に残ったほかのサイコロ1個につき1ダメージを受けます"
                "（敏捷のレベルの数だけ減ります）。",
            },
        ),
    ),
    (
        "ascension",  # MV-ASC-1..9
        {"en": "Ascension", "ja": "アセンション"},
        (
            {
                "en": "After the roll you may remove two dice showing the same number (a pair, any colours) to "
                "add 1 + Piety to your AP, as often as you have pairs. Removed dice no longer count, nor "
                "cause slate damage; a slate's own die cannot be removed. The screen suggests the best "
                "ascensions and shows the exact chance of success of every choice before you make it.",
                "ja": "サイコロを振った後、同じ目のサイコロ2個（ゾロ目、色は問わない）を取り除くと、APに1＋信仰が"
                "加わります。ゾロ目がある限り何度でも行えます。取り除いたサイコロは数えられず、スレートの"
                "ダメージも与えません。スレートの色のサイコロは取り除けません。画面は最善のアセンションを提案し、"
                "どの選択にも成功の確率を事前に正確に表示します。",
            },
        ),
    ),
    (
        "skills",  # MV-SKILL-1..13
        {"en": "Skills and action symbols", "ja": "スキルとアクションシンボル"},
        (
            {
                "en": "Each skill can be used once per turn, at the time its text says. Its condition is a set of "
                "action symbols (Dash, Jump, Pray, Guard): the symbols of the top cards on your four stats. With "
                "the condition met the skill stays ready; without it you may still use it, but it becomes "
                "exhausted until you enter a rest room or die.",
                "ja": "スキルは1手番に1回、テキストに書かれたタイミングで使えます。条件はアクションシンボル"
                "（ダッシュ・ジャンプ・プレイ（祈り）・ガード）の組み合わせで、4つの能力値のいちばん上のカードの"
                "シンボルと照らし合わせます。条件を満たせばスキルはそのまま、満たさずに使うと消耗し、レスト"
                "ルームに入るか死亡するまで使えません。",
            },
        ),
    ),
    (
        "stats",  # MV-STAT-1..9, MV-LVL-1..6, MV-SETUP-11/13
        {"en": "Stats and level-ups", "ja": "能力値とレベルアップ"},
        (
            {
                "en": "A stat's level is the number of action cards placed on it. You start with your "
                "familiar's card and one level-up; every defeated boss levels up every maiden again: draw an "
                "action card and place it on one of your stats.",
                "ja": "能力値のレベルは、その上に置かれたアクションカードの枚数です。開始時は従者のカード1枚と"
                "最初のレベルアップ1回分。ボスを倒すたびに乙女全員がレベルアップし、アクションカードを1枚引いて"
                "能力値のどれかに置きます。",
            },
            {
                "en": "On the Maidens panel, the letters under a stat's level are the action cards placed on "
                "it, from bottom to top: D Dash, J Jump, P Pray, G Guard (point at a letter to read its name). "
                "\u201cDGP\u201d under Piety means three cards, Dash at the bottom and Pray on top: Piety is 3 "
                "and Pray is one of your symbols for skill conditions. Keeping an action card at a level-up "
                "chooses which symbol you will place.",
                "ja": "乙女パネルで能力値のレベルの下に並ぶ文字は、その能力値に置かれたアクションカードです"
                "（下から上の順）：ダ＝ダッシュ、ジ＝ジャンプ、プ＝プレイ（祈り）、ガ＝ガード（文字にポインターを"
                "合わせると名前が出ます）。信仰の下に「ダガプ」とあれば、カードは3枚でいちばん下がダッシュ、"
                "いちばん上がプレイ。信仰は3で、プレイがスキルの条件に使えるシンボルの1つになります。"
                "レベルアップでアクションカードを選んで残すことは、どのシンボルを置くかを選ぶことです。",
            },
            [
                {
                    "en": "Piety: one more white die per level, and each ascension adds 1 + Piety.",
                    "ja": "信仰：レベルごとに白いサイコロが1個増え、アセンション1回で1＋信仰が加わる。",
                },
                {
                    "en": f"Will: bigger dice ({_die(4, 'en')} up to {_die(20, 'en')}).",
                    "ja": f"意思：サイコロの面体数が大きくなる（{_die(4, 'ja')}から{_die(20, 'ja')}まで）。",
                },
                {
                    "en": "Agility: one more movement point per level, one die less of slate damage, and a new "
                    "skill each time a card is placed on it.",
                    "ja": "敏捷：レベルごとに移動力が1増え、スレートのダメージがサイコロ1個分減り、カードを置くたびに"
                    "新しいスキルを1つ覚える。",
                },
                {
                    # then: the hidden passages' Inspiration thresholds, from the map (SUG-10, MV-MOVE-13)
                    "en": "Inspiration: every draw from any deck draws one more card per level; you keep one.",
                    "ja": "霊感：どの山札から引くときもレベルごとに1枚多く引き、1枚を選んで残す。",
                    "then": "passages",
                },
            ],
        ),
    ),
    (
        "areas",  # MV-EXPL-1..8
        {"en": "Areas and Arcana", "ja": "エリアとアルカナ"},
        (
            {
                "en": "The rooms between two Sephirot form one of 22 areas, each named after a Major Arcanum. "
                "While an area is not freed its effect applies in its rooms. Explore every room of an area "
                "(its boss room aside) and it is freed: its effect ends, and its Arcana joins the party's "
                "pool. Any maiden may use an Arcana for the maiden whose turn it is, once; then it is "
                "discarded.",
                "ja": "2つのセフィラの間のルームは22のエリアの1つで、それぞれ大アルカナの名を持ちます。解放される"
                "までそのエリアの効果がエリア内に及びます。ボスルームを除くエリアの全ルームを探索すると解放され、"
                "効果は消え、そのアルカナがパーティの共有になります。アルカナはどの乙女でも、手番中の乙女の"
                "ために1回だけ使え、使うと捨て札になります。",
            },
        ),
    ),
    (
        "bosses",  # MV-SPEC-4/5, MV-BOSS-1..11
        {"en": "Boss fights", "ja": "ボス戦"},
        (
            {
                "en": "Entering a boss room starts a fight you cannot walk away from until the boss is defeated "
                "or you die. Each turn you make one check against the boss's current action (its difficulty, "
                "slate and effect); a success takes 1 of its life, and either way it moves on to its next "
                "action. Its damage lasts, even if you die; several maidens may fight the same boss. With two or "
                "four players (four turns a round) every boss has, by default, a third more life, rounded up.",
                "ja": "ボスルームに入るとボス戦が始まり、ボスを倒すか死亡するまでそこを離れられません。毎手番、"
                "ボスの現在のアクション（難度・スレート・効果）に対して1回判定し、成功するとボスのライフを1"
                "削ります。成否にかかわらずボスは次のアクションに移ります。与えたダメージは死亡しても残り、"
                "複数の乙女が同じボスと戦えます。2人と4人のゲーム（1ラウンド4手番）では、既定でどのボスもライフが3分の1"
                "（切り上げ）増えます。",
            },
        ),
    ),
    (
        "death",  # MV-LIFE, MV-DEATH-1..6
        {"en": "Life and death", "ja": "ライフと死亡"},
        (
            {
                "en": "A maiden has 6 life. At 0 she dies and revives at once at the start (S) with 1 life and "
                "her skills ready, leaving any boss fight. She keeps her stats, skills and the party's Arcana: "
                "death costs time, not the game.",
                "ja": "乙女のライフは6。0になると死亡し、すぐにスタート（S）でライフ1、スキルが使える状態で"
                "復活し、ボス戦からは離れます。能力値・スキル・アルカナは失いません。死亡で失うのは時間だけ"
                "です。",
            },
        ),
    ),
    (
        "screen",
        {"en": "The game screen", "ja": "ゲーム画面"},
        (
            {
                "en": "The decision panel lists exactly what you may do now, with the chance of success of each "
                "choice. In a game at one table (hot-seat) the panel says whose decision it is, and to whom "
                "the phone goes next.",
                "ja": "決定パネルには今できることだけが並び、それぞれの成功確率が示されます。1台で遊ぶ（ホット"
                "シート）ゲームでは誰の決定か、次に誰へスマホを渡すかがパネルに表示されます。",
            },
            {
                # keyboard only: left out on a touch screen (.keys-hint)
                "keys": "1",
                "en": "Keys: R roll the dice, B the suggested ascension (nothing when a skill or Arcana is "
                "suggested instead: the panel has one suggestion), E resolve the check, 1-9 move to a "
                "listed room or pick a listed option, S stay.",
                "ja": "キー操作：R サイコロを振る、B おすすめのアセンション（スキルかアルカナがおすすめの時は何も"
                "しない。おすすめはパネルに一つだけ）、E 判定の解決、1〜9 表示されたルームへ移動／選択肢を"
                "選ぶ、S とどまる。",
            },
        ),
    ),
)


def _lang() -> str:
    return "ja" if (get_language() or "en")[:2] == "ja" else "en"


def guide(lang: str) -> list[dict[str, Any]]:
    """The guide's sections in ``lang``: each with its anchor, title and blocks (``{"text": ...}``
    a paragraph, with ``keys`` when it is keyboard help only, ``{"list": [...]}`` a list)."""
    sections = []
    for anchor, title, blocks in GUIDE:
        shown = [
            {"list": [_said(item, lang) for item in block]}
            if isinstance(block, list)
            else {"text": _said(block, lang), "keys": bool(block.get("keys"))}
            for block in blocks
        ]
        sections.append({"id": anchor, "title": title[lang], "blocks": shown})
    return sections


def _said(block: Text, lang: str) -> str:
    """A paragraph or list item of the guide; ``then: "passages"`` appends which Inspiration
    opens which hidden passages, made from the map's data (never a number written here)."""
    text = block[lang]
    if block.get("then") == "passages":
        text += ("" if lang == "ja" else " ") + rules_text.passages_sentence(content(), lang)
    return text


def _symbols(symbols: tuple[str, ...], lang: str) -> str:
    names = content().actions.symbols
    return " + ".join(pick(names.get(symbol), lang) or symbol for symbol in symbols)


def familiars(lang: str) -> list[dict[str, Any]]:
    data = content()
    out = []
    for familiar in data.familiars.values():
        skills = []
        for skill_id in familiar.skills:
            skill = data.skills.get(skill_id)
            if skill is not None:
                skills.append(
                    {
                        "name": pick(skill.name, lang),
                        "text": pick(skill.text, lang),
                        "condition": skill_condition(skill.condition, lang, joiner=" + "),
                        "timing": timing_name(skill.timing),
                    }
                )
        out.append(
            {
                "name": pick(familiar.name, lang),
                "text": pick(familiar.text, lang),
                "card": _symbols((familiar.action,), lang),
                "skills": skills,
            }
        )
    return out


def bosses(lang: str) -> list[dict[str, Any]]:
    data = content()
    out = []
    for boss in sorted(data.bosses.values(), key=lambda b: (b.final, b.tier)):
        out.append(
            {
                "sephirah": pick(boss.sephirah, lang),
                "name": pick(boss.name, lang),
                "life": boss.life,
                "flavour": pick(boss.flavour, lang),
                "final": boss.final,
                "actions": [
                    {
                        "name": pick(action.name, lang),
                        "difficulty": action.difficulty,
                        "slate": colour_name(action.slate) if action.slate else "",
                        # its extra rules (mods) and its effect with its trigger (MV-BOSS-10, MV-EVENT-2)
                        "effect": rules_text.action_text(action, lang),
                    }
                    for action in boss.actions
                ],
            }
        )
    return out


def areas(lang: str) -> list[dict[str, Any]]:
    return [
        {
            "name": pick(area.name, lang),
            "effect": pick(area.effect_text, lang),
            "arcana": pick(area.arcana_text, lang),  # its timing in brackets after its name
        }
        for area in sorted(content().areas.values(), key=lambda a: a.arcanum)
    ]


def context(game: Game | None = None) -> dict[str, Any]:
    """The page's context in the active language; ``game``: a White Maiden game whose settings
    the page shows too."""
    lang = _lang()
    ctx: dict[str, Any] = {
        "sections": guide(lang),
        "familiars": familiars(lang),
        "bosses": bosses(lang),
        "areas": areas(lang),
        "game": game,
    }
    if game is not None:
        ctx["settings"] = settings_lines(game)
    return ctx
