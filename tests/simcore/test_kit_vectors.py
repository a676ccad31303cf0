"""The kit's native-vector helpers: sorting in place gives what ``sorted`` gives."""

from __future__ import annotations

from librt.vecs import vec
from mypy_extensions import i64

from simcore.kit.vectors import sort_in_place
from simcore.rng import Generator


def _sorted_in_place(values: list[int]) -> list[int]:
    vector = vec[i64](values)
    sort_in_place(vector)
    return list(vector)


def test_a_vector_is_sorted_ascending_as_sorted_sorts_it_whatever_its_length_range_and_repeats() -> None:
    generator = Generator(11)
    # Short vectors (insertion), long ones of cards (counting), long ones of far-apart values (sorted).
    for size in (0, 1, 2, 3, 24, 25, 26, 60, 300):
        for spread in (3, 273, 10**9):
            values = [generator.below(spread) - spread // 3 for _ in range(size)]
            assert _sorted_in_place(values) == sorted(values), (size, spread)


def test_sorting_keeps_every_value_and_its_repeats() -> None:
    values = [5, -2, 5, 5, 0, 7, -2] * 6  # 42 values: counted
    assert _sorted_in_place(values) == [-2] * 12 + [0] * 6 + [5] * 18 + [7] * 6
