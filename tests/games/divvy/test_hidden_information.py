"""What a seat can see: observations, and ``resample_hidden`` for search agents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from simcore.games.divvy.rules import (
    BATTLE_RECORD,
    BRAWL_RESULT,
    CHAFF,
    CHAFF_BID,
    DISCARD,
    DISCARD_PILE,
    DRAW_PILE,
    HAND,
    LEAD,
    REINFORCEMENTS,
    REPLACE,
    REPLACEMENT,
    RESHUFFLED,
    ROUND,
    TREASURE_ROW,
    WON_TREASURE,
    DivvyState,
)
from simcore.kit.zones import UNSEEN, move_card
from simcore.rng import Generator

from .helpers import (
    BRAWL_HANDS,
    BY_ICON,
    DEFAULT,
    PLAIN_HANDS,
    act,
    both,
    build,
    card,
    choose_many,
    choose_one,
    locations,
    mask,
    named,
    seat_cards,
    seat_numbers,
)


def _positions_along_random_games(seeds: range) -> Iterator[DivvyState]:
    """Every state of random two-player games, with and without a pending choice."""
    for seed in seeds:
        state = DivvyState.new_game(DEFAULT, seed, None)
        agent = Generator(seed + 1000)
        while not state.is_terminal():
            yield state
            actions = state.legal_actions()
            state.apply(actions[agent.below(len(actions))])


def _public(state: DivvyState, seat: int) -> tuple[object, ...]:
    """Everything outside the opponent's hand, its face-down bid and the draw pile's order."""
    other = 1 - seat
    return (
        state.phase, state.current_player, state.numbers[ROUND], state.numbers[RESHUFFLED],
        state.hand(seat), state.seat_zone(seat, CHAFF_BID).cards, state.decisions.committed[seat],
        state.decisions.committed[other] >= 0, both(state.lead_card), seat_numbers(state, BATTLE_RECORD),
        state.numbers[BRAWL_RESULT], seat_cards(state, REINFORCEMENTS), state.zones[TREASURE_ROW].cards,
        seat_cards(state, WON_TREASURE), state.scores(), state.zones[DISCARD_PILE].cards, state.ended_by,
        len(state.hand(other)), len(state.seat_zone(other, CHAFF_BID).cards), len(state.zones[DRAW_PILE].cards),
    )


def _hidden(state: DivvyState, seat: int) -> Counter[int]:
    other = 1 - seat
    return Counter(state.hand(other) + state.seat_zone(other, CHAFF_BID).cards + state.zones[DRAW_PILE].cards)


def test_resample_hidden_keeps_the_observation_and_redraws_only_what_the_seat_cannot_see() -> None:
    rng = Generator(99)
    changed = pending_changed = 0
    for state in _positions_along_random_games(range(30)):
        for seat in (0, 1):
            before = state.clone()
            copy = state.resample_hidden(seat, rng)
            assert copy.observation(seat) == state.observation(seat)
            assert _public(copy, seat) == _public(state, seat)
            assert _hidden(copy, seat) == _hidden(state, seat)  # the same unseen cards, dealt again
            assert locations(copy) == locations(state)
            other = 1 - seat
            if copy.decisions.committed[other] >= 0:
                assert copy.decisions.committed[other] in copy.choices_for(other)
                pending_changed += copy.decisions.committed[other] != state.decisions.committed[other]
            changed += (copy.hand(other), copy.zones[DRAW_PILE].cards) != (state.hand(other),
                                                                           state.zones[DRAW_PILE].cards)
            # The original is untouched.
            assert state.observation(0) == before.observation(0) and state.observation(1) == before.observation(1)
            assert both(state.hand) == both(before.hand)
            assert state.zones[DRAW_PILE].cards == before.zones[DRAW_PILE].cards
    assert changed > 0 and pending_changed > 0  # it does redraw


def test_a_resampled_state_plays_on_to_a_legal_end() -> None:
    rng, agent = Generator(5), Generator(6)
    for state in [position.clone() for position in _positions_along_random_games(range(3))][::7]:
        copy = state.resample_hidden(state.current_player, rng)
        while not copy.is_terminal():
            actions = copy.legal_actions()
            assert actions
            copy.apply(actions[agent.below(len(actions))])
        assert locations(copy) == Counter(DEFAULT.deck)


def test_the_opponents_bid_is_hidden_but_the_own_bid_is_seen() -> None:
    state = build(PLAIN_HANDS, ["bows_8"])
    choose_one(state, "axes_12", "axes_6")
    assert state.phase == CHAFF
    state.apply(0b0001)
    state.apply(0b0011)
    first, second = state.clone(), state.clone()
    bid, hand = second.seat_zone(1, CHAFF_BID).cards, second.hand(1)  # the zones' own lists: swap cards in place
    bid[:], hand[:] = hand[:2], bid + hand[2:]
    assert first.seat_zone(1, CHAFF_BID).cards != second.seat_zone(1, CHAFF_BID).cards
    assert first.observation(0) == second.observation(0)
    assert first.observation(1) != second.observation(1)


def test_clone_is_an_exact_and_independent_copy() -> None:
    state = build(PLAIN_HANDS, ["bows_8"])
    copy = state.clone()
    assert copy.observation(0) == state.observation(0) and copy.zones[DRAW_PILE].cards == state.zones[DRAW_PILE].cards
    copy.apply(0)
    move_card(copy.zones[DRAW_PILE], len(copy.zones[DRAW_PILE].cards) - 1, copy.seat_zone(0, HAND))
    assert state.current_player == 0 and len(state.hand(0)) == 5
    assert len(state.zones[DRAW_PILE].cards) == len(copy.zones[DRAW_PILE].cards) + 1


def test_a_battle_card_taken_back_stays_known_to_the_opponent_and_re_sampling_keeps_it() -> None:
    # Seat 0's shield beats seat 1's sword: seat 1 takes back its face-down bid
    # (blades_1) and its battle card (staves_10), which lay face up in the brawl.
    state = build(BRAWL_HANDS, ["bows_8"])
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, ["axes_1"], ["blades_1"])
    choose_one(state, BY_ICON[0]["shield"], BY_ICON[1]["sword"])
    assert state.phase == REPLACE and state.current_player == 0
    hand = state.hand(1)
    battle_position, bid_position = hand.index(card("staves_10")), hand.index(card("blades_1"))
    opponent_hand = state.seat_zone(1, HAND).observe(0)  # what seat 0's observation shows of it
    assert opponent_hand in state.observation(0)[5]
    assert opponent_hand[battle_position] == card("staves_10") and opponent_hand[bid_position] == UNSEEN
    redrawn_bids = set()
    rng = Generator(3)
    for _ in range(20):
        copy = state.resample_hidden(0, rng)
        assert copy.hand(1)[battle_position] == card("staves_10")
        redrawn_bids.add(copy.hand(1)[bid_position])
    assert len(redrawn_bids) > 1  # the bid, seen only by its owner, is redrawn


def test_a_battle_card_taken_back_and_then_bid_face_down_is_hidden_again_with_the_cards_left_in_the_hand() -> None:
    """The opponent saw staves_10 go back into seat 1's hand after the brawl; bid face
    down in the next round, it may be any of seat 1's hand and bid cards to seat 0:
    seat 0 is shown none of them, and re-sampling for seat 0 redraws it."""
    state = build(BRAWL_HANDS, ["bows_8"])
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, ["axes_1"], ["blades_1"])
    choose_one(state, BY_ICON[0]["shield"], BY_ICON[1]["sword"])
    act(state, REPLACEMENT.encode(0))  # the winner, seat 0, takes its cards back too
    choose_many(state, [], [])  # nobody reinforces; round 2 is dealt
    while state.phase == DISCARD:  # down to the hand limit, keeping staves_10
        seat = state.current_player
        excess = len(state.hand(seat)) - DEFAULT.hand_limit
        kept = [name for name in named(state.hand(seat)) if name != "staves_10"]
        act(state, mask(state, seat, kept[:excess]))
    assert state.phase == LEAD
    staves_10 = card("staves_10")
    assert staves_10 in state.hand(1) and staves_10 in state.seat_zone(1, HAND).observe(0)
    leads = [named(state.hand(0))[0], next(name for name in named(state.hand(1)) if name != "staves_10")]
    choose_one(state, *leads)
    choose_many(state, named(state.hand(0))[:1], ["staves_10"])
    assert state.seat_zone(1, CHAFF_BID).cards == [staves_10]
    assert set(state.seat_zone(1, CHAFF_BID).observe(0)) == {UNSEEN}
    assert set(state.seat_zone(1, HAND).observe(0)) == {UNSEEN}
    assert state.seat_zone(1, CHAFF_BID).observe(1) == (staves_10,)  # its owner still knows it
    rng = Generator(8)
    redrawn = sum(state.resample_hidden(0, rng).seat_zone(1, CHAFF_BID).cards != [staves_10] for _ in range(20))
    assert redrawn > 10
