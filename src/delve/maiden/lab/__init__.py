"""The White Maiden balance lab: answers to the designer's questions (spec §8) from exact odds
(:mod:`delve.maiden.lab.exact`) and simulated games (:mod:`delve.maiden.lab.games`), and the
report that shows them (:mod:`delve.maiden.lab.report`)."""
