"""Interval coverage by simulation: ``make validate`` (``python -m tests.analytics.validate``).

Many independent experiments (replicates on separate seeds) of the synthetic games of
``tests.analytics.synthetic``, whose true rates are known exactly, go through the
metric views as the report computes them; for every metric this counts how often its
95% interval misses the truth below (the truth under the low end) and above (over the
high end). Each tail should miss about 2.5% of the time: ``TAIL`` (1–4%) and ``COVER``
(93–97% covered) are the bounds. It also counts intervals of no width (there should
be none: no sample is certain) and how often the card prior collapses (no spread
identified) where the cards truly differ, fitted on the cards' effective counts as
``card_stats`` does and, for comparison, on their raw seat-game counts.

The scenarios: the competitive four-player game of ``synthetic`` (a strong and a weak
agent at two seats each, placed at random; unpaired and on paired seeds), its
cooperative three-hero game (unpaired and paired), a dominant agent whose rival rarely
wins (rare rates pooled over seats), and small self-play runs with rare draws and ties
(rates that a small sample may show without spread), with game lengths that rarely
change (means without spread) and cards that differ little (the prior).

``tests/analytics/test_interval_coverage.py`` runs a cut-down version in the test
suite; ``make validate`` the full one (``--scale 1``), and prints the table that
``docs/reference/validation.md`` quotes. Exit code 1 when a metric is out of bounds.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl

from analytics.stats import beta_binomial_prior
from tests.analytics.synthetic import (
    COMPETITIVE_CARDS,
    CardModel,
    CompetitiveModel,
    Synthetic,
    competitive,
    cooperative,
)

COVER = (0.93, 0.97)
"""Bounds of a 95% interval's measured coverage."""
TAIL = (0.01, 0.04)
"""Bounds of each tail's measured miss rate (2.5% expected)."""
COLLAPSE_RARE = 0.10
"""Where the cards truly differ, the prior may collapse (no spread identified) in at most this share of fits."""


@dataclass(frozen=True)
class RateCheck:
    """A rate of a metric view against its truth: ``view.rate`` keyed by ``keys``, the truth's ``family``."""

    label: str
    view: str
    family: str
    keys: tuple[str, ...]
    rate: str
    where: str = "TRUE"


@dataclass(frozen=True)
class DeltaCheck:
    """A ``variant_deltas`` metric against the true difference (the truth's ``family``, buffed − baseline)."""

    label: str
    family: str
    truth_family: str
    metric: str
    key: Callable[[dict[str, object]], object]


Check = RateCheck | DeltaCheck


@dataclass(frozen=True)
class Coverage:
    """How often a metric's intervals missed the truth, below and above, over ``rows`` intervals."""

    scenario: str
    label: str
    rows: int
    low_miss: float
    high_miss: float
    zero_width: int
    tests: str = ""
    conservative: bool = False

    @property
    def cover(self) -> float:
        """The share of the intervals that held the truth."""
        return 1.0 - self.low_miss - self.high_miss

    @property
    def within(self) -> bool:
        """Coverage and both tails within their bounds, and no interval of no width. A
        ``conservative`` metric (``Scenario.conservative``) may cover more: only its lower
        bound of coverage and each tail's upper bound hold."""
        if self.zero_width:
            return False
        if self.conservative:
            return self.cover >= COVER[0] and all(tail <= TAIL[1] for tail in (self.low_miss, self.high_miss))
        return COVER[0] <= self.cover <= COVER[1] and all(TAIL[0] <= tail <= TAIL[1]
                                                          for tail in (self.low_miss, self.high_miss))


@dataclass(frozen=True)
class Collapse:
    """How often the card prior found no spread, over ``fits`` fits (experiment × variant × agent)."""

    scenario: str
    fits: int
    effective: float
    raw: float

    @property
    def within(self) -> bool:
        """Collapse is rare where the cards truly differ."""
        return self.effective <= COLLAPSE_RARE


def _truth_frame(data: Synthetic, family: str, key_columns: tuple[str, ...]) -> pl.DataFrame:
    rows = []
    for (kind, variant, key), value in data.truth.items():
        if kind != family:
            continue
        keys = key if isinstance(key, tuple) else (key,)
        rows.append({"variant": variant, **dict(zip(key_columns, keys, strict=True)), "truth": value})
    return pl.DataFrame(rows)


def rate_coverage(data: Synthetic, scenario: str, check: RateCheck) -> Coverage:
    """The misses of ``check``'s intervals over the rows of its view (every replicate's)."""
    frame = data.con.sql(f"SELECT * FROM {check.view} WHERE {check.where}").pl()
    if "seat" in check.keys:
        frame = frame.with_columns(pl.col("seat").cast(pl.Int64))
    frame = frame.filter(pl.col(check.rate).is_not_null())
    joined = frame.join(_truth_frame(data, check.family, check.keys), on=["variant", *check.keys])
    assert joined.height == frame.height > 0, (scenario, check.label, joined.height, frame.height)
    low, high, truth = pl.col(f"{check.rate}_low"), pl.col(f"{check.rate}_high"), pl.col("truth")
    counted = joined.select((truth < low).mean().alias("low"), (truth > high).mean().alias("high"),
                            (low == high).sum().alias("zero")).row(0, named=True)
    return Coverage(scenario, check.label, joined.height, counted["low"], counted["high"], counted["zero"])


def delta_coverage(data: Synthetic, scenario: str, check: DeltaCheck) -> Coverage:
    """The misses of the ``variant_deltas`` intervals of ``check`` against the true differences."""
    rows = data.con.sql("SELECT * FROM deltas WHERE family = $family AND metric = $metric",
                        params={"family": check.family, "metric": check.metric}).pl().to_dicts()
    assert rows, (scenario, check.label)
    low = high = zero = 0
    for row in rows:
        key = check.key(row)
        truth = data.truth[(check.truth_family, "buffed", key)] - data.truth[(check.truth_family, "baseline", key)]
        low += truth < row["delta_low"]
        high += truth > row["delta_high"]
        zero += row["delta_low"] == row["delta_high"]
    tests = ",".join(sorted({str(row["test"]) for row in rows}))
    return Coverage(scenario, check.label, len(rows), low / len(rows), high / len(rows), zero, tests)


def prior_collapse(data: Synthetic, scenario: str) -> Collapse:
    """How often ``card_stats``' prior is not identified, and how often a fit on the raw
    seat-game counts would not be (``analytics.stats.beta_binomial_prior``)."""
    cards = data.con.sql("""
        SELECT experiment, variant, agent, wins_in_hand, games_in_hand, card_mean, prior_identified
        FROM card_stats WHERE games_in_hand > 0""").pl()
    fits = raw = collapsed = 0
    for group in cards.partition_by(["experiment", "variant", "agent"]):
        fits += 1
        collapsed += not group["prior_identified"][0]
        prior = beta_binomial_prior(group["wins_in_hand"].to_list(), group["games_in_hand"].to_list())
        raw += prior is None or not prior.identified
    return Collapse(scenario, fits, collapsed / fits, raw / fits)


def _key(row: dict[str, object]) -> object:
    return row["key"]


def _seat_key(row: dict[str, object]) -> object:
    return int(str(row["key"]))


def _card_key(row: dict[str, object]) -> object:
    return (row["agent"], row["key"])


def _no_key(row: dict[str, object]) -> object:
    return ""


CARD_RATES = (
    RateCheck("card GIH win rate", "card_stats", "card", ("agent", "card"), "gih_win_rate"),
    RateCheck("card played win rate", "card_stats", "card", ("agent", "card"), "played_win_rate"),
    RateCheck("card play rate", "card_stats", "play", ("agent", "card"), "play_rate"),
    RateCheck("card play rate when playable", "card_stats", "playable", ("agent", "card"), "playable_play_rate"),
)
AGENT_RATES = (
    RateCheck("agent win rate", "agent_stats", "agent", ("agent",), "win_rate"),
    RateCheck("agent game-win rate", "agent_stats", "game", ("agent",), "game_win_rate"),
)
CARD_DELTAS = (
    DeltaCheck("delta card GIH win rate", "card", "card", "gih_win_rate", _card_key),
    DeltaCheck("delta card played win rate", "card", "card", "played_win_rate", _card_key),
    DeltaCheck("delta card play rate", "card", "play", "play_rate", _card_key),
)
COMPETITIVE_CHECKS: tuple[Check, ...] = (
    RateCheck("seat win rate", "seat_stats", "seat", ("seat",), "win_rate"),
    *AGENT_RATES,
    RateCheck("faction win rate", "faction_stats", "faction", ("faction",), "win_rate"),
    *CARD_RATES,
    RateCheck("first-seat advantage, per agent", "seat_balance", "first_seat", ("agent",), "first_seat_advantage"),
    DeltaCheck("delta seat win rate", "seat", "seat", "win_rate", _seat_key),
    DeltaCheck("delta agent win rate", "agent", "agent", "win_rate", _key),
    DeltaCheck("delta faction win rate", "faction", "faction", "win_rate", _key),
    *CARD_DELTAS,
)
COOPERATIVE_CHECKS: tuple[Check, ...] = (
    RateCheck("agent win rate", "agent_stats", "agent", ("agent",), "win_rate"),
    RateCheck("class win rate", "faction_stats", "faction", ("faction",), "win_rate"),
    *CARD_RATES,
    DeltaCheck("delta agent win rate", "agent", "agent", "win_rate", _key),
    DeltaCheck("delta class win rate", "faction", "faction", "win_rate", _key),
    *CARD_DELTAS,
    DeltaCheck("delta party win rate", "game", "team", "team_win_rate", _no_key),
)
MEAN_DELTAS = (
    DeltaCheck("delta mean turns", "game", "turns", "turns", _no_key),
    DeltaCheck("delta mean decisions", "game", "decisions", "decisions", _no_key),
)

DOMINANT = CompetitiveModel(agent_strength=(("strong", 30.0), ("weak", 1.0)), draw=0.01)
"""A dominant agent: its rival at two seats wins about one game in twenty (a rare rate pooled
over seats); the dominant one's own rate sits just under 1/2 (two seats, one winner)."""

CLOSE_CARDS = CardModel(held_if_won=(0.36, 0.35, 0.34, 0.33, 0.32, 0.31, 0.30, 0.29),
                        held_if_lost=(0.30,) * 8, playable=COMPETITIVE_CARDS["baseline"].playable,
                        played_if_playable=COMPETITIVE_CARDS["baseline"].played_if_playable)
"""Cards that differ by a few points (GIH rates of about 25.5% to 29%), as a real game's do."""

SELF_PLAY = CompetitiveModel(agent_strength=(("heuristic", 1.0),), self_play=True, draw=0.01, tie=0.01,
                             cards=(("baseline", CLOSE_CARDS), ("buffed", CLOSE_CARDS)),
                             short_game=(0.02, 0.05), decisions_rate=(0.30, 0.32))
"""Self-play at four seats with rare draws and ties: the agent's rate is 1/4 give or take the
draws and ties, which a small sample may not show; games a turn short now and then."""


@dataclass(frozen=True)
class Scenario:
    """Replicate experiments of one synthetic game and what to check on them."""

    name: str
    build: Callable[[int, int], Synthetic]
    replicates: int
    games: int
    checks: tuple[Check, ...]
    prior: bool = False
    conservative: tuple[str, ...] = ()
    """Labels of the checks known to cover more than 95% here (wider intervals than the
    truth needs: see ``CONSERVATIVE_PAIRED`` and ``CONSERVATIVE_SELF_PLAY``)."""


CONSERVATIVE_PAIRED = tuple(check.label for check in (*COMPETITIVE_CHECKS, *COOPERATIVE_CHECKS, *MEAN_DELTAS)
                            if isinstance(check, DeltaCheck))
"""On paired seeds the synthetic variants share every random number, so a game changes
outcome only where the buff crosses it: the pairs are nearly identical, and the paired
intervals are wider than the difference needs there (their coverage up to 100%): the means'
floor of variance, and the two discordant parts of the win rates and of the card rates'
linearised differences, each a Wilson interval of a few discordant games."""

# The dominant agent's win rate at two seats keeps room above for games won at both seats
# (ties), which 200 games without one cannot rule out: its upper tail misses less than 2.5%.
CONSERVATIVE_SELF_PLAY = ("agent win rate", "first-seat advantage, self-play", "delta mean turns",
                          "delta mean decisions")
"""In self-play with rare draws and ties (1%) and games rarely a turn short, a sample of 100
games often shows no spread at all: these intervals keep the width of what 100 games cannot
rule out (``no_spread_interval``, ``mean_variance``), more than the rare events need."""


def scenarios(scale: float) -> list[Scenario]:
    """The scenarios, with ``scale`` times their full number of replicates (at least 40)."""
    def replicates(full: int) -> int:
        return max(40, round(full * scale))

    self_play_checks: tuple[Check, ...] = (
        *AGENT_RATES[:1],
        RateCheck("seat win rate", "seat_stats", "seat", ("seat",), "win_rate"),
        RateCheck("first-seat advantage, self-play", "seat_balance", "first_seat", ("agent",),
                  "first_seat_advantage"),
        *CARD_RATES,
        *MEAN_DELTAS,
        *CARD_DELTAS,
    )
    return [
        Scenario("competitive", lambda r, g: competitive(r, g), replicates(1000), 300, COMPETITIVE_CHECKS, True),
        Scenario("competitive, paired seeds", lambda r, g: competitive(r, g, paired=True), replicates(1000), 300,
                 COMPETITIVE_CHECKS, True, CONSERVATIVE_PAIRED),
        Scenario("cooperative", lambda r, g: cooperative(r, g), replicates(1000), 300, COOPERATIVE_CHECKS),
        Scenario("cooperative, paired seeds", lambda r, g: cooperative(r, g, paired=True), replicates(1000), 300,
                 COOPERATIVE_CHECKS, conservative=CONSERVATIVE_PAIRED),
        Scenario("dominant agent", lambda r, g: competitive(r, g, model=DOMINANT, seed=3), replicates(1500), 200,
                 (*AGENT_RATES, RateCheck("card GIH win rate", "card_stats", "card", ("agent", "card"),
                                          "gih_win_rate"),
                  RateCheck("first-seat advantage, per agent", "seat_balance", "first_seat", ("agent",),
                            "first_seat_advantage")), conservative=("agent win rate",)),
        Scenario("self-play, 100 games", lambda r, g: competitive(r, g, model=SELF_PLAY, seed=4), replicates(2000),
                 100, self_play_checks, conservative=CONSERVATIVE_SELF_PLAY),
        Scenario("self-play, paired seeds", lambda r, g: competitive(r, g, model=SELF_PLAY, seed=5, paired=True),
                 replicates(2000), 100, self_play_checks, conservative=(*CONSERVATIVE_SELF_PLAY, *CONSERVATIVE_PAIRED)),
        Scenario("self-play, 2,000 games", lambda r, g: competitive(r, g, model=SELF_PLAY, seed=6), replicates(200),
                 2000, self_play_checks[:3], True, CONSERVATIVE_SELF_PLAY),
    ]


def run(scale: float, only: Sequence[str] = (), log: Callable[[str], None] = print) -> tuple[list[Coverage],
                                                                                              list[Collapse]]:
    """Every scenario's coverages and prior collapses (``only``: the scenarios of those names)."""
    coverages: list[Coverage] = []
    collapses: list[Collapse] = []
    for scenario in scenarios(scale):
        if only and scenario.name not in only:
            continue
        started = time.monotonic()
        data = scenario.build(scenario.replicates, scenario.games)
        for check in scenario.checks:
            coverage = (rate_coverage(data, scenario.name, check) if isinstance(check, RateCheck)
                        else delta_coverage(data, scenario.name, check))
            if check.label in scenario.conservative:
                coverage = dataclasses.replace(coverage, conservative=True)
            coverages.append(coverage)
        if scenario.prior:
            collapses.append(prior_collapse(data, scenario.name))
        data.con.close()
        log(f"  {scenario.name}: {scenario.replicates:,} experiments of {scenario.games:,} games per variant "
            f"({time.monotonic() - started:.0f} s)")
    return coverages, collapses


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def table(coverages: Sequence[Coverage], collapses: Sequence[Collapse]) -> str:
    """The results as fixed-width text: one line per scenario and metric, then the prior."""
    lines = [f"{'scenario':<26} {'metric':<34} {'rows':>7} {'cover':>6} {'low':>5} {'high':>5}  {'':<1}tests"]
    for coverage in coverages:
        mark = "!" if not coverage.within else "+" if coverage.conservative and coverage.cover > COVER[1] else " "
        zero = f" ({coverage.zero_width} of no width)" if coverage.zero_width else ""
        lines.append(f"{coverage.scenario:<26} {coverage.label:<34} {coverage.rows:>7,} "
                     f"{_percent(coverage.cover):>6} {_percent(coverage.low_miss):>5} "
                     f"{_percent(coverage.high_miss):>5}  {mark}{coverage.tests}{zero}")
    lines.append("")
    lines.append("card prior collapse (no spread identified) where the cards truly differ:")
    for collapse in collapses:
        mark = "" if collapse.within else "  !"
        lines.append(f"  {collapse.scenario:<26} {collapse.fits:>6,} fits: {_percent(collapse.effective)} on the "
                     f"effective counts (raw seat-game counts: {_percent(collapse.raw)}){mark}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.analytics.validate", description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="share of the full number of replicates")
    parser.add_argument("--only", action="append", default=[], help="run only this scenario (repeatable)")
    arguments = parser.parse_args(argv)
    print(f"coverage of the 95% intervals: each tail should miss {_percent(TAIL[0])}-{_percent(TAIL[1])} "
          f"(2.5% expected), coverage {_percent(COVER[0])}-{_percent(COVER[1])}; '!' out of bounds, '+' covering "
          "more where the interval is known to be conservative")
    coverages, collapses = run(arguments.scale, arguments.only)
    print()
    print(table(coverages, collapses))
    failed = [c for c in coverages if not c.within] + [c for c in collapses if not c.within]
    print(f"\n{len(coverages)} metrics, {len(failed)} out of bounds")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
