"""Party of the Theseus: the rules (see RULES.md beside this file).

Two to four players start with Knight, Mage and Rogue in their Party. On a
turn a player uses up to two Party cards, one at a time (Icon Ability, then
card effect), or instead performs one Explore, Recruit or Subjugate without a
card. Explore takes a card from the Board into the Hand, Recruit moves a Hand
card into the Party, Subjugate moves a Hand card into the Reward, which scores
at the end. The Board is refilled from six Rank decks in order; when a deck
runs out the next Rank begins and Bonuses are placed on (and later exiled
with) older cards still on the Board. The game ends at the end of the turn in
which the last Rank 6 card leaves the Board.

Physical cards are *instances* (ints): ``card_of[instance]`` is the card type
(an index into ``TheseusConfig.names``). Every instance is in exactly one place:
a Rank deck, the Board, a Party, a Hand, a Reward, or the exile pile.

A turn is broken into small decisions; the phase says what an action means:

- ``MAIN``: ``0 .. 15`` use the Party card at that position; ``ALT_EXPLORE``,
  ``ALT_RECRUIT``, ``ALT_SUBJUGATE`` perform that ability without a card;
  ``END_TURN`` ends the turn.
- ``EXPLORE``: a Board position. ``RECRUIT``, ``SUBJUGATE``: a Hand position.
- ``EXILE``: a position in the Party or Hand named by the exile obligation.
- ``PILLAGE``: ``seat * PILLAGE_STRIDE + position`` in that seat's Reward.

A used card's Icon Ability and effect become a queue of unit *steps*
(``STEP_*``); steps needing a choice switch the phase, the others resolve at
once. Exiling to the limits happens after the queue is empty (all effects
resolved); exiles demanded by effects (``hex``) are obligations resolved
before the next step. All mutation happens in ``TheseusState`` methods.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from simcore.api import CardColumns, GameInfo, GameState, TraceSink
from simcore.parameters import Constraint, require
from simcore.rng import Generator
from simcore.seeding import make_rng

LAST_RANK = 6  # the rulebook's six Rank decks

EXPLORE_ICON, RECRUIT_ICON, SUBJUGATE_ICON = 0, 1, 2
ICON_NAMES = ("explore", "recruit", "subjugate")

MAIN, EXPLORE, RECRUIT, SUBJUGATE, PILLAGE, EXILE, OVER = range(7)
PHASE_NAMES = ("main", "explore", "recruit", "subjugate", "pillage", "exile", "over")

# MAIN actions beyond the Party positions.
MAX_PARTY_POSITIONS = 16
ALT_EXPLORE, ALT_RECRUIT, ALT_SUBJUGATE, END_TURN = 16, 17, 18, 19
PILLAGE_STRIDE = 1000

# Unit steps of an ability or effect. The first three are the Icon Abilities
# (their codes equal the icon codes) and need a choice, as does pillage.
STEP_EXPLORE, STEP_RECRUIT, STEP_SUBJUGATE, STEP_DRAW, STEP_HAND_LIMIT, STEP_HEX, STEP_PILLAGE = range(7)
USE_PRIMITIVES = ("explore", "recruit", "subjugate", "draw", "hand_limit", "hex", "pillage")
# Board steps around the picks of one multi-card explore (``rules.multi_explore``):
# refills wait from HOLD until REFILL. They are in ``use_stack`` only, never in
# ``effect_steps`` (they are not part of what a card does).
STEP_HOLD_REFILL, STEP_REFILL = 7, 8

# Readings of "If an effect allows you to Explore multiple cards at once, take
# all of those cards before resolving your Hand limit" (``rules.multi_explore``):
# the cards of one ``explore N`` effect (N >= 2) are all taken from the Board as
# it stood, then it is refilled (the literal default: "an effect"); every
# explore of one card use (icon and effect) is taken so; or the Board is
# refilled after every single pick.
MULTI_EXPLORE_PER_EFFECT, MULTI_EXPLORE_PER_CARD, MULTI_EXPLORE_REFILL_BETWEEN = (
    "per_effect", "per_card", "refill_between")
MULTI_EXPLORE_READINGS = (MULTI_EXPLORE_PER_EFFECT, MULTI_EXPLORE_PER_CARD, MULTI_EXPLORE_REFILL_BETWEEN)

# End-of-game scoring primitives.
END_VP, END_PER_BONUS, END_PER_ICON, END_PER_RANK, END_ALL_ICONS, END_PER_BONUSES = range(6)
END_PRIMITIVES = ("vp", "vp_per_bonus", "vp_per_icon", "vp_per_rank", "vp_if_all_icons", "vp_per_bonuses")

PARTY_AREA, HAND_AREA, REWARD_AREA = 0, 1, 2
AREA_NAMES = ("party", "hand", "reward")
END_AREA_CHOICES = ("party", "hand", "reward", "any")

END_FINAL = "final_rank_card_taken"
END_CAP = "turn_cap"

TIEBREAK_NONE, TIEBREAK_PARTY, TIEBREAK_HAND, TIEBREAK_SHARED = "none", "party_rank", "hand_rank", "shared"

# ``drawn`` (the card came into the seat's Hand: explored, drawn by an effect,
# pillaged) and ``played`` (a copy of ``used``: a Theseus card is played by
# using it from the Party) are the two counters the shared ``cardlab report``
# card table reads; ``playable`` counts the steps at which the seat could have
# used the card (``note_offered``). ``effect_copies`` and ``effect_vp`` are
# read from the final position: the seat's copies of the card whose end effect
# counts where they lie, and the VP those effects scored (what tuning the
# invented deck measures: effect VP per scoring copy).
CARD_COUNTERS = ("explored", "recruited", "subjugated", "exiled", "used", "drawn", "played", "playable",
                 "effect_copies", "effect_vp")
_EXPLORED, _RECRUITED, _SUBJUGATED, _EXILED, _USED, _DRAWN, _PLAYABLE = range(7)

DATA_FILE = Path(__file__).with_name("cards.toml")

INFO = GameInfo(
    id="theseus",
    name="Party of the Theseus",
    min_players=2,
    max_players=4,
    description="Engine building with six Rank decks: explore, recruit, subjugate; Bonuses on old cards.",
    game_columns={
        "rank_reached": "int8",
        "tiebreak_used": "string",
        "bonuses_taken": "int16",
        "board_exiles": "int16",
    },
    card_counters=CARD_COUNTERS,
    faction_label="none",
    player_columns={"vp_printed": "int16", "vp_effects": "int16", "vp_bonuses": "int16"},
    bench_players=3,
)


@cache
def positions(count: int) -> tuple[int, ...]:
    """Actions choosing one of ``count`` positions."""
    return tuple(range(count))


@cache
def main_actions(usable_mask: int, alternatives: int) -> tuple[int, ...]:
    """MAIN actions: usable Party positions (bit mask), then the alternative
    abilities (bit i set: ability i may be performed without a card), then
    ``END_TURN``."""
    actions = [position for position in range(MAX_PARTY_POSITIONS) if usable_mask >> position & 1]
    actions += [ALT_EXPLORE + icon for icon in range(3) if alternatives >> icon & 1]
    actions.append(END_TURN)
    return tuple(actions)


@dataclass(frozen=True)
class TheseusConfig:
    """Compiled parameters: card attributes as tuples indexed by card type."""

    names: tuple[str, ...]
    ranks: tuple[int, ...]
    icons: tuple[int, ...]
    vps: tuple[int, ...]
    copies: tuple[int, ...]
    use_texts: tuple[str, ...]
    end_texts: tuple[str, ...]
    # The unit steps of each card's effect (without its icon), in order.
    effect_steps: tuple[tuple[int, ...], ...]
    # The steps pushed on the step stack when the card is used: icon then
    # effect, with the board steps of ``rules.multi_explore``, reversed (the
    # stack pops from the end).
    use_stack: tuple[tuple[int, ...], ...]
    # (primitive, argument, amount) per end-of-game effect.
    end_effects: tuple[tuple[tuple[int, int, int], ...], ...]
    # Per card: does its end effect count from the Party, the Hand, the Reward.
    end_counts_from: tuple[tuple[bool, bool, bool], ...]
    # Card types of each Rank deck, index 0 unused (the starting cards).
    rank_decks: tuple[tuple[int, ...], ...]
    starting_party: tuple[int, ...]
    party_limit: int
    hand_limit: int
    board_size: int
    uses_per_turn: int
    bonus_vp: int
    max_turns: int
    multi_explore: str


# What each parameter must be, checked by ``GAME.configure`` before ``compile_config``
# (simcore.parameters.check_constraints); the effect texts, the starting party's card
# names and the cross-field checks stay in the code below.
CONSTRAINTS = (
    *(Constraint(f"rules.{key}", minimum=minimum, expected=f"expected an integer of at least {minimum}")
      for key, minimum in (("party_limit", 1), ("hand_limit", 1), ("board_size", 1), ("uses_per_turn", 1),
                           ("bonus_vp", 0), ("max_turns", 1))),
    Constraint("rules.party_limit", maximum=MAX_PARTY_POSITIONS),
    Constraint("rules.no_end_effect_ranks", minimum=1, maximum=LAST_RANK, each_item=True,
               expected="expected ranks from 1 to 6"),
    Constraint("rules.no_end_effect_areas", choices=AREA_NAMES, each_item=True,
               expected="expected areas among {choices}"),
    Constraint("rules.multi_explore", choices=MULTI_EXPLORE_READINGS),
    Constraint("cards.*.rank", minimum=0, maximum=LAST_RANK, expected="expected a rank from 0 (starting card) to 6"),
    Constraint("cards.*.icon", choices=ICON_NAMES),
    Constraint("cards.*.vp", minimum=0, expected="expected at least 0 VP"),
    Constraint("cards.*.copies", minimum=0, expected="expected at least 0 copies"),
    Constraint("cards.*.end_area", choices=END_AREA_CHOICES),
)


def _primitive_words(text: str, path: str) -> list[list[str]]:
    """``"explore 1, draw 2"`` -> ``[["explore", "1"], ["draw", "2"]]``."""
    if not text.strip():
        return []
    parts = [part.split() for part in text.split(",")]
    require(all(parts), path, "expected primitives separated by commas, e.g. 'explore 1, draw 1'")
    return parts


def _amount(word: str, path: str, name: str) -> int:
    require(word.isdigit() and 1 <= int(word) <= 9, path, f"expected '{name} N' with N from 1 to 9, got {word!r}")
    return int(word)


def parse_use_primitives(text: str, path: str) -> tuple[tuple[int, int], ...]:
    """The primitives of a ``use`` effect as (step, amount), e.g. ``"explore 2, draw 1"``
    -> ((STEP_EXPLORE, 2), (STEP_DRAW, 1))."""
    primitives: list[tuple[int, int]] = []
    for words in _primitive_words(text, path):
        name = words[0]
        require(name in USE_PRIMITIVES and len(words) == 2, path,
                f"expected primitives of the form 'name N' with name one of {', '.join(USE_PRIMITIVES)}")
        primitives.append((USE_PRIMITIVES.index(name), _amount(words[1], path, name)))
    return tuple(primitives)


def unit_steps(primitives: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """(step, amount) primitives as unit steps, e.g. ((STEP_EXPLORE, 2),) -> (EXPLORE, EXPLORE)."""
    return tuple(step for step, amount in primitives for _ in range(amount))


def parse_use(text: str, path: str) -> tuple[int, ...]:
    """The unit steps of a ``use`` effect, e.g. ``"explore 2"`` -> (EXPLORE, EXPLORE)."""
    return unit_steps(parse_use_primitives(text, path))


def held_refills(steps: list[int], first: int, last: int) -> list[int]:
    """``steps`` with the picks from ``first`` to ``last`` (positions) wrapped in
    HOLD/REFILL board steps, so that they come from the Board as it stood."""
    return [*steps[:first], STEP_HOLD_REFILL, *steps[first:last + 1], STEP_REFILL, *steps[last + 1:]]


def use_sequence(icon: int, primitives: tuple[tuple[int, int], ...], multi_explore: str) -> tuple[int, ...]:
    """The steps of using a card in resolution order: its icon, then its effect,
    with the board steps that the reading ``multi_explore`` puts around the
    picks of a multi-card explore."""
    steps = [icon]
    for step, amount in primitives:
        if multi_explore == MULTI_EXPLORE_PER_EFFECT and step == STEP_EXPLORE and amount >= 2:
            steps += [STEP_HOLD_REFILL, *[STEP_EXPLORE] * amount, STEP_REFILL]
        else:
            steps += [step] * amount
    explores = [position for position, step in enumerate(steps) if step == STEP_EXPLORE]
    if multi_explore == MULTI_EXPLORE_PER_CARD and len(explores) >= 2:
        steps = held_refills(steps, explores[0], explores[-1])
    return tuple(steps)


def parse_end(text: str, path: str) -> tuple[tuple[int, int, int], ...]:
    """The end-of-game effects of an ``end`` text as (primitive, argument, amount)."""
    effects: list[tuple[int, int, int]] = []
    for words in _primitive_words(text, path):
        name = words[0]
        require(name in END_PRIMITIVES, path, f"expected end primitives among {', '.join(END_PRIMITIVES)}")
        kind = END_PRIMITIVES.index(name)
        if kind == END_PER_ICON:
            require(len(words) == 3 and words[1] in ICON_NAMES, path, "expected 'vp_per_icon ICON N'")
            effects.append((kind, ICON_NAMES.index(words[1]), _amount(words[2], path, name)))
        elif kind == END_PER_RANK:
            require(len(words) == 3 and words[1].isdigit() and 1 <= int(words[1]) <= LAST_RANK, path,
                    "expected 'vp_per_rank R N' with R from 1 to 6")
            effects.append((kind, int(words[1]), _amount(words[2], path, name)))
        elif kind == END_PER_BONUSES:
            require(len(words) == 3, path, "expected 'vp_per_bonuses K N' (N VP per K Bonuses)")
            effects.append((kind, _amount(words[1], path, name), _amount(words[2], path, name)))
        else:
            require(len(words) == 2, path, f"expected '{name} N'")
            effects.append((kind, 0, _amount(words[1], path, name)))
    return tuple(effects)


def compile_config(parameters: Mapping[str, Any]) -> TheseusConfig:
    """Compile a tree that passed ``CONSTRAINTS``; the other checks name their path."""
    rules = parameters["rules"]
    multi_explore = rules["multi_explore"]
    names: list[str] = []
    ranks, icons, vps, copies = [], [], [], []
    use_texts, end_texts, effect_steps, use_stack, end_effects, counts_from = [], [], [], [], [], []
    for name, card in parameters["cards"].items():
        path = f"cards.{name}"
        require(card["rank"] > 0 or card["copies"] == 0, f"{path}.copies",
                "expected 0: a Rank 0 card is a starting card and goes in no Rank deck")
        icon = ICON_NAMES.index(card["icon"])
        primitives = parse_use_primitives(card["use"], f"{path}.use")
        steps = unit_steps(primitives)
        areas = AREA_NAMES if card["end_area"] == "any" else (card["end_area"],)
        # The rulebook: effects of Rank 3 and 6 cards in the Hand or Reward do not act at the end.
        silenced = rules["no_end_effect_areas"] if card["rank"] in rules["no_end_effect_ranks"] else []
        names.append(name)
        ranks.append(card["rank"])
        icons.append(icon)
        vps.append(card["vp"])
        copies.append(card["copies"])
        use_texts.append(card["use"])
        end_texts.append(card["end"])
        effect_steps.append(steps)
        use_stack.append(tuple(reversed(use_sequence(icon, primitives, multi_explore))))
        end_effects.append(parse_end(card["end"], f"{path}.end"))
        counts_from.append(tuple(area in areas and area not in silenced for area in AREA_NAMES))
    starting = []
    for name in rules["starting_party"]:
        require(name in names, "rules.starting_party", f"expected card names, got unknown {name!r}")
        starting.append(names.index(name))
    require(len(starting) <= rules["party_limit"], "rules.starting_party", "expected at most party_limit cards")
    decks: list[tuple[int, ...]] = [()]
    for rank in range(1, LAST_RANK + 1):
        decks.append(tuple(card for card in range(len(names)) if ranks[card] == rank for _ in range(copies[card])))
    require(len(decks[LAST_RANK]) > 0, "cards", "expected at least one Rank 6 card (the game ends on the last one)")
    return TheseusConfig(
        names=tuple(names), ranks=tuple(ranks), icons=tuple(icons), vps=tuple(vps), copies=tuple(copies),
        use_texts=tuple(use_texts), end_texts=tuple(end_texts), effect_steps=tuple(effect_steps),
        use_stack=tuple(use_stack), end_effects=tuple(end_effects),
        end_counts_from=tuple((flags[0], flags[1], flags[2]) for flags in counts_from),
        rank_decks=tuple(decks), starting_party=tuple(starting),
        party_limit=rules["party_limit"], hand_limit=rules["hand_limit"], board_size=rules["board_size"],
        uses_per_turn=rules["uses_per_turn"], bonus_vp=rules["bonus_vp"], max_turns=rules["max_turns"],
        multi_explore=multi_explore,
    )


class TheseusState(GameState):
    """One game of Party of the Theseus in progress."""

    config: TheseusConfig
    rng: Generator
    trace: TraceSink | None
    card_of: list[int]
    phase: int
    active: int
    rank: int
    decks: list[list[int]]
    board: list[int]
    has_bonus: list[bool]
    parties: list[list[int]]
    hands: list[list[int]]
    rewards: list[list[int]]
    bonuses: list[int]
    exiled: list[int]
    used_this_turn: list[int]
    uses: int
    alternative_used: bool
    hand_limit_bonus: int
    steps: list[int]
    exile_seats: list[int]
    exile_areas: list[int]
    exile_keep: list[int]
    limits_due: bool
    refill_held: bool
    closing: bool
    ending: bool
    turn: int
    ended_by: str
    board_exiles: int
    final_key: list[tuple[int, int, int]]
    tiebreak: str
    counters: list[list[list[int]]]
    first_used: list[dict[int, int]]

    # ----------------------------------------------------------------- set-up

    def __init__(self, config: TheseusConfig, n_players: int, rng: Generator, trace: TraceSink | None) -> None:
        self.n_players = n_players
        self.current_player = 0
        self.config = config
        self.rng = rng
        self.trace = trace
        self.card_of = []
        self.phase = MAIN
        self.active = 0
        self.rank = 1
        self.decks = [[] for _ in range(LAST_RANK + 1)]
        self.board = []
        self.has_bonus = []
        self.parties = [[] for _ in range(n_players)]
        self.hands = [[] for _ in range(n_players)]
        self.rewards = [[] for _ in range(n_players)]
        self.bonuses = [0] * n_players
        self.exiled = []
        self.used_this_turn = []
        self.uses = 0
        self.alternative_used = False
        self.hand_limit_bonus = 0
        self.steps = []
        self.exile_seats = []
        self.exile_areas = []
        self.exile_keep = []
        self.limits_due = False
        self.refill_held = False
        self.closing = False
        self.ending = False
        self.turn = 0
        self.ended_by = ""
        self.board_exiles = 0
        self.final_key = []
        self.tiebreak = TIEBREAK_NONE
        # Per seat, per counter up to ``playable`` (``played`` is written from
        # ``used``, the effect counters from the final position), per card type.
        self.counters = [[[0] * len(config.names) for _ in range(_PLAYABLE + 1)] for _ in range(n_players)]
        self.first_used = [{} for _ in range(n_players)]

    @staticmethod
    def new_game(config: TheseusConfig, n_players: int, seed: int, trace: TraceSink | None) -> TheseusState:
        """Starting Parties, six shuffled Rank decks, four Board cards from Rank 1; seat 0 starts."""
        state = TheseusState(config, n_players, make_rng(seed), trace)
        card_of = state.card_of
        for rank in range(1, LAST_RANK + 1):
            deck = state.decks[rank]
            for card in config.rank_decks[rank]:
                deck.append(len(card_of))
                card_of.append(card)
            state.rng.shuffle(deck)
        for seat in range(n_players):
            for card in config.starting_party:
                state.parties[seat].append(len(card_of))
                card_of.append(card)
        state.has_bonus = [False] * len(card_of)
        if trace is not None:
            sizes = [len(state.decks[rank]) for rank in range(1, LAST_RANK + 1)]
            state._emit("setup", f"{n_players} players, each with Party "
                        + ", ".join(config.names[card] for card in config.starting_party)
                        + f"; Rank decks of {sizes} cards shuffled", deck_sizes=sizes)
        if not state.decks[1]:
            state._advance_rank()
        state._refill_board()
        return state

    # ------------------------------------------------------------ public API

    def legal_actions(self) -> Sequence[int]:
        """The current player's legal actions (see the module docstring)."""
        phase = self.phase
        if phase == MAIN:
            return self._main_actions()
        if phase == EXPLORE:
            return positions(len(self.board))
        if phase in (RECRUIT, SUBJUGATE):
            return positions(len(self.hands[self.active]))
        if phase == EXILE:
            area = self.exile_areas[-1]
            seat = self.exile_seats[-1]
            return positions(len(self.parties[seat] if area == PARTY_AREA else self.hands[seat]))
        if phase == PILLAGE:
            return self._pillage_actions()
        return ()

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player."""
        phase = self.phase
        if phase == MAIN:
            self._main(action)
            return
        if phase == EXPLORE:
            self._explore(action)
        elif phase == RECRUIT:
            self._recruit(action)
        elif phase == SUBJUGATE:
            self._subjugate(action)
        elif phase == EXILE:
            self._exile(action)
        elif phase == PILLAGE:
            self._pillage(action)
        self._resolve()

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        return self.phase == OVER

    def winners(self) -> list[int]:
        """The seats with the best (VP, Party Rank total, Hand Rank total); all of them on a full tie."""
        if not self.final_key:
            return []
        best = max(self.final_key)
        return [seat for seat in range(self.n_players) if self.final_key[seat] == best]

    def returns(self) -> list[float]:
        """1 for a sole winner, 1/k each for k winners sharing, 0 otherwise."""
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.n_players)]

    def scores(self) -> list[int]:
        """Final VP: printed VP of the Reward + card effects + Bonuses."""
        return [sum(self.score_parts(seat)) for seat in range(self.n_players)]

    def ranks(self) -> list[int]:
        """Competition ranks by VP, then the tiebreakers."""
        key = self.final_key or [self.tie_key(seat) for seat in range(self.n_players)]
        return [1 + sum(1 for other in key if other > mine) for mine in key]

    def factions(self) -> list[str | None]:
        """Theseus has no factions."""
        return [None] * self.n_players

    def end_reason(self) -> str:
        """``final_rank_card_taken`` or ``turn_cap``."""
        return self.ended_by

    def turns(self) -> int:
        """Turns completed (each player's turn counts one)."""
        return self.turn

    def game_columns(self) -> dict[str, Any]:
        """Rank reached, tiebreak used, Bonuses taken, cards exiled from the Board with their Bonus."""
        return {
            "rank_reached": self.rank,
            "tiebreak_used": self.tiebreak,
            "bonuses_taken": sum(self.bonuses),
            "board_exiles": self.board_exiles,
        }

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Count, for the player to act, each card type that one of
        ``legal_actions`` would use from the Party (once per type per step)."""
        if self.phase != MAIN:
            return
        party, card_of = self.parties[self.current_player], self.card_of
        playable = self.counters[self.current_player][_PLAYABLE]
        counted: list[int] = []
        for action in legal_actions:
            if action >= ALT_EXPLORE:
                break  # ``main_actions`` lists the Party positions first
            card = card_of[party[action]]
            if card not in counted:
                counted.append(card)
                playable[card] += 1

    def end_effect_counts(self, seat: int) -> tuple[list[int], list[int]]:
        """Per card type: the seat's copies whose end effect counts where they
        lie now, and the VP those effects score (``score_parts``' effect part)."""
        config, card_of = self.config, self.card_of
        copies = [0] * len(config.names)
        vp = [0] * len(config.names)
        for area, cards in ((PARTY_AREA, self.parties[seat]), (HAND_AREA, self.hands[seat]),
                            (REWARD_AREA, self.rewards[seat])):
            for instance in cards:
                card = card_of[instance]
                if config.end_effects[card] and config.end_counts_from[card][area]:
                    copies[card] += 1
                    vp[card] += self.end_effect_vp(seat, card)
        return copies, vp

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per (seat, card type) the seat explored, recruited, subjugated,
        exiled, used, could use, got into its Hand or scored an end effect with."""
        config = self.config
        names = config.names
        columns.names = names
        (explored_column, recruited_column, subjugated_column, exiled_column, used_column, drawn_column,
         played_column, playable_column, effect_copies_column, effect_vp_column) = columns.counters
        for seat in range(self.n_players):
            explored, recruited, subjugated, exiled, used, drawn, playable = self.counters[seat]
            effect_copies, effect_vp = self.end_effect_counts(seat)
            first_used = self.first_used[seat]
            for card in range(len(names)):
                if (explored[card] or recruited[card] or subjugated[card] or exiled[card] or used[card]
                        or drawn[card] or playable[card] or effect_copies[card]):
                    columns.seat.append(seat)
                    columns.card.append(card)
                    columns.copies.append(config.copies[card] or (self.n_players if config.ranks[card] == 0 else 0))
                    explored_column.append(explored[card])
                    recruited_column.append(recruited[card])
                    subjugated_column.append(subjugated[card])
                    exiled_column.append(exiled[card])
                    used_column.append(used[card])
                    drawn_column.append(drawn[card])
                    played_column.append(used[card])
                    playable_column.append(playable[card])
                    effect_copies_column.append(effect_copies[card])
                    effect_vp_column.append(effect_vp[card])
                    columns.first_played_turn.append(first_used.get(card, -1))

    def observation(self, seat: int) -> tuple[Any, ...]:
        """All ``seat`` can see: everything face up, its own Hand, how many
        cards the other Hands hold, and the sizes of the Rank decks and the
        exile pile."""
        card_of = self.card_of
        hands: list[Any] = [
            tuple(card_of[instance] for instance in self.hands[other]) if other == seat else len(self.hands[other])
            for other in range(self.n_players)
        ]
        return (
            self.phase, self.current_player, self.active, self.rank, self.turn,
            tuple(card_of[instance] for instance in self.board),
            tuple(self.has_bonus[instance] for instance in self.board),
            tuple(len(deck) for deck in self.decks), len(self.exiled),
            tuple(tuple(card_of[instance] for instance in party) for party in self.parties),
            tuple(tuple(card_of[instance] for instance in reward) for reward in self.rewards),
            tuple(hands), tuple(self.bonuses),
            tuple(self.parties[self.active].index(instance) for instance in self.used_this_turn
                  if instance in self.parties[self.active]),
            self.uses, self.alternative_used, self.hand_limit_bonus, tuple(self.steps),
            tuple(self.exile_seats), tuple(self.exile_areas), tuple(self.exile_keep),
            self.limits_due, self.refill_held, self.closing, self.ending, self.ended_by,
        )

    def resample_hidden(self, seat: int, rng: Generator) -> TheseusState:
        """A copy in which the cards ``seat`` cannot see — the other Hands, the
        Rank decks and the exile pile — are dealt again; ``observation(seat)``
        is kept. Each Rank deck keeps its size and holds only cards of its
        Rank; every other hidden card may land in any other Hand or the exile
        pile (card backs do not show the Rank)."""
        copy = self.clone()
        # Future chance (reshuffles, later draws) is hidden too: the copy gets
        # its own generator, so no search can foresee the real game's shuffles.
        copy.rng = Generator(rng.next_u32() << 32 | rng.next_u32())
        ranks, card_of = self.config.ranks, self.card_of
        loose_places = [copy.hands[other] for other in range(self.n_players) if other != seat]
        loose_places.append(copy.exiled)
        by_rank: list[list[int]] = [[] for _ in range(LAST_RANK + 1)]
        for place in loose_places:
            for instance in place:
                by_rank[ranks[card_of[instance]]].append(instance)
        loose: list[int] = list(by_rank[0])
        for rank in range(1, LAST_RANK + 1):
            deck = copy.decks[rank]
            # Sorted before shuffling, so the copy depends only on what ``seat``
            # sees and on ``rng`` (seat-honest search).
            pool = sorted(by_rank[rank] + deck)
            rng.shuffle(pool)
            deck[:] = pool[:len(deck)]
            loose += pool[len(deck):]
        loose.sort()
        rng.shuffle(loose)
        dealt = 0
        for place in loose_places:
            place[:] = loose[dealt:dealt + len(place)]
            dealt += len(place)
        return copy

    def clone(self) -> TheseusState:
        """An exact copy with its own generator state and tracing off."""
        copy = TheseusState(self.config, self.n_players, self.rng.copy(), None)
        copy.current_player = self.current_player
        copy.card_of = self.card_of  # never changed after set-up
        copy.phase = self.phase
        copy.active = self.active
        copy.rank = self.rank
        copy.decks = [list(deck) for deck in self.decks]
        copy.board = list(self.board)
        copy.has_bonus = list(self.has_bonus)
        copy.parties = [list(party) for party in self.parties]
        copy.hands = [list(hand) for hand in self.hands]
        copy.rewards = [list(reward) for reward in self.rewards]
        copy.bonuses = list(self.bonuses)
        copy.exiled = list(self.exiled)
        copy.used_this_turn = list(self.used_this_turn)
        copy.uses = self.uses
        copy.alternative_used = self.alternative_used
        copy.hand_limit_bonus = self.hand_limit_bonus
        copy.steps = list(self.steps)
        copy.exile_seats = list(self.exile_seats)
        copy.exile_areas = list(self.exile_areas)
        copy.exile_keep = list(self.exile_keep)
        copy.limits_due = self.limits_due
        copy.refill_held = self.refill_held
        copy.closing = self.closing
        copy.ending = self.ending
        copy.turn = self.turn
        copy.ended_by = self.ended_by
        copy.board_exiles = self.board_exiles
        copy.final_key = list(self.final_key)
        copy.tiebreak = self.tiebreak
        copy.counters = [[list(counter) for counter in seat] for seat in self.counters]
        copy.first_used = [dict(seat) for seat in self.first_used]
        return copy

    def describe_action(self, action: int) -> str:
        """The action in words, e.g. ``use Rogue (explore)`` or ``explore Scout``."""
        phase = self.phase
        seat = self.current_player
        if phase == MAIN:
            if action == END_TURN:
                return "end the turn"
            if action >= ALT_EXPLORE:
                return f"{ICON_NAMES[action - ALT_EXPLORE]} without a card"
            return f"use {self.card_name(self.parties[seat][action])}"
        if phase == EXPLORE:
            instance = self.board[action]
            return f"explore {self.card_name(instance)}" + (" with its Bonus" if self.has_bonus[instance] else "")
        if phase in (RECRUIT, SUBJUGATE):
            return f"{PHASE_NAMES[phase]} {self.card_name(self.hands[seat][action])}"
        if phase == EXILE:
            area = self.exile_areas[-1]
            cards = self.parties[seat] if area == PARTY_AREA else self.hands[seat]
            return f"exile {self.card_name(cards[action])} from the {AREA_NAMES[area]}"
        if phase == PILLAGE:
            victim, position = divmod(action, PILLAGE_STRIDE)
            return f"take {self.card_name(self.rewards[victim][position])} from seat {victim}'s Reward"
        return f"action {action}"

    def card_name(self, instance: int) -> str:
        """Readable card, e.g. ``scout (R1 explore, 1 VP; explore 1)``."""
        config = self.config
        card = self.card_of[instance]
        effects = "; ".join(text for text in (config.use_texts[card], config.end_texts[card]) if text)
        return (f"{config.names[card]} (R{config.ranks[card]} {ICON_NAMES[config.icons[card]]}, "
                f"{config.vps[card]} VP{'; ' + effects if effects else ''})")

    # ------------------------------------------------------------- scoring

    def player_columns(self, seat: int) -> dict[str, Any]:
        """The seat's final VP split into printed VP, card effects and Bonuses."""
        printed, effects, bonuses = self.score_parts(seat)
        return {"vp_printed": printed, "vp_effects": effects, "vp_bonuses": bonuses}

    def score_parts(self, seat: int) -> tuple[int, int, int]:
        """(printed VP of the Reward, VP from card end effects, VP from Bonuses)."""
        config, card_of = self.config, self.card_of
        printed = sum(config.vps[card_of[instance]] for instance in self.rewards[seat])
        return printed, sum(self.end_effect_counts(seat)[1]), self.bonuses[seat] * config.bonus_vp

    def end_effect_vp(self, seat: int, card: int) -> int:
        """What ``card``'s end-of-game effects are worth to ``seat`` now (wherever the card is)."""
        return self.end_effect_vp_with_party(seat, card, self.parties[seat])

    def end_effect_vp_with_party(self, seat: int, card: int, party: list[int]) -> int:
        """What ``card``'s end-of-game effects would be worth to ``seat`` with
        ``party`` (instances) as its Party and everything else as it is."""
        config, card_of = self.config, self.card_of
        total = 0
        for kind, argument, amount in config.end_effects[card]:
            if kind == END_VP:
                total += amount
            elif kind == END_PER_BONUS:
                total += amount * self.bonuses[seat]
            elif kind == END_PER_ICON:
                total += amount * sum(1 for instance in party if config.icons[card_of[instance]] == argument)
            elif kind == END_PER_RANK:
                total += amount * sum(1 for instance in self.rewards[seat]
                                      if config.ranks[card_of[instance]] == argument)
            elif kind == END_PER_BONUSES:
                total += amount * (self.bonuses[seat] // argument)
            elif len({config.icons[card_of[instance]] for instance in party}) == 3:
                total += amount  # END_ALL_ICONS
        return total

    def rank_total(self, cards: list[int]) -> int:
        """Sum of the Ranks of ``cards`` (instances), for the tiebreakers."""
        ranks, card_of = self.config.ranks, self.card_of
        return sum(ranks[card_of[instance]] for instance in cards)

    def tie_key(self, seat: int) -> tuple[int, int, int]:
        """(VP, Party Rank total, Hand Rank total): higher is better, in that order."""
        return sum(self.score_parts(seat)), self.rank_total(self.parties[seat]), self.rank_total(self.hands[seat])

    # ------------------------------------------------------------- internals

    def _emit(self, kind: str, text: str, **data: Any) -> None:
        assert self.trace is not None
        self.trace({"turn": self.turn + 1, "type": kind, "text": text, **data})

    def _names(self, instances: list[int]) -> list[str]:
        return [self.config.names[self.card_of[instance]] for instance in instances]

    def _main_actions(self) -> tuple[int, ...]:
        seat = self.active
        usable = 0
        if self.uses < self.config.uses_per_turn and not self.alternative_used:
            used = self.used_this_turn
            for position, instance in enumerate(self.parties[seat]):
                if instance not in used:
                    usable |= 1 << position
        alternatives = 0
        if self.uses == 0 and not self.alternative_used:
            if self.board:
                alternatives |= 1 << EXPLORE_ICON
            if self.hands[seat]:
                alternatives |= 1 << RECRUIT_ICON | 1 << SUBJUGATE_ICON
        return main_actions(usable, alternatives)

    def _pillage_actions(self) -> tuple[int, ...]:
        return tuple(victim * PILLAGE_STRIDE + position
                     for victim in range(self.n_players) if victim != self.active
                     for position in range(len(self.rewards[victim])))

    def _main(self, action: int) -> None:
        seat = self.active
        if action == END_TURN:
            self._close_turn()
            return
        if action >= ALT_EXPLORE:
            icon = action - ALT_EXPLORE
            self.alternative_used = True
            if self.trace is not None:
                self._emit("alternative", f"seat {seat} performs {ICON_NAMES[icon]} without a card", seat=seat)
            self.steps.append(icon)
        else:
            instance = self.parties[seat][action]
            card = self.card_of[instance]
            self.used_this_turn.append(instance)
            self.uses += 1
            self.counters[seat][_USED][card] += 1
            if card not in self.first_used[seat]:
                self.first_used[seat][card] = self.turn + 1
            if self.trace is not None:
                self._emit("use", f"seat {seat} uses {self.card_name(instance)}", seat=seat,
                           card=self.config.names[card])
            self.steps.extend(self.config.use_stack[card])
        self.limits_due = True
        self._resolve()

    def _resolve(self) -> None:
        """Run the pending exiles and steps until a choice is needed or the turn goes on."""
        seat = self.active
        while True:
            if self.exile_seats:
                owner, area, keep = self.exile_seats[-1], self.exile_areas[-1], self.exile_keep[-1]
                if len(self.parties[owner] if area == PARTY_AREA else self.hands[owner]) > keep:
                    self.phase = EXILE
                    self.current_player = owner
                    return
                self.exile_seats.pop()
                self.exile_areas.pop()
                self.exile_keep.pop()
                continue
            if self.steps:
                step = self.steps.pop()
                if step == STEP_EXPLORE:
                    if not self.board and self.refill_held:
                        # The Board as it stood is used up: the remaining picks come from its refill.
                        self._refill_board()
                    if self.board:
                        self._await(EXPLORE)
                        return
                elif step in (STEP_RECRUIT, STEP_SUBJUGATE):
                    if self.hands[seat]:
                        self._await(RECRUIT if step == STEP_RECRUIT else SUBJUGATE)
                        return
                elif step == STEP_DRAW:
                    self._draw(seat)
                elif step == STEP_HAND_LIMIT:
                    self.hand_limit_bonus += 1
                    if self.trace is not None:
                        self._emit("hand_limit", f"seat {seat}'s Hand limit is "
                                   f"{self.config.hand_limit + self.hand_limit_bonus} this turn", seat=seat)
                elif step == STEP_HEX:
                    self._hex(seat)
                elif step == STEP_PILLAGE and self._pillage_actions():
                    self._await(PILLAGE)
                    return
                elif step == STEP_HOLD_REFILL:
                    self.refill_held = True
                elif step == STEP_REFILL:
                    self.refill_held = False
                    self._refill_board()
                    self._check_final_card()
                continue
            if self.limits_due:
                # Everything resolved: exile down to the limits (Party first, then Hand).
                self.limits_due = False
                self._demand_limits(seat, self.config.hand_limit + self.hand_limit_bonus)
                continue
            if self.closing:
                self._finish_turn()
                return
            self.phase = MAIN
            self.current_player = seat
            return

    def _await(self, phase: int) -> None:
        self.phase = phase
        self.current_player = self.active

    def _demand_limits(self, seat: int, hand_limit: int) -> None:
        """Queue exiles for ``seat`` down to the limits; the Party is done first (stack order)."""
        if len(self.hands[seat]) > hand_limit:
            self._demand_exile(seat, HAND_AREA, hand_limit)
        if len(self.parties[seat]) > self.config.party_limit:
            self._demand_exile(seat, PARTY_AREA, self.config.party_limit)

    def _demand_exile(self, seat: int, area: int, keep: int) -> None:
        self.exile_seats.append(seat)
        self.exile_areas.append(area)
        self.exile_keep.append(keep)

    def _close_turn(self) -> None:
        """End of turn: the temporary Hand limit lapses, so both limits are checked once more."""
        self.hand_limit_bonus = 0
        self.closing = True
        self._demand_limits(self.active, self.config.hand_limit)
        self._resolve()

    def _finish_turn(self) -> None:
        seat = self.active
        self.turn += 1
        self.closing = False
        if self.trace is not None:
            self._emit("turn_end", f"seat {seat} ends the turn", seat=seat)
        if self.ending:
            self._end(END_FINAL)
            return
        if self.turn >= self.config.max_turns:
            self._end(END_CAP)
            return
        self.active = (seat + 1) % self.n_players
        self.used_this_turn.clear()
        self.uses = 0
        self.alternative_used = False
        self.phase = MAIN
        self.current_player = self.active

    # ---------------------------------------------------- abilities, effects

    def _explore(self, position: int) -> None:
        seat = self.active
        instance = self.board.pop(position)
        self.hands[seat].append(instance)
        self.counters[seat][_EXPLORED][self.card_of[instance]] += 1
        self.counters[seat][_DRAWN][self.card_of[instance]] += 1
        bonus = self.has_bonus[instance]
        if bonus:
            self.has_bonus[instance] = False
            self.bonuses[seat] += 1
        if self.trace is not None:
            self._emit("explore", f"seat {seat} explores {self.card_name(instance)}"
                       + (" and adds its Bonus to the Reward" if bonus else ""),
                       seat=seat, card=self.config.names[self.card_of[instance]], bonus=bonus)
        if not self.refill_held:
            self._refill_board()
        self._check_final_card()

    def _recruit(self, position: int) -> None:
        seat = self.active
        instance = self.hands[seat].pop(position)
        self.parties[seat].append(instance)
        self.counters[seat][_RECRUITED][self.card_of[instance]] += 1
        if self.trace is not None:
            self._emit("recruit", f"seat {seat} recruits {self.card_name(instance)}", seat=seat,
                       card=self.config.names[self.card_of[instance]])

    def _subjugate(self, position: int) -> None:
        seat = self.active
        instance = self.hands[seat].pop(position)
        self.rewards[seat].append(instance)
        self.counters[seat][_SUBJUGATED][self.card_of[instance]] += 1
        if self.trace is not None:
            self._emit("subjugate", f"seat {seat} subjugates {self.card_name(instance)}", seat=seat,
                       card=self.config.names[self.card_of[instance]])

    def _exile(self, position: int) -> None:
        seat = self.exile_seats[-1]
        area = self.exile_areas[-1]
        cards = self.parties[seat] if area == PARTY_AREA else self.hands[seat]
        instance = cards.pop(position)
        self.exiled.append(instance)
        self.counters[seat][_EXILED][self.card_of[instance]] += 1
        if self.trace is not None:
            self._emit("exile", f"seat {seat} exiles {self.card_name(instance)} from the {AREA_NAMES[area]}",
                       seat=seat, card=self.config.names[self.card_of[instance]], area=AREA_NAMES[area])

    def _pillage(self, action: int) -> None:
        seat = self.active
        victim, position = divmod(action, PILLAGE_STRIDE)
        instance = self.rewards[victim].pop(position)
        self.hands[seat].append(instance)
        self.counters[seat][_DRAWN][self.card_of[instance]] += 1
        if self.trace is not None:
            self._emit("pillage", f"seat {seat} takes {self.card_name(instance)} from seat {victim}'s Reward",
                       seat=seat, victim=victim, card=self.config.names[self.card_of[instance]])

    def _hex(self, seat: int) -> None:
        """Each other player (in turn order) exiles one card from the Hand, if any."""
        victims = [(seat + offset) % self.n_players for offset in range(1, self.n_players)]
        if self.trace is not None:
            self._emit("hex", f"seat {seat} hexes: every other player exiles a card from the Hand", seat=seat)
        for victim in reversed(victims):  # the stack pops the next seat first
            if self.hands[victim]:
                self._demand_exile(victim, HAND_AREA, len(self.hands[victim]) - 1)

    def _draw(self, seat: int) -> None:
        """Draw the top card of the current Rank deck face down into the Hand."""
        deck = self.decks[self.rank]
        if not deck:
            return
        instance = deck.pop()
        self.hands[seat].append(instance)
        self.counters[seat][_DRAWN][self.card_of[instance]] += 1
        if self.trace is not None:
            self._emit("draw", f"seat {seat} draws a Rank {self.rank} card", seat=seat, rank=self.rank)
        if not deck:
            self._advance_rank()
            if not self.refill_held:
                self._refill_board()
        self._check_final_card()

    # ------------------------------------------------------- board and ranks

    def _refill_board(self) -> None:
        """Reveal cards from the current Rank deck until the Board is full, advancing Ranks as decks run out."""
        board, size = self.board, self.config.board_size
        while len(board) < size:
            deck = self.decks[self.rank]
            if not deck:
                return  # only at the last Rank: there is no deck after Rank 6
            instance = deck.pop()
            board.append(instance)
            if self.trace is not None:
                self._emit("reveal", f"revealed {self.card_name(instance)} on the Board",
                           card=self.config.names[self.card_of[instance]], rank=self.rank)
            if not deck:
                self._advance_rank()

    def _advance_rank(self) -> None:
        """The current deck is empty: the next Rank begins. Cards still carrying a
        Bonus are exiled with it, then every lower-Rank card on the Board gets one."""
        ranks, card_of, has_bonus, board = self.config.ranks, self.card_of, self.has_bonus, self.board
        while self.rank < LAST_RANK and not self.decks[self.rank]:
            self.rank += 1
            lost = [instance for instance in board if has_bonus[instance]]
            if lost:
                board[:] = [instance for instance in board if not has_bonus[instance]]
                for instance in lost:
                    has_bonus[instance] = False
                    self.exiled.append(instance)
                self.board_exiles += len(lost)
            gained = [instance for instance in board if ranks[card_of[instance]] < self.rank]
            for instance in gained:
                has_bonus[instance] = True
            if self.trace is not None:
                self._emit("rank", f"Rank {self.rank} begins: exiled with their Bonus: {self._names(lost) or 'none'}; "
                           f"Bonus placed on: {self._names(gained) or 'none'}", rank=self.rank,
                           exiled=self._names(lost), bonus=self._names(gained))

    def _check_final_card(self) -> None:
        """The game ends this turn once the last Rank 6 deck is empty and no Rank 6 card is on the Board."""
        if self.ending or self.rank < LAST_RANK or self.decks[LAST_RANK]:
            return
        ranks, card_of = self.config.ranks, self.card_of
        if any(ranks[card_of[instance]] == LAST_RANK for instance in self.board):
            return
        self.ending = True
        if self.trace is not None:
            self._emit("final_card", "the last Rank 6 card has left the Board: the game ends after this turn")

    def _end(self, reason: str) -> None:
        self.phase = OVER
        self.current_player = -1
        self.ended_by = reason
        keys = [self.tie_key(seat) for seat in range(self.n_players)]
        self.final_key = keys
        self.tiebreak = tiebreak_used(keys)
        if self.trace is not None:
            parts = [self.score_parts(seat) for seat in range(self.n_players)]
            self._emit("game_over", f"game over ({reason}): VP {[sum(p) for p in parts]} "
                       f"(printed, effects, bonuses: {parts}); winners {self.winners()}, tiebreak {self.tiebreak}",
                       reason=reason, scores=[sum(p) for p in parts], winners=self.winners(),
                       tiebreak=self.tiebreak)


def tiebreak_used(keys: list[tuple[int, int, int]]) -> str:
    """Which tiebreaker decided the winner among (VP, Party Rank, Hand Rank) keys."""
    best = max(keys)
    tied_vp = [key for key in keys if key[0] == best[0]]
    if len(tied_vp) == 1:
        return TIEBREAK_NONE
    tied_party = [key for key in tied_vp if key[1] == best[1]]
    if len(tied_party) == 1:
        return TIEBREAK_PARTY
    tied_hand = [key for key in tied_party if key[2] == best[2]]
    if len(tied_hand) == 1:
        return TIEBREAK_HAND
    return TIEBREAK_SHARED
