"""RULES.md stays true: every rule row names a test, and every test it names exists."""

from __future__ import annotations

import re
from pathlib import Path

from tests.gamekit import missing_tests, named_tests

RULES_MD = Path(__file__).with_name("RULES.md").read_text(encoding="utf-8")


def test_every_test_named_in_the_rule_tables_exists() -> None:
    assert len(named_tests(RULES_MD)) > 30
    assert missing_tests(RULES_MD, __package__ or "") == []


def test_every_rule_row_names_a_test() -> None:
    rows = re.findall(r"^\| ([STEHCPA]\d+) \|.*\|(.*)\|$", RULES_MD, flags=re.MULTILINE)
    assert [row for row, _ in rows][:4] == ["S1", "S2", "S3", "S4"]
    assert len(rows) == 4 + 10 + 4 + 4 + 5 + 3 + 4
    assert all("::test_" in tests for _, tests in rows)
