"""RULES.md stays true: its card table is cards.toml, and the tests it names exist."""

from __future__ import annotations

from pathlib import Path

from simcore.games.theseus import GAME
from simcore.games.theseus.agents import engine_worths
from simcore.games.theseus.rules import DATA_FILE
from tests.gamekit import missing_tests, named_tests, rule_rows, table_rows

RULES_MD = Path(DATA_FILE).with_name("RULES.md").read_text(encoding="utf-8")


def test_the_card_table_matches_cards_toml() -> None:
    rows = table_rows(RULES_MD, "Cards")
    expected = [
        [name, str(card["rank"]), card["icon"], str(card["vp"]), str(card["copies"]), ", ".join(card["use"]),
         ", ".join(card["end"]), card["end_area"]]
        for name, card in GAME.default_parameters()["cards"].items()
    ]
    assert rows == expected


def test_every_test_named_in_the_rule_table_exists() -> None:
    assert len(named_tests(RULES_MD)) > 60
    assert missing_tests(RULES_MD, __package__ or "") == []


def test_every_rule_has_a_row_with_a_test() -> None:
    rows = rule_rows(RULES_MD, "STIACLBRNEW")
    # Setup 5, Taking a Turn 6, Icon Abilities 8, Without a Card 2, Card Information 5, Limits 5,
    # Refilling 3, Advancing 3, Bonuses 6, End 4, Tiebreakers 4.
    sections = [("S", 5), ("T", 6), ("I", 8), ("A", 2), ("C", 5), ("L", 5), ("B", 3), ("R", 3), ("N", 6), ("E", 4),
                ("W", 4)]
    expected = [f"{letter}{number}" for letter, count in sections for number in range(1, count + 1)]
    assert [rule for rule, _ in rows] == expected
    assert all("::test_" in tests for _, tests in rows)


def test_the_heuristic_table_has_every_card_with_its_engine_worth() -> None:
    rows = table_rows(RULES_MD, "Heuristic (`agents.py`)")
    config = GAME.configure(GAME.default_parameters())
    worths = engine_worths(config)
    assert [row[0] for row in rows] == list(config.names)
    assert [float(row[2]) for row in rows] == [round(worth, 1) for worth in worths]
