"""Orchard, the kit's example game: the rules (see RULES.md beside this file).

Two to four players plant fruit cards in their orchards. On its turn a seat
plants a hand card (its left neighbour may block it with a card of the same
kind), picks a face-up market card into its hand, or draws the top card of
the draw pile (the discard pile shuffled into a new one when it is empty);
then it discards down to the hand limit. After ``rounds`` turns per seat
(or when the active seat has nothing to do) the orchards score their values
plus a bonus per complete set of apple, pear and plum.

Built with the game kit (``simcore.kit``): every card is in a zone, the
rules are tasks on the decision stack, answers are made by action types, the
counters are one ``CardStats``. ``docs/new-game.md`` walks through this file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from simcore.api import CardColumns, GameInfo, TraceSink, ranks_from_scores
from simcore.kit.cardstats import CardStats
from simcore.kit.decisions import NO_CHOICE, ActionTypes, Task, TaskKinds, action_code, action_value
from simcore.kit.state import KitState
from simcore.kit.zones import HIDDEN, OWNER_ONLY, PUBLIC, TABLE, Zone, move_card
from simcore.parameters import Constraint, ParameterError
from simcore.seeding import make_rng

DATA_FILE = Path(__file__).with_name("cards.toml")

KIND_NAMES: Final = ("apple", "pear", "plum")

END_ROUNDS: Final = "rounds_complete"
END_NO_CARDS: Final = "no_cards_left"

# The answers, one type each (docs/new-game.md, "Answers"). Final: the compiled core keeps
# them in C statics (a plain module name is a dictionary look-up at every use).
ACTIONS: Final = ActionTypes()
PLANT: Final = ACTIONS.add("plant", ("position",))  # a hand position; code 0, so plant(p) == p
PICK: Final = ACTIONS.add("pick", ("position",))  # a market position
DRAW: Final = ACTIONS.add("draw")
BLOCK: Final = ACTIONS.add("block", ("position",))  # a hand position of the blocker
PASS: Final = ACTIONS.add("pass")
DISCARD: Final = ACTIONS.add("discard", ("position",))  # a hand position

# The tasks of the decision stack.
TASKS: Final = TaskKinds()
TURN: Final = TASKS.add("turn")  # the active seat plants, picks or draws
BLOCK_OFFER: Final = TASKS.add("block offer", ("planter", "card"))  # the left neighbour may block
DISCARD_DOWN: Final = TASKS.add("discard down")  # one discard while over the hand limit
END_TURN: Final = TASKS.add("end turn")

# Table numbers and seat numbers (all public).
ROUND: Final = 0  # rounds completed
BLOCKS: Final = 1  # plants blocked so far
NUMBER_NAMES: Final = ("rounds completed", "blocks")
SCORE: Final = 0  # the orchard's card values (the set bonus is added at the end)
SEAT_NUMBER_NAMES: Final = ("orchard value",)

# The zones: three on the table, then one hand and one orchard per seat.
DRAW_PILE: Final = 0
MARKET: Final = 1
DISCARD_PILE: Final = 2
FIRST_SEAT_ZONE: Final = 3

# Card counters; ``played`` counts plants and blocks (every card that leaves a
# hand by its owner's choice but a discard to the limit).
CARD_COUNTERS: Final = ("in_opening_hand", "drawn", "played", "blocked_with", "playable")
OPENING: Final = 0
DRAWN: Final = 1
PLAYED: Final = 2
BLOCKED_WITH: Final = 3
PLAYABLE: Final = 4
ROW_COUNTERS: Final = (DRAWN, PLAYED, PLAYABLE)

INFO = GameInfo(
    id="orchard",
    name="Orchard (the kit's example game)",
    min_players=2,
    max_players=4,
    description="Plant fruit, block your neighbour, complete sets.",
    game_columns={"blocks": "int16"},
    card_counters=CARD_COUNTERS,
    faction_label="none",
    column_descriptions={
        "blocks": "Plants blocked by a neighbour during the game.",
        "in_opening_hand": "Copies of the card in the seat's opening hand.",
        "drawn": "Copies that came into the seat's hand: dealt, picked from the market or drawn.",
        "played": "Times the seat planted the card or blocked with it.",
        "blocked_with": "Times the seat blocked a neighbour's plant with the card (part of `played`).",
        "playable": "Steps at which the seat could have planted the card or blocked with it, once per card per step.",
    },
)

CONSTRAINTS = (
    Constraint("rules.hand_size", minimum=1, maximum=8),
    Constraint("rules.hand_limit", minimum=1, maximum=8),
    Constraint("rules.market_size", minimum=0, maximum=6),
    Constraint("rules.rounds", minimum=1, maximum=50),
    Constraint("rules.set_bonus", minimum=0),
    Constraint("cards.*.kind", choices=KIND_NAMES),
    Constraint("cards.*.value", minimum=0, maximum=9),
    Constraint("cards.*.copies", minimum=0, maximum=20),
)


@dataclass(frozen=True)
class OrchardConfig:
    """Compiled parameters: card attributes as tuples indexed by card id."""

    names: tuple[str, ...]
    kinds: tuple[int, ...]
    values: tuple[int, ...]
    copies: tuple[int, ...]
    deck: tuple[int, ...]
    hand_size: int
    hand_limit: int
    market_size: int
    rounds: int
    set_bonus: int


def compile_config(parameters: Mapping[str, Any]) -> OrchardConfig:
    """Compile a tree that passed ``CONSTRAINTS``; the one cross-field check names its path."""
    rules, cards = parameters["rules"], parameters["cards"]
    names = tuple(cards)
    copies = tuple(cards[name]["copies"] for name in names)
    deck = tuple(card for card, count in enumerate(copies) for _ in range(count))
    needed = 4 * rules["hand_size"] + rules["market_size"]
    if len(deck) < needed:
        raise ParameterError("cards", f"expected a deck of at least {needed} cards (four hands and the market), "
                             f"got {len(deck)}")
    return OrchardConfig(
        names=names,
        kinds=tuple(KIND_NAMES.index(cards[name]["kind"]) for name in names),
        values=tuple(cards[name]["value"] for name in names),
        copies=copies,
        deck=deck,
        hand_size=rules["hand_size"],
        hand_limit=rules["hand_limit"],
        market_size=rules["market_size"],
        rounds=rules["rounds"],
        set_bonus=rules["set_bonus"],
    )


class OrchardState(KitState):
    """One game of Orchard in progress."""

    config: OrchardConfig

    def __init__(self, config: OrchardConfig, n_players: int, trace: TraceSink | None, seed: int = 0) -> None:
        super().__init__(n_players, make_rng(seed), trace, len(NUMBER_NAMES), len(SEAT_NUMBER_NAMES),
                         CardStats(n_players, len(CARD_COUNTERS), len(config.names)))
        self.config = config

    # ---------------------------------------------------------------- zones

    def hand(self, seat: int) -> Zone:
        """``seat``'s hand (owner only)."""
        return self.zones[FIRST_SEAT_ZONE + 2 * seat]

    def orchard(self, seat: int) -> Zone:
        """``seat``'s orchard (public)."""
        return self.zones[FIRST_SEAT_ZONE + 2 * seat + 1]

    # --------------------------------------------------------------- set-up

    @staticmethod
    def new_game(config: OrchardConfig, n_players: int, seed: int, trace: TraceSink | None) -> OrchardState:
        """Shuffle, deal ``hand_size`` cards to each seat, fill the market; seat 0 starts."""
        state = OrchardState(config, n_players, trace, seed)
        draw_pile = Zone("draw pile", TABLE, HIDDEN, pool=0)
        state.add_zone(draw_pile)
        state.add_zone(Zone("market", TABLE, PUBLIC))
        state.add_zone(Zone("discard pile", TABLE, PUBLIC))
        for seat in range(n_players):
            state.add_zone(Zone("hand", seat, OWNER_ONLY, pool=0))
            state.add_zone(Zone("orchard", seat, PUBLIC))
        draw_pile.extend(list(config.deck))
        draw_pile.shuffle(state.rng)
        for _ in range(config.hand_size):
            for seat in range(n_players):
                card = move_card(draw_pile, len(draw_pile) - 1, state.hand(seat))
                state.stats.add(seat, OPENING, card)
                state.stats.add(seat, DRAWN, card)
        state._refill_market()
        if trace is not None:
            state.emit("setup", f"{n_players} seats, {len(draw_pile)} cards left to draw; market "
                       + ", ".join(config.names[card] for card in state.zones[MARKET].cards))
        state.push(Task(TURN, 0))
        state.run()
        return state

    def trace_turn(self) -> int:
        """Trace events carry the round being played (1 = the first), as ``play_game``'s do."""
        return self.numbers[ROUND] + 1

    def blank(self) -> OrchardState:
        """An empty state of the same game (``clone`` fills it)."""
        return OrchardState(self.config, self.n_players, None)

    # ------------------------------------------------------------- the rules

    def perform(self, task: Task, choice: int) -> None:
        """Do one task (``choice``: the answer to its question, or NO_CHOICE)."""
        kind = task.kind
        if kind == TURN:
            self._turn(task, choice)
        elif kind == BLOCK_OFFER:
            self._block_offer(task, choice)
        elif kind == DISCARD_DOWN:
            self._discard_down(task, choice)
        elif kind == END_TURN:
            self._end_turn(task.seat)
        else:
            raise AssertionError(f"unknown task {kind}")

    def turn_choices(self, seat: int) -> list[int]:
        """Plant each hand card, pick each market card, or draw (when the draw or the discard pile has cards)."""
        choices = [PLANT.encode(position) for position in range(len(self.hand(seat)))]
        choices.extend(PICK.encode(position) for position in range(len(self.zones[MARKET])))
        if len(self.zones[DRAW_PILE]) or len(self.zones[DISCARD_PILE]):
            choices.append(DRAW.encode())
        return choices

    def _turn(self, task: Task, choice: int) -> None:
        seat = task.seat
        if choice == NO_CHOICE:
            choices = self.turn_choices(seat)
            if choices:
                self.ask(task, choices)
            else:
                self._finish(END_NO_CARDS)
            return
        self.push(Task(END_TURN, seat))
        if PLANT.matches(choice):
            self._plant(seat, PLANT.value(choice))
        elif PICK.matches(choice):
            card = move_card(self.zones[MARKET], PICK.value(choice), self.hand(seat))
            self.stats.add(seat, DRAWN, card)
            self._refill_market()
            if self.trace is not None:
                self.emit("pick", f"seat {seat} picks {self.config.names[card]} from the market", seat=seat)
        else:
            draw_pile = self._draw_pile()
            card = move_card(draw_pile, len(draw_pile) - 1, self.hand(seat))
            self.stats.add(seat, DRAWN, card)
            if self.trace is not None:
                self.emit("draw", f"seat {seat} draws a card", seat=seat)

    def _plant(self, seat: int, position: int) -> None:
        card = move_card(self.hand(seat), position, self.orchard(seat))
        self.stats.note_played(seat, PLAYED, card, self.numbers[ROUND] + 1)
        self.set_seat_number(seat, SCORE, self.seat_number(seat, SCORE) + self.config.values[card])
        if self.trace is not None:
            self.emit("plant", f"seat {seat} plants {self.config.names[card]}", seat=seat)
        blocker = (seat + 1) % self.n_players
        if self.block_positions(blocker, card):
            self.push(Task(BLOCK_OFFER, blocker, seat, card))

    def block_positions(self, blocker: int, card: int) -> list[int]:
        """Positions in ``blocker``'s hand of cards of the same kind as ``card``."""
        kinds = self.config.kinds
        kind = kinds[card]
        return [position for position, held in enumerate(self.hand(blocker).cards) if kinds[held] == kind]

    def _block_offer(self, task: Task, choice: int) -> None:
        blocker, planter, card = task.seat, task.a, task.b
        if choice == NO_CHOICE:
            choices = [BLOCK.encode(position) for position in self.block_positions(blocker, card)]
            choices.append(PASS.encode())
            self.ask(task, choices)
            return
        if PASS.matches(choice):
            return
        blocking = move_card(self.hand(blocker), BLOCK.value(choice), self.zones[DISCARD_PILE])
        self.stats.note_played(blocker, PLAYED, blocking, self.numbers[ROUND] + 1)
        self.stats.add(blocker, BLOCKED_WITH, blocking)
        orchard = self.orchard(planter)
        move_card(orchard, len(orchard) - 1, self.zones[DISCARD_PILE])
        self.set_seat_number(planter, SCORE, self.seat_number(planter, SCORE) - self.config.values[card])
        self.numbers[BLOCKS] += 1
        if self.trace is not None:
            self.emit("block", f"seat {blocker} blocks seat {planter}'s {self.config.names[card]} with "
                      f"{self.config.names[blocking]}", seat=blocker)

    def _discard_down(self, task: Task, choice: int) -> None:
        seat = task.seat
        if choice == NO_CHOICE:
            self.ask(task, [DISCARD.encode(position) for position in range(len(self.hand(seat)))])
            return
        card = move_card(self.hand(seat), DISCARD.value(choice), self.zones[DISCARD_PILE])
        if self.trace is not None:
            self.emit("discard", f"seat {seat} discards {self.config.names[card]} to the hand limit", seat=seat)

    def _end_turn(self, seat: int) -> None:
        if len(self.hand(seat)) > self.config.hand_limit:
            # One discard at a time, then this check again.
            self.push(Task(END_TURN, seat))
            self.push(Task(DISCARD_DOWN, seat))
            return
        following = (seat + 1) % self.n_players
        if following == 0:
            self.numbers[ROUND] += 1
            if self.numbers[ROUND] >= self.config.rounds:
                self._finish(END_ROUNDS)
                return
        self.push(Task(TURN, following))

    def _draw_pile(self) -> Zone:
        """The draw pile; an empty one is first refilled with the shuffled discard pile."""
        draw_pile = self.zones[DRAW_PILE]
        if not len(draw_pile):
            draw_pile.extend(self.zones[DISCARD_PILE].take_all())
            draw_pile.shuffle(self.rng)
            if self.trace is not None:
                self.emit("reshuffle", f"the discard pile is shuffled into a new draw pile of {len(draw_pile)}")
        return draw_pile

    def _refill_market(self) -> None:
        """Fill the market from the draw pile (never from the discards: a plain refill does not reshuffle)."""
        market, draw_pile = self.zones[MARKET], self.zones[DRAW_PILE]
        while len(market) < self.config.market_size and len(draw_pile):
            move_card(draw_pile, len(draw_pile) - 1, market)

    def _finish(self, reason: str) -> None:
        self.end(reason)
        if self.trace is not None:
            self.emit("game_over", f"game over ({reason}): scores {self.scores()}", reason=reason,
                      winners=self.winners())

    # ------------------------------------------------------------- results

    def complete_sets(self, seat: int) -> int:
        """Complete sets (one card of each kind) in ``seat``'s orchard."""
        counts = [0] * len(KIND_NAMES)
        for card in self.orchard(seat).cards:
            counts[self.config.kinds[card]] += 1
        return min(counts)

    def scores(self) -> list[int]:
        """Orchard values plus ``set_bonus`` per complete set."""
        return [self.seat_number(seat, SCORE) + self.config.set_bonus * self.complete_sets(seat)
                for seat in range(self.n_players)]

    def standings(self) -> list[int]:
        """What each orchard would score now: who is ahead (RULES.md, "Standings")."""
        return self.scores()

    def winners(self) -> list[int]:
        """The seats with the best score (all of them share a tie)."""
        if not self.over:
            return []
        scores = self.scores()
        best = max(scores)
        return [seat for seat in range(self.n_players) if scores[seat] == best]

    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for the others."""
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.n_players)]

    def ranks(self) -> list[int]:
        """Competition ranks by score."""
        return ranks_from_scores(self.scores())

    def factions(self) -> list[str | None]:
        """Orchard has no factions."""
        return [None] * self.n_players

    def turns(self) -> int:
        """Rounds completed."""
        return self.numbers[ROUND]

    def game_columns(self) -> dict[str, Any]:
        """How many plants were blocked."""
        return {"blocks": self.numbers[BLOCKS]}

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Count, once per card, the cards one of ``legal_actions`` would play (plant or block)."""
        seat = self.current_player
        hand = self.hand(seat).cards
        counted: list[int] = []
        plant, block = PLANT.code, BLOCK.code
        for action in legal_actions:
            code = action_code(action)
            if code in (plant, block):  # one-field types: the value is the hand position
                card = hand[action_value(action)]
                if card not in counted:
                    counted.append(card)
                    self.stats.add(seat, PLAYABLE, card)

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per card a seat drew, played or could have played."""
        self.stats.add_rows(columns, self.config.names, self.config.copies, ROW_COUNTERS)

    def describe_action(self, action: int) -> str:
        """The answer in words, e.g. ``plant pear_3`` or ``block with plum_1``."""
        seat = self.current_player
        if PLANT.matches(action) or BLOCK.matches(action) or DISCARD.matches(action):
            card = self.hand(seat).cards[action_value(action)]
            verb = "plant" if PLANT.matches(action) else "block with" if BLOCK.matches(action) else "discard"
            return f"{verb} {self.config.names[card]}"
        if PICK.matches(action):
            return f"pick {self.config.names[self.zones[MARKET].cards[PICK.value(action)]]}"
        return ACTIONS.describe(action)
