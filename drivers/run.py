"""A run with its early stop: what ``cardlab run`` plays and what the New run page checks.

The runner (``workers.runner``) plays shards and knows nothing of metrics.
Whether a spec's ``[[stop_when]]`` targets are met is read from the results
by ``analytics``; this driver builds that question as a function
(``early_stop``) and hands it to the runner. The same layer checks a loaded
spec's targets against the real metric views before anything is played
(``load_checked_spec``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from dataset.location import ResultsPath
from dataset.storage import finished_shards
from experiments.spec import ExperimentSpec, Shard, load_spec
from workers.runner import RunError, RunOptions, RunSummary, StopCheck, StopVerdict, run_experiment


def load_checked_spec(path: str | Path) -> ExperimentSpec:
    """Read an experiment file and check its ``[[stop_when]]`` targets against the metric
    views (one game per player count, in this process), so that a run or a dry run refuses
    a mistake in them before Ray starts; raises ``SpecError`` naming the file and key."""
    spec = load_spec(path)
    if spec.stop_when:
        # Here, not at the top: polars and DuckDB take a second to import, which a run without
        # targets (most of them) should not wait for before it starts playing.
        from analytics.metrics import check_stop_when

        check_stop_when(spec)
    return spec


def early_stop(spec: ExperimentSpec) -> StopCheck | None:
    """The runner's stop check for ``spec``, read from the shards finished so far: True once
    every ``[[stop_when]]`` interval is as narrow as asked; for a card impact run with
    ``[impact] max_width``, else the arms whose impact interval is that narrow (after
    ``min_games`` games with the card held), whose remaining shards are then not played.
    None when the spec has neither."""
    impact = spec.impact if spec.impact is not None and spec.impact.max_width is not None else None
    if not spec.stop_when and impact is None:
        return None
    from analytics.catalog import open_catalog  # as above: only for a spec with targets
    from analytics.folders import AnalyticsError
    from analytics.impact import finished_arms
    from analytics.metrics import targets_met

    targets = list(spec.stop_when)
    source = spec.source or spec.name
    # The arms are read again only once the finished shards have grown by IMPACT_CHECK_GROWTH
    # (geometric spacing: a few dozen reads over a run of hundreds of shards, each of which
    # reads every card row); the targets are cheap (cached counts) and read every round.
    read_at: list[int] = [0]
    arms_done: set[str] = set()

    def met(root: ResultsPath) -> StopVerdict:
        finished = len(finished_shards(root)) if impact is not None else 0
        read_arms = impact is not None and finished >= IMPACT_CHECK_GROWTH * read_at[0]
        if not targets and not read_arms:
            return frozenset(arms_done)  # nothing to read this round: no catalog opened
        try:
            connection = open_catalog(root)
            try:
                if targets and targets_met(connection, targets):
                    return True
                if impact is None or impact.max_width is None:
                    return False
                if read_arms:
                    read_at[0] = finished
                    arms_done.update(finished_arms(connection, impact.max_width, impact.min_games))
                return frozenset(arms_done)
            finally:
                connection.close()
        except AnalyticsError as error:
            raise RunError(f"{source}: {error}") from None  # the error names stop_when[i]

    return met


IMPACT_CHECK_GROWTH = 1.25
"""A card impact run's arms are checked again once the finished shards are this many times
as many as at the last check."""


def run(spec: ExperimentSpec, options: RunOptions,
        on_shard_done: Callable[[dict[str, Any]], None] | None = None,
        on_start: Callable[[list[Shard]], None] | None = None) -> RunSummary:
    """Play ``spec`` through the runner, stopping early when its targets are met."""
    return run_experiment(spec, options, on_shard_done=on_shard_done, on_start=on_start,
                          stop_check=early_stop(spec))
