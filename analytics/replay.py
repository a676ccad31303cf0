"""One game of an experiment, played again with its trace and a snapshot of the
table after every action: what the dashboard's Replay page shows.

The game is rebuilt from the experiment's ``spec.json`` with
``experiments.spec.replay_setup`` (the same seed, parameters and agents the
shard used; ``cardlab replay --experiment`` does the same) and played by
``simcore.play.play_game`` itself, so it is the very game the experiment
played. Two things ride along without touching the compiled hot path:

- a ``simcore.trace.TraceRecorder`` collects the events;
- the game object is wrapped so that ``new_state`` hands the state to the
  recorder, and every ``decision`` event (which ``play_game`` emits after the
  agent chose and before the action is applied) first takes a snapshot of
  the table as the previous action left it (``simcore.describe``). The
  state after the last action is taken once ``play_game`` returns.

So ``snapshots[0]`` is the table after set-up and ``snapshots[k]`` the table
after the k-th action (forced moves included); each event belongs to the
snapshot it led to (``moment``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from analytics.folders import read_manifest, read_spec, require_intact
from dataset.location import ResultsPath
from experiments.spec import parse_spec, replay_setup
from simcore.api import Agent, Game, GameInfo, GameState, TraceSink
from simcore.describe import SeatView, StateView, describe_state
from simcore.play import play_game
from simcore.registry import get_game
from simcore.rng import Generator

EVENT_COLUMNS = {"step": pl.Int64, "moment": pl.Int64, "turn": pl.Int64, "type": pl.String, "seat": pl.Int64,
                 "text": pl.String, "data": pl.String}


@dataclass(frozen=True)
class Snapshot:
    """The table right after one action (or after set-up)."""

    turn: int  # the ``turn`` its decision event carries (the turn the action was taken in); 0: set-up
    seat: int  # the seat that acted; -1 for set-up
    action: str  # the decision line of the trace (``seat 0 (random): lead ...``); "" for set-up
    forced: bool  # the only legal action, applied without asking the agent
    events_end: int  # events[:events_end] happened up to this moment
    view: StateView


@dataclass(frozen=True)
class ReplayTrace:
    """A replayed game: its set-up, events, snapshots and outcome."""

    game: str
    variant: str
    n_players: int
    game_index: int
    seed: int
    agents: list[str]
    factions: list[str | None]
    events: pl.DataFrame
    snapshots: list[Snapshot]
    winners: list[int]
    scores: list[int]
    end_reason: str
    turns: int
    decisions: int


class _SnapshotTaker:
    """Receives ``play_game``'s trace; snapshots the state at every decision."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state: GameState | None = None
        self.events: list[dict[str, Any]] = []
        self.snapshots: list[Snapshot] = []
        self.pending: dict[str, Any] | None = None  # the decision whose result is not yet snapshotted

    def record(self, event: dict[str, Any]) -> None:
        """The trace sink: a decision first closes the previous moment."""
        if event["type"] == "decision":
            self.close_moment()
            self.pending = event
        self.events.append(event)

    def close_moment(self) -> None:
        """Snapshot the state as the pending decision (or the set-up) left it."""
        assert self.state is not None
        view = describe_state(self.game, self.state)
        decision = self.pending
        if decision is None:
            if not self.snapshots:
                self.snapshots.append(Snapshot(0, -1, "", False, len(self.events), view))
            return
        self.snapshots.append(Snapshot(int(decision["turn"]), int(decision["seat"]), str(decision["text"]),
                                       bool(decision["forced"]), len(self.events), view))
        self.pending = None


class _WatchedGame:
    """``game`` with ``new_state`` handing the new state to the snapshot taker."""

    def __init__(self, game: Game, taker: _SnapshotTaker) -> None:
        self.game = game
        self.taker = taker
        self.info: GameInfo = game.info

    def default_parameters(self) -> dict[str, Any]:
        """The wrapped game's parameters."""
        return self.game.default_parameters()

    def configure(self, parameters: Mapping[str, Any]) -> Any:
        """The wrapped game's configuration."""
        return self.game.configure(parameters)

    def new_state(self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None) -> GameState:
        """The wrapped game's new state, remembered by the snapshot taker."""
        state = self.game.new_state(config, n_players, seed, trace)
        self.taker.state = state
        return state

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        """The wrapped game's heuristic."""
        return self.game.heuristic_agent(seat, rng)


def replay_game(experiment_dir: ResultsPath, variant: str, n_players: int | None, game_index: int) -> ReplayTrace:
    """Play game ``game_index`` of ``variant`` at ``n_players`` of the experiment in
    ``experiment_dir`` again and record its trace and snapshots.

    ``events`` columns: step (0, 1, ... in order), moment (the index of the
    snapshot the event led to), turn (as the game's event says), type, seat
    (null for events of the whole table), text (the sentence ``cardlab
    replay`` prints) and data (the event's other keys as JSON). Raises
    ``experiments.spec.ReplayError`` (a ``SpecError``) for a game the
    experiment did not play, and ``analytics.catalog.DamagedResultsError`` for
    an experiment whose shards do not match their manifest (as every reader).
    """
    require_intact(experiment_dir, read_manifest(experiment_dir))
    spec = parse_spec(read_spec(experiment_dir), str(experiment_dir / "spec.json"))
    setup = replay_setup(spec, variant, n_players, game_index)
    game = get_game(setup.game)
    taker = _SnapshotTaker(game)
    played = play_game(_WatchedGame(game, taker), game.configure(setup.parameters), setup.n_players, setup.seed,
                       setup.lineup, taker.record, setup.agent_replay)
    taker.close_moment()
    rows = []
    moment = 0
    for step, event in enumerate(taker.events):
        while taker.snapshots[moment].events_end <= step:
            moment += 1
        seat = event.get("seat")
        rest = {key: value for key, value in event.items() if key not in ("turn", "type", "seat", "text")}
        rows.append({"step": step, "moment": moment, "turn": int(event.get("turn", 0)), "type": str(event["type"]),
                     "seat": seat if isinstance(seat, int) else None, "text": str(event["text"]),
                     "data": json.dumps(rest, sort_keys=True, default=str)})
    state = played.state
    return ReplayTrace(
        game=setup.game, variant=setup.variant, n_players=setup.n_players, game_index=setup.game_index,
        seed=setup.seed, agents=played.agents, factions=list(state.factions()),
        events=pl.DataFrame(rows, schema=EVENT_COLUMNS), snapshots=taker.snapshots, winners=list(state.winners()),
        scores=list(state.scores()), end_reason=state.end_reason(), turns=state.turns(),
        decisions=played.decisions)


def turns_of(trace: ReplayTrace) -> list[int]:
    """The turns a replay can show, in order: 0 (set-up, with the actions taken in it, such as Ring of
    Chaos's party draft) and every turn an action was taken in."""
    return sorted({snapshot.turn for snapshot in trace.snapshots})


def moments_of_turn(trace: ReplayTrace, turn: int) -> list[int]:
    """Indices of the snapshots taken in ``turn``, in order (the last is the table after the turn)."""
    return [index for index, snapshot in enumerate(trace.snapshots) if snapshot.turn == turn]


def events_between(trace: ReplayTrace, first_moment: int, last_moment: int) -> pl.DataFrame:
    """The events that led to snapshots ``first_moment`` to ``last_moment`` (both
    included), in order: columns step, type, seat, text."""
    return (trace.events.filter(pl.col("moment").is_between(first_moment, last_moment))
            .select("step", "type", "seat", "text"))


def cards_text(cards: tuple[str, ...]) -> str:
    """Card names in a line, in order (``nothing`` for none)."""
    return ", ".join(cards) if cards else "nothing"


def seat_lines(seat: SeatView, hand_hidden: bool) -> list[str]:
    """A seat's panel as Markdown lines: the hand first (``**Hand** (n): a, b``),
    then each zone and each fact; hidden cards are marked as such."""
    mark = " *(hidden from the others)*" if hand_hidden else ""
    lines = [f"**Hand** ({len(seat.hand)}){mark}: {cards_text(seat.hand)}"]
    for shown in seat.zones:
        hidden = " *(hidden from the others)*" if shown.hidden else ""
        lines.append(f"**{shown.name}** ({len(shown.cards)}){hidden}: {cards_text(shown.cards)}")
    lines.extend(f"{fact.name}: **{fact.value}**" for fact in seat.facts)
    return lines


def table_lines(view: StateView) -> list[str]:
    """The table's panel as Markdown lines: each zone, then each fact."""
    lines = []
    for shown in view.table:
        hidden = " *(hidden from the seats)*" if shown.hidden else ""
        lines.append(f"**{shown.name}** ({len(shown.cards)}){hidden}: {cards_text(shown.cards)}")
    lines.extend(f"{fact.name}: **{fact.value}**" for fact in view.table_facts)
    return lines
