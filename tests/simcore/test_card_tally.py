"""The card tally's guard: a group's packed counts hold fewer than 128 rows."""

from __future__ import annotations

import pytest

from simcore.card_tally import CardRows, tally_card_rows


def test_a_tally_of_more_seats_than_a_group_field_holds_is_refused() -> None:
    empty = b""
    rows = CardRows(0, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, 128, 5, 1, True, True,
                    True)
    with pytest.raises(ValueError, match="128 seats: a card group's counts would overflow their fields"):
        tally_card_rows(rows)
