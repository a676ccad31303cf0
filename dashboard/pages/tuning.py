"""Tuning page: a balance search (``cardlab tune``) at a glance, in a designer's words first.
The answer as changes to the card data and rules, each target's confirmed value and interval
in % or points, and how much of the space was seen; then the optimiser's view: the Pareto
front of change cost against target miss (a click on a point picks a candidate), the
objective over the trials, and the picked candidate's looks, confirmed targets and full
report against the current data. Everything comes from ``analytics.tuning`` and the report."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from analytics.folders import list_experiments
from analytics.report import candidate_report, render_report
from analytics.tuning import (
    TRIAL_TARGETS,
    TRIALS,
    answer_lines,
    band_words,
    change_lines,
    intervals_words,
    objective_history,
    read_state,
    read_table,
    search_folder,
    seen_words,
    state_version,
    tuning_tables,
    value_interval_words,
)
from dashboard.common import EXPERIMENT_KEY, open_report, require_experiment, results_root, table
from dashboard.tuning_charts import SELECTION, front_chart, history_chart
from dataset.location import results_path

TRIAL_KEY = "tuning_trial"
OPEN_VARIANTS = "tuning_open_variants"


@st.cache_data(show_spinner="Reading the tuning run...", max_entries=16)
def load_tuning(folder: str, version: float) -> dict[str, Any]:
    """The tuning run's state, tables and trials (cached until its state changes)."""
    path = results_path(folder)
    return {"state": read_state(path), "tables": tuning_tables(path), "trials": read_table(path, TRIALS),
            "targets": read_table(path, TRIAL_TARGETS)}


def open_variants(experiment: str) -> None:
    """Button callback: choose ``experiment`` and go to the Variants page on the next run."""
    st.session_state[EXPERIMENT_KEY] = experiment
    st.session_state[OPEN_VARIANTS] = True


if st.session_state.pop(OPEN_VARIANTS, False):
    st.switch_page("pages/variants.py")

st.title("Tuning")
folder = require_experiment()
search = search_folder(folder)
if search is None:
    runs = [path.name for path in list_experiments(results_root()) if search_folder(path) == path]
    st.info("This experiment is not a balance search. `cardlab tune experiments/tune/divvy_tune.toml` makes one"
            + (f"; tuning runs here: {', '.join(runs)}." if runs else "."))
    st.stop()
data = load_tuning(str(search), state_version(search))
state, tables, trials = data["state"], data["tables"], data["trials"]
space = tables["tuning_search"].row(0, named=True)
seen = seen_words(space["points"], space["space_points"], space["repeated_asks"], space["space_known"])
st.caption(f"Tuning run **{search.name}** · {seen} · {state['batches']} batches · status **{state['status']}** · "
           f"`{search}`")


def targets_in_words(targets: list[dict[str, Any]]) -> pl.DataFrame:
    """The answer's confirmed targets as a designer reads them: value and interval in % or points."""
    rows = []
    for target in targets:
        column = str(target.get("metric") or "").split(".")[-1]
        rows.append({"verdict": target["verdict"], "target": target["target"], "where": target["worst_row"],
                     "confirmed": value_interval_words(column, target["value"], target["low"], target["high"])
                     if target.get("value") is not None else "no rows",
                     "wanted": band_words(column, target["band_low"], target["band_high"])})
    return pl.DataFrame(rows, schema={name: pl.String for name in ("verdict", "target", "where", "confirmed",
                                                                     "wanted")})


answer = state.get("answer")
if answer:
    headline, *rest = answer_lines(answer)
    changes = "".join(f"  \n- {line}" for line in change_lines(answer))
    # Whether cheaper candidates (the current data among them) come as close within noise.
    noise = "".join(f"  \n{line.strip()}" for line in rest if line.strip().startswith("within noise:"))
    (st.success if answer["all_met"] else st.warning)(f"**{headline}**{changes}{noise}")
    table(targets_in_words(answer["targets"]), key="answer_table")
    intervals = intervals_words(answer)
    st.caption(f"{intervals[0].upper()}{intervals[1:]}. Each target shows its worst row.")
    with st.expander("Optimiser detail", expanded=False):
        st.markdown(f"Trial **{answer['trial']}** (variant `{answer['variant']}`), change cost "
                    f"**{answer['cost']:.3f}**, miss **{answer['miss']:.4g}** [{answer['miss_low']:.4g}, "
                    f"{answer['miss_high']:.4g}]: the targets' weighted distance from their bands, which the search "
                    "minimises together with the change cost.")
else:
    st.info("Not confirmed yet: `cardlab tune SPEC --resume` finishes the search and confirms the best candidates.")

st.subheader("Targets")
table(tables["tuning_targets"], key="targets_table")

front = tables["tuning_front"]
if front.is_empty():
    st.info("No candidate has been looked at yet.")
    st.stop()
st.subheader("The optimiser's view: change cost against miss")
event = st.altair_chart(front_chart(front), width="stretch", on_select="rerun", selection_mode=SELECTION,
                        key="tuning_front_chart")
st.caption("Each candidate's latest search look: its miss (point) and 95% interval (bar); the Pareto front (dark, "
           "joined) holds the candidates that no other beats on both cost and miss. Click a point to pick it below.")
clicked = (event.selection.get(SELECTION) or [{}])[0].get("trial") if event else None
if clicked is not None:
    st.session_state[TRIAL_KEY] = int(clicked)
st.subheader("Objective over the trials")
st.altair_chart(history_chart(objective_history(trials)), width="stretch")
st.caption("Each trial's first look, as the sampler was told it (the upper end of its miss interval), and the "
           "best so far (line).")

st.subheader("A candidate")
candidates = front.filter(pl.col("miss").is_not_null())
trial_numbers = candidates["trial"].to_list()
if st.session_state.get(TRIAL_KEY) not in trial_numbers:
    st.session_state[TRIAL_KEY] = answer["trial"] if answer and answer["trial"] in trial_numbers else trial_numbers[0]
labels = {row["trial"]: f"trial {row['trial']}: {row['change_words'] or row['change'] or 'the current data'}"
          for row in candidates.to_dicts()}
trial = st.selectbox("Candidate (or click a point above)", trial_numbers, key=TRIAL_KEY,
                     format_func=lambda number: labels[number])
chosen = candidates.filter(pl.col("trial") == trial).row(0, named=True)
variant = chosen["variant"]
looks = trials.filter((pl.col("variant") == variant) & pl.col("duplicate_of").is_null()).select(
    "stage", "experiment", "rung", "games", "cost", "miss", "miss_low", "miss_high", "met", "not_met", "undecided",
    "confidence")
st.markdown(f"**Change:** {chosen['change_words'] or chosen['change'] or '(none: the current data)'} · "
            f"**change cost** {chosen['cost']:.3f}")
table(looks, percent=("confidence",), drop=(), key="looks_table")
confirmed = tables["tuning_confirmation"]
if not confirmed.is_empty() and variant in confirmed["variant"].to_list():
    st.markdown("**Confirmed targets** (fresh seeds; intervals joint over every row of every confirmed variant)")
    table(targets_in_words(confirmed.filter(pl.col("variant") == variant).to_dicts()), key="confirmed_table")
    report_folder = search.with_name(f"{search.name}-confirm")
else:
    st.caption("Not confirmed: its report is from the search's games (common seeds, its last rung).")
    report_folder = search
st.button(f"Open {report_folder.name} on the Variants page", on_click=open_variants, args=(report_folder.name,))
with st.expander(f"Full report of {variant} against the current data ({report_folder.name})", expanded=False):
    report = candidate_report(open_report(report_folder), variant)
    st.markdown(render_report(report, "markdown", card_rows=10))
