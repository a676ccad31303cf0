"""Ring of Chaos as a designer reads it (see ``simcore.describe``)."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simcore.describe import CardFace, Fact, SeatView, StateView, Zone, card_name, copies_of, facts
from simcore.games.ring_of_chaos import rules
from simcore.games.ring_of_chaos.config import CARD_NAMES, CLASS_NAMES
from simcore.games.ring_of_chaos.rules import STATUS_NAMES, RingState
from simcore.kit.view import zone_view


def describe_state(state: RingState) -> StateView:
    """Each party's hand, Heroes (full strength, wounded, dead), space on the
    map, Summoning Points and Imprison cards; the Ring, the discard pile, the
    cards in limbo and in the Tithe pool, and the draw pile's size."""
    numbers = state.numbers
    holder = numbers[rules.RING_HOLDER]
    seats = []
    for seat in range(state.n_players):
        heroes = ", ".join(f"{CLASS_NAMES[hero]} {STATUS_NAMES[status]}"
                           for hero, status in enumerate(state.statuses(seat)))
        seat_facts = [("Summoning Points", state.points(seat)),
                      ("space", state.position(seat) if state.position(seat) >= 0 else "not on the map yet"),
                      ("Heroes", heroes if state.alive(seat) else "eliminated")]
        if holder == seat:
            seat_facts.append(("Ring of Chaos", "wears it"))
        zones: list[Zone] = []
        if state.imprisoned(seat):
            zones.extend(zone_view(state.seat_zone(seat, rules.IMPRISONED), CARD_NAMES))
        seats.append(SeatView(seat, state.party_name(seat) or "", tuple(CARD_NAMES[card] for card in state.hand(seat)),
                              tuple(zones), facts(*seat_facts)))
    ring = (f"worn by seat {holder}" if holder >= 0
            else "on the Chaos Altar" if numbers[rules.RING_SPACE] == state.config.board.altar
            else f"on space {numbers[rules.RING_SPACE]}")
    used = (("move", rules.USED_MOVE), ("attack", rules.USED_ATTACK), ("bonus", rules.USED_BONUS))
    table_facts = list(facts(
        ("map", state.config.board.name), ("Ring of Chaos", ring), ("active seat", numbers[rules.ACTIVE]),
        ("actions used", ", ".join(name for name, index in used if numbers[index]) or "none"),
        ("draw pile", f"{len(state.zones[rules.DRAW_PILE])} cards")))
    asked = state.decisions.asked
    if asked.kind == rules.K_DRAFT and not state.over:
        names = state.config.party_names
        table_facts.append(Fact("draft offer", f"{names[asked.a]} or {names[asked.b]}"))
    if state.over:
        table_facts.append(Fact("ended by", state.ended_by))
    table = zone_view(state.zones[rules.DISCARD_PILE], CARD_NAMES)
    for index in (rules.LIMBO, rules.TITHE_POOL):
        if state.zones[index].cards:
            table.extend(zone_view(state.zones[index], CARD_NAMES))
    phase = "over" if state.over else rules.TASKS.names[asked.kind] if asked.kind >= 0 else "rules"
    return StateView(phase=phase, to_act=state.current_player, turns=state.turns(), seats=tuple(seats),
                     table=tuple(table), table_facts=tuple(table_facts))


@functools.cache
def rulebook_texts() -> dict[str, str]:
    """Card -> the rulebook's words for what it does, as ``rules.py`` quotes them in the
    docstring of the card's behaviour class (``CARD_BEHAVIOUR``; the plain cards have none).
    Read from the source: the compiled module keeps no docstrings. Empty without the source."""
    source = Path(rules.__file__).with_name("rules.py")
    try:
        tree = ast.parse(source.read_text())
    except OSError:
        return {}
    docstrings = {node.name: ast.get_docstring(node) or "" for node in tree.body if isinstance(node, ast.ClassDef)}
    texts = {}
    for card, behaviour in rules.CARD_BEHAVIOUR.items():
        quoted = re.search(r'"([^"]+)"', " ".join(docstrings.get(type(behaviour).__name__, "").split()))
        if quoted and type(behaviour) is not rules.CardBehaviour:
            texts[card] = quoted.group(1)
    return texts


def card_face(card: str, data: Mapping[str, Any]) -> CardFace:
    """A Ring of Chaos Action card: its class (a Class card is played only while that Hero
    lives), the Action it is played as, whom its attack reaches, what it counters and, for a
    card with an effect of its own, the rulebook's words for it (``rulebook_texts``)."""
    hero_class = str(data.get("class", "none"))
    kind = f"{'any class' if hero_class == 'none' else hero_class + ' card'}, {data.get('action')} action"
    parts = []
    reach = data.get("reach")
    if reach and reach != "none":
        unstoppable = {"melee": ", cannot be parried", "ranged": ", cannot be dodged"}
        parts.append(f"{reach} attack{unstoppable.get(str(reach), '') if data.get('sure') else ''}")
    if data.get("counters"):
        parts.append(f"counters {', '.join(str(name) for name in data['counters'])}")
    if card in rulebook_texts():
        parts.append(rulebook_texts()[card])
    return CardFace(card, card_name(card), kind, "; ".join(parts), copies_of(data))
