"""White Maiden in a terminal (``delve maiden play``): watch bots play a whole game, or play some
seats by typing the number of a legal command; bots play the other seats.

Everything shown comes from the seat's view (what a player may see) and the content: the turn
header, the map as a compact listing of areas and rooms with markers, the maidens, the check in
hand with its dice and the exact odds of each option (``delve.maiden.odds``), and the numbered
legal commands with readable labels. Event sentences come from ``text.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from delve.bots.maiden import MaidenBot, Quick, RandomMaidenBot, _area_mods, _contains
from delve.bots.maiden_eval import NAMES, T0, Stuck, waiting_seat
from delve.kernel import Recorder, SeatInfo
from delve.maiden import journal, odds, text
from delve.maiden.ruleset import MaidenRuleset

View = Mapping[str, Any]
Command = dict[str, Any]

TYPE_MARK = {"rest": "R", "quest": "Q", "danger": "!", "boss": "B", "normal": "", "start": "S"}


class Quit(Exception):
    """The player typed ``q`` or the input ended."""


# ---------------------------------------------------------------------------------------------
# Rendering a view
# ---------------------------------------------------------------------------------------------


def percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def header(view: View, n: text.Names) -> str:
    active = view.get("active_seat")
    who = n.player(active) if active is not None else "-"
    return n.say(
        f"== Round {view['round']}/{view['rounds']}  turn {view['turn_in_round']}/{view['turns_per_round']}"
        f"  {who}  | base target {view['base_target']}  danger level {view['danger_level']}"
        f"  Sephirot {view['sephirot']}/10 ==",
        f"== 第{view['round']}/{view['rounds']}ラウンド  {view['turn_in_round']}/{view['turns_per_round']}手番目"
        f"  {who}  | 基本目標値{view['base_target']}  デンジャーレベル{view['danger_level']}"
        f"  セフィラ{view['sephirot']}/10 ==",
    )


def render_map(view: View, n: text.Names) -> str:
    """One line per area (its rooms in chain order: number, explored ✓ or ·, type mark, @seat),
    then the boss halls with their life."""
    rooms = {r["id"]: r for r in view["map"]["rooms"]}
    here: dict[str, list[int]] = {}
    for m in view["maidens"]:
        here.setdefault(m["room"], []).append(m["seat"])
    lines = [
        n.say(
            "Map (✓ explored, · unexplored; R rest, Q quest, ! danger; @n maiden n):",
            "マップ（✓探索済み、·未探索；Rレスト、Qクエスト、!デンジャー；@n 乙女n）：",
        )
    ]
    start = view["map"].get("start", "s")
    lines.append("  S " + " ".join(f"@{s + 1}" for s in here.get(start, [])))
    chains = getattr(n.content, "area_rooms", None)
    for area in view["areas"]:
        ids = list(chains.get(area["id"], ())) if chains is not None else []
        if not ids:
            ids = [r for r, room in rooms.items() if room.get("area") == area["id"] and room["type"] != "boss"]
        cells = []
        for number, room_id in enumerate(ids, start=1):
            room = rooms[room_id]
            mark = "✓" if room["explored"] else "·"
            kind = TYPE_MARK.get(room["type"], "?")
            seats = "".join(f"@{s + 1}" for s in here.get(room_id, []))
            cells.append(f"{number}{mark}{kind}{seats}")
        freed = n.say(" [freed]", "［解放］") if area["freed"] else ""
        lines.append(f"  {n.area(area['id'])}{freed}: " + " ".join(cells))
    halls = []
    for boss in view["bosses"]:
        room_id = next((r for r, room in rooms.items() if room.get("boss") == boss["id"]), None)
        seats = "".join(f"@{s + 1}" for s in here.get(room_id or "", []))
        if boss["defeated"]:
            state = n.say("defeated", "撃破")
        elif boss["engaged"]:
            state = n.say(
                f"life {boss['life_left']}/{boss['life_max']}", f"ライフ{boss['life_left']}/{boss['life_max']}"
            )
        else:
            state = n.say(f"life {boss['life']}", f"ライフ{boss['life']}")
        crown = "♛" if boss["final"] else ""
        halls.append(f"{crown}{n.sephirah(boss['id']).split(',')[0].split('（')[0]} ({state}){seats}")
    lines.append(n.say("  Halls: ", "  ボスの間：") + ", ".join(halls))
    if view.get("arcana"):
        lines.append(n.say("  Arcana: ", "  アルカナ：") + ", ".join(n.area(a["area"]) for a in view["arcana"]))
    return "\n".join(lines)


def render_maidens(view: View, n: text.Names) -> str:
    lines = []
    for m in view["maidens"]:
        lv = m["levels"]
        stats = " ".join(f"{n.stat(s)[:3]} {lv[s]}" for s in ("pie", "wil", "agi", "ins"))
        if n.lang == "ja":
            stats = " ".join(f"{n.stat(s)}{lv[s]}" for s in ("pie", "wil", "agi", "ins"))
        tops = "".join(m["top_symbols"])
        skills = ", ".join(n.skill(s["id"]) + ("(×)" if s["exhausted"] else "") for s in m["skills"])
        place = n.room(m["room"])
        die = text.die_name(m["die"], n.lang)
        lines.append(
            n.say(
                f"  {n.player(m['seat'])}: life {m['life']}/{m['life_max']}  {stats}  {die}  tops {tops or '-'}"
                f"  in {place}; skills: {skills or '-'}",
                f"  {n.player(m['seat'])}：ライフ{m['life']}/{m['life_max']}  {stats}  {die}  トップ{tops or '-'}"
                f"  {place}；スキル：{skills or '-'}",
            )
        )
    return "\n".join(lines)


def render_check(view: View, n: text.Names, bot: MaidenBot) -> str:
    """The check in hand: what it is against, the target, the slate, the dice (after the roll)
    and the exact odds (before the roll: P(success) and expected damage)."""
    check = view.get("check")
    me = next((m for m in view["maidens"] if m["seat"] == view.get("active_seat")), None)
    if check is None or me is None:
        return ""
    if check["kind"] == "boss":
        source = n.say(
            f"{n.boss(check['source'])}: {n.boss_action(check['source'], check['action'])}",
            f"{n.boss(check['source'])}：{n.boss_action(check['source'], check['action'])}",
        )
    else:
        source = n.room_card(check["source"])
    slate = check.get("slate")
    slate_text = n.say(f", {n.colour(slate)} slate", f"、{n.colour(slate)}のスレート") if slate else ""
    lines = [
        n.say(
            f"Check: {source}, target {check['target']}{slate_text}",
            f"判定：{source}、目標値{check['target']}{slate_text}",
        )
    ]
    if check["rolled"]:
        dice = []
        for i, d in enumerate(check["dice"]):
            face = int(d["face"] or 0) + int(d.get("bonus") or 0)
            gone = n.say(" (ascended)", "（アセンション済）") if d["removed"] else ""
            dice.append(f"[{i}] {n.colour(d['colour'])} {face}/{text.die_name(d['size'], n.lang)}{gone}")
        lines.append(n.say("  Dice: ", "  サイコロ：") + ", ".join(dice))
        lines.append(
            n.say(
                f"  AP now {check['ap']} (best reachable {check.get('best_ap')})",
                f"  現在のAP {check['ap']}（最大 {check.get('best_ap')}）",
            )
        )
    else:
        mods = bot.check_mods(view, me, check)
        quick = bot.odds_for(view, me, int(check["target"]), slate, mods)
        lines.append(odds_line(n, quick))
    return "\n".join(lines)


def odds_line(n: text.Names, quick: Quick) -> str:
    return n.say(
        f"  Odds: success {percent(quick.p_success)}, expected damage {quick.expected_damage:.2f}",
        f"  確率：成功{percent(quick.p_success)}、ダメージ期待値{quick.expected_damage:.2f}",
    )


def ascension_outcomes(view: View, bot: MaidenBot) -> dict[tuple[int, int] | None, odds.Option]:
    """For the post-roll window: each next ascension (and stopping) with its outcome."""
    check = view.get("check")
    me = next((m for m in view["maidens"] if m["seat"] == view.get("active_seat")), None)
    if check is None or me is None or not check["rolled"] or any(d.get("bonus") for d in check["dice"]):
        return {}
    slate = check.get("slate")
    if slate is not None and sum(1 for d in check["dice"] if d["colour"] == slate) != 1:
        slate = None
    try:
        options = odds.ascension_options(
            [(d["colour"], int(d["face"])) for d in check["dice"]],
            int(me["levels"]["pie"]),
            slate=slate,
            target=int(check["target"]),
            agi=int(me["levels"]["agi"]),
            danger_level=int(view["danger_level"]),
            variant=bot.dice_variant,
            removed=[i for i, d in enumerate(check["dice"]) if d["removed"]],
        )
    except odds.OddsError:
        return {}
    return {o.pair: o for o in options}


def _outcome(n: text.Names, plan: odds.Plan) -> str:
    result = n.say("success", "成功") if plan.success else n.say("failure", "失敗")
    return n.say(
        f"AP {plan.ap} → {result}, damage {plan.damage}",
        f"AP{plan.ap}→{result}、ダメージ{plan.damage}",
    )


def command_label(command: Command, view: View, n: text.Names, bot: MaidenBot) -> str:
    """A readable label of a legal command, with the odds where a choice has them."""
    kind = command["kind"]
    me = next((m for m in view["maidens"] if m["seat"] == view.get("you")), None)
    rooms = {r["id"]: r for r in view["map"]["rooms"]}
    decision = (view.get("pending") or [{}])[0]
    if kind == "move":
        room = rooms[command["to"]]
        state = n.say("explored", "探索済み") if room["explored"] else n.say("unexplored", "未探索")
        return n.say(
            f"Move to {n.room(command['to'])} ({n.room_type(room['type'])}, {state})",
            f"{n.room(command['to'])}へ移動（{n.room_type(room['type'])}、{state}）",
        )
    if kind == "stay":
        return n.say("Stay (no legal destination)", "とどまる（行ける場所がない）")
    if kind == "roll":
        return n.say("Roll the dice", "サイコロを振る")
    if kind == "resolve":
        outcomes = ascension_outcomes(view, bot)
        stop = outcomes.get(None)
        extra = f" — {_outcome(n, stop.now)}" if stop is not None else ""
        return n.say(f"Resolve the check{extra}", f"判定を確定する{extra}")
    if kind == "ascend":
        i, j = command["dice"]
        check = view["check"]
        face = check["dice"][i]["face"]
        option = next(
            (o for pair, o in ascension_outcomes(view, bot).items() if pair is not None and o.value == face), None
        )
        extra = (
            n.say(f" — then best: {_outcome(n, option.best)}", f" — その後の最善：{_outcome(n, option.best)}")
            if option
            else ""
        )
        return n.say(
            f"Ascend dice {i} and {j} (pair of {face}s){extra}",
            f"サイコロ{i}と{j}（{face}のゾロ目）でアセンション{extra}",
        )
    if kind == "boost":
        return n.say(f"Raise die {command['die']} by 1", f"サイコロ{command['die']}を+1する")
    if kind == "die_size":
        return n.say(
            f"Roll {text.die_name(command['size'], 'en')} instead",
            f"代わりに{text.die_name(command['size'], 'ja')}で振る",
        )
    if kind in ("use_skill", "use_arcana"):
        params = {k: v for k, v in command.items() if k not in ("kind", "skill", "area")}
        extra = f" — {_pick_name(params, n)}" if params else ""
        if kind == "use_skill":
            skill = n.content.skills.get(command["skill"])
            exhausts = ""
            if skill is not None and me is not None and not _contains(me["top_symbols"], skill.condition):
                exhausts = n.say(" (condition not met: it will be exhausted)", "（条件未達：消耗する）")
            what = text.pick(skill.text, n.lang) if skill else ""
            return n.say(
                f"Use skill {n.skill(command['skill'])}: {what}{exhausts}{extra}",
                f"スキル「{n.skill(command['skill'])}」を使う：{what}{exhausts}{extra}",
            )
        area = n.content.areas.get(command["area"])
        return n.say(
            f"Use the Arcana of {n.area(command['area'])}: {text.pick(area.arcana_text, 'en') if area else ''}{extra}",
            f"{n.area(command['area'])}のアルカナを使う：{text.pick(area.arcana_text, 'ja') if area else ''}{extra}",
        )
    if kind == "keep_card":
        data = decision.get("data") or {}
        card = (decision.get("options") or [])[command["card"]]
        deck = data.get("deck")
        label = n.card(deck, card)
        if deck == "room" and me is not None:
            definition = n.content.room_cards[card]
            mods = _area_mods(view, me["room"])
            target = max(
                1, int(view["base_target"]) + int(definition.difficulty) + int(mods.get("difficulty_delta", 0))
            )
            slate = definition.slate or mods.get("default_slate")
            quick = bot.odds_for(view, me, target, slate, mods)
            slate_text = n.say(f", {n.colour(slate)} slate", f"、{n.colour(slate)}のスレート") if slate else ""
            return n.say(
                f"Keep {label} (difficulty {definition.difficulty}{slate_text}: target {target},"
                f" success {percent(quick.p_success)}, expected damage {quick.expected_damage:.2f})",
                f"「{label}」を残す（難度{definition.difficulty}{slate_text}：目標値{target}、"
                f"成功{percent(quick.p_success)}、ダメージ期待値{quick.expected_damage:.2f}）",
            )
        if deck == "skill":
            skill = n.content.skills.get(card)
            return n.say(
                f"Keep {label}: {text.pick(skill.text, 'en') if skill else ''}",
                f"「{label}」を残す：{text.pick(skill.text, 'ja') if skill else ''}",
            )
        if deck == "quest":
            quest = n.content.quests.get(card)
            return n.say(
                f"Keep {label}: {text.pick(quest.text, 'en') if quest else ''}",
                f"「{label}」を残す：{text.pick(quest.text, 'ja') if quest else ''}",
            )
        return n.say(f"Keep {label}", f"「{label}」を残す")
    if kind == "place_card":
        data = decision.get("data") or {}
        stat = command["stat"]
        level = int(me["levels"][stat]) if me is not None else 0
        return n.say(
            f"Place {n.symbol(data.get('card'))} on {n.stat(stat)} ({level} → {level + 1})",
            f"{n.symbol(data.get('card'))}を{n.stat(stat)}に置く（{level}→{level + 1}）",
        )
    if kind == "agi_option":
        if command["choice"] == "learn":
            return n.say("Learn a new skill", "新しいスキルを習得する")
        return n.say(
            f"Raise the level of {n.skill(command['choice'])}", f"「{n.skill(command['choice'])}」のレベルを上げる"
        )
    if kind == "choose_familiar":
        familiar = n.content.familiars.get(command["familiar"])
        return f"{n.familiar(command['familiar'])}: {text.pick(familiar.text, n.lang) if familiar else ''}"
    if kind == "choose_start_player":
        return n.say(f"{n.player(command['seat'])} starts", f"{n.player(command['seat'])}がスタートプレイヤー")
    if kind == "choose":
        option = (decision.get("options") or [])[command["option"]]
        return n.say(f"Choose {_option_name(option, n)}", f"{_option_name(option, n)}を選ぶ")
    return str(command)


def _option_name(option: Any, n: text.Names) -> str:
    if isinstance(option, dict):
        return _pick_name(option, n)
    if isinstance(option, int) and not isinstance(option, bool):
        return n.player(option)
    if option in ("pool", "evolve"):
        return n.say(
            "to put the Arcana in the pool" if option == "pool" else "to evolve the familiar",
            "アルカナを共有する" if option == "pool" else "従者を進化させる",
        )
    if option == "die":  # the damage window (death.DIE)
        return n.say("to die (revive at the start)", "倒れる（スタートで復活）")
    content = n.content
    if option in content.areas:
        return n.say(f"the Arcana of {n.area(option)}", f"{n.area(option)}のアルカナ")
    for table, name in ((content.skills, n.skill), (content.bosses, n.boss), (content.rooms, n.room)):
        if option in table:
            return name(option)
    return str(option)


def screen(view: View, legal: Sequence[Command], n: text.Names, bot: MaidenBot) -> str:
    """What a player sees before choosing: the header, the map (when moving), the maidens, the
    check, and the numbered commands."""
    parts = [header(view, n)]
    if view.get("phase") in ("move", "setup"):
        parts.append(render_map(view, n))
    parts.append(render_maidens(view, n))
    check = render_check(view, n, bot)
    if check:
        parts.append(check)
    decision = (view.get("pending") or [None])[0]
    if decision is not None:
        what = {
            "keep_card": n.say("Keep which card?", "どのカードを残しますか？"),
            "place_card": n.say("Place the card on which stat?", "どの能力値に置きますか？"),
        }.get(decision["kind"], n.say("Decide:", "選択："))
        parts.append(what)
    parts.append("\n".join(f"  {i}. {command_label(c, view, n, bot)}" for i, c in enumerate(legal, start=1)))
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------
# The game loop
# ---------------------------------------------------------------------------------------------


def ask(
    prompt: str,
    count: int,
    read: Callable[[], str],
    write: Callable[[str], None],
    n: text.Names,
    *,
    echo: bool = False,
) -> int:
    """The index (0-based) of the command the player types (1..count); ``q`` quits. ``echo``:
    write the answer back (a terminal echoes what is typed; a pipe or a file does not)."""
    while True:
        write(prompt)
        line = read()
        if echo:
            write(line if line.endswith("\n") else line + "\n")
        if line == "":
            raise Quit
        answer = line.strip().lower()
        if answer in ("q", "quit", "exit"):
            raise Quit
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        write(
            n.say(
                f"Please type a number from 1 to {count} (q to quit).\n",
                f"1〜{count}の番号を入力してください（qで終了）。\n",
            )
        )


def play(
    players: int,
    seed: int,
    *,
    lang: str = "en",
    seats: Sequence[int] = (),
    settings: Mapping[str, Any] | None = None,
    strategy: str = "will_first",
    bot: str = "heuristic",
    stdin: TextIO,
    stdout: TextIO,
    ruleset: MaidenRuleset | None = None,
) -> int:
    """Play (or watch) one game; returns the exit status (0 finished, 1 quit)."""
    ruleset = ruleset or MaidenRuleset()
    overrides = {"players": players, **dict(settings or {})}
    game = ruleset.setup(overrides, [SeatInfo(NAMES[i]) for i in range(players)], seed, T0)
    public = ruleset.validate_settings(overrides)
    names = text.Names(lang, ruleset.content, [NAMES[i] for i in range(players)])
    helper = MaidenBot(strategy, public, content=ruleset.content)
    bots: list[Any] = [
        RandomMaidenBot(seed * 10 + s) if bot == "random" else MaidenBot(strategy, public, content=ruleset.content)
        for s in range(players)
    ]
    humans = set(seats)

    def write(line: str) -> None:
        stdout.write(line)
        stdout.flush()

    who = names.say(
        f"White Maiden: {players} player(s), seed {seed}; you play {names.players_list(sorted(humans))}.\n"
        if humans
        else f"White Maiden: {players} player(s), seed {seed}; the bots play every seat.\n",
        f"白き乙女：{players}人、シード{seed}。あなたは{names.players_list(sorted(humans))}を担当。\n"
        if humans
        else f"白き乙女：{players}人、シード{seed}。全員ボットが担当。\n",
    )
    write(who)
    recorder = Recorder(ruleset, game)  # the views' recent events, kept from the events
    for event in journal.started(game):  # the setup's own events (the start player)
        write("  " + text.sentence(event.kind, event.data, lang, ruleset.content, names.players) + "\n")
    for _ in range(20_000):
        if game.ended:
            break
        seat = waiting_seat(game)
        if seat is None:
            raise Stuck(f"seed {seed}: nobody is to act")
        legal = ruleset.legal_commands(game, seat)
        if seat in humans:
            view = recorder.view(game, seat)
            write(screen(view, legal, names, helper) + "\n")
            try:
                index = ask(
                    names.say(f"{names.player(seat)}> ", f"{names.player(seat)}> "),
                    len(legal),
                    stdin.readline,
                    write,
                    names,
                    echo=not stdin.isatty(),
                )
            except Quit:
                write(names.say("Game left unfinished.\n", "ゲームを中断しました。\n"))
                return 1
            command = legal[index]
            write(f"  → {command_label(command, view, names, helper)}\n")
        elif len(legal) == 1:
            command = legal[0]
        else:
            command = bots[seat].choose(recorder.view(game, seat), legal)
            if command is None:
                raise Stuck(f"seed {seed}: seat {seat} had nothing to play")
        for event in recorder.record(ruleset.apply(game, seat, command, game.clock)):
            sentence = text.event_sentence(event, lang, ruleset.content, names.players)
            if event.kind == "round.started":
                write("\n" + header(ruleset.view(game, 0), names) + "\n")
            write("  " + sentence + "\n")
    summary = ruleset.view(game, 0)["summary"] or {}
    result = names.say("WON", "勝利") if game.result == "won" else names.say("LOST", "敗北")
    write(
        names.say(
            f"\nResult: {result}. Rounds {summary.get('rounds')}, bosses defeated {summary.get('bosses_defeated')},"
            f" areas freed {summary.get('areas_freed')}, rooms explored {summary.get('rooms_explored')},"
            f" deaths {summary.get('deaths')}, final danger level {summary.get('danger_level')}.\n",
            f"\n結果：{result}。{summary.get('rounds')}ラウンド、ボス撃破{summary.get('bosses_defeated')}、"
            f"エリア解放{summary.get('areas_freed')}、探索ルーム{summary.get('rooms_explored')}、"
            f"死亡{summary.get('deaths')}回、最終デンジャーレベル{summary.get('danger_level')}。\n",
        )
    )
    return 0


def _pick_name(pick: dict[str, Any], n: text.Names) -> str:
    """A pick of an effect (die ops, bosses, rooms, skills), e.g. ``{"die": 2, "face": 4}``."""
    parts: list[str] = []
    if "seat" in pick:
        parts.append(n.player(pick["seat"]))
    if "die" in pick:
        parts.append(n.say(f"die {pick['die']} -> {pick.get('face')}", f"サイコロ{pick['die']}→{pick.get('face')}"))
    if "dice" in pick:
        numbers = ", ".join(str(i) for i in pick["dice"])
        parts.append(n.say(f"dice {numbers}", f"サイコロ{numbers}"))
    if "onto" in pick:
        parts.append(n.say(f"onto die {pick['onto']}", f"サイコロ{pick['onto']}へ"))
    if "boss" in pick:
        parts.append(n.boss(str(pick["boss"])))
    if "action" in pick:
        parts.append(n.say(f"action {pick['action'] + 1}", f"行動{pick['action'] + 1}"))
    if "room" in pick:
        parts.append(n.room(str(pick["room"])))
    for key in ("level_skill", "exhaust"):
        if key in pick:
            parts.append(n.skill(str(pick[key])))
    return " ".join(parts) or str(pick)
