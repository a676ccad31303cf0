"""What the comparison pages (Variants, Compare experiments, What-if result) open on: what the
change was (the parameters and the cards it touched, each card's face before and after:
``analytics.changes``), those cards' own metrics first, and, when nothing moved enough to
tell, the smallest change the games could have detected (``analytics.sensitivity``: ``cardlab
plan``'s formula) with the games a chosen size needs: the command, and on a dashboard that
launches runs (``--allow-runs``) a button that queues that larger run.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import polars as pl
import streamlit as st

from analytics.changes import Change, ParameterChange, value_text
from analytics.health import more_games_command
from analytics.sensitivity import POWER, detectable_difference, games_to_detect
from analytics.text_tables import percent, points
from dashboard.common import table
from dashboard.evidence import delta_words
from dataset.location import ResultsPath
from drivers.launcher import LaunchRefused, launch, policy_from_environment
from experiments.spec import SpecError, parse_spec
from experiments.whatif import WHATIF_VARIANT, whatif_toml
from simcore.describe import CardFace, card_name
from workers.runner import shrink_spec

RATE_METRICS = ("gih_win_rate", "play_rate", "played_win_rate", "win_rate", "team_win_rate", "draw_rate",
                "turn_cap_rate")
"""The ``variant_deltas`` metrics that are rates (the others, turns and decisions, are means)."""
OWN_METRICS = ("play_rate", "gih_win_rate", "played_win_rate")
"""A touched card's own metrics, in the order they are shown: is it played, does it win in hand,
does it win when played."""


def _face_line(face: CardFace | None) -> str:
    if face is None:
        return "not in the game"
    copies = "" if face.copies is None else f" · {face.copies} cop{'y' if face.copies == 1 else 'ies'}"
    return f"{face.kind}{copies}" + (f" · {face.text}" if face.text else "")


def show_change(change: Change | None, *, before: str, after: str) -> None:
    """What ``after`` changes against ``before``: each card touched with its face on both
    sides and its changed fields, each rule, and the experiment's own settings that differ."""
    if change is None:
        st.caption("What changed cannot be said: the experiment's spec no longer reads with this version's games.")
        return
    if change.empty:
        st.markdown(f"**Nothing differs** between {before} and {after}: the same parameters and settings.")
        return
    for card in change.cards:
        face_before, face_after = change.faces_before.get(card), change.faces_after.get(card)
        face = face_after or face_before
        name = face.name if face is not None else card_name(card)
        with st.container(border=True):
            st.markdown(f"**{name}** (`{card}`): " + ", ".join(
                f"{each.path.removeprefix(f'cards.{card}.')} {value_text(each.before)} → {value_text(each.after)}"
                for each in change.card_changes(card)))
            st.caption(f"{before}: {_face_line(face_before)}  \n{after}: {_face_line(face_after)}")
    rules = change.rules
    settings = list(change.settings)
    if rules or settings:
        st.markdown("\n".join(f"- `{each.path}`: {value_text(each.before)} → {value_text(each.after)}"
                              for each in [*rules, *settings]))


def own_metric_rows(rows: pl.DataFrame, cards: Sequence[str]) -> pl.DataFrame:
    """The ``variant_deltas`` rows of the touched ``cards`` (every agent): the change's own
    metrics, card by card in the change's order, each card's metrics in ``OWN_METRICS`` order."""
    if rows.is_empty() or not cards:
        return rows.clear()
    order = {card: index for index, card in enumerate(cards)}
    metric_order = {metric: index for index, metric in enumerate(OWN_METRICS)}
    return (rows.filter((pl.col("family") == "card") & pl.col("key").is_in(list(cards)))
            .with_columns(pl.col("key").replace_strict(order, default=len(order)).alias("_card"),
                          pl.col("metric").replace_strict(metric_order, default=len(metric_order)).alias("_metric"))
            .sort("_card", "agent", "_metric").drop("_card", "_metric"))


def readable_deltas(rows: pl.DataFrame) -> pl.DataFrame:
    """Delta rows as a designer reads them: what (a card by its printed name, its agent and the
    metric), baseline, variant, difference with its interval, q, significant, test, sample."""
    what = [delta_words(row) for row in rows.iter_rows(named=True)]
    return rows.with_columns(pl.Series("what", what, dtype=pl.String)).select(
        "what", "baseline_value", "value", "delta", "delta_low", "delta_high", "q_value", "significant", "test", "n")


def show_deltas(rows: pl.DataFrame, *, key: str, value_name: str = "variant",
                focus: tuple[str, Any] | None = None) -> None:
    """Delta rows in two tables: rates in % with their differences in points, and means (turns,
    decisions per game) in their own unit; the name, difference and q-value in view."""
    rates = rows.filter(pl.col("metric").is_in(RATE_METRICS))
    means = rows.filter(~pl.col("metric").is_in(RATE_METRICS))
    names = {"value": value_name, "baseline_value": "baseline"}
    if rates.height:
        table(readable_deltas(rates), percent=("baseline_value", "value"), points=("delta", "delta_low", "delta_high"),
              names=names, key=f"{key}_rates", focus=focus)
    if means.height:
        st.caption("Means per game (turns, decisions), in their own unit:")
        table(readable_deltas(means), plain=("baseline_value", "value", "delta", "delta_low", "delta_high"),
              names=names, key=f"{key}_means", focus=focus)


def detectable_rows(rows: pl.DataFrame) -> pl.DataFrame:
    """For each rate row (a ``variant_deltas`` row: baseline rate, effective sample sizes), the
    smallest change its games could detect (``detectable``) at 80% power, two-sided 5%, from
    the smaller side's effective sample (``sample``)."""
    rates = rows.filter(pl.col("metric").is_in(RATE_METRICS) & pl.col("baseline_value").is_not_null())
    samples = [float(min([value for value in (row.get("baseline_effective_n"), row.get("effective_n"),
                                              row.get("baseline_n"), row.get("n")) if value is not None] or [0.0]))
               for row in rates.iter_rows(named=True)]
    sizes = [detectable_difference(float(row["baseline_value"]), sample)
             for row, sample in zip(rates.iter_rows(named=True), samples, strict=True)]
    return rates.with_columns(pl.Series("sample", samples, dtype=pl.Float64),
                              pl.Series("detectable", sizes, dtype=pl.Float64))


def show_null_result(rows: pl.DataFrame, *, folder: ResultsPath, spec: dict[str, Any], allow_queue: bool,
                     key: str) -> None:
    """A null result: the smallest change each headline rate (``rows``: the touched cards' own
    metrics, else the win rates) could have shown, and the games per arm a chosen size needs,
    as a command and (a what-if on a dashboard that launches runs) a button that queues it."""
    sized = detectable_rows(rows).filter(pl.col("detectable").is_not_null())
    if sized.is_empty():
        return
    shown = readable_deltas(sized).with_columns(sized["detectable"], sized["sample"])
    first = sized.row(0, named=True)
    st.markdown(f"**Not seen is not absent.** With these games, a change smaller than "
                f"{points(first['detectable']).lstrip('+')} points in {shown['what'][0]} (now "
                f"{percent(first['baseline_value'])}) could have happened unseen: that is the smallest change "
                f"they detect {100 * POWER:.0f}% of the time (two-sided test at 5%; `cardlab plan`'s formula, "
                "unpaired: with the baseline's own deals fewer games may do).")
    table(shown.select("what", "baseline_value", "detectable", "sample"), percent=("baseline_value",),
          points=("detectable",), names={"detectable": "smallest detectable change (points)",
                                         "sample": "effective sample per arm"}, key=f"{key}_detectable")
    games = int(spec.get("games", 0) or 0)
    size = st.number_input("Detect a change of (points)", min_value=0.1, max_value=50.0, step=0.5,
                           value=max(0.5, round(100 * first["detectable"]) / 2), key=f"{key}_size",
                           help=f"The games per variant and player count that detect a change this large in "
                                f"{shown['what'][0]} {100 * POWER:.0f}% of the time.")
    p = float(first["baseline_value"])
    try:
        needed = games_to_detect(p, size / 100)
    except ValueError:
        st.caption("No such change is possible from this rate.")
        return
    sample = max(1.0, float(first["sample"]))
    wanted = max(games, math.ceil(games * needed / sample)) if games else needed
    command = more_games_command(folder, wanted)
    st.markdown(f"About **{wanted:,} games** per variant and player count (now {games:,}) detect a change of "
                f"{size:g} points there:")
    st.code(command, language="console")
    if allow_queue:
        _queue_button(folder, spec, wanted, key)


def _queue_button(folder: ResultsPath, spec: dict[str, Any], games: int, key: str) -> None:
    """A button that queues ``games`` per variant of the what-if in ``folder`` (``shrink_spec``:
    the same seeds, a new folder ``<name>-games-N``) through the launcher."""
    policy = policy_from_environment(os.environ, str(st.get_option("server.address") or ""))
    if not policy.allowed or WHATIF_VARIANT not in (spec.get("variants") or {}):
        return
    if st.button(f"Queue {games:,} games per variant", key=f"{key}_queue", type="primary"):
        try:
            larger = shrink_spec(parse_spec(dict(spec), "spec.json"), games)
            run = launch(folder.parent, larger, whatif_toml(larger), policy,
                         st.session_state.get("newrun_token_accepted"), base=f"experiment {folder.name}")
        except (SpecError, LaunchRefused) as error:
            st.error(str(error))
        else:
            st.success(f"{run.name}: {run.state} ({run.games:,} games). The New run page follows it.")


def change_rows(rows: pl.DataFrame, change: Change | None) -> pl.DataFrame:
    """The headline rows of a comparison: the touched cards' own metrics (``own_metric_rows``),
    else (a rule's change) the win rates of seats, agents and factions."""
    own = own_metric_rows(rows, change.cards if change is not None else [])
    if own.height:
        return own
    return rows.filter(pl.col("family").is_in(["seat", "agent", "faction", "game"]) & (
        pl.col("metric").is_in(["win_rate", "team_win_rate"])))


def parameter_lines(changes: Sequence[ParameterChange]) -> str:
    """Changed parameters as one line: ``rules.rounds = 4, cards.oracle.use = ["draw 1"]``."""
    return ", ".join(f"{each.path} = {value_text(each.after)}" for each in changes)
