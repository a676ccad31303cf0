"""End of the Game: after the last Rank 6 card leaves the Board, at the end of that turn; and the turn cap."""

from __future__ import annotations

from simcore.agents import parse_agent_spec
from simcore.games.theseus import GAME
from simcore.games.theseus.rules import (
    END_CAP,
    END_FINAL,
    ENDING,
    LAST_RANK,
    MAIN,
    OVER,
)
from simcore.play import play_game

from .helpers import board, build, configured, end_turn, explore, hand, party, recruit, use


def test_the_game_ends_at_the_end_of_the_turn_in_which_the_last_rank_six_card_leaves_the_board() -> None:
    state = build(board=["minotaur", "hero"], bonus_on=["hero"], only_tops=[6], rank=LAST_RANK)
    use(state, "rogue")
    explore(state, "minotaur")
    assert state.numbers[ENDING] and not state.is_terminal()
    assert state.asked_kind() == MAIN and state.current_player == 0  # the turn goes on
    use(state, "mage")
    recruit(state, "minotaur")
    assert party(state, 0)[-1] == "minotaur"
    end_turn(state)
    assert state.is_terminal() and state.asked_kind() == OVER and state.current_player == -1
    assert state.end_reason() == END_FINAL and state.turns() == 1
    assert board(state) == ["hero"]  # lower-Rank cards may stay on the Board


def test_the_game_goes_on_while_a_rank_six_card_remains_on_the_board() -> None:
    state = build(board=["minotaur", "argonaut"], only_tops=[6], rank=LAST_RANK)
    use(state, "rogue")
    explore(state, "minotaur")
    assert not state.numbers[ENDING]
    end_turn(state)
    assert not state.is_terminal() and state.current_player == 1


def test_the_game_goes_on_while_the_rank_six_deck_still_holds_cards() -> None:
    state = build(board=["minotaur", "hero", "weaver", "seer"], deck_tops={6: ["pythia"]}, only_tops=[6],
                  rank=LAST_RANK)
    use(state, "rogue")
    explore(state, "minotaur")
    assert board(state) == ["hero", "weaver", "seer", "pythia"] and not state.numbers[ENDING]
    use(state, "mage")
    recruit(state, "minotaur")
    end_turn(state)
    assert not state.is_terminal()


def test_the_game_does_not_end_before_rank_six() -> None:
    state = build(board=["hero", "weaver", "seer", "corsair"], rank=5)
    use(state, "rogue")
    explore(state, "hero")
    end_turn(state)
    assert not state.numbers[ENDING] and not state.is_terminal()


def test_drawing_the_last_rank_six_card_with_none_on_the_board_ends_the_game_that_turn() -> None:
    state = build(parties=[["pythia"], []], board=["hero", "weaver", "seer", "corsair"], bonus_on=["hero"],
                  deck_tops={6: ["minotaur"]}, only_tops=[6], rank=LAST_RANK)
    use(state, "pythia")  # recruit (empty Hand), draw 1: the last Rank 6 card, then recruit it
    recruit(state, "minotaur")
    assert state.numbers[ENDING]
    end_turn(state)
    assert state.is_terminal() and state.end_reason() == END_FINAL
    assert hand(state, 0) == []


def test_the_turn_cap_ends_a_game_that_would_not_end_with_its_own_reason() -> None:
    state = build(config=configured({"rules.max_turns": 3}), board=["shepherd", "fisherman", "herald", "porter"])
    for _ in range(3):
        assert not state.is_terminal()
        end_turn(state)
    assert state.is_terminal() and state.end_reason() == END_CAP and state.turns() == 3


def test_whole_games_end_on_the_last_rank_six_card_with_every_player_count() -> None:
    random = parse_agent_spec("random")
    config = GAME.configure(GAME.default_parameters())
    for n_players in (2, 3, 4):
        for seed in range(10):
            state = play_game(GAME, config, n_players, seed, [random] * n_players).state
            assert state.end_reason() == END_FINAL
            assert state.game_columns()["rank_reached"] == LAST_RANK
