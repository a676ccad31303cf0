"""``cardlab tune`` finds a known answer on a real game, playing every point once and fewer
games than the grid: the Oracle of Party of the Theseus (``experiments/tune/theseus_oracle_tune.toml``).

Its VP (0 to 6) and its use (draw 2, draw 1, draw 2 and explore 1) make 21 points. A grid
of 12,000 games a point at 3 players (heuristic players) puts three within 3 points of the
card mean: the Oracle drawing 1 with 0, 1 or 2 VP (-1.2, +1.2, +1.5 points); every other
point is 4.1 points or more away. The cheapest of the three is "Oracle: use draw 2 ->
draw 1". Cut down here with ``--games 60`` (looks of 60, 240 and 960 games); the shipped
size, and three other seeds, are measured in the performance notes.
"""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import ray

from analytics.tuning import read_state
from cardlab.cli import main
from experiments.tuning import load_tuning_spec

ORACLE = Path(__file__).resolve().parents[2] / "experiments" / "tune" / "theseus_oracle_tune.toml"
GAMES = "60"


@dataclass(frozen=True)
class Tuned:
    """What ``cardlab tune`` printed (stdout, stderr) and where its results are."""

    out: str
    err: str
    folder: Path


@pytest.fixture(scope="module")
def tuned(tmp_path_factory: pytest.TempPathFactory) -> Tuned:
    results = tmp_path_factory.mktemp("oracle")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["tune", str(ORACLE), "--games", GAMES, "--workers", "2", "--results", str(results)])
    ray.shutdown()
    assert code == 0, err.getvalue()
    return Tuned(out.getvalue(), err.getvalue(), results / "theseus_oracle_tune")


def test_tune_finds_the_cheapest_point_near_the_card_mean_the_oracle_drawing_one(tuned: Tuned) -> None:
    lines = tuned.out.splitlines()
    start = lines.index("answer: change the data as below: it meets every target with 95% confidence")
    assert lines[start + 1] == "  Oracle: use draw 2 -> draw 1"
    met = lines[start + 2]
    assert met.startswith("        met: the Oracle near the card mean (3 players, heuristic, oracle): ")
    assert read_state(tuned.folder)["answer"]["changes"] == {"cards.oracle.use": ["draw 1"]}


def test_every_point_is_evaluated_once_and_the_search_plays_fewer_games_than_the_grid(tuned: Tuned) -> None:
    spec = load_tuning_spec(ORACLE).with_overrides(games=int(GAMES))
    state = read_state(tuned.folder)
    assert "points evaluated: 21 of 21, the whole space" in tuned.out.splitlines()
    points = [tuple(map(str, data["values"].values())) for data in state["candidates"]]
    assert len(points) == 21 == len(set(points)) and state["duplicates"] == {}
    searched = int(re.search(r"\(([\d,]+) searching", tuned.out).group(1).replace(",", ""))  # type: ignore[union-attr]
    # The whole grid at the second look's games (the first that tells the points apart) costs more.
    assert searched < 21 * spec.search.games[1]
    assert searched == sum(spec.search.games[data["rung"]] for data in state["candidates"])


def test_tune_talks_from_its_first_line_batch_by_batch(tuned: Tuned) -> None:
    said = [line.removeprefix("cardlab tune: ") for line in tuned.err.splitlines() if line.startswith("cardlab tune: ")]
    assert said[0] == ("theseus_oracle_tune: checking the targets against the metric views of theseus (one game "
                       "per player count) ...")
    assert said[1] == "starting Ray on this machine (2 CPUs; `cardlab ray start` keeps one warm for the next runs) ..."
    assert said[2].startswith("Ray ready in ") and said[2].endswith(", 2 worker(s)")
    assert said[3] == f"batch 1 of about 5: 7 new point(s) (7 of 21) at {GAMES} games"
    assert said[4] == f"batch 1 of about 5: playing {7 * int(GAMES):,} games in 7 shard(s)"
    assert said[5].startswith("batch 1 of about 5 done in ") and "; leading after 60 games: " in said[5]
    assert any(line.startswith("batch 2 of about 5: 7 new point(s) (14 of 21) at 60 games; ") for line in said)
    # The confirmation: what it plays, a status line every 10 s while it plays (none on a fast
    # machine), then done.
    confirmation = said[next(index for index, line in enumerate(said) if line.startswith("confirmation: playing ")):]
    assert confirmation[-1].startswith("confirmation done in ")
    assert all(re.fullmatch(r"confirmation: [\d,]+ of [\d,]+ games \(\d+%\)", line) for line in confirmation[1:-1])


def test_a_dry_run_prints_the_plan_and_the_time_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tune", str(ORACLE), "--games", GAMES, "--workers", "2", "--dry-run", "--results",
                 str(tmp_path / "results")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("theseus_oracle_tune: theseus at 3 players; the space: cards.oracle.vp x "
                             "cards.oracle.use = 21 points; the trial budget covers it")
    assert out[1] == ("search: 21 first looks of 60 games per player count, about 7 promoted to 240, about 2 "
                      "promoted to 960: 3,960 games in about 5 batches")
    assert out[2].startswith("confirmation: 3 variants (the best candidates and the current data) x about ")
    expected = next(line for line in out if line.startswith("expected: "))
    assert re.match(r"expected: [\d,]+ games in about [\d,]+ s on 2 worker\(s\): start-up \d+ s \(reading the spec, "
                    r"checking its targets\), Ray 12 s, the search [\d,]+ s", expected)
    assert out[-1].startswith("(dry run: calibrated in ") and not (tmp_path / "results").exists()
