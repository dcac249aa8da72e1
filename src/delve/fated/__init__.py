"""Fated Labyrinth and Level D: the rules engine. Pure Python, no Django, no I/O."""
