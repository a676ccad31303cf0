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
from experiments.spec import ExperimentSpec, Shard, load_spec
from workers.runner import RunError, RunOptions, RunSummary, StopCheck, run_experiment


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
    """The runner's stop check for ``spec``: every ``[[stop_when]]`` interval as narrow as
    asked, read from the shards finished so far (None when the spec has no targets)."""
    if not spec.stop_when:
        return None
    from analytics.catalog import open_catalog  # as above: only for a spec with targets
    from analytics.folders import AnalyticsError
    from analytics.metrics import targets_met

    targets = list(spec.stop_when)
    source = spec.source or spec.name

    def met(root: ResultsPath) -> bool:
        try:
            connection = open_catalog(root, comments=False)
            try:
                return targets_met(connection, targets)
            finally:
                connection.close()
        except AnalyticsError as error:
            raise RunError(f"{source}: {error}") from None  # the error names stop_when[i]

    return met


def run(spec: ExperimentSpec, options: RunOptions,
        on_shard_done: Callable[[dict[str, Any]], None] | None = None,
        on_start: Callable[[list[Shard]], None] | None = None) -> RunSummary:
    """Play ``spec`` through the runner, stopping early when its targets are met."""
    return run_experiment(spec, options, on_shard_done=on_shard_done, on_start=on_start,
                          stop_check=early_stop(spec))
