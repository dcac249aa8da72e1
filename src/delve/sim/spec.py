"""What one simulated game is: a :class:`GameSpec` (game, seed, one bot per seat, preset,
setting overrides and a free tag). A spec is hashable and its :meth:`GameSpec.key` is the
stable identity a resumed run uses to skip games it has already played."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The columns every game's row has (see docs/simulate.md); a game module adds its own.
COMMON_COLUMNS = (
    "game",
    "preset",
    "seed",
    "seats",
    "bots",
    "tag",
    "settings",
    "winner",
    "outcome",
    "turns",
    "commands",
    "seconds",
)


class SpecError(ValueError):
    """A spec that cannot describe a game; ``argument`` names what is wrong (``bots``, ``seed``...)."""

    def __init__(self, argument: str, reason: str) -> None:
        super().__init__(f"{argument}: {reason}")
        self.argument = argument
        self.reason = reason


def _hashable(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _hashable(v)) for k, v in value.items()))
    return value


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game to simulate.

    ``bots``: one bot name per seat (``"heuristic"``, ``"random"``, ``"heuristic:will-first"``...:
    :func:`delve.bots.named` resolves them). ``preset``: a preset of the game (Fated Labyrinth:
    ``"fated-labyrinth"`` or ``"level-d"``), or None. ``settings``: setting overrides as sorted
    ``(key, value)`` pairs (given in any order, kept sorted). ``tag``: a free label carried into
    the row.
    """

    game: str
    seed: int
    bots: tuple[str, ...]
    preset: str | None = None
    settings: tuple[tuple[str, Any], ...] = ()
    tag: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or not self.game:
            raise SpecError("game", f"{self.game!r} is not a game name")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise SpecError("seed", f"{self.seed!r} is not a whole number of 0 or more")
        bots: tuple[str, ...] = tuple(self.bots)
        if not bots or any(not isinstance(b, str) or not b for b in bots):
            raise SpecError("bots", f"{self.bots!r}: one bot name per seat is needed")
        object.__setattr__(self, "bots", bots)
        settings = tuple(sorted((str(k), _hashable(v)) for k, v in self.settings))
        if len({k for k, _ in settings}) != len(settings):
            raise SpecError("settings", f"a setting is given twice in {settings!r}")
        object.__setattr__(self, "settings", settings)
        if self.preset is not None and (not isinstance(self.preset, str) or not self.preset):
            raise SpecError("preset", f"{self.preset!r} is not a preset name")

    @classmethod
    def of(
        cls,
        game: str,
        seed: int,
        bots: Sequence[str],
        *,
        preset: str | None = None,
        settings: Mapping[str, Any] | None = None,
        tag: str = "",
    ) -> GameSpec:
        """A spec from plain values (settings as a mapping)."""
        return cls(game, seed, tuple(bots), preset, tuple((settings or {}).items()), tag)

    def key(self) -> str:
        """The stable identity of this game (game, preset, seed, bots, settings, tag) as compact JSON."""
        return json.dumps(
            [
                self.game,
                self.preset,
                self.seed,
                list(self.bots),
                [[k, _jsonable(v)] for k, v in self.settings],
                self.tag,
            ],
            separators=(",", ":"),
            ensure_ascii=False,
        )

    def settings_dict(self) -> dict[str, Any]:
        """The overrides as a dict (tuples back to lists, as JSON would give them)."""
        return {k: _jsonable(v) for k, v in self.settings}

    def common(self) -> dict[str, Any]:
        """The row columns that come from the spec itself."""
        return {
            "game": self.game,
            "preset": self.preset,
            "seed": self.seed,
            "seats": len(self.bots),
            "bots": ",".join(self.bots),
            "tag": self.tag,
            "settings": json.dumps(self.settings_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False),
        }


def seat_bots(names: Sequence[str], seats: int, *, rotate: int = 0) -> tuple[str, ...]:
    """One bot name per seat: a single name fills every seat; otherwise exactly one per seat.
    ``rotate`` moves the line-up that many seats on (seat s gets name (s - rotate) mod seats),
    so that a run can spread each bot over every seat.

    :raises SpecError: (argument ``bots``) when the count does not fit the seats.
    """
    if not names:
        raise SpecError("bots", "no bot named")
    if len(names) == 1:
        return tuple(names) * seats
    if len(names) != seats:
        raise SpecError(
            "bots", f"{len(names)} names for {seats} seats: give one name for every seat, or exactly {seats}"
        )
    return tuple(names[(s - rotate) % seats] for s in range(seats))


def seeded_specs(
    game: str,
    seeds: Iterable[int],
    bots: Sequence[str],
    seats: int,
    *,
    preset: str | None = None,
    settings: Mapping[str, Any] | None = None,
    tag: str = "",
    rotate: bool = False,
) -> list[GameSpec]:
    """A spec per seed with the same line-up (rotated by the seed when ``rotate``)."""
    return [
        GameSpec.of(
            game,
            seed,
            seat_bots(bots, seats, rotate=seed % seats if rotate else 0),
            preset=preset,
            settings=settings,
            tag=tag,
        )
        for seed in seeds
    ]
