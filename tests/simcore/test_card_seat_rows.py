"""``CardColumns.add_seat_rows``: a seat's card rows in one call give the very
rows that appending value by value gives (what the games' ``add_card_rows``
did before, and what code without the bulk call still does)."""

from __future__ import annotations

import pytest

from simcore.api import CardColumns


def _appended_one_by_one(seat: int, cards: list[int], copies: tuple[int, ...], counters: list[list[int]],
                         first_played: dict[int, int], columns: CardColumns) -> None:
    for card in cards:
        columns.seat.append(seat)
        columns.card.append(card)
        columns.copies.append(copies[card])
        for index, counter in enumerate(counters):
            columns.counters[index].append(counter[card])
        columns.first_played_turn.append(first_played.get(card, -1))


def _rows(columns: CardColumns) -> list[tuple[int, ...]]:
    return list(zip(columns.seat, columns.card, columns.copies, *columns.counters, columns.first_played_turn,
                    strict=True))


def test_seat_rows_in_one_call_equal_the_rows_appended_value_by_value() -> None:
    copies = (2, 1, 3, 1, 1)
    seats = [
        (0, [0, 2, 3], [[1, 0, 2, 5, 0], [0, 0, 7, 1, 0], [3, 3, 3, 3, 3]], {2: 4, 3: 1}),
        (1, [4, 1], [[0, 1, 0, 0, 9], [0, 2, 0, 0, 0], [1, 2, 3, 4, 5]], {4: 2, 0: 6}),
        (2, [], [[0] * 5, [0] * 5, [0] * 5], {}),
    ]
    bulk, one_by_one = CardColumns(3), CardColumns(3)
    for seat, cards, counters, first_played in seats:
        bulk.add_seat_rows(seat, cards, copies, counters, first_played)
        _appended_one_by_one(seat, cards, copies, counters, first_played, one_by_one)
    assert _rows(bulk) == _rows(one_by_one)
    assert _rows(bulk) == [(0, 0, 2, 1, 0, 3, -1), (0, 2, 3, 2, 7, 3, 4), (0, 3, 1, 5, 1, 3, 1),
                           (1, 4, 1, 9, 0, 5, 2), (1, 1, 1, 1, 2, 2, -1)]


def test_a_counter_list_per_counter_column_is_required() -> None:
    columns = CardColumns(3)
    with pytest.raises(ValueError, match="2 counters for 3 counter columns"):
        columns.add_seat_rows(0, [0], (1,), [[0], [0]], {})
    assert len(columns) == 0
