"""The count views of one shard, computed by its task from the rows in memory.

``analytics.views`` defines the *count views* (``COUNT_VIEWS``: seats,
agents, factions, matchups, teams, cards, first-play turns, runs, game
lengths), the additive aggregates every metric of the report reads, in SQL;
the report adds them up over an experiment's shards (``analytics.partials``).
Counting a finished shard in the driver means reading all its rows back
(for ``experiments/divvy_baseline.toml``, 78 s after a 152 s run's summary,
shard after shard). So each shard task counts its own rows while they are
in memory and writes the counts beside its Parquet files
(``workers.storage.counts_path``); ``count_shard`` does the counting.

It computes the views with numpy, not by running their SQL: the card views
group a shard's card rows by game, agent and card (about 590,000 groups for
10,000 Divvy games), which cost DuckDB 0.55-0.73 s and Polars 0.4-0.5 s of
CPU on the shard's Arrow tables in memory, as much as a third of the shard's
own work; here 46 ms (heuristic against random) to 85 ms (random at both
seats), README "Development". A card row's flags are one 8-bit number, so
one histogram of (agent and card, flags) counts every ``count(*) FILTER``;
a game's card rows arrive ordered by seat and card, so when every seat has
its own agent each row is its own per-game group and nothing is searched,
and otherwise the groups are numbered (or, when there are many possible
ones, sorted). The SQL stays the definition:
``tests/workers/test_shard_counts.py`` checks, for every game, that both give
the same tables, value for value and type for type.

A shard holds the games of one experiment, variant and player count, each
with its ``players`` rows in seat order (``simcore.records``): the count
views' first three keys are constants here, and the ``players`` rows form a
games-by-seats matrix.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

import numpy
import pyarrow as pa
import pyarrow.compute as pc

from analytics.views import COUNT_VIEWS

CACHE_VERSION = "v2"
"""Bumped whenever a count view's meaning changes: counts written by a task (and
those cached by ``analytics.partials``) of another version are counted again."""

VIEWS_FINGERPRINT = hashlib.sha256(repr(sorted(COUNT_VIEWS.items())).encode()).hexdigest()[:16]
"""Changes whenever a count view gains, loses or renames a column, so that counts
written by another cardlab version are recomputed rather than summed wrongly."""

COUNTS_FORMAT = {"version": CACHE_VERSION, "views": VIEWS_FINGERPRINT}
"""What a shard's manifest entry records of its counts (``counts.format``): the
report uses a shard's counts only when this matches."""

COUNTS_PARQUET_OPTIONS: dict[str, object] = {"compression": "none", "write_statistics": False}
"""How a shard's count files are written: a few kB each, read whole and summed (no
filter reads their statistics); uncompressed and without statistics the nine files
of a shard take 2.4 ms to encode instead of 6.2 ms with zstd, for 50 kB instead of 44
kB (10,000 Divvy games)."""

_KEY_TYPES: dict[str, pa.DataType] = {
    "experiment": pa.string(), "variant": pa.string(), "n_players": pa.int8(), "seat": pa.int8(),
    "agent": pa.string(), "faction": pa.string(), "opponent": pa.string(), "composition": pa.string(),
    "card": pa.string(), "first_played_turn": pa.int16(), "level_reached": pa.int32(), "wipes": pa.int32(),
    "won": pa.bool_(), "turns": pa.int32(), "decisions": pa.int32(), "draw": pa.bool_(), "end_reason": pa.string(),
}
"""The types of the count views' key columns, as the SQL gives them (their additive columns are int64)."""


def count_schema(view: str) -> pa.Schema:
    """The Arrow schema of a count view: its keys, then its additive columns (``COUNT_VIEWS``)."""
    keys, additive = COUNT_VIEWS[view]
    return pa.schema([*(pa.field(name, _KEY_TYPES[name]) for name in keys),
                      *(pa.field(name, pa.int64()) for name in additive)])


@dataclass(frozen=True)
class _Coded:
    """A text column as integer codes into its distinct values (-1: null), numbered
    in the order of the column's dictionary: a game's card indices stay in order."""

    names: list[str]
    codes: numpy.ndarray

    def decode(self, codes: numpy.ndarray) -> pa.Array:
        """The text of ``codes`` (null for -1)."""
        lookup = pa.array(self.names, type=pa.string())
        return lookup.take(pa.array(codes, mask=codes < 0)) if len(codes) else pa.array([], pa.string())

    def ranks(self) -> numpy.ndarray:
        """Each code's position in the text order of the names."""
        ranks = numpy.empty(len(self.names), dtype=numpy.int64)
        ranks[sorted(range(len(self.names)), key=self.names.__getitem__)] = numpy.arange(len(self.names))
        return ranks


def _coded(column: pa.ChunkedArray) -> _Coded:
    """Codes of a text column, plain or dictionary-encoded (equal texts, one code)."""
    array = column.combine_chunks()
    if not pa.types.is_dictionary(array.type):
        array = pc.dictionary_encode(array)
    dictionary = array.dictionary.to_pylist()
    names = list(dict.fromkeys(dictionary))
    position = {name: index for index, name in enumerate(names)}
    indices = (pc.fill_null(array.indices, -1) if array.indices.null_count else array.indices).to_numpy()
    if len(names) == len(dictionary):  # each text once (a game's card names): the indices are the codes
        return _Coded(names, indices.astype(numpy.int64))
    # The extra last entry: -1 for a null index.
    remap = numpy.array([position[name] for name in dictionary] + [-1], dtype=numpy.int64)
    return _Coded(names, remap[indices])


def _numbers(column: pa.ChunkedArray, fill: int = 0) -> numpy.ndarray:
    """An integer or boolean column as a numpy array, nulls as ``fill``."""
    return pc.fill_null(column, fill).to_numpy() if column.null_count else column.to_numpy()


def _histogram(keys: numpy.ndarray, n_keys: int, codes: numpy.ndarray, n_codes: int) -> numpy.ndarray:
    """How many rows hold each (key, code): an ``n_keys`` x ``n_codes`` matrix."""
    return numpy.bincount(keys * n_codes + codes, minlength=n_keys * n_codes).reshape(n_keys, n_codes)


def _sums(keys: numpy.ndarray, n_keys: int, **columns: numpy.ndarray) -> dict[str, numpy.ndarray]:
    """For each key in ``range(n_keys)``, the sum of each column over the rows holding that key."""
    return {name: numpy.bincount(keys, weights=values, minlength=n_keys).astype(numpy.int64)
            for name, values in columns.items()}


def _cluster_sums(prefix: str, cells: numpy.ndarray, cell_n: numpy.ndarray,
                  cell_w: numpy.ndarray) -> dict[str, numpy.ndarray]:
    """Per key, the sums of ``n`` and ``w`` and the additive sums of a clustered rate
    (``analytics.views._cluster_sums``) over the (game, key) groups, given how many
    groups of each key fall in each cell (``cells``, keys x cells) and each cell's
    per-game counts ``n`` and ``w``."""
    return {"n": cells @ cell_n, "w": cells @ cell_w, f"{prefix}_clusters": cells @ (cell_n > 0),
            f"{prefix}_n_sq": cells @ (cell_n * cell_n), f"{prefix}_w_sq": cells @ (cell_w * cell_w),
            f"{prefix}_nw": cells @ (cell_n * cell_w)}


def _pairs(keys: numpy.ndarray, n_keys: int, n: numpy.ndarray, w: numpy.ndarray
           ) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """Groups' (small) per-game counts ``n`` and ``w`` as cells for ``_cluster_sums``:
    a histogram of the pairs (n, w) per key, and each cell's n and w."""
    size = int(max(n.max(), w.max())) + 1 if len(n) else 1
    cell_n, cell_w = numpy.divmod(numpy.arange(size * size), size)
    return _histogram(keys, n_keys, n * size + w, size * size), cell_n, cell_w


class _Shard:
    """A shard's tables as numpy arrays: G games of P seats, their players as G x P matrices."""

    def __init__(self, tables: Mapping[str, pa.Table]) -> None:
        games, players, cards = tables["games"], tables["players"], tables["cards"]
        self.games, self.cards = games, cards
        self.n_games = games.num_rows
        self.n_seats = players.num_rows // self.n_games
        shape = (self.n_games, self.n_seats)
        self.experiment = games.column("experiment")[0].as_py()
        self.variant = games.column("variant")[0].as_py()
        self.n_players = games.column("n_players")[0].as_py()
        seats = players.column("seat").to_numpy().reshape(shape)
        if players.num_rows != self.n_games * self.n_seats or (seats != numpy.arange(self.n_seats)).any():
            raise ValueError("a shard's players rows must be every seat of every game, in order")
        self.game_index = games.column("game_index").to_numpy()
        self.draw = games.column("draw").to_numpy()
        self.won = players.column("won").to_numpy().reshape(shape)
        self.agents = _coded(players.column("agent"))
        self.agent = self.agents.codes.reshape(shape)
        self.factions = _coded(players.column("faction"))
        self.faction = self.factions.codes.reshape(shape)

    def constants(self, rows: int) -> dict[str, pa.Array]:
        """The columns every count view starts with, for ``rows`` rows."""
        return {"experiment": pa.repeat(pa.scalar(self.experiment, pa.string()), rows),
                "variant": pa.repeat(pa.scalar(self.variant, pa.string()), rows),
                "n_players": pa.repeat(pa.scalar(self.n_players, pa.int8()), rows)}


def _table(view: str, shard: _Shard, keys: Mapping[str, pa.Array | pa.ChunkedArray | numpy.ndarray],
           sums: Mapping[str, numpy.ndarray]) -> pa.Table:
    """A count view's table, ordered by its keys, from its key columns and sums (one entry per row)."""
    schema = count_schema(view)
    columns = {**keys, **sums}
    length = len(next(iter(columns.values())))
    arrays = {**shard.constants(length)}
    for name, values in columns.items():
        kind = schema.field(name).type
        arrays[name] = values.cast(kind) if isinstance(values, pa.Array | pa.ChunkedArray) else pa.array(values, kind)
    table = pa.table([arrays[field.name] for field in schema], schema=schema)
    return table.sort_by([(name, "ascending") for name in COUNT_VIEWS[view][0]])


def _seat_counts(shard: _Shard) -> pa.Table:
    seats = shard.n_seats
    return _table("seat_counts", shard, {"seat": numpy.arange(seats)}, {
        "games": numpy.full(seats, shard.n_games), "wins": shard.won.sum(axis=0),
        "draws": numpy.full(seats, int(shard.draw.sum()))})


def _clustered_by_game(member: numpy.ndarray, won: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Per game: the seats in ``member`` (a games x seats mask) and those of them that won."""
    return member.sum(axis=1), (member & won).sum(axis=1)


def _per_game_rates(n: numpy.ndarray, w: numpy.ndarray) -> dict[str, int]:
    """Sums over the games where ``n`` > 0 (the (game, key) groups that exist in SQL)."""
    return {"seat_games": int(n.sum()), "wins": int(w.sum()), "games": int((n > 0).sum()),
            "win_clusters": int((n > 0).sum()), "win_n_sq": int((n * n).sum()), "win_w_sq": int((w * w).sum()),
            "win_nw": int((n * w).sum())}


def _agent_or_faction_counts(view: str, shard: _Shard, coded: _Coded, codes: numpy.ndarray) -> pa.Table:
    key = "agent" if view == "agent_counts" else "faction"
    rows: dict[str, list[int]] = {}
    present = []
    for code in range(len(coded.names)):
        n, w = _clustered_by_game(codes == code, shard.won)
        if not n.any():
            continue
        present.append(code)
        sums = _per_game_rates(n, w)
        if view == "agent_counts":
            sums["draws"] = int(n[shard.draw].sum())
        for name, value in sums.items():
            rows.setdefault(name, []).append(value)
    additive = COUNT_VIEWS[view][1]
    return _table(view, shard, {key: coded.decode(numpy.array(present, dtype=numpy.int64))},
                  {name: numpy.array(rows.get(name, []), dtype=numpy.int64) for name in additive})


def _matchup_counts(shard: _Shard) -> pa.Table:
    faction, factions = shard.faction, len(shard.factions.names)
    own, opponent, rows = [], [], []
    for j in range(factions):
        is_j = faction == j
        # A seat faces faction j when another seat of its game has it.
        faces_j = (is_j.sum(axis=1, keepdims=True) - is_j) > 0
        for i in range(factions):
            n, w = _clustered_by_game((faction == i) & faces_j, shard.won)
            if n.any():
                own.append(i)
                opponent.append(j)
                rows.append(_per_game_rates(n, w))
    additive = COUNT_VIEWS["matchup_counts"][1]
    return _table("matchup_counts", shard, {
        "faction": shard.factions.decode(numpy.array(own, dtype=numpy.int64)),
        "opponent": shard.factions.decode(numpy.array(opponent, dtype=numpy.int64))},
        {name: numpy.array([row[name] for row in rows], dtype=numpy.int64) for name in additive})


def _team_counts(shard: _Shard) -> pa.Table:
    names, ranks = shard.factions.names, shard.factions.ranks()
    # A game's composition: its seats' factions in text order, joined by "+" (nulls left
    # out; none at all: null), as string_agg(faction, '+' ORDER BY faction) gives it.
    in_order = sorted(names)
    ranked = numpy.sort(numpy.append(ranks, len(names))[shard.faction], axis=1)  # code -1: last
    # Each game's sorted ranks as one number (digits in base factions + 1), so that equal
    # compositions are equal numbers: far quicker to find than equal rows.
    base = len(names) + 1
    if base ** shard.n_seats < 2 ** 62:
        numbers = ranked @ (base ** numpy.arange(shard.n_seats, dtype=numpy.int64))
        _, first_game, of_game = numpy.unique(numbers, return_index=True, return_inverse=True)
        distinct = ranked[first_game]
    else:
        distinct, of_game = numpy.unique(ranked, axis=0, return_inverse=True)
    compositions = [None if row[0] == len(names) else "+".join(in_order[rank] for rank in row if rank < len(names))
                    for row in distinct]
    won = shard.won.any(axis=1)
    mixed = won != shard.won.all(axis=1)
    return _table("team_counts", shard, {"composition": pa.array(compositions, pa.string())},
                  _sums(of_game.reshape(-1), len(distinct), games=numpy.ones(shard.n_games), wins=won, mixed=mixed,
                        draws=shard.draw))


def _group_by(table: pa.Table, keys: tuple[str, ...], sums: tuple[str, ...]) -> tuple[dict[str, pa.Array],
                                                                                       dict[str, numpy.ndarray]]:
    """Arrow's hash grouping of a games-sized table (nulls are keys too): each key
    combination present, with the number of its rows (``games``) and the sum of each of ``sums``."""
    grouped = table.group_by(list(keys), use_threads=False).aggregate(
        [([], "count_all"), *((name, "sum") for name in sums)])
    counted = {"games": grouped.column("count_all").to_numpy()}
    counted.update({name: _numbers(grouped.column(f"{name}_sum")) for name in sums})
    return {name: grouped.column(name) for name in keys}, counted


def _run_counts(shard: _Shard) -> pa.Table:
    games = shard.games

    def column(name: str) -> pa.Array:
        if name in games.column_names:
            return games.column(name).cast(pa.int32())
        return pa.nulls(games.num_rows, pa.int32())

    table = pa.table({"level_reached": column("level_reached"), "wipes": column("wipes"),
                      "won": pc.greater(pc.list_value_length(games.column("winners")), 0)})
    keys, counted = _group_by(table, ("level_reached", "wipes", "won"), ())
    return _table("run_counts", shard, keys, counted)


def _game_counts(shard: _Shard) -> pa.Table:
    games = shard.games
    legal = games.column("legal_actions") if "legal_actions" in games.column_names else pa.nulls(games.num_rows,
                                                                                                   pa.int32())
    table = pa.table({
        "turns": games.column("turns"), "decisions": games.column("decisions"), "draw": games.column("draw"),
        "end_reason": games.column("end_reason"),
        "legal_actions": pc.fill_null(legal, 0).cast(pa.int64()),
        "legal_decisions": pc.if_else(pc.is_valid(legal), games.column("decisions"), 0).cast(pa.int64())})
    keys, counted = _group_by(table, ("turns", "decisions", "draw", "end_reason"),
                              ("legal_actions", "legal_decisions"))
    return _table("game_counts", shard, keys, counted)


# A card row's flags that the card views filter by, one bit each, so that a
# row's flags are one number (its pattern) and one histogram of (key, pattern)
# counts the rows behind every ``count(*) FILTER (WHERE ...)`` of
# ``analytics.views.card_counts_sql``. The rates' flags are the low four bits.
IN_HAND, WON, PLAYED, PLAYABLE, OPENING, DRAWN_LATER, DRAWN, TURN_PLAYED = (1 << bit for bit in range(8))
_PATTERNS = numpy.arange(256)
_RATE_PATTERNS = 16


def _has(flag: int) -> numpy.ndarray:
    """Which patterns have ``flag``."""
    return (_PATTERNS & flag) > 0


CARD_COUNTED = {
    "games_in_hand": _has(IN_HAND), "wins_in_hand": _has(IN_HAND) & _has(WON),
    "games_opening": _has(OPENING), "wins_opening": _has(OPENING) & _has(WON),
    "games_drawn_later": _has(DRAWN_LATER), "wins_drawn_later": _has(DRAWN_LATER) & _has(WON),
    "games_drawn": _has(DRAWN), "wins_when_drawn": _has(DRAWN) & _has(WON),
    "games_played": _has(PLAYED), "wins_played": _has(PLAYED) & _has(WON),
    "games_played_in_hand": _has(IN_HAND) & _has(PLAYED),
    "games_playable": _has(PLAYABLE), "games_played_when_playable": _has(PLAYABLE) & _has(PLAYED),
    "n_turn_played": _has(TURN_PLAYED),
}
"""The card counts that count rows: the patterns each counts."""

CARD_RATE_PATTERNS = {
    "gih": (_has(IN_HAND), _has(IN_HAND) & _has(WON)),
    "played": (_has(PLAYED), _has(PLAYED) & _has(WON)),
    "play": (_has(IN_HAND), _has(IN_HAND) & _has(PLAYED)),
    "playable": (_has(PLAYABLE), _has(PLAYABLE) & _has(PLAYED)),
}
"""``analytics.views.CARD_RATES`` as patterns: the seat-games each rate counts and, of them, its "wins"."""

_RATE_FLAGS = [flags[:_RATE_PATTERNS].astype(numpy.int64) for pair in CARD_RATE_PATTERNS.values() for flags in pair]
"""For each rate pattern, the n and w of each rate (in ``CARD_RATE_PATTERNS`` order)."""


def _packed_rate_flags(bits: int) -> numpy.ndarray:
    """For each rate pattern, its ``_RATE_FLAGS`` packed ``bits`` apart into one number:
    summed over a group of fewer than 2**bits rows, each field is the group's count."""
    return sum((flags << (bits * field) for field, flags in enumerate(_RATE_FLAGS)), numpy.zeros(_RATE_PATTERNS,
                                                                                                  numpy.int64))


@dataclass(frozen=True)
class _Groups:
    """Rows gathered into per-game groups whose rows share an output key: ``of_row``
    numbers each row's group and ``key`` is each group's key; ``of_row`` is None
    when every row is a group of its own (then ``key`` is the rows' keys)."""

    of_row: numpy.ndarray | None
    key: numpy.ndarray
    count: int
    largest: int
    """The rows of the largest group."""

    @classmethod
    def singles(cls, keys: numpy.ndarray) -> _Groups:
        """Every row its own group."""
        return cls(None, keys, len(keys), 1)

    @classmethod
    def runs(cls, order: numpy.ndarray, ids: numpy.ndarray, keys: numpy.ndarray) -> _Groups:
        """The rows of equal ``ids``, given an ``order`` of the rows in which equal ids are adjacent."""
        ordered = ids[order]
        starts = numpy.ones(len(ordered), dtype=numpy.bool_)
        numpy.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
        of_row = numpy.empty(len(ordered), dtype=numpy.int64)
        of_row[order] = numpy.cumsum(starts) - 1
        first_rows = numpy.flatnonzero(starts)
        largest = int(numpy.diff(first_rows, append=len(ordered)).max()) if len(first_rows) else 0
        return cls(of_row, keys[order[starts]], len(first_rows), largest)

    @classmethod
    def numbered(cls, ids: numpy.ndarray, keys: numpy.ndarray) -> _Groups:
        """The rows of equal ``ids``, numbered ``0 .. len(keys) - 1`` already: group
        ``i`` has key ``keys[i]`` (a number no row holds is an empty group)."""
        return cls(ids, keys, len(keys), int(numpy.bincount(ids, minlength=len(keys)).max()) if len(ids) else 0)

    def totals(self, values: numpy.ndarray) -> numpy.ndarray:
        """``values`` summed per group."""
        if self.of_row is None:
            return values
        return numpy.bincount(self.of_row, weights=values, minlength=self.count).astype(numpy.int64)


NUMBERED_GROUPS_PER_ROW = 2
"""When a shard's possible per-game card groups (games x agent slots x cards) are at
most this many per card row, the groups are numbered by that product directly
(Divvy, Ring of Chaos, Theseus); otherwise (Party Wanted's 273 cards, about 25
rows a game) its rows are sorted into groups."""


class _CardColumns:
    """The ``cards`` columns the card views read, as numpy arrays of the whole shard
    (a counter the game does not have is 0, and a flag that needs it is false, as
    NULL is in the SQL's filters; ``analytics.views._card_rows``)."""

    def __init__(self, shard: _Shard) -> None:
        cards = shard.cards
        present = set(cards.column_names)
        rows = cards.num_rows

        def counter(name: str) -> numpy.ndarray:
            return _numbers(cards.column(name)) if name in present else numpy.zeros(rows, numpy.int16)

        self.drawn, self.opening, self.played, self.playable = (
            counter(name) for name in ("drawn", "in_opening_hand", "played", "playable"))
        self.counts_hand = bool(present & {"drawn", "in_opening_hand"})
        self.counts_later = {"drawn", "in_opening_hand"} <= present
        self.counts_played = "played" in present
        first_played = cards.column("first_played_turn")
        self.first_played = _numbers(first_played)
        self.has_first_played = (first_played.is_valid().to_numpy(zero_copy_only=False) if first_played.null_count
                                 else numpy.ones(rows, numpy.bool_))
        self.won = cards.column("won").to_numpy()
        self.card = _coded(cards.column("card"))
        self.n_cards = max(len(self.card.names), 1)
        self.n_keys = len(shard.agents.names) * self.n_cards
        self.game = self._game_positions(shard)
        self.seat = cards.column("seat").to_numpy()
        turns = self.first_played[(self.played > 0 if self.counts_played else self.has_first_played)
                                  & self.has_first_played]
        self.first_turn = int(turns.min()) if len(turns) else 0
        self.n_turns = int(turns.max()) - self.first_turn + 1 if len(turns) else 1

    @staticmethod
    def _game_positions(shard: _Shard) -> numpy.ndarray:
        """Each row's game as its position in ``games`` (a shard's games are consecutive)."""
        game_index = shard.cards.column("game_index").to_numpy()
        first = int(shard.game_index[0])
        if int(shard.game_index[-1]) - first == shard.n_games - 1:
            return game_index - first
        return numpy.searchsorted(shard.game_index, game_index)


class _CardRows:
    """The ``cards`` rows as the card views count them: each row's pattern of
    flags, key (agent, card) and per-game group (game, agent, card)."""

    def __init__(self, shard: _Shard, columns: _CardColumns) -> None:
        rows = shard.cards.num_rows
        drawn, opening = columns.drawn, columns.opening
        self.drawn, self.played, self.playable, self.won = drawn, columns.played, columns.playable, columns.won
        self.first_played = columns.first_played
        has_first_played = columns.has_first_played
        in_hand = (drawn > 0) | (opening > 0) if columns.counts_hand else numpy.ones(rows, numpy.bool_)
        drawn_later = drawn > opening if columns.counts_later else numpy.zeros(rows, numpy.bool_)
        was_played = self.played > 0 if columns.counts_played else has_first_played
        self.turn_played = was_played & has_first_played
        pattern = numpy.zeros(rows, dtype=numpy.uint8)
        for bit, values in enumerate((in_hand, self.won, was_played, self.playable > 0, opening > 0, drawn_later,
                                      drawn > 0, self.turn_played)):
            pattern |= values.view(numpy.uint8) << numpy.uint8(bit)
        self.pattern = pattern

        n_cards, seats, n_turns = columns.n_cards, shard.n_seats, columns.n_turns
        card, game, seat = columns.card.codes, columns.game, columns.seat
        # A game's per-card group is (agent, card): the seats of one agent are one
        # cluster, numbered here by the agent's first seat in the game. Then the groups
        # of a game follow the order of its rows (seat, then card) when every seat has
        # its own agent. (With one agent at every seat, or every seat its own agent, no
        # row needs a lookup of its seat's agent.)
        first_seat = (shard.agent[:, :, None] == shard.agent[:, None, :]).argmax(axis=2)
        if len(shard.agents.names) == 1:
            self.key, group_seat, slots = card, numpy.zeros(1, numpy.int64), 1
        elif (first_seat == numpy.arange(seats)).all():
            self.key, group_seat, slots = shard.agent.reshape(-1)[game * seats + seat] * n_cards + card, seat, seats
        else:
            player = game * seats + seat
            self.key = shard.agent.reshape(-1)[player] * n_cards + card
            group_seat, slots = first_seat.reshape(-1)[player], seats
        self.group = (game * slots + group_seat) * n_cards + card
        # The first turn played of each row played, after the shard's first.
        self.turns_played = self.first_played[self.turn_played].astype(numpy.int64) - columns.first_turn
        self.n_turns = n_turns
        if rows < 2 or bool(numpy.all(self.group[1:] > self.group[:-1])):
            self.groups = _Groups.singles(self.key)
        elif shard.n_games * slots * n_cards <= NUMBERED_GROUPS_PER_ROW * rows:
            # Few possible groups: numbered by (game, slot, card) itself, no sorting; the
            # key of each (the numbers of slots that hold no first seat stay empty).
            slot_agents = shard.agent[:, :slots] if slots > 1 else numpy.zeros((shard.n_games, 1), numpy.int64)
            keys_of = (slot_agents[:, :, None] * n_cards + numpy.arange(n_cards)).reshape(-1)
            self.groups = _Groups.numbered(self.group, keys_of)
        else:
            self.groups = _Groups.runs(numpy.argsort(self.group, kind="stable"), self.group, self.key)

    def turn_groups(self, keys: numpy.ndarray) -> _Groups:
        """The per-game groups of the rows played (``turn_played``) split by their first
        turn played, with ``keys``."""
        if self.groups.of_row is None:
            return _Groups.singles(keys)
        ids = self.group[self.turn_played] * self.n_turns + self.turns_played
        if len(ids) < 2 or bool(numpy.all(ids[1:] > ids[:-1])):
            return _Groups.singles(keys)
        return _Groups.runs(numpy.argsort(ids, kind="stable"), ids, keys)


def _card_sums(rows: _CardRows, n_keys: int) -> dict[str, numpy.ndarray]:
    """The ``card_counts`` sums per key (``rows``: how many rows)."""
    keys, groups = rows.key, rows.groups
    patterns = _histogram(keys, n_keys, rows.pattern, len(_PATTERNS))
    sums = {name: patterns @ counted for name, counted in CARD_COUNTED.items()}
    sums["rows"] = patterns.sum(axis=1)
    sums.update(_sums(keys, n_keys, times_drawn=rows.drawn, times_played=rows.played, times_playable=rows.playable,
                      sum_turn_played=numpy.where(rows.turn_played, rows.first_played, 0)))
    if groups.of_row is None:  # every row a group: the per-game counts are the rows' flags
        clustered = {prefix: _cluster_sums(prefix, patterns, n.astype(numpy.int64), w.astype(numpy.int64))
                     for prefix, (n, w) in CARD_RATE_PATTERNS.items()}
    else:
        # Every rate's n and w of each group at once: the rows' rate flags packed into one number, summed.
        bits = groups.largest.bit_length()  # sums up to 2**52 stay exact in bincount's float weights
        if bits * len(_RATE_FLAGS) > 52:
            raise ValueError(f"a per-game card group of {groups.largest} rows: too many to count")
        packed = groups.totals(_packed_rate_flags(bits)[rows.pattern & (_RATE_PATTERNS - 1)])

        def field(index: int) -> numpy.ndarray:
            return (packed >> (bits * index)) & ((1 << bits) - 1)

        clustered = {prefix: _cluster_sums(prefix, *_pairs(groups.key, n_keys, field(2 * index), field(2 * index + 1)))
                     for index, prefix in enumerate(CARD_RATE_PATTERNS)}
    for prefix, sums_of_rate in clustered.items():
        sums.update({name: values for name, values in sums_of_rate.items() if name.startswith(prefix)})
    return sums


def _card_turn_sums(rows: _CardRows, n_keys: int) -> dict[str, numpy.ndarray]:
    """The ``card_turn_counts`` sums per (key, first turn played)."""
    n_turns = rows.n_turns
    keys = rows.key[rows.turn_played] * n_turns + rows.turns_played
    groups = rows.turn_groups(keys)
    won = rows.won[rows.turn_played].astype(numpy.int64)
    if groups.of_row is None:  # every row a group: one seat-game played, won or not
        cells = _histogram(keys, n_keys * n_turns, won, 2)
        sums = _cluster_sums("played", cells, numpy.array([1, 1]), numpy.array([0, 1]))
    else:
        sums = _cluster_sums("played", *_pairs(groups.key, n_keys * n_turns,
                                                groups.totals(numpy.ones(len(keys), numpy.int64)),
                                                groups.totals(won)))
    sums["games_played"], sums["wins_played"] = sums.pop("n"), sums.pop("w")
    return sums


def _card_views(shard: _Shard) -> dict[str, pa.Table]:
    """``card_counts`` and ``card_turn_counts``."""
    columns = _CardColumns(shard)
    n_keys, n_cards, n_turns = columns.n_keys, columns.n_cards, columns.n_turns
    rows = _CardRows(shard, columns)
    card_sums, turn_sums = _card_sums(rows, n_keys), _card_turn_sums(rows, n_keys)
    present = numpy.flatnonzero(card_sums["rows"])
    card_counts = _table("card_counts", shard, {
        "agent": shard.agents.decode(present // n_cards), "card": columns.card.decode(present % n_cards)},
        {name: card_sums[name][present] for name in COUNT_VIEWS["card_counts"][1]})
    present = numpy.flatnonzero(turn_sums["games_played"])
    card_key = present // n_turns
    card_turn_counts = _table("card_turn_counts", shard, {
        "agent": shard.agents.decode(card_key // n_cards), "card": columns.card.decode(card_key % n_cards),
        "first_played_turn": present % n_turns + columns.first_turn},
        {name: turn_sums[name][present] for name in COUNT_VIEWS["card_turn_counts"][1]})
    return {"card_counts": card_counts, "card_turn_counts": card_turn_counts}


def count_shard(tables: Mapping[str, pa.Table]) -> dict[str, pa.Table]:
    """Every count view (``COUNT_VIEWS``) of one shard's ``games``, ``players`` and
    ``cards`` tables, as the SQL of ``analytics.views`` gives it over the same rows."""
    if tables["games"].num_rows == 0:
        return {view: count_schema(view).empty_table() for view in COUNT_VIEWS}
    shard = _Shard(tables)
    counts = {
        "seat_counts": _seat_counts(shard),
        "agent_counts": _agent_or_faction_counts("agent_counts", shard, shard.agents, shard.agent),
        "faction_counts": _agent_or_faction_counts("faction_counts", shard, shard.factions, shard.faction),
        "matchup_counts": _matchup_counts(shard),
        "team_counts": _team_counts(shard),
        **_card_views(shard),
        "run_counts": _run_counts(shard),
        "game_counts": _game_counts(shard),
    }
    return {view: counts[view] for view in COUNT_VIEWS}
