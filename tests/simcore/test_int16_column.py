"""``Int16Column``: the typed card columns the games append to like lists."""

from __future__ import annotations

import numpy
import pytest

from simcore.api import CardColumns, Int16Column


def test_appended_values_read_back_by_index_iteration_and_as_little_endian_bytes() -> None:
    column = Int16Column()
    for value in (0, 1, -1, 300, 32767, -32768):
        column.append(value)
    assert len(column) == 6
    assert list(column) == [0, 1, -1, 300, 32767, -32768]
    assert column[3] == 300 and column[-1] == -32768 and column[-6] == 0
    assert column.to_bytes() == numpy.array([0, 1, -1, 300, 32767, -32768], dtype="<i2").tobytes()


def test_a_value_outside_16_bits_is_refused_and_the_column_is_unchanged() -> None:
    column = Int16Column()
    column.append(7)
    for value in (32768, -32769, 1 << 40):
        with pytest.raises(OverflowError, match="does not fit a 16-bit column"):
            column.append(value)
    assert list(column) == [7]


def test_an_index_past_either_end_is_an_index_error() -> None:
    column = Int16Column()
    column.append(5)
    with pytest.raises(IndexError):
        column[1]
    with pytest.raises(IndexError):
        column[-2]


def test_card_columns_count_rows_by_the_seat_column_and_hold_one_column_per_counter() -> None:
    columns = CardColumns(3)
    assert len(columns) == 0 and len(columns.counters) == 3
    columns.seat.append(1)
    columns.counters[2].append(4)
    assert len(columns) == 1 and list(columns.counters[2]) == [4] and list(columns.counters[0]) == []


def test_extend_appends_a_whole_list_and_extend_repeated_one_value_many_times() -> None:
    column = Int16Column()
    column.extend([3, -2, 32767])
    column.extend_repeated(-5, 3)
    column.extend_repeated(9, 0)
    assert list(column) == [3, -2, 32767, -5, -5, -5]


def test_extend_picked_appends_the_values_at_the_picked_positions_after_an_offset() -> None:
    values = [10, 11, 12, 13, 14, 15, 16]
    column = Int16Column()
    column.extend_picked(values, [4, 0, 2])
    column.extend_picked(values, [0, 3], 3)  # values[3], values[6]
    column.extend_picked_from_tuple((7, 8, 9), [2, 2, 0])
    assert list(column) == [14, 10, 12, 13, 16, 9, 9, 7]


def test_every_bulk_append_refuses_a_value_outside_16_bits() -> None:
    column = Int16Column()
    with pytest.raises(OverflowError, match="40000 does not fit a 16-bit column"):
        column.extend([1, 40000])
    with pytest.raises(OverflowError, match="-40000 does not fit a 16-bit column"):
        column.extend_picked([0, -40000], [1])
    with pytest.raises(OverflowError, match="32768 does not fit a 16-bit column"):
        column.extend_picked_from_tuple((32768,), [0])
    with pytest.raises(OverflowError, match="70000 does not fit a 16-bit column"):
        column.extend_repeated(70000, 2)
