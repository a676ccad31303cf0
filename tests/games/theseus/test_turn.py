"""Taking a Turn and Using an Icon Ability Without a Card: one hand-made position per rule."""

from __future__ import annotations

from simcore.games.theseus.rules import (
    BOARD_POSITION,
    END_TURN,
    EXPLORE_ICON,
    MAIN,
    PARTY_POSITION,
    RECRUIT_ICON,
    STEP_EXPLORE,
    STEP_RECRUIT,
    SUBJUGATE_ICON,
    WITHOUT_A_CARD,
)

from .helpers import (
    act,
    build,
    end_turn,
    explore,
    hand,
    icon_of,
    legal_positions,
    party,
    party_position,
    recruit,
    subjugate,
    use,
    without_card,
)

RANK_ONE_BOARD = ["shepherd", "fisherman", "herald", "porter"]
WITHOUT_ANY_CARD = [WITHOUT_A_CARD.encode(icon) for icon in (EXPLORE_ICON, RECRUIT_ICON, SUBJUGATE_ICON)]


def test_a_player_may_use_up_to_two_party_cards_one_at_a_time() -> None:
    state = build(board=RANK_ONE_BOARD)
    use(state, "rogue")
    assert state.asked_kind() == STEP_EXPLORE and state.current_player == 0
    explore(state, "shepherd")
    assert state.asked_kind() == MAIN
    use(state, "mage")
    recruit(state, "shepherd")
    assert state.asked_kind() == MAIN
    assert list(state.legal_actions()) == [END_TURN]  # two cards used: only ending the turn is left
    assert party(state, 0) == ["knight", "mage", "rogue", "shepherd"]


def test_using_a_card_resolves_its_icon_ability_then_its_card_effect() -> None:
    assert icon_of("porter") == "recruit"  # effect: draw 1
    state = build(parties=[["porter"], []], hands=[["shepherd"], []], deck_tops={1: ["fisherman"]},
                  board=[*RANK_ONE_BOARD[1:], "scout"])
    use(state, "porter")
    assert state.asked_kind() == STEP_RECRUIT and hand(state, 0) == ["shepherd"]  # the icon first, nothing drawn yet
    recruit(state, "shepherd")
    assert hand(state, 0) == ["fisherman"]  # then the effect: draw the top Rank 1 card
    assert party(state, 0) == ["porter", "shepherd"]
    assert state.asked_kind() == MAIN


def test_a_card_effect_is_fully_resolved_before_the_next_card_is_used() -> None:
    assert icon_of("scout") == "explore"  # effect: explore 1
    state = build(parties=[["scout", "knight"], []], board=RANK_ONE_BOARD)
    use(state, "scout")
    explore(state, "shepherd")
    assert state.asked_kind() == STEP_EXPLORE  # the effect's explore comes before any other choice
    assert legal_positions(state, BOARD_POSITION) == [0, 1, 2, 3]  # Board positions, not Party cards
    explore(state, "herald")
    assert state.asked_kind() == MAIN and sorted(hand(state, 0)) == ["herald", "shepherd"]


def test_a_card_used_this_turn_cannot_be_used_again() -> None:
    state = build(board=RANK_ONE_BOARD)
    use(state, "rogue")
    explore(state, "shepherd")
    legal = state.legal_actions()
    assert PARTY_POSITION.encode(party_position(state, "rogue")) not in legal
    assert PARTY_POSITION.encode(party_position(state, "knight")) in legal
    assert PARTY_POSITION.encode(party_position(state, "mage")) in legal


def test_a_card_recruited_this_turn_can_be_used_the_same_turn() -> None:
    state = build(hands=[["scout"], []], board=RANK_ONE_BOARD)
    use(state, "mage")
    recruit(state, "scout")
    assert PARTY_POSITION.encode(party_position(state, "scout")) in state.legal_actions()
    use(state, "scout")
    explore(state, "shepherd")
    explore(state, "herald")
    assert list(state.legal_actions()) == [END_TURN]


def test_a_card_recruited_by_the_second_card_used_cannot_be_used_that_turn() -> None:
    state = build(hands=[["scout"], []], board=RANK_ONE_BOARD)
    use(state, "rogue")
    explore(state, "shepherd")
    use(state, "mage")
    recruit(state, "scout")
    assert list(state.legal_actions()) == [END_TURN]


def test_all_party_cards_are_available_again_at_the_players_next_turn() -> None:
    state = build(board=RANK_ONE_BOARD)
    use(state, "rogue")
    explore(state, "shepherd")
    use(state, "knight")
    subjugate(state, "shepherd")
    end_turn(state)
    assert state.current_player == 1
    end_turn(state)
    assert state.current_player == 0
    assert [party_position(state, name) for name in ("knight", "mage", "rogue")] == [
        PARTY_POSITION.value(action) for action in state.legal_actions() if PARTY_POSITION.matches(action)
    ]


def test_an_ability_without_a_card_is_offered_only_before_any_party_card_is_used() -> None:
    state = build(hands=[["scout"], []], board=RANK_ONE_BOARD)
    assert set(WITHOUT_ANY_CARD) <= set(state.legal_actions())
    use(state, "rogue")
    explore(state, "shepherd")
    assert not set(WITHOUT_ANY_CARD) & set(state.legal_actions())


def test_an_ability_without_a_card_ends_the_use_of_party_cards_for_the_turn() -> None:
    for ability in ("explore", "recruit", "subjugate"):
        state = build(hands=[["scout"], []], board=RANK_ONE_BOARD)
        without_card(state, ability)
        if ability == "explore":
            explore(state, "shepherd")
        elif ability == "recruit":
            recruit(state, "scout")
        else:
            subjugate(state, "scout")
        assert state.asked_kind() == MAIN
        assert list(state.legal_actions()) == [END_TURN]


def test_an_ability_without_a_card_that_could_do_nothing_is_not_offered() -> None:
    state = build(board=RANK_ONE_BOARD)  # empty Hand: nothing to recruit or subjugate
    legal = set(state.legal_actions())
    explore_only, recruit_only, subjugate_only = WITHOUT_ANY_CARD
    assert explore_only in legal and recruit_only not in legal and subjugate_only not in legal


def test_a_player_may_end_the_turn_without_using_any_card() -> None:
    state = build(board=RANK_ONE_BOARD)
    act(state, END_TURN)
    assert state.current_player == 1 and state.turns() == 1
    assert party(state, 0) == ["knight", "mage", "rogue"] and hand(state, 0) == []
