"""Zones: visibility decides what a seat sees; public history survives re-sampling; pools keep their cards."""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.kit.zones import (
    EVERY_SEAT,
    FACE_UP_COUNT,
    HIDDEN,
    NOBODY,
    OWNER_ONLY,
    PUBLIC,
    TABLE,
    UNSEEN,
    Zone,
    clone_zones,
    draw_face_down,
    move_all,
    move_card,
    move_masked,
    observe_zones,
    resample_zones,
)
from simcore.rng import Generator


def _zone(name: str, owner: int, visibility: int, cards: list[int], pool: int = 0) -> Zone:
    zone = Zone(name, owner, visibility, pool if visibility != PUBLIC else -1)
    zone.extend(cards)
    return zone


def test_each_visibility_shows_a_seat_what_it_should() -> None:
    public = _zone("market", TABLE, PUBLIC, [1, 2])
    hand = _zone("hand", 0, OWNER_ONLY, [3, 4])
    pile = _zone("draw pile", TABLE, HIDDEN, [5, 6, 7])
    buried = _zone("deck", 1, FACE_UP_COUNT, [8, 9])
    buried.bury_face_up(10)
    assert public.observe(1) == (1, 2)
    assert hand.observe(0) == (3, 4) and hand.observe(1) == (UNSEEN, UNSEEN)
    assert pile.observe(0) == (UNSEEN,) * 3 and pile.observe(TABLE) == (UNSEEN,) * 3
    assert buried.observe(1) == (10, UNSEEN, UNSEEN) and buried.observe(0) == (10, UNSEEN, UNSEEN)


def test_a_zone_that_hides_cards_must_name_a_pool() -> None:
    with pytest.raises(ValueError, match="needs a re-sampling pool"):
        Zone("hand", 0, OWNER_ONLY)
    with pytest.raises(ValueError, match="unknown visibility"):
        Zone("odd", 0, 7, pool=0)


def test_a_card_moved_from_a_public_zone_is_seen_by_all_and_one_from_a_hidden_zone_by_nobody() -> None:
    market = _zone("market", TABLE, PUBLIC, [1])
    pile = _zone("pile", TABLE, HIDDEN, [2])
    hand = _zone("hand", 0, OWNER_ONLY, [])
    other = _zone("other hand", 1, OWNER_ONLY, [])
    move_card(market, 0, hand)
    move_card(pile, 0, hand)
    assert list(hand.seen) == [EVERY_SEAT, NOBODY]
    assert hand.observe(1) == (1, UNSEEN)
    move_card(hand, 0, other)  # a card every seat saw, handed on out of sight: known to the two hands' owners
    move_card(hand, 0, other)  # a card taken from seat 0's hand: seat 0 knows it
    assert list(other.seen) == [1 << 0 | 1 << 1, 1 << 0]
    other.shuffle(Generator(1))
    assert list(other.seen) == [NOBODY, NOBODY]


def test_a_card_seen_by_some_seats_is_shown_to_them_only_and_kept_only_in_their_re_samples() -> None:
    victim = _zone("hand", 0, OWNER_ONLY, [5])
    taker = _zone("hand", 1, OWNER_ONLY, [6])
    third = _zone("hand", 2, OWNER_ONLY, [7, 8])
    move_card(victim, 0, taker)  # taken from seat 0: seats 0 and 1 know it, seat 2 does not
    third.show(0, 0)  # seat 2 showed its first card to seat 0
    zones = [victim, taker, third]
    assert taker.observe(0) == (UNSEEN, 5) and taker.observe(2) == (UNSEEN, UNSEEN)
    assert third.observe(0) == (7, UNSEEN) and third.observe(1) == (UNSEEN, UNSEEN)
    moved_for_seat_2 = 0
    for seed in range(30):
        for_seat_0 = clone_zones(zones)
        resample_zones(for_seat_0, 0, Generator(seed))
        assert for_seat_0[1].cards[1] == 5 and for_seat_0[2].cards[0] == 7
        assert observe_zones(for_seat_0, 0) == observe_zones(zones, 0)
        for_seat_2 = clone_zones(zones)
        resample_zones(for_seat_2, 2, Generator(seed))
        moved_for_seat_2 += for_seat_2[1].cards[1] != 5
        assert observe_zones(for_seat_2, 2) == observe_zones(zones, 2)
    assert moved_for_seat_2 > 5


def test_re_sampling_redraws_only_unseen_unknown_cards_within_each_pool_and_keeps_sizes() -> None:
    hand0 = _zone("hand", 0, OWNER_ONLY, [1, 2])
    hand1 = _zone("hand", 1, OWNER_ONLY, [3, 4, 5])
    hand1.seen[1] = EVERY_SEAT  # card 4 was seen by all
    pile = _zone("pile", TABLE, HIDDEN, [6, 7, 8, 9])
    other_pool = _zone("rank deck", TABLE, HIDDEN, [20, 21, 22], pool=1)
    market = _zone("market", TABLE, PUBLIC, [30])
    zones = [hand0, hand1, pile, other_pool, market]
    before = observe_zones(zones, 0)
    changed = 0
    for seed in range(40):
        copy = clone_zones(zones)
        resample_zones(copy, 0, Generator(seed))
        assert observe_zones(copy, 0) == before
        assert copy[0].cards == [1, 2] and copy[1].cards[1] == 4 and copy[4].cards == [30]
        assert sorted(copy[1].cards[0:1] + copy[1].cards[2:] + copy[2].cards) == [3, 5, 6, 7, 8, 9]
        assert sorted(copy[3].cards) == [20, 21, 22]
        changed += copy[1].cards != hand1.cards
    assert changed > 20
    assert hand1.cards == [3, 4, 5]  # the original is untouched


def test_re_sampling_depends_only_on_what_the_seat_sees_not_on_where_the_cards_are() -> None:
    first = [_zone("hand", 1, OWNER_ONLY, [3, 4]), _zone("pile", TABLE, HIDDEN, [5, 6])]
    second = [_zone("hand", 1, OWNER_ONLY, [6, 5]), _zone("pile", TABLE, HIDDEN, [4, 3])]
    resample_zones(first, 0, Generator(9))
    resample_zones(second, 0, Generator(9))
    assert [zone.cards for zone in first] == [zone.cards for zone in second]


def test_re_sampling_many_unseen_cards_depends_only_on_what_the_seat_sees() -> None:
    """Forty unseen cards (a pool sorted by counting, not by insertion), dealt
    in two different orders between a hand and a pile, re-sample alike."""
    cards = list(range(100, 140))
    first = [_zone("hand", 1, OWNER_ONLY, cards[:15]), _zone("pile", TABLE, HIDDEN, cards[15:])]
    second = [_zone("hand", 1, OWNER_ONLY, cards[::-1][:15]), _zone("pile", TABLE, HIDDEN, cards[::-1][15:])]
    resample_zones(first, 0, Generator(9))
    resample_zones(second, 0, Generator(9))
    assert [zone.cards for zone in first] == [zone.cards for zone in second]
    assert sorted(first[0].cards + first[1].cards) == cards and first[0].cards != cards[:15]


def test_a_face_up_count_pile_keeps_its_face_up_cards_when_re_sampled() -> None:
    deck = _zone("deck", 0, FACE_UP_COUNT, [1, 2, 3, 4])
    deck.bury_face_up(9)
    for seed in range(10):
        copy = clone_zones([deck])
        resample_zones(copy, 0, Generator(seed))
        assert copy[0].cards[0] == 9 and sorted(copy[0].cards[1:]) == [1, 2, 3, 4]


def test_a_clone_is_independent() -> None:
    zones = [_zone("hand", 0, OWNER_ONLY, [1, 2])]
    copy = clone_zones(zones)
    copy[0].add(3, seen=EVERY_SEAT)
    copy[0].take(0)
    assert zones[0].cards == [1, 2] and list(zones[0].seen) == [NOBODY, NOBODY]
    assert copy[0].cards == [2, 3] and list(copy[0].seen) == [NOBODY, EVERY_SEAT]


def test_a_zone_bound_to_a_card_class_is_redrawn_only_from_cards_of_its_class() -> None:
    """As Theseus' Rank decks: each deck keeps its Rank; a hand and the exile
    pile take the rest, of any Rank (card backs do not show the Rank)."""
    rank_of = [1, 1, 1, 2, 2, 2, 0, 0]  # card -> class
    deck_1 = Zone("rank 1 deck", TABLE, HIDDEN, pool=0, card_class=1)
    deck_1.extend([0, 1])
    deck_2 = Zone("rank 2 deck", TABLE, HIDDEN, pool=0, card_class=2)
    deck_2.extend([3])
    hand = Zone("hand", 1, OWNER_ONLY, pool=0)
    hand.extend([2, 4, 6])
    exiled = Zone("exile pile", TABLE, HIDDEN, pool=0)
    exiled.extend([5, 7])
    hand_classes = set()
    for seed in range(60):
        copy = clone_zones([deck_1, deck_2, hand, exiled])
        resample_zones(copy, 0, Generator(seed), rank_of)
        assert [len(zone) for zone in copy] == [2, 1, 3, 2]
        assert all(rank_of[card] == 1 for card in copy[0].cards)
        assert all(rank_of[card] == 2 for card in copy[1].cards)
        assert sorted(card for zone in copy for card in zone.cards) == list(range(8))
        hand_classes.add(tuple(sorted(rank_of[card] for card in copy[2].cards)))
    assert len(hand_classes) > 2  # the hand's mix of Ranks changes from draw to draw
    without = clone_zones([deck_1, deck_2, hand, exiled])
    resample_zones(without, 0, Generator(1))  # no classes given: one plain pool
    assert sorted(card for zone in without for card in zone.cards) == list(range(8))


def test_move_masked_moves_the_masked_cards_in_order_and_onto_a_public_zone_the_kept_cards_keep_their_history(
) -> None:
    hand = Zone("hand", 0, OWNER_ONLY, pool=0)
    hand.extend([10, 11, 12, 13])
    hand.show(2, 1)  # seat 1 saw card 12
    discards = Zone("discard pile", TABLE, PUBLIC)
    assert move_masked(hand, 0b1010, discards) == 2
    assert (hand.cards, discards.cards) == ([10, 12], [11, 13])
    assert list(hand.seen) == [NOBODY, 1 << 1]  # seat 1 saw which cards went: card 12 is still seen where it stayed
    assert hand.observe(1) == (UNSEEN, 12)


def test_cards_bid_face_down_out_of_a_hand_are_forgotten_with_the_cards_left_by_the_seats_that_see_neither() -> None:
    """Seat 1 saw cards 11 and 12 go into seat 0's hand; seat 0 bids 11 face down: seat 1
    cannot tell which card went, so it knows neither where 11 lies nor that 12 stayed."""
    hand = Zone("hand", 0, OWNER_ONLY, pool=0)
    hand.extend([10, 11, 12, 13])
    hand.reveal(1)
    hand.show(2, 1)
    bid = Zone("bid", 0, OWNER_ONLY, pool=0)
    assert move_masked(hand, 0b0010, bid) == 1
    assert (hand.cards, bid.cards) == ([10, 12, 13], [11])
    assert hand.observe(1) == (UNSEEN, UNSEEN, UNSEEN) and bid.observe(1) == (UNSEEN,)
    assert list(bid.seen) == [1 << 0] and hand.observe(0) == (10, 12, 13)  # the owner still knows its cards
    redrawn = 0  # and re-sampling for seat 1 redraws them both
    for seed in range(20):
        zones = [hand.copy(), bid.copy(), _zone("pile", TABLE, HIDDEN, [20, 21, 22])]
        resample_zones(zones, 1, Generator(seed))
        assert Counter(card for zone in zones for card in zone.cards) == Counter([10, 11, 12, 13, 20, 21, 22])
        redrawn += zones[0].cards[1] != 12 and zones[1].cards[0] != 11
    assert redrawn > 5


def test_a_card_taken_at_random_into_another_hand_is_known_only_to_the_two_owners_who_keep_the_rest() -> None:
    """Seat 1 takes a random card out of seat 0's hand, whose cards 5 and 6 every seat had
    seen: seat 2, who sees neither hand, can no longer tell where either lies; seat 1
    knows which card it took, so it still knows the one left."""
    victim = _zone("hand", 0, OWNER_ONLY, [5, 6])
    victim.reveal(0)
    victim.reveal(1)
    taker = _zone("hand", 1, OWNER_ONLY, [])
    move_card(victim, 0, taker)
    assert (victim.cards, taker.cards) == ([6], [5])
    assert victim.observe(2) == (UNSEEN,) and taker.observe(2) == (UNSEEN,)
    assert victim.observe(1) == (6,) and taker.observe(0) == (5,)


def test_a_card_put_face_down_from_a_hand_onto_a_hidden_pile_is_known_only_to_its_former_owner() -> None:
    hand = _zone("hand", 0, OWNER_ONLY, [5, 6])
    hand.reveal(0)
    exiled = _zone("exiled", TABLE, HIDDEN, [])
    move_card(hand, 0, exiled)
    assert exiled.observe(0) == (5,) and exiled.observe(1) == (UNSEEN,) and hand.observe(1) == (UNSEEN,)


def test_move_all_moves_every_card_in_order_and_a_card_from_a_public_zone_is_seen_by_every_seat() -> None:
    """No card is chosen (every card goes), so nobody forgets one, even out of a hand into another."""
    battle = Zone("battle", 1, PUBLIC)
    battle.extend([7, 8])
    hand = Zone("hand", 1, OWNER_ONLY, pool=0)
    hand.add(3)
    assert move_all(battle, hand) == 2
    assert (battle.cards, hand.cards, list(hand.seen)) == ([], [3, 7, 8], [NOBODY, EVERY_SEAT, EVERY_SEAT])
    assert hand.observe(0) == (UNSEEN, 7, 8)
    bid = Zone("bid", 1, OWNER_ONLY, pool=0)
    assert move_all(hand, bid) == 3
    assert bid.observe(0) == (UNSEEN, 7, 8)


def test_observe_as_shows_each_seen_card_as_its_type_so_two_copies_look_the_same() -> None:
    """As Theseus' instances: cards 0 and 1 are two copies of type 7, card 2 is of type 8."""
    type_of = [7, 7, 8]
    first = [_zone("market", TABLE, PUBLIC, [0, 2]), _zone("hand", 0, OWNER_ONLY, [1]),
             _zone("pile", TABLE, HIDDEN, [])]
    second = [_zone("market", TABLE, PUBLIC, [1, 2]), _zone("hand", 0, OWNER_ONLY, [0]),
              _zone("pile", TABLE, HIDDEN, [])]
    move_card(first[0], 1, first[2])  # seen by every seat on its way into the face-down pile
    move_card(second[0], 1, second[2])
    assert observe_zones(first, 0, type_of) == ((7,), (7,), (8,)) == observe_zones(second, 0, type_of)
    assert observe_zones(first, 1, type_of) == ((7,), (UNSEEN,), (8,))
    assert observe_zones(first, 0) != observe_zones(second, 0)  # without it, the copies differ
    assert first[1].observe(0, type_of) == (7,) and first[1].observe(1, type_of) == (UNSEEN,)


def test_a_revealed_card_is_seen_by_every_seat_where_it_lies_and_survives_resampling() -> None:
    tier = _zone("tier", TABLE, HIDDEN, [4, 5, 6], pool=0)
    tier.reveal(1)
    assert tier.observe(0) == (UNSEEN, 5, UNSEEN) and tier.observe(3) == (UNSEEN, 5, UNSEEN)
    assert not tier.hidden_from(-1, 1) and tier.hidden_from(-1, 0)
    for seed in range(10):
        copy = clone_zones([tier])
        resample_zones(copy, 0, Generator(seed))
        assert copy[0].cards[1] == 5 and sorted(copy[0].cards) == [4, 5, 6]


def test_drawing_from_a_pile_takes_the_top_and_reshuffles_a_pile_of_buried_cards_only() -> None:
    pile = _zone("deck", 0, FACE_UP_COUNT, [1, 2])
    pile.bury_face_up(3)
    assert draw_face_down(pile, Generator(1)) == 2 and pile.cards == [3, 1] and pile.face_up == 1
    assert draw_face_down(pile, Generator(1)) == 1 and pile.cards == [3]
    rng, twin = Generator(7), Generator(7)
    assert draw_face_down(pile, rng) == 3 and pile.cards == [] and pile.face_up == 0
    twin.shuffle([3])  # the reshuffle of the one buried card drew from the generator
    assert rng.next_u32() == twin.next_u32()
    assert draw_face_down(pile, rng) == -1
    buried = _zone("deck", 0, FACE_UP_COUNT, [])
    for card in (5, 6, 7):
        buried.bury_face_up(card)
    expected = [7, 6, 5]
    Generator(3).shuffle(expected)
    assert draw_face_down(buried, Generator(3)) == expected[-1]
    assert buried.face_up == 0 and list(buried.seen) == [NOBODY, NOBODY]


def test_a_card_buried_face_up_lies_at_the_bottom_seen_by_all_and_the_others_keep_their_marks() -> None:
    pile = _zone("deck", 0, FACE_UP_COUNT, [4])
    pile.show(0, 1)
    pile.bury_face_up(5)
    pile.bury_face_up(6)
    assert pile.cards == [6, 5, 4] and list(pile.seen) == [EVERY_SEAT, EVERY_SEAT, 1 << 1] and pile.face_up == 2
    assert pile.take_top() == 4 and list(pile.seen) == [EVERY_SEAT, EVERY_SEAT]


def test_taking_a_card_from_any_position_of_a_short_or_long_pile_keeps_the_others_and_their_marks_in_order() -> None:
    for size in (1, 3, 9, 12, 30):
        for position in (0, size // 2, size - 1, -1):
            pile = _zone("hand", 0, OWNER_ONLY, list(range(10, 10 + size)))
            for at in range(size):
                pile.show(at, at % 3)
            cards, marks = list(pile.cards), list(pile.seen)
            assert pile.take(position) == cards[position]
            del cards[position], marks[position]
            assert pile.cards == cards and list(pile.seen) == marks


def test_cards_shuffled_into_a_pile_join_it_face_down_unseen_as_extend_then_shuffle_leaves_them() -> None:
    pile = _zone("deck", 0, FACE_UP_COUNT, [1, 2])
    pile.show(1, 1)
    pile.bury_face_up(3)
    twin = _zone("deck", 0, FACE_UP_COUNT, [1, 2])
    twin.show(1, 1)
    twin.bury_face_up(3)
    pile.shuffle_in([4, 5, 6], Generator(11))
    twin.extend([4, 5, 6], EVERY_SEAT)
    twin.shuffle(Generator(11))
    assert pile.cards == twin.cards and sorted(pile.cards) == [1, 2, 3, 4, 5, 6]
    assert list(pile.seen) == [NOBODY] * 6 and pile.face_up == 0
