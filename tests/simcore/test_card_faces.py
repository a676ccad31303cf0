"""Each game's ``card_face``: one card of the card data as its face reads (name, what it is,
what it does, copies), read from the parameters it is given, so that a variant's face shows
the variant's card."""

from __future__ import annotations

import pytest

from simcore.describe import CardFace, card_name
from simcore.parameters import apply_overrides
from simcore.registry import GAMES, UnknownGameError, card_faces, get_game


def faces(game: str, overrides: dict[str, object] | None = None) -> dict[str, CardFace]:
    parameters = get_game(game).default_parameters()
    return {face.card: face for face in card_faces(game, apply_overrides(parameters, overrides or {}))}


def test_a_card_key_reads_as_its_printed_name() -> None:
    assert card_name("dagger_of_biting") == "Dagger of Biting"
    assert card_name("axes_12") == "Axes 12"
    assert card_name("of_the_deep") == "Of the Deep"  # a small word first is capitalised


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_card_of_every_game_has_a_face_with_its_name_kind_and_copies(game: str) -> None:
    cards = get_game(game).default_parameters()["cards"]
    found = faces(game)
    assert list(found) == list(cards)  # every card, in the card data's order
    for card, face in found.items():
        assert face.name == card_name(card) and face.kind
        assert face.copies == cards[card].get("copies")


def test_a_divvy_card_shows_its_suit_value_icon_d20_and_coin() -> None:
    face = faces("divvy")["axes_3"]
    assert (face.kind, face.text) == ("axes 3, shield icon", "as treasure: d20 15, gold coin")


def test_a_theseus_card_shows_its_rank_icon_vp_use_and_end_and_a_variant_changes_them() -> None:
    face = faces("theseus")["oracle"]
    assert face.kind == "Rank 2, recruit icon, 1 VP"
    assert face.text == "use: draw 2; end: vp 1 (in the Reward)"
    changed = faces("theseus", {"cards.oracle.use": ["draw 1"], "cards.oracle.copies": 3})["oracle"]
    assert changed.text.startswith("use: draw 1;") and changed.copies == 3
    assert faces("theseus")["knight"].kind == "starting card, subjugate icon"


def test_a_ring_of_chaos_card_shows_its_class_action_reach_and_the_rulebooks_words() -> None:
    found = faces("ring_of_chaos")
    assert found["sword_of_slaying"].kind == "fighter card, attack action"
    assert found["sword_of_slaying"].text == "melee attack, cannot be parried; counters guardian"
    assert found["dodge"].kind == "any class, counter action"
    # Its own effect, in the rulebook's words as rules.py quotes them.
    assert found["teleport"].text == "Move to any open space on the battle map, except the Chaos Altar"


def test_a_party_wanted_card_shows_its_owner_kind_and_effects_and_an_enemy_its_stats() -> None:
    found = faces("party_wanted")
    assert found["fighter_strike"].kind == "fighter attack card (starter)"
    assert found["fighter_strike"].text == "attack 2"
    boss = next(face for face in found.values() if face.kind.startswith("boss"))
    assert "attack, defense, speed, hp [" in boss.text


def test_an_unknown_game_has_no_faces() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        card_faces("chess", {})
