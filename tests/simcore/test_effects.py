"""The one effect syntax (simcore.effects): good lists, one-line errors naming the path, and every
effect of the shipped card files parsed by the one parser."""

from __future__ import annotations

from typing import Any

import pytest

from simcore.effects import Choice, Integer, ParsedEffect, Vocabulary
from simcore.games.party_wanted import GAME as PARTY_WANTED
from simcore.games.party_wanted.config import EFFECTS, PRIMITIVES
from simcore.games.theseus import GAME as THESEUS
from simcore.games.theseus.rules import END_EFFECTS, USE_EFFECTS
from simcore.parameters import ParameterError

ICONS = ("explore", "recruit", "subjugate")
VOCABULARY = Vocabulary({
    "explore": (Integer("N", 1, 9),),
    "attack": (Integer("N"),),
    "heal": (Integer("N", minimum=0),),
    "vp_per_icon": (Choice("ICON", ICONS), Integer("N", 1, 9)),
    "negate": (),
})
PATH = "cards.minotaur.end"
NAMES = "explore, attack, heal, vp_per_icon, negate"


def test_a_list_parses_to_each_effects_index_and_arguments_in_order() -> None:
    parsed = VOCABULARY.parse(["vp_per_icon recruit 2", "explore 1", "attack -1", "negate", "heal 0"], PATH)
    assert parsed == (ParsedEffect(3, (1, 2)), ParsedEffect(0, (1,)), ParsedEffect(1, (-1,)), ParsedEffect(4, ()),
                      ParsedEffect(2, (0,)))


def test_an_empty_list_is_no_effect_and_spaces_around_words_do_not_matter() -> None:
    assert VOCABULARY.parse([], PATH) == ()
    assert VOCABULARY.parse(["  explore   9 "], PATH) == (ParsedEffect(0, (9,)),)


def test_the_form_and_usage_of_an_effect_are_built_from_its_arguments() -> None:
    assert VOCABULARY.form("vp_per_icon") == "vp_per_icon ICON N"
    assert VOCABULARY.usage("vp_per_icon") == ("'vp_per_icon ICON N' with ICON one of explore, recruit, subjugate "
                                               "and N an integer from 1 to 9")
    assert VOCABULARY.usage("negate") == "'negate' (no arguments)"
    assert VOCABULARY.names == ("explore", "attack", "heal", "vp_per_icon", "negate")
    assert Integer("N", 3, 3).describe() == "the integer 3" and Integer("N", maximum=2).describe() == (
        "an integer of at most 2")


@pytest.mark.parametrize(("value", "message"), [
    ("explore 1, draw 2", "expected a list of effects such as [\"explore 1\"], got 'explore 1, draw 2'"),
    (["explore 1", 2], "expected each effect as a string such as \"explore 1\", got 2"),
    (["vpp 2"], f"unknown effect 'vpp 2'; expected one of {NAMES}"),
    (["explore:2"], f"unknown effect 'explore:2'; expected one of {NAMES}"),
    ([""], f"unknown effect ''; expected one of {NAMES}"),
    (["explore"], "'explore': expected 'explore N' with N an integer from 1 to 9, got no arguments"),
    (["explore 1 2"], "'explore 1 2': expected 'explore N' with N an integer from 1 to 9, got 2 arguments"),
    (["negate 0"], "'negate 0': expected 'negate' (no arguments), got 1 argument"),
    (["explore 0"], "'explore 0': expected 'explore N' with N an integer from 1 to 9, got N = 0"),
    (["explore 10"], "'explore 10': expected 'explore N' with N an integer from 1 to 9, got N = 10"),
    (["heal -1"], "'heal -1': expected 'heal N' with N an integer of at least 0, got N = -1"),
    (["attack two"], "'attack two': expected 'attack N' with N an integer, got N = two"),
    (["attack 1.5"], "'attack 1.5': expected 'attack N' with N an integer, got N = 1.5"),
    (["vp_per_icon fly 1"], "'vp_per_icon fly 1': expected 'vp_per_icon ICON N' with ICON one of explore, recruit, "
                            "subjugate and N an integer from 1 to 9, got ICON = fly"),
    (["vp_per_icon 1 explore"], "'vp_per_icon 1 explore': expected 'vp_per_icon ICON N' with ICON one of explore, "
                                "recruit, subjugate and N an integer from 1 to 9, got ICON = 1"),
])
def test_a_mistake_is_one_line_naming_the_path_and_what_was_expected(value: Any, message: str) -> None:
    with pytest.raises(ParameterError) as raised:
        VOCABULARY.parse(value, PATH)
    assert raised.value.path == PATH
    assert str(raised.value) == f"{PATH}: {message}"
    assert "\n" not in str(raised.value)


def test_an_effect_name_must_be_one_word() -> None:
    with pytest.raises(ValueError, match="one word"):
        Vocabulary({"vp per icon": ()})


def _effect_lists(game: Any, fields: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """(dotted path, effect list) of every effect field of every card of a game's shipped cards.toml."""
    cards = game.default_parameters()["cards"]
    return [(f"cards.{name}.{field}", card[field]) for name, card in cards.items() for field in fields
            if field in card]


def test_every_effect_of_the_shipped_theseus_cards_parses_with_the_one_parser() -> None:
    lists = _effect_lists(THESEUS, ("use", "end"))
    assert len(lists) == 2 * len(THESEUS.default_parameters()["cards"])
    parsed = [effect for path, effects in lists
              for effect in (USE_EFFECTS if path.endswith(".use") else END_EFFECTS).parse(effects, path)]
    assert len(parsed) == sum(len(effects) for _, effects in lists) > 30
    argonaut = THESEUS.default_parameters()["cards"]["argonaut"]["end"]
    assert END_EFFECTS.parse(argonaut, "cards.argonaut.end") == (
        ParsedEffect(END_EFFECTS.names.index("vp"), (1,)),
        ParsedEffect(END_EFFECTS.names.index("vp_per_icon"), (ICONS.index("explore"), 1)))


def test_every_effect_of_the_shipped_party_wanted_cards_parses_with_the_one_parser() -> None:
    lists = _effect_lists(PARTY_WANTED, ("effects", "sacrifice", "social"))
    parsed = [EFFECTS.parse(effects, path) for path, effects in lists]
    assert sum(len(effects) for effects in parsed) == sum(len(effects) for _, effects in lists) > 300
    kinds = {effect.kind for effects in parsed for effect in effects}
    assert {EFFECTS.names[kind] for kind in kinds} >= {"attack", "negate", "mini_boss", "fight", "perm_attack"}
    assert EFFECTS.names == PRIMITIVES
