"""Scoring: printed VP + card effects + Bonuses; the effect areas and the Rank 3 / Rank 6 exception; tiebreakers."""

from __future__ import annotations

import pytest

from simcore.games.theseus import GAME
from simcore.games.theseus.rules import TIEBREAK_HAND, TIEBREAK_NONE, TIEBREAK_PARTY, TIEBREAK_SHARED

from .helpers import build, configured, finish, rank_of, vp_of


def test_printed_vp_is_one_for_ranks_one_to_four_and_two_for_ranks_five_and_six() -> None:
    for name, card in GAME.default_parameters()["cards"].items():
        if card["rank"] >= 1:
            assert card["vp"] == (1 if card["rank"] <= 4 else 2), name


def test_the_final_score_is_printed_vp_plus_card_effects_plus_bonuses() -> None:
    # hero: 2 VP; shepherd: 1 VP + "vp 1"; fisherman: 1 VP + 1 per Bonus (two Bonuses).
    config = configured({"cards.fisherman.end": ["vp_per_bonus 1"], "cards.fisherman.end_area": "reward",
                         "cards.shepherd.end": ["vp 1"], "cards.shepherd.end_area": "reward"})
    state = build(rewards=[["hero", "shepherd", "fisherman"], ["scout"]], bonuses=[2, 0], ending=True,
                  config=config)
    finish(state)
    printed = vp_of("hero") + vp_of("shepherd") + vp_of("fisherman")
    assert state.score_parts(0) == (printed, 1 + 2, 2 * state.config.bonus_vp)
    assert state.scores() == [printed + 3 + 2, vp_of("scout")]


@pytest.mark.parametrize(
    ("end", "expected"),
    [
        (["vp 2"], 2),
        (["vp_per_bonus 2"], 2 * 3),  # three Bonuses
        (["vp_per_bonuses 2 1"], 1),  # one full pair of the three Bonuses
        (["vp_per_bonuses 3 2"], 2),
        (["vp_per_bonuses 4 1"], 0),
        (["vp_per_icon explore 1"], 2),  # rogue and scout in the Party
        (["vp_per_rank 1 1"], 2),  # porter and herald (Rank 1) in the Reward; hero is Rank 5
        (["vp_if_all_icons 3"], 3),  # knight (subjugate), mage (recruit), rogue (explore)
        (["vp 1", "vp_per_rank 5 2"], 1 + 2),
    ],
)
def test_each_end_of_game_primitive_scores_as_written(end: list[str], expected: int) -> None:
    config = configured({"cards.collector.end": end, "cards.collector.end_area": "reward"})
    state = build(parties=[["knight", "mage", "rogue", "scout"], []],
                  rewards=[["collector", "porter", "herald", "hero"], []], bonuses=[3, 0], config=config,
                  ending=True)
    finish(state)
    assert state.score_parts(0)[1] == expected


def test_vp_if_all_icons_needs_every_icon_in_the_party() -> None:
    config = configured({"cards.collector.end": ["vp_if_all_icons 3"], "cards.collector.end_area": "reward"})
    state = build(parties=[["knight", "rogue"], []], rewards=[["collector"], []], config=config, ending=True)
    finish(state)
    assert state.score_parts(0)[1] == 0


@pytest.mark.parametrize(("area", "scores"), [("party", True), ("hand", False), ("reward", False)])
def test_an_end_effect_counts_only_from_the_area_written_on_the_card(area: str, scores: bool) -> None:
    assert rank_of("weaver") == 5
    config = configured({"cards.weaver.end": ["vp 4"], "cards.weaver.end_area": "party"})
    placed = {"party": [["knight", "weaver"], []], "hand": [["weaver"], []], "reward": [["weaver"], []]}
    empty: list[list[str]] = [[], []]
    state = build(parties=placed["party"] if area == "party" else None,
                  hands=placed["hand"] if area == "hand" else empty,
                  rewards=placed["reward"] if area == "reward" else empty, config=config, ending=True)
    finish(state)
    assert state.score_parts(0)[1] == (4 if scores else 0)


@pytest.mark.parametrize("name", ["sentinel", "minotaur", "collector", "weaver"])
@pytest.mark.parametrize("area", ["party", "hand", "reward"])
def test_rank_three_and_rank_six_effects_in_the_hand_or_reward_do_not_act_at_the_end(name: str, area: str) -> None:
    config = configured({f"cards.{name}.end": ["vp 5"], f"cards.{name}.end_area": "any"})
    empty: list[list[str]] = [[], []]
    state = build(parties=[["knight", name], []] if area == "party" else None,
                  hands=[[name], []] if area == "hand" else empty,
                  rewards=[[name], []] if area == "reward" else empty, config=config, ending=True)
    finish(state)
    silenced = rank_of(name) in (3, 6) and area in ("hand", "reward")
    assert state.score_parts(0)[1] == (0 if silenced else 5)


def test_the_default_rank_three_and_six_cards_score_their_effects_from_the_party() -> None:
    state = build(parties=[["knight", "minotaur", "sentinel"], []], rewards=[["minotaur"], []], ending=True)
    finish(state)
    # Party: minotaur "vp 3", sentinel 1 per subjugate icon (knight, minotaur, sentinel); Reward: 2 printed only.
    assert state.score_parts(0) == (vp_of("minotaur"), 3 + 3, 0)


def test_the_player_with_the_most_vp_wins() -> None:
    state = build(n_players=3, rewards=[["hero"], ["hero", "scout"], ["shepherd"]], ending=True)
    finish(state)
    assert state.scores() == [2, 3, 2]
    assert state.winners() == [1] and state.returns() == [0.0, 1.0, 0.0]
    assert state.ranks() == [2, 1, 2]
    assert state.game_columns()["tiebreak_used"] == TIEBREAK_NONE


def test_a_vp_tie_is_won_by_the_higher_total_rank_in_the_party() -> None:
    state = build(parties=[["knight", "bailiff"], ["knight", "scout"]], hands=[[], ["hero"]],
                  rewards=[["scout"], ["porter"]], ending=True)
    finish(state)
    assert state.scores() == [1, 1]
    assert state.winners() == [0] and state.ranks() == [1, 2]  # Party Rank 2 beats 1 (the Hand is not reached)
    assert state.game_columns()["tiebreak_used"] == TIEBREAK_PARTY


def test_a_remaining_tie_is_won_by_the_higher_total_rank_in_the_hand() -> None:
    state = build(parties=[["knight", "scout"], ["mage", "herald"]], hands=[["porter", "torchbearer"], ["shepherd"]],
                  rewards=[["scout"], ["porter"]], ending=True)
    finish(state)
    assert state.scores() == [1, 1]  # equal VP, equal Party Ranks (1 and 1), Hand Ranks 2 against 1
    assert state.winners() == [0] and state.ranks() == [1, 2]
    assert state.game_columns()["tiebreak_used"] == TIEBREAK_HAND


def test_a_complete_tie_is_shared() -> None:
    state = build(parties=[["knight", "scout"], ["mage", "herald"]], hands=[["porter"], ["shepherd"]],
                  rewards=[["scout"], ["porter"]], ending=True)
    finish(state)
    assert state.winners() == [0, 1] and state.returns() == [0.5, 0.5] and state.ranks() == [1, 1]
    assert state.game_columns()["tiebreak_used"] == TIEBREAK_SHARED


def test_the_players_table_splits_each_final_score_into_printed_effect_and_bonus_vp() -> None:
    from simcore.agents.registry import parse_agent_spec
    from simcore.play import play_game
    from simcore.registry import get_game

    game = get_game("theseus")
    config = game.configure(game.default_parameters())
    for seed in range(30):
        state = play_game(game, config, 3, seed, [parse_agent_spec("heuristic")] * 3).state
        for seat in range(3):
            parts = state.player_columns(seat)
            assert parts["vp_printed"] + parts["vp_effects"] + parts["vp_bonuses"] == state.scores()[seat]
            assert parts["vp_printed"] >= 0 and parts["vp_bonuses"] >= 0
