"""RULES.md stays true: its card table is cards.toml, and the tests it names exist."""

from __future__ import annotations

import re
from pathlib import Path

from simcore.games.party_wanted import GAME, rules
from simcore.games.party_wanted.rules import ACTIONS, DATA_FILE, PLAY_CARD
from simcore.kit.decisions import ActionType
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


def test_the_actions_table_gives_every_action_types_code_name_and_fields_and_its_example_decodes() -> None:
    section = RULES_MD.split("\n### Actions\n", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in section.splitlines()
            if re.match(r"\| \d+ \|", line)]
    documented = [(int(code), name.split("`")[1], fields) for code, name, fields, _ in rows]
    assert documented == [(action_type.code, _constant_name(action_type), ", ".join(action_type.fields) or "—")
                          for action_type in ACTIONS.types]
    assert all(action_type.widths in ((), (24,), (8, 8, 8)) for action_type in ACTIONS.types)
    assert PLAY_CARD.encode(2, 3, 1) == 1 << 24 | 2 << 16 | 3 << 8 | 1
    assert "`play(position=2, hero=3, enemy=1)`" in section and ACTIONS.describe(PLAY_CARD.encode(2, 3, 1)) == (
        "play(position=2, hero=3, enemy=1)")


def _constant_name(action_type: ActionType) -> str:
    """The name ``rules.py`` gives ``action_type`` (its module constant)."""
    return next(name for name, value in vars(rules).items() if value is action_type and name.isupper())
