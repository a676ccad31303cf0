"""The kit version and the hand-written twin (``handwritten.py``) play the same games.

This is what makes ``bench/kit_overhead.py``'s comparison fair: the two do
the same work, so the difference in speed is the kit's cost.
"""

from __future__ import annotations

from simcore.agents.registry import parse_agent_spec
from simcore.play import play_game
from tests.example_game import GAME
from tests.example_game.handwritten import HANDWRITTEN_GAME
from tests.gamekit import card_rows, recorded_actions

from .helpers import DEFAULT


def test_the_kit_game_and_its_hand_written_twin_play_identical_games() -> None:
    for n_players in (2, 3, 4):
        for seed in range(40):
            assert recorded_actions(GAME, DEFAULT, n_players, seed) == \
                recorded_actions(HANDWRITTEN_GAME, DEFAULT, n_players, seed)
            kit = play_game(GAME, DEFAULT, n_players, seed, [parse_agent_spec("random")] * n_players)
            twin = play_game(HANDWRITTEN_GAME, DEFAULT, n_players, seed, [parse_agent_spec("random")] * n_players)
            assert (kit.decisions, kit.legal_actions) == (twin.decisions, twin.legal_actions)
            for state, other in ((kit.state, twin.state),):
                assert (state.scores(), state.winners(), state.end_reason(), state.turns(), state.game_columns()) \
                    == (other.scores(), other.winners(), other.end_reason(), other.turns(), other.game_columns())
                assert card_rows(state, len(GAME.info.card_counters)) == card_rows(other, len(GAME.info.card_counters))
