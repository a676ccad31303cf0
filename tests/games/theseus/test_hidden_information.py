"""What a seat can see: observations, and ``resample_hidden`` for search agents.

The zones decide it (``simcore.kit.zones``): other Hands, the Rank decks and
the exile pile are hidden, but a card a seat saw stays known to it wherever it
went (public history): a card explored from the face-up Board into a Hand is
seen by every seat, and re-sampling never redraws it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from simcore.games.theseus import GAME
from simcore.games.theseus.rules import EXILE_PILE, HAND_AREA, LAST_RANK, TheseusState
from simcore.kit.zones import UNSEEN
from simcore.rng import Generator
from tests import gamekit

from .helpers import DEFAULT, build, decks, every_card_once, explore, hand, seen_by, use


def _positions_along_random_games(seeds: range, n_players: int = 3) -> Iterator[TheseusState]:
    """A copy of every position of random games (``tests.gamekit.walk``)."""
    for seed in seeds:
        for state, _ in gamekit.walk(GAME, DEFAULT, n_players, seed):
            assert isinstance(state, TheseusState)
            yield state.clone()


def _unseen(state: TheseusState, seat: int) -> Counter[int]:
    """The card types of every card ``seat`` neither sees nor saw: in other Hands, the Rank decks, the exile pile."""
    zones = [*state.zones[1:EXILE_PILE + 1], *(state.seat_zone(other, HAND_AREA) for other in range(state.n_players)
                                               if other != seat)]
    return Counter(state.card_of[zone.cards[position]] for zone in zones for position in range(len(zone))
                   if zone.hidden_from(seat, position))


def test_resample_hidden_keeps_the_observation_and_redraws_only_what_the_seat_cannot_see() -> None:
    rng = Generator(99)
    changed = hidden_hands = 0
    for state in list(_positions_along_random_games(range(6)))[::5]:
        for seat in range(state.n_players):
            before = state.clone()
            copy = state.resample_hidden(seat, rng)
            assert copy.observation(seat) == state.observation(seat)
            assert _unseen(copy, seat) == _unseen(state, seat)  # the same unseen cards, dealt again
            for rank, deck in enumerate(decks(copy), start=1):
                assert all(DEFAULT.ranks[copy.card_of[i]] == rank for i in deck)  # each deck keeps its Rank
            assert copy.hand(seat) == state.hand(seat) and copy.board() == state.board()
            for other in range(state.n_players):
                assert copy.party(other) == state.party(other) and copy.reward(other) == state.reward(other)
            assert [len(deck) for deck in decks(copy)] == [len(deck) for deck in decks(state)]
            assert every_card_once(copy)
            others = [other for other in range(state.n_players) if other != seat]
            # Another Hand holds a card this seat never saw (drawn face down): a redraw can change it.
            hidden_hands += any(state.seat_zone(other, HAND_AREA).hidden_from(seat, position)
                                for other in others for position in range(len(state.hand(other))))
            changed += any(copy.observation(other) != state.observation(other) for other in others)
            assert state.observation(0) == before.observation(0) and decks(state) == decks(before)
    assert hidden_hands > 100 and changed > hidden_hands // 2


def test_a_card_explored_from_the_board_is_known_to_every_seat_and_kept_by_re_sampling() -> None:
    state = build(hands=[["scout"], []], board=["shepherd", "fisherman", "herald", "porter"],
                  deck_tops={1: ["torchbearer"]})
    use(state, "rogue")
    explore(state, "herald")  # face up on the Board, then into seat 0's Hand
    herald, scout = (state.config.names.index(name) for name in ("herald", "scout"))
    assert hand(state, 0) == ["scout", "herald"]
    assert seen_by(state, 1, 0, HAND_AREA) == (UNSEEN, herald)  # seat 1 saw it taken; the scout stays a card back
    for seed in range(20):
        copy = state.resample_hidden(1, Generator(seed))
        assert copy.hand(0)[1] == state.hand(0)[1]  # never redrawn: seat 1 knows it is there
        assert copy.observation(1) == state.observation(1)
    assert any(hand(state.resample_hidden(1, Generator(seed)), 0)[0] != "scout" for seed in range(20))
    assert seen_by(state, 0, 0, HAND_AREA) == (scout, herald)


def test_other_hands_show_only_how_many_cards_they_hold() -> None:
    first = build(hands=[[], ["scout"]], board=["shepherd", "fisherman", "herald", "porter"], rest="exile")
    second = build(hands=[[], ["cartographer"]], board=["shepherd", "fisherman", "herald", "porter"], rest="exile")
    assert first.observation(0) == second.observation(0)  # one card back each, whatever its Rank
    assert first.observation(1) != second.observation(1)
    third = build(hands=[[], ["scout", "porter"]], board=["shepherd", "fisherman", "herald", "porter"], rest="exile")
    assert third.observation(0) != first.observation(0)


def test_two_copies_of_a_card_look_the_same() -> None:
    first = build(board=["shepherd", "fisherman", "herald", "porter"])
    second = build(board=["shepherd", "fisherman", "herald", "porter"])
    shepherds = [instance for instance, card in enumerate(second.card_of) if DEFAULT.names[card] == "shepherd"]
    board, deck = second.zones[0], second.zones[1]
    position_on_board, position_in_deck = board.cards.index(shepherds[0]), deck.cards.index(shepherds[1])
    board.cards[position_on_board], deck.cards[position_in_deck] = shepherds[1], shepherds[0]  # the other copy
    assert first.board() != second.board()
    assert all(first.observation(seat) == second.observation(seat) for seat in range(2))


def test_a_resampled_state_plays_on_to_a_legal_end() -> None:
    rng, agent = Generator(5), Generator(6)
    for state in list(_positions_along_random_games(range(2), 2))[::25]:
        copy = state.resample_hidden(state.current_player, rng)
        while not copy.is_terminal():
            actions = copy.legal_actions()
            assert actions
            copy.apply(actions[agent.below(len(actions))])
        assert every_card_once(copy)


def test_clone_is_an_exact_and_independent_copy() -> None:
    state = build(board=["shepherd", "fisherman", "herald", "porter"])
    copy = state.clone()
    assert copy.observation(0) == state.observation(0) and decks(copy) == decks(state)
    use(copy, "rogue")
    copy.apply(copy.legal_actions()[0])
    assert state.hand(0) == [] and len(copy.hand(0)) == 1
    assert state.board() != copy.board() and decks(state) != decks(copy)
    assert len(state.zones[LAST_RANK]) == len(copy.zones[LAST_RANK])
