"""Positions where one move wins at once are won by ISMCTS every time.

Divvy: a hand-built last-round position where only reinforcing with both
same-suit cards beats the opponent's fighter. Theseus and Ring of
Chaos: decisive positions found along random games, where exactly one legal
action ends the game with the acting seat the sole winner whatever the hidden
cards are, and every other action loses at least half the time when random
play goes on.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from simcore.agents.registry import make_agent, parse_agent_spec
from simcore.agents.search import DEFAULT_MAX_STEPS, RolloutPolicy, determinize
from simcore.api import Game, GameState
from simcore.games.divvy.rules import REINFORCE, DivvyState
from simcore.registry import GAMES
from simcore.rng import Generator
from tests.agents.helpers import config_of, decision_points
from tests.games.divvy.helpers import arrange

AGENT_SEEDS = range(10)


def divvy_last_round_position() -> tuple[DivvyState, int]:
    """Seat 0 to reinforce in the last round: its lead plus both same-suit
    cards in hand beats seat 1's lead, either card alone does not, and seat 1
    has no cards left to reinforce with. The treasure decides the game."""
    game = GAMES["divvy"]
    state = game.new_state(config_of(game), 2, seed=3)
    assert isinstance(state, DivvyState)
    config = state.config
    by_value = sorted(range(len(config.names)), key=lambda card: config.values[card])
    lead_suit = config.suits[by_value[0]]
    suited = [card for card in by_value if config.suits[card] == lead_suit]
    own_lead, first, second = suited[0], suited[1], suited[2]
    base = config.values[own_lead]
    alone = base + config.values[second]
    both = alone + config.values[first]
    # Seat 1's lead: off-suit, at least as strong as one reinforcement, weaker than two.
    rival_lead = next(card for card in by_value
                      if config.suits[card] != lead_suit and alone <= config.values[card] < both)
    off_suit = next(card for card in by_value if config.suits[card] != lead_suit and card != rival_lead)
    treasure = next(card for card in by_value if card not in (own_lead, first, second, rival_lead, off_suit))
    rest = list(config.deck)
    for card in (own_lead, first, second, rival_lead, off_suit, treasure):
        rest.remove(card)
    arrange(state, hands=[[first, off_suit, second], []], treasure_row=[treasure], draw_pile=rest, discard_pile=[],
            won_treasure=[[], []], round_number=config.rounds, reshuffled=False,
            leads=[own_lead, rival_lead], kind=REINFORCE, seat=0)
    winning_mask = 0b101  # hand positions 0 and 2: both same-suit cards
    assert winning_mask in state.legal_actions()
    return state, winning_mask


def wins_at_once(state: GameState, action: int, seat: int) -> bool:
    """Whether ``action`` (and the forced moves after it) ends the game with ``seat`` the sole winner."""
    copy = state.clone()
    copy.apply(action)
    while not copy.is_terminal() and len(copy.legal_actions()) == 1:
        copy.apply(copy.legal_actions()[0])
    return copy.is_terminal() and copy.winners() == [seat]


def one_winning_move_positions(game: Game, n_players: int, wanted: int) -> list[tuple[GameState, int]]:
    """Up to ``wanted`` positions along random games where exactly one legal
    action wins at once, in the real state and in every sampled redraw of
    what the acting seat cannot see."""
    found: list[tuple[GameState, int]] = []
    for seed in range(200):
        state = game.new_state(config_of(game), n_players, seed)
        for position in decision_points(state, Generator(seed)):
            seat = position.current_player
            winning = [action for action in position.legal_actions() if wins_at_once(position, action, seat)]
            if len(winning) != 1:
                continue
            rng = Generator(seed)
            redraws = [determinize(position, seat, rng) for _ in range(10)]
            others = [action for action in position.legal_actions() if action != winning[0]]
            if all(wins_at_once(redraw, winning[0], seat) for redraw in redraws) and all(
                    random_value(game, redraws, action, seat) <= 0.5 for action in others):
                found.append((position, winning[0]))
                break
        if len(found) >= wanted:
            break
    return found


def random_value(game: Game, redraws: Sequence[GameState], action: int, seat: int) -> float:
    """``seat``'s mean result when ``action`` is played in each redraw and random play goes on."""
    policy = RolloutPolicy("random", game, Generator(1), DEFAULT_MAX_STEPS)
    total = 0.0
    for redraw in redraws:
        copy = redraw.clone()
        copy.apply(action)
        total += policy.play_out(copy)[seat]
    return total / len(redraws)


def choices_of(agent_text: str, game: Game, state: GameState) -> Sequence[int]:
    """The agent's choice in ``state`` for each of several agent seeds."""
    spec = parse_agent_spec(agent_text)
    seat = state.current_player
    return [make_agent(spec, game, seat, seed).choose(state.clone(), state.legal_actions()) for seed in AGENT_SEEDS]


@pytest.mark.parametrize("agent_text", ["ismcts(iterations=200)", "osla(rollouts=4)"])
def test_the_divvy_reinforcement_that_wins_the_game_is_always_chosen(agent_text: str) -> None:
    state, winning_mask = divvy_last_round_position()
    assert wins_at_once(state, winning_mask, 0)
    assert [action for action in state.legal_actions() if wins_at_once(state, action, 0)] == [winning_mask]
    assert set(choices_of(agent_text, GAMES["divvy"], state)) == {winning_mask}


@pytest.mark.parametrize("game_id", ["theseus", "ring_of_chaos"])
def test_a_move_that_wins_at_once_is_always_chosen_by_ismcts(game_id: str) -> None:
    game = GAMES[game_id]
    positions = one_winning_move_positions(game, 2, wanted=3)
    assert positions, "random games must pass positions with one winning move"
    for state, winning in positions:
        assert set(choices_of("ismcts(iterations=200)", game, state)) == {winning}
