"""What each seat sees: hands owner-only, the draw pile hidden, the rest public;
a picked market card is seen by every seat, so re-sampling never moves it."""

from __future__ import annotations

from simcore.kit.zones import EVERY_SEAT, NOBODY, UNSEEN
from simcore.rng import Generator
from tests.example_game.rules import DISCARD_PILE, DRAW_PILE, MARKET, PICK, PLANT, OrchardState

from .helpers import act, build, market_position, named


def _zones_seen(state: OrchardState, seat: int) -> tuple[tuple[int, ...], ...]:
    """The zones part of ``seat``'s observation (``KitState.observation``)."""
    zones: tuple[tuple[int, ...], ...] = state.observation(seat)[5]
    return zones


def test_a_seat_sees_its_own_hand_only_the_size_of_the_others_and_nothing_of_the_draw_pile() -> None:
    state = build([["apple_1", "pear_3"], ["plum_5"]], market=["apple_5"], discard=["pear_1"])
    seen = _zones_seen(state, 0)
    assert seen[state.zones.index(state.hand(0))] == tuple(state.hand(0).cards)
    assert seen[state.zones.index(state.hand(1))] == (UNSEEN,)
    assert set(seen[DRAW_PILE]) == {UNSEEN} and len(seen[DRAW_PILE]) == len(state.zones[DRAW_PILE])
    assert seen[MARKET] == tuple(state.zones[MARKET].cards)
    assert seen[DISCARD_PILE] == tuple(state.zones[DISCARD_PILE].cards)


def test_orchards_are_public() -> None:
    state = build([["apple_1"], ["plum_5"]])
    act(state, PLANT.encode(0))
    assert _zones_seen(state, 1)[state.zones.index(state.orchard(0))] == tuple(state.orchard(0).cards)


def test_a_card_picked_from_the_market_is_seen_by_every_seat_and_re_sampling_keeps_it() -> None:
    state = build([["apple_1", "pear_1"], ["plum_1", "plum_3"]], market=["apple_5", "pear_3"])
    act(state, PICK.encode(market_position(state, "apple_5")))
    hand = state.hand(0)
    picked = hand.cards.index(state.config.names.index("apple_5"))
    assert list(hand.seen) == [NOBODY, NOBODY, EVERY_SEAT]
    assert _zones_seen(state, 1)[state.zones.index(hand)] == (UNSEEN, UNSEEN, hand.cards[picked])
    moved_others = 0
    for draw in range(30):
        copy = state.resample_hidden(1, Generator(draw))
        assert isinstance(copy, OrchardState)
        assert named(copy.hand(0).cards)[picked] == "apple_5"
        assert copy.observation(1) == state.observation(1)
        moved_others += copy.hand(0).cards[:2] != hand.cards[:2]
    assert moved_others > 15  # the two unseen cards are redrawn


def test_re_sampling_redraws_the_other_hands_and_the_draw_pile_from_the_unseen_cards() -> None:
    state = build([["apple_1", "pear_1"], ["plum_1", "plum_3"], ["apple_3"]])
    unseen_before = sorted(state.hand(1).cards + state.hand(2).cards + state.zones[DRAW_PILE].cards)
    copy = state.resample_hidden(0, Generator(5))
    assert isinstance(copy, OrchardState)
    assert copy.hand(0).cards == state.hand(0).cards
    assert [len(copy.hand(seat)) for seat in (1, 2)] == [2, 1]
    assert sorted(copy.hand(1).cards + copy.hand(2).cards + copy.zones[DRAW_PILE].cards) == unseen_before
    assert (copy.hand(1).cards, copy.hand(2).cards) != (state.hand(1).cards, state.hand(2).cards) or \
        copy.zones[DRAW_PILE].cards != state.zones[DRAW_PILE].cards
