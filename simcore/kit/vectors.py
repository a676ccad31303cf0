"""Native integer vectors (mypyc's ``vec[i64]``, ``librt.vecs``) the kit keeps:
the card stats' counters and the zones' ``seen`` masks. Compiled, reading and
writing one is a native load or store; interpreted, ``librt.vecs`` is the same
type, so both cores hold the same values."""

from __future__ import annotations

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

_FILLED: Final[dict[int, vec[i64]]] = {}
"""Per fill value, the longest vector of it made so far (``filled`` slices it)."""


def filled(value: i64, size: i64) -> vec[i64]:
    """A new vector of ``size`` times ``value``: a slice (one copy loop in C) of
    a kept vector, instead of a list of ``size`` Python ints converted one by
    one (every game and search copy makes its card stats; a shuffle marks every
    card of a pile unseen)."""
    kept = _FILLED.get(value)
    if kept is None or len(kept) < size:
        length: i64 = 64 if kept is None else 2 * len(kept)
        if length < size:
            length = size
        kept = vec[i64]([value] * length)
        _FILLED[value] = kept
    return kept[:size]


def fill(values: vec[i64], start: i64, count: i64, value: i64) -> None:
    """Set ``values[start:start + count]`` to ``value`` in place (a native loop)."""
    at = start
    end = start + count
    while at < end:
        values[at] = value
        at += 1


_INSERTION_SORT_MOST: Final = 24
"""``sort_in_place`` sorts at most this many values by insertion (fewer
instructions than counting for a short vector)."""


def sort_in_place(values: vec[i64]) -> None:
    """Sort ``values`` ascending, in place, with native loops (no boxed ints):
    insertion for a short vector, counting for values in a range not much wider
    than the vector (cards, the kit's use), ``sorted`` otherwise."""
    index: i64  # machine integers: native indexing and comparisons
    at: i64
    offset: i64
    value: i64
    count = len(values)
    if count <= _INSERTION_SORT_MOST:
        for index in range(1, count):
            value = values[index]
            at = index
            while at > 0 and values[at - 1] > value:
                values[at] = values[at - 1]
                at -= 1
            values[at] = value
        return
    lowest = values[0]
    highest = lowest
    for value in values:
        if value < lowest:
            lowest = value
        elif value > highest:
            highest = value
    width = highest - lowest + 1
    if width > 4 * count + 256:
        ordered = sorted([int(value) for value in values])
        for index in range(count):
            values[index] = ordered[index]
        return
    tally = filled(0, width)
    for value in values:
        tally[value - lowest] += 1
    at = 0
    for offset in range(width):
        repeats = tally[offset]
        while repeats > 0:  # a while loop: ``range`` of a vector item boxes its bound
            values[at] = lowest + offset
            at += 1
            repeats -= 1
