"""The designer's view of a Theseus position: Hands, Parties, Rewards and the Board by card name."""

from __future__ import annotations

from simcore.describe import StateView, Zone, describe_state
from simcore.games.theseus import GAME
from simcore.games.theseus.rules import TheseusState

from .helpers import DEFAULT, build, explore, hand, names, party, recruit, without_card


def _seat_zone(view: StateView, seat: int, name: str) -> Zone:
    return next(zone for zone in view.seats[seat].zones if zone.name == name)


def _table_zone(view: StateView, name: str) -> Zone:
    return next(zone for zone in view.table if zone.name == name)


def test_hands_parties_and_the_board_are_named_through_the_card_data() -> None:
    state = build(n_players=3, hands=[["scout", "porter"], [], ["herald"]], board=["fisherman", "oracle"],
                  bonus_on=["oracle"])
    view = describe_state(GAME, state)
    for seat in range(3):
        assert list(view.seats[seat].hand) == [DEFAULT.names[state.card_of[i]] for i in state.hand(seat)]
        assert list(_seat_zone(view, seat, "Party").cards) == names(state, state.party(seat))
    assert view.seats[0].hand == ("scout", "porter") and view.seats[1].hand == ()
    assert _table_zone(view, "Board").cards == ("fisherman", "oracle")
    assert {fact.name: fact.value for fact in view.table_facts}["Bonuses on the Board"] == "oracle"


def test_exploring_moves_the_card_from_the_board_into_the_hand_and_recruiting_into_the_party() -> None:
    state = build(board=["fisherman", "oracle"])
    without_card(state, "explore")
    explore(state, "oracle")
    view = describe_state(GAME, state)
    assert view.seats[0].hand == ("oracle",) == tuple(hand(state, 0))
    assert _table_zone(view, "Board").cards[0] == "fisherman"
    state = build(hands=[["scout"], []])
    without_card(state, "recruit")
    recruit(state, "scout")
    view = describe_state(GAME, state)
    assert "scout" in _seat_zone(view, 0, "Party").cards and view.seats[0].hand == ()
    assert list(_seat_zone(view, 0, "Party").cards) == party(state, 0)


def test_a_new_game_shows_the_starting_parties_and_the_six_rank_deck_sizes() -> None:
    state = TheseusState.new_game(DEFAULT, 2, 5, None)
    view = describe_state(GAME, state)
    assert all(_seat_zone(view, seat, "Party").cards == ("knight", "mage", "rogue") for seat in (0, 1))
    decks = {fact.name: fact.value for fact in view.table_facts}["Rank decks"]
    assert decks == ", ".join(f"R{rank} {len(state.zones[rank].cards)}" for rank in range(1, 7))
    assert len(_table_zone(view, "Board").cards) == DEFAULT.board_size
