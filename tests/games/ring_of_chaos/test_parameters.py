"""Parameters: dotted-path overrides of cards.toml, and configure errors that name the path."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from cardlab.cli import main
from simcore.agents import parse_agent_spec
from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import CARD_NAMES, TEMPLE_GUARDIAN
from simcore.games.ring_of_chaos.rules import FULL, K_COUNTER, K_MAIN, PASS, WOUNDED, RingState
from simcore.parameters import ParameterError, apply_overrides
from simcore.play import play_game

from .helpers import DEFAULT, LABYRINTH, act, build, card, configured, hero, play, position_of


def test_the_deck_holds_94_cards_with_8_temple_guardians_and_every_rulebook_card() -> None:
    deck = Counter(DEFAULT.deck)
    assert len(DEFAULT.deck) == 94 and deck[TEMPLE_GUARDIAN] == 8
    assert all(deck[card_id] >= 1 for card_id in range(len(CARD_NAMES)))
    assert len(CARD_NAMES) == 36  # 35 Action cards and the Temple Guardian


def test_the_defaults_are_the_rulebooks_numbers() -> None:
    rules = GAME.default_parameters()["rules"]
    assert (rules["opening_hand"], rules["draws_per_turn"], rules["hand_limit"]) == (4, 3, 5)
    assert (rules["move_spaces"], rules["retreat_spaces"]) == (2, 3)
    assert (rules["points_to_win"], rules["ring_take_points"], rules["ring_wear_points"]) == (11, 1, 3)
    assert rules["max_taken_points"] == 10 and rules["map"] == "sanctum"


def test_the_map_is_a_parameter_so_the_two_maps_can_be_two_variants() -> None:
    assert DEFAULT.board.name == "sanctum" and LABYRINTH.board.name == "labyrinth"
    played = play_game(GAME, LABYRINTH, 4, 3, [parse_agent_spec("random")] * 4)
    assert played.state.game_columns()["map"] == "labyrinth"


def test_card_copies_overrides_change_the_deck() -> None:
    config = configured({"cards.fireball.copies": 0, "cards.dodge.copies": 7})
    deck = Counter(config.deck)
    assert deck[card("fireball")] == 0 and deck[card("dodge")] == 7
    assert len(config.deck) == 94 - 2 + 2


def test_a_card_class_override_makes_it_a_class_card() -> None:
    config = configured({"cards.scavenge.class": "rogue"})
    assert config.card_classes[card("scavenge")] == 2 and DEFAULT.card_classes[card("scavenge")] == -1


def test_a_cards_facts_are_in_cards_toml_with_the_rulebooks_values_by_default() -> None:
    cards = GAME.default_parameters()["cards"]
    assert (cards["bow"]["action"], cards["bow"]["reach"], cards["bow"]["sure"]) == ("attack", "ranged", False)
    assert (cards["sword_of_slaying"]["reach"], cards["sword_of_slaying"]["sure"]) == ("melee", True)
    assert cards["parry"]["counters"] == ["melee", "guardian"] and cards["dodge"]["counters"] == ["ranged", "guardian"]
    assert cards["hasty_retreat"]["counters"] == ["melee", "melee_sure", "ranged", "ranged_sure", "guardian"]
    assert [name for name in CARD_NAMES if cards[name]["action"] == "counter"] == [
        "dodge", "hasty_retreat", "heroic_sacrifice", "parry"]
    assert sum(cards[name]["reach"] != "none" for name in CARD_NAMES) == 14  # 7 melee and 7 ranged attacks


def test_a_cards_reach_override_changes_whom_it_attacks_and_sure_makes_it_unparryable() -> None:
    melee_bow = configured({"cards.bow.reach": "melee"})
    state = build(["nameless_band"] * 3, [1, 2, 15], [["bow"], ["parry"], []], config=melee_bow)
    play(state, "bow")
    assert sorted(state.legal_actions()) == [1]  # the Adjacent party only, no longer the distant one
    act(state, 1)
    act(state, hero("cleric"))
    assert state.decisions.asked.kind == K_COUNTER
    assert sorted(state.legal_actions()) == [position_of(state, 1, "parry"), PASS]  # a melee attack: Parry counters
    sure_sword = configured({"cards.sword.sure": True})
    state = build(["nameless_band"] * 2, [1, 2], [["sword"], ["parry"]], config=sure_sword)
    play(state, "sword")
    act(state, 1)
    act(state, hero("cleric"))
    assert state.decisions.asked.kind == K_MAIN and state.status(1, hero("cleric")) == WOUNDED  # nobody asked


def test_a_cards_counters_override_changes_which_attacks_it_counters() -> None:
    config = configured({"cards.parry.counters": ["melee", "ranged", "guardian"]})
    state = build(["nameless_band"] * 2, [1, 15], [["bow"], ["parry"]], config=config)
    play(state, "bow")
    act(state, 1)
    act(state, hero("cleric"))
    assert state.decisions.asked.kind == K_COUNTER and state.legal_actions() == [0, PASS]  # Parry now stops a Bow
    act(state, 0)
    assert state.status(1, hero("cleric")) == FULL


def test_the_card_facts_are_listed_by_cardlab_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "ring_of_chaos"]) == 0
    listed = capsys.readouterr().out.splitlines()
    for line in ("cards.bow.reach = 'ranged'", "cards.dagger_of_biting.sure = True",
                 "cards.dodge.counters = ['ranged', 'guardian']", "cards.mace.action = 'attack'"):
        assert line in listed


@pytest.mark.parametrize(
    ("path", "value"),
    [("rules.maps", "x"), ("cards.lightsaber.copies", 1), ("parties.brute_squad.hue", "x"), ("maps.sanctum.size", 3)],
)
def test_an_unknown_path_is_an_error_that_names_it(path: str, value: Any) -> None:
    with pytest.raises(ParameterError) as raised:
        apply_overrides(GAME.default_parameters(), {path: value})
    assert raised.value.path == path


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("rules.map", "moon"),
        ("rules.hand_limit", 0),
        ("rules.max_turns", 0),
        ("rules.max_taken_points", 11),
        ("rules.ring_wear_points", -1),
        ("cards.fireball.copies", -1),
        ("cards.fireball.class", "bard"),
        ("cards.fireball.action", "dance"),
        ("cards.bow.reach", "far"),
        ("cards.parry.counters", ["melee", "spells"]),
        ("maps.sanctum.altar", 40),
        ("maps.sanctum.starts", [1, 2, 3]),
        ("maps.sanctum.links", [[0, 1]]),
        ("maps.sanctum.links", [[0, 99]]),
    ],
)
def test_configure_rejects_values_out_of_range_naming_the_path(path: str, value: Any) -> None:
    resolved = apply_overrides(GAME.default_parameters(), {path: value})
    with pytest.raises(ParameterError) as raised:
        GAME.configure(resolved)
    assert raised.value.path == path


def test_a_draft_with_too_few_parties_is_refused() -> None:
    overrides = {f"parties.{key}.in_draft": False for key in ("brute_squad", "giant_slayers", "hell_raisers",
                                                             "dread_legion", "den_of_thieves")}
    with pytest.raises(ParameterError) as raised:
        configured(overrides)
    assert raised.value.path == "parties"
    config = configured({"parties.brute_squad.in_draft": False})
    with pytest.raises(ValueError):
        GAME.new_state(config, 6, 1)  # six players need seven party cards
    GAME.new_state(config, 5, 1)


def test_a_game_with_overrides_obeys_them() -> None:
    config = configured({"rules.points_to_win": 5, "rules.max_taken_points": 4, "rules.hand_limit": 3})
    for seed in range(20):
        state = play_game(GAME, config, 3, seed, [parse_agent_spec("heuristic")] * 3).state
        assert isinstance(state, RingState)
        assert max(state.scores()) <= 5
        if state.end_reason() == "points":
            assert state.points(state.winners()[0]) == 5


def test_power_parameters_out_of_range_name_their_path() -> None:
    cases = {
        "parties.giant_slayers.power": ("giant_killers", "expected none or one of: brute_squad"),
        "powers.brute_squad.melee_hits": (3, "expected 1 or 2"),
        "powers.giant_slayers.cards_per_hit": (-1, "expected 0 to 5 cards"),
        "powers.defenders_of_the_faith.cards_to_discard": (6, "expected 0 cards up to rules.hand_limit"),
    }
    for path, (value, expected) in cases.items():
        with pytest.raises(ParameterError) as caught:
            configured({path: value})
        assert caught.value.path == path and expected in str(caught.value)


@pytest.mark.parametrize(("path", "value", "message"), [
    ("rules.draws_per_turn", 0, "rules.draws_per_turn: expected an integer of at least 1"),
    ("rules.ring_take_points", -1, "rules.ring_take_points: expected an integer of at least 0"),
    ("rules.map", "moon", "rules.map: expected one of: sanctum, labyrinth"),
    ("cards.dodge.class", "bard", "cards.dodge.class: expected none, cleric, fighter, rogue or wizard"),
    ("parties.hell_raisers.power", "x", "parties.hell_raisers.power: expected none or one of: brute_squad, "
     "death_from_above, defenders_of_the_faith, den_of_thieves, dread_legion, giant_slayers, hell_raisers"),
    ("powers.giant_slayers.cards_per_hit", 6, "powers.giant_slayers.cards_per_hit: expected 0 to 5 cards"),
])
def test_a_declared_constraint_broken_gives_the_one_line_path_expected_message(
        path: str, value: Any, message: str) -> None:
    with pytest.raises(ParameterError) as raised:
        configured({path: value})
    assert str(raised.value) == message


def test_every_card_and_power_constant_is_the_index_of_its_name() -> None:
    # One constant per line (so that the compiled core reads them as numbers, not
    # names): each must still be its card's or party power's place in the lists.
    from simcore.games.ring_of_chaos import config

    for index, name in enumerate(config.CARD_NAMES):
        assert getattr(config, name.upper()) == index, name
    for index, key in enumerate(config.POWER_KEYS):
        assert getattr(config, key.upper()) == index, key
    assert len(config.POWER_KEYS) == config.NO_POWER
    for names, constants in ((config.CLASS_NAMES, ("CLERIC", "FIGHTER", "ROGUE", "WIZARD")),
                             (config.SLOT_NAMES, ("MOVE_SLOT", "ATTACK_SLOT", "BONUS_SLOT", "COUNTER_ONLY", "THREAT")),
                             (config.REACH_NAMES, ("NO_REACH", "MELEE_REACH", "RANGED_REACH")),
                             (config.STYLE_KEYS, ("MELEE", "MELEE_SURE", "RANGED", "RANGED_SURE", "GUARDIAN"))):
        assert [getattr(config, constant) for constant in constants] == list(range(len(names)))
