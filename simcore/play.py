"""Playing one game from seed to end, and what it leaves behind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from simcore.agents.registry import AgentSpec, make_agent
from simcore.api import Game, GameState, TraceSink
from simcore.kit.decisions import answer_list
from simcore.kit.state import KitState
from simcore.seeding import agent_seed
from simcore.standings import LeadRecord


@dataclass
class PlayedGame:
    """A finished game and the number of real decisions its agents made."""

    state: GameState
    decisions: int
    agents: list[str]
    # Legal actions summed over the decisions (forced moves excluded): the
    # branching factor a search agent faces is this divided by ``decisions``.
    legal_actions: int = 0
    # Who led, turn after turn (``simcore.standings``); None for a game without standings.
    lead: LeadRecord | None = None


def play_game(
    game: Game,
    config: Any,
    n_players: int,
    seed: int,
    lineup: Sequence[AgentSpec],
    trace: TraceSink | None = None,
    agent_replay: int = 0,
) -> PlayedGame:
    """Play one game; ``lineup[seat]`` plays ``seat``.

    A choice with a single legal action is applied without asking the agent and
    is not counted as a decision: it is the rules moving on, not a choice.

    With ``trace``, every step is a ``decision`` event whose ``turn`` is the
    turn it is taken in, the number the rules' own events carry at that moment
    (``KitState.trace_turn``); ``turns()`` cannot give it, as games count it
    differently (turns completed, or the one under way).

    Each seat's standing (``GameState.standings``) is read whenever ``turns()``
    has grown after a step, and at the end, into the game's ``LeadRecord``;
    a game whose standings are empty at the start has none, and is not asked
    again. ``agent_replay`` > 0 gives the agents other seeds on the same deal
    (``simcore.seeding.agent_seed``; an experiment's ``deal_replays``).
    """
    agents = [
        make_agent(lineup[seat], game, seat, agent_seed(seed, seat, agent_replay))
        for seat in range(n_players)
    ]
    state = game.new_state(config, n_players, seed, trace)
    decisions = 0
    legal_actions_offered = 0
    lead: LeadRecord | None = None
    turns_read = 0
    if state.standings():
        lead = LeadRecord(n_players)
        turns_read = state.turns()
    while True:
        seat = state.current_player
        if seat < 0:
            break
        # A typed list (the very list a kit game asks with): its length and a forced move's
        # action are then read natively, not through Python's sequence protocol.
        actions = answer_list(state.legal_actions())
        state.note_offered(actions)
        count = len(actions)
        if count == 1:
            action = actions[0]
        else:
            decisions += 1
            legal_actions_offered += count
            action = agents[seat].choose(state, actions)
        if trace is not None:
            trace({
                "turn": trace_turn(state), "type": "decision", "seat": seat,
                "agent": str(lineup[seat]), "forced": count == 1, "options": count,
                "text": f"seat {seat} ({lineup[seat]}): {state.describe_action(action)}"
                + (" (forced)" if count == 1 else f" (of {count} options)"),
            })
        state.apply(action)
        if lead is not None and state.current_player >= 0:
            turns = state.turns()
            if turns != turns_read:
                turns_read = turns
                lead.read(state.standings())
    if lead is not None:
        lead.read(state.standings())
    return PlayedGame(state, decisions, [str(spec) for spec in lineup], legal_actions_offered, lead)


def trace_turn(state: GameState) -> int:
    """The turn ``state`` is in, as its trace events label it: a kit game's
    ``trace_turn``; for a game written without the kit, the turn after the
    ``turns()`` completed."""
    if isinstance(state, KitState):
        return state.trace_turn()
    return state.turns() + 1
