"""Findings page, the dashboard's home: the chosen experiment's findings, ranked as the report
ranks them (``analytics.findings``), each in a designer's words (what moved, by how much, how
sure) with a link to the page, filters and row of its evidence (``dashboard.evidence``);
beside them the run's health: games played of planned, shards finished, damaged or missing
files and the command that repairs them, and what each variant changes."""

from __future__ import annotations

import streamlit as st

from analytics.findings import PER_KIND, findings_lines
from analytics.health import RunHealth
from analytics.report import Report
from dashboard.common import header, load_health, open_report, require_experiment
from dashboard.evidence import KIND_TITLES, Said, findings_said

# Icons of the run's states in the health box. (Comments, not docstrings: Streamlit would draw a
# bare string of a page script.)
STATUS_ICONS = {"finished": ":material/check_circle:", "running": ":material/autorenew:",
                "interrupted": ":material/pause_circle:", "failed": ":material/error:",
                "incomplete": ":material/timelapse:"}


def show_health(health: RunHealth) -> None:
    """The run's health: status, games and shards done of planned, damaged or missing files."""
    with st.container(border=True):
        st.markdown(f"**Run** {STATUS_ICONS.get(health.status, '')} {health.status}"
                    + (f": {health.reason}" if health.reason else ""))
        if health.games_planned:
            st.progress(min(1.0, health.games_played / health.games_planned),
                        text=f"{health.games_played:,} of {health.games_planned:,} games played")
        else:
            st.markdown(f"{health.games_played:,} games played (a balance search: no fixed plan)")
        shards = f"{health.shards_finished:,} of {health.shards_planned:,} shards finished" if health.shards_planned \
            else f"{health.shards_finished:,} shards finished"
        st.caption(shards + (f"; {health.shards_missing:,} not played yet" if health.shards_missing else ""))
        if health.problems:
            st.error(f"{len(health.problems)} damaged or missing file{'s' if len(health.problems) != 1 else ''} "
                     "of finished shards: nothing of this experiment is read until they are repaired.")
            st.code("\n".join(health.problems[:10]), language=None)
            st.markdown("Repair (plays the damaged shards again):")
            st.code(health.repair, language="console")
        elif health.shards_missing and health.status != "running":
            st.markdown("Play the rest:")
            st.code(health.repair, language="console")
        else:
            st.caption("Every finished shard's files match their checksums.")


def show_variants(report: Report) -> None:
    """What each variant changes (its overrides), and how many games it has."""
    with st.container(border=True):
        st.markdown("**Variants**")
        for row in report.variants.iter_rows(named=True):
            st.markdown(f"- `{row['label']}`: {row['overrides']} · {row['games']:,} games")


def show_finding(said: Said, rank: int) -> None:
    """One finding: its headline and where, how sure, and the link to its evidence beside them."""
    with st.container(border=True):
        words, go = st.columns([5, 1], vertical_alignment="center")
        words.markdown(f"**{rank}. {said.headline}** · {said.where}")
        words.caption(said.how_sure)
        go.page_link(said.evidence.page, label=said.evidence.label, query_params=said.evidence.params,
                     icon=":material/arrow_forward:", help="The page, filters and row that show this finding's numbers")


st.title("Findings")
folder = require_experiment()
health = load_health(folder)
left, right = st.columns([3, 1])
with right:
    show_health(health)
if not health.intact:
    with left:
        st.warning(health.summary or health.reason)
    st.stop()
with left:
    report = open_report(folder)
    header(report)
    if report.description:
        st.markdown(f"*{report.description}*")
with right:
    show_variants(report)
with left:
    if not report.findings:
        st.success(findings_lines([])[0])
    by_kind: dict[str, list[Said]] = {}
    for said in findings_said(folder):
        by_kind.setdefault(said.kind, []).append(said)
    rank = 0
    for kind, group in by_kind.items():
        st.subheader(f"{KIND_TITLES.get(kind, kind)} ({len(group)})")
        for said in group[:PER_KIND]:
            rank += 1
            show_finding(said, rank)
        if len(group) > PER_KIND and st.toggle(f"Show the other {len(group) - PER_KIND} of this kind",
                                               key=f"home_more_{kind}"):
            for said in group[PER_KIND:]:
                rank += 1
                show_finding(said, rank)
        else:
            rank += max(0, len(group) - PER_KIND)
