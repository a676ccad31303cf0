"""Set-up: shuffled deck, hands dealt one card at a time, the market, seat 0 first."""

from __future__ import annotations

from collections import Counter

from simcore.trace import TraceRecorder
from tests.example_game import GAME
from tests.example_game.rules import DRAW_PILE, MARKET, PLANT, TURN

from .helpers import DEFAULT, locations


def test_the_deck_holds_every_copy_and_is_shuffled_by_the_seed() -> None:
    games = [GAME.new_state(DEFAULT, 2, seed) for seed in (1, 2)]
    for state in games:
        assert locations(state) == Counter(DEFAULT.deck)
    assert games[0].zones[DRAW_PILE].cards != games[1].zones[DRAW_PILE].cards
    again = GAME.new_state(DEFAULT, 2, 1)
    assert again.zones[DRAW_PILE].cards == games[0].zones[DRAW_PILE].cards


def test_each_seat_is_dealt_hand_size_cards_one_at_a_time_seat_0_first() -> None:
    for n_players in (2, 3, 4):
        state = GAME.new_state(DEFAULT, n_players, 11)
        # Replay the deal from the shuffled deck: the top card (the end of the list) goes to seat 0.
        from simcore.seeding import make_rng

        deck = list(DEFAULT.deck)
        make_rng(11).shuffle(deck)
        expected: list[list[int]] = [[] for _ in range(n_players)]
        for _ in range(DEFAULT.hand_size):
            for seat in range(n_players):
                expected[seat].append(deck.pop())
        assert [state.hand(seat).cards for seat in range(n_players)] == expected
        assert state.zones[MARKET].cards == [deck.pop() for _ in range(DEFAULT.market_size)]
        assert state.zones[DRAW_PILE].cards == deck


def test_the_market_is_dealt_face_up_after_the_hands() -> None:
    state = GAME.new_state(DEFAULT, 3, 4)
    assert len(state.zones[MARKET]) == DEFAULT.market_size
    assert len(state.zones[DRAW_PILE]) == len(DEFAULT.deck) - 3 * DEFAULT.hand_size - DEFAULT.market_size
    assert state.observation(1)[5][MARKET] == tuple(state.zones[MARKET].cards)  # public


def test_seat_0_takes_the_first_turn() -> None:
    recorder = TraceRecorder()
    state = GAME.new_state(DEFAULT, 4, 9, recorder.record)
    assert state.current_player == 0
    assert state.decisions.asked.kind == TURN and state.decisions.asked.seat == 0
    assert PLANT.encode(0) in state.legal_actions()
    assert recorder.events[0]["type"] == "setup"
