"""The designer's view of an Orchard state, written once by ``simcore.kit.view`` as loops over the zones."""

from __future__ import annotations

from simcore.describe import describe_state
from tests.example_game import GAME
from tests.example_game.rules import PICK

from .helpers import act, build


def test_the_view_shows_hands_orchards_the_table_and_the_numbers_by_name() -> None:
    state = build([["apple_1", "pear_3"], ["plum_5"]], market=["apple_5"], discard=["pear_1"],
                  orchards=[["plum_1"], []], draw_top=["apple_3"])
    view = describe_state(GAME, state)
    assert view.phase == "turn" and view.to_act == 0 and view.turns == 0
    assert [seat.hand for seat in view.seats] == [("apple_1", "pear_3"), ("plum_5",)]
    assert view.seats[0].zones[0].name == "orchard" and view.seats[0].zones[0].cards == ("plum_1",)
    assert [fact.value for fact in view.seats[0].facts] == ["1"]
    table = {zone.name: zone for zone in view.table}
    assert table["market"].cards == ("apple_5",) and not table["market"].hidden
    assert table["discard pile"].cards == ("pear_1",)
    assert table["draw pile"].hidden and table["draw pile"].cards[-1] == "apple_3"
    assert len(table["draw pile"].cards) == len(state.zones[0].cards)
    assert [(fact.name, fact.value) for fact in view.table_facts] == [("rounds completed", "0"), ("blocks", "0")]


def test_the_view_says_whose_question_it_is_and_how_the_game_ended() -> None:
    state = build([["apple_1"], []], market=["pear_5"], rest=False)
    act(state, PICK.encode(0))  # seat 1 has nothing to do: the game ends
    view = describe_state(GAME, state)
    assert view.phase == "over" and view.to_act == -1
    assert ("ended by", "no_cards_left") in [(fact.name, fact.value) for fact in view.table_facts]
