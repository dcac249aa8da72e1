"""Live updates: a "changed" notice per game, pushed to the game's viewers with server-sent events.

A command, a clock advance or a bot's move commits a game's new state; once the transaction has
committed, :func:`hub.publish` sends the game's per-audience change counters (``Game.observed``:
one counter per seat and one for spectators, moving only when that audience's view changed).
With ``REDIS_URL`` set they go through Redis pub/sub, so every server process hears of every
change, whichever process (or tick worker) made it; without it the process delivers them itself.
Each viewer's event stream (:mod:`delve.server.live.views`) forwards only its own audience's
counter, and only when it moved; the page then fetches its own panels through the usual poll
(which renders the viewer's view). A notice carries no game content.
"""
