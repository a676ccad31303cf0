"""Party Wanted as a designer reads it (see ``simcore.describe``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simcore.describe import CardFace, Fact, SeatView, StateView, card_name, copies_of, effects_text, facts, zone
from simcore.games.party_wanted.rules import (
    BOSSES_KILLED,
    COMBAT_ROUND,
    ENEMY_HP,
    ENEMY_KIND,
    HOLDER,
    LEVEL,
    TASKS,
    TIER,
    PartyState,
)
from simcore.kit.view import describe_zones
from simcore.kit.zones import EVERY_SEAT

ENEMY_KIND_NAMES = ("monster", "mini boss", "boss")


def describe_state(state: PartyState) -> StateView:
    """Each hero's hand (hands are open in this game), its other zones that
    hold cards, HP and stats; the table's zones that hold cards (the decks'
    face-up and face-down parts, the items waiting to be resolved...), the
    Pyramid tier by tier (face-down lands apart) and the enemies in a fight
    with their HP."""
    names = state.config.names
    seat_zones, hands, table_zones = describe_zones(state, names)
    seats = []
    for seat in range(state.n_players):
        seat_facts = facts(
            ("HP", f"{state.hp(seat)} of {state.max_hp(seat)}" if state.alive(seat) else "dead"),
            ("attack / defense / speed", f"{state.base_attack(seat)} / {state.base_defense(seat)} / "
                                         f"{state.base_speed(seat)}"))
        seats.append(SeatView(seat, state.class_name(seat), hands[seat],
                              tuple(shown for shown in seat_zones[seat] if shown.cards), seat_facts))
    table = [shown for shown in table_zones if shown.cards and not shown.name.startswith("Pyramid")]
    tiers = state.tier_count()
    for row in range(tiers):
        tier = state.tier_zone(row)
        where = " (top)" if row == 0 else " (bottom)" if row == tiers - 1 else ""
        shown = [card for slot, card in enumerate(tier.cards) if tier.seen[slot] == EVERY_SEAT]
        table.append(zone(f"Pyramid tier {row + 1}{where}, face up", names, shown))
        face_down = [card for slot, card in enumerate(tier.cards) if tier.seen[slot] != EVERY_SEAT]
        if face_down:
            table.append(zone(f"Pyramid tier {row + 1}{where}, face down", names, face_down, hidden=True))
    enemies = state.enemy_cards()
    if enemies:
        table.append(zone("enemies", names, enemies))
    numbers = state.numbers
    table_facts = list(facts(("level", numbers[LEVEL]), ("tier", numbers[TIER] + 1), ("turn holder", numbers[HOLDER]),
                             ("bosses killed", numbers[BOSSES_KILLED])))
    if state.in_combat():
        table_facts.append(Fact("combat round", str(numbers[COMBAT_ROUND])))
    for enemy, card in enumerate(enemies):
        hp = state.enemy_number(ENEMY_HP, enemy)
        table_facts.append(Fact(
            f"enemy {enemy + 1}: {names[card]} ({ENEMY_KIND_NAMES[state.enemy_number(ENEMY_KIND, enemy)]})",
            f"HP {hp}, attack {state.enemy_attack(enemy)}, defense {state.enemy_defense(enemy)}, "
            f"speed {state.enemy_speed(enemy)}" if hp > 0 else "dead"))
    if state.over:
        table_facts.append(Fact("ended by", state.ended_by))
    phase = "over" if state.over else TASKS.names[state.decisions.asked.kind] if state.decisions.waiting else "rules"
    return StateView(phase=phase, to_act=state.current_player, turns=state.turns(), seats=tuple(seats),
                     table=tuple(table), table_facts=tuple(table_facts))


MARKS = {"S": "starter", "H": "hard mode"}
"""A hero card's ``mark``, in words."""


def card_face(card: str, data: Mapping[str, Any]) -> CardFace:
    """A Party Wanted card: a hero card (its owner, kind and effects), an enemy (its
    [attack, defense, speed, hp]), a land, a treasure or an encounter."""
    kind = str(data.get("kind", "card"))
    owner, mark = data.get("owner"), MARKS.get(str(data.get("mark", "")))
    what = f"{owner} {kind} card" if owner else f"{kind} card" if kind not in ("monster", "boss", "land") else kind
    if mark:
        what += f" ({mark})"
    if data.get("level"):
        what += f", level {data['level']}"
    parts = []
    if data.get("stats"):
        parts.append(f"attack, defense, speed, hp {data['stats']}")
    for key, levels in (("stats_12", "1-2"), ("stats_34", "3-4")):
        if data.get(key):
            parts.append(f"levels {levels}: attack, defense, speed, hp {data[key]}")
    if data.get("effects"):
        parts.append(effects_text(data["effects"]))
    if data.get("sacrifice"):
        parts.append(f"sacrificed: {effects_text(data['sacrifice'])}")
    if data.get("social"):
        parts.append(f"social: {effects_text(data['social'])}")
    if isinstance(data.get("use"), str):
        parts.append(str(data["use"]).replace("_", " "))
    return CardFace(card, card_name(card), what, "; ".join(parts), copies_of(data))
