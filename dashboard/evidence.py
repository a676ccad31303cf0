"""The report's findings in a designer's words, each with a link to the page, filters and row
that show its evidence (the home page lists them; the page a link opens says which finding
it shows and selects its row).

A finding (``analytics.findings.Finding``) says what moved (``headline``: a seat, a faction,
a card, a variant's change), by how much against what, and how sure (``how_sure``: the 95%
interval beyond the band, or the q-value after Benjamini–Hochberg). ``evidence`` is where
its numbers are: the page and the filters, kept in the page address like every filter, plus
``?finding=N`` (its place in the report's list), by which the opened page finds the finding
again (``shown_finding``) to say so and select its row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl
import streamlit as st

from analytics.findings import METRIC_NAMES, Finding, delta_subject
from analytics.report import Report
from analytics.text_tables import count, p_value, percent, points, points_interval
from analytics.views import CARD_BAND, FACTION_BAND
from analytics.views.deltas import MEANS
from dashboard.common import ALL_AGENTS, ResultsVersion, lineup_agents, load_report, version
from dataset.location import ResultsPath
from simcore.describe import card_name

FINDING_KEY = "finding"
"""The address key of the finding a page was opened for (its index in the report's findings)."""
KIND_TITLES = {"seat": "Seats", "faction": "Factions", "runs": "Cooperative runs", "delta": "Changes from the baseline",
               "card": "Cards that stand out", "never_played": "Cards never played",
               "never_used": "Powers never used", "turn_cap": "Games stopped by the turn cap",
               "first_seat": "First seat, per agent", "impact": "Card impact", "disagree": "Correlation against impact",
               "removal": "One copy fewer", "deal": "The deal's share", "runaway_leader": "Runaway leaders",
               "skill_depth": "Skill depth"}
"""A heading per finding kind, in the report's order of kinds."""


@dataclass(frozen=True)
class Evidence:
    """Where a finding's numbers are: a page, the label of the link, and the address's filters."""

    page: str
    label: str
    params: dict[str, str]


def _players(report: Report) -> str:
    return "heroes" if report.cooperative else "players"


def where(finding: Finding, report: Report) -> str:
    """The variant, player count and agent a finding is about: ``no_twelves, 2 players, heuristic``."""
    place = f"{report.labels.get(finding.variant, finding.variant)}, {finding.n_players} {_players(report)}"
    return f"{place}, {finding.agent}" if finding.agent else place


def delta_row(finding: Finding, report: Report) -> dict[str, Any] | None:
    """The ``variant_deltas`` row a delta finding was made of."""
    deltas = report.variant_deltas
    if deltas.is_empty():
        return None
    rows = deltas.filter((pl.col("variant") == finding.variant) & (pl.col("n_players") == finding.n_players))
    return next((row for row in rows.iter_rows(named=True) if delta_subject(row) == finding.subject), None)


def _row(frame: pl.DataFrame, finding: Finding, **keys: Any) -> dict[str, Any] | None:
    if frame.is_empty():
        return None
    condition = (pl.col("variant") == finding.variant) & (pl.col("n_players") == finding.n_players)
    for name, value in keys.items():
        condition &= pl.col(name) == value
    rows = frame.filter(condition)
    return rows.row(0, named=True) if rows.height else None


def card_names(report: Report) -> Mapping[str, str]:
    """Card key -> its printed name, for the cards of the report."""
    return {str(card): card_name(str(card)) for card in report.card_stats["card"].unique().to_list()} \
        if not report.card_stats.is_empty() else {}


def delta_words(row: Mapping[str, Any]) -> str:
    """What a ``variant_deltas`` row compares, a card by its printed name: ``Oracle (heuristic)
    play rate``, ``seat 0 win rate``, ``mean turns`` (``delta_subject`` names a card by its key)."""
    if row["family"] == "card":
        return f"{card_name(str(row['key']))} ({row['agent']}) {METRIC_NAMES.get(row['metric'], row['metric'])}"
    return delta_subject(row)


def headline(finding: Finding, report: Report) -> str:
    """What moved and by how much, in a designer's words (one line, no statistics jargon)."""
    kind, value = finding.kind, finding.value
    if kind == "seat":
        row = _row(report.seat_stats, finding, seat=int(finding.subject.removeprefix("seat ")))
        fair = row["fair_share"] if row else 1 / finding.n_players
        return (f"Seat {finding.subject.removeprefix('seat ')} takes {percent(value)} of the wins: "
                f"{points((value or 0) - fair)} points from the fair {percent(fair)}")
    if kind == "first_seat":
        return (f"{finding.agent} wins {points(value)} points more from seat 0 than over all its seats "
                "(a lineup of different agents: its own seats compared)")
    if kind == "faction":
        row = _row(report.faction_stats, finding, faction=finding.subject)
        expected = row["expected"] if row else None
        gap = f"{points((value or 0) - expected)} points from the expected {percent(expected)}" if expected else ""
        return f"{finding.subject} wins {percent(value)} of its games" + (f": {gap}" if gap else "")
    if kind == "runs":
        return (f"The party wins {percent(value)} of its games: too often for the win rate to tell an easy "
                "setting from a hard one")
    if kind == "delta":
        row = delta_row(finding, report)
        if row is None:
            return finding.subject
        what = delta_words(row)
        if row["metric"] in MEANS:
            change = (row["value"] - row["baseline_value"]) / row["baseline_value"] if row["baseline_value"] else 0
            return f"{what}: {row['baseline_value']:.2f} → {row['value']:.2f} ({100 * change:+.1f}%)"
        return (f"{what}: {percent(row['baseline_value'])} → {percent(row['value'])} "
                f"({points(row['delta'])} points)")
    if kind == "card":
        row = _row(report.card_stats, finding, agent=finding.agent, card=finding.subject)
        mean = row["card_mean"] if row else None
        name = card_names(report).get(finding.subject, finding.subject)
        return (f"{name} wins {percent(value)} in hand"
                + (f": {points((value or 0) - mean)} points from {finding.agent}'s card mean {percent(mean)}"
                   if mean is not None else ""))
    if kind == "never_played":
        cards = finding.subject.split(", ")
        names = card_names(report)
        shown = ", ".join(names.get(card, card) for card in cards[:6]) + (
            f" and {len(cards) - 6} more" if len(cards) > 6 else "")
        return f"{finding.agent} never plays {len(cards)} card{'s' if len(cards) != 1 else ''}: {shown}"
    if kind == "never_used":
        powers = finding.subject.split(", ")
        return f"{finding.agent} never uses {len(powers)} power{'s' if len(powers) != 1 else ''}: {finding.subject}"
    if kind == "turn_cap":
        return f"{percent(value)} of the games stop at the turn cap instead of ending"
    return finding.text


def how_sure(finding: Finding, report: Report) -> str:
    """How sure the finding is, and on how much evidence (its interval, q-value and sample)."""
    sample = f"{count(finding.n)} {finding.unit}s"
    if finding.kind in ("seat", "faction"):
        return (f"Sure: the whole 95% interval, {percent(finding.low)} to {percent(finding.high)}, is more than "
                f"{100 * FACTION_BAND:g} points off ({sample}).")
    if finding.kind == "card":
        return (f"The whole 95% interval is {percent(finding.low)} to {percent(finding.high)} ({sample}; "
                f"flagged beyond {100 * CARD_BAND:g} points or as an outlier). A correlation: a card held by the "
                "winner did not necessarily make it win.")
    if finding.kind == "delta":
        row = delta_row(finding, report)
        if row is None:
            return sample
        interval = (f"{row['delta_low']:+.2f} to {row['delta_high']:+.2f}" if row["metric"] in MEANS
                    else f"{points_interval(row['delta_low'], row['delta_high'])} points")
        return (f"95% interval {interval}; q = {p_value(row['q_value'])} after the Benjamini–Hochberg correction: "
                f"not noise at a 5% false-discovery rate ({sample} per arm, {row['test']}).")
    if finding.kind in ("runs", "turn_cap"):
        return f"95% interval {percent(finding.low)} to {percent(finding.high)} ({sample})."
    if finding.kind == "first_seat":
        return (f"Sure: the whole 95% interval, {points_interval(finding.low, finding.high)} points, is more than "
                f"{100 * FACTION_BAND:g} points off ({sample}).")
    return f"Over {sample}."


def _agent_choice(finding: Finding, report: Report) -> str:
    """The agent filter that shows a finding of every seat: its own agent, else the only agent
    of the lineup, else every agent pooled (the report's all-seat tables)."""
    if finding.agent:
        return finding.agent
    agents = lineup_agents(report, finding.variant, finding.n_players)
    return agents[0] if len(agents) == 1 else ALL_AGENTS


def evidence(index: int, finding: Finding, report: Report) -> Evidence:
    """The page, link label and address of the evidence of ``report.findings[index]``."""
    base = {"variant": finding.variant, "players": str(finding.n_players), FINDING_KEY: str(index)}
    if finding.kind in ("impact", "disagree", "removal"):
        return Evidence("pages/impact.py", "Card impact", base)
    if finding.kind in ("deal", "runaway_leader", "skill_depth"):
        return Evidence("pages/design.py", "Game design", base)
    if finding.kind in ("seat", "first_seat", "faction", "runs", "never_used"):
        return Evidence("pages/win_rates.py", "Win rates", {**base, "agent": _agent_choice(finding, report)})
    if finding.kind == "delta":
        row = delta_row(finding, report)
        params = {**base, "family": str(row["family"]) if row else "game"}
        if row and row.get("agent"):
            params["agent"] = str(row["agent"])
        return Evidence("pages/variants.py", "Variants", params)
    if finding.kind == "card":
        return Evidence("pages/card.py", "Card detail", {**base, "card": finding.subject,
                                                         "agent": finding.agent or ""})
    if finding.kind == "never_played":
        return Evidence("pages/cards.py", "Cards", {**base, "agent": finding.agent or "", "show": "never played"})
    return Evidence("pages/game_length.py", "Game length", {**base, "agent": _agent_choice(finding, report)})


@dataclass(frozen=True)
class Said:
    """A finding as the home page says it: headline, where, how sure, and its evidence."""

    index: int
    kind: str
    headline: str
    where: str
    how_sure: str
    evidence: Evidence


@st.cache_data(show_spinner=False, max_entries=16)
def _said(folder: str, results_version: ResultsVersion) -> list[Said]:
    report = load_report(folder, results_version)
    return [Said(index, finding.kind, headline(finding, report), where(finding, report), how_sure(finding, report),
                 evidence(index, finding, report)) for index, finding in enumerate(report.findings)]


def findings_said(folder: ResultsPath) -> list[Said]:
    """Every finding of the experiment's report, in the report's order, as the home page says
    it; worded once per results version (a report can hold hundreds of findings)."""
    return _said(str(folder), version(folder))


def shown_finding(report: Report, variant: str, n_players: int) -> Finding | None:
    """The finding this page was opened for (``?finding=N``), while the page shows its variant
    and player count; said in a box at the top. None otherwise (the address then forgets it)."""
    text = st.query_params.get(FINDING_KEY, "")
    found = report.findings[int(text)] if text.isdigit() and int(text) < len(report.findings) else None
    if found is None or found.variant != variant or found.n_players != n_players:
        if FINDING_KEY in st.query_params:
            del st.query_params[FINDING_KEY]
        return None
    st.info(f"**From the findings:** {headline(found, report)} ({where(found, report)}). "
            f"{how_sure(found, report)} Its row is selected below.", icon=":material/lightbulb:")
    return found
