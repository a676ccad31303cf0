"""CardStats: counters per (seat, counter, card) written as typed card rows."""

from __future__ import annotations

import pytest

from simcore.api import CardColumns
from simcore.kit.cardstats import CardStats
from simcore.kit.vectors import filled


def test_rows_are_written_for_touched_cards_only_with_every_counter_in_order() -> None:
    stats = CardStats(2, 3, 4)
    stats.add(0, 0, 2)
    stats.add(0, 1, 2, 5)
    stats.note_played(1, 2, 3, turn=4)
    stats.note_played(1, 2, 3, turn=6)
    stats.add(1, 1, 0)  # counter 1 does not make a row below
    columns = CardColumns(3)
    stats.add_rows(columns, ("a", "b", "c", "d"), (1, 2, 3, 4), row_counters=(0, 2))
    assert columns.names == ("a", "b", "c", "d")
    assert list(columns.seat) == [0, 1] and list(columns.card) == [2, 3] and list(columns.copies) == [3, 4]
    assert [list(column) for column in columns.counters] == [[1, 0], [5, 0], [0, 2]]
    assert list(columns.first_played_turn) == [-1, 4]


def test_a_copy_is_independent_and_set_overwrites() -> None:
    stats = CardStats(1, 1, 2)
    stats.add(0, 0, 1)
    copy = stats.copy()
    copy.add(0, 0, 1)
    copy.note_played(0, 0, 0, 3)
    assert stats.get(0, 0, 1) == 1 and copy.get(0, 0, 1) == 2
    assert stats.first_played_turn(0, 0) == -1 and copy.first_played_turn(0, 0) == 3
    copy.set(0, 0, 1, 9)
    assert copy.get(0, 0, 1) == 9


def test_a_whole_counter_is_set_or_copied_from_another_for_one_seat_only() -> None:
    stats = CardStats(2, 3, 3)
    stats.set_counter(1, 0, [4, 0, 7])
    stats.copy_counter(1, 0, 2)
    assert [stats.get(1, 2, card) for card in range(3)] == [4, 0, 7]
    assert [stats.get(0, counter, card) for counter in range(3) for card in range(3)] == [0] * 9
    assert [stats.get(1, 1, card) for card in range(3)] == [0, 0, 0]


def test_filled_vectors_have_the_asked_size_and_value_and_are_independent() -> None:
    first = filled(-1, 3)
    longer = filled(-1, 200)  # past the kept vector's length: made anew
    first[0] = 5
    assert list(first) == [5, -1, -1] and len(longer) == 200 and set(longer) == {-1}
    assert list(filled(-1, 2)) == [-1, -1] and list(filled(0, 0)) == []


def test_a_counter_beyond_16_bits_is_refused_in_one_line_when_its_row_is_written() -> None:
    stats = CardStats(1, 2, 3)
    stats.add(0, 0, 1)
    stats.add(0, 1, 1, 40000)
    with pytest.raises(OverflowError, match=r"^40000 does not fit a 16-bit column$"):
        stats.add_rows(CardColumns(2), ("a", "b", "c"), (1, 1, 1), row_counters=(0,))


def test_a_negative_count_copies_or_first_turn_beyond_16_bits_is_refused_too() -> None:
    negative = CardStats(1, 2, 3)
    negative.add(0, 0, 1)
    negative.add(0, 1, 1, -40000)
    late = CardStats(1, 2, 3)
    late.note_played(0, 0, 1, 33000)
    for stats, copies, value in ((negative, (1, 1, 1), -40000), (late, (1, 1, 1), 33000),
                                 (late, (1, 70000, 1), 70000)):
        with pytest.raises(OverflowError, match=rf"^{value} does not fit a 16-bit column$"):
            stats.add_rows(CardColumns(2), ("a", "b", "c"), copies, row_counters=(0,))


def test_rows_of_several_games_follow_each_other_in_every_column() -> None:
    columns = CardColumns(1)
    for game in range(3):
        stats = CardStats(2, 1, 2)
        stats.add(game % 2, 0, 1, game + 1)
        stats.add_rows(columns, ("a", "b"), (4, 5), row_counters=(0,))
    assert list(columns.seat) == [0, 1, 0] and list(columns.card) == [1, 1, 1]
    assert list(columns.copies) == [5, 5, 5] and list(columns.counters[0]) == [1, 2, 3]
    assert list(columns.first_played_turn) == [-1, -1, -1]
