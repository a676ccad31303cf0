"""One game of an experiment, played again with its trace: what the dashboard's Replay page shows.

The game is rebuilt from the experiment's ``spec.json`` with
``experiments.spec.replay_setup`` (the same seed, parameters and agents the
shard used; ``cardlab replay --experiment`` does the same) and played by
``simcore.play.play_game`` with a ``simcore.trace.TraceRecorder``. The events
come back as a Polars DataFrame, one row per event in order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import polars as pl

from analytics.catalog import read_spec
from workers.location import ResultsPath

EVENT_COLUMNS = {"step": pl.Int64, "turn": pl.Int64, "type": pl.String, "seat": pl.Int64, "text": pl.String,
                 "data": pl.String}


@dataclass(frozen=True)
class ReplayTrace:
    """A replayed game: its set-up, events and outcome."""

    game: str
    variant: str
    n_players: int
    game_index: int
    seed: int
    agents: list[str]
    factions: list[str | None]
    events: pl.DataFrame
    winners: list[int]
    scores: list[int]
    end_reason: str
    turns: int
    decisions: int


def replay_game(experiment_dir: ResultsPath, variant: str, n_players: int | None, game_index: int) -> ReplayTrace:
    """Play game ``game_index`` of ``variant`` at ``n_players`` of the experiment in
    ``experiment_dir`` again and record its trace.

    ``events`` columns: step (0, 1, ... in order), turn, type, seat (null for
    events of the whole table), text (the sentence ``cardlab replay`` prints)
    and data (the event's other keys as JSON). Raises
    ``experiments.spec.ReplayError`` (a ``SpecError``) for a game the experiment
    did not play.
    """
    from experiments.spec import parse_spec, replay_setup
    from simcore.play import play_game
    from simcore.registry import get_game
    from simcore.trace import TraceRecorder

    spec = parse_spec(read_spec(experiment_dir), str(experiment_dir / "spec.json"))
    setup = replay_setup(spec, variant, n_players, game_index)
    game = get_game(setup.game)
    recorder = TraceRecorder()
    played = play_game(game, game.configure(setup.parameters), setup.n_players, setup.seed, setup.lineup,
                       recorder.record)
    rows = []
    for step, event in enumerate(recorder.events):
        seat = event.get("seat")
        rest = {key: value for key, value in event.items() if key not in ("turn", "type", "seat", "text")}
        rows.append({"step": step, "turn": int(event.get("turn", 0)), "type": str(event["type"]),
                     "seat": seat if isinstance(seat, int) else None, "text": str(event["text"]),
                     "data": json.dumps(rest, sort_keys=True, default=str)})
    state = played.state
    return ReplayTrace(
        game=setup.game, variant=setup.variant, n_players=setup.n_players, game_index=setup.game_index,
        seed=setup.seed, agents=played.agents, factions=list(state.factions()),
        events=pl.DataFrame(rows, schema=EVENT_COLUMNS), winners=list(state.winners()),
        scores=list(state.scores()), end_reason=state.end_reason(), turns=state.turns(),
        decisions=played.decisions)


def table_at(events: pl.DataFrame, turn: int) -> pl.DataFrame:
    """Where things stand at the end of ``turn``: the latest event of each
    type for each seat (and for the whole table, seat null), up to that turn.

    Columns: seat, type, turn, text; seats in order, the table last. A
    designer reads a seat's hand from its latest ``deal``/``draw`` line, the
    board from the table's latest ``treasure``/``reveal``/... line.
    """
    return (events.filter((pl.col("turn") <= turn) & (pl.col("type") != "decision"))
            .sort("step")
            .group_by("seat", "type", maintain_order=True).last()
            .sort(pl.col("seat").is_null(), "seat", "step")
            .select("seat", "type", "turn", "text"))
