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
from simcore.rng import Generator

SUIT_PARTNER_WORTH = 3


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
            masks = [HAND_MASK.value(action) for action in legal_actions]
            return HAND_MASK.encode(reinforce_mask(state, seat, masks))
        if phase == REPLACE:
            return REPLACEMENT.encode(replace_choice(state, seat))
        if phase == DISCARD:
            return HAND_MASK.encode(discard_mask(state, seat, len(state.hand(seat)) - state.config.hand_limit))
        return legal_actions[0]


def keep_worth(state: DivvyState, hand: Sequence[int]) -> list[int]:
    """Each card's worth for keeping: value plus a bonus per same-suit partner."""
    suits, values = state.config.suits, state.config.values
    suit_count: dict[int, int] = {}
    for card in hand:
        suit_count[suits[card]] = suit_count.get(suits[card], 0) + 1
    return [values[card] + SUIT_PARTNER_WORTH * (suit_count[suits[card]] - 1) for card in hand]


def discard_mask(state: DivvyState, seat: int, excess: int) -> int:
    """Discard the ``excess`` cards of least keeping worth."""
    worth = keep_worth(state, state.hand(seat))
    order = sorted(range(len(worth)), key=lambda position: (worth[position], position))
    return sum(1 << position for position in order[:excess])


def lead_position(state: DivvyState, seat: int) -> int:
    """The card with the highest value plus same-suit backing."""
    suits, values = state.config.suits, state.config.values
    hand = state.hand(seat)
    backing: dict[int, int] = {}
    for card in hand:
        backing[suits[card]] = backing.get(suits[card], 0) + values[card]
    return max(range(len(hand)), key=lambda position: (backing[suits[hand[position]]], values[hand[position]]))


def _brawl_pick(state: DivvyState, seat: int, candidates: Sequence[int]) -> int:
    """Among hand positions ``candidates``: prefer off-suit, the bonus icon, low value."""
    config = state.config
    hand = state.hand(seat)
    lead_suit = config.suits[state.lead_card(seat)]
    bonus_icon = config.icons[state.zones[TREASURE_ROW].cards[-1]]

    def preference(position: int) -> tuple[bool, bool, int]:
        card = hand[position]
        return (config.suits[card] == lead_suit, config.icons[card] != bonus_icon, config.values[card])

    return min(candidates, key=preference)


def chaff_mask(state: DivvyState, seat: int) -> int:
    """Bid every off-suit card but the brawl card; at least the weakest card."""
    config = state.config
    hand = state.hand(seat)
    lead_suit = config.suits[state.lead_card(seat)]
    all_positions = range(len(hand))
    fighter = _brawl_pick(state, seat, all_positions)
    bid = [p for p in all_positions if p != fighter and config.suits[hand[p]] != lead_suit]
    if len(bid) < config.min_chaff:
        spare = sorted((p for p in all_positions if p != fighter and p not in bid),
                       key=lambda p: config.values[hand[p]])
        bid += spare[: config.min_chaff - len(bid)]
    return sum(1 << position for position in bid)


def brawl_position(state: DivvyState, seat: int) -> int:
    """The brawl card chosen by the preference above."""
    return _brawl_pick(state, seat, range(len(state.hand(seat))))


def replace_choice(state: DivvyState, seat: int) -> int:
    """1 (replace) unless a placed card shares the lead fighter's suit."""
    suits = state.config.suits
    lead_suit = suits[state.lead_card(seat)]
    placed = state.seat_zone(seat, CHAFF_BID).cards + state.seat_zone(seat, BATTLE_CARD).cards
    return 0 if any(suits[card] == lead_suit for card in placed) else 1


def unseen_cards(state: DivvyState, seat: int) -> list[int]:
    """Copies of each card ``seat`` cannot see anywhere: the deck less its own
    hand, both lead fighters, the treasure row, won treasure and the face-up
    discard pile (so the opponent's hand is among them)."""
    counts = list(state.config.copies)
    visible = [*state.hand(seat), state.lead_card(0), state.lead_card(1), *state.zones[TREASURE_ROW].cards,
               *state.seat_zone(0, WON_TREASURE).cards, *state.seat_zone(1, WON_TREASURE).cards,
               *state.zones[DISCARD_PILE].cards]
    for card in visible:
        if card >= 0:
            counts[card] -= 1
    return counts


def strongest_possible(state: DivvyState, seat: int) -> int:
    """The opponent's highest possible Fighter Strength: its lead fighter plus
    the strongest unseen cards of its suit, as many as its hand holds."""
    config, other = state.config, 1 - seat
    suit = config.suits[state.lead_card(other)]
    counts = unseen_cards(state, seat)
    candidates = sorted((config.values[card] for card in range(len(counts)) if config.suits[card] == suit
                         for _ in range(max(counts[card], 0))), reverse=True)
    return config.values[state.lead_card(other)] + sum(candidates[:len(state.hand(other))])


def reinforce_mask(state: DivvyState, seat: int, legal_masks: Sequence[int]) -> int:
    """Every same-suit card, unless the outcome is certain: no one when the
    round cannot be won or tied, the cheapest sure win when one exists
    (``legal_masks``: the legal answers' hand masks)."""
    values, hand = state.config.values, state.hand(seat)
    every_card = legal_masks[-1]  # submasks are sorted: the last is every same-suit card
    lead = values[state.lead_card(seat)]

    def strength(mask: int) -> int:
        return lead + sum(values[card] for position, card in enumerate(hand) if mask >> position & 1)

    if strength(every_card) < values[state.lead_card(1 - seat)]:
        return 0  # lost whatever it sends: keep the cards for a later round
    best_other = strongest_possible(state, seat)
    sure_wins = [mask for mask in legal_masks if strength(mask) > best_other]
    if not sure_wins:
        return every_card
    return min(sure_wins, key=lambda mask: (strength(mask), mask.bit_count()))
