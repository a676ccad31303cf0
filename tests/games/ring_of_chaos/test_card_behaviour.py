"""A card lives in one place: its facts in cards.toml, its behaviour in one entry of ``CARD_BEHAVIOUR``."""

from __future__ import annotations

import ast
import tomllib
from collections import Counter
from pathlib import Path

from simcore.games.ring_of_chaos.config import CARD_NAMES, DATA_FILE
from simcore.games.ring_of_chaos.rules import BEHAVIOUR_BY_CARD, CARD_BEHAVIOUR, K_SAVAGE_MORE, PASS

from .helpers import act, build, configured, hero, play, position_of, random_game_positions

RULES_FILE = Path(DATA_FILE).with_name("rules.py")


def _behaviour_table_keys() -> list[str]:
    """The keys of the ``CARD_BEHAVIOUR`` literal as written in rules.py, repeats included (a dict
    built from the literal would silently keep only the last of two entries for one card)."""
    for node in ast.walk(ast.parse(RULES_FILE.read_text(encoding="utf-8"))):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.target.id == "CARD_BEHAVIOUR" and isinstance(node.value, ast.Dict):
            return [str(key.value) for key in node.value.keys if isinstance(key, ast.Constant)]
    raise AssertionError("no CARD_BEHAVIOUR table in rules.py")


def test_every_card_of_cards_toml_has_exactly_one_behaviour_entry_and_every_entry_is_a_card() -> None:
    cards = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))["cards"]
    written = _behaviour_table_keys()
    assert [key for key, count in Counter(written).items() if count > 1] == []
    assert sorted(set(cards) - set(written)) == []  # a card without behaviour
    assert sorted(set(written) - set(cards)) == []  # behaviour of no card
    assert sorted(CARD_BEHAVIOUR) == sorted(cards) == sorted(CARD_NAMES)


def test_the_behaviour_by_card_id_is_the_entry_of_that_cards_name() -> None:
    assert len(BEHAVIOUR_BY_CARD) == len(CARD_NAMES) == 36
    assert all(BEHAVIOUR_BY_CARD[card] is CARD_BEHAVIOUR[name] for card, name in enumerate(CARD_NAMES))


def test_a_card_of_the_plain_behaviour_attacks_by_its_reach_or_is_never_played_and_the_others_have_their_own() -> None:
    cards = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))["cards"]
    plain = [name for name in CARD_NAMES if type(CARD_BEHAVIOUR[name]).__name__ == "CardBehaviour"]
    assert plain == ["dagger", "mace", "staff", "sword", "dagger_of_biting", "sword_of_slaying", "bow", "holy_strike",
                     "lightning_bolt", "throwing_axe", "lightning_storm", "holy_vengeance", "dodge", "parry",
                     "temple_guardian"]
    for name in plain:  # the plain behaviour plays a card on a party within its reach, and attacks it
        assert cards[name]["reach"] != "none" or cards[name]["action"] in ("counter", "threat"), name
    for name in set(CARD_NAMES) - set(plain):  # a class of its own, named after the card
        assert type(CARD_BEHAVIOUR[name]).__name__ == name.title().replace("_", ""), name


def test_savage_attack_extras_need_an_adjacent_party_whatever_the_daggers_reach() -> None:
    # The extras used to be offered while "a Dagger" reached someone: a Dagger made ranged by a
    # variant hid the Adjacent party, the extras' only targets.
    config = configured({"cards.dagger.reach": "ranged"})
    state = build(["nameless_band"] * 2, [1, 2], [["savage_attack", "sword"], []], config=config)
    play(state, "savage_attack")
    act(state, 1)
    act(state, hero("cleric"))
    assert state.decisions.asked.kind == K_SAVAGE_MORE
    assert sorted(state.legal_actions()) == sorted([position_of(state, 0, "sword"), PASS])


def test_a_card_that_stops_at_its_first_target_is_playable_exactly_when_its_targets_are_not_empty() -> None:
    # Teleport and Bully stop at the first space they may go to, the cards aimed at a party at the
    # first party, Necromancy at the first party it raises: each against the full list, in random
    # games. (On the rulebook's map some open space is always next to another party, so a game
    # never runs Bully out of spaces: its test cannot be told from Teleport's by a game.)
    shortcuts = ["teleport", "bully", "sneak", "pickpocket", "imprison", "chaos_magic", "poison"]
    necromancy = CARD_NAMES.index("necromancy")
    compared = raised = 0
    outcomes: Counter[tuple[str, bool]] = Counter()
    for state in random_game_positions(2500):
        for seat in range(state.n_players):
            if not state.alive(seat) or state.position(seat) < 0:
                continue
            for name in shortcuts:
                card = CARD_NAMES.index(name)
                behaviour = BEHAVIOUR_BY_CARD[card]
                playable = behaviour.playable(state, seat, card)
                assert playable == bool(behaviour.targets(state, seat, card)), name
                outcomes[name, playable] += 1
            necromancy_playable = BEHAVIOUR_BY_CARD[necromancy].playable(state, seat, necromancy)
            assert necromancy_playable == bool(state.necromancy_parties(seat))
            raised += necromancy_playable
            compared += 1
    assert compared > 5_000 and raised > 0
    # Both outcomes occur for the party-aimed cards (Poison excepted: some other party always held a card).
    assert all(outcomes[name, True] and outcomes[name, False] for name in ("sneak", "pickpocket", "imprison",
                                                                           "chaos_magic"))
