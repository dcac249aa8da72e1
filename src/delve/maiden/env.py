"""White Maiden as a PettingZoo AEC environment (``pip install 'delve-server[env]'``).

    from delve.maiden.env import MaidenEnv
    env = MaidenEnv(players=2)
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(mask.nonzero()[0][0])
        env.step(action)

The table, agents, rewards and truncation are :mod:`delve.kernel.aec`'s; White Maiden is
cooperative, so at the end every seat gets +1 (won) or -1 (lost). This module gives:

- **actions**: a fixed numbering (:data:`CATALOGUE`, built from the content: every room, skill,
  familiar, Arcana area and stat), one number per command: stay, roll, resolve; move to a room;
  a die size; ascend a pair of dice; boost a die; use a skill or an Arcana (for no one in
  particular, for a seat, or with the pick its effect offers: a die and a face, a set of dice,
  a near pair and the die its bonus goes onto, a boss, a room); keep a card, place a card on
  a stat, an Agility level-up option, a familiar, a start player, the option of a pending
  choice. Dice, cards and options are
  numbered by position (up to :data:`DICE` dice, :data:`OPTIONS` options);
- **observations** from the seat's view only: the round, markers, target and danger level, the
  phase and the active seat, each room (explored, who is there), each maiden (life, stats,
  die, pool, movement, room), each boss (life left, engaged, defeated), the check under way
  (target, required successes, dice), and the head of the pending decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any, ClassVar

import numpy as np

from delve.kernel import SeatInfo, get_ruleset
from delve.kernel.aec import ActionError, RulesetEnv, one_hot, scaled
from delve.maiden import content
from delve.maiden.state import DIE_SIZES, STATS

SEATS = 4
DICE = 12  # dice positions in a check
OPTIONS = 16  # options of a pending choice, cards kept
PHASES = ("setup", "move", "pre_roll", "post_roll", "room", "levelup", "ended")
DECISIONS = ("choose_familiar", "choose_start_player", "keep_card", "place_card", "agi_option", "choose")


def _key(command: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in command.items()))


def catalogue() -> tuple[dict[str, Any], ...]:
    """Every command an action number stands for, in order (the same for every game)."""
    data = content.load()
    skills = sorted(data.skills)
    out: list[dict[str, Any]] = [{"kind": "stay"}, {"kind": "roll"}, {"kind": "resolve"}]
    out += [{"kind": "move", "to": room} for room in sorted(data.rooms)]
    out += [{"kind": "die_size", "size": size} for size in DIE_SIZES]
    out += [{"kind": "ascend", "dice": [i, j]} for i, j in combinations(range(DICE), 2)]
    out += [{"kind": "boost", "die": i} for i in range(DICE)]
    for skill in skills:
        out += [
            {"kind": "use_skill", "skill": skill},
            *({"kind": "use_skill", "skill": skill, "seat": s} for s in range(SEATS)),
            *({"kind": "use_skill", "skill": skill, **p} for p in _picks(data.skills[skill].ops, data)),
        ]
    for area in sorted(data.areas):
        out += [
            {"kind": "use_arcana", "area": area},
            *({"kind": "use_arcana", "area": area, "seat": s} for s in range(SEATS)),
            *({"kind": "use_arcana", "area": area, **p} for p in _picks(data.areas[area].arcana, data)),
        ]
    out += [{"kind": "keep_card", "card": i} for i in range(OPTIONS)]
    out += [{"kind": "place_card", "stat": stat} for stat in STATS]
    out += [{"kind": "agi_option", "choice": choice} for choice in ("learn", *skills)]
    out += [{"kind": "choose_familiar", "familiar": f} for f in sorted(data.familiars)]
    out += [{"kind": "choose_start_player", "seat": s} for s in range(SEATS)]
    out += [{"kind": "choose", "option": i} for i in range(OPTIONS)]
    return tuple(out)


def _picks(ops: Any, data: Any) -> list[dict[str, Any]]:
    """Every pick a use of these ops may carry as command params (``effects.param_options``: the
    first op that picks offers its picks): a die and a face, a set of dice (by position), a
    near pair with the die its bonus goes onto, a boss or a room."""
    for op in ops:
        name = op["op"]
        if name in ("die_adjust", "set_die"):
            return [{"die": i, "face": f} for i in range(DICE) for f in range(1, max(DIE_SIZES) + 1)]
        if name == "reroll":
            return [{"dice": list(c)} for n in range(1, DICE + 1) for c in combinations(range(DICE), n)]
        if name == "swap_colours":
            return [{"dice": [i, j]} for i, j in combinations(range(DICE), 2)]
        if name == "near_pair":
            pairs = [[i, j] for i, j in combinations(range(DICE), 2)]
            return [{"dice": p} for p in pairs] + [
                {"dice": p, "onto": k} for p in pairs for k in range(DICE) if k not in p
            ]
        if name == "boss_damage" and op.get("boss") in ("choose_engaged", "choose"):
            return [{"boss": b} for b in sorted(data.bosses)]
        if (name == "room_type" and op.get("room") == "choose_unexplored") or name == "warp":
            return [{"room": r} for r in sorted(data.rooms)]
    return []


CATALOGUE = catalogue()
ACTIONS = len(CATALOGUE)
_INDEX = {_key(command): i for i, command in enumerate(CATALOGUE)}


def encode(command: Mapping[str, Any]) -> int | None:
    """The action number of a command, or None when the catalogue has none for it."""
    return _INDEX.get(_key(command))


def decode(action: int) -> dict[str, Any]:
    """The command an action number stands for.

    :raises ActionError: for a number outside the action space.
    """
    if not isinstance(action, (int, np.integer)) or not 0 <= int(action) < ACTIONS:
        raise ActionError(f"an action is an integer from 0 to {ACTIONS - 1}, not {action!r}")
    return dict(CATALOGUE[int(action)])


class Observer:
    """Turns a seat's view into a fixed-size float vector."""

    MAIDEN = 14
    CHECK = 8 + DICE

    def __init__(self) -> None:
        data = content.load()
        self.rooms = sorted(data.rooms)
        self.bosses = sorted(data.bosses)
        self.length = 8 + len(PHASES) + 2 * SEATS + 3 * len(self.rooms) + SEATS * self.MAIDEN
        self.length += 3 * len(self.bosses) + self.CHECK + 1 + len(DECISIONS) + 1

    def vector(self, view: Mapping[str, Any]) -> np.ndarray:
        room_index = {room: i for i, room in enumerate(self.rooms)}
        top = [
            scaled(view.get("round"), max(1, int(view.get("rounds") or 24))),
            scaled(view.get("rounds"), 48),
            scaled(view.get("action_markers"), 30),
            scaled(view.get("base_target"), 30),
            scaled(view.get("danger_level"), 10),
            scaled(view.get("turn_in_round"), max(1, int(view.get("turns_per_round") or 4))),
            scaled(view.get("sephirot"), 10),
            1.0 if view.get("ended") else 0.0,
            *one_hot(view.get("phase"), PHASES),
            *one_hot(view.get("active_seat"), range(SEATS)),
            *one_hot(view.get("you"), range(SEATS)),
        ]
        rooms = np.zeros((len(self.rooms), 3), np.float32)
        for room in (view.get("map") or {}).get("rooms", []):
            i = room_index.get(room.get("id"))
            if i is not None:
                rooms[i] = [
                    1.0 if room.get("explored") else 0.0,
                    scaled(len(room.get("maidens") or []), SEATS),
                    1.0 if room.get("boss") else 0.0,
                ]
        maidens = np.zeros((SEATS, self.MAIDEN), np.float32)
        for m in view.get("maidens") or []:
            seat = int(m.get("seat", -1))
            if not 0 <= seat < SEATS:
                continue
            levels = m.get("levels") or {}
            maidens[seat] = [
                1.0,
                scaled(m.get("life"), max(1, int(m.get("life_max") or 6))),
                scaled(m.get("life_max"), 12),
                *(scaled(levels.get(stat), 6) for stat in STATS),
                scaled(m.get("die"), 20),
                scaled(m.get("pool"), 12),
                scaled(m.get("mp"), 10),
                scaled(room_index.get(m.get("room"), -1) + 1, len(self.rooms)),
                scaled(m.get("deaths"), 5),
                scaled(len(m.get("skills") or []), 8),
                scaled(len(m.get("familiars") or []), 4),
            ]
        bosses = np.zeros((len(self.bosses), 3), np.float32)
        boss_index = {boss: i for i, boss in enumerate(self.bosses)}
        for b in view.get("bosses") or []:
            i = boss_index.get(b.get("id"))
            if i is not None:
                bosses[i] = [
                    scaled(b.get("life_left"), max(1, int(b.get("life_max") or 1))),
                    1.0 if b.get("engaged") else 0.0,
                    1.0 if b.get("defeated") else 0.0,
                ]
        check = view.get("check") or {}
        dice = [_face(d) for d in (check.get("dice") or [])][:DICE]
        checked = [
            1.0 if check else 0.0,
            scaled(check.get("target"), 30),
            scaled(check.get("required"), 6),
            1.0 if check.get("rolled") else 0.0,
            scaled(check.get("ascensions"), 6),
            scaled(check.get("boost_left"), 6),
            scaled(check.get("size"), 20),
            scaled(check.get("white"), 10),
            *(scaled(face, 20) for face in dice),
            *([0.0] * (DICE - len(dice))),
        ]
        pending = view.get("pending") or []
        head = pending[0] if pending else {}
        decided = [
            scaled(len(pending), 8),
            *one_hot(head.get("kind"), DECISIONS),
            1.0 if head and head.get("seat") in (None, view.get("you")) else 0.0,
        ]
        return np.concatenate(
            [
                np.array(top, np.float32),
                rooms.ravel(),
                maidens.ravel(),
                bosses.ravel(),
                np.array(checked + decided, np.float32),
            ]
        )


def _face(die: Any) -> float:
    if isinstance(die, (int, float)) and not isinstance(die, bool):
        return float(die)
    if isinstance(die, Mapping):
        for key in ("value", "face"):
            if isinstance(die.get(key), (int, float)):
                return float(die[key])
    return 0.0


class MaidenEnv(RulesetEnv):
    """One seeded White Maiden game per ``reset`` (``players`` 1-4, ``settings``: overrides)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "delve_maiden_v0", "render_modes": [], "is_parallelizable": False}
    actions = ACTIONS

    def __init__(
        self, players: int = 2, *, settings: Mapping[str, Any] | None = None, max_commands: int = 5000
    ) -> None:
        ruleset = get_ruleset("maiden")
        overrides = {"preset": "white-maiden", "players": players, **(settings or {})}
        seats = ruleset.seat_count(overrides)
        self.observer = Observer()
        super().__init__(ruleset, overrides, seats, max_commands=max_commands)

    def seat_infos(self, seed: int) -> list[SeatInfo]:
        return [SeatInfo(f"maiden {i + 1}", {}) for i in range(self.seat_total)]

    def encode(self, view: Mapping[str, Any], command: Mapping[str, Any]) -> int | None:
        return encode(command)

    def observation_length(self) -> int:
        return self.observer.length

    def vector(self, view: Mapping[str, Any]) -> Any:
        return self.observer.vector(view)


def env(**kwargs: Any) -> MaidenEnv:
    """PettingZoo's customary constructor."""
    return MaidenEnv(**kwargs)


__all__ = ["ACTIONS", "CATALOGUE", "ActionError", "MaidenEnv", "decode", "encode", "env"]
