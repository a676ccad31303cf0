"""The [impact] table of an experiment file: expanded into paired arms, or refused in one line."""

from __future__ import annotations

from typing import Any

import pytest

from experiments.impact import parse_arm_variant
from experiments.spec import BASELINE, SpecError, parse_spec


def spec_of(impact: Any, **extra: Any) -> Any:
    return parse_spec({"game": "divvy", "games": 10, "impact": impact, **extra}, "impact.toml", "impact")


def test_every_card_of_divvy_gets_a_stand_in_arm_and_a_one_fewer_arm() -> None:
    spec = spec_of({"cards": "all"})
    arms = [variant.name for variant in spec.variants if variant.from_impact]
    assert len(arms) == 2 * 48
    assert arms[:2] == ["impact.axes_1.stand_in", "impact.axes_1.one_fewer"]
    assert spec.paired_seeds


def test_the_stand_in_arm_plays_the_baselines_seeds_and_one_fewer_plays_its_own() -> None:
    spec = spec_of({"cards": ["axes_12"]})
    assert spec.seed_variant("impact.axes_12.stand_in") == BASELINE
    assert spec.seed_variant("impact.axes_12.one_fewer") == "impact.axes_12.one_fewer"


def test_an_arm_holds_its_games_overrides_and_parameters() -> None:
    spec = spec_of({"cards": ["axes_12"], "arms": ["stand_in", "one_fewer"]})
    stand_in = spec.variant("impact.axes_12.stand_in")
    assert stand_in.overrides == {"cards.axes_12.value": 6, "cards.axes_12.d20": 10, "cards.axes_12.coin": "silver"}
    assert stand_in.parameters["cards"]["axes_12"]["suit"] == "axes"
    assert spec.variant("impact.axes_12.one_fewer").overrides == {"cards.axes_12.copies": 0}


def test_an_arms_variant_name_reads_back_as_card_and_arm() -> None:
    assert parse_arm_variant("impact.dagger_of_biting.stand_in") == ("dagger_of_biting", "stand_in")
    assert parse_arm_variant("impact.x.twice") is None
    assert parse_arm_variant("baseline") is None


def test_the_stored_spec_carries_the_impact_table_and_parses_back_to_the_same_variants() -> None:
    spec = spec_of({"cards": ["axes_12", "bows_1"], "arms": ["stand_in"], "max_width": 0.05})
    stored = spec.to_json_dict()
    assert stored["impact"] == {"cards": ["axes_12", "bows_1"], "arms": ["stand_in"], "min_games": 200,
                                "max_width": 0.05, "arm_variants": 2}
    assert "impact.axes_12.stand_in" not in stored["variants"]
    again = parse_spec(stored, "spec.json")
    assert [variant.name for variant in again.variants] == [variant.name for variant in spec.variants]


def test_a_spec_without_impact_stores_no_impact_key() -> None:
    spec = parse_spec({"game": "divvy", "games": 10}, "plain.toml", "plain")
    assert "impact" not in spec.to_json_dict()


def test_party_wanted_measures_the_cards_heroes_hold_and_not_the_dungeon() -> None:
    spec = parse_spec({"game": "party_wanted", "games": 10, "impact": {"arms": ["stand_in"]}}, "pw.toml", "pw")
    cards = set(spec.impact.cards) if spec.impact else set()
    assert "fighter_strike" in cards and "gold_pouch" in cards
    assert not any(card.startswith(("goblin", "minotaur_boss")) for card in cards)


@pytest.mark.parametrize(("impact", "extra", "message"), [
    ({"cards": "all", "colour": 1}, {}, "impact.toml: impact.colour: unknown key; expected one of cards, arms, "
                                        "max_width, min_games"),
    ({"cards": ["axes_13"]}, {}, "impact.toml: impact.cards[0]: expected a card of divvy, got 'axes_13'"),
    ({"cards": "all", "arms": ["twice"]}, {}, "impact.toml: impact.arms: expected a list of stand_in and/or "
                                              "one_fewer (each once), got ['twice']"),
    ({"cards": "all", "max_width": 3}, {}, "impact.toml: impact.max_width: expected a number above 0 and below 2 "
                                           "(an interval width of a win-rate difference), got 3"),
    ({"cards": "all", "min_games": 0}, {}, "impact.toml: impact.min_games: expected a positive integer, got 0"),
    ({"cards": "all"}, {"paired_seeds": False},
     "impact.toml: paired_seeds: a card impact run ([impact]) plays its arms on the baseline's seeds; leave "
     "paired_seeds out or set it to true"),
    ("everything", {}, "impact.toml: impact: expected a table with cards and arms"),
])
def test_a_mistake_in_the_impact_table_is_one_line_naming_the_key(impact: Any, extra: dict[str, Any],
                                                                  message: str) -> None:
    with pytest.raises(SpecError) as raised:
        spec_of(impact, **extra)
    assert str(raised.value) == message


def test_a_card_without_a_stand_in_is_left_out_of_all_and_refused_by_name() -> None:
    spec = parse_spec({"game": "ring_of_chaos", "games": 10, "impact": {"cards": "all"}}, "roc.toml", "roc")
    assert spec.impact is not None and "temple_guardian" not in spec.impact.cards and len(spec.impact.cards) == 35
    with pytest.raises(SpecError) as raised:
        parse_spec({"game": "ring_of_chaos", "games": 10, "impact": {"cards": ["temple_guardian"]}}, "roc.toml", "roc")
    assert str(raised.value) == ("roc.toml: impact.cards[0]: temple_guardian, arm stand_in: no stand_in in "
                                 "ring_of_chaos; leave it out")
