"""White Maiden: rules engine, content and exact dice odds (pure Python, no Django).

``ruleset.MaidenRuleset`` is the kernel contract; the rules live in modules named after their
concepts (setup, rounds, movement, checks, dice, bosses, decks, levelup, death, effects,
skills), driven by ``flow.proceed``.
"""
