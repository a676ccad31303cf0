"""The ``cards`` table counters that compare offered with taken, and effect VP.

``playable``: the steps at which one of the player's legal actions would use
the card from the Party (each card type counted once per step, forced steps
included); ``played``: the times the seat used it. ``effect_copies`` and
``effect_vp``: the seat's copies whose end effect counts where they lie at the
end, and the VP those effects scored.
"""

from __future__ import annotations

from typing import Any

from simcore.agents import parse_agent_spec
from simcore.api import CardColumns
from simcore.games.theseus import GAME
from simcore.games.theseus.rules import TheseusState
from simcore.play import play_game

from .helpers import DEFAULT, build, configured, end_turn, explore, finish, recruit, subjugate, use, without_card


def _rows(state: TheseusState) -> dict[tuple[int, str], dict[str, Any]]:
    columns = CardColumns(len(GAME.info.card_counters))
    state.add_card_rows(columns)
    return {
        (columns.seat[row], columns.names[columns.card[row]]): dict(
            zip(GAME.info.card_counters, (counter[row] for counter in columns.counters), strict=True))
        for row in range(len(columns))
    }


def _offer(state: TheseusState) -> None:
    """What ``play_game`` does before every choice."""
    state.note_offered(state.legal_actions())


def test_a_party_card_is_playable_once_per_step_at_which_it_could_be_used() -> None:
    state = build(parties=[["knight", "mage", "rogue", "scout"], []], hands=[["herald"], []],
                  board=["shepherd", "fisherman", "herald", "porter"])
    _offer(state)  # all four usable
    use(state, "rogue")
    _offer(state)  # EXPLORE: a Board choice uses no Party card
    explore(state, "shepherd")
    _offer(state)  # knight, mage and scout usable; rogue used this turn
    use(state, "knight")
    _offer(state)  # SUBJUGATE
    subjugate(state, "herald")
    _offer(state)  # two uses done: only END_TURN is left, nothing is playable
    end_turn(state)
    rows = _rows(state)
    assert rows[(0, "rogue")]["playable"] == 1 and rows[(0, "rogue")]["played"] == 1
    assert rows[(0, "knight")]["playable"] == 2 and rows[(0, "knight")]["played"] == 1
    assert rows[(0, "mage")]["playable"] == 2 and rows[(0, "mage")]["played"] == 0
    assert rows[(0, "scout")]["playable"] == 2 and rows[(0, "scout")]["played"] == 0


def test_two_copies_in_the_party_count_once_per_step() -> None:
    state = build(parties=[["scout", "scout", "mage"], []], board=["shepherd", "fisherman", "herald", "porter"])
    _offer(state)
    assert _rows(state)[(0, "scout")]["playable"] == 1


def test_no_party_card_is_playable_after_an_ability_without_a_card() -> None:
    state = build(hands=[["herald"], []], board=["shepherd", "fisherman", "herald", "porter"])
    without_card(state, "recruit")
    recruit(state, "herald")
    _offer(state)
    assert all(row["playable"] == 0 for row in _rows(state).values())


def test_the_other_seats_cards_are_not_playable_during_my_turn() -> None:
    state = build(board=["shepherd", "fisherman", "herald", "porter"])
    _offer(state)
    rows = _rows(state)
    assert rows[(0, "knight")]["playable"] == 1 and (1, "knight") not in rows


def test_effect_counters_hold_the_copies_that_score_their_end_effect_and_their_vp() -> None:
    config = configured({"cards.fisherman.end": "vp_per_bonus 1", "cards.fisherman.end_area": "reward",
                         "cards.minotaur.end": "vp 3", "cards.minotaur.end_area": "party"})
    state = build(parties=[["knight", "minotaur"], []], hands=[["minotaur"], []],
                  rewards=[["fisherman", "fisherman"], []], bonuses=[3, 0], rank=6, only_tops=[6],
                  ending=True, config=config)
    finish(state)
    rows = _rows(state)
    assert rows[(0, "fisherman")]["effect_copies"] == 2 and rows[(0, "fisherman")]["effect_vp"] == 6
    # The Minotaur scores from the Party only: the copy in the Hand does not count.
    assert rows[(0, "minotaur")]["effect_copies"] == 1 and rows[(0, "minotaur")]["effect_vp"] == 3
    assert state.score_parts(0)[1] == 9


def test_over_whole_games_a_card_is_played_only_at_steps_where_it_is_playable() -> None:
    heuristic = parse_agent_spec("heuristic")
    for seed in range(20):
        state = play_game(GAME, DEFAULT, 3, seed, [heuristic] * 3).state
        assert isinstance(state, TheseusState)
        rows = _rows(state)
        assert all(row["played"] <= row["playable"] for row in rows.values())
        assert sum(row["playable"] for row in rows.values()) > sum(row["played"] for row in rows.values())
        effect_vp = [sum(row["effect_vp"] for (seat, _), row in rows.items() if seat == s) for s in range(3)]
        assert effect_vp == [state.score_parts(seat)[1] for seat in range(3)]
