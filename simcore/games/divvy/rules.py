"""Divvy the Loot: the rules (see RULES.md beside this file).

Two players, five rounds. Each round: simultaneous lead fighters, a face-down
chaff bid, a simultaneous brawl decided by icons (shield > sword > scroll >
shield), replacement and bonus draws for the brawl winner, simultaneous
same-suit reinforcements, and the treasure row to the stronger fighter.

Simultaneous choices are taken seat 0 first, then seat 1, and revealed only
when both are in: the first choice waits in ``pending`` and is part of no
observation but its owner's.

Actions are small integers whose meaning depends on the phase:

- ``LEAD``, ``BRAWL``: a position in the acting player's hand;
- ``CHAFF``, ``REINFORCE``, ``DISCARD``: a bit mask over hand positions;
- ``REPLACE``: 1 to replace the placed cards by new draws, 0 to take them back.

All mutation of a state happens in ``DivvyState`` methods; the module-level
helpers are pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Final

from simcore.api import CardColumns, GameInfo, GameState, TraceSink, ranks_from_scores
from simcore.parameters import ParameterError
from simcore.rng import Generator
from simcore.seeding import make_rng

SHIELD, SWORD, SCROLL = 0, 1, 2
ICON_NAMES = ("shield", "sword", "scroll")

# Final: the compiled core inlines them (a plain module name is a dictionary look-up at every use).
DISCARD: Final = 0
LEAD: Final = 1
CHAFF: Final = 2
BRAWL: Final = 3
REPLACE: Final = 4
REINFORCE: Final = 5
OVER: Final = 6
PHASE_NAMES = ("discard", "lead", "chaff", "brawl", "replace", "reinforce", "over")
SIMULTANEOUS_PHASES = (LEAD, CHAFF, BRAWL, REINFORCE)
"""Phases whose two choices are revealed together (``rewind_simultaneous_move``)."""

END_ROUNDS = "rounds_complete"
END_DECK = "deck_exhausted"

# ``played``: led, brawled or sent as a reinforcement (a bid or a hand-limit
# discard is not a play); ``playable``: steps at which the player to act could
# have played the card (``note_offered``).
CARD_COUNTERS = ("in_opening_hand", "drawn", "played", "won_as_treasure", "playable")
_OPENING, _DRAWN, _PLAYED, _TREASURE, _PLAYABLE = range(5)

DATA_FILE = Path(__file__).with_name("cards.toml")

INFO = GameInfo(
    id="divvy",
    name="Divvy the Loot",
    min_players=2,
    max_players=2,
    description="Two gangs split the loot: lead fighters, chaff bids, icon brawls, reinforcements.",
    game_columns={
        "rounds_played": "int16",
        "unclaimed_coins": "int16",
        "deck_reshuffled": "bool",
    },
    card_counters=CARD_COUNTERS,
    faction_label="none",
)


def brawl_winner(icon_a: int, icon_b: int) -> int:
    """0 if icon_a wins, 1 if icon_b wins, -1 for a tie.

    Shield beats Sword, Sword beats Scroll, Scroll beats Shield: with the icons
    numbered 0, 1, 2 in that order, an icon beats the one numbered after it.
    """
    if icon_a == icon_b:
        return -1
    return 0 if icon_b == (icon_a + 1) % 3 else 1


# Legal-action tuples, made once per shape and kept: int-keyed dictionaries,
# which the compiled core reads faster than through functools.cache.
_POSITIONS: dict[int, tuple[int, ...]] = {}
_MASKS_WITH_SIZES: dict[int, tuple[int, ...]] = {}
_SUBMASKS: dict[int, tuple[int, ...]] = {}


def positions(count: int) -> tuple[int, ...]:
    """Actions choosing one of ``count`` hand positions."""
    found = _POSITIONS.get(count)
    if found is None:
        found = _POSITIONS[count] = tuple(range(count))
    return found


def masks_with_sizes(count: int, smallest: int, largest: int) -> tuple[int, ...]:
    """Bit masks over ``count`` positions with between smallest and largest bits set."""
    key = (count << 32) | (smallest << 16) | largest if smallest >= 0 and largest >= 0 else -1
    found = _MASKS_WITH_SIZES.get(key) if key >= 0 else None
    if found is None:
        masks = []
        for size in range(smallest, largest + 1):
            for chosen in combinations(range(count), size):
                masks.append(sum(1 << position for position in chosen))
        found = tuple(masks)
        if key >= 0:
            _MASKS_WITH_SIZES[key] = found
    return found


def submasks(mask: int) -> tuple[int, ...]:
    """Every subset of ``mask`` (the empty one first)."""
    found = _SUBMASKS.get(mask)
    if found is None:
        result = [0]
        sub = mask
        while sub:
            result.append(sub)
            sub = (sub - 1) & mask
        found = _SUBMASKS[mask] = tuple(sorted(result))
    return found


def split_by_mask(cards: list[int], mask: int) -> tuple[list[int], list[int]]:
    """(cards at the masked positions, the other cards), both in hand order."""
    chosen = [card for position, card in enumerate(cards) if mask >> position & 1]
    kept = [card for position, card in enumerate(cards) if not mask >> position & 1]
    return chosen, kept


@dataclass(frozen=True)
class DivvyConfig:
    """Compiled parameters: card attributes as tuples indexed by card id."""

    names: tuple[str, ...]
    suits: tuple[int, ...]
    suit_names: tuple[str, ...]
    values: tuple[int, ...]
    icons: tuple[int, ...]
    d20: tuple[int, ...]
    coins: tuple[int, ...]
    copies: tuple[int, ...]
    deck: tuple[int, ...]
    hand_size: int
    hand_limit: int
    rounds: int
    treasure_target: int
    min_chaff: int
    bonus_draw: int
    carry_over_ties: bool


def _require(condition: bool, path: str, expected: str) -> None:
    if not condition:
        raise ParameterError(path, expected)


def compile_config(parameters: Mapping[str, Any]) -> DivvyConfig:
    """Validate a resolved parameter tree and compile it; errors name the path."""
    rules = parameters["rules"]
    coin_values = rules["coin_values"]
    for key in ("hand_size", "hand_limit", "rounds", "treasure_target"):
        _require(rules[key] >= 1, f"rules.{key}", "expected an integer of at least 1")
    _require(rules["min_chaff"] >= 1, "rules.min_chaff", "expected at least 1 (the rulebook's minimum bid)")
    _require(
        rules["hand_limit"] >= rules["min_chaff"] + 2,
        "rules.hand_limit",
        "expected room for a lead fighter, the chaff bid and a brawl card (min_chaff + 2 or more)",
    )
    _require(
        rules["hand_size"] >= rules["min_chaff"] + 2,
        "rules.hand_size",
        "expected a first hand with room for a lead fighter, the chaff bid and a brawl card (min_chaff + 2 or more)",
    )
    _require(rules["bonus_draw"] >= 0, "rules.bonus_draw", "expected an integer of at least 0")
    _require(
        rules["tied_strength"] in ("carry_over", "discard"),
        "rules.tied_strength",
        "expected 'carry_over' or 'discard'",
    )
    names: list[str] = []
    suits: list[str] = []
    values, icons, d20s, coins, copies = [], [], [], [], []
    for name, card in parameters["cards"].items():
        path = f"cards.{name}"
        _require(card["icon"] in ICON_NAMES, f"{path}.icon", f"expected one of {', '.join(ICON_NAMES)}")
        _require(card["coin"] in coin_values, f"{path}.coin", f"expected one of {', '.join(coin_values)}")
        _require(1 <= card["d20"] <= 20, f"{path}.d20", "expected a d20 number from 1 to 20")
        _require(card["value"] >= 0, f"{path}.value", "expected a value of at least 0")
        _require(card["copies"] >= 0, f"{path}.copies", "expected at least 0 copies")
        names.append(name)
        suits.append(card["suit"])
        values.append(card["value"])
        icons.append(ICON_NAMES.index(card["icon"]))
        d20s.append(card["d20"])
        coins.append(coin_values[card["coin"]])
        copies.append(card["copies"])
    suit_names = tuple(dict.fromkeys(suits))
    deck = tuple(card for card, count in enumerate(copies) for _ in range(count))
    _require(
        len(deck) >= 2 * rules["hand_size"] + 1,
        "cards",
        f"expected a deck of at least {2 * rules['hand_size'] + 1} cards, got {len(deck)}",
    )
    return DivvyConfig(
        names=tuple(names),
        suits=tuple(suit_names.index(suit) for suit in suits),
        suit_names=suit_names,
        values=tuple(values),
        icons=tuple(icons),
        d20=tuple(d20s),
        coins=tuple(coins),
        copies=tuple(copies),
        deck=deck,
        hand_size=rules["hand_size"],
        hand_limit=rules["hand_limit"],
        rounds=rules["rounds"],
        treasure_target=rules["treasure_target"],
        min_chaff=rules["min_chaff"],
        bonus_draw=rules["bonus_draw"],
        carry_over_ties=rules["tied_strength"] == "carry_over",
    )


class DivvyState(GameState):
    """One game of Divvy the Loot in progress."""

    config: DivvyConfig
    rng: Generator
    trace: TraceSink | None
    phase: int
    current_player: int
    round: int
    draw_pile: list[int]
    discard_pile: list[int]
    reshuffled: bool
    hands: list[list[int]]
    treasure_row: list[int]
    won_treasure: list[list[int]]
    coin_totals: list[int]
    lead: list[int]
    chaff: list[list[int]]
    battle: list[int]
    pending: list[int]
    brawl_result: int
    reinforcements: list[list[int]]
    strengths: list[int]
    ended_by: str
    counters: list[list[list[int]]]
    first_played: list[dict[int, int]]

    # ----------------------------------------------------------------- set-up

    def __init__(self, config: DivvyConfig, rng: Generator, trace: TraceSink | None) -> None:
        self.n_players = 2
        self.config = config
        self.rng = rng
        self.trace = trace
        self.phase = LEAD
        self.current_player = 0
        self.round = 1
        self.draw_pile = []
        self.discard_pile = []
        self.reshuffled = False
        self.hands = [[], []]
        self.treasure_row = []
        self.won_treasure = [[], []]
        self.coin_totals = [0, 0]
        self.lead = [-1, -1]
        self.chaff = [[], []]
        self.battle = [-1, -1]
        self.pending = [-1, -1]
        self.brawl_result = -1
        self.reinforcements = [[], []]
        self.strengths = [0, 0]
        self.ended_by = ""
        n_cards = len(config.names)
        self.counters = [[[0] * n_cards for _ in CARD_COUNTERS] for _ in range(2)]
        self.first_played = [{}, {}]

    @staticmethod
    def new_game(config: DivvyConfig, seed: int, trace: TraceSink | None) -> DivvyState:
        """Shuffle, deal, reveal the first treasure and wait for the first choice."""
        state = DivvyState(config, make_rng(seed), trace)
        state.draw_pile = list(config.deck)
        state.rng.shuffle(state.draw_pile)
        if trace is not None:
            state._emit("setup", f"deck of {len(state.draw_pile)} cards shuffled")
        # Set-up order for the first round: deal, then reveal treasure.
        if not state._deal() or not state._reveal_treasure():
            state._end(END_DECK)
            return state
        for seat in (0, 1):
            opening = state.counters[seat][_OPENING]
            for card in state.hands[seat]:
                opening[card] += 1
        state._start_choices()
        return state

    # ------------------------------------------------------------ public API

    def legal_actions(self) -> Sequence[int]:
        """The current player's legal actions (see the module docstring)."""
        return self._legal_for(self.current_player)

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player."""
        phase = self.phase
        seat = self.current_player
        if phase == REPLACE:
            self._resolve_replacement(action)
            return
        if phase == DISCARD:
            self._discard(seat, action)
            return
        self.pending[seat] = action
        if seat == 0:
            self.current_player = 1
            return
        if phase == LEAD:
            self._reveal_leads()
        elif phase == CHAFF:
            self._place_chaff()
        elif phase == BRAWL:
            self._reveal_brawl()
        else:
            self._reveal_reinforcements()

    def rewind_simultaneous_move(self) -> int:
        """Lead, chaff, brawl and reinforcements are simultaneous moves of two
        steps (seat 0, then seat 1): take back seat 0's hidden choice, if it
        is in, and return 2; 0 in the other phases (see ``GameState``)."""
        if self.phase not in SIMULTANEOUS_PHASES:
            return 0
        self.pending[0] = -1
        self.current_player = 0
        return 2

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Count the cards the player to act could play now, once per card:
        every hand card for a lead fighter or a brawl card, the hand cards of
        the lead's suit for reinforcements."""
        phase = self.phase
        if phase != LEAD and phase != BRAWL and phase != REINFORCE:
            return
        seat = self.current_player
        suits = self.config.suits
        lead_suit = suits[self.lead[seat]] if phase == REINFORCE else -1
        playable = self.counters[seat][_PLAYABLE]
        counted: list[int] = []
        for card in self.hands[seat]:
            if (lead_suit < 0 or suits[card] == lead_suit) and card not in counted:
                counted.append(card)
                playable[card] += 1

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        return self.phase == OVER

    def winners(self) -> list[int]:
        """The player with the most coins; nobody when the coins are tied."""
        first, second = self.coin_totals
        if first == second:
            return []
        return [0] if first > second else [1]

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the loser, 0.5 each for a tie."""
        winners = self.winners()
        if not winners:
            return [0.5, 0.5]
        return [1.0 if seat in winners else 0.0 for seat in (0, 1)]

    def scores(self) -> list[int]:
        """Coins won: copper 1, silver 2, gold 3 (by default)."""
        return list(self.coin_totals)

    def ranks(self) -> list[int]:
        """1 for the richer player; 1 and 1 on a tie."""
        return ranks_from_scores(self.coin_totals)

    def factions(self) -> list[str | None]:
        """Divvy has no factions."""
        return [None, None]

    def end_reason(self) -> str:
        """``rounds_complete`` or ``deck_exhausted``."""
        return self.ended_by

    def turns(self) -> int:
        """Rounds completed."""
        return self.round if self.ended_by == END_ROUNDS else self.round - 1

    def game_columns(self) -> dict[str, Any]:
        """Rounds played, coins left unclaimed in the row, whether the deck was reshuffled."""
        coins = self.config.coins
        return {
            "rounds_played": self.turns(),
            "unclaimed_coins": sum(coins[card] for card in self.treasure_row),
            "deck_reshuffled": self.reshuffled,
        }

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per card each seat held or won as treasure."""
        names, copies = self.config.names, self.config.copies
        columns.names = names
        opening_column, drawn_column, played_column, treasure_column, playable_column = columns.counters
        for seat in (0, 1):
            opening, drawn, played, treasure, playable = self.counters[seat]
            first_played = self.first_played[seat]
            for card in range(len(names)):
                if drawn[card] or treasure[card]:
                    columns.seat.append(seat)
                    columns.card.append(card)
                    columns.copies.append(copies[card])
                    opening_column.append(opening[card])
                    drawn_column.append(drawn[card])
                    played_column.append(played[card])
                    treasure_column.append(treasure[card])
                    playable_column.append(playable[card])
                    columns.first_played_turn.append(first_played.get(card, -1))

    def observation(self, seat: int) -> tuple[Any, ...]:
        """All ``seat`` can see: its own cards and choices, everything face up,
        and only the sizes of the opponent's hand, face-down bid and the pile."""
        other = 1 - seat
        own_pending = self.pending[seat]
        return (
            self.phase, self.current_player, self.round, self.reshuffled,
            tuple(self.hands[seat]), len(self.hands[other]),
            tuple(self.chaff[seat]), len(self.chaff[other]),
            own_pending, self.pending[other] >= 0,
            tuple(self.lead), tuple(self.battle), self.brawl_result,
            tuple(map(tuple, self.reinforcements)), tuple(self.strengths),
            tuple(self.treasure_row), tuple(map(tuple, self.won_treasure)),
            tuple(self.coin_totals), tuple(self.discard_pile), len(self.draw_pile),
            self.ended_by,
        )

    def resample_hidden(self, seat: int, rng: Generator) -> DivvyState:
        """A copy in which the opponent's hand, face-down bid, unrevealed choice
        and the draw pile's order are drawn again from the cards ``seat``
        cannot see; everything in ``observation(seat)`` is kept."""
        copy = self.clone()
        # Future chance (reshuffles, later draws) is hidden too: the copy gets
        # its own generator, so no search can foresee the real game's shuffles.
        copy.rng = Generator(rng.next_u32() << 32 | rng.next_u32())
        other = 1 - seat
        hidden = copy.hands[other] + copy.chaff[other] + copy.draw_pile
        # Sorted first, so the copy depends only on what ``seat`` sees and on
        # ``rng``, not on where the hidden cards really are (seat-honest search).
        hidden.sort()
        rng.shuffle(hidden)
        hand_size, chaff_size = len(copy.hands[other]), len(copy.chaff[other])
        copy.hands[other] = hidden[:hand_size]
        copy.chaff[other] = hidden[hand_size:hand_size + chaff_size]
        copy.draw_pile = hidden[hand_size + chaff_size:]
        if copy.pending[other] >= 0:
            choices = copy._legal_for(other)
            copy.pending[other] = choices[rng.below(len(choices))]
        return copy

    def clone(self) -> DivvyState:
        """An exact copy with its own generator state and tracing off."""
        copy = DivvyState(self.config, self.rng.copy(), None)
        copy.phase = self.phase
        copy.current_player = self.current_player
        copy.round = self.round
        copy.draw_pile = list(self.draw_pile)
        copy.discard_pile = list(self.discard_pile)
        copy.reshuffled = self.reshuffled
        copy.hands = [list(hand) for hand in self.hands]
        copy.treasure_row = list(self.treasure_row)
        copy.won_treasure = [list(pile) for pile in self.won_treasure]
        copy.coin_totals = list(self.coin_totals)
        copy.lead = list(self.lead)
        copy.chaff = [list(cards) for cards in self.chaff]
        copy.battle = list(self.battle)
        copy.pending = list(self.pending)
        copy.brawl_result = self.brawl_result
        copy.reinforcements = [list(cards) for cards in self.reinforcements]
        copy.strengths = list(self.strengths)
        copy.ended_by = self.ended_by
        copy.counters = [[list(counter) for counter in seat] for seat in self.counters]
        copy.first_played = [dict(seat) for seat in self.first_played]
        return copy

    def describe_action(self, action: int) -> str:
        """The action in words, e.g. ``lead Axes 7`` or ``bid Bows 2, Staves 9``."""
        seat, phase = self.current_player, self.phase
        hand = self.hands[seat] if seat >= 0 else []
        if phase == REPLACE:
            return "replace the placed cards" if action else "take the placed cards back"
        if phase in (LEAD, BRAWL):
            return f"{PHASE_NAMES[phase]} {self.card_name(hand[action])}"
        chosen, _ = split_by_mask(hand, action)
        listed = ", ".join(self.card_name(card) for card in chosen) or "nothing"
        verb = {CHAFF: "bid", REINFORCE: "reinforce with", DISCARD: "discard"}[phase]
        return f"{verb} {listed}"

    def card_name(self, card: int) -> str:
        """Readable card name, e.g. ``axes_7 (7 shield, d20 13, silver)``."""
        config = self.config
        coin = {1: "copper", 2: "silver", 3: "gold"}.get(config.coins[card], f"{config.coins[card]} coins")
        return (
            f"{config.names[card]} ({config.values[card]} {ICON_NAMES[config.icons[card]]}, "
            f"d20 {config.d20[card]}, {coin})"
        )

    # ------------------------------------------------------------- internals

    def _legal_for(self, seat: int) -> Sequence[int]:
        phase = self.phase
        hand_size = len(self.hands[seat])
        if phase in (LEAD, BRAWL):
            return positions(hand_size)
        if phase == CHAFF:
            # At least min_chaff cards, and one card left in hand for the brawl.
            return masks_with_sizes(hand_size, self.config.min_chaff, hand_size - 1)
        if phase == REINFORCE:
            suits = self.config.suits
            lead_suit = suits[self.lead[seat]]
            matching = 0
            for position, card in enumerate(self.hands[seat]):
                if suits[card] == lead_suit:
                    matching |= 1 << position
            return submasks(matching)
        if phase == REPLACE:
            return (1, 0)
        if phase == DISCARD:
            excess = hand_size - self.config.hand_limit
            return masks_with_sizes(hand_size, excess, excess)
        return ()

    def _emit(self, kind: str, text: str, **data: Any) -> None:
        assert self.trace is not None
        self.trace({"turn": self.round, "type": kind, "text": text, **data})

    def _draw(self) -> int:
        """Top card of the draw pile, reshuffling the discards once; -1 if none."""
        if not self.draw_pile:
            if self.reshuffled or not self.discard_pile:
                return -1
            self.reshuffled = True
            self.draw_pile = self.discard_pile
            self.discard_pile = []
            self.rng.shuffle(self.draw_pile)
            if self.trace is not None:
                self._emit("reshuffle", f"discard pile of {len(self.draw_pile)} shuffled into a new draw pile")
        return self.draw_pile.pop()

    def _draw_into_hand(self, seat: int, count: int) -> int:
        """Draw up to ``count`` cards into ``seat``'s hand; return how many came."""
        hand, drawn = self.hands[seat], self.counters[seat][_DRAWN]
        for done in range(count):
            card = self._draw()
            if card < 0:
                return done
            hand.append(card)
            drawn[card] += 1
        return count

    def _deal(self) -> bool:
        """Deal hand_size cards to each player, one at a time; False if the pile ran out."""
        for _ in range(self.config.hand_size):
            for seat in (0, 1):
                if not self._draw_into_hand(seat, 1):
                    return False
        if self.trace is not None:
            for seat in (0, 1):
                self._emit("deal", f"seat {seat} now holds " + ", ".join(map(self.card_name, self.hands[seat])),
                           seat=seat, hand=[self.config.names[c] for c in self.hands[seat]])
        return True

    def _reveal_treasure(self) -> bool:
        """Reveal cards until this reveal's d20 total reaches the target.

        False when the pile runs out first: set-up failed. The cards already
        turned over stay face up in the row, unclaimed."""
        d20, total = self.config.d20, 0
        revealed: list[int] = []
        while total < self.config.treasure_target:
            card = self._draw()
            if card < 0:
                self.treasure_row.extend(revealed)
                return False
            revealed.append(card)
            total += d20[card]
        self.treasure_row.extend(revealed)
        if self.trace is not None:
            self._emit("treasure", f"revealed {', '.join(map(self.card_name, revealed))} (d20 total {total})",
                       cards=[self.config.names[c] for c in revealed])
        return True

    def _start_choices(self) -> None:
        """Hand-limit discards first (seat 0, then 1), then the lead fighters."""
        limit = self.config.hand_limit
        for seat in (0, 1):
            if len(self.hands[seat]) > limit:
                self.phase = DISCARD
                self.current_player = seat
                return
        self.phase = LEAD
        self.current_player = 0

    def _discard(self, seat: int, mask: int) -> None:
        discarded, kept = split_by_mask(self.hands[seat], mask)
        self.hands[seat] = kept
        self.discard_pile.extend(discarded)
        if self.trace is not None:
            self._emit("discard", f"seat {seat} discards {', '.join(map(self.card_name, discarded))} to the hand limit",
                       seat=seat, cards=[self.config.names[c] for c in discarded])
        self._start_choices()

    def _mark_played(self, seat: int, card: int) -> None:
        self.counters[seat][_PLAYED][card] += 1
        self.first_played[seat].setdefault(card, self.round)

    def _reveal_leads(self) -> None:
        for seat in (0, 1):
            card = self.hands[seat].pop(self.pending[seat])
            self.lead[seat] = card
            self._mark_played(seat, card)
            self.pending[seat] = -1
        if self.trace is not None:
            for seat in (0, 1):
                self._emit("lead", f"seat {seat} leads with {self.card_name(self.lead[seat])}",
                           seat=seat, card=self.config.names[self.lead[seat]])
        self.phase = CHAFF
        self.current_player = 0

    def _place_chaff(self) -> None:
        for seat in (0, 1):
            self.chaff[seat], self.hands[seat] = split_by_mask(self.hands[seat], self.pending[seat])
            self.pending[seat] = -1
        if self.trace is not None:
            for seat in (0, 1):
                self._emit("chaff", f"seat {seat} bids {len(self.chaff[seat])} card(s) face down: "
                           + ", ".join(map(self.card_name, self.chaff[seat])),
                           seat=seat, cards=[self.config.names[c] for c in self.chaff[seat]])
        self.phase = BRAWL
        self.current_player = 0

    def _reveal_brawl(self) -> None:
        for seat in (0, 1):
            card = self.hands[seat].pop(self.pending[seat])
            self.battle[seat] = card
            self._mark_played(seat, card)
            self.pending[seat] = -1
        icons = self.config.icons
        winner = brawl_winner(icons[self.battle[0]], icons[self.battle[1]])
        self.brawl_result = winner
        if self.trace is not None:
            outcome = "a tie" if winner < 0 else f"won by seat {winner}"
            self._emit("brawl", f"seat 0 fights with {self.card_name(self.battle[0])}, seat 1 with "
                       f"{self.card_name(self.battle[1])}: {outcome}",
                       cards=[self.config.names[c] for c in self.battle], winner=winner)
        for seat in (0, 1):
            if seat != winner:
                self._take_back_placed(seat)
        if winner < 0:
            self._start_reinforcements()
        else:
            self.phase = REPLACE
            self.current_player = winner

    def _take_back_placed(self, seat: int) -> None:
        """The loser (and both players on a tie) keep their bid and battle card."""
        self.hands[seat].extend(self.chaff[seat])
        self.hands[seat].append(self.battle[seat])
        self.chaff[seat] = []

    def _resolve_replacement(self, replace: int) -> None:
        winner = self.current_player
        placed = self.chaff[winner] + [self.battle[winner]]
        if replace:
            self.chaff[winner] = []
            self.discard_pile.extend(placed)
            drawn = self._draw_into_hand(winner, len(placed))
            if self.trace is not None:
                self._emit("replace", f"seat {winner} replaces {len(placed)} placed card(s), draws {drawn}",
                           seat=winner, drawn=drawn)
        else:
            self._take_back_placed(winner)
            if self.trace is not None:
                self._emit("replace", f"seat {winner} takes its {len(placed)} placed card(s) back",
                           seat=winner, drawn=0)
        icons = self.config.icons
        if icons[self.battle[winner]] == icons[self.treasure_row[-1]] and self.config.bonus_draw:
            drawn = self._draw_into_hand(winner, self.config.bonus_draw)
            if self.trace is not None:
                self._emit("bonus", f"seat {winner}'s {ICON_NAMES[icons[self.battle[winner]]]} matches the last "
                           f"treasure card: draws {drawn} extra", seat=winner, drawn=drawn)
        self._start_reinforcements()

    def _start_reinforcements(self) -> None:
        self.phase = REINFORCE
        self.current_player = 0

    def _reveal_reinforcements(self) -> None:
        values = self.config.values
        for seat in (0, 1):
            chosen, self.hands[seat] = split_by_mask(self.hands[seat], self.pending[seat])
            self.pending[seat] = -1
            self.reinforcements[seat] = chosen
            for card in chosen:
                self._mark_played(seat, card)
            self.strengths[seat] = values[self.lead[seat]] + sum(values[card] for card in chosen)
        if self.trace is not None:
            for seat in (0, 1):
                added = ", ".join(map(self.card_name, self.reinforcements[seat])) or "no one"
                self._emit("reinforce", f"seat {seat} sends {added}: Fighter Strength {self.strengths[seat]}",
                           seat=seat, cards=[self.config.names[c] for c in self.reinforcements[seat]],
                           strength=self.strengths[seat])
        self._settle_score()

    def _settle_score(self) -> None:
        first, second = self.strengths
        if first != second:
            winner = 0 if first > second else 1
            coins = self.config.coins
            treasure = self.treasure_row
            self.coin_totals[winner] += sum(coins[card] for card in treasure)
            self.won_treasure[winner].extend(treasure)
            won = self.counters[winner][_TREASURE]
            for card in treasure:
                won[card] += 1
            if self.trace is not None:
                self._emit("treasure_won", f"seat {winner} wins {len(treasure)} treasure card(s) worth "
                           f"{sum(coins[card] for card in treasure)}; coins now {self.coin_totals}",
                           seat=winner, coins=list(self.coin_totals))
            self.treasure_row = []
        elif not self.config.carry_over_ties:
            self.discard_pile.extend(self.treasure_row)
            self.treasure_row = []
        elif self.trace is not None:
            self._emit("treasure_stays", "Fighter Strength tied: the treasure stays for the next round")
        for seat in (0, 1):
            self.discard_pile.append(self.lead[seat])
            self.discard_pile.extend(self.reinforcements[seat])
            self.lead[seat] = -1
            self.battle[seat] = -1
            self.reinforcements[seat] = []
            self.strengths[seat] = 0
        self.brawl_result = -1
        if self.round >= self.config.rounds:
            self._end(END_ROUNDS)
            return
        self.round += 1
        # Later rounds: reveal treasure first, then deal (the rulebook's order).
        if not self._reveal_treasure() or not self._deal():
            self._end(END_DECK)
            return
        self._start_choices()

    def _end(self, reason: str) -> None:
        self.phase = OVER
        self.current_player = -1
        self.ended_by = reason
        if self.trace is not None:
            self._emit("game_over", f"game over ({reason}): coins {self.coin_totals}", reason=reason,
                       coins=list(self.coin_totals), winners=self.winners())
