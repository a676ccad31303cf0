"""Over a few thousand all-heuristic games (3-6 players, both maps) the heuristic plays every
card and uses every party power at least sometimes where they are legal, and never in a way
that is plainly self-destructive (issue 16).

The games are played as ``simcore.play.play_game`` plays them (same seeds and agents,
``note_offered`` at every step), with each heuristic choice checked before it is applied.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import (
    CARD_NAMES,
    CHAOS_MAGIC,
    EARTHQUAKE,
    HEROIC_SACRIFICE,
    NECROMANCY,
    PIT_TRAP,
    POWER_KEYS,
    ROGUE,
    TEMPLE_GUARDIAN,
    RingConfig,
)
from simcore.games.ring_of_chaos.rules import (
    CARD_COUNTERS,
    DEAD,
    FULL,
    K_COUNTER,
    K_MAIN,
    K_SACRIFICE,
    K_SCAVENGE,
    PASS,
    PLAY,
    TURN_COUNT,
    RingState,
)
from simcore.seeding import agent_seed, make_rng

from .helpers import DEFAULT, LABYRINTH

GAMES = 2000
PLAYED, PLAYABLE = CARD_COUNTERS.index("played"), CARD_COUNTERS.index("playable")


def survives_losing_a_level(state: RingState, seat: int) -> bool:
    """Whether the party still has a living Hero after one of its Heroes loses a level."""
    return FULL in state.statuses(seat) or len(state.living_heroes(seat)) >= 2


def self_destructive(state: RingState, action: int) -> str:
    """Why the current player's ``action`` is plainly self-destructive or wasted ('' if it is not)."""
    seat, kind = state.current_player, state.decisions.asked.kind
    hand = state.hand(seat)
    if kind == K_SACRIFICE and action != PASS and not survives_losing_a_level(state, seat):
        return "a Heroic Sacrifice of its last living Hero"
    if kind == K_COUNTER and action != PASS and hand[action] == HEROIC_SACRIFICE:
        return "a Heroic Sacrifice against a Temple Guardian (its price is the hit it avoids)"
    if kind == K_SCAVENGE and action == TEMPLE_GUARDIAN:
        return "a Temple Guardian taken with Scavenge"
    if kind != K_MAIN or not PLAY.matches(action):
        return ""
    card = hand[PLAY.value(action)]
    others = state.others_alive(seat)
    if card == EARTHQUAKE and FULL not in state.statuses(seat):
        return "an Earthquake that kills one of its own Heroes"
    if card == PIT_TRAP and all(state.status(other, ROGUE) > DEAD for other in others):
        return "a Pit Trap that can hurt nobody"
    config = state.config
    takes_nothing = state.points(seat) >= config.max_taken_points and not config.chaos_magic_at_ten_costs_victim
    if card == CHAOS_MAGIC and takes_nothing:
        return "a Chaos Magic at 10 points, which takes nothing"
    if card == NECROMANCY and DEAD not in state.statuses(seat):
        return "a Necromancy that raises only rivals"
    return ""


def play_watched(config: RingConfig, n_players: int, seed: int, faults: list[str]) -> RingState:
    """One all-heuristic game as ``play_game`` plays it, every heuristic choice checked."""
    agents = [GAME.heuristic_agent(seat, make_rng(agent_seed(seed, seat))) for seat in range(n_players)]
    state = GAME.new_state(config, n_players, seed)
    while not state.is_terminal():
        actions: Sequence[int] = state.legal_actions()
        state.note_offered(actions)
        if len(actions) == 1:
            action = actions[0]
        else:
            action = agents[state.current_player].choose(state, actions)
            why = self_destructive(state, action)
            if why:
                faults.append(f"seed {seed}, turn {state.numbers[TURN_COUNT]}, seat {state.current_player}: {why}")
        state.apply(action)
    return state


def test_over_thousands_of_games_every_card_and_power_is_used_and_never_self_destructively() -> None:
    played: Counter[str] = Counter()
    playable: Counter[str] = Counter()
    power_used: Counter[str] = Counter()
    faults: list[str] = []
    for seed in range(GAMES):
        n_players = 3 + seed % 4
        state = play_watched(DEFAULT if seed % 2 else LABYRINTH, n_players, seed, faults)
        for seat in range(n_players):
            for card_id, name in enumerate(CARD_NAMES):
                played[name] += state.stats.get(seat, PLAYED, card_id)
                playable[name] += state.stats.get(seat, PLAYABLE, card_id)
            power_used[state.config.party_keys[state.party(seat)]] += state.power_used[seat]
    assert faults == []
    never_played = [name for name in CARD_NAMES if name != "temple_guardian" and played[name] == 0]
    assert never_played == []
    assert all(playable[name] >= played[name] for name in CARD_NAMES)
    assert [key for key in POWER_KEYS if power_used[key] == 0] == []
