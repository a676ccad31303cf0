"""What a seat can see: observations, and ``resample_hidden`` for search agents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from simcore.games.theseus.rules import TheseusState
from simcore.rng import Generator

from .helpers import DEFAULT, build, every_card_once, use


def _positions_along_random_games(seeds: range, n_players: int = 3) -> Iterator[TheseusState]:
    for seed in seeds:
        state = TheseusState.new_game(DEFAULT, n_players, seed, None)
        agent = Generator(seed + 1000)
        while not state.is_terminal():
            yield state
            actions = state.legal_actions()
            state.apply(actions[agent.below(len(actions))])


def _hidden(state: TheseusState, seat: int) -> Counter[int]:
    """Every card ``seat`` cannot see: other Hands, Rank decks, exile pile."""
    cards = list(state.exiled)
    for deck in state.decks:
        cards += deck
    for other in range(state.n_players):
        if other != seat:
            cards += state.hands[other]
    return Counter(state.card_of[i] for i in cards)


def test_resample_hidden_keeps_the_observation_and_redraws_only_what_the_seat_cannot_see() -> None:
    rng = Generator(99)
    changed = checked = 0
    for state in list(_positions_along_random_games(range(6)))[::5]:
        for seat in range(state.n_players):
            before = state.clone()
            copy = state.resample_hidden(seat, rng)
            checked += 1
            assert copy.observation(seat) == state.observation(seat)
            assert _hidden(copy, seat) == _hidden(state, seat)  # the same unseen cards, dealt again
            for rank, deck in enumerate(copy.decks):
                assert all(DEFAULT.ranks[copy.card_of[i]] == rank for i in deck)  # each deck keeps its Rank
            assert copy.hands[seat] == state.hands[seat] and copy.board == state.board
            assert copy.parties == state.parties and copy.rewards == state.rewards
            assert [len(deck) for deck in copy.decks] == [len(deck) for deck in state.decks]
            assert every_card_once(copy)
            changed += any(copy.observation(other) != state.observation(other)
                           for other in range(state.n_players) if other != seat)
            assert state.observation(0) == before.observation(0) and state.decks == before.decks
    assert changed > checked // 2


def test_other_hands_show_only_how_many_cards_they_hold() -> None:
    first = build(hands=[[], ["scout"]], board=["shepherd", "fisherman", "herald", "porter"], rest="exile")
    second = build(hands=[[], ["cartographer"]], board=["shepherd", "fisherman", "herald", "porter"], rest="exile")
    assert first.observation(0) == second.observation(0)  # one card back each, whatever its Rank
    assert first.observation(1) != second.observation(1)
    third = build(hands=[[], ["scout", "porter"]], board=["shepherd", "fisherman", "herald", "porter"], rest="exile")
    assert third.observation(0) != first.observation(0)


def test_a_resampled_state_plays_on_to_a_legal_end() -> None:
    rng, agent = Generator(5), Generator(6)
    for state in [position.clone() for position in _positions_along_random_games(range(2), 2)][::25]:
        copy = state.resample_hidden(state.current_player, rng)
        while not copy.is_terminal():
            actions = copy.legal_actions()
            assert actions
            copy.apply(actions[agent.below(len(actions))])
        assert every_card_once(copy)


def test_clone_is_an_exact_and_independent_copy() -> None:
    state = build(board=["shepherd", "fisherman", "herald", "porter"])
    copy = state.clone()
    assert copy.observation(0) == state.observation(0) and copy.decks == state.decks
    use(copy, "rogue")
    copy.apply(0)
    assert state.hands[0] == [] and len(copy.hands[0]) == 1
    assert state.board != copy.board and state.decks != copy.decks
