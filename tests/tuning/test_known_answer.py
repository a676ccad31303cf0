"""``cardlab tune`` on a game whose fair value is known: it finds it, confirms it, and the
same spec gives the same trials on 1 or 2 workers and after a stop and ``--resume``.

The synthetic duel (``tests.tuning.duel``): seat 0 hits 20% of its shots, seat
1 60%, seat 0 needs 2 hits. Which number of hits for seat 1 makes seat 0 win
half the games? Dynamic programming says 5 (seat 0 wins 50.3%); 4 and 6 give
38.7% and 60.3%, far outside the target band [46%, 54%], so the answer is unique.
The budget, 11 points of the 12, leaves the proposing to the sampler.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
import ray

from analytics.tuning import TRIAL_TARGETS, TRIALS, read_state, read_table
from drivers.tuning import TuningSummary, run_tuning
from experiments.tuning import TuningSpec, parse_tuning_spec
from simcore.registry import GAMES
from tests.embedded_ray import fresh_ray
from tests.tuning.duel import GAME, INFO, seat_zero_win_probability
from workers.runner import RunOptions

DUEL_TUNE = """
name = "duel_tune"
game = "duel"
agents = ["random"]
seed = 7
shard_size = 200

[space]
"rules.second_hits" = [1, 12]   # 12 points, more than the trial budget: the sampler proposes, none twice

[[targets]]
name = "fair seat 0"
metric = "seat_stats.win_rate"
where = { seat = 0 }
between = [0.46, 0.54]

[[targets]]
name = "short duels"
metric = "game_stats.mean_turns"
at_most = 100

[search]
trials = 11
batch = 4
games = [200, 800]
promote = 3

[confirm]
candidates = 2
games = 4000
"""
BAND = (0.46, 0.54)


def exact(second_hits: int) -> float:
    return seat_zero_win_probability(0.2, 0.6, 2, second_hits)


class Interrupted(Exception):
    """Stands for a Ctrl-C after a batch."""


@contextmanager
def local_ray(workers: int) -> Iterator[None]:
    """A fresh local Ray of ``workers`` CPUs whose workers know the duel game."""
    with fresh_ray():
        ray.init(address="local", num_cpus=workers, include_dashboard=False, _node_ip_address="127.0.0.2",
                 logging_level=logging.WARNING,
                 runtime_env={"worker_process_setup_hook": "tests.tuning.duel.register"})
        yield


def tune(spec: TuningSpec, results: Path, workers: int, resume: bool = False, stop_after: int | None = None
         ) -> TuningSummary:
    """Run the search on the Ray started by ``local_ray``, ``workers`` shards at once at most (a
    one-worker search keeps one shard in flight: the runner keeps two per worker in flight,
    which on a Ray of two CPUs would play two at once)."""

    def on_batch(batch: int) -> None:
        if stop_after is not None and batch == stop_after:
            raise Interrupted

    options = RunOptions(results_root=results, workers=workers, resume=resume,
                         max_in_flight=1 if workers == 1 else None)
    return run_tuning(spec, options, say=lambda line: None, on_batch=on_batch)


@pytest.fixture(scope="module")
def duel_spec() -> Iterator[TuningSpec]:
    GAMES[INFO.id] = GAME
    try:
        yield parse_tuning_spec(tomllib.loads(DUEL_TUNE), "duel_tune.toml")
    finally:
        GAMES.pop(INFO.id, None)


@pytest.fixture(scope="module")
def runs(duel_spec: TuningSpec, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same search on two workers, on one, and stopped after a batch then resumed.

    All three share one Ray of two CPUs (its start-up and shutdown cost seconds each);
    the one-worker search keeps one shard in flight (``tune``), so that its shards really
    run one at a time. A stop comes between batches (``on_batch``), when no shard is being
    played, so the resumed run finds exactly what a stopped ``cardlab tune`` leaves on disk."""
    folders = {name: tmp_path_factory.mktemp(name.replace(" ", "_"))
               for name in ("two workers", "one worker", "stopped and resumed")}
    with local_ray(2):
        tune(duel_spec, folders["two workers"], workers=2)
        stopped = folders["stopped and resumed"]
        with pytest.raises(Interrupted):
            tune(duel_spec, stopped, workers=2, stop_after=1)
        assert read_state(stopped / "duel_tune")["batches"] == 2
        tune(duel_spec, stopped, workers=2, resume=True)
        tune(duel_spec, folders["one worker"], workers=1)
    return folders


def test_the_fair_value_is_unique_in_the_search_space() -> None:
    fair = min(range(1, 13), key=lambda hits: abs(exact(hits) - 0.5))
    assert fair == 5 and BAND[0] <= exact(fair) <= BAND[1]
    assert all(not BAND[0] <= exact(hits) <= BAND[1] for hits in range(1, 13) if hits != fair)


def test_tune_finds_the_fair_value_and_its_confirmed_interval_holds_the_exact_rate(runs: dict[str, Path]) -> None:
    answer = read_state(runs["two workers"] / "duel_tune")["answer"]
    assert answer["values"] == {"rules.second_hits": 5}
    assert answer["change"] == "rules.second_hits 2 -> 5"
    assert answer["all_met"] is True
    fair_seat = next(target for target in answer["targets"] if target["target"] == "fair seat 0")
    assert fair_seat["verdict"] == "met"
    assert fair_seat["low"] <= exact(5) <= fair_seat["high"]
    assert BAND[0] <= fair_seat["low"] and fair_seat["high"] <= BAND[1]
    # Two targets of one row each, for every confirmed variant (the current data among them): the
    # answer is chosen among them, so all their intervals hold together at 95%.
    state = read_state(runs["two workers"] / "duel_tune")
    judged = len(state["confirmed"]) + ("baseline" not in state["confirmed"])
    assert answer["family"] == {"variants": judged, "rows": 2 * judged}
    assert answer["confidence"] == pytest.approx(1 - 0.05 / (2 * judged))


def test_the_current_data_is_confirmed_as_not_meeting_the_target(runs: dict[str, Path]) -> None:
    trials = read_table(runs["two workers"] / "duel_tune", TRIALS)
    baseline = trials.filter((pl.col("stage") == "confirm") & (pl.col("variant") == "baseline")).row(0, named=True)
    assert baseline["rules.second_hits"] == 2 and baseline["not_met"] == 1 and not baseline["all_met"]
    targets = read_table(runs["two workers"] / "duel_tune", TRIAL_TARGETS)
    row = targets.filter((pl.col("stage") == "confirm") & (pl.col("variant") == "baseline")
                         & (pl.col("target") == "fair seat 0")).row(0, named=True)
    assert row["low"] <= exact(2) <= row["high"]


def test_every_candidate_is_a_variant_on_the_same_seeds_with_its_parameters_as_columns(
        runs: dict[str, Path]) -> None:
    folder = runs["two workers"] / "duel_tune"
    state = read_state(folder)
    con = duckdb.connect()
    games = con.execute(
        f"SELECT variant, count(*), min(\"rules.second_hits\"), max(\"rules.second_hits\") "
        f"FROM read_parquet('{folder}/games/*/*.parquet', hive_partitioning = false) GROUP BY variant").fetchall()
    played = {variant: (count, low, high) for variant, count, low, high in games}
    for data in state["candidates"]:
        games_played = {0: 200, 1: 800}[data["rung"]]
        hits = data["values"]["rules.second_hits"]
        assert played[data["variant"]] == (games_played, hits, hits)
    assert set(played) == {data["variant"] for data in state["candidates"]}
    # Common random numbers: game i has one seed, whichever candidate played it.
    (distinct,) = con.execute(
        f"SELECT max(seeds) FROM (SELECT game_index, count(DISTINCT seed) AS seeds FROM read_parquet("
        f"'{folder}/games/*/*.parquet', hive_partitioning = false) GROUP BY game_index)").fetchone() or (0,)
    assert distinct == 1
    # The confirmation plays fresh seeds.
    (shared,) = con.execute(
        f"SELECT count(*) FROM read_parquet('{folder}-confirm/games/*/*.parquet', hive_partitioning = false) "
        f"WHERE seed IN (SELECT seed FROM read_parquet('{folder}/games/*/*.parquet', hive_partitioning = false))"
    ).fetchone() or (1,)
    assert shared == 0


def test_the_trials_table_has_a_row_per_look_and_one_per_repeated_ask(runs: dict[str, Path]) -> None:
    folder = runs["two workers"] / "duel_tune"
    state = read_state(folder)
    trials = read_table(folder, TRIALS)
    search = trials.filter(pl.col("stage") == "search")
    looks = sum(len(data["looks"]) for data in state["candidates"])
    assert search.filter(pl.col("duplicate_of").is_null()).height == looks
    repeats = search.filter(pl.col("duplicate_of").is_not_null())
    assert repeats.height == len(state["duplicates"]) and set(repeats["games"].to_list()) <= {0}
    assert sorted(search["trial"].unique().to_list()) == list(range(len(state["trials"])))
    judged = [*state["confirmed"], *([] if "baseline" in state["confirmed"] else ["baseline"])]
    assert trials.filter(pl.col("stage") == "confirm")["variant"].to_list() == judged


def test_the_budget_buys_distinct_points_each_evaluated_once(runs: dict[str, Path]) -> None:
    # 11 trials are 11 distinct points; an ask that repeats one costs no games and no budget.
    state = read_state(runs["two workers"] / "duel_tune")
    assert state["space"] == {"points": 12, "whole": False}
    hits = [data["values"]["rules.second_hits"] for data in state["candidates"]]
    assert len(hits) == 11 and len(set(hits)) == 11
    asked = [trial["params"]["rules.second_hits"] for trial in state["trials"]]
    assert len(asked) == 11 + len(state["duplicates"])
    for number, original in state["duplicates"].items():
        first = next(data for data in state["candidates"] if data["trial"] == original)
        assert asked[int(number)] == first["values"]["rules.second_hits"]


def _contents(folder: Path) -> dict[str, Any]:
    return {table: read_table(folder / "duel_tune", table).sort("stage", "trial", "rung", *(
        ["target"] if table == TRIAL_TARGETS else [])).to_dicts() for table in (TRIALS, TRIAL_TARGETS)}


def test_one_and_two_workers_give_the_same_trials(runs: dict[str, Path]) -> None:
    assert _contents(runs["one worker"]) == _contents(runs["two workers"])


def test_a_stopped_search_resumed_gives_the_same_trials(runs: dict[str, Path]) -> None:
    assert _contents(runs["stopped and resumed"]) == _contents(runs["two workers"])
    first, resumed = (read_state(runs[name] / "duel_tune") for name in ("two workers", "stopped and resumed"))
    assert [trial["params"] for trial in first["trials"]] == [trial["params"] for trial in resumed["trials"]]
