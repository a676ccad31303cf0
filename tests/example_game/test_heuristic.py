"""The heuristic does what agents.py documents, and beats random play."""

from __future__ import annotations

from simcore.rng import Generator
from tests.example_game import GAME
from tests.example_game.rules import BLOCK, PASS, PICK, PLANT
from tests.gamekit import share_won

from .helpers import DEFAULT, build, position


def _choice(state: object) -> int:
    legal = state.legal_actions()  # type: ignore[attr-defined]
    return GAME.heuristic_agent(state.current_player, Generator(1)).choose(state, legal)  # type: ignore[attr-defined,arg-type]


def test_it_plants_the_card_that_completes_a_set_over_a_higher_card() -> None:
    state = build([["plum_1", "apple_3"], ["pear_1"]], orchards=[["apple_1", "pear_1"], []])
    assert _choice(state) == PLANT.encode(position(state, 0, "plum_1"))  # 2 + 2*3 against 6


def test_it_picks_a_market_card_only_when_it_beats_every_plant() -> None:
    low = build([["apple_1"], ["pear_1"]], market=["plum_5"])
    assert _choice(low) == PICK.encode(0)  # 5 against 2
    high = build([["apple_3"], ["pear_1"]], market=["plum_5"])
    assert _choice(high) == PLANT.encode(0)  # 6 against 5


def test_it_blocks_a_card_worth_two_or_more_with_its_cheapest_match_and_lets_a_one_through() -> None:
    state = build([["apple_5"], ["apple_3", "apple_1"]])
    state.apply(PLANT.encode(0))
    assert _choice(state) == BLOCK.encode(position(state, 1, "apple_1"))
    cheap = build([["apple_1"], ["apple_1"]])
    cheap.apply(PLANT.encode(0))
    assert _choice(cheap) == PASS.encode()


def test_it_beats_random_play_with_two_three_and_four_players() -> None:
    for n_players in (2, 3, 4):
        assert share_won(GAME, DEFAULT, n_players, range(120)) > 1.5 / n_players
