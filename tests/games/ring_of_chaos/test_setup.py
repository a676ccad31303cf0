"""Set-up: the party draft, standees, the Ring on the Altar, the opening hands, the first player, the maps."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import CARD_NAMES, TEMPLE_GUARDIAN
from simcore.games.ring_of_chaos.rules import (
    ACTIVE,
    DISCARD_PILE,
    FULL,
    K_DRAFT,
    K_MAIN,
    RING_HOLDER,
    RING_SPACE,
    RingState,
)
from simcore.trace import TraceRecorder

from .helpers import (
    DEFAULT,
    LABYRINTH,
    all_hands,
    all_heroes,
    all_parties,
    all_positions,
    configured,
    locations,
    seat_counters,
)


def _draft_all(state: RingState, pick_second: bool = False) -> list[tuple[int, list[int]]]:
    """Answer every draft question; return (seat, offered parties) in order."""
    offers = []
    while state.decisions.asked.kind == K_DRAFT and not state.is_terminal():
        offered = list(state.legal_actions())
        offers.append((state.current_player, offered))
        state.apply(offered[1] if pick_second else offered[0])
    return offers


def test_the_draft_offers_two_party_cards_and_passes_the_rejected_one_on_with_a_new_one() -> None:
    state = GAME.new_state(DEFAULT, 4, 11)
    first = state.current_player
    offers = _draft_all(state)
    assert [seat for seat, _ in offers] == [(first + step) % 4 for step in range(4)]  # clockwise
    for (seat, offered), (_, following) in itertools.pairwise(offers):
        assert len(offered) == 2
        rejected = offered[1]  # the first card was chosen
        assert state.party(seat) == offered[0]
        assert rejected in following and len(set(following)) == 2
    assert len(set(all_parties(state))) == 4  # every party is different
    assert all(DEFAULT.party_keys[party] != "nameless_band" for party in all_parties(state))


def test_a_draft_with_six_players_uses_all_seven_described_parties() -> None:
    state = GAME.new_state(DEFAULT, 6, 3)
    offers = _draft_all(state, pick_second=True)
    offered = {party for _, pair in offers for party in pair}
    assert len(offered) == 7 and len(set(all_parties(state))) == 6


def test_the_first_player_is_left_of_the_first_drafter_and_is_random_by_seed() -> None:
    firsts = set()
    no_guardians = configured({"cards.temple_guardian.copies": 0})  # straight to the first main menu
    for seed in range(20):
        state = GAME.new_state(no_guardians, 5, seed)
        drafter = state.current_player
        _draft_all(state)
        assert state.decisions.asked.kind == K_MAIN
        assert state.numbers[ACTIVE] == (drafter + 1) % 5 == state.current_player
        assert state.game_columns()["first_player"] == state.numbers[ACTIVE]  # the games table records it
        firsts.add(drafter)
    assert len(firsts) > 2


def test_every_party_starts_with_four_full_strength_heroes_no_points_and_a_standee_on_a_starting_space() -> None:
    no_guardians = configured({"cards.temple_guardian.copies": 0})  # nothing can hurt anyone before turn one
    for n_players in range(2, 7):
        state = GAME.new_state(no_guardians, n_players, 5)
        _draft_all(state)
        assert all_heroes(state) == [[FULL] * 4 for _ in range(n_players)]
        starts = DEFAULT.board.starts
        assert all(space in starts for space in all_positions(state))
        assert len(set(all_positions(state))) == n_players
        assert state.scores() == [0] * n_players


def test_the_ring_starts_on_the_chaos_altar() -> None:
    state = GAME.new_state(LABYRINTH, 3, 2)
    _draft_all(state)
    assert state.numbers[RING_HOLDER] == -1 and state.numbers[RING_SPACE] == LABYRINTH.board.altar


def test_each_player_is_dealt_four_cards_and_temple_guardians_are_replaced() -> None:
    replaced = 0
    for seed in range(40):
        recorder = TraceRecorder()
        state = GAME.new_state(DEFAULT, 6, seed, recorder.record)
        _draft_all(state)
        opening = [sum(seat_counters(state, seat)[0]) for seat in range(6)]
        assert opening == [4] * 6
        for seat in range(6):
            assert state.stats.get(seat, 0, TEMPLE_GUARDIAN) == 0
        deal_discards = [event for event in recorder.events if event["type"] == "deal"]
        assert len(deal_discards) == 6
        replaced += Counter(state.zones[DISCARD_PILE].cards)[TEMPLE_GUARDIAN]
        assert locations(state) == Counter(DEFAULT.deck)
    assert replaced > 0  # some seeds dealt a Guardian, which went to the discard pile


@pytest.mark.parametrize("n_players", [1, 7])
def test_ring_of_chaos_is_for_two_to_six_players(n_players: int) -> None:
    with pytest.raises(ValueError):
        GAME.new_state(DEFAULT, n_players, 1)


def test_the_same_seed_gives_the_same_set_up_and_another_seed_another() -> None:
    first, again, other = (GAME.new_state(DEFAULT, 4, seed) for seed in (8, 8, 9))
    for state in (first, again, other):
        _draft_all(state)
    assert all_hands(first) == all_hands(again) and all_parties(first) == all_parties(again)
    assert (all_hands(first), all_parties(first)) != (all_hands(other), all_parties(other))


@pytest.mark.parametrize("config", [DEFAULT, LABYRINTH], ids=["sanctum", "labyrinth"])
def test_each_battle_map_is_a_connected_graph_with_an_altar_and_six_starts_at_stairway_bases(config: object) -> None:
    board = config.board  # type: ignore[attr-defined]
    assert len(board.starts) == 6 and board.altar not in board.starts
    for start in board.starts:
        assert board.distance[start][board.altar] >= 3  # a climb up the stairs to the Altar
        assert all(row[start] >= 0 for row in board.distance)
    for space, neighbours in enumerate(board.neighbours):
        assert all(space in board.neighbours[other] for other in neighbours)  # links go both ways


def test_the_two_maps_are_different_layouts() -> None:
    sanctum, labyrinth = DEFAULT.board, LABYRINTH.board
    assert sanctum.name != labyrinth.name
    assert len(sanctum.neighbours[sanctum.altar]) == 6
    assert len(labyrinth.neighbours[labyrinth.altar]) == 2  # the Labyrinth's Altar is a choke point
    assert sanctum.n_spaces != labyrinth.n_spaces


def test_starting_spaces_are_spread_around_the_table() -> None:
    state = GAME.new_state(DEFAULT, 3, 1)
    _draft_all(state)
    starts = DEFAULT.board.starts
    assert all_positions(state) == [starts[0], starts[2], starts[4]]


def test_every_card_id_fits_the_machine_integer_masks_the_rules_keep_per_hand() -> None:
    # distinct_positions keeps a bit per card id in an i64: ids 0..62.
    assert len(CARD_NAMES) <= 63
