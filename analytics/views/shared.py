"""SQL pieces the metric views share, each with the contract of the columns it makes.

A rate comes with its interval: ``wilson_rate`` over independent trials
(games), ``clustered_rate`` over seat-games clustered by game (with its
effective n), ``normal_mean`` for a mean over games; the ``*_columns``
functions describe the columns each makes (``dataset.contracts``).
"""

from __future__ import annotations

from collections.abc import Sequence

from dataset.contracts import Column

ORDER = "experiment, (variant <> 'baseline'), variant, n_players"
"""The order every metric view's rows start with: the baseline first, then the variants by name."""

LINEUPS = """(
    SELECT experiment, variant, n_players, count(*) AS agents, min(agent) AS only_agent
    FROM agent_counts GROUP BY experiment, variant, n_players)"""
"""Per variant and player count: how many agents its games seat (every game of a cardlab
lineup seats the same agents), and one of them (the only one in self-play)."""


GROUP_KEYS = "experiment, variant, n_players"
"""The columns every metric view's rows are grouped by."""


def histogram_quantile(column: str, p: float, histogram: str = "game_counts") -> str:
    """A ``JOIN``-able subquery (the group keys and ``q``): ``quantile_cont(column, p)`` from a
    count view's histogram (``histogram``: rows of the group keys, ``column`` and ``games``),
    rows whose ``column`` is NULL left out; linear interpolation between the order statistics
    at ``floor(h)`` and ``floor(h) + 1``, ``h = p·(n − 1)``, as DuckDB's ``quantile_cont`` and
    numpy's default."""
    return f"""(
    SELECT {GROUP_KEYS}, lo::DOUBLE + (position - floor(position)) * (hi - lo) AS q
    FROM (
        SELECT {GROUP_KEYS}, any_value(position) AS position,
               min({column}) FILTER (WHERE cumulative > floor(position)) AS lo,
               min({column}) FILTER (WHERE cumulative > least(floor(position) + 1, total - 1)) AS hi
        FROM (
            SELECT {GROUP_KEYS}, {column},
                   sum(games) OVER (PARTITION BY {GROUP_KEYS} ORDER BY {column}) AS cumulative,
                   sum(games) OVER (PARTITION BY {GROUP_KEYS}) AS total,
                   {p!r}::DOUBLE * (sum(games) OVER (PARTITION BY {GROUP_KEYS}) - 1) AS position
            FROM (SELECT {GROUP_KEYS}, {column}, sum(games) AS games FROM {histogram}
                  WHERE {column} IS NOT NULL GROUP BY {GROUP_KEYS}, {column})
        )
        GROUP BY {GROUP_KEYS}
    ))"""


def wilson_rate(wins: str, n: str, name: str) -> str:
    """A rate over independent trials (games) with its 95% Wilson interval."""
    return (f"{wins}::DOUBLE / nullif({n}, 0) AS {name}, wilson_low({wins}, {n}) AS {name}_low, "
            f"wilson_high({wins}, {n}) AS {name}_high")


def wilson_rate_columns(name: str, what: str, trials: str) -> tuple[Column, ...]:
    """The columns of ``wilson_rate(..., name)``: ``what`` the rate is, over ``trials`` (independent)."""
    return (Column(name, "DOUBLE", f"{what}: a rate in [0, 1] over {trials}."),
            Column(f"{name}_low", "DOUBLE", f"Low end of the 95% Wilson interval of `{name}` over its {trials} "
                   "(independent trials)."),
            Column(f"{name}_high", "DOUBLE", f"High end of the 95% Wilson interval of `{name}` over its {trials} "
                   "(independent trials)."))


def normal_mean(total: str, squares: str, n: str, name: str, highest: str | None = None,
                lowest: str | None = "0.0") -> str:
    """A mean over games from its sums, with a normal 95% interval (``normal_z()``) (``name``, ``_low``,
    ``_high``) clamped to the values the quantity can take: its low end at ``lowest`` (SQL; 0 for a count
    such as levels or wipes, ``None`` for a quantity that can be negative, a margin) and, when ``highest``
    is given, its high end there (no game's level is above the last one, so neither is their mean: 3.94
    [3.85, 4.03] is 3.94 [3.85, 4.00]). The sample variance is at least ``mean_variance``'s floor: games
    that happen to be alike keep a width."""
    mean = f"({total} / nullif({n}, 0))"
    variance = f"greatest(0.0, {squares} / nullif({n}, 0) - {mean} * {mean}) * {n} / nullif({n} - 1, 0)"
    se = f"sqrt(mean_variance({variance}, {n}) / nullif({n}, 0))"
    high = f"{mean} + normal_z() * {se}"  # normal_z(): 95%, or the level a balance search asks for
    if highest is not None:
        high = f"least({highest}, {high})"
    low = f"{mean} - normal_z() * {se}"
    if lowest is not None:
        low = f"greatest({lowest}, {low})"
    return f"{mean} AS {name}, {low} AS {name}_low, {high} AS {name}_high"


def normal_mean_columns(name: str, what: str, highest: str = "") -> tuple[Column, ...]:
    """The columns of ``normal_mean(..., name)``: ``what`` the mean is (over games), its high end
    clamped at the column ``highest`` when given."""
    interval = (f"the 95% normal interval of `{name}` (mean ± z·sd/√n over games, the variance at least "
                "`mean_variance`'s floor)")
    return (Column(name, "DOUBLE", f"{what}, the mean over games."),
            Column(f"{name}_low", "DOUBLE", f"Low end of {interval}, clamped at 0."),
            Column(f"{name}_high", "DOUBLE", f"High end of {interval}"
                   + (f", clamped at `{highest}`." if highest else ".")))


def _cluster_arguments(wins: str, n: str, prefix: str, table: str, hits: bool) -> tuple[tuple[str, ...], str]:
    """The arguments of ``clustered_n`` and the ``hits`` of ``clustered_low``/``_high`` for a rate
    (see ``clustered_rate``)."""
    sums = f"{table}." if table else ""
    sums += f"{prefix}_" if prefix else ""
    arguments = (n, wins, f"{sums}n_sq", f"{sums}w_sq", f"{sums}nw", f"{sums}clusters")
    return arguments, f"{sums}hits" if hits else "NULL::BIGINT"


def _rate_columns(wins: str, n: str, name: str, effective_n: str, low: str, high: str) -> str:
    """SQL: the columns of a clustered rate (``clustered_rate_columns``) from its parts."""
    return (f"{wins}::DOUBLE / nullif({n}, 0) AS {name}, {effective_n} AS {name}_effective_n, "
            f"{low} AS {name}_low, {high} AS {name}_high")


def clustered_rate(wins: str, n: str, prefix: str, name: str, table: str = "", hits: bool = True) -> str:
    """SQL: a rate over clustered seat-games (``name`` = wins / n) with its effective n
    and 95% interval (``clustered_low``/``clustered_high``, ``analytics.stats.clustered_interval``).

    ``prefix`` names the cluster sums ``<prefix>_n_sq``, ``_w_sq``, ``_nw``, ``_clusters``
    and, with ``hits``, ``_hits`` (``cluster_sums``; plain ``n_sq``... for an empty
    prefix), read from ``table.`` when given. A view with several such rates binds faster
    with ``clustered_intervals`` and ``clustered_rate_of``."""
    sums, counted = _cluster_arguments(wins, n, prefix, table, hits)
    arguments = ", ".join(sums)
    return _rate_columns(wins, n, name, f"clustered_n({arguments})", f"clustered_low({arguments}, {counted})",
                         f"clustered_high({arguments}, {counted})")


def clustered_intervals(rates: Sequence[tuple[str, str, str]], name: str, table: str = "") -> str:
    """SQL: the column ``name``, a list of the effective n and 95% interval of each rate of
    ``rates`` ((wins, n, prefix) as ``clustered_rate`` takes them), as structs
    ``{effective_n, low, high}`` in the same order, for ``clustered_rate_of``.

    The same numbers as ``clustered_rate``'s, computed through one lambda over the rates:
    DuckDB then binds the interval macros once for the view rather than once per rate
    (a few milliseconds of CPU each, every time a query reads the view)."""
    items = []
    for wins, n, prefix in rates:
        arguments, counted = _cluster_arguments(wins, n, prefix, table, True)
        fields = zip(("n", "w", "n_sq", "w_sq", "nw", "g"), arguments, strict=True)
        items.append("{" + ", ".join(f"'{field}': {value}" for field, value in fields) + f", 'hits': {counted}}}")
    sums = "rate_.n, rate_.w, rate_.n_sq, rate_.w_sq, rate_.nw, rate_.g"
    return (f"list_transform([{', '.join(items)}], lambda rate_: {{'effective_n': clustered_n({sums}), "
            f"'low': clustered_low({sums}, rate_.hits), 'high': clustered_high({sums}, rate_.hits)}}) AS {name}")


def clustered_rate_of(wins: str, n: str, name: str, intervals: str, position: int) -> str:
    """SQL: the columns of ``clustered_rate`` (``name``, its effective n and interval) for the
    rate at ``position`` (from 1) of the list ``intervals`` made by ``clustered_intervals``."""
    interval = f"{intervals}[{position}]"
    return _rate_columns(wins, n, name, f"{interval}.effective_n", f"{interval}.low", f"{interval}.high")


NEWCOMBE_FIELDS = ("pa", "la", "ua", "pb", "lb", "ub", "phi")
"""The fields of ``newcombe_arguments``'s struct: the arguments of ``newcombe_low`` and
``newcombe_high`` (a rate and its interval, the other rate and its interval, their correlation)."""


def newcombe_arguments(*arguments: str) -> str:
    """SQL: the struct of ``NEWCOMBE_FIELDS`` holding ``arguments`` (SQL, in its order), as
    ``DOUBLE``: Newcombe's interval of the difference of two rates, to be computed by
    ``newcombe_bound``. Kept as a column, its expressions (themselves intervals) are bound
    once for both ends rather than once in each."""
    fields = zip(NEWCOMBE_FIELDS, arguments, strict=True)
    return "{" + ", ".join(f"'{field}': ({value})::DOUBLE" for field, value in fields) + "}"


def newcombe_bound(side: str, difference: str) -> str:
    """SQL: the ``side`` (``low`` or ``high``) end of Newcombe's interval from the column
    ``difference`` (``newcombe_arguments``)."""
    arguments = ", ".join(f"{difference}.{field}" for field in NEWCOMBE_FIELDS[:-1])
    return f"newcombe_{side}({arguments}, phi := {difference}.phi)"


CLUSTERED_INTERVAL = ("its seat-games clustered by game: where every game holds as many of them (an agent's seats, "
                      "a card in every hand), the Wilson intervals of the games won and of their extra wins over the "
                      "games, joined (`clustered_low`); else the Wilson interval at the effective n; never narrower "
                      "than what that many games without spread can rule out (`no_spread_low`)")
"""How a clustered rate's interval is made, for the contracts (``analytics.stats.clustered_interval``)."""


def clustered_rate_columns(name: str, what: str, trials: str) -> tuple[Column, ...]:
    """The columns of ``clustered_rate(..., name)``: ``what`` the rate is, over ``trials``
    (seat-games, several of which one game may hold)."""
    interval = f"the 95% interval of `{name}` over {trials}, {CLUSTERED_INTERVAL.removeprefix('its seat-games ')}"
    return (Column(name, "DOUBLE", f"{what}: a rate in [0, 1] over {trials}."),
            Column(f"{name}_effective_n", "DOUBLE", f"Effective number of independent trials behind `{name}`: its "
                   f"{trials} clustered by game (`clustered_n`; the number of games for one per game; capped at "
                   "100 times the seat-games where the games show no spread)."),
            Column(f"{name}_low", "DOUBLE", f"Low end of {interval}."),
            Column(f"{name}_high", "DOUBLE", f"High end of {interval}."))


def competitive(alias: str = "") -> str:
    """SQL: the row's experiment is competitive (``experiment_modes``)."""
    column = f"{alias}.experiment" if alias else "experiment"
    return f"{column} IN (SELECT experiment FROM experiment_modes WHERE NOT cooperative)"
