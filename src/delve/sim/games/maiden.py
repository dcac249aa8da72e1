"""One White Maiden game for the simulation runner: ``play(spec) -> row``.

The game is played in-process through the ruleset with one bot per seat (``spec.bots``:
``"heuristic"``, ``"heuristic:will-first"`` ... or ``"random"``; the bots see only their view and
their legal commands), by the same driver as ``delve maiden eval``
(:func:`delve.bots.maiden_eval.play_game`). A measuring harness beside the driver reads the game
and its events after every command and returns one CSV-able row: the common columns of the
runner's contract plus the per-game metrics the balance questions of spec §8 need. List- and
dict-valued columns are JSON strings (keys are strings: die sizes, stat levels, rounds).

Metrics (all counted over the whole game, every maiden together unless the name says otherwise):

* outcome: ``won``, ``rounds``, ``turns``, ``bosses_defeated``, ``bosses_left`` (the bosses still
  undefeated when the game ended), ``boss_rounds`` (boss -> round of its defeat), ``urza_round``
  (the round the final boss fell, empty when he did not), ``final_boss_life_left`` (his life at
  the end: his set-up life when he was never engaged, 0 when he fell);
* by boss (which boss kills most): ``by_boss`` ({boss: {"joined": maidens entering its fight,
  "deaths": deaths that threw a maiden out of its fight, "lost": fights lost (below), "won": 1
  when it fell, "engaged": round of its first engagement, "fight_rounds": rounds from first
  engagement to defeat, or to the game's last round, counted inclusively, "checks"/"successes":
  boss checks against it, "life_left": its life at the end}}), only the bosses engaged. A fight
  is *lost* by a command in which at least one maiden of that fight died and after which the
  boss is undefeated and no maiden is in its fight (no maiden's ``boss`` is it, read from the
  game after the command); a command loses a boss's fight at most once, however many of its
  maidens died in it (two maidens dying in one command are one lost fight);
* life and death: ``deaths``, ``deaths_per_maiden`` (list by seat), ``deaths_in_boss_fight``
  (a death that threw her out of a boss fight), ``turns_at_life_1`` and
  ``turns_at_life_1_after_death`` (turns begun at life 1, and those of them still in the
  stretch between a death and the next heal: the tempo a death costs), ``life_at_boss_sum`` /
  ``life_at_boss_n`` (life when a maiden engages or joins a boss fight);
* danger: ``dl_by_round`` (DL at the start of each round), ``danger_level`` (final),
  ``failure_damage_by_round`` and ``turns_by_round`` (BQ-21), ``failure_damage``,
  ``slate_damage``, ``slate_checks``, ``danger_room_damage``, ``effect_damage``;
* checks: ``checks``, ``successes``, ``room_checks_by_round`` ({round: [checks, successes]},
  BQ-19), ``boss_checks``, ``boss_successes``;
* dice: ``dice_by_size`` ({size: [checks, checks whose non-slate dice showed a pair, pairs
  ascended]}, BQ-2): each check counts under the size of the dice it was rolled with and its
  slate is the one its ``check.started`` named, both read from the command's events (not from
  the game after the command, where another check may have started);
* movement (BQ-12): ``reach_by_agi`` ({Agi: [move decisions, destinations offered]}),
  ``first_boss_turn`` (the team's turn number when a boss was first engaged),
  ``first_rest_turn`` (the fewest of her own turns a maiden took to enter a rest room);
* growth: ``final_stats`` (per seat "pie/wil/agi/ins" levels), ``levelups``;
* skills (BQ-15): ``skills_gained`` (learned after setup), ``skills_used``, ``skill_uses_met``
  (uses whose condition the top cards met), ``skills_exhausted``;
* map: ``rooms_explored``, ``areas_freed``, ``arcana_gained``, ``arcana_used``,
  ``quests_resolved``, ``rooms_entered_by_type`` ({type: count}), ``restricted_entered`` (the
  entry-restricted rooms entered, CHG-16), ``rest_visits``;
* decks (BQ-17): ``cards_drawn`` ({deck: cards drawn}), ``reshuffles`` ({deck: times reshuffled}).
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from delve.bots import UnknownBot
from delve.bots.maiden_eval import bots_named, play_game
from delve.kernel import Event, SettingsError
from delve.maiden import content as maiden_content
from delve.maiden import settings as maiden_settings
from delve.maiden.ruleset import MaidenRuleset
from delve.maiden.state import MOVE, Game
from delve.sim.spec import GameSpec, SpecError

__all__ = ["Metrics", "check", "play", "report", "summary_lines"]


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Metrics:
    """Reads the game around every decision and command of one game (the harness, not a bot)."""

    def __init__(self, players: int) -> None:
        data = maiden_content.load()
        self.final_boss = data.final_boss.id
        self.restricted = {room.id for room in data.rooms.values() if room.entry_requirement}
        self.players = players
        self.turns = 0
        self.boss_rounds: dict[str, int] = {}
        self.deaths_in_boss = 0
        self.since_death = [False] * players
        self.turns_life1 = 0
        self.turns_life1_after_death = 0
        self.life_at_boss: list[int] = []
        self.dl_by_round: dict[int, int] = {}
        self.turns_by_round: Counter[int] = Counter()
        self.fail_damage_by_round: Counter[int] = Counter()
        self.damage: Counter[str] = Counter()
        self.slate_checks = 0
        self.checks = 0
        self.successes = 0
        self.room_checks: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        self.boss_checks = [0, 0]
        self.dice: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
        self.reach: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        self.first_boss_turn: int | None = None
        self.first_rest_turn: int | None = None
        self.own_turns = [0] * players
        self.levelups = 0
        self.skills_gained = 0
        self.skills_used = 0
        self.skill_uses_met = 0
        self.skills_exhausted = 0
        self.arcana_gained = 0
        self.arcana_used = 0
        self.quests = 0
        self.drawn: Counter[str] = Counter()
        self.reshuffled: Counter[str] = Counter()
        self.entered: Counter[str] = Counter()
        self.restricted_entered: set[str] = set()
        self._move_seen = -1
        self._pairs_this_check = 0
        self._check_size = 0
        self._check_slate: str | None = None
        self._setup_done = False
        self.by_boss: dict[str, dict[str, int]] = {}
        self._died_in: set[str] = set()
        self._boss_check: str | None = None

    def _boss(self, boss: str) -> dict[str, int]:
        fight = self.by_boss.get(boss)
        if fight is None:
            fight = {"joined": 0, "deaths": 0, "lost": 0, "won": 0, "engaged": 0, "checks": 0, "successes": 0}
            self.by_boss[boss] = fight
        return fight

    def on_legal(self, game: Game, seat: int, legal: list[dict[str, Any]]) -> None:
        """BQ-12: the destinations a maiden is offered at the start of her move (once a turn)."""
        if game.step != MOVE or self._move_seen == self.turns:
            return
        self._move_seen = self.turns
        maiden = game.maidens[seat]
        moves = sum(1 for c in legal if c.get("kind") == "move")
        cell = self.reach[maiden.agi]
        cell[0] += 1
        cell[1] += moves

    def on_command(self, game: Game, seat: int, command: dict[str, Any], events: list[Event]) -> None:
        self._died_in = set()
        for event in events:
            self._event(game, event.kind, event.data)
        for boss in sorted(self._died_in):
            # the fight is lost once per command, whatever the number of its maidens who died in it
            if not game.bosses[boss].defeated and not any(m.boss == boss for m in game.maidens):
                self._boss(boss)["lost"] += 1

    def _event(self, game: Game, kind: str, data: dict[str, Any]) -> None:
        rnd = game.round
        if kind == "setup.done":
            self._setup_done = True
        elif kind == "round.started":
            self.dl_by_round[int(data["round"])] = game.danger_level
        elif kind == "turn.started":
            self.turns += 1
            self.own_turns[int(data["seat"])] += 1
            self.turns_by_round[rnd] += 1
            maiden = game.maidens[int(data["seat"])]
            if maiden.life == 1:
                self.turns_life1 += 1
                if self.since_death[maiden.seat]:
                    self.turns_life1_after_death += 1
        elif kind == "maiden.died":
            self.since_death[int(data["seat"])] = True
            boss = data.get("boss")
            if boss:
                self.deaths_in_boss += 1
                self._boss(str(boss))["deaths"] += 1
                self._died_in.add(str(boss))
        elif kind == "maiden.healed":
            self.since_death[int(data["seat"])] = False
        elif kind == "maiden.damaged":
            cause = str(data["cause"])
            amount = int(data["amount"])
            if cause == "failure":
                self.fail_damage_by_round[rnd] += amount
                self.damage["failure"] += amount
            elif cause in ("slate", "danger_room"):
                self.damage[cause] += amount
            else:
                self.damage["effect"] += amount
        elif kind in ("boss.engaged", "boss.joined"):
            if kind == "boss.engaged" and self.first_boss_turn is None:
                self.first_boss_turn = self.turns
            self.life_at_boss.append(game.maidens[int(data["seat"])].life)
            fight = self._boss(str(data["boss"]))
            if kind == "boss.engaged":
                fight["engaged"] = rnd
            else:
                fight["joined"] += 1
        elif kind == "boss.defeated":
            self.boss_rounds[str(data["boss"])] = rnd
            self._boss(str(data["boss"]))["won"] = 1
        elif kind == "check.started":
            self._boss_check = str(data["source"]) if data.get("kind") == "boss" else None
            self._pairs_this_check = 0
            self._check_slate = str(data["slate"]) if data.get("slate") else None
            if data.get("slate"):
                self.slate_checks += 1
        elif kind == "check.rolled":
            # the size and the slate of the check rolled, from the events (BQ-2): the game after
            # the command may hold another check already
            dice = data["dice"]
            slate = self._check_slate
            self._check_size = int(dice[0][1]) if dice else 0
            faces = Counter(int(face) for colour, _size, face in dice if colour != slate)
            cell = self.dice[self._check_size]
            cell[0] += 1
            cell[1] += any(n >= 2 for n in faces.values())
        elif kind == "check.ascended":
            self.dice[self._check_size][2] += 1
        elif kind == "check.resolved":
            self.checks += 1
            won = data["result"] == "success"
            self.successes += won
            if data["kind"] == "room":
                cell = self.room_checks[rnd]
                cell[0] += 1
                cell[1] += won
            else:
                self.boss_checks[0] += 1
                self.boss_checks[1] += won
                if self._boss_check is not None:
                    fight = self._boss(self._boss_check)
                    fight["checks"] += 1
                    fight["successes"] += won
        elif kind == "maiden.entered":
            if data["type"] == "rest" and self.first_rest_turn is None:
                self.first_rest_turn = self.own_turns[int(data["seat"])]
            room = str(data["room"])
            self.entered[str(data["type"])] += 1
            if room in self.restricted:
                self.restricted_entered.add(room)
        elif kind == "maiden.level_up":
            self.levelups += data.get("why") != "first"
        elif kind == "skill.learned":
            self.skills_gained += self._setup_done
        elif kind == "skill.used":
            self.skills_used += 1
            self.skill_uses_met += bool(data.get("condition_met"))
        elif kind == "skill.exhausted":
            self.skills_exhausted += 1
        elif kind == "arcana.gained":
            self.arcana_gained += 1
        elif kind == "arcana.used":
            self.arcana_used += 1
        elif kind == "quest.drawn":
            self.quests += 1
        elif kind == "card.drawn":
            self.drawn[str(data["deck"])] += int(data.get("count", 1))
        elif kind == "deck.reshuffled":
            self.reshuffled[str(data["deck"])] += 1

    def _by_boss(self, game: Game) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for boss, cell in sorted(self.by_boss.items()):
            state = game.bosses[boss]
            end = self.boss_rounds.get(boss, game.round)
            out[boss] = {
                **cell,
                "fight_rounds": end - cell["engaged"] + 1 if cell["engaged"] else 0,
                "life_left": 0 if state.defeated else state.life,
            }
        return out

    def _final_boss_life_left(self, game: Game) -> int:
        state = game.bosses[self.final_boss]
        if state.defeated:
            return 0
        if state.engaged:
            return state.life
        life = maiden_settings.boss_life(game.settings, int(maiden_content.load().bosses[self.final_boss].life))
        return max(1, life + game.boss_life_delta + state.life_delta)

    def row(self, game: Game) -> dict[str, Any]:
        life_n = len(self.life_at_boss)
        rounds = sorted(self.turns_by_round)
        return {
            "won": game.result == "won",
            "rounds": game.round,
            "bosses_defeated": sum(1 for b in game.bosses.values() if b.defeated),
            "bosses_left": sum(1 for b in game.bosses.values() if not b.defeated),
            "final_boss_life_left": self._final_boss_life_left(game),
            "by_boss": _json(self._by_boss(game)),
            "boss_rounds": _json(self.boss_rounds),
            "urza_round": self.boss_rounds.get(self.final_boss),
            "deaths": sum(m.deaths for m in game.maidens),
            "deaths_per_maiden": _json([m.deaths for m in game.maidens]),
            "deaths_in_boss_fight": self.deaths_in_boss,
            "turns_at_life_1": self.turns_life1,
            "turns_at_life_1_after_death": self.turns_life1_after_death,
            "life_at_boss_sum": sum(self.life_at_boss),
            "life_at_boss_n": life_n,
            "life_at_boss_mean": round(sum(self.life_at_boss) / life_n, 4) if life_n else None,
            "danger_level": game.danger_level,
            "dl_by_round": _json([self.dl_by_round[r] for r in sorted(self.dl_by_round)]),
            "turns_by_round": _json({str(r): self.turns_by_round[r] for r in rounds}),
            "failure_damage_by_round": _json({str(r): self.fail_damage_by_round[r] for r in rounds}),
            "failure_damage": self.damage["failure"],
            "slate_damage": self.damage["slate"],
            "danger_room_damage": self.damage["danger_room"],
            "effect_damage": self.damage["effect"],
            "slate_checks": self.slate_checks,
            "checks": self.checks,
            "successes": self.successes,
            "room_checks_by_round": _json({str(r): c for r, c in sorted(self.room_checks.items())}),
            "boss_checks": self.boss_checks[0],
            "boss_successes": self.boss_checks[1],
            "dice_by_size": _json({str(s): c for s, c in sorted(self.dice.items())}),
            "reach_by_agi": _json({str(a): c for a, c in sorted(self.reach.items())}),
            "first_boss_turn": self.first_boss_turn,
            "first_rest_turn": self.first_rest_turn,
            "final_stats": _json(
                ["/".join(str(m.level(s)) for s in ("pie", "wil", "agi", "ins")) for m in game.maidens]
            ),
            "levelups": self.levelups,
            "skills_gained": self.skills_gained,
            "skills_used": self.skills_used,
            "skill_uses_met": self.skill_uses_met,
            "skills_exhausted": self.skills_exhausted,
            "rooms_explored": len(game.explored),
            "areas_freed": len(game.freed),
            "arcana_gained": self.arcana_gained,
            "arcana_used": self.arcana_used,
            "quests_resolved": self.quests,
            "rooms_entered_by_type": _json(dict(sorted(self.entered.items()))),
            "restricted_entered": _json(sorted(self.restricted_entered)),
            "rest_visits": self.entered["rest"],
            "cards_drawn": _json(dict(sorted(self.drawn.items()))),
            "reshuffles": _json(dict(sorted(self.reshuffled.items()))),
        }


def _prepare(spec: GameSpec) -> dict[str, Any]:
    """The game's setting overrides, once the spec is known to be playable.

    :raises SpecError: naming ``game``, ``bots``, ``preset`` or ``settings``.
    """
    if spec.game != "maiden":
        raise SpecError("game", f"{spec.game!r}: this module plays 'maiden'")
    players = len(spec.bots)
    if not 1 <= players <= 4:
        raise SpecError("bots", f"White Maiden needs 1 to 4 seats, got {players}")
    settings = dict(spec.settings)
    if spec.preset is not None:
        settings["preset"] = spec.preset
    try:
        public = maiden_settings.resolve({"players": players, **settings})
    except SettingsError as exc:
        raise SpecError("preset" if exc.setting == "preset" else "settings", str(exc)) from None
    try:
        bots_named(spec.bots, spec.seed, maiden_settings.as_dict(public))
    except UnknownBot as exc:
        raise SpecError("bots", str(exc)) from None
    return settings


def check(spec: GameSpec) -> None:
    """Refuse a spec White Maiden cannot play, before any game is played (the runner calls it).

    :raises SpecError: naming ``game``, ``bots``, ``preset`` or ``settings``.
    """
    _prepare(spec)


def play(spec: GameSpec) -> dict[str, Any]:
    """Play the game ``spec`` describes to its end and return its row.

    :raises SpecError: when the spec is not a White Maiden game, names an unknown bot or
        strategy, has no seat or more than 4, or a bad preset or setting.
    """
    settings = _prepare(spec)
    players = len(spec.bots)
    started = time.perf_counter()
    ruleset = MaidenRuleset()
    metrics = Metrics(players)
    record = play_game(
        players,
        spec.seed,
        bot_names=spec.bots,
        settings=settings,
        ruleset=ruleset,
        on_command=metrics.on_command,
        on_legal=metrics.on_legal,
    )
    game: Game = record.game
    row: dict[str, Any] = {
        "game": "maiden",
        "preset": spec.preset or "",
        "seed": spec.seed,
        "seats": players,
        "bots": ",".join(spec.bots),
        "tag": spec.tag,
        "settings": _json(dict(spec.settings)),
        "winner": "all" if record.won else "",
        "outcome": "won" if record.won else "lost",
        "turns": metrics.turns,
        "commands": record.commands,
    }
    row.update(metrics.row(game))
    row["seconds"] = round(time.perf_counter() - started, 4)
    return row


def report(rows: list[dict[str, Any]], directory: Path) -> Path:
    """``directory/report.html`` (and its charts) for these rows."""
    from delve.sim import maiden_report

    return maiden_report.write(rows, directory)


def summary_lines(rows: list[dict[str, Any]]) -> list[str]:
    """A few lines for the terminal."""
    from delve.sim import maiden_report

    return maiden_report.lines(rows)
