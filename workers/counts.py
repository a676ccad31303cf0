"""The count views of one shard, computed by its task from the rows in memory.

``dataset.count_views`` defines the *count views* (``COUNT_VIEWS``: seats,
agents, factions, matchups, teams, cards, first-play turns, runs, game
lengths, leads), the additive aggregates every metric of the report reads, in SQL;
the report adds them up over an experiment's shards (``analytics.partials``).
Counting a finished shard in the driver means reading all its rows back
(for ``experiments/divvy_baseline.toml``, 78 s after a 152 s run's summary,
shard after shard). So each shard task counts its own rows while they are
in memory and writes the counts beside its Parquet files
(``workers.storage.counts_path``); ``count_shard`` does the counting.

It computes the views directly, not by running their SQL: the card views
group a shard's card rows by game, agent and card (about 590,000 groups for
10,000 Divvy games), which cost DuckDB 0.55-0.73 s and Polars 0.4-0.5 s of
CPU on the shard's Arrow tables in memory, as much as a third of the shard's
own work. The card rows are added up in one pass of the compiled core
(``simcore.card_tally``: 3.5 µs a Divvy game, where a dozen numpy passes over
the rows took 8.2 µs), the other views with numpy over the games and players.
A card row's flags are one 8-bit number, so one histogram of (agent and
card, flags) counts every ``count(*) FILTER``. The SQL stays the definition:
``tests/workers/test_shard_counts.py`` checks, for every game, that both give
the same tables, value for value and type for type.

A shard holds the games of one experiment, variant and player count, each
with its ``players`` rows in seat order (``simcore.records``): the count
views' first three keys are constants here, and the ``players`` rows form a
games-by-seats matrix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy
import pyarrow as pa
import pyarrow.compute as pc

from dataset.count_views import COUNT_VIEWS
from simcore import card_tally
from simcore.card_tally import CardRows, tally_card_rows

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
    "margin": pa.int32(), "lead_changes": pa.int32(), "winner_deficit": pa.int32(),
    "first_third_leader_won": pa.bool_(), "second_third_leader_won": pa.bool_(),
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


def _sums(keys: numpy.ndarray, n_keys: int, **columns: numpy.ndarray) -> dict[str, numpy.ndarray]:
    """For each key in ``range(n_keys)``, the sum of each column over the rows holding that key."""
    return {name: numpy.bincount(keys, weights=values, minlength=n_keys).astype(numpy.int64)
            for name, values in columns.items()}


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


def _games_column(games: pa.Table, name: str) -> pa.ChunkedArray | pa.Array:
    """A ``games`` column as int32, all null where the table does not have it (older results)."""
    if name in games.column_names:
        return games.column(name).cast(pa.int32())
    return pa.nulls(games.num_rows, pa.int32())


def _run_counts(shard: _Shard) -> pa.Table:
    games = shard.games
    table = pa.table({"level_reached": _games_column(games, "level_reached"), "wipes": _games_column(games, "wipes"),
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


def _leader_won(games: pa.Table, leader: str) -> pa.Array:
    """Per game, whether the seat in ``games.<leader>`` is among its winners (null where that
    seat is null: nobody led alone), as ``dataset.count_views._leader_won`` says in SQL."""
    seats = _numbers(_games_column(games, leader), fill=-1)
    winners = games.column("winners").combine_chunks()
    won_by = pc.list_flatten(winners).to_numpy(zero_copy_only=False).astype(numpy.int64)
    of_game = pc.list_parent_indices(winners).to_numpy()
    hit = numpy.zeros(games.num_rows, dtype=numpy.bool_)
    hit[of_game[won_by == seats[of_game]]] = True
    return pa.array(hit, mask=seats < 0)


def _lead_counts(shard: _Shard) -> pa.Table:
    games = shard.games
    table = pa.table({
        "margin": _games_column(games, "margin"), "lead_changes": _games_column(games, "lead_changes"),
        "winner_deficit": _games_column(games, "winner_deficit"),
        "first_third_leader_won": _leader_won(games, "leader_first_third"),
        "second_third_leader_won": _leader_won(games, "leader_second_third")})
    keys, counted = _group_by(table, COUNT_VIEWS["lead_counts"][0][3:], ())
    return _table("lead_counts", shard, keys, counted)


CARD_COUNTED = {name: (numpy.arange(card_tally.PATTERNS) & flags) == flags
                for name, flags in card_tally.COUNTED_FLAGS.items()}
"""The card counts that count rows: the patterns each counts."""


def _column_bytes(values: numpy.ndarray, dtype: str) -> bytes:
    """``values`` as little-endian bytes of ``dtype``, for ``simcore.card_tally``."""
    return numpy.ascontiguousarray(values, dtype=dtype).tobytes()


def _card_rows(shard: _Shard, card: _Coded, n_cards: int) -> CardRows:
    """The ``cards`` columns the card views read, as ``simcore.card_tally`` reads
    them (a counter the game does not have is 0, and a flag that needs it is
    false, as NULL is in the SQL's filters; ``dataset.count_views.card_rows_sql``)."""
    cards, game = shard.cards, _game_positions(shard)
    if len(game) > 1 and bool((game[1:] < game[:-1]).any()):
        # The tally reads a game's rows together; a shard task's rows come so already.
        order = numpy.argsort(game, kind="stable")
        cards, game, card = cards.take(order), game[order], _Coded(card.names, card.codes[order])
    present = set(cards.column_names)
    rows = cards.num_rows

    def counter(name: str) -> bytes:
        values = _numbers(cards.column(name)) if name in present else numpy.zeros(rows, numpy.int16)
        return _column_bytes(values, "<i2")

    return CardRows(
        rows, _column_bytes(game, "<i4"), _column_bytes(cards.column("seat").to_numpy(), "<i2"),
        _column_bytes(card.codes, "<i4"), counter("drawn"), counter("in_opening_hand"), counter("played"),
        counter("playable"), _column_bytes(_numbers(cards.column("first_played_turn"), fill=-1), "<i2"),
        _column_bytes(cards.column("won").to_numpy(zero_copy_only=False), "<i2"),
        _column_bytes(shard.agent.reshape(-1), "<i2"), shard.n_seats, n_cards,
        len(shard.agents.names), bool(present & {"drawn", "in_opening_hand"}),
        {"drawn", "in_opening_hand"} <= present, "played" in present)


def _game_positions(shard: _Shard) -> numpy.ndarray:
    """Each card row's game as its position in ``games`` (a shard's games are consecutive)."""
    game_index = shard.cards.column("game_index").to_numpy()
    first = int(shard.game_index[0])
    if int(shard.game_index[-1]) - first == shard.n_games - 1:
        return game_index - first
    return numpy.searchsorted(shard.game_index, game_index)


def _int64s(buffer: bytes, width: int) -> numpy.ndarray:
    """A ``simcore.card_tally`` buffer as a matrix of ``width`` columns."""
    return numpy.frombuffer(buffer, dtype="<i8").reshape(-1, width)


def _card_views(shard: _Shard) -> dict[str, pa.Table]:
    """``card_counts`` and ``card_turn_counts``, from the sums of ``simcore.card_tally``."""
    card = _coded(shard.cards.column("card"))
    n_cards = max(len(card.names), 1)
    tally = tally_card_rows(_card_rows(shard, card, n_cards))
    patterns = _int64s(tally.patterns, card_tally.PATTERNS)
    sums = {name: patterns @ counted for name, counted in CARD_COUNTED.items()}
    key_sums = _int64s(tally.key_sums, len(card_tally.KEY_SUM_NAMES))
    sums.update({name: key_sums[:, column] for column, name in enumerate(card_tally.KEY_SUM_NAMES)})
    # Each rate's groups by (n, w): dataset.count_views.cluster_sums' sums over them.
    groups = _int64s(tally.rate_groups, len(card_tally.RATES) * tally.side * tally.side).reshape(
        -1, len(card_tally.RATES), tally.side, tally.side)
    counted = numpy.arange(tally.side)
    for index, rate in enumerate(card_tally.RATES):
        cells = groups[:, index]
        sums[f"{rate}_clusters"] = cells.sum(axis=(1, 2))
        sums[f"{rate}_n_sq"] = cells.sum(axis=2) @ (counted * counted)
        sums[f"{rate}_w_sq"] = cells.sum(axis=1) @ (counted * counted)
        sums[f"{rate}_nw"] = numpy.einsum("kij,i,j->k", cells, counted, counted)
    present = numpy.flatnonzero(patterns.sum(axis=1))
    card_counts = _table("card_counts", shard, {
        "agent": shard.agents.decode(present // n_cards), "card": card.decode(present % n_cards)},
        {name: sums[name][present] for name in COUNT_VIEWS["card_counts"][1]})
    turn_sums = _int64s(tally.turn_sums, len(card_tally.TURN_SUMS))
    present = numpy.flatnonzero(turn_sums[:, 0])
    card_key = present // tally.n_turns
    card_turn_counts = _table("card_turn_counts", shard, {
        "agent": shard.agents.decode(card_key // n_cards), "card": card.decode(card_key % n_cards),
        "first_played_turn": present % tally.n_turns},
        {name: turn_sums[present, column] for column, name in enumerate(card_tally.TURN_SUMS)})
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
        "lead_counts": _lead_counts(shard),
    }
    return {view: counts[view] for view in COUNT_VIEWS}
