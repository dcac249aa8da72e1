"""A small seeded random generator whose whole state is four 64-bit integers.

The generator is xoshiro256** seeded through splitmix64. It is implemented in pure Python so
that its output is identical on every platform and Python version, and its state can be stored
inside a game state (``Rng.state`` round-trips through JSON). There is no module-level
generator anywhere in Delve: every random decision of a game comes from the ``Rng`` stored in
that game's state.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

import msgspec

_MASK = (1 << 64) - 1
T = TypeVar("T")


def _splitmix64(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


class Rng(msgspec.Struct, array_like=True):
    """A deterministic, serializable random generator.

    Create one with :meth:`seeded`; store it anywhere a msgspec Struct can be stored.
    """

    s0: int
    s1: int
    s2: int
    s3: int

    @classmethod
    def seeded(cls, seed: int) -> Rng:
        """A generator whose sequence is fully determined by ``seed`` (any integer).

        :raises ValueError: if ``seed`` is negative.
        """
        if seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        x = seed & _MASK
        # Fold in the high bits of very large seeds so that no part of the seed is ignored.
        rest = seed >> 64
        while rest:
            x ^= rest & _MASK
            rest >>= 64
        words = []
        for _ in range(4):
            x, z = _splitmix64(x)
            words.append(z)
        if not any(words):  # xoshiro must never be all zero
            words[0] = 1
        return cls(*words)

    @property
    def state(self) -> tuple[int, int, int, int]:
        return (self.s0, self.s1, self.s2, self.s3)

    def next_u64(self) -> int:
        """The next raw 64-bit output."""
        s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
        x = (s1 * 5) & _MASK
        result = ((((x << 7) | (x >> 57)) & _MASK) * 9) & _MASK  # rotl(s1 * 5, 7) * 9, inline
        t = (s1 << 17) & _MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & _MASK  # rotl(s3, 45)
        self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias.

        :raises ValueError: if ``n`` is not positive.
        """
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        while True:
            value = self.next_u64() >> (64 - bits)
            if value < n:
                return value

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]`` (both inclusive).

        :raises ValueError: if ``high < low``.
        """
        if high < low:
            raise ValueError(f"randint() needs low <= high, got {low} > {high}")
        return low + self.below(high - low + 1)

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability ``numerator / denominator`` (exact, integer arithmetic)."""
        if numerator <= 0:
            return False
        if numerator >= denominator:
            return True
        return self.below(denominator) < numerator

    def percent(self, p: int) -> bool:
        """A d100 check: roll 1..100, success when the roll is ``<= p`` (p clamped to 0..100)."""
        return self.randint(1, 100) <= max(0, min(100, p))

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly.

        :raises IndexError: if ``items`` is empty.
        """
        if not items:
            raise IndexError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements in random order.

        :raises ValueError: if ``k`` is larger than the population.
        """
        if k > len(items) or k < 0:
            raise ValueError(f"sample of {k} from a population of {len(items)}")
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def fork(self) -> Rng:
        """An independent generator derived from this one (advances this one)."""
        return Rng.seeded(self.next_u64())
