"""Party and Hand Limits: exile only after everything resolved; the Party at most four before each use and the end."""

from __future__ import annotations

from simcore.games.theseus.rules import (
    CARD_COUNTERS,
    END_TURN,
    EXILE,
    HAND_AREA,
    HAND_POSITION,
    MAIN,
    PARTY_AREA,
    PARTY_POSITION,
    STEP_EXPLORE,
)

from .helpers import (
    build,
    configured,
    end_turn,
    every_card_once,
    exile,
    exile_area,
    exiled,
    explore,
    hand,
    legal_positions,
    party,
    recruit,
    use,
    without_card,
)

FULL_HAND = ["scout", "porter", "herald", "shepherd"]
RANK_TWO_BOARD = ["cartographer", "oracle", "thief", "bailiff"]


def test_the_defaults_are_the_rulebooks_limits_of_four() -> None:
    state = build()
    assert (state.config.party_limit, state.config.hand_limit) == (4, 4)


def test_exile_waits_until_the_icon_ability_and_all_card_effects_have_resolved() -> None:
    state = build(parties=[["scout"], []], hands=[FULL_HAND, []], board=RANK_TWO_BOARD, rank=2)
    use(state, "scout")
    explore(state, "oracle")
    assert state.asked_kind() == STEP_EXPLORE and len(hand(state, 0)) == 5  # over the limit, yet no exile
    explore(state, "thief")
    assert state.asked_kind() == EXILE and len(hand(state, 0)) == 6


def test_the_player_chooses_which_cards_to_exile_down_to_four() -> None:
    state = build(hands=[FULL_HAND, []], board=RANK_TWO_BOARD, rank=2)
    use(state, "rogue")
    explore(state, "thief")
    assert state.asked_kind() == EXILE and state.current_player == 0
    assert legal_positions(state, HAND_POSITION) == [0, 1, 2, 3, 4]  # any Hand card, the new one included
    exile(state, "thief")
    assert state.asked_kind() == MAIN and hand(state, 0) == FULL_HAND


def test_over_the_party_limit_the_player_exiles_before_using_another_card() -> None:
    state = build(parties=[["knight", "mage", "rogue", "scout"], []], hands=[["porter"], []], board=RANK_TWO_BOARD,
                  rank=2)
    use(state, "mage")
    recruit(state, "porter")
    assert state.asked_kind() == EXILE and exile_area(state) == PARTY_AREA
    assert legal_positions(state, PARTY_POSITION) == [0, 1, 2, 3, 4]  # the card just recruited may go too
    exile(state, "knight")
    assert state.asked_kind() == MAIN and party(state, 0) == ["mage", "rogue", "scout", "porter"]


def test_the_party_is_at_most_four_before_the_turn_ends() -> None:
    state = build(parties=[["knight", "mage", "rogue", "scout"], []], hands=[["porter"], []], board=RANK_TWO_BOARD,
                  rank=2)
    without_card(state, "recruit")
    recruit(state, "porter")
    assert state.asked_kind() == EXILE and state.current_player == 0  # before the turn may end
    exile(state, "porter")
    assert list(state.legal_actions()) == [END_TURN] and len(party(state, 0)) == 4


def test_exiled_cards_are_removed_from_the_game() -> None:
    state = build(hands=[FULL_HAND, []], board=RANK_TWO_BOARD, rank=2)
    use(state, "rogue")
    explore(state, "thief")
    exile(state, "scout")
    assert "scout" in exiled(state)[-1:]
    assert "scout" not in hand(state, 0) and every_card_once(state)
    assert state.stats.get(0, CARD_COUNTERS.index("exiled"), state.config.names.index("scout")) == 1


def test_both_areas_over_their_limits_are_exiled_party_first() -> None:
    config = configured({"cards.porter.use": "explore 1"})
    state = build(parties=[["knight", "mage", "rogue", "scout"], []], hands=[["porter", *FULL_HAND[:3]], []],
                  board=RANK_TWO_BOARD, rank=2, config=config)
    use(state, "mage")
    recruit(state, "porter")
    assert state.asked_kind() == EXILE and exile_area(state) == PARTY_AREA
    exile(state, "knight")
    assert state.asked_kind() == MAIN  # Hand 3: within the limit
    use(state, "porter")  # recruit, then explore 1
    recruit(state, "scout")
    explore(state, "oracle")
    assert exile_area(state) == PARTY_AREA
    exile(state, "scout")
    assert state.asked_kind() == MAIN
    assert len(party(state, 0)) == 4 and len(hand(state, 0)) == 3


def test_the_limits_are_parameters() -> None:
    config = configured({"rules.hand_limit": 2, "rules.party_limit": 3})
    state = build(hands=[["scout", "porter"], []], board=RANK_TWO_BOARD, rank=2, config=config)
    use(state, "rogue")
    explore(state, "oracle")
    assert state.asked_kind() == EXILE and exile_area(state) == HAND_AREA and state.decisions.asked.b == 2
    exile(state, "oracle")
    use(state, "mage")
    recruit(state, "scout")
    assert state.asked_kind() == EXILE and exile_area(state) == PARTY_AREA and state.decisions.asked.b == 3


def test_a_hand_within_the_limit_at_the_end_of_the_turn_is_kept() -> None:
    state = build(hands=[FULL_HAND, []], board=RANK_TWO_BOARD, rank=2)
    end_turn(state)
    assert state.current_player == 1 and hand(state, 0) == FULL_HAND
