"""A game as a PettingZoo AEC environment: the table that drives any ruleset through its contract
(``delve.fated.env`` and ``delve.maiden.env`` plug in their action encoding and observation).

Only those env modules import this one, and this one alone imports numpy, gymnasium and
pettingzoo (the ``env`` extra: ``pip install delve-server[env]``), so the server never needs them.

- **Agents** ``player_0`` ... one per seat. The environment advances the game clock (to the
  ruleset's ``next_due``) until some seat has a decision, and gives the turn to the next such
  seat after the one that acted last.
- **Actions**: a fixed numbering of the game's commands (the subclass's ``encode``/``decode``);
  the mask is exactly the seat's ``legal_commands`` that have a number. An action that is not
  legal now raises :class:`ActionError` and changes nothing.
- **Observations**: ``{"observation": vector, "action_mask": mask}``, the vector built from the
  seat's view only (never the state).
- **Rewards**: at the end +1 to each winner and -1 to every other seat; a game cut at
  ``max_commands`` is truncated (0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"the game environments need numpy, gymnasium and pettingzoo ({exc}): pip install 'delve-server[env]'"
    ) from None

from delve.kernel import Ruleset, SeatInfo

Command = dict[str, Any]
START = 1_800_000_000
IDLE_LIMIT = 1_000


class ActionError(ValueError):
    """An action number that is not one of the acting seat's legal commands now."""


class RulesetEnv(AECEnv):  # type: ignore[misc]
    """The driver. Subclasses give ``actions`` (the size of the action space), ``encode``,
    ``decode``, ``vector`` and ``observation_length``, and build ``ruleset``, ``settings`` and
    ``seats`` (one :class:`SeatInfo` per seat, from the reset's seed) before calling this
    ``__init__``."""

    metadata: ClassVar[dict[str, Any]] = {"name": "delve_v0", "render_modes": [], "is_parallelizable": False}
    actions: int = 0

    def __init__(self, ruleset: Ruleset[Any], settings: Mapping[str, Any], seats: int, *, max_commands: int) -> None:
        super().__init__()
        self.ruleset = ruleset
        self.settings = dict(settings)
        self.seat_total = seats
        self.max_commands = max_commands
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-1.0, high=1.0, shape=(self.observation_length(),), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.actions,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(self.actions)
        self.game: Any = None

    # -- what a game plugs in ------------------------------------------------------------------

    def seat_infos(self, seed: int) -> list[SeatInfo]:
        raise NotImplementedError

    def encode(self, view: Mapping[str, Any], command: Mapping[str, Any]) -> int | None:
        """The action number of a command in the seat's view, or None when it has none."""
        raise NotImplementedError

    def observation_length(self) -> int:
        raise NotImplementedError

    def vector(self, view: Mapping[str, Any]) -> Any:
        """The observation vector (float32, values in [-1, 1]) of a seat's view."""
        raise NotImplementedError

    # -- spaces --------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # -- the game ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = int(seed) if seed is not None else 0
        self.game = self.ruleset.setup(self.settings, self.seat_infos(seed), seed, START)
        self.now = START
        self.commands = 0
        self.last_seat = -1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._out: set[str] = set()
        self._settle()
        self._next_agent()

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def choices(self, seat: int) -> tuple[dict[str, Any], dict[int, Command]]:
        """The seat's view and its legal commands by action number."""
        view = self.ruleset.view(self.game, seat)
        out: dict[int, Command] = {}
        for command in self.ruleset.legal_commands(self.game, seat):
            number = self.encode(view, command)
            if number is not None:
                out[number] = dict(command)
        return view, out

    def observe(self, agent: str) -> dict[str, Any]:
        view, choices = self.choices(self.seat(agent))
        mask = np.zeros(self.actions, np.int8)
        if not (self.terminations.get(agent) or self.truncations.get(agent)):
            mask[list(choices)] = 1
        return {"observation": np.asarray(self.vector(view), np.float32), "action_mask": mask}

    def _ended(self) -> bool:
        return bool(self.ruleset.outcome(self.game).ended)

    def _next_agent(self) -> None:
        """Give the turn to the next seat with a decision, advancing the clock as needed."""
        idle = 0
        while not self._ended():
            for k in range(1, self.seat_total + 1):
                seat = (self.last_seat + k) % self.seat_total
                agent = self.possible_agents[seat]
                if agent in self.agents and not self.terminations[agent] and self.choices(seat)[1]:
                    self.agent_selection = agent
                    return
            idle += 1
            if idle > IDLE_LIMIT:
                raise RuntimeError(
                    f"no seat has an encodable decision after {IDLE_LIMIT} clock advances (at {self.now}): "
                    "the action encoding misses a command kind"
                )
            due = self.ruleset.next_due(self.game)
            if due is None or due <= self.now:
                due = self.now + 60
            self.now = due
            self.ruleset.advance(self.game, self.now)
            self._settle()
        self.agent_selection = self.agents[0]

    def alive(self, seat: int) -> bool:
        """Whether the seat still plays (a game may drop seats before its end)."""
        return True

    def _settle(self) -> None:
        """Reward and mark the seats that are out since the last call: at the end +1 to each
        winner and -1 to every other seat; a seat that drops out earlier gets its -1 then.

        A step may settle several times (the clock advanced until a seat has a decision, a seat
        dying on the way): each reward is added to the step's ``rewards`` (cleared by
        :meth:`step`) and to the cumulative ones once, so what a step reports adds up to what
        :meth:`last` returns."""
        outcome = self.ruleset.outcome(self.game)
        for agent in self.agents:
            if agent in self._out:
                continue
            seat = self.seat(agent)
            if outcome.ended:
                reward = 1.0 if seat in outcome.winners else -1.0
                self.infos[agent] = {"result": outcome.results.get(seat)}
            elif not self.alive(seat):
                reward = -1.0
            else:
                continue
            self.rewards[agent] += reward
            self._cumulative_rewards[agent] += reward
            self.terminations[agent] = True
            self._out.add(agent)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            out = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
            if out:
                self.agent_selection = out[0]  # the others that are out leave first
            elif self.agents and not self._ended():
                self._next_agent()
            return
        seat = self.seat(agent)
        _view, choices = self.choices(seat)
        number = int(action) if isinstance(action, (int, np.integer)) else None
        if number is None or number not in choices:
            raise ActionError(f"action {action!r} is not legal for {agent} now; legal: {sorted(choices)}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        # the clock stands still while seats decide (the choices were made at this time)
        self.ruleset.apply(self.game, seat, choices[number], self.now)
        self.commands += 1
        self.last_seat = seat
        self._settle()
        cut = not self._ended() and self.commands >= self.max_commands
        if cut:
            for other in self.agents:
                self.truncations[other] = True
        if self._ended() or cut:
            self.agent_selection = self.agents[0]
            return
        out = [a for a in self.agents if self.terminations[a]]
        if out:
            self.agent_selection = out[0]
            return
        self._next_agent()

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def one_hot(value: Any, choices: Sequence[Any]) -> list[float]:
    return [1.0 if value == choice else 0.0 for choice in choices]


def scaled(value: Any, top: float) -> float:
    """``value / top`` clipped to [-1, 1] (non-numbers count as 0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return max(-1.0, min(1.0, float(value) / top))
