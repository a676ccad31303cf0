"""RULES.md stays true: its card table is cards.toml, and the tests it names exist."""

from __future__ import annotations

from pathlib import Path

from simcore.games.divvy import GAME
from simcore.games.divvy.rules import DATA_FILE
from tests.gamekit import missing_tests, named_tests, rule_rows, table_rows

RULES_MD = Path(DATA_FILE).with_name("RULES.md").read_text(encoding="utf-8")


def test_the_card_table_matches_cards_toml() -> None:
    rows = table_rows(RULES_MD, "Cards")
    expected = [
        [name, card["suit"], str(card["value"]), card["icon"], str(card["d20"]), card["coin"], str(card["copies"])]
        for name, card in GAME.default_parameters()["cards"].items()
    ]
    assert rows == expected


def test_every_test_named_in_the_rule_table_exists() -> None:
    assert len(named_tests(RULES_MD)) > 50
    assert missing_tests(RULES_MD, __package__ or "") == []


def test_every_rulebook_bullet_has_a_row_with_a_test() -> None:
    rows = rule_rows(RULES_MD, "SPNEW")
    # Set Up 4, How to Play 12, Starting a New Round 4, Ending the Game 3, How to Win 2.
    expected = [f"S{i}" for i in range(1, 5)] + [f"P{i}" for i in range(1, 13)] + [f"N{i}" for i in range(1, 5)]
    expected += [f"E{i}" for i in range(1, 4)] + ["W1", "W2"]
    assert [bullet for bullet, _ in rows] == expected
    assert all("::test_" in tests for _, tests in rows)


def test_every_reading_switch_has_its_default_and_measured_effect_in_the_readings_table() -> None:
    rows = table_rows(RULES_MD, "Readings", header_start="| switch ")
    rules = GAME.default_parameters()["rules"]
    readings = {"rules.bonus_card", "rules.reshuffle"}  # the rulebook sentences read two ways (assumptions 7, 14)
    assert {row[0].strip("`") for row in rows} == readings
    for row in rows:
        switch, default, measured = row[0].strip("`"), row[1], row[3:]
        assert default == f'`"{rules[switch.removeprefix("rules.")]}"`'
        assert all("±" in cell for cell in measured), row
