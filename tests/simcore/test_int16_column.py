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
