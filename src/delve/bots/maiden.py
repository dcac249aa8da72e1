"""White Maiden bots: a random bot and a cooperative heuristic bot.

Both decide from what a player in their seat sees: ``view(state, seat)`` and that seat's legal
commands, plus the public content (the printed cards: skills, bosses, areas, room cards). They
never read a game state. The heuristic bot evaluates its dice with the exact odds of
``delve.maiden.odds``:

* **growth** (``place_card``): a strategy (:data:`STRATEGIES`) says which stat comes first; once
  its early goal is met, each card goes where the odds say it helps most (Pie and Wil by the
  change in P(success) and expected damage over the checks still to come, Agi by slate damage
  avoided and movement, Ins by the value of choosing among more room cards);
* **draws** (``keep_card``): the room card with the least expected damage (Ins), the skill that
  helps most and that the top cards can use without exhausting it, the action card whose symbol
  meets the most skill conditions once placed, the most useful quest;
* **routing**: toward the unexplored room that completes an area soonest (Arcana), to a rest
  room when life is low, into a boss room when the team is strong enough for that boss (bosses in
  tier order), and to the Mad King in time to defeat him by round 24 (planned in expected turns);
* **checks**: the best ascension (MV-ASC-9 via ``odds.best_plan``), skills and Arcana when they
  raise the chance of success or save life, judged by the odds of the check in hand.

A bot returns one command at a time; the caller applies it and asks again with a fresh view.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from delve.kernel import Rng
from delve.maiden import odds

Command = dict[str, Any]
View = Mapping[str, Any]

STATS: Final = ("pie", "wil", "agi", "ins")
STRATEGIES: Final = ("will_first", "piety_first", "agility_first", "inspiration_first", "balanced")
"""Growth strategies of the heuristic bot (the lab compares them):

* ``will_first``: Wil up to 4 (d20) first, then the odds decide between Pie, Agi and Ins;
* ``piety_first``: Pie up to 3 first, then Wil up to 4, then the odds;
* ``agility_first``: Agi up to 2 first, then Wil up to 4, then the odds;
* ``inspiration_first``: Ins up to 2 first, then Wil up to 4, then the odds;
* ``balanced``: always the lowest stat (ties: Wil, Pie, Agi, Ins): an even spread.
"""

_EARLY: Final[dict[str, tuple[tuple[str, int], ...]]] = {
    "will_first": (("wil", 4),),
    "piety_first": (("pie", 3), ("wil", 4)),
    "agility_first": (("agi", 2), ("wil", 4)),
    "inspiration_first": (("ins", 2), ("wil", 4)),
    "balanced": (),
}

#: The value of one point of life, in the bots' common currency "expected damage".
_LIFE_LOW: Final = 2
_DIFFICULTIES: Final = (-1, 0, 1, 2, 3, 4)
"""Room difficulties the growth evaluation averages over (the room deck's range)."""


def _content() -> Any:
    from delve.maiden import content

    return content.load()


def acting_seat(view: View) -> int | None:
    """Who must act now, as a view tells it: the head decision's seat (seat 0 for a decision any
    seat may take), else the active seat while the game runs."""
    if view.get("ended"):
        return None
    pending = view.get("pending") or []
    if pending:
        seat = pending[0].get("seat")
        return 0 if seat is None else int(seat)
    active = view.get("active_seat")
    return None if active is None else int(active)


# ---------------------------------------------------------------------------------------------
# The random bot
# ---------------------------------------------------------------------------------------------


class RandomMaidenBot:
    """Plays a uniformly random legal command (from its own seeded RNG: reproducible). Arcana
    are used only by the active seat, so a random bot never plays out of turn."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng.seeded(seed)

    def choose(self, view: View, legal: list[Command]) -> Command | None:
        if not legal or view.get("ended"):
            return None
        return dict(self.rng.choice(legal))


# ---------------------------------------------------------------------------------------------
# The heuristic bot
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Knobs:
    """Thresholds of the heuristic bot (the lab may vary them)."""

    boss_ready: float = 0.5
    """Mean P(success) against a boss's actions at which the bot walks into its room."""
    urza_margin: float = 1.5
    """Safety factor on the expected number of turns the Mad King needs."""
    urza_ready: float = 0.55
    """Mean P(success) against the Mad King at which the bot goes for him at once."""
    urza_hope: float = 0.25
    """Mean P(success) below which the bot grows stronger instead (until the last rounds)."""
    rest_life: int = 2
    """Life at or below which a rest room (or surviving) comes first."""


class MaidenBot:
    """The cooperative heuristic bot (see the module docstring). ``settings``: the game's public
    settings (variants change the dice; the defaults are the rulebook's)."""

    def __init__(
        self,
        strategy: str = "will_first",
        settings: Mapping[str, Any] | None = None,
        knobs: Knobs | None = None,
        content: Any = None,
    ) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
        self.strategy = strategy
        self.settings = dict(settings or {})
        self.variant = odds.Variant.from_settings(self.settings)
        v = self.variant
        self.dice_variant = odds.Variant(
            ascension_bonus=v.ascension_bonus, pie_mode=v.pie_mode, slate_damage_per_die=v.slate_damage_per_die
        )
        self.knobs = knobs or Knobs()
        self.content = content if content is not None else _content()
        self._gains: dict[tuple[Any, ...], float] = {}

    # -- entry point ---------------------------------------------------------------------------

    def choose(self, view: View, legal: list[Command]) -> Command | None:
        if not legal or view.get("ended"):
            return None
        pending = view.get("pending") or []
        if pending and any(c["kind"] in _DECISION_KINDS for c in legal):
            return self.decide(view, pending[0], legal)
        own = [c for c in legal if c["kind"] != "use_arcana"]
        if view.get("you") != view.get("active_seat"):
            return None  # Arcana are the active seat's call; other seats wait
        phase = view.get("phase")
        if phase == "move" or any(c["kind"] in ("move", "stay") for c in own):
            return self.move(view, legal)
        if any(c["kind"] == "roll" for c in legal):
            return self.pre_roll(view, legal)
        if any(c["kind"] == "resolve" for c in legal):
            return self.post_roll(view, legal)
        return legal[0]

    # -- decisions -----------------------------------------------------------------------------

    def decide(self, view: View, decision: Mapping[str, Any], legal: list[Command]) -> Command:
        kind = decision.get("kind")
        options = list(decision.get("options") or [])
        data = decision.get("data") or {}
        if kind == "choose_start_player":
            return next(c for c in legal if c["kind"] == "choose_start_player")
        if kind == "choose_familiar":
            return max(
                (c for c in legal if c["kind"] == "choose_familiar"),
                key=lambda c: self.familiar_value(str(c["familiar"])),
            )
        if kind == "keep_card":
            index = self.keep(view, str(data.get("deck")), str(data.get("purpose")), options)
            return {"kind": "keep_card", "card": index}
        if kind == "place_card":
            stat = self.place(view, str(data.get("card", "")))
            command = {"kind": "place_card", "stat": stat}
            return command if command in legal else legal[0]
        if kind == "agi_option":
            return self.agi_option(view, legal)
        return self.choose_option(view, decision, legal)

    def familiar_value(self, familiar_id: str) -> float:
        familiar = self.content.familiars[familiar_id]
        return sum(self.skill_value(s, ()) for s in familiar.skills) + _FAMILIAR_SYMBOL.get(str(familiar.action), 0)

    def agi_option(self, view: View, legal: list[Command]) -> Command:
        """Learn a new skill (more options) unless the best owned skill is worth levelling."""
        learn = {"kind": "agi_option", "choice": "learn"}
        return learn if learn in legal else legal[0]

    def choose_option(self, view: View, decision: Mapping[str, Any], legal: list[Command]) -> Command:
        """A ``choose`` of an effect: which skill to exhaust, pool or evolve, which seat, boss or
        room an effect targets."""
        options = list(decision.get("options") or [])
        data = decision.get("data") or {}
        what = data.get("for")
        me = _me(view)

        def pick(index: int) -> Command:
            command = {"kind": "choose", "option": index}
            return command if command in legal else legal[0]

        if not options:
            return legal[0]
        if what == "evolve":
            return pick(options.index("evolve")) if "evolve" in options else pick(0)
        if what == "death":  # the damage window: a skill of hers first, then an Arcana, never "die"
            return pick(next((i for i, o in enumerate(options) if o != "die"), len(options) - 1))
        if what == "exhaust" and me is not None:
            tops = tuple(me["top_symbols"])
            return pick(min(range(len(options)), key=lambda i: self.skill_value(str(options[i]), tops)))
        if all(isinstance(o, int) and not isinstance(o, bool) for o in options):
            maidens = {m["seat"]: m for m in view.get("maidens", [])}
            if all(o in maidens for o in options):  # a seat: the most hurt maiden
                return pick(min(range(len(options)), key=lambda i: maidens[options[i]]["life"]))
        bosses = {b["id"]: b for b in view.get("bosses", [])}
        if all(isinstance(o, str) and o in bosses for o in options):  # a boss: the closest to defeat
            return pick(min(range(len(options)), key=lambda i: _boss_life_left(bosses[options[i]], view)))
        return pick(0)

    # -- keep_card -----------------------------------------------------------------------------

    def keep(self, view: View, deck: str, purpose: str, options: Sequence[Any]) -> int:
        if len(options) <= 1:
            return 0
        me = _me(view)
        if me is None:
            return 0
        if deck == "room":
            return min(range(len(options)), key=lambda i: self.room_card_cost(view, me, str(options[i])))
        if deck == "skill":
            tops = tuple(me["top_symbols"])
            return max(range(len(options)), key=lambda i: self.skill_value(str(options[i]), tops))
        if deck == "action":
            return max(range(len(options)), key=lambda i: self.action_card_value(view, me, str(options[i])))
        if deck == "quest":
            return max(range(len(options)), key=lambda i: self.quest_value(str(options[i])))
        return 0

    def room_card_cost(self, view: View, me: Mapping[str, Any], card_id: str) -> float:
        """Expected damage of this room card's check (less a little for a good event)."""
        card = self.content.room_cards[card_id]
        mods = _area_mods(view, me["room"])
        slate = card.slate or mods.get("default_slate")
        target = max(1, int(view["base_target"]) + int(card.difficulty) + int(mods.get("difficulty_delta", 0)))
        result = self.odds_for(view, me, target, slate, mods)
        cost = result.expected_damage + int(mods.get("failure_damage_delta", 0)) * (1 - result.p_success)
        if card.event is not None:
            chance = {"success": result.p_success, "failure": 1 - result.p_success}.get(str(card.event.on), 1.0)
            cost -= 0.5 * chance * _effect_value(card.event)
        return cost

    def odds_for(
        self,
        view: View,
        me: Mapping[str, Any],
        target: int,
        slate: str | None,
        mods: Mapping[str, Any],
        *,
        levels: Mapping[str, int] | None = None,
    ) -> Quick:
        """P(success) and expected damage of a check for this maiden (or for ``levels``), with
        the mods of where it is made (die step, no white dice, DL delta, the reroll of the highest
        die; ``_extra_white``: white dice an effect adds)."""
        lv = levels or me["levels"]
        wil = max(0, min(int(lv["wil"]), 4) + int(mods.get("die_step", 0)))
        pie = int(lv["pie"])
        white = (0 if mods.get("no_white_dice") else pie) + int(mods.get("_extra_white", 0))
        dl = max(1, int(view["danger_level"]) + int(mods.get("dl_delta", 0)))
        colour = slate if slate in odds.SLATE_COLOURS else None
        reroll = bool(mods.get("reroll_highest"))
        return quick_odds(wil, pie, white, max(1, target), int(lv["agi"]), colour, dl, self.dice_variant, reroll)

    def skill_value(self, skill_id: str, tops: Sequence[str]) -> float:
        """How useful a skill is: its ops, halved when the top cards do not meet its condition."""
        skill = self.content.skills.get(skill_id)
        if skill is None:
            return 0.0
        value = sum(_OP_VALUE.get(str(op["op"]), 0.5) for op in skill.ops)
        if not _contains(tops, skill.condition):
            value *= 0.5
        return value

    def action_card_value(self, view: View, me: Mapping[str, Any], symbol: str) -> float:
        """A drawn action card: how many owned skill conditions its symbol helps meet once it is
        placed where this bot would place it."""
        stat = self.place(view, symbol)
        stacks = {s: list(me["stats"][s]) for s in STATS}
        stacks[stat].append(symbol)
        tops = [stacks[s][-1] for s in STATS if stacks[s]]
        return sum(
            self.skill_value(s["id"], tops)
            for s in me["skills"]
            if _contains(tops, self.content.skills[s["id"]].condition)
        )

    def quest_value(self, quest_id: str) -> float:
        quest = self.content.quests.get(quest_id)
        if quest is None:
            return 0.0
        return sum(_OP_VALUE.get(str(op["op"]), 0.5) for op in quest.ops) + 0.5 * len(quest.follow_ups)

    # -- growth --------------------------------------------------------------------------------

    def place(self, view: View, symbol: str) -> str:
        me = _me(view)
        if me is None:
            return "wil"
        levels = dict(me["levels"])
        if self.strategy == "balanced":
            return min(("wil", "pie", "agi", "ins"), key=lambda s: (levels[s], ("wil", "pie", "agi", "ins").index(s)))
        for stat, goal in _EARLY[self.strategy]:
            if levels[stat] < goal:
                return stat
        return max(("pie", "agi", "ins", "wil"), key=lambda s: self.stat_gain(view, me, s))

    def stat_gain(self, view: View, me: Mapping[str, Any], stat: str) -> float:
        """The value of one more card on ``stat``, in expected damage saved per check (plus the
        worth of movement and choice), over the targets of the checks still to come."""
        levels = dict(me["levels"])
        key = (stat, tuple(levels[s] for s in STATS), int(view["base_target"]), int(view["danger_level"]))
        cached = self._gains.get(key)
        if cached is not None:
            return cached
        value = self._stat_gain(view, me, stat, levels)
        self._gains[key] = value
        return value

    def _stat_gain(self, view: View, me: Mapping[str, Any], stat: str, levels: dict[str, int]) -> float:
        raised = {**levels, stat: levels[stat] + 1}
        base = int(view["base_target"])
        later = min(12, base + 3)
        saved = 0.0
        samples = 0
        for marker in (base, later):
            for difficulty in _DIFFICULTIES:
                target = max(1, marker + difficulty)
                for slate in (None, "red"):
                    weight = 1.0 if slate is None else 0.3
                    before = self.odds_for(view, me, target, slate, {}, levels=levels)
                    after = self.odds_for(view, me, target, slate, {}, levels=raised)
                    # a success is worth more than the damage it avoids: it is also a boss hit
                    gain = float(after.p_success - before.p_success) * 2.0
                    gain += float(before.expected_damage - after.expected_damage)
                    saved += weight * gain
                    samples += 1
        value = saved / samples
        if stat == "agi":
            value += 0.25 / (1 + levels["agi"])  # movement and a new skill
        if stat == "ins":
            value += 0.3 / (1 + levels["ins"])  # choosing among more room cards
        if stat == "wil" and levels["wil"] >= 4:
            value = -1.0  # no larger die than d20 (MV-LVL-7)
        return value

    # -- movement ------------------------------------------------------------------------------

    def move(self, view: View, legal: list[Command]) -> Command:
        me = _me(view)
        moves = [c for c in legal if c["kind"] == "move"]
        if me is None or not moves:
            return next((c for c in legal if c["kind"] == "stay"), legal[0])
        skill = self.movement_skill(view, me, legal, moves)
        if skill is not None:
            return skill
        board = Board(view)
        goal = self.goal(view, me, board)
        rooms = board.rooms
        destinations = [str(c["to"]) for c in moves]
        if goal is not None and goal in destinations:
            return {"kind": "move", "to": goal}
        to_goal = board.costs(goal) if goal is not None else {}

        def score(room_id: str) -> tuple[float, ...]:
            room = rooms[room_id]
            penalty = 0.0
            if room["type"] == "boss":
                penalty += 100.0  # never walk into a fight by accident: she could not leave
            elif room["type"] == "danger":
                penalty += 3.0
            elif room["type"] == "rest" and me["life"] >= me["life_max"] - 1:
                penalty += 2.0  # keep rest rooms for when they heal
            distance = to_goal.get(room_id, 99) if goal is not None else 0
            return (penalty + distance - 0.4 * self.explore_value(view, board, room_id),)

        best = min(destinations, key=score)
        return {"kind": "move", "to": best}

    def movement_skill(
        self, view: View, me: Mapping[str, Any], legal: list[Command], moves: list[Command]
    ) -> Command | None:
        """Free heals and free movement: a movement skill whose condition is met (no exhaustion)
        when it heals a hurt maiden."""
        tops = tuple(me["top_symbols"])
        for command in legal:
            if command["kind"] != "use_skill":
                continue
            skill = self.content.skills.get(str(command["skill"]))
            if skill is None or skill.timing != "movement" or not _contains(tops, skill.condition):
                continue
            ops = {str(op["op"]) for op in skill.ops}
            if "heal" in ops and me["life"] < me["life_max"]:
                return command
        return None

    def goal(self, view: View, me: Mapping[str, Any], board: Board) -> str | None:
        """Where this maiden is heading (a room id): the Mad King in time, a rest room when hurt,
        a boss she is ready for, else the best unexplored room."""
        urza = self.urza_goal(view, me, board)
        if urza is not None:
            return urza
        if me["life"] <= max(self.knobs.rest_life, int(view["danger_level"])):
            rest = board.nearest(me["room"], lambda r: r["type"] == "rest" and not r["explored"])
            if rest is not None:
                return rest
        boss = self.boss_goal(view, me, board)
        if boss is not None:
            return boss
        best: tuple[float, str] | None = None
        costs = board.costs(me["room"])
        for room_id, room in board.rooms.items():
            if room["explored"] or room["type"] in ("boss", "start"):
                continue
            if room_id not in costs:
                continue
            value = self.explore_value(view, board, room_id) - 0.8 * costs[room_id]
            if best is None or value > best[0]:
                best = (value, room_id)
        return None if best is None else best[1]

    def explore_value(self, view: View, board: Board, room_id: str) -> float:
        room = board.rooms[room_id]
        if room["explored"] or room["type"] in ("boss", "start"):
            return 0.0
        value = 1.0
        area = room.get("area")
        if area is not None and area not in board.freed:
            left = board.unexplored_in_area(area)
            value += 2.0 / max(1, left)  # the last rooms of an area free it (an Arcana)
        kind = room["type"]
        if kind == "quest":
            value += 0.8
        elif kind == "danger":
            value -= 2.0
        elif kind == "rest":
            me = _me(view)
            hurt = 0 if me is None else me["life_max"] - me["life"]
            value += 0.6 * hurt - 1.0
        return value

    # -- bosses --------------------------------------------------------------------------------

    def boss_odds(self, view: View, me: Mapping[str, Any], boss: Mapping[str, Any], *, later: int = 0) -> float:
        """Mean P(success) of this maiden against the boss's enabled actions, ``later`` action
        markers from now."""
        definition = self.content.bosses[boss["id"]]
        disabled = set(boss.get("disabled") or [])
        total = 0.0
        count = 0
        for index, action in enumerate(definition.actions):
            if index in disabled:
                continue
            mods = _mods_dict(getattr(action, "mods", None))
            target = int(view["base_target"]) + later + int(action.difficulty) + int(mods.get("difficulty_delta", 0))
            total += float(self.odds_for(view, me, target, action.slate, mods).p_success)
            count += 1
        return total / max(1, count)

    def boss_goal(self, view: View, me: Mapping[str, Any], board: Board) -> str | None:
        living = [b for b in view.get("bosses", []) if not b["defeated"] and not b["final"]]
        if not living:
            return None
        engaged = [b for b in living if b["engaged"] and any(m.get("boss") == b["id"] for m in view["maidens"])]
        lowest = min(int(self.content.bosses[b["id"]].tier) for b in living)
        candidates = engaged + [b for b in living if b not in engaged and self.content.bosses[b["id"]].tier == lowest]
        best: tuple[float, str] | None = None
        costs = board.costs(me["room"])
        for boss in candidates:
            room = board.boss_room(boss["id"])
            if room is None or room not in costs:
                continue
            p = self.boss_odds(view, me, boss)
            helpers = sum(1 for m in view["maidens"] if m.get("boss") == boss["id"])
            ready = p >= self.knobs.boss_ready - 0.1 * helpers
            if boss in engaged and p >= 0.3:
                ready = True
            if not ready:
                continue
            value = p - 0.1 * costs[room] + 0.2 * helpers
            if best is None or value > best[0]:
                best = (value, room)
        return None if best is None else best[1]

    def urza_goal(self, view: View, me: Mapping[str, Any], board: Board) -> str | None:
        """Head for the Mad King when the remaining turns (with a margin) barely cover the
        expected checks to defeat him plus the journey, or when every other boss is down."""
        final = next((b for b in view.get("bosses", []) if b["final"] and not b["defeated"]), None)
        if final is None:
            return None
        room = board.boss_room(final["id"])
        if room is None:
            return None
        costs = board.costs(me["room"])
        if room not in costs:
            return None
        others_left = any(not b["defeated"] and not b["final"] for b in view["bosses"])
        players = len(view["maidens"])
        per_round = int(view.get("turns_per_round") or 3)
        turns_left = (int(view["rounds"]) - int(view["round"])) * per_round + (per_round - int(view["turn_in_round"]))
        mp = max(1, int(me["levels"]["agi"]) + 1)
        travel = -(-costs[room] // mp) * players  # every maiden walks there on her own turns
        p = self.boss_odds(view, me, final)
        life = _boss_life_left(final, view)
        needed = life / max(0.05, p) + travel  # team turns, every maiden at the fight
        if not others_left or p >= self.knobs.urza_ready:
            return room
        if p >= self.knobs.urza_hope and turns_left <= self.knobs.urza_margin * needed:
            return room  # the targets only grow: go while he can still be beaten in time
        if int(view["round"]) >= int(view["rounds"]) - 3:
            return room  # too late to grow stronger: a last attempt
        return None

    # -- checks --------------------------------------------------------------------------------

    def pre_roll(self, view: View, legal: list[Command]) -> Command:
        me = _me(view)
        check = view.get("check")
        if me is not None and check is not None:
            boost = self.pre_roll_boost(view, me, check, legal)
            if boost is not None:
                return boost
        return {"kind": "roll"}

    def pre_roll_boost(
        self, view: View, me: Mapping[str, Any], check: Mapping[str, Any], legal: list[Command]
    ) -> Command | None:
        """A pre-roll skill (extra white dice, a larger die) whose condition is met, or any
        pre-roll skill or Arcana on a boss check that it turns from likely failure to likely
        success."""
        mods = self.check_mods(view, me, check)
        before = self.odds_for(view, me, int(check["target"]), check.get("slate"), mods)
        tops = tuple(me["top_symbols"])
        best: tuple[float, Command] | None = None
        for command in legal:
            if command["kind"] not in ("use_skill", "use_arcana"):
                continue
            ops, free = self.command_ops(command, tops)
            if ops is None:
                continue
            levels = dict(me["levels"])
            white_mods = dict(mods)
            changed = False
            for op in ops:
                name = str(op["op"])
                amount = int(op.get("amount") or 1) if not isinstance(op.get("amount"), str) else 1
                if name == "extra_white":
                    white_mods["_extra_white"] = int(white_mods.get("_extra_white", 0)) + amount
                    changed = True
                elif name == "die_bonus_size":
                    levels["wil"] = levels["wil"] + amount
                    changed = True
            if not changed:
                continue
            after = self.odds_for(view, me, int(check["target"]), check.get("slate"), white_mods, levels=levels)
            gain = float(after.p_success - before.p_success) * 2 + float(before.expected_damage - after.expected_damage)
            if not free:
                gain -= 0.6 if command["kind"] == "use_skill" else 1.0
            if gain > 0.15 and (best is None or gain > best[0]):
                best = (gain, command)
        return None if best is None else best[1]

    def check_mods(self, view: View, me: Mapping[str, Any], check: Mapping[str, Any]) -> dict[str, Any]:
        mods = dict(_area_mods(view, me["room"]))
        if check.get("kind") == "boss":
            definition = self.content.bosses.get(check.get("source"))
            action = check.get("action")
            if definition is not None and isinstance(action, int):
                for key, value in _mods_dict(getattr(definition.actions[action], "mods", None)).items():
                    if isinstance(value, bool):
                        mods[key] = bool(mods.get(key)) or value
                    elif isinstance(value, int):
                        mods[key] = int(mods.get(key, 0) or 0) + value
        return mods

    def command_ops(self, command: Mapping[str, Any], tops: Sequence[str]) -> tuple[list[Any] | None, bool]:
        """The ops a skill or Arcana command would run, and whether using it costs nothing (a
        skill whose condition is met stays ready; an Arcana is spent)."""
        if command["kind"] == "use_skill":
            skill = self.content.skills.get(str(command["skill"]))
            if skill is None:
                return None, False
            return list(skill.ops), _contains(tops, skill.condition)
        area = self.content.areas.get(str(command.get("area")))
        if area is None:
            return None, False
        return list(area.arcana), False

    def post_roll(self, view: View, legal: list[Command]) -> Command:
        me = _me(view)
        check = view.get("check")
        resolve = {"kind": "resolve"}
        if me is None or check is None:
            return resolve if resolve in legal else legal[0]
        plan = self.plan(view, me, check)
        helper = self.post_roll_help(view, me, check, legal, plan)
        if helper is None:
            helper = self.die_help(view, me, check, legal, plan)
        if helper is not None:
            return helper
        if plan is not None and plan.pairs:
            i, j = plan.pairs[0]
            ascend = {"kind": "ascend", "dice": [i, j]}
            if ascend in legal:
                return ascend
            same = [c for c in legal if c["kind"] == "ascend" and sorted(c["dice"]) == [i, j]]
            if same:
                return same[0]
        if plan is None:
            greedy = _greedy_ascend(check, legal)
            if greedy is not None:
                return greedy
        return resolve if resolve in legal else legal[0]

    def plan(
        self,
        view: View,
        me: Mapping[str, Any],
        check: Mapping[str, Any],
        *,
        dice: Sequence[tuple[str, int]] | None = None,
        removed: Sequence[int] | None = None,
        ap_bonus: int = 0,
    ) -> odds.Plan | None:
        """The best way to finish ascending the dice in hand (MV-ASC-9), or None when the odds
        cannot model this check (a variant or effect they do not know). ``dice`` / ``removed`` /
        ``ap_bonus``: the same check with dice changed (what a die skill would make of it)."""
        if self.settings.get("multi_die_checks") or not any(c for c in [check.get("rolled")]):
            return None
        if any(d.get("bonus") for d in check["dice"]):
            return None
        mods = self.check_mods(view, me, check)
        if mods.get("no_ascension") or mods.get("ascension_bonus_fixed"):
            return None
        if dice is None:
            dice = [(d["colour"], int(d["face"])) for d in check["dice"]]
        if removed is None:
            removed = [i for i, d in enumerate(check["dice"]) if d["removed"]]
        slate = check.get("slate")
        if slate is not None and sum(1 for colour, _face in dice if colour == slate) != 1:
            slate = None
        try:
            return odds.best_plan(
                dice,
                int(me["levels"]["pie"]),
                slate=slate,
                target=int(check["target"]),
                agi=int(me["levels"]["agi"]),
                danger_level=max(1, int(view["danger_level"]) + int(mods.get("dl_delta", 0))),
                variant=self.dice_variant,
                removed=removed,
                ap_bonus=ap_bonus,
                slate_per_die_delta=int(mods.get("slate_per_die_delta", 0)),
            )
        except odds.OddsError:
            return None

    def die_help(
        self,
        view: View,
        me: Mapping[str, Any],
        check: Mapping[str, Any],
        legal: list[Command],
        plan: odds.Plan | None,
    ) -> Command | None:
        """A die-changing skill or Arcana after the roll (die_adjust, set_die, reroll,
        swap_colours, near_pair: MV-ASC-8) when the dice it would make beat the dice in hand:
        each legal pick is judged by the best ascension plan of the changed dice (a reroll by the
        mean over its faces), in damage saved plus a boss hit won, less the cost of the use."""
        if plan is None:
            return None
        target = int(check["target"])
        dl = int(view["danger_level"])
        life = int(me["life"])
        is_boss = check.get("kind") == "boss"
        tops = tuple(me["top_symbols"])
        dice = [(str(d["colour"]), int(d["face"])) for d in check["dice"]]
        removed = [i for i, d in enumerate(check["dice"]) if d["removed"]]
        sizes = [int(d["size"]) for d in check["dice"]]

        if plan.ap >= target and plan.slate_damage == 0:
            return None  # nothing to mend: a success without damage

        def worth(p: odds.Plan | None) -> float:
            if p is None:
                return -99.0
            fails = p.ap < target
            damage = p.slate_damage + (dl if fails else 0)
            value = -float(damage) + (0.0 if fails else (2.0 if is_boss else 0.5))
            return value - (3.0 if damage >= life else 0.0)

        now = worth(plan)
        budget = 400  # dice plans judged per decision at most
        best: tuple[float, Command] | None = None
        for command in legal:
            if command["kind"] not in ("use_skill", "use_arcana"):
                continue
            ops, free = self.command_ops(command, tops)
            if not ops:
                continue
            name = str(ops[0]["op"])
            extra = sum(int(op.get("amount") or 0) for op in ops[1:] if op.get("op") == "ap_bonus")
            value: float | None = None
            if name in ("die_adjust", "set_die") and command.get("die") is not None:
                changed = list(dice)
                changed[int(command["die"])] = (dice[int(command["die"])][0], int(command["face"]))
                value = worth(self.plan(view, me, check, dice=changed, removed=removed, ap_bonus=extra))
                budget -= 1
            elif name == "swap_colours" and isinstance(command.get("dice"), list):
                i, j = (int(x) for x in command["dice"])
                changed = list(dice)
                changed[i], changed[j] = (dice[j][0], dice[i][1]), (dice[i][0], dice[j][1])
                value = worth(self.plan(view, me, check, dice=changed, removed=removed, ap_bonus=extra))
                budget -= 1
            elif name == "near_pair" and isinstance(command.get("dice"), list) and command.get("onto") is None:
                pie = int(me["levels"]["pie"])
                bonus = odds.ascension_bonus(pie, self.dice_variant.ascension_bonus)
                gone = [*removed, *(int(x) for x in command["dice"])]
                value = worth(self.plan(view, me, check, dice=dice, removed=gone, ap_bonus=bonus + extra))
                budget -= 1
            elif name == "reroll" and isinstance(command.get("dice"), list) and 0 < len(command["dice"]) <= 2:
                chosen = [int(x) for x in command["dice"]]
                faces = [range(1, sizes[i] + 1) for i in chosen]
                outcomes = 1
                for f in faces:
                    outcomes *= len(f)
                if outcomes > budget:
                    continue
                budget -= outcomes
                total = 0.0
                for roll in _product(faces):
                    changed = list(dice)
                    for i, face in zip(chosen, roll, strict=True):
                        changed[i] = (dice[i][0], face)
                    total += worth(self.plan(view, me, check, dice=changed, removed=removed, ap_bonus=extra))
                value = total / outcomes
            if value is None:
                continue
            cost = 0.0 if free else (1.2 if command["kind"] == "use_skill" else 2.5)
            gain = value - now - cost
            if gain > 0.4 and (best is None or gain > best[0]):
                best = (gain, command)
            if budget <= 0:
                break
        return None if best is None else best[1]

    def post_roll_help(
        self,
        view: View,
        me: Mapping[str, Any],
        check: Mapping[str, Any],
        legal: list[Command],
        plan: odds.Plan | None,
    ) -> Command | None:
        """A skill or Arcana after the roll when the dice in hand fail (or hurt) and it fixes
        that: AP bonuses, automatic success, ignoring the slate or damage dice, less damage."""
        if plan is None:
            return None
        target = int(check["target"])
        fails = plan.ap < target
        dl = int(view["danger_level"])
        damage = plan.slate_damage + (dl if fails else 0)
        if damage == 0:
            return None
        tops = tuple(me["top_symbols"])
        is_boss = check.get("kind") == "boss"
        deadly = damage >= int(me["life"])
        best: tuple[float, Command] | None = None
        for command in legal:
            if command["kind"] not in ("use_skill", "use_arcana"):
                continue
            ops, free = self.command_ops(command, tops)
            if ops is None:
                continue
            ap, slate_damage, reduce, success = plan.ap, plan.slate_damage, 0, False
            useful = False
            for op in ops:
                name = str(op["op"])
                amount = op.get("amount")
                n = int(amount) if isinstance(amount, int) else 1
                if name == "ap_bonus":
                    ap += n
                    useful = useful or (fails and ap >= target)
                elif name == "auto_success":
                    success = True
                    useful = useful or fails
                elif name in ("ignore_slate", "ignore_slate_dice"):
                    cut = slate_damage if name == "ignore_slate" else min(slate_damage, n)
                    slate_damage -= cut
                    useful = useful or cut > 0
                elif name == "reduce_damage":
                    reduce += n
                    useful = True
            if not useful:
                continue
            now_fails = not success and ap < target
            after = max(0, slate_damage - reduce) + (max(0, dl - reduce) if now_fails else 0)
            gain = float(damage - after) + (2.0 if is_boss and fails and not now_fails else 0.0)
            if deadly and after < int(me["life"]):
                gain += 3.0
            cost = 0.0 if free else (1.2 if command["kind"] == "use_skill" else 2.5)
            if gain - cost > 0.4 and (best is None or gain - cost > best[0]):
                best = (gain - cost, command)
        return None if best is None else best[1]


# ---------------------------------------------------------------------------------------------
# The map as a view shows it
# ---------------------------------------------------------------------------------------------


class Board:
    """Rooms, adjacency (edges and the passages this viewer may use) and shortest routes where an
    unexplored room costs one movement point and an explored one none."""

    def __init__(self, view: View) -> None:
        data = view["map"]
        self.rooms: dict[str, Mapping[str, Any]] = {r["id"]: r for r in data["rooms"]}
        self.adjacent: dict[str, list[str]] = {room_id: [] for room_id in self.rooms}
        for a, b in data["edges"]:
            self.adjacent[a].append(b)
            self.adjacent[b].append(a)
        for passage in data.get("passages") or []:
            self.adjacent[passage["a"]].append(passage["b"])
            self.adjacent[passage["b"]].append(passage["a"])
        self.freed = {a["id"] for a in view.get("areas", []) if a.get("freed")}
        self._costs: dict[str, dict[str, int]] = {}
        self._left: dict[str, int] = Counter(
            r["area"] for r in self.rooms.values() if r.get("area") and not r["explored"] and r["type"] != "boss"
        )

    def costs(self, origin: str | None) -> dict[str, int]:
        """Cost (unexplored rooms entered) of the cheapest route from ``origin`` to every room."""
        if origin is None or origin not in self.rooms:
            return {}
        cached = self._costs.get(origin)
        if cached is not None:
            return cached
        best = {origin: 0}
        heap = [(0, origin)]
        while heap:
            cost, room = heapq.heappop(heap)
            if cost > best[room]:
                continue
            for nxt in self.adjacent[room]:
                step = 0 if self.rooms[nxt]["explored"] else 1
                total = cost + step
                if total < best.get(nxt, 1 << 30):
                    best[nxt] = total
                    heapq.heappush(heap, (total, nxt))
        self._costs[origin] = best
        return best

    def nearest(self, origin: str, wanted: Any) -> str | None:
        costs = self.costs(origin)
        found = [(c, r) for r, c in costs.items() if r != origin and wanted(self.rooms[r])]
        return min(found)[1] if found else None

    def boss_room(self, boss_id: str) -> str | None:
        return next((r for r, room in self.rooms.items() if room.get("boss") == boss_id), None)

    def unexplored_in_area(self, area: str) -> int:
        return self._left.get(area, 0)


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

_DECISION_KINDS: Final = frozenset(
    {"choose_familiar", "choose_start_player", "keep_card", "place_card", "agi_option", "choose"}
)

#: A rough worth of each op when the bot compares skills, quests and events (higher: better).
_OP_VALUE: Final[dict[str, float]] = {
    "ap_bonus": 3.0,
    "auto_success": 4.0,
    "set_die": 3.0,
    "reroll": 2.5,
    "die_adjust": 2.0,
    "near_pair": 2.0,
    "swap_colours": 1.0,
    "ignore_slate": 2.0,
    "ignore_slate_dice": 1.5,
    "reduce_damage": 2.0,
    "extra_white": 2.0,
    "die_bonus_size": 2.5,
    "cancel_death": 2.0,
    "heal": 1.5,
    "mp": 1.0,
    "free_pass": 1.0,
    "warp": 1.2,
    "look_rooms": 0.8,
    "boss_damage": 4.0,
    "boss_disable_action": 2.5,
    "dl": 1.0,
    "refresh_skills": 1.0,
    "learn_skill": 1.5,
    "skill_level": 1.0,
    "extra_draw": 0.8,
    "reveal_passage": 0.6,
    "room_type": 1.0,
    "add_edge": 0.6,
    "add_quest": 0.3,
    "damage": -2.0,
    "exhaust_skill": -1.0,
}
_FAMILIAR_SYMBOL: Final = {"D": 0.0, "J": 0.0, "P": 0.1, "G": 0.1}


@dataclass(frozen=True)
class Quick:
    """The two numbers the bot weighs a check by."""

    p_success: float
    expected_damage: float


@lru_cache(maxsize=65536)
def quick_odds(
    wil: int,
    pie: int,
    white: int,
    target: int,
    agi: int,
    slate: str | None,
    dl: int,
    variant: odds.Variant,
    reroll_highest: bool = False,
) -> Quick:
    """``odds.check_odds`` as two floats, cached (a pure function of its arguments);
    ``reroll_highest``: the mod of that name rerolls the highest die after the roll."""
    result = odds.check_odds(
        wil,
        pie,
        target,
        agi=agi,
        slate=slate,  # type: ignore[arg-type]  # None or a slate colour
        danger_level=dl,
        variant=variant,
        white=white,
        reroll_highest=reroll_highest,
    )
    return Quick(float(result.p_success), float(result.expected_damage))


def _effect_value(effect: Any) -> float:
    total = 0.0
    for op in effect.ops:
        name = str(op["op"])
        value = _OP_VALUE.get(name, 0.0)
        if name == "dl":
            value = -1.5 * int(op.get("delta") or 0)
        total += value
    return total


def _me(view: View) -> Mapping[str, Any] | None:
    seat = view.get("you")
    if seat is None:
        return None
    for maiden in view.get("maidens", []):
        if maiden["seat"] == seat:
            return maiden  # type: ignore[no-any-return]
    return None


def _contains(tops: Iterable[str], condition: Iterable[str]) -> bool:
    have = Counter(tops)
    need = Counter(str(s) for s in condition)
    return all(have[s] >= n for s, n in need.items())


def _mods_dict(mods: Any) -> dict[str, Any]:
    if mods is None:
        return {}
    if isinstance(mods, Mapping):
        return {k: v for k, v in mods.items() if v}
    return {k: v for k in getattr(mods, "__struct_fields__", ()) if (v := getattr(mods, k))}


def _area_mods(view: View, room_id: str) -> dict[str, Any]:
    """The mods of the area a room lies in, as the view shows them (none once freed)."""
    area = next((r.get("area") for r in view["map"]["rooms"] if r["id"] == room_id), None)
    if area is None:
        return {}
    for entry in view.get("areas", []):
        if entry["id"] == area:
            return dict(entry.get("mods") or {})
    return {}


def _boss_life_left(boss: Mapping[str, Any], view: View) -> int:
    """A boss's life left, or the life it will be set up with (MV-SPEC-4, ``boss_life_bonus``
    by its default rule at 2 and 4 players)."""
    if boss.get("life_left") is not None:
        return int(boss["life_left"])
    life = int(boss["life"])
    if len(view.get("maidens", [])) in (2, 4):
        life += -(-life // 3)
    return life


def _product(ranges: Sequence[range]) -> Iterable[tuple[int, ...]]:
    from itertools import product

    return product(*ranges)


def _greedy_ascend(check: Mapping[str, Any], legal: list[Command]) -> Command | None:
    """Without odds (variants they do not model): ascend a pair of low faces when a higher die
    remains, and every pair in a slate check."""
    pairs = [c for c in legal if c["kind"] == "ascend"]
    if not pairs:
        return None
    dice = check["dice"]
    if check.get("slate"):
        return pairs[0]
    top = max(int(d["face"] or 0) + int(d.get("bonus") or 0) for d in dice if not d["removed"])
    for command in pairs:
        i = command["dice"][0]
        if int(dice[i]["face"] or 0) < top:
            return command
    return None
