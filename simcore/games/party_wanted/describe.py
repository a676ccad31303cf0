"""Party Wanted as a designer reads it (see ``simcore.describe``)."""

from __future__ import annotations

from simcore.describe import Fact, SeatView, StateView, Zone, facts, zone
from simcore.games.party_wanted.rules import OVER, PHASE_NAMES, PartyState

ENEMY_KIND_NAMES = ("monster", "mini boss", "boss")


def describe_state(state: PartyState) -> StateView:
    """Each hero's hand (hands are open in this game), equipment, cards in
    play, HP and stats; the Pyramid tier by tier (face-down lands apart), the
    enemies in a fight with their HP, the items waiting to be resolved and the
    decks' sizes."""
    config = state.config
    names = config.names
    seats = []
    for seat in range(state.n_players):
        zones = [
            zone("weapon", names, [state.weapons[seat]] if state.weapons[seat] >= 0 else []),
            zone("armor", names, [state.armors[seat]] if state.armors[seat] >= 0 else []),
            zone("items", names, state.items[seat]),
        ]
        if state.minions[seat]:
            zones.append(zone("minions in play", names, state.minions[seat]))
        if state.in_play[seat]:
            zones.append(zone("in play this round", names, state.in_play[seat]))
        if state.aside[seat]:
            zones.append(zone("set aside this combat", names, state.aside[seat]))
        deck = state.decks[seat]
        zones.append(zone("Hero Deck, buried face up", names, deck.cards[:deck.face_up]))
        seat_facts = facts(
            ("HP", f"{state.hp[seat]} of {state.max_hp(seat)}" if state.alive[seat] else "dead"),
            ("attack / defense / speed", f"{state.base_attack(seat)} / {state.base_defense(seat)} / "
                                         f"{state.base_speed(seat)}"),
            ("Hero Deck", f"{len(deck.hidden())} face down, {deck.face_up} buried face up"),
            ("Build Pool", f"{len(state.pools[seat])} cards"))
        seats.append(SeatView(seat, state.class_name(seat), tuple(names[card] for card in state.hands[seat]),
                              tuple(zones), seat_facts))
    table: list[Zone] = []
    for row, (cards, shown) in enumerate(zip(state.tiers, state.revealed, strict=True)):
        where = " (top)" if row == 0 else " (bottom)" if row == len(state.tiers) - 1 else ""
        table.append(zone(f"Pyramid tier {row + 1}{where}, face up", names,
                          [card for card, up in zip(cards, shown, strict=True) if up]))
        face_down = [card for card, up in zip(cards, shown, strict=True) if not up]
        if face_down:
            table.append(zone(f"Pyramid tier {row + 1}{where}, face down", names, face_down, hidden=True))
    if state.enemies:
        table.append(zone("enemies", names, state.enemies))
    if state.pending_items:
        table.append(zone("drawn, waiting to be resolved", names, state.pending_items))
    table_facts = list(facts(
        ("level", state.level), ("tier", state.tier + 1), ("turn holder", state.holder),
        ("bosses killed", state.bosses_killed),
        ("decks", f"treasure {len(state.treasure_deck.cards)}, encounter {len(state.encounter_deck.cards)}, "
                  f"monster {len(state.monster_deck.cards)}, land {len(state.land_deck.cards)}")))
    if state.in_combat:
        table_facts.append(Fact("combat round", str(state.combat_round)))
    for enemy, card in enumerate(state.enemies):
        hp = state.enemy_hp[enemy]
        table_facts.append(Fact(
            f"enemy {enemy + 1}: {names[card]} ({ENEMY_KIND_NAMES[state.enemy_kinds[enemy]]})",
            f"HP {hp}, attack {state.enemy_attack(enemy)}, defense {state.enemy_defense(enemy)}, "
            f"speed {state.enemy_speed(enemy)}" if hp > 0 else "dead"))
    if state.phase == OVER:
        table_facts.append(Fact("ended by", state.ended_by))
    phase = PHASE_NAMES[state.phase] if 0 <= state.phase < len(PHASE_NAMES) else "rules"
    return StateView(phase=phase, to_act=state.current_player, turns=state.turns(), seats=tuple(seats),
                     table=tuple(table), table_facts=tuple(table_facts))
