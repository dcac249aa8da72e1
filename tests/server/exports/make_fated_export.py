"""Writes ``fated-state-with-its-log.json``: the export of a short Fated Labyrinth game as the
engine that still kept the log and messages in its state made it (run it with that engine's
sources first on the path, e.g. ``PYTHONPATH=<checkout of 727c878>/src python make_fated_export.py``).
It needs no database: the export is built the way ``delve verify`` replays one."""

import json
import sys

from delve.kernel import Rng, SeatInfo, get_ruleset, state_hash
from delve.server.records.verify import FORMAT, LogEntry, event_record, seed_hash, steps

ruleset = get_ruleset("fated")
settings = {"preset": "fated-labyrinth", "players": 4, "maze_size": 9, "wait_time": 600}
classes = ["warrior", "thief", "priest", "cat"]
seats = [SeatInfo(f"P{i + 1}", {"class": c, "keep_record": True}) for i, c in enumerate(classes)]
seed, start = 424242, 1_800_000_000
state = ruleset.setup(settings, seats, seed, start)
rng = Rng.seeded(7)
log, now = [], start
while len(log) < 120 and not state.ended:
    now += rng.randint(30, 400)
    ruleset.advance(state, now)
    seat = rng.below(4)
    legal = [c for c in ruleset.legal_commands(state, seat) if c["kind"] not in ("give_up", "comment")]
    if not legal:
        continue
    command = rng.choice(legal)
    ruleset.apply(state, seat, command, now)
    log.append(LogEntry(time=now, seat=seat, command=command))
for seat in range(4):
    if state.ended:
        break
    now += 1
    if state.players[seat].alive:
        ruleset.apply(state, seat, {"kind": "give_up"}, now)
        log.append(LogEntry(time=now, seat=seat, command={"kind": "give_up"}))
assert state.ended
events, final = [], None
for step in steps(ruleset, settings, seats, seed, start, log):
    events.extend(event_record(e) for e in step.events)
    final = step
export = {
    "format": FORMAT,
    "game": {
        "id": 1,
        "ruleset": "fated",
        "preset": "fated-labyrinth",
        "settings": settings,
        "started_at": start,
        "ended_at": now,
    },
    "seats": [{"index": i, "name": s.name, "options": dict(s.options)} for i, s in enumerate(seats)],
    "seed": seed,
    "seed_sha256": seed_hash(seed),
    "commands": [
        {"sequence": i + 2, "time": e.time, "seat": e.seat, "source": "player", "command": e.command, "order": None}
        for i, e in enumerate(log)
    ],
    "events": [{"sequence": i + 1, **e} for i, e in enumerate(events)],
    "final_state_sha256": state_hash(ruleset, final.state),
}
json.dump(export, sys.stdout, separators=(",", ":"), sort_keys=True)
