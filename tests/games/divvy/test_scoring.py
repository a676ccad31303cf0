"""How to Win: coins (copper 1, silver 2, gold 3), the richest player wins, equal coins draw."""

from __future__ import annotations

from simcore.games.divvy import GAME
from simcore.games.divvy.rules import END_ROUNDS, TREASURE_ROW, WON_TREASURE, DivvyState

from .helpers import DEFAULT, RULEBOOK_COINS, build, choose_many, choose_one, coin, configured, named


def test_coins_are_worth_copper_one_silver_two_gold_three() -> None:
    parameters = GAME.default_parameters()
    assert parameters["rules"]["coin_values"] == RULEBOOK_COINS
    kinds = set()
    for name, card in parameters["cards"].items():
        assert DEFAULT.coins[DEFAULT.names.index(name)] == RULEBOOK_COINS[card["coin"]]
        kinds.add(card["coin"])
    assert kinds == set(RULEBOOK_COINS)  # the deck holds all three kinds


def _final_round(won: tuple[list[str], list[str]], row: list[str], tie: bool = False) -> DivvyState:
    """Play a fifth and last round won by seat 0 (12 against 6), or tied (6 against 6)."""
    hands = (
        ["axes_12", "axes_2", "blades_1", "bows_3", "staves_5"],
        ["axes_6", "blades_4", "bows_6", "staves_8", "staves_11"],
    )
    if tie:
        hands = (["axes_6", *hands[0][1:]], ["staves_6", *hands[1][1:]])
    state = build(hands, row, won=won, round_number=5)
    choose_one(state, hands[0][0], hands[1][0])
    choose_many(state, ["axes_2"], ["blades_4"])
    choose_one(state, "blades_1", "bows_6")
    choose_many(state, [], [])
    assert state.is_terminal() and state.end_reason() == END_ROUNDS
    for seat in (0, 1):
        assert state.scores()[seat] == sum(DEFAULT.coins[card] for card in state.seat_zone(seat, WON_TREASURE).cards)
    return state


def test_each_player_scores_the_coins_of_the_treasure_cards_they_won() -> None:
    state = _final_round((["axes_9"], ["axes_5", "bows_9"]), ["axes_1", "blades_10"])
    assert state.scores() == [coin("axes_9") + coin("axes_1") + coin("blades_10"), coin("axes_5") + coin("bows_9")]
    assert named(state.seat_zone(0, WON_TREASURE).cards) == ["axes_9", "axes_1", "blades_10"]


def test_the_player_with_the_most_treasure_wins() -> None:
    won = (["axes_9"], ["axes_1", "axes_3"])
    row = ["bows_9"]
    assert coin("axes_9") + coin("bows_9") < coin("axes_1") + coin("axes_3")  # seat 1 stays ahead
    state = _final_round(won, row)
    assert state.winners() == [1]
    assert state.returns() == [0.0, 1.0]
    assert state.ranks() == [2, 1]


def test_more_cards_do_not_beat_more_coins() -> None:
    won = (["axes_9", "axes_10", "axes_11"], ["axes_1", "axes_3"])  # three coppers against two golds
    state = _final_round(won, ["bows_12"])
    assert len(state.seat_zone(0, WON_TREASURE).cards) > len(state.seat_zone(1, WON_TREASURE).cards)
    assert state.scores()[0] < state.scores()[1] and state.winners() == [1]


def test_equal_coins_are_a_draw_with_half_a_win_each() -> None:
    won = (["axes_1"], ["axes_5", "axes_9"])  # gold against silver and copper
    assert coin("axes_1") == coin("axes_5") + coin("axes_9")
    state = _final_round(won, ["bows_8"], tie=True)
    assert state.scores()[0] == state.scores()[1]
    assert state.winners() == []
    assert state.returns() == [0.5, 0.5]
    assert state.ranks() == [1, 1]


def test_treasure_left_in_the_row_at_the_end_belongs_to_nobody() -> None:
    state = _final_round((["axes_9"], ["axes_10"]), ["axes_1", "bows_8"], tie=True)
    assert state.scores() == [coin("axes_9"), coin("axes_10")]
    assert named(state.zones[TREASURE_ROW].cards) == ["axes_1", "bows_8"]
    assert state.game_columns()["unclaimed_coins"] == coin("axes_1") + coin("bows_8")


def test_coin_values_can_be_changed_by_parameter() -> None:
    config = configured({"rules.coin_values.gold": 5})
    gold = [name for name, card in GAME.default_parameters()["cards"].items() if card["coin"] == "gold"]
    assert gold and all(config.coins[config.names.index(name)] == 5 for name in gold)
    assert config.coins[config.names.index("axes_9")] == DEFAULT.coins[DEFAULT.names.index("axes_9")]
