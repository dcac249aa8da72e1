import msgspec
import pytest

from delve.kernel import Rng


def test_same_seed_gives_the_same_sequence():
    a, b = Rng.seeded(42), Rng.seeded(42)
    assert [a.next_u64() for _ in range(100)] == [b.next_u64() for _ in range(100)]


def test_different_seeds_give_different_sequences():
    assert [Rng.seeded(1).next_u64() for _ in range(3)] != [Rng.seeded(2).next_u64() for _ in range(3)]


# Pinned values: a change here would silently change the future of every stored game.
PINNED_2026 = [74, 37, 31, 41, 94, 61, 96, 28]


def test_known_first_outputs_never_change_across_versions():
    rng = Rng.seeded(2026)
    assert [rng.randint(1, 100) for _ in range(8)] == PINNED_2026


def test_state_round_trips_through_json_mid_sequence():
    rng = Rng.seeded(7)
    for _ in range(13):
        rng.next_u64()
    restored = msgspec.json.decode(msgspec.json.encode(rng), type=Rng)
    assert [rng.below(1000) for _ in range(50)] == [restored.below(1000) for _ in range(50)]


def test_state_is_small():
    assert len(msgspec.json.encode(Rng.seeded(123))) < 100


def test_randint_covers_the_whole_range_uniformly():
    rng = Rng.seeded(3)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.randint(1, 6) - 1] += 1
    assert all(9_500 < c < 10_500 for c in counts), counts


def test_chance_and_percent_are_exact_at_the_edges():
    rng = Rng.seeded(5)
    assert not any(rng.chance(0, 4) for _ in range(200))
    assert all(rng.chance(4, 4) for _ in range(200))
    assert not any(rng.percent(0) for _ in range(200))
    assert all(rng.percent(100) for _ in range(200))
    hits = sum(rng.chance(1, 4) for _ in range(40_000))
    assert 9_500 < hits < 10_500


def test_shuffle_is_a_permutation_and_deterministic():
    a, b = list(range(500)), list(range(500))
    Rng.seeded(9).shuffle(a)
    Rng.seeded(9).shuffle(b)
    assert a == b and sorted(a) == list(range(500)) and a != list(range(500))


def test_bad_arguments_are_refused_with_the_value_quoted():
    rng = Rng.seeded(1)
    with pytest.raises(ValueError, match="-1"):
        Rng.seeded(-1)
    with pytest.raises(ValueError, match="5 > 2"):
        rng.randint(5, 2)
    with pytest.raises(IndexError):
        rng.choice([])
    with pytest.raises(ValueError):
        rng.below(0)


def test_large_seeds_use_all_their_bits():
    assert Rng.seeded(1).state != Rng.seeded(1 + (1 << 64)).state


def test_no_module_level_random_generator_in_the_package():
    import pathlib

    import delve

    root = pathlib.Path(delve.__file__).parent
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "import random" in p.read_text(encoding="utf-8") or "from random import" in p.read_text(encoding="utf-8")
    ]
    assert offenders == [], f"use delve.kernel.Rng from the state instead of the random module: {offenders}"
