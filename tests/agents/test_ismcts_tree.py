"""ISMCTS tree bookkeeping: one int key per (seat, action) child."""

from __future__ import annotations

from simcore.agents.ismcts import SEAT_BITS, child_key


def test_every_seat_and_action_pair_has_its_own_child_key() -> None:
    pairs = [(seat, action) for seat in range(1 << SEAT_BITS) for action in (0, 1, 2, 255, 256, 1 << 24, (5 << 24) | 7)]
    keys = {child_key(seat, action) for seat, action in pairs}
    assert len(keys) == len(pairs)
    assert child_key(1, 0) != child_key(0, 1) and child_key(0, 1 << 40) > 0
