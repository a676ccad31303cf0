"""The designer's view of a Divvy position: hands, fighters, bids and the treasure row by card name."""

from __future__ import annotations

from simcore.describe import StateView, Zone, describe_state
from simcore.games.divvy import GAME
from simcore.games.divvy.rules import DRAW_PILE, TREASURE_ROW, DivvyState

from .helpers import DEFAULT, act, build, choose_many, choose_one, mask, named, position


def _zone(view: StateView, seat: int, name: str) -> Zone:
    return next(zone for zone in view.seats[seat].zones if zone.name == name)


def test_each_seat_s_hand_is_named_card_by_card_from_the_card_data() -> None:
    state = DivvyState.new_game(DEFAULT, 11, None)
    view = describe_state(GAME, state)
    for seat in (0, 1):
        assert list(view.seats[seat].hand) == named(state.hand(seat))
        assert len(view.seats[seat].hand) == DEFAULT.hand_size
    treasure = next(zone for zone in view.table if zone.name == "treasure row")
    assert list(treasure.cards) == named(state.zones[TREASURE_ROW].cards)
    draw_pile = ("draw pile", f"{len(state.zones[DRAW_PILE].cards)} cards")
    assert draw_pile in [(fact.name, fact.value) for fact in view.table_facts]
    assert (view.phase, view.to_act, view.turns) == ("lead", 0, 0)


def test_the_lead_fighters_leave_the_hands_and_the_face_down_bids_are_shown_as_hidden() -> None:
    state = build((["axes_7", "bows_2", "staves_9", "blades_3", "axes_1"],
                   ["blades_12", "bows_11", "staves_5", "axes_9", "bows_1"]), ["axes_5", "bows_4"])
    choose_one(state, "axes_7", "blades_12")
    view = describe_state(GAME, state)
    assert _zone(view, 0, "lead fighter").cards == ("axes_7",)
    assert _zone(view, 1, "lead fighter").cards == ("blades_12",)
    assert view.seats[0].hand == ("bows_2", "staves_9", "blades_3", "axes_1")
    choose_many(state, ["bows_2", "staves_9"], ["staves_5"])
    view = describe_state(GAME, state)
    bid = _zone(view, 0, "chaff bid (face down)")
    assert bid.cards == ("bows_2", "staves_9") and bid.hidden
    assert _zone(view, 1, "chaff bid (face down)").cards == ("staves_5",)
    assert view.seats[0].hand == ("blades_3", "axes_1")
    assert view.phase == "brawl"


def test_a_choice_made_first_is_shown_with_its_cards_while_it_waits_face_down() -> None:
    state = build((["axes_7", "bows_2", "staves_9", "blades_3"], ["blades_12", "bows_11", "staves_5", "axes_9"]),
                  ["axes_5"])
    act(state, position(state, 0, "staves_9"))
    facts = {fact.name: fact.value for fact in describe_state(GAME, state).seats[0].facts}
    assert facts["chosen to lead, face down until the other seat chooses"] == "staves_9"
    assert "staves_9" in describe_state(GAME, state).seats[0].hand  # still in hand until both have chosen
    act(state, position(state, 1, "axes_9"))
    act(state, mask(state, 0, ["bows_2", "axes_7"]))
    facts = {fact.name: fact.value for fact in describe_state(GAME, state).seats[0].facts}
    assert facts["chosen to chaff, face down until the other seat chooses"] == "axes_7, bows_2"
