"""Golden transcripts of seeded bot games (regression tests; see ``tests/maiden/test_golden.py``)."""
