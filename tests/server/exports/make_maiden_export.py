"""Writes ``maiden-state-with-its-log.json``: the export of a whole White Maiden game (one seat,
a one-hour turn deadline the autopilot sometimes plays out) as the engine that still kept the log
in its state made it (run it with that engine's sources first on the path, e.g.
``PYTHONPATH=<checkout of ad1158d>/src python make_maiden_export.py``). It needs no database: the
export is built the way ``delve verify`` replays one."""

import json
import sys

from delve.bots.maiden_eval import waiting_seat
from delve.kernel import Rng, SeatInfo, get_ruleset, state_hash
from delve.server.records.verify import FORMAT, LogEntry, event_record, seed_hash, steps

ruleset = get_ruleset("maiden")
settings = {"preset": "white-maiden", "players": 1, "start_player": "random", "turn_deadline_hours": 1}
seats = [SeatInfo("Alba")]
seed, start = 515151, 1_800_000_000
state = ruleset.setup(settings, seats, seed, start)
rng = Rng.seeded(11)
log, now = [], start
while not state.ended and len(log) < 5000:
    now += rng.randint(1, 120) if not rng.chance(1, 40) else 2 * 3600  # now and then the autopilot plays
    ruleset.advance(state, now)
    if state.ended:
        break
    seat = waiting_seat(state)
    command = rng.choice(ruleset.legal_commands(state, seat))
    ruleset.apply(state, seat, command, now)
    log.append(LogEntry(time=now, seat=seat, command=command))
if not state.ended:  # the last deadline's autopilot ended it: a command after it replays the advance
    raise SystemExit("the game did not end")
events, final = [], None
for step in steps(ruleset, settings, seats, seed, start, log):
    events.extend(event_record(e) for e in step.events)
    final = step
assert final is not None and final.ended
export = {
    "format": FORMAT,
    "game": {
        "id": 1,
        "ruleset": "maiden",
        "preset": "white-maiden",
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
