"""RULES.md stays true: its card table is cards.toml, and the tests it names exist."""

from __future__ import annotations

import re
from pathlib import Path

from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import CARD_NAMES, DATA_FILE, READING_SWITCHES
from tests.gamekit import missing_tests, named_tests, rule_rows, table_rows

RULES_MD = Path(DATA_FILE).with_name("RULES.md").read_text(encoding="utf-8")


def test_the_card_table_matches_cards_toml() -> None:
    rows = table_rows(RULES_MD, "Cards")
    expected = [
        [name, card["class"], card["action"], str(card["copies"])]
        for name, card in GAME.default_parameters()["cards"].items()
    ]
    assert rows == expected
    assert sum(int(row[3]) for row in rows) == 94


def test_every_test_named_in_the_rule_table_exists() -> None:
    assert len(named_tests(RULES_MD)) > 100
    assert missing_tests(RULES_MD, __package__ or "") == []


def test_every_rule_row_names_a_test() -> None:
    rows = rule_rows(RULES_MD, "STACPREF")
    ids = [row_id for row_id, _ in rows]
    assert len(ids) == len(set(ids)) and len(ids) >= 80
    assert all("::test_" in tests for _, tests in rows)
    for prefix, count in (("S", 8), ("T", 12), ("A", 7), ("C", 30), ("P", 8), ("R", 7), ("E", 6), ("F", 7)):
        assert [row_id for row_id in ids if row_id[0] == prefix] == [f"{prefix}{i}" for i in range(1, count + 1)]


def test_every_rulebook_card_and_party_has_a_row() -> None:
    table = RULES_MD.split("## Rulebook → code → tests", 1)[1].split("## Assumptions", 1)[0]
    for card in CARD_NAMES:
        title = " ".join(word.capitalize() for word in card.split("_")).replace(" Of ", " of ")
        assert title in table, title
    for name in GAME.default_parameters()["parties"].values():
        if name["in_draft"]:
            assert name["name"] in table


def test_every_reading_switch_has_its_measured_effect_in_the_readings_table() -> None:
    readings = RULES_MD.split("\n## Readings\n", 1)[1].split("\n## ", 1)[0]
    defaults = GAME.default_parameters()["rules"]
    rows = {}
    for line in readings.splitlines():
        found = re.match(r"^\| `rules\.(\w+)` \| `(true|false)` \|(.*)\|$", line)
        if found:
            rows[found.group(1)] = (found.group(2) == "true", found.group(3))
    assert sorted(rows) == sorted(READING_SWITCHES)
    for name, (default, rest) in rows.items():
        assert default == defaults[name], name
        assert re.search(r"[+\-−]?\d+\.\d+ ± \d+\.\d+", rest), f"{name}: no measured effect with its interval"
