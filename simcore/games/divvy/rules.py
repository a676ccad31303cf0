"""Divvy the Loot: the rules (see RULES.md beside this file).

Two players, five rounds. Each round: simultaneous lead fighters, a face-down
chaff bid, a simultaneous brawl decided by icons (shield > sword > scroll >
shield), replacement and bonus draws for the brawl winner, simultaneous
same-suit reinforcements, and the treasure row to the stronger fighter.

Built with the game kit (``simcore.kit``): every card is in a zone, each
phase is a task kind on the decision stack, the counters are one
``CardStats``. Simultaneous choices are taken seat 0 first, then seat 1, and
revealed only when both are in: the first choice waits in
``Decisions.committed`` and is part of no observation but its owner's.

The answer to each task kind is of one action type (``ANSWER_TYPES``):

- ``LEAD``, ``BRAWL``: ``HAND_POSITION``, a position in the acting player's hand;
- ``CHAFF``, ``REINFORCE``, ``DISCARD``: ``HAND_MASK``, a bit mask over hand positions;
- ``REPLACE``: ``REPLACEMENT``, 1 to replace the placed cards by new draws, 0 to take them back.

All three are value-only types of code 0, so an answer is its value (the
actions of the engine before the kit, kept so that seeded games stay the
same); agents build them with ``encode`` and read them with ``value``.

Compiled with mypyc; docs/development/compiled-style.md says why the code is
written as it is (``Final`` constants, ``elif`` dispatch, ``i64``, plain loops,
native vectors, bit masks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Final

from mypy_extensions import i64

from simcore.api import CardColumns, GameInfo, TraceSink, ranks_from_scores
from simcore.kit.cardstats import CardStats
from simcore.kit.decisions import FIELD_BITS, NO_CHOICE, ActionType, Task, TaskKinds
from simcore.kit.state import SeatZonesState
from simcore.kit.zones import HIDDEN, OWNER_ONLY, PUBLIC, TABLE, Zone, move_all, move_card, move_masked
from simcore.parameters import COPIES, Constraint, require
from simcore.rng import Generator
from simcore.seeding import make_rng

SHIELD: Final = 0
SWORD: Final = 1
SCROLL: Final = 2
ICON_NAMES = ("shield", "sword", "scroll")

# The task kinds, one per phase, registered in the order of the engine's old
# phase numbers (so ``phase`` keeps its values).
TASKS: Final = TaskKinds()
DISCARD: Final = TASKS.add("discard")  # the task's seat is over the hand limit
LEAD: Final = TASKS.add("lead")
CHAFF: Final = TASKS.add("chaff")
BRAWL: Final = TASKS.add("brawl")
REPLACE: Final = TASKS.add("replace")  # the task's seat won the brawl
REINFORCE: Final = TASKS.add("reinforce")
OVER: Final = 6
"""``phase`` of a finished game (no task)."""
PHASE_NAMES = ("discard", "lead", "chaff", "brawl", "replace", "reinforce", "over")
SIMULTANEOUS_PHASES: Final = (LEAD, CHAFF, BRAWL, REINFORCE)
"""Phases whose two choices are revealed together (``rewind_simultaneous_move``)."""

# The ready-made task of each kind and seat (``kind * 2 + seat``): tasks are
# immutable, so one object per (kind, seat) serves every game and clone.
_TASK_OF: Final = [Task(kind, seat) for kind in range(len(TASKS.names)) for seat in (0, 1)]

# The answers. One field of 24 bits and code 0 each: an answer is its value.
HAND_POSITION: Final = ActionType(0, "hand position", ("position",), (FIELD_BITS,))
HAND_MASK: Final = ActionType(0, "hand mask", ("mask",), (FIELD_BITS,))
REPLACEMENT: Final = ActionType(0, "replace", ("replace",), (FIELD_BITS,))
ANSWER_TYPES: Final = (HAND_MASK, HAND_POSITION, HAND_MASK, HAND_POSITION, REPLACEMENT, HAND_MASK)
"""The action type of each task kind's answers, by kind."""

END_ROUNDS: Final = "rounds_complete"
END_DECK: Final = "deck_exhausted"

# The zones: three on the table, then six per seat (``seat_zone``).
DRAW_PILE: Final = 0
DISCARD_PILE: Final = 1
TREASURE_ROW: Final = 2
FIRST_SEAT_ZONE: Final = 3
HAND: Final = 0
CHAFF_BID: Final = 1
LEAD_FIGHTER: Final = 2
BATTLE_CARD: Final = 3  # holds the brawl winner's card while it decides on the replacement
REINFORCEMENTS: Final = 4
WON_TREASURE: Final = 5
ZONES_PER_SEAT: Final = 6

# Table numbers and seat numbers (all public).
ROUND: Final = 0
RESHUFFLED: Final = 1  # 1 once the discard pile was shuffled into a new draw pile
BRAWL_RESULT: Final = 2  # the brawl winner, -1 for a tie or no brawl yet
NUMBER_NAMES: Final = ("round", "discard pile reshuffled", "brawl result")
BATTLE_RECORD: Final = 0  # the seat's brawl card this round, -1 for none: a face-up record that outlives the zone
STRENGTH: Final = 1  # Fighter Strength, once the reinforcements are revealed
COINS: Final = 2
SEAT_NUMBER_NAMES: Final = ("brawl card", "Fighter Strength", "coins")

# ``played``: led, brawled or sent as a reinforcement (a bid or a hand-limit
# discard is not a play); ``playable``: steps at which the player to act could
# have played the card (``note_offered``).
CARD_COUNTERS = ("in_opening_hand", "drawn", "played", "won_as_treasure", "playable")
_OPENING: Final = 0
_DRAWN: Final = 1
_PLAYED: Final = 2
_TREASURE: Final = 3
_PLAYABLE: Final = 4
_ROW_COUNTERS: Final = (_DRAWN, _TREASURE)
"""A card gets a row in the ``cards`` table when its seat drew it or won it as treasure."""

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
    column_descriptions={
        "rounds_played": "Rounds completed (the same as `turns`): `rules.rounds` (5) unless the deck ran out first.",
        "unclaimed_coins": "Coins (Copper 1, Silver 2, Gold 3) of the treasure still in the row when the game "
                           "ended, won by nobody.",
        "deck_reshuffled": "The discard pile was shuffled into a new draw pile (it happens at most once a game).",
        "in_opening_hand": "Copies of the card in the seat's first hand (the first deal).",
        "drawn": "Copies the seat drew: dealt (the opening hand included), replacement and bonus draws.",
        "played": "Times the seat played the card: led, sent into the brawl or sent as a reinforcement "
                  "(chaff bids and hand-limit discards are no plays).",
        "won_as_treasure": "Copies of the card the seat won as treasure.",
        "playable": "Steps at which the seat could have played the card (its lead and brawl choices: any hand "
                    "card; reinforcements: the lead's suit), once per card per step, forced steps included.",
    },
)

CONSTRAINTS = (
    *(Constraint(f"rules.{key}", minimum=1, expected="expected an integer of at least 1")
      for key in ("hand_size", "hand_limit", "rounds", "treasure_target")),
    Constraint("rules.min_chaff", minimum=1, expected="expected at least 1 (the rulebook's minimum bid)"),
    Constraint("rules.bonus_draw", minimum=0, expected="expected an integer of at least 0"),
    Constraint("rules.tied_strength", choices=("carry_over", "discard"), expected="expected 'carry_over' or 'discard'"),
    Constraint("rules.bonus_card", choices=("last_revealed", "first_revealed"),
               expected="expected 'last_revealed' or 'first_revealed'"),
    Constraint("rules.reshuffle", choices=("when_drawn", "when_empty"),
               expected="expected 'when_drawn' or 'when_empty'"),
    Constraint("cards.*.icon", choices=ICON_NAMES),
    Constraint("cards.*.coin", choices_at="rules.coin_values"),
    Constraint("cards.*.d20", minimum=1, maximum=20, expected="expected a d20 number from 1 to 20"),
    Constraint("cards.*.value", minimum=0, expected="expected a value of at least 0"),
    COPIES,
)
"""The parameters' ranges and choices (``simcore.parameters.check_constraints``)."""


def brawl_winner(icon_a: int, icon_b: int) -> int:
    """0 if icon_a wins, 1 if icon_b wins, -1 for a tie.

    Shield beats Sword, Sword beats Scroll, Scroll beats Shield: with the icons
    numbered 0, 1, 2 in that order, an icon beats the one numbered after it.
    """
    if icon_a == icon_b:
        return -1
    return 0 if icon_b == (icon_a + 1) % 3 else 1


# Legal-action lists, made once per shape and kept (never changed: every
# state asked the same question shares one list).
_POSITIONS: Final[list[list[int]]] = []  # by count
_MASKS_WITH_SIZES: Final[list[list[int] | None]] = []  # by (count, smallest, largest) in 5 bits each
_SUBMASKS: Final[dict[int, list[int]]] = {}
_REPLACE_OR_TAKE_BACK: Final = [REPLACEMENT.encode(1), REPLACEMENT.encode(0)]


def positions(count: int) -> list[int]:
    """Answers choosing one of ``count`` hand positions (shared: do not change the list)."""
    while len(_POSITIONS) <= count:
        _POSITIONS.append([HAND_POSITION.encode(position) for position in range(len(_POSITIONS))])
    return _POSITIONS[count]


def masks_with_sizes(count: int, smallest: int, largest: int) -> list[int]:
    """Bit masks over ``count`` positions with between smallest and largest bits set (shared:
    kept by a small packed key)."""
    if not (0 <= count < 32 and 0 <= smallest < 32 and 0 <= largest < 32):
        return _masks_with_sizes(count, smallest, largest)
    key = count << 10 | smallest << 5 | largest
    while len(_MASKS_WITH_SIZES) <= key:
        _MASKS_WITH_SIZES.append(None)
    found = _MASKS_WITH_SIZES[key]
    if found is None:
        found = _MASKS_WITH_SIZES[key] = _masks_with_sizes(count, smallest, largest)
    return found


def _masks_with_sizes(count: int, smallest: int, largest: int) -> list[int]:
    """``masks_with_sizes``, worked out."""
    found: list[int] = []
    for size in range(smallest, largest + 1):
        for chosen in combinations(range(count), size):
            found.append(HAND_MASK.encode(sum(1 << position for position in chosen)))
    return found


def submasks(mask: int) -> list[int]:
    """Every subset of ``mask``, the empty one first (shared)."""
    found = _SUBMASKS.get(mask)
    if found is None:
        result = [0]
        sub = mask
        while sub:
            result.append(sub)
            sub = (sub - 1) & mask
        found = _SUBMASKS[mask] = [HAND_MASK.encode(sub) for sub in sorted(result)]
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
    bonus_from_first_revealed: bool = False
    """``rules.bonus_card = "first_revealed"``: the bonus icon is the first treasure card of the row's."""
    reshuffle_when_empty: bool = False
    """``rules.reshuffle = "when_empty"``: the discards are shuffled into a new draw pile as the
    draw pile's last card is drawn, not when a later draw finds it empty."""
    unique_cards: bool = True
    """No card has two copies (a hand never holds the same card twice)."""
    suit_cards_strongest_first: tuple[tuple[int, ...], ...] = ()
    """Per suit, its cards from the highest value down (the heuristic's
    reckoning of the strongest hand an opponent could hold)."""


def compile_config(parameters: Mapping[str, Any]) -> DivvyConfig:
    """Check a resolved parameter tree across fields and compile it
    (``KitGame.configure`` has checked ``CONSTRAINTS`` first); errors name the path."""
    rules = parameters["rules"]
    coin_values = rules["coin_values"]
    # Room for a lead fighter, the chaff bid and a brawl card, or no move would be legal.
    require(rules["hand_limit"] >= rules["min_chaff"] + 2, "rules.hand_limit",
            "expected room for a lead fighter, the chaff bid and a brawl card (min_chaff + 2 or more)")
    require(rules["hand_size"] >= rules["min_chaff"] + 2, "rules.hand_size",
            "expected a first hand with room for a lead fighter, the chaff bid and a brawl card "
            "(min_chaff + 2 or more)")
    cards = parameters["cards"]
    names = tuple(cards)
    suits = [cards[name]["suit"] for name in names]
    suit_names = tuple(dict.fromkeys(suits))
    copies = tuple(cards[name]["copies"] for name in names)
    deck = tuple(card for card, count in enumerate(copies) for _ in range(count))
    require(len(deck) >= 2 * rules["hand_size"] + 1, "cards",
            f"expected a deck of at least {2 * rules['hand_size'] + 1} cards, got {len(deck)}")
    values = [cards[name]["value"] for name in names]
    strongest_first = sorted(range(len(names)), key=lambda card: -values[card])
    return DivvyConfig(
        names=names,
        suits=tuple(suit_names.index(suit) for suit in suits),
        suit_names=suit_names,
        values=tuple(values),
        icons=tuple(ICON_NAMES.index(cards[name]["icon"]) for name in names),
        d20=tuple(cards[name]["d20"] for name in names),
        coins=tuple(coin_values[cards[name]["coin"]] for name in names),
        copies=copies,
        deck=deck,
        hand_size=rules["hand_size"],
        hand_limit=rules["hand_limit"],
        rounds=rules["rounds"],
        treasure_target=rules["treasure_target"],
        min_chaff=rules["min_chaff"],
        bonus_draw=rules["bonus_draw"],
        carry_over_ties=rules["tied_strength"] == "carry_over",
        bonus_from_first_revealed=rules["bonus_card"] == "first_revealed",
        reshuffle_when_empty=rules["reshuffle"] == "when_empty",
        unique_cards=max(copies, default=0) <= 1,
        suit_cards_strongest_first=tuple(
            tuple(card for card in strongest_first if suits[card] == suit) for suit in suit_names),
    )


class DivvyState(SeatZonesState):
    """One game of Divvy the Loot in progress."""

    config: DivvyConfig

    # ----------------------------------------------------------------- set-up

    def __init__(self, config: DivvyConfig, rng: Generator, trace: TraceSink | None,
                 stats: CardStats | None = None) -> None:
        super().__init__(2, rng, trace, len(NUMBER_NAMES), len(SEAT_NUMBER_NAMES),
                         stats if stats is not None else CardStats(2, len(CARD_COUNTERS), len(config.names)),
                         FIRST_SEAT_ZONE, ZONES_PER_SEAT, HAND)
        self.config = config

    @staticmethod
    def new_game(config: DivvyConfig, seed: int, trace: TraceSink | None) -> DivvyState:
        """Shuffle, deal, reveal the first treasure and wait for the first choice."""
        state = DivvyState(config, make_rng(seed), trace)
        state.add_zones()
        state.numbers[ROUND] = 1
        state.numbers[BRAWL_RESULT] = -1
        for seat in (0, 1):
            state.set_seat_number(seat, BATTLE_RECORD, -1)
        draw_pile = state.zones[DRAW_PILE]
        draw_pile.extend(list(config.deck))
        draw_pile.shuffle(state.rng)
        if trace is not None:
            state.emit("setup", f"deck of {len(draw_pile)} cards shuffled")
        # Set-up order for the first round: deal, then reveal treasure.
        if not state._deal() or not state._reveal_treasure():
            state._end(END_DECK)
            state.run()
            return state
        for seat in (0, 1):
            for card in state.hand(seat):
                state.stats.add(seat, _OPENING, card)
        state._start_choices()
        state.run()
        return state

    def add_zones(self) -> None:
        """The game's zones, empty (``DRAW_PILE``..., then ``seat_zone``'s per seat)."""
        self.add_zone(Zone("draw pile", TABLE, HIDDEN, pool=0))
        self.add_zone(Zone("discard pile", TABLE, PUBLIC))
        self.add_zone(Zone("treasure row", TABLE, PUBLIC))
        for seat in (0, 1):
            self.add_zone(Zone("hand", seat, OWNER_ONLY, pool=0))
            self.add_zone(Zone("chaff bid (face down)", seat, OWNER_ONLY, pool=0))
            self.add_zone(Zone("lead fighter", seat, PUBLIC))
            self.add_zone(Zone("brawl card", seat, PUBLIC))
            self.add_zone(Zone("reinforcements", seat, PUBLIC))
            self.add_zone(Zone("won treasure", seat, PUBLIC))

    def blank(self) -> DivvyState:
        """An empty state of the same config (``clone`` fills it, its generator and card stats included)."""
        return DivvyState(self.config, self.rng, None, self.stats)

    def clone(self) -> DivvyState:
        """An exact copy with its own generator state and tracing off (the kit's)."""
        copy = super().clone()
        assert isinstance(copy, DivvyState)
        return copy

    def resample_hidden(self, seat: int, rng: Generator) -> DivvyState:
        """The kit's re-sampling (RULES.md, assumption 18), typed as a Divvy state."""
        copy = super().resample_hidden(seat, rng)
        assert isinstance(copy, DivvyState)
        return copy

    def trace_turn(self) -> int:
        """Trace events carry the round being played (1 = the first)."""
        return self.numbers[ROUND]

    # ----------------------------------------------------------- the zones

    def lead_card(self, seat: i64) -> int:
        """``seat``'s lead fighter this round; -1 before the leads are revealed."""
        # In place with the game's constants, not through ``seat_zone`` (``SeatZonesState`` says why).
        lead = self.zones[FIRST_SEAT_ZONE + ZONES_PER_SEAT * seat + LEAD_FIGHTER].cards
        return lead[0] if lead else -1

    @property
    def phase(self) -> int:
        """The task kind asked now (``LEAD``...), ``OVER`` once the game has ended."""
        return OVER if self.over else self.decisions.asked.kind

    # ------------------------------------------------------------- the rules

    def choices(self, kind: int, seat: int) -> list[int]:
        """``seat``'s legal answers to a task of ``kind`` (see the module docstring)."""
        hand = self.hand(seat)
        hand_size = len(hand)
        if kind in (LEAD, BRAWL):
            return positions(hand_size)
        if kind == CHAFF:
            # At least min_chaff cards, and one card left in hand for the brawl.
            return masks_with_sizes(hand_size, self.config.min_chaff, hand_size - 1)
        if kind == REINFORCE:
            suits = self.config.suits
            lead_suit = suits[self.lead_card(seat)]
            matching = 0
            for position in range(hand_size):
                if suits[hand[position]] == lead_suit:
                    matching |= 1 << position
            return submasks(matching)
        if kind == REPLACE:
            return _REPLACE_OR_TAKE_BACK
        excess = hand_size - self.config.hand_limit  # DISCARD
        return masks_with_sizes(hand_size, excess, excess)

    def choices_for(self, seat: int) -> list[int]:
        """``seat``'s legal answers in the simultaneous move now under way."""
        return self.choices(self.decisions.asked.kind, seat)

    def perform(self, task: Task, choice: int) -> None:
        """Ask ``task``'s question (``NO_CHOICE``) or carry out its answer."""
        kind = task.kind
        seat = task.seat
        if choice == NO_CHOICE:
            self.ask(task, self.choices(kind, seat))
            return
        if kind == REPLACE:
            self._resolve_replacement(seat, choice)
            return
        if kind == DISCARD:
            self._discard(seat, choice)
            return
        if seat == 0:
            self.decisions.commit(0, choice)
            self._ask_next(kind, 1)
            return
        first = self.decisions.committed[0]
        self.decisions.clear_commitments()
        if kind == LEAD:
            self._reveal_leads(first, choice)
        elif kind == CHAFF:
            self._place_chaff(first, choice)
        elif kind == BRAWL:
            self._reveal_brawl(first, choice)
        else:
            self._reveal_reinforcements(first, choice)

    def _ask_next(self, kind: int, seat: int) -> None:
        """Ask ``seat`` the question of the next task, ``kind``, at once (the
        kit's ``run`` would push it and perform it with ``NO_CHOICE``: the same
        question, without the stack's round trip on the hot path)."""
        self.ask(_TASK_OF[kind * 2 + seat], self.choices(kind, seat))

    def rewind_simultaneous_move(self) -> int:
        """Lead, chaff, brawl and reinforcements are simultaneous moves of two
        steps (seat 0, then seat 1): take back seat 0's hidden choice, if it
        is in, ask seat 0 again and return 2; 0 in the other phases (see ``GameState``)."""
        kind = self.decisions.asked.kind
        if self.over or kind not in SIMULTANEOUS_PHASES:
            return 0
        self.decisions.clear_commitments()
        self.perform(_TASK_OF[kind * 2], NO_CHOICE)
        return 2

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Count the cards the player to act could play now, once per card:
        every hand card for a lead fighter or a brawl card, the hand cards of
        the lead's suit for reinforcements."""
        kind = self.decisions.asked.kind
        if self.over or (kind != LEAD and kind != BRAWL and kind != REINFORCE):
            return
        seat = self.current_player
        suits = self.config.suits
        lead_suit = suits[self.lead_card(seat)] if kind == REINFORCE else -1
        counts = self.stats.counts
        base = self.stats.offset(seat, _PLAYABLE)
        unique = self.config.unique_cards
        counted = 0  # the cards counted, as a bit mask
        for card in self.hand(seat):
            if lead_suit < 0 or suits[card] == lead_suit:
                if not unique:  # two copies of a card in hand count once
                    if counted >> card & 1:
                        continue
                    counted |= 1 << card
                counts[base + card] += 1

    def _draw(self) -> int:
        """Top card of the draw pile, reshuffling the discards once (``rules.reshuffle``); -1 if none."""
        draw_pile = self.zones[DRAW_PILE]
        when_empty = self.config.reshuffle_when_empty
        if not draw_pile.cards and (when_empty or not self._reshuffle()):
            return -1
        card = draw_pile.take_top()
        if when_empty and not draw_pile.cards:
            self._reshuffle()
        return card

    def bonus_icon(self) -> int:
        """The battle icon that earns the brawl's winner the bonus draw: the icon of the
        treasure row's last revealed card, or its first (``rules.bonus_card``)."""
        row = self.zones[TREASURE_ROW].cards
        return self.config.icons[row[0] if self.config.bonus_from_first_revealed else row[-1]]

    def _reshuffle(self) -> bool:
        """Shuffle the discard pile into a new draw pile, the first time only; False when
        it was done before or there is nothing to shuffle."""
        discard_pile = self.zones[DISCARD_PILE]
        if self.numbers[RESHUFFLED] or not discard_pile.cards:
            return False
        self.numbers[RESHUFFLED] = 1
        draw_pile = self.zones[DRAW_PILE]
        draw_pile.extend(discard_pile.take_all())
        draw_pile.shuffle(self.rng)
        if self.trace is not None:
            self.emit("reshuffle", f"discard pile of {len(draw_pile)} shuffled into a new draw pile")
        return True

    def _draw_into_hand(self, seat: int, count: int) -> int:
        """Draw up to ``count`` cards into ``seat``'s hand; return how many came."""
        hand = self.seat_zone(seat, HAND)
        counts = self.stats.counts
        drawn = self.stats.offset(seat, _DRAWN)
        for done in range(count):
            card = self._draw()
            if card < 0:
                return done
            hand.add(card)
            counts[drawn + card] += 1
        return count

    def _deal(self) -> bool:
        """Deal hand_size cards to each player, one at a time; False if the pile ran out."""
        first_hand, second_hand = self.seat_zone(0, HAND), self.seat_zone(1, HAND)
        counts = self.stats.counts
        first_drawn, second_drawn = self.stats.offset(0, _DRAWN), self.stats.offset(1, _DRAWN)
        for _ in range(self.config.hand_size):
            card = self._draw()
            if card < 0:
                return False
            first_hand.add(card)
            counts[first_drawn + card] += 1
            card = self._draw()
            if card < 0:
                return False
            second_hand.add(card)
            counts[second_drawn + card] += 1
        if self.trace is not None:
            for seat in (0, 1):
                self.emit("deal", f"seat {seat} now holds " + ", ".join(map(self.card_name, self.hand(seat))),
                          seat=seat, hand=self._names(self.hand(seat)))
        return True

    def _reveal_treasure(self) -> bool:
        """Reveal cards until this reveal's d20 total reaches the target.

        False when the pile runs out first: set-up failed. The cards already
        turned over stay face up in the row, unclaimed."""
        d20, total = self.config.d20, 0
        row = self.zones[TREASURE_ROW]
        first = len(row)
        while total < self.config.treasure_target:
            card = self._draw()
            if card < 0:
                return False
            row.add(card)
            total += d20[card]
        if self.trace is not None:
            revealed = row.cards[first:]
            self.emit("treasure", f"revealed {', '.join(map(self.card_name, revealed))} (d20 total {total})",
                      cards=self._names(revealed))
        return True

    def _start_choices(self) -> None:
        """Hand-limit discards first (seat 0, then 1), then the lead fighters."""
        limit = self.config.hand_limit
        for seat in (0, 1):
            if len(self.hand(seat)) > limit:
                self._ask_next(DISCARD, seat)
                return
        self._ask_next(LEAD, 0)

    def _discard(self, seat: int, mask: int) -> None:
        discard_pile = self.zones[DISCARD_PILE]
        count = move_masked(self.seat_zone(seat, HAND), HAND_MASK.value(mask), discard_pile)
        if self.trace is not None:
            discarded = discard_pile.cards[len(discard_pile) - count:]
            self.emit("discard", f"seat {seat} discards {', '.join(map(self.card_name, discarded))} to the hand limit",
                      seat=seat, cards=self._names(discarded))
        self._start_choices()

    def _reveal_leads(self, first: int, second: int) -> None:
        for seat in (0, 1):
            position = HAND_POSITION.value(first if seat == 0 else second)
            card = move_card(self.seat_zone(seat, HAND), position, self.seat_zone(seat, LEAD_FIGHTER))
            self.stats.note_played(seat, _PLAYED, card, self.numbers[ROUND])
        if self.trace is not None:
            for seat in (0, 1):
                lead = self.lead_card(seat)
                self.emit("lead", f"seat {seat} leads with {self.card_name(lead)}", seat=seat,
                          card=self.config.names[lead])
        self._ask_next(CHAFF, 0)

    def _place_chaff(self, first: int, second: int) -> None:
        for seat in (0, 1):
            mask = HAND_MASK.value(first if seat == 0 else second)
            move_masked(self.seat_zone(seat, HAND), mask, self.seat_zone(seat, CHAFF_BID))
        if self.trace is not None:
            for seat in (0, 1):
                bid = self.seat_zone(seat, CHAFF_BID).cards
                self.emit("chaff", f"seat {seat} bids {len(bid)} card(s) face down: "
                          + ", ".join(map(self.card_name, bid)),
                          seat=seat, cards=self._names(bid))
        self._ask_next(BRAWL, 0)

    def _reveal_brawl(self, first: int, second: int) -> None:
        battle = [-1, -1]
        for seat in (0, 1):
            position = HAND_POSITION.value(first if seat == 0 else second)
            card = move_card(self.seat_zone(seat, HAND), position, self.seat_zone(seat, BATTLE_CARD))
            battle[seat] = card
            self.set_seat_number(seat, BATTLE_RECORD, card)
            self.stats.note_played(seat, _PLAYED, card, self.numbers[ROUND])
        icons = self.config.icons
        winner = brawl_winner(icons[battle[0]], icons[battle[1]])
        self.numbers[BRAWL_RESULT] = winner
        if self.trace is not None:
            outcome = "a tie" if winner < 0 else f"won by seat {winner}"
            self.emit("brawl", f"seat 0 fights with {self.card_name(battle[0])}, seat 1 with "
                      f"{self.card_name(battle[1])}: {outcome}", cards=self._names(battle), winner=winner)
        for seat in (0, 1):
            if seat != winner:
                self._take_back_placed(seat)
        if winner < 0:
            self._ask_next(REINFORCE, 0)
        else:
            self._ask_next(REPLACE, winner)

    def _take_back_placed(self, seat: int) -> None:
        """The loser (and both players on a tie) keep their bid and battle card:
        the bid as its owner alone knows it, the battle card seen by both
        (it lay face up in the public brawl zone, ``move_card``)."""
        self._move_placed(seat, self.seat_zone(seat, HAND))

    def _move_placed(self, seat: int, target: Zone) -> int:
        """Move ``seat``'s bid, then its battle card, onto ``target``; how many."""
        bid, battle = self.seat_zone(seat, CHAFF_BID), self.seat_zone(seat, BATTLE_CARD)
        return move_all(bid, target) + move_all(battle, target)

    def _resolve_replacement(self, winner: int, replace: int) -> None:
        if REPLACEMENT.value(replace):
            placed = self._move_placed(winner, self.zones[DISCARD_PILE])
            drawn = self._draw_into_hand(winner, placed)
            if self.trace is not None:
                self.emit("replace", f"seat {winner} replaces {placed} placed card(s), draws {drawn}",
                          seat=winner, drawn=drawn)
        else:
            placed = self._move_placed(winner, self.seat_zone(winner, HAND))
            if self.trace is not None:
                self.emit("replace", f"seat {winner} takes its {placed} placed card(s) back", seat=winner, drawn=0)
        config = self.config
        battle_icon = config.icons[self.seat_number(winner, BATTLE_RECORD)]
        if battle_icon == self.bonus_icon() and config.bonus_draw:
            drawn = self._draw_into_hand(winner, config.bonus_draw)
            if self.trace is not None:
                which = "first" if config.bonus_from_first_revealed else "last"
                self.emit("bonus", f"seat {winner}'s {ICON_NAMES[battle_icon]} matches the {which} "
                          f"treasure card: draws {drawn} extra", seat=winner, drawn=drawn)
        self._ask_next(REINFORCE, 0)

    def _reveal_reinforcements(self, first: int, second: int) -> None:
        values = self.config.values
        for seat in (0, 1):
            sent = self.seat_zone(seat, REINFORCEMENTS)
            move_masked(self.seat_zone(seat, HAND), HAND_MASK.value(first if seat == 0 else second), sent)
            strength = values[self.lead_card(seat)]
            for card in sent.cards:
                self.stats.note_played(seat, _PLAYED, card, self.numbers[ROUND])
                strength += values[card]
            self.set_seat_number(seat, STRENGTH, strength)
        if self.trace is not None:
            for seat in (0, 1):
                sent_cards = self.seat_zone(seat, REINFORCEMENTS).cards
                added = ", ".join(map(self.card_name, sent_cards)) or "no one"
                strength = self.seat_number(seat, STRENGTH)
                self.emit("reinforce", f"seat {seat} sends {added}: Fighter Strength {strength}",
                          seat=seat, cards=self._names(sent_cards), strength=strength)
        self._settle_score()

    def _settle_score(self) -> None:
        first, second = self.seat_number(0, STRENGTH), self.seat_number(1, STRENGTH)
        row = self.zones[TREASURE_ROW]
        discard_pile = self.zones[DISCARD_PILE]
        if first != second:
            winner = 0 if first > second else 1
            coins = self.config.coins
            treasure = row.take_all()
            worth = sum(coins[card] for card in treasure)
            self.set_seat_number(winner, COINS, self.seat_number(winner, COINS) + worth)
            self.seat_zone(winner, WON_TREASURE).extend(treasure)
            for card in treasure:
                self.stats.add(winner, _TREASURE, card)
            if self.trace is not None:
                self.emit("treasure_won", f"seat {winner} wins {len(treasure)} treasure card(s) worth "
                          f"{worth}; coins now {self.scores()}", seat=winner, coins=self.scores())
        elif not self.config.carry_over_ties:
            discard_pile.extend(row.take_all())
        elif self.trace is not None:
            self.emit("treasure_stays", "Fighter Strength tied: the treasure stays for the next round")
        for seat in (0, 1):
            discard_pile.extend(self.seat_zone(seat, LEAD_FIGHTER).take_all())
            discard_pile.extend(self.seat_zone(seat, REINFORCEMENTS).take_all())
            self.set_seat_number(seat, BATTLE_RECORD, -1)
            self.set_seat_number(seat, STRENGTH, 0)
        self.numbers[BRAWL_RESULT] = -1
        if self.numbers[ROUND] >= self.config.rounds:
            self._end(END_ROUNDS)
            return
        self.numbers[ROUND] += 1
        # Later rounds: reveal treasure first, then deal (the rulebook's order).
        if not self._reveal_treasure() or not self._deal():
            self._end(END_DECK)
            return
        self._start_choices()

    def _end(self, reason: str) -> None:
        self.end(reason)
        if self.trace is not None:
            self.emit("game_over", f"game over ({reason}): coins {self.scores()}", reason=reason,
                      coins=self.scores(), winners=self.winners())

    def _names(self, cards: Sequence[int]) -> list[str]:
        """The names of ``cards`` (trace data)."""
        names = self.config.names
        return [names[card] for card in cards]

    # ------------------------------------------------------------- results

    def winners(self) -> list[int]:
        """The player with the most coins; nobody when the coins are tied."""
        first, second = self.seat_number(0, COINS), self.seat_number(1, COINS)
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
        return [self.seat_number(0, COINS), self.seat_number(1, COINS)]

    def standings(self) -> list[int]:
        """Coins won so far: who is ahead is who holds more treasure (RULES.md, "Standings")."""
        return [self.seat_number(0, COINS), self.seat_number(1, COINS)]

    def ranks(self) -> list[int]:
        """1 for the richer player; 1 and 1 on a tie."""
        return ranks_from_scores(self.scores())

    def factions(self) -> list[str | None]:
        """Divvy has no factions."""
        return [None, None]

    def turns(self) -> int:
        """Rounds completed."""
        played = self.numbers[ROUND]
        return played if self.ended_by == END_ROUNDS else played - 1

    def game_columns(self) -> dict[str, Any]:
        """Rounds played, coins left unclaimed in the row, whether the deck was reshuffled."""
        coins = self.config.coins
        return {
            "rounds_played": self.turns(),
            "unclaimed_coins": sum(coins[card] for card in self.zones[TREASURE_ROW].cards),
            "deck_reshuffled": self.numbers[RESHUFFLED] != 0,
        }

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per card each seat drew or won as treasure."""
        self.stats.add_rows(columns, self.config.names, self.config.copies, _ROW_COUNTERS)

    def describe_action(self, action: int) -> str:
        """The action in words, e.g. ``lead Axes 7`` or ``bid Bows 2, Staves 9``."""
        seat, phase = self.current_player, self.phase
        hand = self.hand(seat) if seat >= 0 else []
        if phase == REPLACE:
            return "replace the placed cards" if REPLACEMENT.value(action) else "take the placed cards back"
        if phase in (LEAD, BRAWL):
            return f"{PHASE_NAMES[phase]} {self.card_name(hand[HAND_POSITION.value(action)])}"
        chosen, _ = split_by_mask(hand, HAND_MASK.value(action))
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
