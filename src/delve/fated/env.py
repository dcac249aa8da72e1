"""Fated Labyrinth / Level D as a PettingZoo AEC environment (``pip install 'delve-server[env]'``).

    from delve.fated.env import FatedEnv
    env = FatedEnv(preset="fated-labyrinth")
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(mask.nonzero()[0][0])
        env.step(action)

The table, agents, rewards and truncation are :mod:`delve.kernel.aec`'s. This module gives:

- **actions**: a fixed numbering (:data:`ACTIONS` in all; :func:`encode` / :func:`decode`):
  36 simple commands (start the turn, stay, the passes, pick up, escape, nothing, draw, the
  defense answers, and move/swap/attack/pass-by/jump/steal in each direction) and, per hand slot
  (:data:`HAND`), the card's uses: trap, adjacent by direction, remote by seat, its effect with
  no parameter, a direction, a seat or a monster slot (the view's monsters in order), and
  defending with it. Giving up and comments are not actions;
- **observations** from the seat's view only: the map as the seat knows it (terrain, what is in
  sight, itself, other players, own and enemy monsters), every player's public line, its own
  phase and status, its hand (card kind and price).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from delve.fated import content
from delve.fated.grid import DIRECTIONS
from delve.fated.ruleset import FatedRuleset
from delve.kernel import Rng, SeatInfo
from delve.kernel.aec import ActionError, RulesetEnv

Command = dict[str, Any]

DIRS = tuple(DIRECTIONS)  # up, down, left, right
SEATS = 8  # the most seats of any preset (Level D)
HAND = 20  # hand slots (max cards 14, raised by cards, more for a moment after a steal)
MONSTERS = 8  # monster slots: the monsters of the view, in its order

SIMPLE: tuple[Command, ...] = (
    {"kind": "start_turn"},
    {"kind": "stay"},
    {"kind": "pass", "reward": "cards"},
    {"kind": "pass", "reward": "cp"},
    {"kind": "pick_up"},
    {"kind": "escape"},
    {"kind": "nothing"},
    {"kind": "draw"},
    {"kind": "no_defense"},
    {"kind": "parry"},
    {"kind": "accept_pass_by"},
    {"kind": "decline_pass_by"},
    *({"kind": kind, "dir": d} for kind in ("move", "swap", "attack", "pass_by", "jump", "steal") for d in DIRS),
)
#: Per hand slot: (use, parameter) of each action, in order.
CARD_BLOCK: tuple[tuple[str, str, Any], ...] = (
    ("trap", "", None),
    *(("adjacent", "dir", d) for d in DIRS),
    *(("remote", "target", s) for s in range(SEATS)),
    ("effect", "", None),
    *(("effect", "dir", d) for d in DIRS),
    *(("effect", "target", s) for s in range(SEATS)),
    *(("effect", "monster", m) for m in range(MONSTERS)),
    ("defend", "", None),
)
ACTIONS = len(SIMPLE) + HAND * len(CARD_BLOCK)
"""The size of the action space (the same for every preset)."""

_SIMPLE_INDEX = {tuple(sorted(c.items())): i for i, c in enumerate(SIMPLE)}
_BLOCK_INDEX = {entry: i for i, entry in enumerate(CARD_BLOCK)}
PHASES = ("ready", "move", "core", "wait", "defense")
TILES = ".#+~CTEteox?"
CLASSES = ("explorer", "warrior", "priest", "sorcerer", "summoner", "thief", "noble", "cat")
PLAYER_FEATURES = 15
YOU_FEATURES = 12


def _monster_ids(view: Mapping[str, Any]) -> list[int]:
    return [int(c["id"]) for c in view["characters"] if c["type"] == "monster"][:MONSTERS]


def encode(view: Mapping[str, Any], command: Mapping[str, Any]) -> int | None:
    """The action number of a legal command in the seat's view, or None when it has none
    (giving up, comments, a hand slot or monster beyond the encoding)."""
    kind = command.get("kind")
    if kind not in ("use_card", "defend"):
        return _SIMPLE_INDEX.get(tuple(sorted(command.items())))
    hand = [int(c["id"]) for c in view["you"]["hand"]]
    if command["card"] not in hand or hand.index(command["card"]) >= HAND:
        return None
    slot = hand.index(command["card"])
    if kind == "defend":
        entry: tuple[str, str, Any] = ("defend", "", None)
    elif command.get("use") == "trap":
        entry = ("trap", "", None)
    elif command.get("use") in ("adjacent", "remote"):
        param = "dir" if command["use"] == "adjacent" else "target"
        entry = (command["use"], param, command[param])
    elif "dir" in command:
        entry = ("effect", "dir", command["dir"])
    elif "target" in command:
        entry = ("effect", "target", command["target"])
    elif "monster" in command:
        monsters = _monster_ids(view)
        if command["monster"] not in monsters:
            return None
        entry = ("effect", "monster", monsters.index(command["monster"]))
    else:
        entry = ("effect", "", None)
    index = _BLOCK_INDEX.get(entry)
    return None if index is None else len(SIMPLE) + slot * len(CARD_BLOCK) + index


def decode(view: Mapping[str, Any], action: int) -> Command:
    """The command an action number stands for in the seat's view (legal or not).

    :raises ActionError: for a number outside the action space or an empty hand slot or monster slot.
    """
    if not isinstance(action, (int, np.integer)) or not 0 <= int(action) < ACTIONS:
        raise ActionError(f"an action is an integer from 0 to {ACTIONS - 1}, not {action!r}")
    action = int(action)
    if action < len(SIMPLE):
        return dict(SIMPLE[action])
    slot, index = divmod(action - len(SIMPLE), len(CARD_BLOCK))
    hand = view["you"]["hand"]
    if slot >= len(hand):
        raise ActionError(f"action {action} plays hand slot {slot}, but the hand holds {len(hand)} cards")
    card = int(hand[slot]["id"])
    use, param, value = CARD_BLOCK[index]
    if use == "defend":
        return {"kind": "defend", "card": card}
    command: Command = {"kind": "use_card", "card": card}
    if use != "effect":
        command["use"] = use
    if param == "monster":
        monsters = _monster_ids(view)
        if value >= len(monsters):
            raise ActionError(f"action {action} aims at monster slot {value}, but {len(monsters)} are in view")
        value = monsters[value]
    if param:
        command[param] = value
    return command


def legal_actions(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]]) -> dict[int, Command]:
    """Action number -> command for every encodable legal command."""
    out: dict[int, Command] = {}
    for command in legal:
        number = encode(view, command)
        if number is not None:
            out[number] = dict(command)
    return out


class Observer:
    """Turns a seat's view into a fixed-size float vector (and names its parts)."""

    def __init__(self, size: int, seats: int) -> None:
        self.size = size
        self.seats = seats
        cards = content.load().cards
        self.card_index = {kind: i + 1 for i, kind in enumerate(sorted(cards))}
        self.length = size * size * 5 + seats * PLAYER_FEATURES + YOU_FEATURES + HAND * 2

    def vector(self, view: Mapping[str, Any]) -> np.ndarray:
        n = self.size
        tiles = view["map"]["tiles"]
        lit = view["map"].get("lit") or "0" * (n * n)
        terrain = np.array([(TILES.index(t) if t in TILES else 0) / (len(TILES) - 1) for t in tiles], np.float32)
        sight = np.array([1.0 if c == "1" else 0.0 for c in lit], np.float32)
        me = np.zeros(n * n, np.float32)
        others = np.zeros(n * n, np.float32)
        monsters = np.zeros(n * n, np.float32)
        for c in view["characters"]:
            x, y = c["tile"]
            tile = int(y) * n + int(x)
            if c["type"] == "player":
                if c["you"]:
                    me[tile] = 1.0
                else:
                    others[tile] = (int(c["seat"]) + 1) / self.seats
            else:
                monsters[tile] = 1.0 if c.get("own") else -1.0
        players = np.zeros((self.seats, PLAYER_FEATURES), np.float32)
        for p in view["players"]:
            seat = int(p["seat"])
            if seat >= self.seats:
                continue
            visited = p.get("visited") or [[False, False], [False, False]]
            players[seat] = [
                1.0 if p.get("alive") else 0.0,
                p.get("hp", 0) / max(1, p.get("max_hp", 120)),
                p.get("cp", 0) / max(1, p.get("max_cp", 120)),
                p.get("attack", 0) / 50,
                p.get("defense", 0) / 50,
                p.get("evasion", 0) / 100,
                min(p.get("treasures", 0), 4) / 4,
                min(p.get("kills", 0), 7) / 7,
                *(1.0 if visited[r][k] else 0.0 for r in (0, 1) for k in (0, 1)),
                min(p.get("hand_size", 0), HAND) / HAND,
                (CLASSES.index(p["class"]) + 1) / len(CLASSES) if p.get("class") in CLASSES else 0.0,
                1.0 if "hp" not in p else 0.0,  # its status is hidden (Stealth)
            ]
        you = view["you"]
        phase = [1.0 if you["phase"] == name else 0.0 for name in PHASES]
        move = you.get("move") or {}
        mine = [
            *phase,
            (int(you["seat"]) + 1) / self.seats,
            min(int(move.get("number", 0)), 5) / 5,
            1.0 if you.get("qualifies") else 0.0,
            min(int(you.get("stored_turns", 0)), 5) / 5,
            1.0 if view["game"].get("exit_open") else 0.0,
            min(int(you.get("sight_radius", 0)), 5) / 5,
            int(you.get("effective_evasion", 0)) / 100,
        ]
        hand = np.zeros((HAND, 2), np.float32)
        for slot, card in enumerate(you["hand"][:HAND]):
            prices = card.get("cp") or {}
            hand[slot] = [
                self.card_index.get(card["kind"], 0) / len(self.card_index),
                min(max(prices.values(), default=0), 120) / 120,
            ]
        return np.concatenate(
            [terrain, sight, me, others, monsters, players.ravel(), np.array(mine, np.float32), hand.ravel()]
        ).astype(np.float32)


class FatedEnv(RulesetEnv):
    """One seeded game of Fated Labyrinth (or Level D) per ``reset``.

    ``classes``: one class per seat (default: drawn from the reset's seed); ``settings``:
    overrides of the preset (the clock is fast by default: a turn a minute); ``max_commands``:
    where a game is cut (truncation)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "delve_fated_v0", "render_modes": [], "is_parallelizable": False}
    actions = ACTIONS

    def __init__(
        self,
        preset: str = "fated-labyrinth",
        *,
        classes: Sequence[str] | None = None,
        settings: Mapping[str, Any] | None = None,
        max_commands: int = 5000,
    ) -> None:
        ruleset = FatedRuleset()
        overrides = {"preset": preset, "wait_time": 60, "abandon_time": "100h", **(settings or {})}
        seats = ruleset.seat_count(overrides)
        if classes is not None and len(classes) != seats:
            raise ValueError(f"{preset} has {seats} seats: give {seats} classes, not {len(classes)}")
        self.classes = tuple(classes) if classes is not None else None
        self.observer = Observer(int(ruleset.validate_settings(overrides)["maze_size"]), seats)
        super().__init__(ruleset, overrides, seats, max_commands=max_commands)

    def seat_infos(self, seed: int) -> list[SeatInfo]:
        rng = Rng.seeded(seed + 10_000)
        classes = self.classes or tuple(rng.choice(CLASSES) for _ in range(self.seat_total))
        return [SeatInfo(f"p{i + 1}", {"class": classes[i]}) for i in range(self.seat_total)]

    def encode(self, view: Mapping[str, Any], command: Mapping[str, Any]) -> int | None:
        return encode(view, command)

    def observation_length(self) -> int:
        return self.observer.length

    def vector(self, view: Mapping[str, Any]) -> Any:
        return self.observer.vector(view)

    def alive(self, seat: int) -> bool:
        return bool(self.game.players[seat].alive)


def env(**kwargs: Any) -> FatedEnv:
    """PettingZoo's customary constructor."""
    return FatedEnv(**kwargs)


__all__ = ["ACTIONS", "ActionError", "FatedEnv", "decode", "encode", "env", "legal_actions"]
