"""RULES.md stays true: its card table is cards.toml, and the tests it names exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from simcore.games.divvy import GAME
from simcore.games.divvy.rules import DATA_FILE

RULES_MD = Path(DATA_FILE).with_name("RULES.md").read_text(encoding="utf-8")


def test_the_card_table_matches_cards_toml() -> None:
    cards_section = RULES_MD.split("\n## Cards\n", 1)[1]
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in cards_section.splitlines()
        if line.startswith("| ") and not line.startswith("| card ")
    ]
    expected = [
        [name, card["suit"], str(card["value"]), card["icon"], str(card["d20"]), card["coin"], str(card["copies"])]
        for name, card in GAME.default_parameters()["cards"].items()
    ]
    assert rows == expected


def test_every_test_named_in_the_rule_table_exists() -> None:
    named = set(re.findall(r"`(test_\w+)\.py::(test_\w+)`", RULES_MD))
    assert len(named) > 50
    for module_name, function in sorted(named):
        module = importlib.import_module(f"{__package__}.{module_name}")
        assert callable(getattr(module, function, None)), f"{module_name}.py::{function} is named in RULES.md"


def test_every_rulebook_bullet_has_a_row_with_a_test() -> None:
    rows = re.findall(r"^\| ([SPNEW]\d+) \|.*\|(.*)\|$", RULES_MD, flags=re.MULTILINE)
    # Set Up 4, How to Play 12, Starting a New Round 4, Ending the Game 3, How to Win 2.
    expected = [f"S{i}" for i in range(1, 5)] + [f"P{i}" for i in range(1, 13)] + [f"N{i}" for i in range(1, 5)]
    expected += [f"E{i}" for i in range(1, 4)] + ["W1", "W2"]
    assert [bullet for bullet, _ in rows] == expected
    assert all("::test_" in tests for _, tests in rows)
