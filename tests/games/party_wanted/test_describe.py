"""The designer's view of a Party Wanted position: open hands, HP, the Pyramid and the enemies by card name."""

from __future__ import annotations

from simcore.describe import StateView, Zone, describe_state
from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.rules import MINIONS

from .helpers import answer, cid, fight, named, party, set_enemy, set_enemy_hp, set_hand, set_zone, tier


def _table_zone(view: StateView, name: str) -> Zone | None:
    return next((zone for zone in view.table if zone.name == name), None)


def test_every_hero_s_hand_class_and_hp_are_shown() -> None:
    state = party("fighter,wizard,healer")
    set_hand(state, 1, ["wizard_strike", "wizard_strike"])
    view = describe_state(GAME, state)
    for seat in range(3):
        assert list(view.seats[seat].hand) == named(state.hand(seat), state.config)
        facts = {fact.name: fact.value for fact in view.seats[seat].facts}
        assert facts["HP"] == f"{state.hp(seat)} of {state.max_hp(seat)}"
    assert [seat.title for seat in view.seats] == ["fighter", "wizard", "healer"]
    assert view.seats[1].hand == ("wizard_strike", "wizard_strike")


def test_revealing_a_land_moves_it_from_face_down_to_face_up_in_its_tier() -> None:
    state = party("fighter,wizard,healer")
    bottom = "Pyramid tier 3 (bottom)"
    before = describe_state(GAME, state)
    hidden = _table_zone(before, f"{bottom}, face down")
    assert hidden is not None and hidden.hidden and len(hidden.cards) == 3
    assert _table_zone(before, f"{bottom}, face up") == Zone(f"{bottom}, face up", ())
    tier(state, 2)[1] = cid("quiet_glade")
    answer(state, 1)
    after = describe_state(GAME, state)
    assert _table_zone(after, f"{bottom}, face up") == Zone(f"{bottom}, face up", ("quiet_glade",))
    still_hidden = _table_zone(after, f"{bottom}, face down")
    assert still_hidden is not None and "quiet_glade" not in still_hidden.cards and len(still_hidden.cards) == 2


def test_a_fight_lists_the_enemies_with_their_hp_and_a_killed_one_as_dead() -> None:
    state = party("fighter")
    fight(state, ["goblin", "goblin"])
    set_enemy(state, 0, attack=2, defense=1, speed=3, hp=4)
    set_enemy_hp(state, 1, 0)
    view = describe_state(GAME, state)
    assert _table_zone(view, "enemies") == Zone("enemies", ("goblin", "goblin"))
    facts = {fact.name: fact.value for fact in view.table_facts}
    assert facts["enemy 1: goblin (monster)"] == "HP 4, attack 2, defense 1, speed 3"
    assert facts["enemy 2: goblin (monster)"] == "dead"


def test_a_necromancers_minions_in_play_are_a_zone_of_its_panel() -> None:
    state = party("necromancer,fighter")
    view = describe_state(GAME, state)
    assert "minions in play" not in [zone.name for zone in view.seats[0].zones]
    set_zone(state, 0, MINIONS, ["necromancer_zombie_minion"])
    zones = {zone.name: zone.cards for zone in describe_state(GAME, state).seats[0].zones}
    assert zones["minions in play"] == ("necromancer_zombie_minion",)
