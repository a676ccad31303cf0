"""Parameters: dotted-path overrides of cards.toml, and configure errors that name the path."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from simcore.agents import parse_agent_spec
from simcore.games.theseus import GAME
from simcore.games.theseus.rules import (
    END_ALL_ICONS,
    END_EFFECTS,
    END_PER_BONUS,
    END_PER_BONUSES,
    END_PER_ICON,
    END_PER_RANK,
    END_VP,
    MOST_CARD_TYPES,
    RECRUIT_ICON,
    STEP_DRAW,
    STEP_EXPLORE,
    STEP_HAND_LIMIT,
    STEP_HEX,
    STEP_PILLAGE,
    STEP_RECRUIT,
    STEP_SUBJUGATE,
    TASKS,
    USE_EFFECTS,
    TheseusState,
    compile_config,
    parse_end,
    parse_use,
)
from simcore.parameters import ParameterError, apply_overrides
from simcore.play import play_game

from .helpers import DEFAULT, card, configured


def test_the_defaults_are_the_rulebooks_numbers() -> None:
    rules = GAME.default_parameters()["rules"]
    assert (rules["party_limit"], rules["hand_limit"], rules["board_size"], rules["uses_per_turn"]) == (4, 4, 4, 2)
    assert rules["starting_party"] == ["knight", "mage", "rogue"]
    assert rules["no_end_effect_ranks"] == [3, 6] and sorted(rules["no_end_effect_areas"]) == ["hand", "reward"]
    assert (DEFAULT.party_limit, DEFAULT.hand_limit, DEFAULT.board_size, DEFAULT.uses_per_turn) == (4, 4, 4, 2)


def test_effect_texts_compile_to_unit_steps_and_end_effects() -> None:
    assert parse_use(["explore 2", "draw 1", "hand_limit 1", "hex 1", "pillage 1"], "p") == (
        STEP_EXPLORE, STEP_EXPLORE, STEP_DRAW, STEP_HAND_LIMIT, STEP_HEX, STEP_PILLAGE)
    assert parse_use([], "p") == ()
    assert parse_end(["vp 3", "vp_per_icon recruit 2"], "p") == ((END_VP, 0, 3), (END_PER_ICON, RECRUIT_ICON, 2))
    assert parse_end(["vp_per_rank 4 1", "vp_per_bonuses 3 2", "vp_if_all_icons 2"], "p") == (
        (END_PER_RANK, 4, 1), (END_PER_BONUSES, 3, 2), (END_ALL_ICONS, 0, 2))


def test_each_use_effect_compiles_to_its_own_step_and_each_end_effect_to_its_own_number() -> None:
    steps = [parse_use([f"{name} 1"], "p") for name in USE_EFFECTS.names]
    assert steps == [(STEP_EXPLORE,), (STEP_RECRUIT,), (STEP_SUBJUGATE,), (STEP_DRAW,), (STEP_HAND_LIMIT,),
                     (STEP_HEX,), (STEP_PILLAGE,)]
    assert [TASKS.names[step] for (step,) in steps] == [name.replace("_", " ") for name in USE_EFFECTS.names]
    texts = ["vp 1", "vp_per_bonus 1", "vp_per_icon explore 1", "vp_per_rank 2 1", "vp_if_all_icons 1",
             "vp_per_bonuses 2 1"]
    assert [text.split()[0] for text in texts] == list(END_EFFECTS.names)
    assert [parse_end([text], "p") for text in texts] == [
        ((END_VP, 0, 1),), ((END_PER_BONUS, 0, 1),), ((END_PER_ICON, 0, 1),), ((END_PER_RANK, 2, 1),),
        ((END_ALL_ICONS, 0, 1),), ((END_PER_BONUSES, 2, 1),)]


def test_an_override_changes_one_card_and_leaves_the_defaults_untouched() -> None:
    defaults = GAME.default_parameters()
    resolved = apply_overrides(defaults, {"cards.minotaur.end": ["vp 1"], "cards.scout.use": ["explore 2"]})
    config = GAME.configure(resolved)
    assert config.end_effects[card("minotaur", config)] == ((END_VP, 0, 1),)
    assert config.effect_steps[card("scout", config)] == (STEP_EXPLORE, STEP_EXPLORE)
    assert defaults["cards"]["minotaur"]["end"] == ["vp 3"]
    assert DEFAULT.end_effects[card("minotaur")] == ((END_VP, 0, 3),)


def test_card_copies_overrides_change_the_rank_decks() -> None:
    config = configured({"cards.minotaur.copies": 0, "cards.scout.copies": 4})
    assert Counter(config.rank_decks[6])[card("minotaur", config)] == 0
    assert Counter(config.rank_decks[1])[card("scout", config)] == 4
    state = TheseusState.new_game(config, 2, 4, None)
    assert len(state.card_of) == sum(len(deck) for deck in config.rank_decks) + 2 * 3


@pytest.mark.parametrize(
    ("path", "value"),
    [("rules.hand_limits", 4), ("cards.medusa.copies", 1), ("cards.scout.colour", "red")],
)
def test_an_unknown_path_is_an_error_that_names_it(path: str, value: Any) -> None:
    with pytest.raises(ParameterError) as raised:
        apply_overrides(GAME.default_parameters(), {path: value})
    assert raised.value.path == path
    assert str(raised.value).startswith(f"{path}: unknown parameter path")


@pytest.mark.parametrize(
    ("path", "value"),
    [("rules.hand_limit", "four"), ("cards.scout.copies", 1.5), ("cards.scout.use", 2),
     ("cards.scout.use", "explore 1"), ("cards.scout.use", ["explore 1", 2]), ("rules.starting_party", "knight")],
)
def test_a_value_of_the_wrong_type_is_an_error_that_names_the_path(path: str, value: Any) -> None:
    with pytest.raises(ParameterError) as raised:
        apply_overrides(GAME.default_parameters(), {path: value})
    assert raised.value.path == path and "expected" in raised.value.message


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("rules.hand_limit", 0),
        ("rules.party_limit", 0),
        ("rules.party_limit", 17),
        ("rules.board_size", 0),
        ("rules.uses_per_turn", 0),
        ("rules.bonus_vp", -1),
        ("rules.max_turns", 0),
        ("rules.starting_party", ["knight", "medusa"]),
        ("rules.no_end_effect_ranks", [7]),
        ("rules.no_end_effect_areas", ["deck"]),
        ("cards.scout.rank", 7),
        ("cards.scout.icon", "fly"),
        ("cards.scout.vp", -1),
        ("cards.scout.copies", -1),
        ("cards.knight.copies", 1),
        ("cards.scout.end_area", "deck"),
    ],
)
def test_configure_rejects_values_out_of_range_naming_the_path(path: str, value: Any) -> None:
    resolved = apply_overrides(GAME.default_parameters(), {path: value})
    with pytest.raises(ParameterError) as raised:
        GAME.configure(resolved)
    assert raised.value.path == path
    assert str(raised.value).startswith(f"{path}: expected")


def test_rank_decks_without_a_rank_six_card_are_an_error_naming_the_cards() -> None:
    overrides = {f"cards.{name}.copies": 0 for name in ("minotaur", "argonaut", "pythia")}
    with pytest.raises(ParameterError) as raised:
        configured(overrides)
    assert raised.value.path == "cards"


def test_more_card_types_than_a_step_can_count_are_an_error_naming_the_cards() -> None:
    parameters = copy.deepcopy(GAME.default_parameters())
    cards = parameters["cards"]
    for index in range(MOST_CARD_TYPES + 1 - len(cards)):
        cards[f"minotaur_{index}"] = dict(cards["minotaur"])
    assert len(cards) == MOST_CARD_TYPES + 1
    with pytest.raises(ParameterError) as raised:
        compile_config(parameters)
    assert raised.value.path == "cards" and f"at most {MOST_CARD_TYPES} card types" in str(raised.value)
    del cards["minotaur_0"]  # one fewer: accepted
    assert len(compile_config(parameters).names) == MOST_CARD_TYPES


def test_an_empty_middle_rank_deck_is_skipped() -> None:
    overrides = {f"cards.{name}.copies": 0 for name in ("captain", "navigator", "warlord", "collector")}
    config = configured(overrides)
    assert config.rank_decks[4] == ()
    random = parse_agent_spec("random")
    for seed in range(5):
        state = play_game(GAME, config, 3, seed, [random] * 3).state
        assert state.is_terminal() and state.game_columns()["rank_reached"] == 6


def test_a_game_with_an_override_obeys_it() -> None:
    config = configured({"rules.board_size": 6, "rules.starting_party": ["rogue", "rogue"]})
    state = GAME.new_state(config, 2, 1)
    assert len(state.board()) == 6
    assert [DEFAULT.names[state.card_of[i]] for i in state.party(1)] == ["rogue", "rogue"]


@pytest.mark.parametrize(("path", "value", "message"), [
    ("rules.bonus_vp", -1, "rules.bonus_vp: expected an integer of at least 0"),
    ("rules.party_limit", 17, "rules.party_limit: expected at most 16"),
    ("rules.no_end_effect_ranks", [3, 0], "rules.no_end_effect_ranks: expected ranks from 1 to 6"),
    ("rules.no_end_effect_areas", ["hand", "deck"], "rules.no_end_effect_areas: expected areas among party, hand, "
     "reward"),
    ("cards.scout.rank", 7, "cards.scout.rank: expected a rank from 0 (starting card) to 6"),
    ("cards.scout.icon", "fly", "cards.scout.icon: expected one of explore, recruit, subjugate"),
    ("cards.scout.end_area", "deck", "cards.scout.end_area: expected one of party, hand, reward, any"),
])
def test_a_declared_constraint_broken_gives_the_one_line_path_expected_message(
        path: str, value: Any, message: str) -> None:
    with pytest.raises(ParameterError) as raised:
        configured({path: value})
    assert str(raised.value) == message


USE_NAMES = "explore, recruit, subjugate, draw, hand_limit, hex, pillage"


@pytest.mark.parametrize(("path", "value", "message"), [
    ("cards.scout.use", ["teleport 1"], f"cards.scout.use: unknown effect 'teleport 1'; expected one of {USE_NAMES}"),
    ("cards.scout.use", ["explore"],
     "cards.scout.use: 'explore': expected 'explore N' with N an integer from 1 to 9, got no arguments"),
    ("cards.scout.use", ["explore 0"],
     "cards.scout.use: 'explore 0': expected 'explore N' with N an integer from 1 to 9, got N = 0"),
    ("cards.scout.use", ["explore 1", "draw 1 2"],
     "cards.scout.use: 'draw 1 2': expected 'draw N' with N an integer from 1 to 9, got 2 arguments"),
    ("cards.scout.use", ["explore 1", ""], f"cards.scout.use: unknown effect ''; expected one of {USE_NAMES}"),
    ("cards.scout.end", ["vp_per_icon fly 1"],
     "cards.scout.end: 'vp_per_icon fly 1': expected 'vp_per_icon ICON N' with ICON one of explore, recruit, "
     "subjugate and N an integer from 1 to 9, got ICON = fly"),
    ("cards.scout.end", ["vp_per_rank 9 1"],
     "cards.scout.end: 'vp_per_rank 9 1': expected 'vp_per_rank R N' with R an integer from 1 to 6 and N an integer "
     "from 1 to 9, got R = 9"),
    ("cards.scout.end", ["glory 2"], "cards.scout.end: unknown effect 'glory 2'; expected one of vp, vp_per_bonus, "
     "vp_per_icon, vp_per_rank, vp_if_all_icons, vp_per_bonuses"),
])
def test_a_bad_effect_is_a_one_line_error_naming_the_card_and_the_form_expected(
        path: str, value: list[str], message: str) -> None:
    with pytest.raises(ParameterError) as raised:
        configured({path: value})
    assert str(raised.value) == message
