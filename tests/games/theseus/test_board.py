"""Refilling the Board, Advancing to the Next Rank, and Bonuses."""

from __future__ import annotations

from simcore.games.theseus import GAME
from simcore.games.theseus.rules import (
    BOARD_EXILES,
    LAST_RANK,
    RANK,
)

from .helpers import (
    board,
    bonus_cards,
    bonuses,
    build,
    configured,
    end_turn,
    every_card_once,
    exiled,
    explore,
    hand,
    names,
    rank_of,
    recruit,
    subjugate,
    use,
)


def test_the_board_is_refilled_from_the_current_rank_deck_as_soon_as_three_cards_remain() -> None:
    state = build(board=["shepherd", "fisherman", "herald", "porter"], deck_tops={1: ["scout", "torchbearer"]})
    use(state, "rogue")
    explore(state, "herald")
    assert board(state) == ["shepherd", "fisherman", "porter", "scout"]  # the top card revealed at once
    assert names(state, state.zones[1].cards[-1:]) == ["torchbearer"]


def test_a_single_card_explore_is_refilled_at_once_so_the_cards_next_explore_can_take_the_revealed_card() -> None:
    # A Scout: its icon explores one card, then its effect ("explore 1") one more. Each is a single-card
    # explore, so the Board is refilled in between. (The cards of one multi-card explore, "explore 2",
    # all come from the Board as it stood by default: test_multi_explore.py.)
    state = build(parties=[["scout"], []], board=["shepherd", "fisherman", "herald", "porter"],
                  deck_tops={1: ["torchbearer", "scout"]})
    use(state, "scout")
    explore(state, "herald")
    assert board(state) == ["shepherd", "fisherman", "porter", "torchbearer"]
    explore(state, "torchbearer")  # the card revealed by the refill can be taken
    assert hand(state, 0) == ["herald", "torchbearer"] and len(state.board()) == 4


def test_a_board_left_with_two_cards_is_refilled_from_the_top_of_the_current_rank_deck_until_it_holds_four() -> None:
    # Rank 2. A Navigator explores one card (its icon), then two at once ("explore 2"); the Board is
    # refilled after the last of those two (rules.multi_explore "per_effect"), from two cards to four.
    state = build(parties=[["navigator"], []], board=["cartographer", "oracle", "bailiff", "quartermaster"],
                  deck_tops={2: ["thief", "cartographer", "oracle", "bailiff"]}, rank=2)
    use(state, "navigator")
    explore(state, "cartographer")
    assert board(state) == ["oracle", "bailiff", "quartermaster", "thief"]
    explore(state, "oracle")
    explore(state, "bailiff")
    assert board(state) == ["quartermaster", "thief", "cartographer", "oracle"]  # two revealed, top first
    assert names(state, state.zones[2].cards[-1:]) == ["bailiff"] and state.numbers[RANK] == 2
    assert every_card_once(state)


def test_when_the_current_rank_deck_empties_the_next_rank_deck_becomes_active() -> None:
    state = build(board=["shepherd", "fisherman", "herald", "porter"], deck_tops={1: ["scout"], 2: ["oracle"]},
                  only_tops=[1])
    use(state, "rogue")
    explore(state, "herald")  # the refill takes the last Rank 1 card
    assert state.numbers[RANK] == 2 and state.zones[1].cards == []
    assert board(state) == ["shepherd", "fisherman", "porter", "scout"]
    use(state, "knight")
    subjugate(state, "herald")
    end_turn(state)
    use(state, "rogue")  # seat 1: the next refill comes from the Rank 2 deck
    explore(state, "shepherd")
    assert board(state) == ["fisherman", "porter", "scout", "oracle"]


def test_a_new_rank_places_a_bonus_on_every_lower_rank_card_on_the_board() -> None:
    state = build(board=["shepherd", "fisherman", "herald", "porter"], deck_tops={1: ["scout"], 2: ["oracle"]},
                  only_tops=[1])
    use(state, "rogue")
    explore(state, "herald")
    assert state.numbers[RANK] == 2
    assert bonus_cards(state) == ["shepherd", "fisherman", "porter", "scout"]  # all Rank 1 < 2


def test_a_refill_that_empties_the_deck_continues_from_the_next_rank_deck() -> None:
    # Rank 2: one card left in its deck; a Rank 1 card with a Bonus is still on the Board.
    state = build(board=["shepherd", "cartographer", "oracle", "bailiff"], bonus_on=["shepherd"],
                  deck_tops={2: ["thief"], 3: ["sentinel", "sage"]}, only_tops=[2], rank=2)
    use(state, "rogue")
    explore(state, "cartographer")
    # thief empties Rank 2; Rank 3 begins: shepherd is exiled with its Bonus, the Rank 2 cards get one,
    # and the refill goes on from the Rank 3 deck.
    assert state.numbers[RANK] == 3
    assert board(state) == ["oracle", "bailiff", "thief", "sentinel"]
    assert bonus_cards(state) == ["oracle", "bailiff", "thief"]
    assert exiled(state)[-1:] == ["shepherd"] and state.numbers[BOARD_EXILES] == 1
    assert every_card_once(state)


def test_a_short_rank_one_deck_at_set_up_advances_in_the_middle_of_the_first_refill() -> None:
    overrides = {f"cards.{name}.copies": 0 for name in ("scout", "porter", "herald", "torchbearer", "fisherman")}
    config = configured(overrides)  # Rank 1: the two shepherds only
    state = GAME.new_state(config, 2, 3)
    assert state.numbers[RANK] == 2
    assert sorted(board(state)[:2]) == ["shepherd", "shepherd"]
    assert [rank_of(name) for name in board(state)] == [1, 1, 2, 2]
    assert bonus_cards(state) == ["shepherd", "shepherd"]


def test_drawing_the_last_card_of_the_current_deck_advances_the_rank() -> None:
    state = build(parties=[["oracle"], []], board=["cartographer", "oracle", "bailiff", "sage"],
                  deck_tops={2: ["thief"], 3: ["sentinel"]}, only_tops=[2], rank=2)
    use(state, "oracle")  # draw 2: thief, then (Rank 3 has begun) sentinel
    assert state.numbers[RANK] == 3
    assert hand(state, 0) == ["thief", "sentinel"]
    assert bonus_cards(state) == ["cartographer", "oracle", "bailiff"]


def test_a_card_taken_with_its_bonus_adds_the_bonus_to_the_players_reward() -> None:
    state = build(board=["shepherd", "cartographer", "oracle", "bailiff"], bonus_on=["shepherd"], rank=2)
    use(state, "rogue")
    explore(state, "shepherd")
    assert bonuses(state) == [1, 0]
    assert hand(state, 0) == ["shepherd"] and bonus_cards(state) == []  # the Bonus left the Board with it
    use(state, "mage")
    recruit(state, "shepherd")  # the Bonus stays in the Reward: never in a Hand or Party
    assert bonuses(state) == [1, 0] and state.score_parts(0) == (0, 0, state.config.bonus_vp)


def test_the_player_who_takes_a_card_with_a_bonus_adds_that_bonus_to_their_own_reward() -> None:
    # Seat 1's turn at Rank 2; shepherd and fisherman carry a Bonus. A Scout explores twice (icon, effect).
    state = build(parties=[["knight", "mage", "rogue"], ["scout"]], active=1, rank=2,
                  board=["cartographer", "shepherd", "oracle", "fisherman"], bonus_on=["shepherd", "fisherman"],
                  deck_tops={2: ["thief"]})
    use(state, "scout")
    explore(state, "cartographer")  # no Bonus on it: nobody gets one
    assert bonuses(state) == [0, 0]
    assert board(state) == ["shepherd", "oracle", "fisherman", "thief"]
    assert bonus_cards(state) == ["shepherd", "fisherman"]  # the Bonuses stay on their cards
    explore(state, "fisherman")
    assert bonuses(state) == [0, 1]  # the player who took it, not seat 0
    assert hand(state, 1) == ["cartographer", "fisherman"] and bonus_cards(state) == ["shepherd"]
    assert state.score_parts(1) == (0, 0, state.config.bonus_vp) and state.score_parts(0) == (0, 0, 0)


def test_a_card_still_carrying_a_bonus_when_the_next_rank_begins_is_exiled_with_it() -> None:
    state = build(board=["shepherd", "cartographer", "oracle", "bailiff"], bonus_on=["shepherd"],
                  deck_tops={2: ["thief"], 3: ["sentinel", "sage"]}, only_tops=[2], rank=2)
    use(state, "rogue")
    explore(state, "oracle")
    assert "shepherd" not in board(state) and "shepherd" in exiled(state)
    assert bonuses(state) == [0, 0]  # nobody gets the exiled Bonus


def test_there_is_no_rank_after_six_and_rank_six_cards_never_receive_a_bonus() -> None:
    state = build(board=["hero", "minotaur", "argonaut", "pythia"], bonus_on=["hero"],
                  deck_tops={6: ["minotaur"]}, only_tops=[6], rank=LAST_RANK)
    use(state, "rogue")
    explore(state, "argonaut")  # the refill empties the Rank 6 deck: no next Rank
    assert state.numbers[RANK] == LAST_RANK and state.zones[LAST_RANK].cards == []
    assert board(state) == ["hero", "minotaur", "pythia", "minotaur"]
    assert bonus_cards(state) == ["hero"]  # the old Bonus stays, none is added, nothing is exiled
    assert state.numbers[BOARD_EXILES] == 0


def test_at_rank_six_the_board_is_not_refilled_once_the_last_deck_is_empty() -> None:
    state = build(board=["hero", "minotaur", "argonaut", "pythia"], rank=LAST_RANK, only_tops=[6])
    use(state, "rogue")
    explore(state, "hero")
    assert board(state) == ["minotaur", "argonaut", "pythia"]
