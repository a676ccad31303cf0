"""The heuristic agent does what agents.py documents, in hand-made positions, and beats random play.

Strategy (agents.py): engine mode before Rank 4, VP mode from Rank 4; explore the
Board card with the best keep value plus its Bonus; recruit the best engine card;
subjugate high-VP cards (keeping engine cards in engine mode); exile the least
valuable card; use the most valuable Party card, an ability without a card only
when no card is worth using, and end the turn when nothing is worth doing.
"""

from __future__ import annotations

from simcore.api import Agent
from simcore.games.theseus import GAME
from simcore.games.theseus.rules import (
    ACTIONS,
    END_TURN,
    ENDING,
    PARTY_POSITION,
    PILLAGE,
    TheseusState,
)
from simcore.rng import Generator
from simcore.seeding import make_rng
from tests.gamekit import share_won

from .helpers import DEFAULT, act, build, configured, exile, explore, icon_of, names, party_position, recruit, use


def _agent(seat: int) -> Agent:
    return GAME.heuristic_agent(seat, make_rng(seat))


def _choice(state: TheseusState) -> int:
    legal = state.legal_actions()
    action = _agent(state.current_player).choose(state, legal)
    assert action in legal
    return action


def _chosen_name(state: TheseusState, cards: list[int]) -> str:
    """The name of the card at the position the agent's choice names in ``cards``."""
    action = _choice(state)
    return names(state, [cards[ACTIONS.of(action).value(action)]])[0]


def test_it_explores_a_card_with_a_bonus_over_an_equal_card_without() -> None:
    state = build(board=["shepherd", "herald", "herald", "porter"], bonus_on=["herald"], rank=2)
    use(state, "rogue")
    action = _choice(state)
    assert state.has_bonus(ACTIONS.of(action).value(action))


def test_it_builds_an_engine_early_recruiting_the_card_that_does_the_most() -> None:
    state = build(hands=[["shepherd", "navigator", "hero"], []], board=["shepherd", "herald", "scout", "porter"])
    use(state, "mage")
    assert _chosen_name(state, state.hand(0)) == "navigator"  # explore icon + explore 2


def test_early_it_subjugates_the_card_least_useful_to_the_engine() -> None:
    state = build(hands=[["navigator", "shepherd"], []], board=["shepherd", "herald", "scout", "porter"])
    use(state, "knight")
    assert _chosen_name(state, state.hand(0)) == "shepherd"


def test_late_it_subjugates_the_card_worth_the_most_vp() -> None:
    state = build(hands=[["navigator", "scout", "hero"], []], board=["hero", "seer", "weaver", "corsair"], rank=5)
    use(state, "knight")
    assert _chosen_name(state, state.hand(0)) == "hero"


def test_it_uses_the_explore_card_first_when_its_hand_is_empty() -> None:
    state = build(board=["shepherd", "herald", "scout", "porter"])
    assert _choice(state) == PARTY_POSITION.encode(party_position(state, "rogue"))
    use(state, "rogue")
    explore(state, "scout")
    assert _choice(state) == PARTY_POSITION.encode(party_position(state, "mage"))  # then recruits the engine card


def test_it_exiles_the_weakest_party_card_and_the_least_valuable_hand_card() -> None:
    state = build(parties=[["knight", "mage", "rogue", "navigator"], []], hands=[["scout"], []],
                  board=["shepherd", "herald", "scout", "porter"])
    use(state, "mage")
    recruit(state, "scout")
    assert _chosen_name(state, state.party(0)) in ("knight", "mage", "rogue")  # a plain starting card
    exile(state, "knight")
    hand_state = build(hands=[["hero", "navigator", "shepherd", "herald"], []],
                       board=["scout", "porter", "torchbearer", "fisherman"])
    use(hand_state, "rogue")
    explore(hand_state, "scout")
    assert _chosen_name(hand_state, hand_state.hand(0)) in ("shepherd", "herald")


def test_it_ends_the_turn_when_nothing_is_worth_doing() -> None:
    state = build(parties=[["knight", "mage"], []], board=[], rank=6, only_tops=[6])
    assert _choice(state) == END_TURN
    act(state, END_TURN)


def test_it_recruits_a_card_whose_icon_the_party_lacks_over_a_slightly_better_engine_card() -> None:
    # witch: subjugate icon + hex 1 (worth 1.5); torchbearer: recruit icon + explore 1 (worth 2).
    board = ["shepherd", "herald", "scout", "porter"]
    without_subjugate = build(parties=[["mage", "rogue"], []], hands=[["torchbearer", "witch"], []], board=board)
    use(without_subjugate, "mage")
    assert _chosen_name(without_subjugate, without_subjugate.hand(0)) == "witch"
    with_knight = build(hands=[["torchbearer", "witch"], []], board=board)
    use(with_knight, "mage")
    assert _chosen_name(with_knight, with_knight.hand(0)) == "torchbearer"


def test_exiling_from_a_full_party_it_keeps_the_last_card_of_an_icon() -> None:
    state = build(parties=[["knight", "mage", "rogue", "scout"], []], hands=[["torchbearer"], []],
                  board=["shepherd", "herald", "scout", "porter"])
    use(state, "mage")
    recruit(state, "torchbearer")  # five Party cards: one must go
    exiled = _chosen_name(state, state.party(0))
    assert exiled in ("mage", "rogue")  # a plain card whose icon another Party card still has; never the knight


def _last_rank_six_card_on_the_board(rewards: list[list[str]], board: list[str]) -> TheseusState:
    """Rank 6 with its deck empty: the Minotaur on ``board`` is the last Rank 6 card."""
    return build(parties=[["rogue"], []], rewards=rewards, board=board, rank=6, only_tops=[6])


def test_it_does_not_end_a_game_it_is_losing_by_taking_the_last_rank_six_card() -> None:
    state = _last_rank_six_card_on_the_board([[], ["seer", "seer"]], ["minotaur", "hero"])
    use(state, "rogue")
    assert _chosen_name(state, state.board()) == "hero"
    alone = _last_rank_six_card_on_the_board([[], ["seer", "seer"]], ["minotaur"])
    assert _choice(alone) == END_TURN  # exploring would only end the game it is losing


def test_it_ends_a_game_it_leads_by_taking_the_last_rank_six_card() -> None:
    state = _last_rank_six_card_on_the_board([["seer", "seer"], []], ["minotaur", "hero"])
    use(state, "rogue")
    assert _chosen_name(state, state.board()) == "minotaur"
    explore(state, "minotaur")
    assert state.numbers[ENDING]


def test_level_with_the_best_other_seat_it_ends_the_game_rather_than_wait() -> None:
    # Equal VP and equal Party Ranks: waiting changes nothing, so it takes the card.
    state = build(parties=[["rogue"], ["rogue"]], rewards=[["seer"], ["hero"]], board=["minotaur", "hero"],
                  rank=6, only_tops=[6])
    use(state, "rogue")
    assert _chosen_name(state, state.board()) == "minotaur"


def test_it_pillages_the_card_worth_most_to_itself_and_to_its_owner() -> None:
    # The collector counts its owner's Rank 1 Reward cards: 1 + 3 VP to seat 1, 1 VP to seat 0;
    # the hero is worth 2 VP to either.
    config = configured({"cards.collector.end": "vp_per_rank 1 1", "cards.collector.end_area": "reward"})
    state = build(parties=[["thief"], []], rewards=[[], ["hero", "collector", "scout", "scout", "porter"]],
                  board=["oracle", "bailiff", "sage", "cartographer"], rank=2, config=config)
    use(state, "thief")
    explore(state, "oracle")
    victim, position = PILLAGE.decode(_choice(state))
    assert victim == 1 and names(state, [state.reward(1)[position]]) == ["collector"]


def test_between_two_equal_uses_it_uses_the_card_of_higher_rank() -> None:
    assert icon_of("collector") == icon_of("knight") == "subjugate"
    state = build(parties=[["knight", "collector"], []], hands=[["shepherd"], []], board=[], rank=6, only_tops=[6])
    assert _choice(state) == PARTY_POSITION.encode(party_position(state, "collector"))


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
    for n_players in (2, 3, 4):
        assert share_won(GAME, config, n_players, range(60)) > 0.85, n_players
