"""A shard's card rows added up in one native pass: the sums behind its card views.

``workers.counts`` makes a shard's ``card_counts`` and ``card_turn_counts``
tables (the SQL of ``analytics.views.card_counts_sql`` and
``_card_turn_counts`` is their definition) from what ``tally_card_rows``
adds up here, per key (agent, card) and per (agent, card, first turn
played). A card row is counted once, where numpy made a dozen passes over
the shard's million rows (8 µs of a 40 µs Divvy game went to them); this
module is compiled with the rules core, so each row is a few native loads
and adds.

The SQL clusters the clustered rates by (game, agent, card): the rows of
one game whose seats hold the same agent and card are one group. A game's
rows are consecutive, so each group is gathered while its game's rows are
read and folded into the key's sums when the next game begins.

The columns arrive as little-endian bytes, one buffer per column
(``workers.counts`` hands over numpy buffers), and the sums leave as one
buffer of little-endian int64 each, for numpy to read without a Python
object per value.
"""

from __future__ import annotations

from typing import Final, final

from librt.strings import BytesWriter, read_i16_le, read_i32_le, write_i64_le
from librt.vecs import vec
from mypy_extensions import i64

from simcore.kit.vectors import filled

# A card row's flags that the card views filter by, one bit each, so that a
# row's flags are one number (its pattern) and one histogram of (key, pattern)
# counts the rows behind every ``count(*) FILTER (WHERE ...)`` of the card
# counts. The rates' flags are the low four bits.
IN_HAND: Final = 1
WON: Final = 2
PLAYED: Final = 4
PLAYABLE: Final = 8
OPENING: Final = 16
DRAWN_LATER: Final = 32
DRAWN: Final = 64
TURN_PLAYED: Final = 128
PATTERNS: Final = 256

COUNTED_FLAGS: Final = {
    "games_in_hand": IN_HAND, "wins_in_hand": IN_HAND | WON,
    "games_opening": OPENING, "wins_opening": OPENING | WON,
    "games_drawn_later": DRAWN_LATER, "wins_drawn_later": DRAWN_LATER | WON,
    "games_drawn": DRAWN, "wins_when_drawn": DRAWN | WON,
    "games_played": PLAYED, "wins_played": PLAYED | WON,
    "games_played_in_hand": IN_HAND | PLAYED,
    "games_playable": PLAYABLE, "games_played_when_playable": PLAYABLE | PLAYED,
    "n_turn_played": TURN_PLAYED,
}
"""The card counts that count rows (each a ``count(*) FILTER (WHERE ...)`` of
``analytics.views.card_counts_sql``): the flags a row has to have all of."""

RATES: Final = ("gih", "played", "play", "playable")
"""The clustered rates (``analytics.views.CARD_RATES``), in this order: a
rate's seat-games and "wins" are its pattern flags (``packed_rate_flags``)."""

KEY_SUM_NAMES: Final = ("times_drawn", "times_played", "times_playable", "sum_turn_played")
"""The sums kept per key, in this order."""

TURN_SUMS: Final = ("games_played", "wins_played", "played_clusters", "played_n_sq", "played_w_sq", "played_nw")
"""The sums kept per (key, first turn played), in this order."""

_KEY_WIDTH: Final = 4  # len(KEY_SUM_NAMES)
_TURN_WIDTH: Final = 6
_GROUP_WIDTH: Final = 8  # n and w of each rate, for one game's group


_FIELD_BITS: Final = 7
"""Bits of each rate's n and w in a group's packed counts: a group holds at most
one row per seat of one game, so fewer than 128 seats leave no field overflowing."""


def packed_rate_flags(pattern: i64) -> i64:
    """The n and w (0 or 1) of each rate (``RATES`` order) of a row with
    ``pattern``, packed ``_FIELD_BITS`` apart (rate ``r``'s n at bit ``14 r``, its w
    seven bits higher): added up over a group's rows, each field is the group's count."""
    # The flags' bits (IN_HAND 1, WON 2, PLAYED 4, PLAYABLE 8) shifted down to 0 or 1.
    in_hand = pattern & 1
    won = (pattern >> 1) & 1
    played = (pattern >> 2) & 1
    playable = (pattern >> 3) & 1
    fields = (in_hand, in_hand & won, played, played & won, in_hand, in_hand & played, playable, playable & played)
    packed: i64 = 0
    field: i64
    for field in range(8):
        packed |= fields[field] << (_FIELD_BITS * field)
    return packed


@final
class CardRows:
    """One shard's card rows as little-endian column buffers, with what they mean.

    ``game`` (int32: the row's game as its position in the shard, rows of a game
    consecutive), ``seat`` (int16), ``card`` (int32: a code ``< n_cards``),
    ``drawn``, ``opening``, ``played``, ``playable`` (int16: the counters, 0
    where the game has none) and ``first_played`` (int16: -1 for never), ``won``
    (int16: 0 or 1); ``player_agent`` (int16) is each player's agent code, row
    ``game * n_seats + seat``. ``counts_hand``: the game counts draws or an
    opening hand (otherwise every card is in hand); ``counts_later``: both;
    ``counts_played``: it counts plays (otherwise a first played turn is a play).
    """

    def __init__(self, rows: i64, game: bytes, seat: bytes, card: bytes, drawn: bytes, opening: bytes,
                 played: bytes, playable: bytes, first_played: bytes, won: bytes, player_agent: bytes,
                 n_seats: i64, n_cards: i64, n_agents: i64, counts_hand: bool, counts_later: bool,
                 counts_played: bool) -> None:
        self.rows = rows
        self.game = game
        self.seat = seat
        self.card = card
        self.drawn = drawn
        self.opening = opening
        self.played = played
        self.playable = playable
        self.first_played = first_played
        self.won = won
        self.player_agent = player_agent
        self.n_seats = n_seats
        self.n_cards = n_cards
        self.n_agents = n_agents
        self.counts_hand = counts_hand
        self.counts_later = counts_later
        self.counts_played = counts_played


@final
class CardTally:
    """The sums of a shard's card rows, as int64 little-endian bytes.

    ``patterns``: keys x ``PATTERNS``, how many rows of each key have each
    pattern of flags; ``key_sums``: keys x ``KEY_SUM_NAMES``; ``rate_groups``:
    keys x ``RATES`` x ``side`` x ``side``, how many of the key's per-game groups
    had each (n, w) of each clustered rate (n > 0; ``side``: the seats + 1);
    ``turn_sums``: keys x ``n_turns`` x ``TURN_SUMS``,
    turn ``t`` the first played turn ``t`` (0 to ``n_turns`` - 1). A key is
    ``agent * n_cards + card``.
    """

    def __init__(self, patterns: bytes, key_sums: bytes, rate_groups: bytes, side: i64, turn_sums: bytes,
                 n_turns: i64) -> None:
        self.patterns = patterns
        self.key_sums = key_sums
        self.rate_groups = rate_groups
        self.side = side
        self.turn_sums = turn_sums
        self.n_turns = n_turns


def _row_pattern(drawn: i64, opening: i64, played: i64, playable: i64, first_played: i64, won: i64,
                 rows: CardRows) -> i64:
    """A row's flags (the SQL's ``in_hand``, ``won``, ``was_played`` ...) as one number."""
    in_hand = (drawn > 0 or opening > 0) if rows.counts_hand else True
    was_played = played > 0 if rows.counts_played else first_played >= 0
    pattern: i64 = 0
    if in_hand:
        pattern |= IN_HAND
    if won:
        pattern |= WON
    if was_played:
        pattern |= PLAYED
        if first_played >= 0:
            pattern |= TURN_PLAYED
    if playable > 0:
        pattern |= PLAYABLE
    if opening > 0:
        pattern |= OPENING
    if rows.counts_later and drawn > opening:
        pattern |= DRAWN_LATER
    if drawn > 0:
        pattern |= DRAWN
    return pattern


def _bytes_of(values: vec[i64]) -> bytes:
    writer = BytesWriter()
    for value in values:
        write_i64_le(writer, value)
    return writer.getvalue()


@final
class _GameGroups:
    """The groups of the game being read, one per key: the packed n and w of
    each rate (``packed_rate_flags`` summed; 0: no row of the key yet) and the
    chain of the group's rows played (their first turns and wins; ``last_played``:
    the last entry, -1 for none). Kept from game to game (only the keys a game
    touched are cleared), so a game allocates nothing."""

    def __init__(self, n_keys: i64, most_rows: i64) -> None:
        self.packed = filled(0, n_keys)
        self.last_played = filled(-1, n_keys)
        self.touched = filled(0, n_keys)
        self.n_touched: i64 = 0
        self.played_turn = filled(0, most_rows)
        self.played_won = filled(0, most_rows)
        self.played_before = filled(0, most_rows)
        self.n_played: i64 = 0

    def fold(self, rate_groups: vec[i64], side: i64, turn_sums: vec[i64], n_turns: i64) -> None:
        """Count each group's (n, w) of each rate and its rows played, and clear the groups."""
        packed, last_played = self.packed, self.last_played
        position: i64
        rate: i64
        mask: i64 = (1 << _FIELD_BITS) - 1
        for position in range(self.n_touched):
            key = self.touched[position]
            counts = packed[key]
            for rate in range(4):
                n = (counts >> (2 * _FIELD_BITS * rate)) & mask
                if n:
                    w = (counts >> ((2 * rate + 1) * _FIELD_BITS)) & mask
                    rate_groups[((key * 4 + rate) * side + n) * side + w] += 1
            packed[key] = 0
            if last_played[key] >= 0:
                self._fold_turns(key, turn_sums, n_turns)
                last_played[key] = -1
        self.n_touched = 0
        self.n_played = 0

    def _fold_turns(self, key: i64, turn_sums: vec[i64], n_turns: i64) -> None:
        """The group's rows played, grouped by first turn (a few rows at most:
        one per seat of the key's agent), into the (key, turn) sums."""
        played_turn, played_won, played_before = self.played_turn, self.played_won, self.played_before
        entry = self.last_played[key]
        while entry >= 0:
            turn = played_turn[entry]
            if turn >= 0:
                n: i64 = 1
                w: i64 = played_won[entry]
                other = played_before[entry]
                while other >= 0:
                    if played_turn[other] == turn:
                        n += 1
                        w += played_won[other]
                        played_turn[other] = -1  # counted
                    other = played_before[other]
                at = (key * n_turns + turn) * _TURN_WIDTH
                turn_sums[at] += n
                turn_sums[at + 1] += w
                turn_sums[at + 2] += 1  # the group: a cluster
                turn_sums[at + 3] += n * n
                turn_sums[at + 4] += w * w
                turn_sums[at + 5] += n * w
            entry = played_before[entry]


def tally_card_rows(rows: CardRows) -> CardTally:
    """Add up ``rows`` (see ``CardTally`` for what is summed)."""
    n_cards, n_seats = rows.n_cards, rows.n_seats
    if n_seats >= 1 << _FIELD_BITS:
        raise ValueError(f"{n_seats} seats: a card group's counts would overflow their fields")
    n_keys: i64 = rows.n_agents * n_cards
    n_turns: i64 = 1
    index: i64
    for index in range(rows.rows):
        turn: i64 = i64(read_i16_le(rows.first_played, 2 * index))
        if turn >= n_turns:
            n_turns = turn + 1
    patterns = filled(0, n_keys * PATTERNS)
    key_sums = filled(0, n_keys * _KEY_WIDTH)
    turn_sums = filled(0, n_keys * n_turns * _TURN_WIDTH)
    side: i64 = n_seats + 1
    rate_groups = filled(0, n_keys * 4 * side * side)
    groups = _GameGroups(n_keys, n_seats * n_cards)
    pattern_rates = vec[i64]([packed_rate_flags(pattern) for pattern in range(16)])
    # The vectors and buffers as locals: read from their objects at each row,
    # each use would also count a reference up and down.
    packed, last_played, touched = groups.packed, groups.last_played, groups.touched
    played_turn, played_won, played_before = groups.played_turn, groups.played_won, groups.played_before
    game_column, seat_column, card_column, agents = rows.game, rows.seat, rows.card, rows.player_agent
    drawn_column, opening_column, played_column, playable_column = rows.drawn, rows.opening, rows.played, rows.playable
    first_played_column, won_column = rows.first_played, rows.won
    current_game: i64 = -1
    for index in range(rows.rows):
        game: i64 = i64(read_i32_le(game_column, 4 * index))
        if game != current_game:
            groups.fold(rate_groups, side, turn_sums, n_turns)
            current_game = game
        seat: i64 = i64(read_i16_le(seat_column, 2 * index))
        card: i64 = i64(read_i32_le(card_column, 4 * index))
        key: i64 = i64(read_i16_le(agents, 2 * (game * n_seats + seat))) * n_cards + card
        drawn: i64 = i64(read_i16_le(drawn_column, 2 * index))
        opening: i64 = i64(read_i16_le(opening_column, 2 * index))
        played: i64 = i64(read_i16_le(played_column, 2 * index))
        playable: i64 = i64(read_i16_le(playable_column, 2 * index))
        first_played: i64 = i64(read_i16_le(first_played_column, 2 * index))
        won: i64 = i64(read_i16_le(won_column, 2 * index))
        pattern = _row_pattern(drawn, opening, played, playable, first_played, won, rows)
        patterns[key * PATTERNS + pattern] += 1
        at: i64 = key * _KEY_WIDTH
        key_sums[at] += drawn
        key_sums[at + 1] += played
        key_sums[at + 2] += playable
        rates = pattern_rates[pattern & 15]
        if rates:
            # Every row counted here adds to its group (a played row has PLAYED):
            # a group at 0 is one the game has not touched yet.
            if packed[key] == 0:
                touched[groups.n_touched] = key
                groups.n_touched += 1
            packed[key] += rates
        if pattern & TURN_PLAYED:
            key_sums[at + 3] += first_played
            entry = groups.n_played
            played_turn[entry] = first_played
            played_won[entry] = won
            played_before[entry] = last_played[key]
            last_played[key] = entry
            groups.n_played = entry + 1
    groups.fold(rate_groups, side, turn_sums, n_turns)
    return CardTally(_bytes_of(patterns), _bytes_of(key_sums), _bytes_of(rate_groups), side, _bytes_of(turn_sums),
                     n_turns)
