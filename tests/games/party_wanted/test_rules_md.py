"""RULES.md stays true: its card table is cards.toml, and the tests it names exist."""

from __future__ import annotations

from pathlib import Path

from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.rules import DATA_FILE
from tests.gamekit import missing_tests, named_tests, rule_rows, table_rows

RULES_MD = Path(DATA_FILE).with_name("RULES.md").read_text(encoding="utf-8")


def _expected_row(name: str, card: dict[str, object]) -> list[str]:
    stats = card.get("stats") or (f"{card['stats_12']} / {card['stats_34']}" if "stats_12" in card else "")
    effects = card["effects"]
    sacrifice = card.get("sacrifice", [])
    social = card.get("social", [])
    assert isinstance(effects, list) and isinstance(sacrifice, list) and isinstance(social, list)
    return [name, str(card["kind"]), str(card["set"]), str(card.get("owner", "")), str(card.get("mark", "")),
            str(card.get("use", "")), str(card.get("level", "")), str(card.get("enemy_type", "")), str(stats),
            ", ".join(effects), ", ".join(sacrifice), ", ".join(social), str(card["copies"])]


def test_the_card_table_matches_cards_toml() -> None:
    rows = table_rows(RULES_MD, "Cards")
    expected = [_expected_row(name, card) for name, card in GAME.default_parameters()["cards"].items()]
    assert rows == expected


def test_every_test_named_in_the_rule_table_exists() -> None:
    assert len(named_tests(RULES_MD)) > 60
    assert missing_tests(RULES_MD, __package__ or "") == []


def test_every_rule_row_has_a_test() -> None:
    rows = rule_rows(RULES_MD, "STICHLWM")
    ids = [row_id for row_id, _ in rows]
    expected = ([f"S{i}" for i in range(1, 7)] + [f"T{i}" for i in range(1, 6)] + [f"I{i}" for i in range(1, 6)]
                + [f"C{i}" for i in range(1, 18)] + [f"H{i}" for i in range(1, 9)] + [f"L{i}" for i in range(1, 7)]
                + [f"W{i}" for i in range(1, 4)] + [f"M{i}" for i in range(1, 7)])
    assert ids == expected
    assert all("::test_" in tests for _, tests in rows)
