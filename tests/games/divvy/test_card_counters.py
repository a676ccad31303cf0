"""Offered versus played: the ``playable`` and ``played`` card counters.

``playable`` counts the steps at which the player to act could play the card
(lead fighter and brawl card: any hand card; reinforcements: the hand cards of
the lead's suit), once per card per step, forced steps included; ``played``
counts the cards led, brawled and sent as reinforcements. A chaff bid and a
hand-limit discard are not plays.
"""

from __future__ import annotations

from typing import Any

from simcore.agents import parse_agent_spec
from simcore.api import CardColumns
from simcore.games.divvy import GAME
from simcore.games.divvy.rules import CARD_COUNTERS, DivvyState
from simcore.play import play_game

from .helpers import DEFAULT, PLAIN_HANDS, act, build, choose_many, mask, position


def _rows(state: DivvyState) -> dict[tuple[int, str], dict[str, Any]]:
    columns = CardColumns(len(GAME.info.card_counters))
    state.add_card_rows(columns)
    return {
        (columns.seat[row], columns.names[columns.card[row]]): dict(
            zip(GAME.info.card_counters, (counter[row] for counter in columns.counters), strict=True))
        for row in range(len(columns))
    }


def _offer_and_act(state: DivvyState, action: int) -> None:
    """What ``play_game`` does at every step: note the offer, then apply."""
    state.note_offered(state.legal_actions())
    act(state, action)


def _set_dealt(state: DivvyState) -> None:
    """Mark the hand-made hands as drawn, so that every held card has a row."""
    drawn = CARD_COUNTERS.index("drawn")
    for seat in (0, 1):
        for card in state.hand(seat):
            state.stats.add(seat, drawn, card)


def test_every_hand_card_is_playable_at_the_lead_and_the_brawl_and_only_the_lead_suit_at_reinforcements() -> None:
    # Seat 0: axes_12 leads; axes_2 is the only other axe. Seat 1: axes_6 leads, no other axe.
    state = build(PLAIN_HANDS, ["bows_8"])
    _set_dealt(state)
    _offer_and_act(state, position(state, 0, "axes_12"))
    _offer_and_act(state, position(state, 1, "axes_6"))
    # Chaff: nothing is playable (a bid is not a play).
    _offer_and_act(state, mask(state, 0, ["staves_5"]))
    _offer_and_act(state, mask(state, 1, ["blades_4"]))
    _offer_and_act(state, position(state, 0, "blades_1"))  # both brawl with a scroll: a tie
    _offer_and_act(state, position(state, 1, "bows_6"))
    _offer_and_act(state, mask(state, 0, ["axes_2"]))  # reinforcements
    _offer_and_act(state, 0)  # seat 1 has no axe left: forced "no one"
    rows = _rows(state)
    # axes_12: the lead step only (it left the hand). axes_2: lead, brawl, reinforcements.
    assert rows[(0, "axes_12")]["playable"] == 1 and rows[(0, "axes_12")]["played"] == 1
    assert rows[(0, "axes_2")]["playable"] == 3 and rows[(0, "axes_2")]["played"] == 1
    # staves_5 was bid: not in hand at the brawl step, and back in hand (tie) but not an axe.
    assert rows[(0, "staves_5")]["playable"] == 1 and rows[(0, "staves_5")]["played"] == 0
    assert rows[(0, "blades_1")]["playable"] == 2 and rows[(0, "blades_1")]["played"] == 1
    # Seat 1's cards are counted at seat 1's own steps only.
    assert rows[(1, "staves_8")]["playable"] == 2 and rows[(1, "staves_8")]["played"] == 0
    assert rows[(1, "blades_4")]["playable"] == 1


def test_the_bid_cards_are_not_played() -> None:
    state = build(PLAIN_HANDS, ["bows_8"])
    _set_dealt(state)
    act(state, position(state, 0, "axes_12"))
    act(state, position(state, 1, "axes_6"))
    choose_many(state, ["staves_5", "bows_3"], ["blades_4"])
    rows = _rows(state)
    assert rows[(0, "staves_5")]["played"] == 0 and rows[(0, "bows_3")]["played"] == 0


def test_over_whole_games_a_card_is_played_no_more_often_than_it_is_playable() -> None:
    heuristic = parse_agent_spec("heuristic")
    for seed in range(30):
        state = play_game(GAME, DEFAULT, 2, seed, [heuristic, heuristic]).state
        assert isinstance(state, DivvyState)
        rows = _rows(state)
        assert all(row["played"] <= row["playable"] for row in rows.values())
        # Every lead and brawl step offers the whole hand: at least ten cards a round.
        assert sum(row["playable"] for row in rows.values()) >= 10 * state.turns()
