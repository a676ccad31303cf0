"""Icon Abilities (Explore, Recruit, Subjugate) and the card-effect primitives of cards.toml."""

from __future__ import annotations

from simcore.games.theseus.rules import (
    BOARD_POSITION,
    EXILE,
    HAND_AREA,
    HAND_POSITION,
    MAIN,
    PARTY_POSITION,
    REWARD_AREA,
    STEP_EXPLORE,
    STEP_PILLAGE,
    STEP_RECRUIT,
    STEP_SUBJUGATE,
)
from simcore.kit.zones import UNSEEN

from .helpers import (
    board,
    build,
    configured,
    end_turn,
    every_card_once,
    exile,
    exile_area,
    explore,
    hand,
    icon_of,
    legal_positions,
    party,
    pillage,
    recruit,
    reward,
    seen_by,
    subjugate,
    use,
)

RANK_ONE_BOARD = ["shepherd", "fisherman", "herald", "porter"]


def test_explore_takes_one_card_from_the_board_into_the_hand() -> None:
    state = build(board=RANK_ONE_BOARD, deck_tops={1: ["scout"]})
    use(state, "rogue")
    assert legal_positions(state, BOARD_POSITION) == [0, 1, 2, 3]  # any Board card
    explore(state, "herald")
    assert hand(state, 0) == ["herald"]
    assert "herald" not in board(state) and every_card_once(state)


def test_recruit_takes_one_card_from_the_hand_into_the_party() -> None:
    state = build(hands=[["scout", "shepherd"], []], board=RANK_ONE_BOARD)
    use(state, "mage")
    assert legal_positions(state, HAND_POSITION) == [0, 1]  # any Hand card
    recruit(state, "shepherd")
    assert party(state, 0) == ["knight", "mage", "rogue", "shepherd"] and hand(state, 0) == ["scout"]


def test_subjugate_takes_one_card_from_the_hand_face_up_into_the_reward() -> None:
    state = build(hands=[["scout", "shepherd"], []], board=RANK_ONE_BOARD)
    use(state, "knight")
    subjugate(state, "scout")
    assert reward(state, 0) == ["scout"] and hand(state, 0) == ["shepherd"]
    assert all(PARTY_POSITION.value(action) < len(state.party(0)) for action in state.legal_actions()
               if PARTY_POSITION.matches(action))
    assert seen_by(state, 1, 0, REWARD_AREA) == (state.config.names.index("scout"),)  # the Rewards are face up
    assert seen_by(state, 1, 0, HAND_AREA) == (UNSEEN,)  # the Hand is not: one card back


def test_a_multi_card_explore_takes_all_its_cards_before_the_hand_limit_applies() -> None:
    assert icon_of("navigator") == "explore"  # effect: explore 2
    state = build(parties=[["navigator"], []], hands=[["scout", "porter", "herald", "shepherd"], []],
                  board=["cartographer", "oracle", "thief", "bailiff"], rank=2)
    use(state, "navigator")
    for taken in ("cartographer", "oracle", "thief"):
        assert state.asked_kind() == STEP_EXPLORE
        explore(state, taken)
    assert len(hand(state, 0)) == 7  # three cards taken, the limit not yet applied
    assert state.asked_kind() == EXILE and exile_area(state) == HAND_AREA
    for name in ("scout", "porter", "herald"):
        exile(state, name)
    assert state.asked_kind() == MAIN and hand(state, 0) == ["shepherd", "cartographer", "oracle", "thief"]


def test_an_icon_ability_that_cannot_be_performed_is_skipped_and_the_effect_still_resolves() -> None:
    state = build(parties=[["porter"], []], deck_tops={1: ["scout"]}, board=RANK_ONE_BOARD)
    use(state, "porter")  # recruit with an empty Hand: nothing to recruit; then draw 1
    assert state.asked_kind() == MAIN and hand(state, 0) == ["scout"] and party(state, 0) == ["porter"]


def test_draw_takes_cards_face_down_from_the_top_of_the_current_rank_deck() -> None:
    state = build(parties=[["oracle"], []], deck_tops={2: ["thief", "bailiff", "sage"]},
                  board=["cartographer", "quartermaster", "oracle", "bailiff"], rank=2)
    use(state, "oracle")  # recruit (nothing in Hand), then draw 2
    assert hand(state, 0) == ["thief", "bailiff"]
    assert seen_by(state, 1, 0, HAND_AREA) == (UNSEEN, UNSEEN)  # face down: the others see two card backs


def test_extra_recruit_and_subjugate_effects_act_after_the_icon() -> None:
    assert icon_of("herald") == "subjugate"
    state = build(parties=[["herald"], []], hands=[["scout", "shepherd"], []],
                  board=[*RANK_ONE_BOARD[:2], "porter", "porter"], config=configured({"cards.herald.use": "recruit 1"}))
    use(state, "herald")
    assert state.asked_kind() == STEP_SUBJUGATE
    subjugate(state, "shepherd")
    assert state.asked_kind() == STEP_RECRUIT
    recruit(state, "scout")
    assert reward(state, 0) == ["shepherd"] and party(state, 0) == ["herald", "scout"]


def test_hex_makes_every_other_player_exile_a_card_from_the_hand_in_turn_order() -> None:
    assert icon_of("witch") == "subjugate"  # effect: hex 1
    state = build(n_players=4, parties=[["witch"], [], [], []],
                  hands=[["shepherd"], ["scout", "porter"], [], ["herald"]],
                  board=[*RANK_ONE_BOARD[:2], "torchbearer", "torchbearer"])
    use(state, "witch")
    subjugate(state, "shepherd")
    assert state.asked_kind() == EXILE and state.current_player == 1
    assert legal_positions(state, HAND_POSITION) == [0, 1]  # the victim chooses
    exile(state, "porter")
    assert state.asked_kind() == EXILE and state.current_player == 3  # seat 2 has no Hand to exile from
    exile(state, "herald")
    assert state.asked_kind() == MAIN and state.current_player == 0
    assert hand(state, 1) == ["scout"] and hand(state, 3) == []
    assert every_card_once(state)


def test_pillage_moves_a_card_from_another_players_reward_into_the_hand() -> None:
    assert icon_of("thief") == "explore"  # effect: pillage 1
    state = build(n_players=3, parties=[["thief"], [], []], rewards=[[], ["hero", "scout"], ["bailiff"]],
                  board=["cartographer", "oracle", "bailiff", "sage"], rank=2)
    use(state, "thief")
    explore(state, "cartographer")
    assert state.asked_kind() == STEP_PILLAGE
    assert len(state.legal_actions()) == 3  # every card of every other Reward, never the own
    pillage(state, 1, "hero")
    assert hand(state, 0) == ["cartographer", "hero"] and reward(state, 1) == ["scout"]
    assert state.asked_kind() == MAIN


def test_pillage_with_no_other_reward_to_take_from_is_skipped() -> None:
    state = build(parties=[["thief"], []], board=["cartographer", "oracle", "bailiff", "sage"], rank=2)
    use(state, "thief")
    explore(state, "oracle")
    assert state.asked_kind() == MAIN


def test_a_hand_limit_effect_raises_the_limit_until_the_end_of_the_turn() -> None:
    assert icon_of("quartermaster") == "recruit"  # effect: hand_limit 1, explore 1
    state = build(parties=[["quartermaster", "rogue"], []], hands=[["scout", "porter", "herald", "shepherd"], []],
                  board=["cartographer", "oracle", "bailiff", "sage"], rank=2)
    use(state, "quartermaster")
    recruit(state, "scout")
    explore(state, "oracle")
    use(state, "rogue")
    explore(state, "bailiff")
    assert state.asked_kind() == MAIN and len(hand(state, 0)) == 5  # within this turn's limit of 5
    end_turn(state)
    assert state.asked_kind() == EXILE and state.current_player == 0  # the limit lapses with the turn
    exile(state, "porter")
    assert state.current_player == 1 and len(hand(state, 0)) == 4


def test_a_designer_can_combine_primitives_in_the_data_file() -> None:
    config = configured({"cards.shepherd.use": "draw 1, explore 1, subjugate 1"})
    state = build(parties=[["shepherd"], []], deck_tops={1: ["scout"]}, board=[*RANK_ONE_BOARD[1:], "porter"],
                  config=config)
    use(state, "shepherd")  # subjugate (empty Hand: skipped), draw scout, explore, subjugate
    assert hand(state, 0) == ["scout"] and state.asked_kind() == STEP_EXPLORE
    explore(state, "herald")
    subjugate(state, "scout")
    assert reward(state, 0) == ["scout"] and hand(state, 0) == ["herald"]


def test_an_exile_demanded_by_an_effect_is_resolved_before_the_next_step() -> None:
    config = configured({"cards.witch.use": "hex 1, explore 1"})
    state = build(parties=[["witch"], []], hands=[["shepherd"], ["scout", "porter"]], board=RANK_ONE_BOARD,
                  config=config)
    use(state, "witch")  # subjugate, hex (seat 1 exiles), then explore
    subjugate(state, "shepherd")
    assert state.asked_kind() == EXILE and state.current_player == 1  # before the explore step
    exile(state, "porter")
    assert state.asked_kind() == STEP_EXPLORE and state.current_player == 0
    explore(state, "herald")
    assert hand(state, 1) == ["scout"] and hand(state, 0) == ["herald"] and state.asked_kind() == MAIN
