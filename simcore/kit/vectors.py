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
