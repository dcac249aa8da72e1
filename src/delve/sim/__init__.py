"""The game-agnostic simulation runner: game specs (seed, bots per seat, settings) in, one row
per played game out, on local processes or a Dask distributed cluster, with resumable CSV
results and matplotlib reports.

- :mod:`delve.sim.spec`: :class:`~delve.sim.spec.GameSpec`, what one game is;
- :mod:`delve.sim.games`: how each game is played to its end (``delve.sim.games.<game>.play``);
- :mod:`delve.sim.runner`: :func:`~delve.sim.runner.run`, many games with progress and resume;
- :mod:`delve.sim.report`: Wilson intervals, charts and the HTML report;
- :mod:`delve.sim.cli`: ``delve simulate``.
"""
