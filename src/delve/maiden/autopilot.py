"""The built-in autopilot of the turn clock: when a seat's deadline passes, its decisions are
played by this simple, deterministic policy, chosen only from ``legal_commands`` (so it is
replayable: no randomness, no clock). Bots with real strategy live in ``delve.bots``.

Policy: never use skills or Arcana; move to the first legal destination (content order); roll;
take the ascension that the best-AP helper (MV-ASC-9) would take, then resolve; keep the first
card; place a card on the lowest stat (Wil first on ties); learn rather than level.
"""

from __future__ import annotations

from typing import Any

from delve.maiden import checks, commands
from delve.maiden.ctx import Ctx

_STAT_PREFERENCE = ("wil", "pie", "agi", "ins")


def choose(ctx: Ctx, seat: int) -> dict[str, Any] | None:
    legal = commands.legal_commands(ctx, seat)
    if not legal:
        return None
    kinds = {c["kind"] for c in legal}
    if "place_card" in kinds:
        maiden = ctx.state.maidens[seat]
        stat = min(_STAT_PREFERENCE, key=lambda s: (maiden.level(s), _STAT_PREFERENCE.index(s)))
        return {"kind": "place_card", "stat": stat}
    if "ascend" in kinds:
        best = _best_ascension(ctx, seat, [c for c in legal if c["kind"] == "ascend"])
        if best is not None:
            return best
    for preferred in ("move", "roll", "resolve", "stay"):
        for command in legal:
            if command["kind"] == preferred:
                return command
    for command in legal:
        if command["kind"] not in {"use_skill", "use_arcana", "boost", "ascend", "die_size"}:
            return command
    return legal[0]


def _best_ascension(ctx: Ctx, seat: int, options: list[dict[str, Any]]) -> dict[str, Any] | None:
    """An ascension that raises AP now (greedy: the one giving the highest AP)."""
    state = ctx.state
    check = state.check
    maiden = state.maidens[seat]
    if check is None:
        return None
    now = checks.current_ap(ctx, maiden)
    best: tuple[int, dict[str, Any]] | None = None
    for option in options:
        i, j = option["dice"]
        saved = (check.dice[i].removed, check.dice[j].removed, check.ascensions)
        onto = option.get("onto")
        bonus = checks.bonus(ctx, maiden)
        check.dice[i].removed = check.dice[j].removed = True
        check.ascensions += 1
        if onto is not None:
            check.dice[onto].bonus += bonus
        after = checks.current_ap(ctx, maiden)
        check.dice[i].removed, check.dice[j].removed, check.ascensions = saved
        if onto is not None:
            check.dice[onto].bonus -= bonus
        if after > now and (best is None or after > best[0]):
            best = (after, option)
    return None if best is None else best[1]
