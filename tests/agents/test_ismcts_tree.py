"""ISMCTS tree bookkeeping: one int key per (seat, action) child, children found by key."""

from __future__ import annotations

from simcore.agents.ismcts import MOST_CHILDREN_SCANNED, SEAT_BITS, Children, Node, child_key


def test_every_seat_and_action_pair_has_its_own_child_key() -> None:
    pairs = [(seat, action) for seat in range(1 << SEAT_BITS) for action in (0, 1, 2, 255, 256, 1 << 24, (5 << 24) | 7)]
    keys = {child_key(seat, action) for seat, action in pairs}
    assert len(keys) == len(pairs)
    assert child_key(1, 0) != child_key(0, 1) and child_key(0, 1 << 40) > 0


def test_children_are_found_by_key_in_the_order_added_below_and_above_the_scanned_size() -> None:
    children = Children()
    keys = [child_key(seat, (5 << 24) | action) for action in range(30) for seat in (0, 3)]
    nodes = [Node(key >> SEAT_BITS, key & ((1 << SEAT_BITS) - 1), 2) for key in keys]
    for count, (key, node) in enumerate(zip(keys, nodes, strict=True), start=1):
        children.add(key, node)
        assert len(children) == count and children.values() == nodes[:count]
        # Every child added so far is found under its own key, none under another.
        assert all(children.get(known) is nodes[index] for index, known in enumerate(keys[:count]))
        assert children.get(child_key(1, 7)) is None and children.get(keys[-1] + 1) is None
    assert len(children) > MOST_CHILDREN_SCANNED and children.index is not None  # the dictionary took over
