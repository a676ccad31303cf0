"""Card statistics: the per-(seat, counter, card) numbers of the ``cards`` table.

A game names its counters once (``GameInfo.card_counters``, e.g.
``("in_opening_hand", "drawn", "played", "playable")``) and counts into one
``CardStats`` while it plays: ``stats.add(seat, DRAWN, card)``,
``stats.note_played(seat, PLAYED, card, turn)`` (which also keeps the turn of
the first play). ``add_rows`` then writes one row per (seat, card) that any
of the given counters touched into the typed ``simcore.api.CardColumns``,
the counters in ``card_counters`` order. All numbers live in one flat
``vec[i64]`` (mypyc's unboxed vector; interpreted, ``librt.vecs``' own), so
the compiled core counts with native loads and stores, and a clone copies
them with one memory copy instead of a reference per counter.
"""

from __future__ import annotations

from typing import Final, final

from librt.strings import BytesWriter, write_i16_le
from librt.vecs import append, vec
from mypy_extensions import i16, i64, mypyc_attr

from simcore.api import INT16_LARGEST, INT16_SMALLEST, CardColumns, int16_overflow
from simcore.kit.vectors import filled


@final
@mypyc_attr(acyclic=True)  # holds numbers only: never in a reference cycle
class CardStats:
    """Counters per seat, counter and card, and the turn of each first play."""

    n_seats: i64
    n_counters: i64  # machine integers when compiled: the index arithmetic stays native
    n_cards: i64
    counts: vec[i64]
    first_played: vec[i64]

    def __init__(self, n_seats: int, n_counters: int, n_cards: int) -> None:
        self.n_seats = n_seats
        self.n_counters = n_counters
        self.n_cards = n_cards
        self.counts = filled(0, n_seats * n_counters * n_cards)
        self.first_played = filled(-1, n_seats * n_cards)

    def add(self, seat: i64, counter: i64, card: i64, amount: i64 = 1) -> None:
        """Count ``amount`` more of ``counter`` for ``seat``'s ``card``."""
        self.counts[(seat * self.n_counters + counter) * self.n_cards + card] += amount

    def offset(self, seat: i64, counter: i64) -> i64:
        """Where ``seat``'s ``counter`` starts in ``counts`` (card ``c`` at
        ``offset + c``): a hot loop over many cards adds to ``counts`` directly."""
        return (seat * self.n_counters + counter) * self.n_cards

    def get(self, seat: i64, counter: i64, card: i64) -> i64:
        """The count of ``counter`` for ``seat``'s ``card``."""
        return self.counts[(seat * self.n_counters + counter) * self.n_cards + card]

    def set(self, seat: i64, counter: i64, card: i64, value: i64) -> None:
        """Set a counter outright (for counters computed at the end of a game)."""
        self.counts[(seat * self.n_counters + counter) * self.n_cards + card] = value

    def set_counter(self, seat: i64, counter: i64, values: list[int]) -> None:
        """Set ``seat``'s ``counter`` of every card at once (card ``c`` to ``values[c]``)."""
        base = (seat * self.n_counters + counter) * self.n_cards
        counts = self.counts
        for card in range(self.n_cards):
            counts[base + card] = values[card]

    def copy_counter(self, seat: i64, source: i64, target: i64) -> None:
        """Set ``seat``'s ``target`` counter of every card to its ``source`` counter."""
        counts, n_cards = self.counts, self.n_cards
        source_base = (seat * self.n_counters + source) * n_cards
        target_base = (seat * self.n_counters + target) * n_cards
        for card in range(n_cards):
            counts[target_base + card] = counts[source_base + card]

    def note_played(self, seat: i64, counter: i64, card: i64, turn: i64) -> None:
        """Count one play of ``card`` by ``seat`` in ``counter`` and keep the turn of its first play."""
        self.counts[(seat * self.n_counters + counter) * self.n_cards + card] += 1
        index = seat * self.n_cards + card
        if self.first_played[index] < 0:
            self.first_played[index] = turn

    def first_played_turn(self, seat: i64, card: i64) -> i64:
        """The turn ``seat`` first played ``card``; -1 for never."""
        return self.first_played[seat * self.n_cards + card]

    def copy(self) -> CardStats:
        """An independent copy."""
        twin = CardStats(0, self.n_counters, self.n_cards)
        twin.n_seats = self.n_seats
        # Slices: a copy loop in C (the vec constructor would append item by item).
        twin.counts = self.counts[:]
        twin.first_played = self.first_played[:]
        return twin

    def scratch(self) -> CardStats:
        """Card stats of the same shape whose numbers nobody reads, shared by
        every caller: a search's copies count into it (a search never records
        its games), instead of copying the real game's counters at every
        re-sampling (2.5% of a Party Wanted search)."""
        shape = (self.n_seats, self.n_counters, self.n_cards)
        stats = _SCRATCH.get(shape)
        if stats is None:
            stats = CardStats(self.n_seats, self.n_counters, self.n_cards)
            _SCRATCH[shape] = stats
        return stats

    def add_rows(self, columns: CardColumns, names: tuple[str, ...], copies: tuple[int, ...],
                 row_counters: tuple[int, ...]) -> None:
        """Append one row per (seat, card) with any of ``row_counters``
        non-zero: seat, card, ``copies[card]``, every counter, first played turn."""
        columns.names = names
        n_seats, n_counters, n_cards = self.n_seats, self.n_counters, self.n_cards
        counts, first_played = self.counts, self.first_played
        if n_seats > INT16_LARGEST or n_cards > INT16_LARGEST:
            raise int16_overflow(max(n_seats, n_cards))
        # Read once into typed locals, so that the loops below index native lists
        # with machine integers and write each value straight into its column's
        # buffer: the writes are inline, and only the values that could leave
        # int16 (copies, turns, counts; seats and cards were checked above) are
        # checked, inline too (a call per value cost as much as the rest).
        # ``copies`` is read for the cards with a row only: converting all of them per game
        # (273 in Party Wanted, a few dozen rows) cost more than the rows' writing.
        row_offsets = vec[i64]([counter * n_cards for counter in row_counters])
        seat_buffer, card_buffer = columns.seat.buffer, columns.card.buffer
        copies_buffer, first_played_buffer = columns.copies.buffer, columns.first_played_turn.buffer
        counter_buffers: list[BytesWriter] = [column.buffer for column in columns.counters]
        seat: i64
        card: i64
        counter: i64
        value: i64
        touched = vec[i64]()
        for seat in range(n_seats):
            base: i64 = seat * n_counters * n_cards
            touched = touched[:0]
            for card in range(n_cards):
                for offset in row_offsets:
                    if counts[base + offset + card]:
                        touched = append(touched, card)
                        break
            # Column by column: each buffer is looked up once per seat, not once per value.
            for card in touched:
                write_i16_le(seat_buffer, i16(seat))
                write_i16_le(card_buffer, i16(card))
                value = copies[card]
                if value < INT16_SMALLEST or value > INT16_LARGEST:
                    raise int16_overflow(value)
                write_i16_le(copies_buffer, i16(value))
                value = first_played[seat * n_cards + card]
                if value < INT16_SMALLEST or value > INT16_LARGEST:
                    raise int16_overflow(value)
                write_i16_le(first_played_buffer, i16(value))
            for counter in range(n_counters):
                buffer = counter_buffers[counter]
                counter_base = base + counter * n_cards
                for card in touched:
                    value = counts[counter_base + card]
                    if value < INT16_SMALLEST or value > INT16_LARGEST:
                        raise int16_overflow(value)
                    write_i16_le(buffer, i16(value))

_SCRATCH: Final[dict[tuple[i64, i64, i64], CardStats]] = {}
"""Per shape (seats, counters, cards), the card stats ``CardStats.scratch`` shares."""
