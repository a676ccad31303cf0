"""The heuristic agent does what agents.py documents, in hand-made positions, and beats random play.

Strategy (agents.py): engine mode before Rank 4, VP mode from Rank 4; explore the
Board card with the best keep value plus its Bonus; recruit the best engine card;
subjugate high-VP cards (keeping engine cards in engine mode); exile the least
valuable card; use the most valuable Party card, an ability without a card only
when no card is worth using, and end the turn when nothing is worth doing.
"""

from __future__ import annotations

from simcore.agents import parse_agent_spec
from simcore.api import Agent
from simcore.games.theseus import GAME
from simcore.games.theseus.rules import END_TURN, TheseusState
from simcore.play import play_game
from simcore.rng import Generator
from simcore.seeding import make_rng

from .helpers import DEFAULT, act, build, exile, explore, names, party_position, recruit, use


def _agent(seat: int) -> Agent:
    return GAME.heuristic_agent(seat, make_rng(seat))


def _choice(state: TheseusState) -> int:
    legal = state.legal_actions()
    action = _agent(state.current_player).choose(state, legal)
    assert action in legal
    return action


def _chosen_name(state: TheseusState, cards: list[int]) -> str:
    return names(state, [cards[_choice(state)]])[0]


def test_it_explores_a_card_with_a_bonus_over_an_equal_card_without() -> None:
    state = build(board=["shepherd", "herald", "herald", "porter"], bonus_on=["herald"], rank=2)
    use(state, "rogue")
    action = _choice(state)
    assert state.has_bonus[state.board[action]]


def test_it_builds_an_engine_early_recruiting_the_card_that_does_the_most() -> None:
    state = build(hands=[["shepherd", "navigator", "hero"], []], board=["shepherd", "herald", "scout", "porter"])
    use(state, "mage")
    assert _chosen_name(state, state.hands[0]) == "navigator"  # explore icon + explore 2


def test_early_it_subjugates_the_card_least_useful_to_the_engine() -> None:
    state = build(hands=[["navigator", "shepherd"], []], board=["shepherd", "herald", "scout", "porter"])
    use(state, "knight")
    assert _chosen_name(state, state.hands[0]) == "shepherd"


def test_late_it_subjugates_the_card_worth_the_most_vp() -> None:
    state = build(hands=[["navigator", "scout", "hero"], []], board=["hero", "seer", "weaver", "corsair"], rank=5)
    use(state, "knight")
    assert _chosen_name(state, state.hands[0]) == "hero"


def test_it_uses_the_explore_card_first_when_its_hand_is_empty() -> None:
    state = build(board=["shepherd", "herald", "scout", "porter"])
    assert _choice(state) == party_position(state, "rogue")
    use(state, "rogue")
    explore(state, "scout")
    assert _choice(state) == party_position(state, "mage")  # then recruits the engine card


def test_it_exiles_the_weakest_party_card_and_the_least_valuable_hand_card() -> None:
    state = build(parties=[["knight", "mage", "rogue", "navigator"], []], hands=[["scout"], []],
                  board=["shepherd", "herald", "scout", "porter"])
    use(state, "mage")
    recruit(state, "scout")
    party = state.parties[0]
    assert names(state, [party[_choice(state)]])[0] in ("knight", "mage", "rogue")  # a plain starting card
    exile(state, "knight")
    hand_state = build(hands=[["hero", "navigator", "shepherd", "herald"], []],
                       board=["scout", "porter", "torchbearer", "fisherman"])
    use(hand_state, "rogue")
    explore(hand_state, "scout")
    assert _chosen_name(hand_state, hand_state.hands[0]) in ("shepherd", "herald")


def test_it_ends_the_turn_when_nothing_is_worth_doing() -> None:
    state = build(parties=[["knight", "mage"], []], board=[], rank=6, only_tops=[6])
    assert _choice(state) == END_TURN
    act(state, END_TURN)


def test_its_choices_depend_only_on_what_its_seat_can_see() -> None:
    rng = Generator(3)
    checked = 0
    for seed in range(4):
        state = TheseusState.new_game(DEFAULT, 3, seed, None)
        agents = [_agent(seat) for seat in range(3)]
        while not state.is_terminal():
            seat, legal = state.current_player, state.legal_actions()
            action = agents[seat].choose(state, legal)
            if checked % 3 == 0:
                assert agents[seat].choose(state.resample_hidden(seat, rng), legal) == action
            checked += 1
            state.apply(action)
    assert checked > 100


def test_it_clearly_beats_random_play_with_two_three_and_four_players() -> None:
    config = GAME.configure(GAME.default_parameters())
    heuristic, random = parse_agent_spec("heuristic"), parse_agent_spec("random")
    for n_players in (2, 3, 4):
        results = []
        for seed in range(60):
            seat = seed % n_players
            lineup = [random] * n_players
            lineup[seat] = heuristic
            results.append(play_game(GAME, config, n_players, seed, lineup).state.returns()[seat])
        assert sum(results) / len(results) > 0.85, n_players
