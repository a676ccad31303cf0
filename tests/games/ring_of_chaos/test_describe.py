"""The designer's view of a Ring of Chaos position: hands, parties, spaces, the Ring and the piles by card name."""

from __future__ import annotations

from simcore.describe import StateView, describe_state
from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.rules import (
    MOVE,
    RingState,
)

from .helpers import DEFAULT, act, build, names, play

NEUTRAL = "nameless_band"  # the party without a power


def _facts(view: StateView, seat: int) -> dict[str, str]:
    return {fact.name: fact.value for fact in view.seats[seat].facts}


def test_hands_parties_points_and_spaces_are_shown_for_every_seat() -> None:
    state = build([NEUTRAL, "hell_raisers", NEUTRAL], [13, 15, 17],
                  [["mace", "dodge"], ["fireball"], []], points=[3, 0, 5], ring_holder=2)
    view = describe_state(GAME, state)
    for seat in range(3):
        assert list(view.seats[seat].hand) == names(state.hand(seat))
        assert view.seats[seat].title == state.party_name(seat)
        assert _facts(view, seat)["space"] == str(state.position(seat))
    assert view.seats[0].hand == ("mace", "dodge") and view.seats[1].title == "Hell Raisers"
    assert _facts(view, 2)["Summoning Points"] == "5" and _facts(view, 2)["Ring of Chaos"] == "wears it"
    assert {fact.name: fact.value for fact in view.table_facts}["Ring of Chaos"] == "worn by seat 2"


def test_a_move_changes_the_space_and_a_played_card_leaves_the_hand_for_the_discard_pile() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 16], [["healing_potion", "bow"], []], heroes=[(1, 2, 2, 2), (2, 2, 2, 2)])
    act(state, MOVE.encode(7))
    view = describe_state(GAME, state)
    assert _facts(view, 0)["space"] == "7"
    assert {fact.name: fact.value for fact in view.table_facts}["actions used"] == "move"
    play(state, "healing_potion")
    act(state, 0)  # heals the wounded Cleric
    view = describe_state(GAME, state)
    assert view.seats[0].hand == ("bow",)
    assert "cleric full strength" in _facts(view, 0)["Heroes"]
    discard = next(zone for zone in view.table if zone.name == "discard pile")
    assert discard.cards[-1] == "healing_potion"


def test_during_the_draft_the_offer_is_named_and_nobody_has_a_hand_yet() -> None:
    state = RingState.new_game(DEFAULT, 2, 3, None)
    view = describe_state(GAME, state)
    assert view.phase == "draft" and all(seat.hand == () for seat in view.seats)
    offer = {fact.name: fact.value for fact in view.table_facts}["draft offer"]
    assert " or " in offer and all(name in DEFAULT.party_names for name in offer.split(" or "))
