"""The project's random generator: xoshiro128** on 32-bit words.

cardlab owns its generator instead of using ``random.Random`` so that a seed
means the same stream on every machine and Python version, seeding is cheap
(a game makes three generators), and the compiled rules core (mypyc) draws
numbers without calling back into the interpreter. All arithmetic is masked to
32 bits, so interpreted and compiled code give identical streams.
"""

from __future__ import annotations

from typing import Final, cast, final

from librt.vecs import vec
from mypy_extensions import i64, mypyc_attr

# Compiled, ``i64`` is a machine integer; interpreted, a plain int. Every
# intermediate value below stays under 2**63, so both agree bit for bit.
_MASK32: Final = 0xFFFFFFFF
_GOLDEN: Final = 0x9E3779B9


def _mix32(value: i64) -> i64:
    """A 32-bit finaliser (murmur3's fmix32) used to spread seed bits."""
    value = (value ^ (value >> 16)) * 0x85EBCA6B & _MASK32
    value = (value ^ (value >> 13)) * 0xC2B2AE35 & _MASK32
    return value ^ (value >> 16)


@final
@mypyc_attr(acyclic=True)  # holds numbers only: never in a reference cycle
class Generator:
    """A small, fast, seedable generator (xoshiro128**, period 2**128 - 1)."""

    s0: i64
    s1: i64
    s2: i64
    s3: i64

    def __init__(self, seed: int) -> None:
        seed &= (1 << 64) - 1
        low: i64 = seed & 0xFFFFFFFF
        high: i64 = seed >> 32
        # Four words from a counter stepped by the golden ratio plus a 16-bit
        # slice of the seed each (no list: a generator is made per game and per
        # search copy, so its set-up is on the hot path of searches).
        counter: i64 = (low ^ high) & _MASK32
        counter = (counter + _GOLDEN + (low & 0xFFFF)) & _MASK32
        s0 = _mix32(counter)
        counter = (counter + _GOLDEN + (low >> 16)) & _MASK32
        s1 = _mix32(counter)
        counter = (counter + _GOLDEN + (high & 0xFFFF)) & _MASK32
        s2 = _mix32(counter)
        counter = (counter + _GOLDEN + (high >> 16)) & _MASK32
        s3 = _mix32(counter)
        if s0 == 0 and s1 == 0 and s2 == 0 and s3 == 0:
            s0 = 1
        self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3

    def next_u32(self) -> i64:
        """The next 32-bit output."""
        s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
        scrambled = s1 * 5 & _MASK32
        result = ((scrambled << 7 | scrambled >> 25) & _MASK32) * 9 & _MASK32
        shifted = s1 << 9 & _MASK32
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= shifted
        s3 = (s3 << 11 | s3 >> 21) & _MASK32
        self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3
        return result

    def below(self, bound: i64) -> i64:
        """A uniform integer in ``[0, bound)``, unbiased (Lemire's method), bound < 2**31."""
        product: i64 = self.next_u32() * bound
        low = product & _MASK32
        if low < bound:
            threshold: i64 = (0x100000000 - bound) % bound
            while low < threshold:
                product = self.next_u32() * bound
                low = product & _MASK32
        return product >> 32

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits."""
        high = self.next_u32() >> 5
        low = self.next_u32() >> 6
        return (float(high) * 67108864.0 + float(low)) / 9007199254740992.0

    def shuffle(self, items: list[int]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        # Swapped as objects: compiled, a list[int] item read is unboxed and a
        # store boxed again, which a swap does not need.
        objects = cast(list[object], items)
        last: i64
        for last in range(len(objects) - 1, 0, -1):
            other = self.below(last + 1)
            objects[last], objects[other] = objects[other], objects[last]

    def shuffle_vector(self, items: vec[i64]) -> None:
        """Shuffle a native vector in place, drawing exactly as ``shuffle``
        does (so a list and a vector of the same values end in the same order)."""
        last: i64
        for last in range(len(items) - 1, 0, -1):
            other = self.below(last + 1)
            items[last], items[other] = items[other], items[last]

    def choice(self, items: list[int] | tuple[int, ...]) -> int:
        """A uniformly drawn element of a non-empty sequence."""
        return items[self.below(len(items))]

    def copy(self) -> Generator:
        """An independent generator in the same state."""
        twin = Generator(0)  # the cheapest seed to set up: its words are overwritten
        twin.s0, twin.s1, twin.s2, twin.s3 = self.s0, self.s1, self.s2, self.s3
        return twin
