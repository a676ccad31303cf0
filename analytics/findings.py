"""What a report's reader should look at first: ``findings(metrics, labels)``.

Each finding is one line a designer can act on, with its interval and its
sample: a seat, faction or card surely outside its target band, a variant
change that survives the Benjamini–Hochberg correction and is large enough
to matter (``DELTA_POINTS``, ``DELTA_SHARE``), an outlier card,
cards an agent never plays, faction powers it never uses, a cooperative win rate too high to say anything
(then the runs' wipes and levels instead), games stopped by the turn cap; in a card impact run, the
cards whose causal impact on their holder is significant (the largest first), the cards whose rank
by the correlational IWD and by the causal impact disagree (with why) and what one copy fewer
significantly changes (its arms are left out of the other kinds: they are measurements, not variants to judge);
and the game-design ones: a deal that surely decides most of the outcome
(``DEAL_DECIDES``), a leader at two thirds of the game who surely almost always
wins (``RUNAWAY_LEADER``), no agent surely better than random play
(``SKILL_EDGE``).
"Surely outside" means the whole 95% interval is outside the band, so a
finding is never just noise at the interval's level. The rules are defined
in the metrics glossary, ``docs/reference/metrics.md`` ("Findings").

Findings rank what the designer did not set. A variant's change of a game
metric that its own overrides set by construction (fewer rounds, fewer
turns) is no finding: each game declares which metrics a rules parameter sets
(``GameInfo.set_by_construction``); ``mark_set_by_construction`` names, on
each such ``variant_deltas`` row, the overrides that set it, and the report
shows those rows as the variant's context.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import polars as pl

from analytics.disagreement import why_they_disagree
from analytics.powers import NEVER_USED
from analytics.text_tables import count, interval, number, p_value, percent, points, points_interval, signed
from analytics.views import CARD_BAND, CARD_MIN_EXPECTED, FACTION_BAND, NEVER_PLAYED, OUTLIER_POINTS, OUTLIER_Z
from analytics.views.deltas import MEANS
from experiments.impact import parse_arm_variant
from simcore.registry import GAMES

HIGH_WIN_RATE = 0.9
"""A cooperative party winning at least this often: its win rate says little."""
TURN_CAP_SHARE = 0.05
"""Share of games stopped by the turn cap from which it is a finding."""
PER_KIND = 8
"""Findings of one kind listed before "... and N more"."""
DELTA_POINTS = 0.01
"""A variant's change of a rate smaller than this (one point) is no finding, however
significant: with 200,000 games a change of 0.05 points has q < 0.05 and matters to
nobody (``make demo``'s no_twelves). The deltas section lists every change."""
DELTA_SHARE = 0.02
"""The same for a mean (turns, decisions per game): a change smaller than this share of
the baseline's mean is no finding."""

DEAL_DECIDES = 0.5
"""The deal's share of the outcome's variance (``seed_influence``) whose whole interval above
it is a finding: the cards decide more of who wins than the agents' play does."""
RUNAWAY_LEADER = 0.9
"""How often the leader at two thirds of the game wins, whose whole interval above it is a
finding: the last third rarely changes the winner."""
SKILL_EDGE = 0.05
"""The strongest agent's edge over random play (win rate minus 1/N, ``skill_depth``) that its
whole interval below is a finding: skill barely pays, or the agents are too weak to show it."""

KINDS = {"seat": "seats", "first_seat": "seats", "faction": "factions", "card": "cards", "never_played": "cards",
         "never_used": "powers", "delta": "deltas", "impact": "impact", "disagree": "impact", "removal": "impact",
         "runs": "runs", "turn_cap": "games", "deal": "design", "runaway_leader": "design", "skill_depth": "design"}
"""Finding kind -> the report section with its details."""


@dataclass(frozen=True)
class Finding:
    """One finding: its kind, where (variant, player count, agent), what, the value with its
    95% interval, the sample it rests on, and the sentence the report prints."""

    kind: str
    variant: str
    n_players: int
    agent: str | None
    subject: str
    value: float | None
    low: float | None
    high: float | None
    n: int
    unit: str
    text: str

    def data(self) -> dict[str, Any]:
        """The finding as a plain dict (JSON, CSV)."""
        return asdict(self)


FINDING_SCHEMA = {"kind": pl.String, "variant": pl.String, "n_players": pl.Int64, "agent": pl.String,
                  "subject": pl.String, "value": pl.Float64, "low": pl.Float64, "high": pl.Float64, "n": pl.Int64,
                  "unit": pl.String, "text": pl.String}


def _where(labels: Mapping[str, str], row: Mapping[str, Any], agent: bool = False) -> str:
    players = "heroes" if row.get("_coop") else "players"
    place = f"{labels.get(row['variant'], row['variant'])}, {row['n_players']} {players}"
    return f"{place}, {row['agent']}" if agent and row.get("agent") else place


def _rows(frame: pl.DataFrame | None, condition: pl.Expr) -> list[dict[str, Any]]:
    if frame is None or frame.is_empty():
        return []
    return frame.filter(condition).to_dicts()


def seat_findings(seats: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Seats whose share of the wins is surely more than ``FACTION_BAND`` from 1/N (competitive games),
    where every seat holds the same agent (``self_play``): elsewhere a seat's share pools the agents
    the lineup put there, which says nothing about the seat (``first_seat_findings`` instead)."""
    band = FACTION_BAND
    condition = ((pl.col("win_share_low") > pl.col("fair_share") + band)
                 | (pl.col("win_share_high") < pl.col("fair_share") - band)) & (pl.col("n_players") > 1)
    if seats is not None and "self_play" in seats.columns:
        condition &= pl.col("self_play")
    return [Finding(
        "seat", row["variant"], row["n_players"], None, f"seat {row['seat']}", row["win_share"],
        row["win_share_low"], row["win_share_high"], row["games"], "game",
        f"{_where(labels, row)}: seat {row['seat']} takes {percent(row['win_share'])} of the wins "
        f"{interval(row['win_share_low'], row['win_share_high'])}, fair {percent(row['fair_share'])} +- "
        f"{percent(band)} ({count(row['games'])} games)")
        for row in _rows(seats, condition)]


def first_seat_findings(balance: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Per agent of a lineup of different agents (``seat_balance`` rows not ``self_play``): an agent
    whose win rate at seat 0 is surely more than ``FACTION_BAND`` from its own over all its seats."""
    condition = pl.col("surely_outside").fill_null(False)
    if balance is not None and "self_play" in balance.columns:
        condition &= ~pl.col("self_play")
    return [Finding(
        "first_seat", row["variant"], row["n_players"], row["agent"], "seat 0", row["first_seat_advantage"],
        row["first_seat_advantage_low"], row["first_seat_advantage_high"], row["games"], "game",
        f"{_where(labels, row, agent=True)}: wins {percent(row['first_seat_win_rate'])} at seat 0 against "
        f"{percent(row['agent_win_rate'])} over its seats ({points(row['first_seat_advantage'])} points "
        f"{points_interval(row['first_seat_advantage_low'], row['first_seat_advantage_high'])}, band +- "
        f"{percent(FACTION_BAND)}; {count(row['games'])} games, a lineup of different agents)")
        for row in _rows(balance, condition)]


def faction_findings(factions: pl.DataFrame | None, labels: Mapping[str, str], cooperative: bool) -> list[Finding]:
    """Factions whose whole interval is outside the expected rate +- ``FACTION_BAND``."""
    return [Finding(
        "faction", row["variant"], row["n_players"], None, str(row["faction"]), row["win_rate"], row["win_rate_low"],
        row["win_rate_high"], row["games"], "game",
        f"{_where(labels, {**row, '_coop': cooperative})}: {row['faction']} wins {percent(row['win_rate'])} "
        f"{interval(row['win_rate_low'], row['win_rate_high'])}, expected {percent(row['expected'])} +- "
        f"{percent(FACTION_BAND)} ({count(row['games'])} games)")
        for row in _rows(factions, pl.col("surely_outside"))]


def card_findings(cards: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Outlier cards (``|z| >= OUTLIER_Z`` and at least ``OUTLIER_POINTS`` from the agent's card
    mean) and cards surely outside that mean +- ``CARD_BAND``, the largest difference first;
    both flags (``card_stats``) need ``CARD_MIN_EXPECTED`` expected wins and losses in hand,
    so that a card seen in one game is never one."""
    rows = _rows(cards, pl.col("outlier") | pl.col("surely_outside"))
    rows.sort(key=lambda row: -abs((row["gih_win_rate"] or 0.0) - (row["card_mean"] or 0.0)))
    found = []
    for row in rows:
        why = f"z = {number(row['z_score'], 1)}" if row["outlier"] else f"outside +- {percent(CARD_BAND)}"
        why += f", {points(row['gih_win_rate'] - row['card_mean'])} points"
        found.append(Finding(
            "card", row["variant"], row["n_players"], row["agent"], str(row["card"]), row["gih_win_rate"],
            row["gih_win_rate_low"], row["gih_win_rate_high"], row["games_in_hand"], "seat-game in hand",
            f"{_where(labels, row, agent=True)}: {row['card']} wins {percent(row['gih_win_rate'])} in hand "
            f"{interval(row['gih_win_rate_low'], row['gih_win_rate_high'])} against the agent's card mean "
            f"{percent(row['card_mean'])} ({why}; {count(row['games_in_hand'])} seat-games in hand)"))
    return found


def never_played_findings(cards: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Per variant, player count and agent: the cards held (or playable) but never played."""
    rows = _rows(cards, pl.col("never_played"))
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["variant"], row["n_players"], row["agent"]), []).append(row)
    found = []
    for (variant, players, agent), group in groups.items():
        names = sorted(str(row["card"]) for row in group)
        shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
        found.append(Finding(
            "never_played", variant, players, agent, ", ".join(names), None, None, None,
            sum(int(row["games_in_hand"]) for row in group), "seat-game in hand",
            f"{_where(labels, group[0], agent=True)}: {len(names)} card(s) {NEVER_PLAYED}: {shown}"))
    return found


def never_used_findings(powers: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Per variant, player count and agent: the faction powers that were an option but never used."""
    rows = _rows(powers, pl.col("never_used")) if powers is not None and "never_used" in powers.columns else []
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["variant"], row["n_players"], row["agent"]), []).append(row)
    return [Finding(
        "never_used", variant, players, agent, ", ".join(sorted(str(row["faction"]) for row in group)), None, None,
        None, sum(int(row["seat_games"]) for row in group), "seat-game",
        f"{_where(labels, group[0], agent=True)}: {len(group)} power(s) {NEVER_USED}: "
        + ", ".join(f"{row['faction']} (an option {count(row['times_playable'])} times in "
                    f"{count(row['games_playable'])} games)" for row in sorted(group, key=lambda r: str(r["faction"]))))
        for (variant, players, agent), group in groups.items()]


METRIC_NAMES = {"win_rate": "win rate", "gih_win_rate": "GIH win rate", "played_win_rate": "played win rate",
                "play_rate": "play rate", "draw_rate": "draw rate", "turn_cap_rate": "turn-cap rate",
                "team_win_rate": "party win rate", "turns": "mean turns", "decisions": "decisions per game"}
"""Human names of ``variant_deltas.metric``."""
FAMILY_ORDER = {"seat": 0, "faction": 1, "agent": 2, "game": 3, "card": 4}
"""Delta findings show win rates first, then game length, then cards."""


def delta_subject(row: Mapping[str, Any]) -> str:
    """What a ``variant_deltas`` row compares, in words: ``seat 0 win rate``,
    ``card Fireball (heuristic) play rate``."""
    metric = METRIC_NAMES.get(row["metric"], row["metric"])
    family, key = row["family"], row["key"]
    if family == "game":
        return metric
    if family == "card":
        return f"card {key} ({row['agent']}) {metric}"
    return f"{family} {key} {metric}"


SET_BY = "set_by_construction"
"""The column ``mark_set_by_construction`` adds to ``variant_deltas``: the paths of the variant's
overrides that set the row's metric by construction (comma-separated), or null."""


def construction_rules(game: str) -> Mapping[str, tuple[str, ...]]:
    """What each rules parameter of ``game`` sets by construction (``GameInfo.set_by_construction``);
    nothing for a game not registered here."""
    registered = GAMES.get(game)
    return registered.info.set_by_construction if registered is not None else {}


def _covers(declared: str, path: str) -> bool:
    """Whether overriding ``path`` changes the declared parameter (itself, or a part of it)."""
    return path == declared or path.startswith(declared + ".")


def set_by_construction(overrides: Mapping[str, Mapping[str, Any]], rules: Mapping[str, tuple[str, ...]]
                        ) -> dict[tuple[str, str], str]:
    """(variant, metric) -> the paths of the variant's overrides that set the metric by
    construction (comma-separated); ``overrides`` maps each variant to its overrides (dotted
    path -> value), ``rules`` is the game's ``construction_rules``."""
    found: dict[tuple[str, str], list[str]] = {}
    for variant, changes in overrides.items():
        for path in changes:
            for declared, metrics in rules.items():
                if _covers(declared, path):
                    for metric_name in metrics:
                        found.setdefault((variant, metric_name), []).append(path)
    return {key: ", ".join(dict.fromkeys(paths)) for key, paths in found.items()}


def mark_set_by_construction(deltas: pl.DataFrame, by_construction: Mapping[tuple[str, str], str]) -> pl.DataFrame:
    """``variant_deltas`` with the column ``SET_BY``: on the game-family rows whose metric the
    variant's overrides set by construction, those overrides (``set_by_construction``); else null."""
    keys = [(variant, metric_name, text) for (variant, metric_name), text in by_construction.items()]
    marks = pl.DataFrame({"variant": [key[0] for key in keys], "metric": [key[1] for key in keys],
                          SET_BY: [key[2] for key in keys]},
                         schema={"variant": pl.String, "metric": pl.String, SET_BY: pl.String})
    marked = deltas.drop(SET_BY, strict=False).join(marks, on=["variant", "metric"], how="left", maintain_order="left")
    return marked.with_columns(pl.when(pl.col("family") == "game").then(pl.col(SET_BY)).otherwise(None).alias(SET_BY))


def delta_findings(deltas: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Significant variant changes (q < 0.05) that matter (``_matters``): win rates first,
    largest first within a family. A change the variant set by construction (the ``SET_BY``
    column) is none."""
    chosen = deltas is not None and SET_BY in deltas.columns
    rows = _rows(deltas, pl.col("significant") & _matters() & (pl.col(SET_BY).is_null() if chosen else pl.lit(True)))
    rows.sort(key=lambda row: (FAMILY_ORDER.get(row["family"], 9), row["metric"] in MEANS,
                               -abs(row["delta"] or 0.0)))
    found = []
    for row in rows:
        what = delta_subject(row)
        found.append(Finding(
            "delta", row["variant"], row["n_players"], row.get("agent"), what, row["delta"], row["delta_low"],
            row["delta_high"], row["n"], "game" if row["family"] in ("seat", "game") else "seat-game",
            f"{_where(labels, row)}, against the baseline: {what} {_change(row)}, q = {p_value(row['q_value'])} "
            f"({row['test']}; n = {count(row['n'])})"))
    return found


def _matters() -> pl.Expr:
    """The rows of ``variant_deltas`` or ``card_removal`` whose change is large enough to report:
    at least ``DELTA_POINTS`` for a rate, ``DELTA_SHARE`` of the baseline for a mean (``MEANS``)."""
    size = pl.col("delta").abs()
    return (pl.when(pl.col("metric").is_in(MEANS)).then(size >= DELTA_SHARE * pl.col("baseline_value").abs())
            .otherwise(size >= DELTA_POINTS))


def _change(row: Mapping[str, Any]) -> str:
    """A compared row's change in its unit: a mean's values and interval, or a rate's in % and points."""
    if row["metric"] in MEANS:
        return (f"{number(row['baseline_value'], 2)} -> {number(row['value'], 2)} "
                f"[{signed(row['delta_low'])}, {signed(row['delta_high'])}]")
    return (f"{percent(row['baseline_value'])} -> {percent(row['value'])} ({points(row['delta'])} points "
            f"{points_interval(row['delta_low'], row['delta_high'])})")


def impact_findings(impact: pl.DataFrame | None) -> list[Finding]:
    """Cards whose impact on their holder (``card_impact``: against the neutral stand-in on the
    same deals) is significant (q < 0.05) and at least ``DELTA_POINTS``, the largest first."""
    rows = _rows(impact, pl.col("significant") & (pl.col("impact").abs() >= DELTA_POINTS)) \
        if impact is not None else []
    rows.sort(key=lambda row: (-abs(row["impact"]), str(row["card"])))
    found = []
    for row in rows:
        verb = "adds" if row["impact"] > 0 else "costs"
        size = points(abs(row["impact"])).lstrip("+")
        found.append(Finding(
            "impact", row["variant"], row["n_players"], row["agent"], str(row["card"]), row["impact"],
            row["impact_low"], row["impact_high"], row["holder_seat_games"], "holder seat-game",
            f"{row['n_players']} players, {row['agent']}: {row['card']} {verb} its holder {size} points of win rate "
            f"against a neutral card in its place {points_interval(row['impact_low'], row['impact_high'])} (causal, "
            f"the same deals; q = {p_value(row['q_value'])}; held in {count(row['games'])} games)"))
    return found


def _ordinal(rank: int) -> str:
    """1st, 2nd, 3rd, 4th... 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def disagreement_findings(versus: pl.DataFrame | None, impact: pl.DataFrame | None) -> list[Finding]:
    """Cards whose rank by the correlational IWD and by the causal impact disagree
    (``card_impact_vs_gih.disagree``), the largest gap first, with why the IWD is biased."""
    rows = _rows(versus, pl.col("disagree")) if versus is not None else []
    rows.sort(key=lambda row: (-abs(row["rank_gap"]), str(row["card"])))
    held = {(row["n_players"], row["agent"], row["card"]): row["games"]
            for row in (impact.to_dicts() if impact is not None else [])}
    found = []
    for row in rows:
        text = (f"{row['n_players']} players, {row['agent']}: {row['card']} ranks {_ordinal(row['iwd_rank'])} by IWD "
                f"({points(row['iwd'])} points, correlational) but {_ordinal(row['impact_rank'])} by causal impact "
                f"({points(row['impact'])} {points_interval(row['impact_low'], row['impact_high'])}); why: "
                f"{why_they_disagree(row)}")
        found.append(Finding(
            "disagree", row["variant"], row["n_players"], row["agent"], str(row["card"]), row["impact"],
            row["impact_low"], row["impact_high"], held.get((row["n_players"], row["agent"], row["card"]), 0),
            "game", text))
    return found


def removal_findings(removal: pl.DataFrame | None) -> list[Finding]:
    """What one copy fewer of a card significantly changes (``card_removal``), as ``delta_findings``
    judges a variant's changes: q < 0.05 and at least ``DELTA_POINTS`` (``DELTA_SHARE`` of a mean)."""
    if removal is None or removal.is_empty():
        return []
    rows = _rows(removal, pl.col("significant") & _matters())
    rows.sort(key=lambda row: (FAMILY_ORDER.get(row["family"], 9), row["metric"] in MEANS, -abs(row["delta"] or 0),
                               str(row["card"]), str(row["key"])))
    found = []
    for row in rows:
        what = f"games ending by {row['key']}" if row["family"] == "end_reason" else delta_subject(row)
        found.append(Finding(
            "removal", row["variant"], row["n_players"], row.get("agent"), f"{row['card']}: {what}", row["delta"],
            row["delta_low"], row["delta_high"], row["n"], "game" if row["family"] in ("seat", "game", "end_reason")
            else "seat-game",
            f"{row['n_players']} players, one copy fewer of {row['card']}: {what} {_change(row)}, q = "
            f"{p_value(row['q_value'])} (games of its own, unpaired; n = {count(row['n'])})"))
    return found


def _without_arms(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` without the rows of a card impact run's arms (``impact.<card>.<arm>``)."""
    if frame.is_empty() or "variant" not in frame.columns:
        return frame
    arms = [variant for variant in frame["variant"].unique().to_list() if parse_arm_variant(variant) is not None]
    return frame.filter(~pl.col("variant").is_in(arms)) if arms else frame


def run_findings(runs: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Cooperative variants won so often (``HIGH_WIN_RATE``) that the win rate says little:
    their wipes per game and level reached instead."""
    found = []
    for row in _rows(runs, pl.col("win_rate") >= HIGH_WIN_RATE):
        wipes = ("" if row["wipes_per_game"] is None else
                 f"; wipes per game {number(row['wipes_per_game'], 2)} "
                 f"[{number(row['wipes_per_game_low'], 2)}, {number(row['wipes_per_game_high'], 2)}], "
                 f"{percent(row['wipe_rate'])} of games with a wipe")
        level = "" if row["mean_level"] is None else f"; mean level reached {number(row['mean_level'], 2)}"
        found.append(Finding(
            "runs", row["variant"], row["n_players"], None, "win rate", row["win_rate"], row["win_rate_low"],
            row["win_rate_high"], row["games"], "game",
            f"{_where(labels, {**row, '_coop': True})}: the party wins {percent(row['win_rate'])} "
            f"{interval(row['win_rate_low'], row['win_rate_high'])}, which says little{wipes}{level} "
            f"({count(row['games'])} games)"))
    return found


def turn_cap_findings(games: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Variants where more than ``TURN_CAP_SHARE`` of the games stop at the turn cap."""
    return [Finding(
        "turn_cap", row["variant"], row["n_players"], None, "turn cap", row["turn_cap_rate"], row["turn_cap_rate_low"],
        row["turn_cap_rate_high"], row["games"], "game",
        f"{_where(labels, row)}: {percent(row['turn_cap_rate'])} of the games stop at the turn cap "
        f"{interval(row['turn_cap_rate_low'], row['turn_cap_rate_high'])} ({count(row['games'])} games)")
        for row in _rows(games, pl.col("turn_cap_rate") > TURN_CAP_SHARE)]


def deal_findings(seeds: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Variants whose deal surely explains more than ``DEAL_DECIDES`` of the outcome's variance.
    When no replay of any deal ended otherwise, the finding says that agents without random
    choices (such as a heuristic agent) make that 100% by construction."""
    return [Finding(
        "deal", row["variant"], row["n_players"], None, "deal share", row["deal_share"], row["deal_share_low"],
        row["deal_share_high"], row["deals"], "deal",
        f"{_where(labels, row)}: the deal decides {percent(row['deal_share'])} of who wins "
        f"{interval(row['deal_share_low'], row['deal_share_high'])}, whatever the agents do; "
        + (f"{percent(row['same_winner_rate'])} of the deals had the same winner in all {row['replays']} replays "
           if row["ms_within"] != 0 else
           "no replay of any deal ended otherwise: agents that make no random choice (such as a heuristic agent) "
           "replay the same game, which makes this 100% by construction; replay with agents that do ")
        + f"({count(row['deals'])} deals)")
        for row in _rows(seeds, pl.col("deal_share_low") > DEAL_DECIDES)]


def runaway_leader_findings(leads: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Variants whose leader at two thirds of the game surely wins more than ``RUNAWAY_LEADER``."""
    return [Finding(
        "runaway_leader", row["variant"], row["n_players"], None, "2/3 leader win rate",
        row["second_third_leader_win_rate"], row["second_third_leader_win_rate_low"],
        row["second_third_leader_win_rate_high"], row["second_third_led"], "game",
        f"{_where(labels, row)}: the leader at two thirds of the game wins "
        f"{percent(row['second_third_leader_win_rate'])} "
        f"{interval(row['second_third_leader_win_rate_low'], row['second_third_leader_win_rate_high'])}: the last "
        f"third rarely changes the winner ({count(row['second_third_led'])} games)")
        for row in _rows(leads, pl.col("second_third_leader_win_rate_low") > RUNAWAY_LEADER)]


def skill_depth_findings(depth: pl.DataFrame | None, labels: Mapping[str, str]) -> list[Finding]:
    """Variants whose strongest agent is surely less than ``SKILL_EDGE`` better than random play."""
    return [Finding(
        "skill_depth", row["variant"], row["n_players"], row["agent"], "win rate against random", row["win_rate"],
        row["win_rate_low"], row["win_rate_high"], row["seat_games"], "seat-game",
        f"{_where(labels, row)}: the strongest agent, {row['agent']}, wins {percent(row['win_rate'])} "
        f"{interval(row['win_rate_low'], row['win_rate_high'])} at tables with random play, even "
        f"{percent(row['even_rate'])}: skill barely pays ({count(row['seat_games'])} seat-games)")
        for row in _rows(depth, pl.col("strongest")
                         & (pl.col("win_rate_high") < pl.col("even_rate") + SKILL_EDGE))]


def findings(metrics: Mapping[str, pl.DataFrame], labels: Mapping[str, str], *, cooperative: bool) -> list[Finding]:
    """Every finding of a report's metric tables, in reading order (see the module docstring)."""
    impact, versus, removal = (metrics.get(name) for name in ("card_impact", "card_impact_vs_gih", "card_removal"))
    metrics = {name: _without_arms(frame) for name, frame in metrics.items()}
    found: list[Finding] = []
    if not cooperative:
        found += seat_findings(metrics.get("seat_stats"), labels)
        found += first_seat_findings(metrics.get("seat_balance"), labels)
    found += faction_findings(metrics.get("faction_stats"), labels, cooperative)
    found += run_findings(metrics.get("run_stats"), labels)
    found += delta_findings(metrics.get("variant_deltas"), labels)
    found += impact_findings(impact)
    found += disagreement_findings(versus, impact)
    found += removal_findings(removal)
    found += card_findings(metrics.get("card_stats"), labels)
    found += never_played_findings(metrics.get("card_stats"), labels)
    found += never_used_findings(metrics.get("power_stats"), labels)
    found += turn_cap_findings(metrics.get("game_stats"), labels)
    found += deal_findings(metrics.get("seed_influence"), labels)
    found += runaway_leader_findings(metrics.get("lead_stats"), labels)
    found += skill_depth_findings(metrics.get("skill_depth"), labels)
    return found


def findings_frame(found: list[Finding]) -> pl.DataFrame:
    """The findings as a table (the report's ``findings`` table in JSON and CSV)."""
    return pl.DataFrame([finding.data() for finding in found], schema=FINDING_SCHEMA)


def findings_lines(found: list[Finding]) -> list[str]:
    """The findings as the report prints them: grouped by kind, ``PER_KIND`` of each, then a count of the rest."""
    if not found:
        return [f"Nothing outside its band: no seat, faction or card surely outside it (95% interval), no outlier "
                f"card (|z| >= {OUTLIER_Z:g} and {100 * OUTLIER_POINTS:g} points from its agent's mean, with "
                f"{CARD_MIN_EXPECTED:g}+ expected wins and losses in hand), no "
                f"significant variant change (q < 0.05) of {100 * DELTA_POINTS:g} point or more "
                f"({100 * DELTA_SHARE:g}% of a mean)."]
    lines: list[str] = []
    by_kind: dict[str, list[Finding]] = {}
    for finding in found:
        by_kind.setdefault(finding.kind, []).append(finding)
    for kind, group in by_kind.items():
        lines.extend(f"- {finding.text}" for finding in group[:PER_KIND])
        if len(group) > PER_KIND:
            lines.append(f"- ... and {len(group) - PER_KIND} more of this kind: see the {KINDS[kind]} section")
    return lines


def delta_methods(tests: set[str]) -> str:
    """How the deltas' intervals of a table were made, from its rows' tests: the paired ones
    (``mcnemar``: the same seeds in baseline and variant) are not the unpaired ones (``z``),
    and a sweep without ``paired_seeds`` has only those."""
    methods = []
    if "mcnemar" in tests:
        methods.append("MOVER paired interval for rates, on the baseline's seeds")
    if "paired_z" in tests:
        methods.append("card rates and means paired game by game, on the baseline's seeds")
    if "z" in tests:
        methods.append("Newcombe's interval for rates, unpaired")
    if "welch" in tests:
        methods.append("Welch for means")
    return "; ".join(methods) or "none"
