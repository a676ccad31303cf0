"""What a seat can see: observations, and ``resample_hidden`` for search agents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.rules import (
    DRAW_PILE,
    K_COUNTER,
    PASS,
    STEAL_CARD,
    RingState,
)
from simcore.rng import Generator
from tests import gamekit

from .helpers import DEFAULT, act, all_hands, build, card, hero, locations, play


def _positions_along_random_games(seeds: range, n_players: int) -> Iterator[RingState]:
    for seed in seeds:
        for state, _ in gamekit.walk(GAME, DEFAULT, n_players, seed):
            assert isinstance(state, RingState)
            yield state


def _hidden(state: RingState, seat: int) -> Counter[int]:
    cards = list(state.zones[DRAW_PILE].cards)
    for other in range(state.n_players):
        if other != seat:
            cards += state.hand(other)
    return Counter(cards)


def test_resample_hidden_keeps_the_observation_and_redeals_only_other_hands_and_the_pile() -> None:
    rng = Generator(99)
    changed = 0
    for state in _positions_along_random_games(range(12), 3):
        for seat in range(3):
            before = state.observation(seat)
            copy = state.resample_hidden(seat, rng)
            assert copy.observation(seat) == before
            assert _hidden(copy, seat) == _hidden(state, seat)
            assert [len(hand) for hand in all_hands(copy)] == [len(hand) for hand in all_hands(state)]
            assert locations(copy) == locations(state)
            changed += all_hands(copy) != all_hands(state)
            assert state.observation(seat) == before  # the original is untouched
    assert changed > 0


def test_a_resampled_state_plays_on_to_a_legal_end() -> None:
    rng, agent = Generator(5), Generator(6)
    for state in [position.clone() for position in _positions_along_random_games(range(3), 4)][::9]:
        copy = state.resample_hidden((state.current_player + 1) % 4, rng)
        while not copy.is_terminal():
            actions = copy.legal_actions()
            assert actions
            copy.apply(actions[agent.below(len(actions))])
        assert locations(copy) == Counter(DEFAULT.deck)


def test_a_player_is_asked_whether_to_counter_even_without_a_counter_so_its_hand_stays_hidden() -> None:
    with_parry = build(["nameless_band"] * 2, [1, 2], [["sword"], ["parry"]])
    without = build(["nameless_band"] * 2, [1, 2], [["sword"], ["bow"]])
    for state in (with_parry, without):
        play(state, "sword")
        act(state, 1)
        state.apply(hero("cleric"))
        assert state.decisions.asked.kind == K_COUNTER and state.current_player == 1
    assert with_parry.observation(0) == without.observation(0)
    assert list(without.legal_actions()) == [PASS]
    assert with_parry.observation(1) != without.observation(1)


def test_a_question_to_another_seat_is_asked_again_of_its_resampled_hand() -> None:
    state = build(["nameless_band"] * 2, [1, 2], [["sword"], ["parry"]])
    play(state, "sword")
    act(state, 1)
    state.apply(hero("cleric"))
    seen = set()
    for seed in range(30):
        copy = state.resample_hidden(0, Generator(seed))
        assert copy.decisions.asked.key() == state.decisions.asked.key() and PASS in copy.legal_actions()
        counters = (card("parry"), card("hasty_retreat"))
        assert all(action == PASS or copy.hand(1)[action] in counters for action in copy.legal_actions())
        seen.add(len(copy.legal_actions()))
    assert seen == {1, 2}  # sometimes the new hand holds a counter, sometimes not


def test_clone_is_an_exact_and_independent_copy() -> None:
    state = build(["nameless_band"] * 2, [1, 2], [["sword"], ["parry"]])
    copy = state.clone()
    assert copy.observation(0) == state.observation(0) and copy.zones[DRAW_PILE].cards == state.zones[DRAW_PILE].cards
    play(copy, "sword")
    assert state.hand(0) != copy.hand(0) and state.observation(1) != copy.observation(1)


def test_a_card_taken_by_den_of_thieves_stays_known_to_the_taker_and_its_former_owner_through_resampling() -> None:
    state = build(["den_of_thieves", "nameless_band", "nameless_band"], [13, 15, 17],
                  [["dodge", "parry"], ["fireball"], ["mace"]])
    act(state, STEAL_CARD.encode(1))  # seat 1's only card: both seats know where the Fireball went
    assert state.hand(0) == [card("dodge"), card("parry"), card("fireball")] and state.hand(1) == []
    redrawn_for_the_owner, redrawn_for_a_third_seat = set(), set()
    for seed in range(40):
        for_owner = state.resample_hidden(1, Generator(seed))
        assert for_owner.hand(0)[2] == card("fireball")  # kept: seat 1 saw it taken
        redrawn_for_the_owner.add(tuple(for_owner.hand(0)[:2]))  # the cards seat 1 never saw are redrawn
        redrawn_for_a_third_seat.add(state.resample_hidden(2, Generator(seed)).hand(0)[2])
    assert len(redrawn_for_the_owner) > 1
    assert len(redrawn_for_a_third_seat) > 1  # seat 2 did not see which card was taken
