"""Setup: starting Parties, the six Rank decks, the first Board, the first player."""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.games.theseus import GAME
from simcore.games.theseus.rules import (
    ACTIVE,
    LAST_RANK,
    MAIN,
    RANK,
    TheseusState,
)
from simcore.seeding import make_rng

from .helpers import (
    DEFAULT,
    STARTERS,
    board,
    bonus_cards,
    bonuses,
    decks,
    every_card_once,
    hand,
    party,
    rank_of,
    reward,
)

SEEDS = range(30)


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_each_player_starts_with_knight_mage_and_rogue_in_the_party_and_an_empty_hand_and_reward(
    n_players: int,
) -> None:
    state = GAME.new_state(DEFAULT, n_players, 5)
    for seat in range(n_players):
        assert party(state, seat) == ["knight", "mage", "rogue"]
        assert hand(state, seat) == [] and reward(state, seat) == []
        assert bonuses(state)[seat] == 0
    assert set(STARTERS) == {"knight", "mage", "rogue"}
    assert every_card_once(state)


def test_there_are_six_rank_decks_each_holding_only_cards_of_its_rank() -> None:
    parameters = GAME.default_parameters()["cards"]
    for rank in range(1, LAST_RANK + 1):
        expected = Counter({name: card["copies"] for name, card in parameters.items() if card["rank"] == rank})
        assert sum(expected.values()) > 0
        state = TheseusState.new_game(DEFAULT, 2, 1, None)
        in_deck = Counter(DEFAULT.names[state.card_of[i]] for i in state.zones[rank].cards)
        if rank == 1:
            in_deck += Counter(board(state))
        assert in_deck == expected
    assert all(state.rank_of[instance] == 0 for instance in state.party(0))  # the starting cards: no Rank deck
    assert [zone.card_class for zone in state.zones[1:LAST_RANK + 1]] == list(range(1, LAST_RANK + 1))


def test_the_board_starts_with_four_face_up_cards_from_the_rank_one_deck() -> None:
    for seed in SEEDS:
        state = TheseusState.new_game(DEFAULT, 3, seed, None)
        assert len(state.board()) == 4
        assert all(rank_of(name) == 1 for name in board(state))
        assert state.numbers[RANK] == 1
        assert bonus_cards(state) == []


def shuffled_rank_decks(seed: int) -> list[list[int]]:
    """The six Rank decks as the set-up with ``seed`` shuffles them, before any card is revealed: card
    instances, Rank 1 first, each deck's top card last. ``new_game`` numbers the instances deck by deck
    (Rank 1 first, in ``rank_decks`` order) and shuffles the decks in that order with the game's generator."""
    rng = make_rng(seed)
    shuffled, first = [], 0
    for rank in range(1, LAST_RANK + 1):
        deck = list(range(first, first + len(DEFAULT.rank_decks[rank])))
        first += len(deck)
        rng.shuffle(deck)
        shuffled.append(deck)
    return shuffled


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_the_board_is_revealed_from_the_top_of_the_shuffled_rank_one_deck(n_players: int) -> None:
    in_deck_order = [card for rank in range(1, LAST_RANK + 1) for card in DEFAULT.rank_decks[rank]]
    for seed in SEEDS:
        state = TheseusState.new_game(DEFAULT, n_players, seed, None)
        assert state.card_of[:len(in_deck_order)] == in_deck_order  # the numbering shuffled_rank_decks assumes
        before = shuffled_rank_decks(seed)
        top_four = list(reversed(before[0][-4:]))  # the top card first
        assert state.board() == top_four  # revealed one by one from the top, the first revealed first
        assert state.zones[1].cards == before[0][:-4]  # the rest of the deck as it was shuffled
        assert decks(state)[1:] == before[1:]  # the other Rank decks as shuffled, untouched


def test_the_first_player_is_seat_zero_and_play_proceeds_clockwise() -> None:
    state = GAME.new_state(DEFAULT, 3, 2)
    assert state.asked_kind() == MAIN and state.current_player == 0 and state.numbers[ACTIVE] == 0
    for expected in (1, 2, 0):
        state.apply(state.legal_actions()[-1])  # END_TURN is always the last MAIN action
        assert state.current_player == expected


def test_the_same_seed_gives_the_same_set_up_and_another_seed_another() -> None:
    first, again, other = (TheseusState.new_game(DEFAULT, 2, seed, None) for seed in (11, 11, 12))
    assert first.observation(0) == again.observation(0) and decks(first) == decks(again)
    assert decks(first) != decks(other)


@pytest.mark.parametrize("n_players", [1, 5])
def test_theseus_is_for_two_to_four_players(n_players: int) -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        GAME.new_state(DEFAULT, n_players, 0)
    assert (GAME.info.min_players, GAME.info.max_players) == (2, 4)
