"""The Divvy heuristic: fight in one suit, bid what cannot reinforce.

Strategy (documented in RULES.md):

- **Discard to the hand limit:** keep the cards that build the strongest suit
  (a card's worth is its value plus 3 per other card of its suit in hand).
- **Lead fighter:** the card whose value plus every same-suit card still in
  hand (future reinforcements) is highest.
- **Chaff bid:** every card that cannot reinforce (off-suit), except the one
  kept for the brawl; if none can be spared, the weakest card.
- **Brawl card:** an off-suit card, preferring the icon of the last treasure
  card (the bonus draw), then the lowest value.
- **Replacement:** replace the placed cards unless one of them could reinforce.
- **Reinforcements:** all same-suit cards (only the round's winner scores),
  except when the outcome is already certain from what the seat sees: it
  sends no one when even all of them cannot reach the opponent's lead
  fighter, and only the cheapest set that surely wins when the opponent's
  best possible strength (its lead plus the strongest unseen cards of its
  suit it could hold) can be beaten; cards kept stay in hand for later rounds.

The agent reads only its own hand, its own placed cards and the face-up
table, so it is seat-honest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

from simcore.api import Agent, GameState
from simcore.games.divvy.rules import (
    BATTLE_CARD,
    BRAWL,
    CHAFF,
    CHAFF_BID,
    DISCARD,
    DISCARD_PILE,
    HAND_MASK,
    HAND_POSITION,
    LEAD,
    REINFORCE,
    REPLACE,
    REPLACEMENT,
    TREASURE_ROW,
    WON_TREASURE,
    DivvyState,
)
from simcore.kit.decisions import answer_list
from simcore.kit.vectors import filled
from simcore.rng import Generator

SUIT_PARTNER_WORTH: Final = 3
_POSITION_BITS: Final = 8
_POSITION_MASK: Final = (1 << _POSITION_BITS) - 1


class DivvyHeuristicAgent(Agent):
    """The documented Divvy strategy above; deterministic, ignores its generator."""


    def __init__(self, seat: int, rng: Generator) -> None:
        self.name = "heuristic"
        self.seat = seat

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """Pick the action the strategy prescribes for the question asked."""
        assert isinstance(state, DivvyState)
        phase = state.phase
        seat = self.seat
        if phase == LEAD:
            return HAND_POSITION.encode(lead_position(state, seat))
        if phase == CHAFF:
            return HAND_MASK.encode(chaff_mask(state, seat))
        if phase == BRAWL:
            return HAND_POSITION.encode(brawl_position(state, seat))
        if phase == REINFORCE:
            masks: list[int] = []
            for action in answer_list(legal_actions):
                masks.append(HAND_MASK.value(action))
            return HAND_MASK.encode(reinforce_mask(state, seat, masks))
        if phase == REPLACE:
            return REPLACEMENT.encode(replace_choice(state, seat))
        if phase == DISCARD:
            return HAND_MASK.encode(discard_mask(state, seat, len(state.hand(seat)) - state.config.hand_limit))
        return legal_actions[0]


def keep_worth(state: DivvyState, hand: Sequence[int]) -> list[int]:
    """Each card's worth for keeping: value plus a bonus per same-suit partner."""
    suits, values = state.config.suits, state.config.values
    suit_count = filled(0, len(state.config.suit_names))
    for card in hand:
        suit_count[suits[card]] += 1
    return [values[card] + SUIT_PARTNER_WORTH * (suit_count[suits[card]] - 1) for card in hand]


def _lowest_positions(keys: list[int], how_many: int) -> int:
    """The mask of the ``how_many`` positions of lowest key, the earlier
    position first among equal keys (as a stable sort would take them)."""
    # One int per position, key above and position below: a plain int sort
    # orders them by (key, position) without a key function or tuples.
    packed = [(key << _POSITION_BITS) | position for position, key in enumerate(keys)]
    packed.sort()
    mask = 0
    for index in range(min(how_many, len(packed))):
        mask |= 1 << (packed[index] & _POSITION_MASK)
    return mask


def discard_mask(state: DivvyState, seat: int, excess: int) -> int:
    """Discard the ``excess`` cards of least keeping worth."""
    return _lowest_positions(keep_worth(state, state.hand(seat)), excess)


def lead_position(state: DivvyState, seat: int) -> int:
    """The card with the highest value plus same-suit backing (the first such card on a tie)."""
    suits, values = state.config.suits, state.config.values
    hand = state.hand(seat)
    backing = filled(0, len(state.config.suit_names))
    for card in hand:
        backing[suits[card]] += values[card]
    best, best_backing, best_value = 0, 0, 0
    for position, card in enumerate(hand):
        card_backing, value = backing[suits[card]], values[card]
        if position == 0 or card_backing > best_backing or (card_backing == best_backing and value > best_value):
            best, best_backing, best_value = position, card_backing, value
    return best


def brawl_position(state: DivvyState, seat: int) -> int:
    """The hand position to fight the brawl with: prefer off-suit, the bonus
    icon, low value (the first such position on a tie)."""
    config = state.config
    suits, icons, values = config.suits, config.icons, config.values
    hand = state.hand(seat)
    lead_suit = suits[state.lead_card(seat)]
    bonus_icon = state.bonus_icon()
    best, best_rank, best_value = -1, 0, 0
    for position, card in enumerate(hand):
        # Same suit as the lead is worst, then an icon other than the bonus one.
        rank = (2 if suits[card] == lead_suit else 0) + (1 if icons[card] != bonus_icon else 0)
        value = values[card]
        if best < 0 or rank < best_rank or (rank == best_rank and value < best_value):
            best, best_rank, best_value = position, rank, value
    if best < 0:
        raise ValueError("no brawl card to pick from")
    return best


def chaff_mask(state: DivvyState, seat: int) -> int:
    """Bid every off-suit card but the brawl card; at least the weakest card."""
    config = state.config
    suits, values = config.suits, config.values
    hand = state.hand(seat)
    lead_suit = suits[state.lead_card(seat)]
    fighter = brawl_position(state, seat)
    bid, bid_count = 0, 0
    for position, card in enumerate(hand):
        if position != fighter and suits[card] != lead_suit:
            bid |= 1 << position
            bid_count += 1
    if bid_count < config.min_chaff:
        spare_values: list[int] = []
        spare_positions: list[int] = []
        for position, card in enumerate(hand):
            if position != fighter and not bid >> position & 1:
                spare_values.append(values[card])
                spare_positions.append(position)
        weakest = _lowest_positions(spare_values, config.min_chaff - bid_count)
        for index, position in enumerate(spare_positions):
            if weakest >> index & 1:
                bid |= 1 << position
    return bid


def replace_choice(state: DivvyState, seat: int) -> int:
    """1 (replace) unless a placed card shares the lead fighter's suit."""
    suits = state.config.suits
    lead_suit = suits[state.lead_card(seat)]
    for which in (CHAFF_BID, BATTLE_CARD):
        for card in state.seat_zone(seat, which).cards:
            if suits[card] == lead_suit:
                return 0
    return 1


def seen_copies(state: DivvyState, seat: int) -> vec[i64]:
    """Per card, the copies ``seat`` can see: its own hand, both lead fighters,
    the treasure row, won treasure and the face-up discard pile (so the
    opponent's hand holds only cards beyond these)."""
    seen = filled(0, len(state.config.copies))
    for card in state.hand(seat):
        seen[card] += 1
    for any_seat in (0, 1):
        lead = state.lead_card(any_seat)
        if lead >= 0:
            seen[lead] += 1
        for card in state.seat_zone(any_seat, WON_TREASURE).cards:
            seen[card] += 1
    for zone in (TREASURE_ROW, DISCARD_PILE):
        for card in state.zones[zone].cards:
            seen[card] += 1
    return seen


def strongest_possible(state: DivvyState, seat: int) -> int:
    """The opponent's highest possible Fighter Strength: its lead fighter plus
    the strongest unseen cards of its suit, as many as its hand holds."""
    config, other = state.config, 1 - seat
    values, copies = config.values, config.copies
    other_lead = state.lead_card(other)
    seen = seen_copies(state, seat)
    room = len(state.hand(other))
    strength = values[other_lead]
    for card in config.suit_cards_strongest_first[config.suits[other_lead]]:
        if room <= 0:
            break
        unseen = min(copies[card] - seen[card], room)
        if unseen > 0:
            strength += unseen * values[card]
            room -= unseen
    return strength


def _strength(lead_value: int, position_values: list[int], mask: int) -> int:
    """The lead's value plus the values at ``mask``'s hand positions."""
    strength = lead_value
    while mask:
        lowest = mask & -mask
        strength += position_values[lowest.bit_length() - 1]
        mask ^= lowest
    return strength


def reinforce_mask(state: DivvyState, seat: int, legal_masks: list[int]) -> int:
    """Every same-suit card, unless the outcome is certain: no one when the
    round cannot be won or tied, the cheapest sure win when one exists
    (``legal_masks``: the legal answers' hand masks)."""
    values = state.config.values
    position_values = [values[card] for card in state.hand(seat)]
    every_card = legal_masks[-1]  # submasks are sorted: the last is every same-suit card
    lead = values[state.lead_card(seat)]
    if _strength(lead, position_values, every_card) < values[state.lead_card(1 - seat)]:
        return 0  # lost whatever it sends: keep the cards for a later round
    best_other = strongest_possible(state, seat)
    # The cheapest sure win (least strength, then fewest cards; the first on a tie).
    cheapest, cheapest_strength, cheapest_cards = -1, 0, 0
    for mask in legal_masks:
        strength = _strength(lead, position_values, mask)
        if strength <= best_other:
            continue
        cards = mask.bit_count()
        if cheapest < 0 or strength < cheapest_strength or (strength == cheapest_strength and cards < cheapest_cards):
            cheapest, cheapest_strength, cheapest_cards = mask, strength, cards
    return every_card if cheapest < 0 else cheapest
