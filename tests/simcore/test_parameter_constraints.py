"""Declarative parameter constraints: min, max, choices, ``*`` paths, one-line errors."""

from __future__ import annotations

import pytest

from simcore.parameters import Constraint, ParameterError, check_constraints, require

TREE = {
    "rules": {"rounds": 5, "mode": "fast", "coins": {"copper": 1, "gold": 3}},
    "cards": {"a": {"copies": 2, "coin": "gold"}, "b": {"copies": -1, "coin": "tin"}},
}


def _error(constraints: list[Constraint]) -> str:
    with pytest.raises(ParameterError) as raised:
        check_constraints(TREE, constraints)
    return str(raised.value)


def test_values_inside_their_constraints_pass() -> None:
    check_constraints(TREE, [Constraint("rules.rounds", minimum=1, maximum=9),
                             Constraint("rules.mode", choices=("fast", "slow"))])


def test_minimum_maximum_and_choices_give_one_line_errors_naming_the_path() -> None:
    assert _error([Constraint("rules.rounds", minimum=6)]) == "rules.rounds: expected at least 6"
    assert _error([Constraint("rules.rounds", maximum=4)]) == "rules.rounds: expected at most 4"
    assert _error([Constraint("rules.rounds", minimum=1, maximum=4)]) == "rules.rounds: expected a number from 1 to 4"
    assert _error([Constraint("rules.mode", choices=("slow",))]) == "rules.mode: expected one of slow"
    assert _error([Constraint("rules.rounds", minimum=9, expected="expected a lot")]) == "rules.rounds: expected a lot"


def test_a_star_checks_every_entry_of_a_table_and_choices_can_come_from_another_parameter() -> None:
    assert _error([Constraint("cards.*.copies", minimum=0)]) == "cards.b.copies: expected at least 0"
    assert _error([Constraint("cards.*.coin", choices_at="rules.coins")]) == \
        "cards.b.coin: expected one of copper, gold"


def test_a_number_constraint_refuses_a_boolean_or_text_and_a_missing_path_is_named() -> None:
    tree = {"rules": {"rounds": True}}
    with pytest.raises(ParameterError, match=r"^rules.rounds: expected at least 1$"):
        check_constraints(tree, [Constraint("rules.rounds", minimum=1)])
    with pytest.raises(ParameterError, match=r"^rules.turns: missing parameter$"):
        check_constraints(tree, [Constraint("rules.turns", minimum=1)])


def test_each_item_checks_every_item_of_a_list_and_names_the_list() -> None:
    tree = {"rules": {"ranks": [1, 7], "areas": ["hand", "deck"]}}
    with pytest.raises(ParameterError, match=r"^rules.ranks: expected ranks from 1 to 6$"):
        check_constraints(tree, [Constraint("rules.ranks", minimum=1, maximum=6, each_item=True,
                                            expected="expected ranks from 1 to 6")])
    with pytest.raises(ParameterError, match=r"^rules.areas: expected one of hand, reward$"):
        check_constraints(tree, [Constraint("rules.areas", choices=("hand", "reward"), each_item=True)])
    check_constraints(tree, [Constraint("rules.ranks", minimum=1, maximum=7, each_item=True)])


def test_an_expected_text_may_name_the_choices_in_its_own_words() -> None:
    assert _error([Constraint("cards.*.coin", choices_at="rules.coins", expected="expected one of: {choices}")]) == \
        "cards.b.coin: expected one of: copper, gold"


def test_require_raises_the_one_line_error_only_when_the_condition_fails() -> None:
    require(True, "rules.rounds", "expected a lot")
    with pytest.raises(ParameterError, match=r"^rules.rounds: expected a lot$"):
        require(False, "rules.rounds", "expected a lot")
