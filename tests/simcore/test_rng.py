"""The project's generator: xoshiro128** exactly, unbiased bounds, good spread."""

from __future__ import annotations

from collections import Counter

from librt.vecs import vec
from mypy_extensions import i64

from simcore.rng import Generator

MASK = 0xFFFFFFFF


def _reference_xoshiro128_star_star(state: list[int], count: int) -> list[int]:
    """The published algorithm written out directly (Blackman and Vigna)."""
    s = list(state)
    outputs = []

    def rotl(value: int, bits: int) -> int:
        return ((value << bits) | (value >> (32 - bits))) & MASK

    for _ in range(count):
        outputs.append((rotl((s[1] * 5) & MASK, 7) * 9) & MASK)
        t = (s[1] << 9) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 11)
    return outputs


def test_the_generator_is_xoshiro128_star_star() -> None:
    generator = Generator(2026)
    state = [generator.s0, generator.s1, generator.s2, generator.s3]
    assert [generator.next_u32() for _ in range(1000)] == _reference_xoshiro128_star_star(state, 1000)


def test_different_seeds_give_different_streams_and_equal_seeds_equal_ones() -> None:
    streams = {tuple(Generator(seed).next_u32() for _ in range(4)) for seed in range(1000)}
    assert len(streams) == 1000
    assert [Generator(5).next_u32() for _ in range(3)] == [Generator(5).next_u32() for _ in range(3)]


def test_below_is_uniform_by_a_chi_square_test() -> None:
    generator = Generator(1)
    bound, draws = 7, 70000
    counts = Counter(generator.below(bound) for _ in range(draws))
    assert set(counts) == set(range(bound))
    expected = draws / bound
    chi_square = sum((counts[value] - expected) ** 2 / expected for value in range(bound))
    assert chi_square < 22.46  # the 0.999 quantile of chi-square with 6 degrees of freedom


def test_below_follows_lemires_method_with_its_rejection_step() -> None:
    """Checked draw by draw against the method computed from a twin stream;
    with bound 3 * 2**29 about a quarter of raw draws fall in the rejected zone."""
    bound = 3 << 29
    generator, twin = Generator(9), Generator(9)
    threshold = (1 << 32) % bound
    rejections = 0
    for _ in range(5000):
        product = twin.next_u32() * bound
        while product & MASK < threshold:
            rejections += 1
            product = twin.next_u32() * bound
        assert generator.below(bound) == product >> 32
    assert rejections > 500


def test_shuffle_is_a_permutation_and_every_position_is_reachable() -> None:
    generator = Generator(3)
    firsts: Counter[int] = Counter()
    for _ in range(6000):
        items = list(range(6))
        generator.shuffle(items)
        assert sorted(items) == list(range(6))
        firsts[items[0]] += 1
    assert all(800 < firsts[value] < 1200 for value in range(6))


def test_a_vector_is_shuffled_with_the_same_draws_as_a_list_of_the_same_values() -> None:
    for size in (0, 1, 2, 7, 40):
        values = [3 * value - 20 for value in range(size)]
        as_list, as_vector = list(values), vec[i64](values)
        first, second = Generator(size), Generator(size)
        first.shuffle(as_list)
        second.shuffle_vector(as_vector)
        assert list(as_vector) == as_list
        assert first.next_u32() == second.next_u32()  # and the same number of draws


def test_copy_continues_the_same_stream_independently() -> None:
    generator = Generator(4)
    generator.next_u32()
    twin = generator.copy()
    assert [twin.next_u32() for _ in range(5)] == [generator.next_u32() for _ in range(5)]


def test_random_floats_lie_in_the_unit_interval_with_mean_one_half() -> None:
    generator = Generator(8)
    values = [generator.random() for _ in range(20000)]
    assert all(0.0 <= value < 1.0 for value in values)
    assert abs(sum(values) / len(values) - 0.5) < 0.01
