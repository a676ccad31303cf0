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

Built with the game kit (``simcore.kit``). Physical cards are *instances*
(ints): ``card_of[instance]`` is the card type (an index into
``TheseusConfig.names``), and observations show the type (``observe_as``), so
two copies of a card look the same. Every instance is in exactly one zone: a
Rank deck (zone ``r`` for Rank ``r``, bound to its Rank), the Board, the
exile pile, or a seat's Party, Hand or Reward (``seat_zone``).

A turn is a stack of tasks (``TASKS``): ``main`` asks what to do next; a used
card pushes its unit steps (its icon, then each unit of its effect, from
``TheseusConfig.use_stack``) above a ``limits`` task and the ``main`` question
again. Steps needing a choice ask it; the others resolve at once. Exiles
demanded by an effect (``hex``) or by the limits are ``exile`` tasks pushed on
top, so an exile obligation is resolved before the next step, and the limits
come after every step of the use. Ending the turn pushes ``finish turn``
under the end-of-turn limit exiles. A task that ``run`` would pop at once
(nothing asked before it) is performed on the spot instead of pushed, so the
stack at every question is the same as with the push, without its cost.

Each question is answered with actions of one or more ``ACTIONS`` types:
``main``: ``PARTY_POSITION`` (use that Party card), ``WITHOUT_A_CARD`` (an
icon), ``END_TURN``; ``explore``: ``BOARD_POSITION``; ``recruit``,
``subjugate``: ``HAND_POSITION``; ``exile``: ``PARTY_POSITION`` or
``HAND_POSITION`` (the task's ``area``); ``pillage``: ``PILLAGE`` (victim,
position in its Reward). All mutation happens in ``TheseusState`` methods.

Compiled with mypyc; docs/development/compiled-style.md says why the code is
written as it is (``Final`` constants, ``elif`` dispatch, ``i64``, plain loops,
native vectors, bit masks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from librt.vecs import vec
from mypy_extensions import i64

from simcore.api import CardColumns, GameInfo, TraceSink
from simcore.effects import Choice, Integer, Vocabulary
from simcore.kit.cardstats import CardStats
from simcore.kit.decisions import NO_CHOICE, ActionType, ActionTypes, Task, TaskKinds
from simcore.kit.state import KitState, SeatZonesState
from simcore.kit.zones import EVERY_SEAT, HIDDEN, OWNER_ONLY, PUBLIC, TABLE, Zone, move_card
from simcore.parameters import COPIES, Constraint, require
from simcore.rng import Generator
from simcore.seeding import make_rng

LAST_RANK: Final = 6  # the rulebook's six Rank decks
MAX_PLAYERS: Final = 4

EXPLORE_ICON: Final = 0
RECRUIT_ICON: Final = 1
SUBJUGATE_ICON: Final = 2
ICON_NAMES = ("explore", "recruit", "subjugate")

# The task kinds. The unit steps of an ability or effect come first, their
# codes the ``STEP_*`` codes of ``use_stack``: the first three are the Icon
# Abilities (their codes equal the icon codes) and need a choice, as does
# pillage. Literal codes (a dozen comparisons a step in ``perform``), each
# checked against ``TASKS``' registration below.
STEP_EXPLORE: Final = 0
STEP_RECRUIT: Final = 1
STEP_SUBJUGATE: Final = 2
STEP_DRAW: Final = 3
STEP_HAND_LIMIT: Final = 4
STEP_HEX: Final = 5
STEP_PILLAGE: Final = 6
# Board steps around the picks of one multi-card explore (``rules.multi_explore``):
# refills wait from HOLD until REFILL. They are in ``use_stack`` only, never in
# ``effect_steps`` (they are not part of what a card does).
STEP_HOLD_REFILL: Final = 7
STEP_REFILL: Final = 8
MAIN: Final = 9  # the active seat: use a card, an ability without a card, or end the turn
EXILE: Final = 10  # the seat exiles from the area until ``keep`` cards remain
LIMITS: Final = 11  # everything resolved: exile down to the limits
FINISH_TURN: Final = 12
USE_PRIMITIVES = ("explore", "recruit", "subjugate", "draw", "hand_limit", "hex", "pillage")
TASKS: Final = TaskKinds()
for _code, _name, _fields in (
        (STEP_EXPLORE, "explore", ()), (STEP_RECRUIT, "recruit", ()), (STEP_SUBJUGATE, "subjugate", ()),
        (STEP_DRAW, "draw", ()), (STEP_HAND_LIMIT, "hand limit", ()), (STEP_HEX, "hex", ()),
        (STEP_PILLAGE, "pillage", ()), (STEP_HOLD_REFILL, "hold refill", ()), (STEP_REFILL, "refill", ()),
        (MAIN, "main", ()), (EXILE, "exile", ("area", "keep")), (LIMITS, "limits", ()),
        (FINISH_TURN, "finish turn", ())):
    if TASKS.add(_name, _fields) != _code:
        raise AssertionError(f"task {_name!r}: its code is not {_code}, the order of registration")
OVER: Final = 13
"""``asked_kind`` of a finished game (no task): the code after the last task kind."""
if len(TASKS.names) != OVER:
    raise AssertionError(f"OVER is {OVER}, not the {len(TASKS.names)} task kinds")
PHASE_NAMES = (*TASKS.names, "over")

# The ready-made task of each fieldless kind and seat (``kind * MAX_PLAYERS +
# seat``): tasks are immutable, so one object serves every game and clone.
_TASK_OF: Final = [Task(kind, seat) for kind in range(len(TASKS.names)) for seat in range(MAX_PLAYERS)]

# The answers (``simcore.kit.decisions``). A Party position keeps code 0, so
# using the card at position p is the action p, as before the kit.
MAX_PARTY_POSITIONS: Final = 16
ACTIONS: Final = ActionTypes()
PARTY_POSITION: Final = ACTIONS.add("party position", ("position",))
WITHOUT_A_CARD: Final = ACTIONS.add("without a card", ("icon",))
END_TURN_TYPE: Final = ACTIONS.add("end turn")
BOARD_POSITION: Final = ACTIONS.add("board position", ("position",))
HAND_POSITION: Final = ACTIONS.add("hand position", ("position",))
PILLAGE: Final = ACTIONS.add("pillage", ("victim", "position"), (8, 16))
END_TURN: Final = END_TURN_TYPE.encode()
"""The one action of the ``end turn`` type."""

# The zones: the Board, the six Rank decks (zone r holds Rank r), the exile
# pile, then per seat its Party, Hand and Reward (``seat_zone(seat, area)``).
BOARD: Final = 0
_DECK_NAMES: Final = tuple(f"Rank {rank} deck" for rank in range(LAST_RANK + 1))
"""The Rank decks' zone names (index 0 unused), formatted once, not at every new game."""
EXILE_PILE: Final = LAST_RANK + 1
FIRST_SEAT_ZONE: Final = LAST_RANK + 2
PARTY_AREA: Final = 0
HAND_AREA: Final = 1
REWARD_AREA: Final = 2
AREAS_PER_SEAT: Final = 3
AREA_NAMES = ("party", "hand", "reward")
END_AREA_CHOICES = ("party", "hand", "reward", "any")

# Table numbers and seat numbers (all public).
ACTIVE: Final = 0  # the seat whose turn it is
RANK: Final = 1  # the active Rank deck
USES: Final = 2  # Party cards used this turn
ALTERNATIVE_USED: Final = 3  # 1 once an ability was performed without a card this turn
HAND_LIMIT_BONUS: Final = 4  # this turn's ``hand_limit`` effects
REFILL_HELD: Final = 5  # 1 between the picks of a multi-card explore
ENDING: Final = 6  # 1 once the last Rank 6 card left the Board: the game ends with this turn
TURN: Final = 7  # turns completed
BOARD_EXILES: Final = 8  # cards exiled from the Board with their Bonus
USED_MASK: Final = 9  # bit p: the Party card at position p was used this turn
BONUS_MASK: Final = 10  # bit p: the Board card at position p carries a Bonus
NUMBER_NAMES = ("active seat", "Rank", "cards used", "ability without a card used", "Hand limit bonus",
                "refill held", "ending", "turns", "Board exiles", "used Party positions (mask)",
                "Board positions with a Bonus (mask)")
BONUSES: Final = 0
SEAT_NUMBER_NAMES = ("Bonuses",)

# Readings of "If an effect allows you to Explore multiple cards at once, take
# all of those cards before resolving your Hand limit" (``rules.multi_explore``):
# the cards of one ``explore N`` effect (N >= 2) are all taken from the Board as
# it stood, then it is refilled (the literal default: "an effect"); every
# explore of one card use (icon and effect) is taken so; or the Board is
# refilled after every single pick.
MULTI_EXPLORE_PER_EFFECT, MULTI_EXPLORE_PER_CARD, MULTI_EXPLORE_REFILL_BETWEEN = (
    "per_effect", "per_card", "refill_between")
MULTI_EXPLORE_READINGS = (MULTI_EXPLORE_PER_EFFECT, MULTI_EXPLORE_PER_CARD, MULTI_EXPLORE_REFILL_BETWEEN)

# The effects a card's ``use`` and ``end`` lists may name, with their arguments
# (``simcore.effects``; the syntax: docs/game-kit.md, "Effects as data"). A
# ``use`` effect's index is its step; an ``end`` effect's is its END_ number.
_AMOUNT = Integer("N", 1, 9)
USE_EFFECTS = Vocabulary({name: (_AMOUNT,) for name in USE_PRIMITIVES})
END_VP: Final = 0
END_PER_BONUS: Final = 1
END_PER_ICON: Final = 2
END_PER_RANK: Final = 3
END_ALL_ICONS: Final = 4
END_PER_BONUSES: Final = 5
END_EFFECTS = Vocabulary({
    "vp": (_AMOUNT,),
    "vp_per_bonus": (_AMOUNT,),
    "vp_per_icon": (Choice("ICON", ICON_NAMES), _AMOUNT),
    "vp_per_rank": (Integer("R", 1, LAST_RANK), _AMOUNT),
    "vp_if_all_icons": (_AMOUNT,),
    "vp_per_bonuses": (Integer("K", 1, 9), _AMOUNT),  # N VP per K Bonuses
})

END_FINAL: Final = "final_rank_card_taken"
END_CAP: Final = "turn_cap"

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
_EXPLORED: Final = 0
_RECRUITED: Final = 1
_SUBJUGATED: Final = 2
_EXILED: Final = 3
_USED: Final = 4
_DRAWN: Final = 5
_PLAYED: Final = 6
_PLAYABLE: Final = 7
_EFFECT_COPIES: Final = 8
_EFFECT_VP: Final = 9
_ROW_COUNTERS: Final = (_EXPLORED, _RECRUITED, _SUBJUGATED, _EXILED, _USED, _DRAWN, _PLAYABLE, _EFFECT_COPIES)
"""A (seat, card) gets a row when the seat did something with the card, could use it, or scores its end effect."""

DATA_FILE = Path(__file__).with_name("cards.toml")

MOST_CARD_TYPES: Final = 63
"""The most card types a game may have: ``note_offered`` counts a step's card types as bits of one machine integer."""

INFO = GameInfo(
    id="theseus",
    name="Party of the Theseus",
    min_players=2,
    max_players=MAX_PLAYERS,
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
    column_descriptions={
        "rank_reached": "The Rank deck (1 to 6) in play when the game ended.",
        "tiebreak_used": "What decided a tie for most VP: `none` (no tie), `party_rank` (the higher total Rank "
                         "in the Party), `hand_rank` (then in the Hand) or `shared` (still tied).",
        "bonuses_taken": "Bonuses the players took into their Rewards, all seats together.",
        "board_exiles": "Cards exiled from the Board with their Bonus when a new Rank began.",
        "vp_printed": "The seat's VP printed on the cards of its Reward.",
        "vp_effects": "The seat's VP from the cards' end-of-game effects.",
        "vp_bonuses": "The seat's VP from the Bonuses in its Reward.",
        "explored": "Copies the seat Explored (took from the Board into its Hand).",
        "recruited": "Copies the seat Recruited (from its Hand into its Party).",
        "subjugated": "Copies the seat Subjugated (from its Hand into its Reward).",
        "exiled": "Copies the seat exiled from its own Hand or Party (the limits, a hex).",
        "used": "Times the seat used the card from its Party.",
        "drawn": "Copies that came into the seat's Hand: explored, drawn by an effect or pillaged.",
        "played": "Times the seat used the card from its Party (the same as `used`: what the card tables read).",
        "playable": "Steps at which one of the seat's legal actions would have used the card from its Party, "
                    "once per card per step, forced steps included.",
        "effect_copies": "The seat's copies of the card at the end whose end-of-game effect counts where they lie.",
        "effect_vp": "VP those end-of-game effects scored (summed over the seat's cards: `players.vp_effects`).",
    },
)

# Legal-action lists, made once per shape and kept (never changed: every
# state asked the same question shares one list).
_POSITIONS: Final[list[list[list[int]]]] = [[] for _ in ACTIONS.types]
"""``_POSITIONS[code][count]``: the answers of ``positions``."""
_MAIN_CHOICES: Final[list[list[int]]] = []
"""``_MAIN_CHOICES[usable_mask << 3 | alternatives]``: the answers of
``main_choices``, an empty list where none was built yet (it grows to the
largest key asked, below 2 ** (Party size + 3))."""
_NOT_BUILT: Final[list[int]] = []
"""The one empty list in every slot of ``_MAIN_CHOICES`` not built yet: a pointer a slot,
not a list object each (a Party of 16 can reach keys near 2 ** 19)."""


def positions(action_type: ActionType, count: int) -> list[int]:
    """The answers choosing one of ``count`` positions, of ``action_type`` (shared: do not change the list)."""
    by_count = _POSITIONS[action_type.code]
    while len(by_count) <= count:
        by_count.append([action_type.encode(position) for position in range(len(by_count))])
    return by_count[count]


def main_choices(usable_mask: i64, alternatives: i64) -> list[int]:
    """The ``main`` answers: the usable Party positions (bit mask), then the
    abilities without a card (bit i set: icon i may be performed), then
    ``END_TURN`` (shared: do not change the list)."""
    key = usable_mask << 3 | alternatives
    if key < len(_MAIN_CHOICES):
        built = _MAIN_CHOICES[key]
        if built:  # never empty once built: END_TURN is in it
            return built
    found = [PARTY_POSITION.encode(position) for position in range(MAX_PARTY_POSITIONS)
             if usable_mask >> position & 1]
    found += [WITHOUT_A_CARD.encode(icon) for icon in range(3) if alternatives >> icon & 1]
    found.append(END_TURN)
    while len(_MAIN_CHOICES) <= key:
        _MAIN_CHOICES.append(_NOT_BUILT)
    _MAIN_CHOICES[key] = found
    return found


def without_bit(mask: i64, position: i64) -> i64:
    """``mask`` of positions after the item at ``position`` left (the higher bits move down one)."""
    return (mask & ((1 << position) - 1)) | (mask >> (position + 1) << position)


@dataclass(frozen=True)
class TheseusConfig:
    """Compiled parameters: card attributes as tuples indexed by card type."""

    names: tuple[str, ...]
    ranks: tuple[int, ...]
    icons: tuple[int, ...]
    vps: tuple[int, ...]
    copies: tuple[int, ...]
    # Each card's ``use`` and ``end`` lists as one text (effects joined by commas), for traces.
    use_texts: tuple[str, ...]
    end_texts: tuple[str, ...]
    # The unit steps of each card's effect (without its icon), in order.
    effect_steps: tuple[tuple[int, ...], ...]
    # The steps pushed on the step stack when the card is used: icon then
    # effect, with the board steps of ``rules.multi_explore``, reversed (the
    # stack pops from the end).
    use_stack: tuple[tuple[int, ...], ...]
    # ``use_stack`` as the ready-made tasks (``_TASK_OF``) of each card and seat
    # (index ``card * MAX_PLAYERS + seat``): a use pushes them as they are, with no
    # step read, converted and looked up per push.
    use_tasks: tuple[tuple[Task, ...], ...]
    # (primitive, argument, amount) per end-of-game effect.
    end_effects: tuple[tuple[tuple[int, int, int], ...], ...]
    # Per card: does its end effect count from the Party, the Hand, the Reward.
    # Typed tuple[bool, ...]: a fixed-length tuple read at a variable index is re-boxed per read.
    end_counts_from: tuple[tuple[bool, ...], ...]
    # Card types of each Rank deck, index 0 unused (the starting cards).
    rank_decks: tuple[tuple[int, ...], ...]
    starting_party: tuple[int, ...]
    # Every game numbers its instances alike: the Rank decks' cards, Rank 1's
    # first, then each seat's starting Party. Kept here so that a new game
    # copies them (a C loop per tuple) instead of numbering, looking up and
    # boxing each card: per player count (index n: n players), the card type
    # and the Rank of every instance (``TheseusState.card_of``, ``rank_of``),
    # and the instances of each Rank deck (index 0 empty) and of each seat's Party.
    instance_cards: tuple[tuple[int, ...], ...]
    instance_ranks: tuple[tuple[int, ...], ...]
    deck_instances: tuple[tuple[int, ...], ...]
    party_instances: tuple[tuple[int, ...], ...]
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
    COPIES,
    Constraint("cards.*.end_area", choices=END_AREA_CHOICES),
)


def parse_use_primitives(effects: Any, path: str) -> tuple[tuple[int, int], ...]:
    """The primitives of a ``use`` list as (step, amount), e.g. ``["explore 2", "draw 1"]``
    -> ((STEP_EXPLORE, 2), (STEP_DRAW, 1))."""
    return tuple((effect.kind, effect.arguments[0]) for effect in USE_EFFECTS.parse(effects, path))


def unit_steps(primitives: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """(step, amount) primitives as unit steps, e.g. ((STEP_EXPLORE, 2),) -> (EXPLORE, EXPLORE)."""
    return tuple(step for step, amount in primitives for _ in range(amount))


def parse_use(effects: Any, path: str) -> tuple[int, ...]:
    """The unit steps of a ``use`` list, e.g. ``["explore 2"]`` -> (EXPLORE, EXPLORE)."""
    return unit_steps(parse_use_primitives(effects, path))


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


def parse_end(effects: Any, path: str) -> tuple[tuple[int, int, int], ...]:
    """The end-of-game effects of an ``end`` list as (primitive, argument, amount): the
    amount is the last argument, the argument the one before it (an icon, a Rank, a
    number of Bonuses) or 0, e.g. ``["vp_per_icon recruit 2"]`` -> ((END_PER_ICON, 1, 2),)."""
    parsed: list[tuple[int, int, int]] = []
    for effect in END_EFFECTS.parse(effects, path):
        arguments = effect.arguments
        parsed.append((effect.kind, arguments[0] if len(arguments) == 2 else 0, arguments[-1]))
    return tuple(parsed)


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
        use_texts.append(", ".join(card["use"]))
        end_texts.append(", ".join(card["end"]))
        effect_steps.append(steps)
        use_stack.append(tuple(reversed(use_sequence(icon, primitives, multi_explore))))
        end_effects.append(parse_end(card["end"], f"{path}.end"))
        counts_from.append(tuple(area in areas and area not in silenced for area in AREA_NAMES))
    require(len(names) <= MOST_CARD_TYPES, "cards",
            f"expected at most {MOST_CARD_TYPES} card types (a step counts them in a 64-bit mask)")
    starting = []
    for name in rules["starting_party"]:
        require(name in names, "rules.starting_party", f"expected card names, got unknown {name!r}")
        starting.append(names.index(name))
    require(len(starting) <= rules["party_limit"], "rules.starting_party", "expected at most party_limit cards")
    decks: list[tuple[int, ...]] = [()]
    for rank in range(1, LAST_RANK + 1):
        decks.append(tuple(card for card in range(len(names)) if ranks[card] == rank for _ in range(copies[card])))
    require(len(decks[LAST_RANK]) > 0, "cards", "expected at least one Rank 6 card (the game ends on the last one)")
    deck_instances: list[tuple[int, ...]] = []
    first = 0  # the next instance number
    for deck in decks:
        deck_instances.append(tuple(range(first, first + len(deck))))
        first += len(deck)
    party_instances: list[tuple[int, ...]] = []
    for _seat in range(MAX_PLAYERS):
        party_instances.append(tuple(range(first, first + len(starting))))
        first += len(starting)
    deck_cards = [card for deck in decks for card in deck]
    deck_ranks = [ranks[card] for card in deck_cards]
    starting_ranks = [ranks[card] for card in starting]
    return TheseusConfig(
        names=tuple(names), ranks=tuple(ranks), icons=tuple(icons), vps=tuple(vps), copies=tuple(copies),
        use_texts=tuple(use_texts), end_texts=tuple(end_texts), effect_steps=tuple(effect_steps),
        use_stack=tuple(use_stack), end_effects=tuple(end_effects),
        use_tasks=tuple(tuple(_TASK_OF[step * MAX_PLAYERS + seat] for step in steps)
                        for steps in use_stack for seat in range(MAX_PLAYERS)),
        end_counts_from=tuple((flags[0], flags[1], flags[2]) for flags in counts_from),
        rank_decks=tuple(decks), starting_party=tuple(starting),
        instance_cards=tuple((*deck_cards, *starting * n_players) for n_players in range(MAX_PLAYERS + 1)),
        instance_ranks=tuple((*deck_ranks, *starting_ranks * n_players) for n_players in range(MAX_PLAYERS + 1)),
        deck_instances=tuple(deck_instances), party_instances=tuple(party_instances),
        party_limit=rules["party_limit"], hand_limit=rules["hand_limit"], board_size=rules["board_size"],
        uses_per_turn=rules["uses_per_turn"], bonus_vp=rules["bonus_vp"], max_turns=rules["max_turns"],
        multi_explore=multi_explore,
    )


class TheseusState(SeatZonesState):
    """One game of Party of the Theseus in progress."""

    config: TheseusConfig
    # Set up once per game and shared by its clones (never changed after set-up).
    card_of: list[int]
    """Instance -> card type (also what a seat sees of it: ``observe_as``)."""
    card_types: vec[i64]
    """``card_of`` as a native vector, for the rules' reads at every use, move and
    offered step."""
    rank_of: list[int]
    """Instance -> its Rank (0 for a starting card): the class of each card for the Rank decks."""
    # Once the game is over (a finished game never changes again): its results read each
    # seat's end effects and tie key many times (winners, ranks, scores, the rows), so
    # they are computed at the first read. A clone starts without them.
    final_effects: list[tuple[list[int], list[int]]] | None
    final_score_parts: list[tuple[int, int, int]] | None
    final_tie_keys: list[tuple[int, int, int]] | None
    offered_usable: i64
    """The usable Party positions (bit mask) of the last ``main`` question built:
    ``note_offered`` reads them here instead of working them out again (copied by
    ``copy_extra``; valid while the question asked is ``main``, the last one built)."""

    # ----------------------------------------------------------------- set-up

    def __init__(self, config: TheseusConfig, n_players: int, rng: Generator, trace: TraceSink | None,
                 card_of: list[int] | None = None, rank_of: list[int] | None = None,
                 stats: CardStats | None = None, card_types: vec[i64] | None = None) -> None:
        super().__init__(n_players, rng, trace, len(NUMBER_NAMES), len(SEAT_NUMBER_NAMES),
                         stats if stats is not None else CardStats(n_players, len(CARD_COUNTERS), len(config.names)),
                         FIRST_SEAT_ZONE, AREAS_PER_SEAT, HAND_AREA)
        self.config = config
        self.card_of = [] if card_of is None else card_of
        self.card_types = vec[i64](self.card_of) if card_types is None else card_types
        self.rank_of = [] if rank_of is None else rank_of
        self.final_effects = None
        self.final_score_parts = None
        self.final_tie_keys = None
        self.offered_usable = 0

    @staticmethod
    def new_game(config: TheseusConfig, n_players: int, seed: int, trace: TraceSink | None) -> TheseusState:
        """Starting Parties, six shuffled Rank decks, four Board cards from Rank 1; seat 0 starts."""
        state = TheseusState(config, n_players, make_rng(seed), trace, list(config.instance_cards[n_players]),
                             list(config.instance_ranks[n_players]))
        state.add_zones()
        for rank in range(1, LAST_RANK + 1):
            # Put in and shuffled face down in one call: no seen marks written for the shuffle to clear.
            state.zones[rank].shuffle_in(list(config.deck_instances[rank]), state.rng)
        for seat in range(n_players):
            state.seat_zone(seat, PARTY_AREA).extend(list(config.party_instances[seat]))
        state.numbers[RANK] = 1
        if trace is not None:
            sizes = [len(state.zones[rank]) for rank in range(1, LAST_RANK + 1)]
            state.emit("setup", f"{n_players} players, each with Party "
                       + ", ".join(config.names[card] for card in config.starting_party)
                       + f"; Rank decks of {sizes} cards shuffled", deck_sizes=sizes)
        if not state.zones[1].cards:
            state._advance_rank()
        state._refill_board()
        state.push(_TASK_OF[MAIN * MAX_PLAYERS])
        state.run()
        return state

    def add_zones(self) -> None:
        """The game's zones, empty (``BOARD``, the Rank decks, ``EXILE_PILE``, then ``seat_zone``'s per seat)."""
        self.add_zone(Zone("Board", TABLE, PUBLIC))
        for rank in range(1, LAST_RANK + 1):
            self.add_zone(Zone(_DECK_NAMES[rank], TABLE, HIDDEN, pool=0, card_class=rank))
        self.add_zone(Zone("exiled (face down)", TABLE, HIDDEN, pool=0))
        for seat in range(self.n_players):
            self.add_zone(Zone("Party", seat, PUBLIC))
            self.add_zone(Zone("hand", seat, OWNER_ONLY, pool=0))
            self.add_zone(Zone("Reward", seat, PUBLIC))

    def blank(self) -> TheseusState:
        """An empty state of the same game (``clone`` fills it, its card stats included)."""
        return TheseusState(self.config, self.n_players, self.rng, None, self.card_of, self.rank_of, self.stats,
                            self.card_types)

    def copy_extra(self, copy: KitState) -> None:
        """The usable positions of the ``main`` question asked (``offered_usable``)."""
        assert isinstance(copy, TheseusState)
        copy.offered_usable = self.offered_usable

    def clone(self) -> TheseusState:
        """An exact copy with its own generator state and tracing off (the kit's)."""
        copy = super().clone()
        assert isinstance(copy, TheseusState)
        return copy

    def resample_hidden(self, seat: int, rng: Generator) -> TheseusState:
        """The kit's re-sampling: the cards ``seat`` neither sees nor saw (other
        Hands, the Rank decks, the exile pile) are dealt again; each Rank deck
        keeps its size and holds only cards of its Rank (``card_classes``)."""
        copy = super().resample_hidden(seat, rng)
        assert isinstance(copy, TheseusState)
        return copy

    def card_classes(self) -> list[int] | None:
        """Each instance's Rank: a Rank deck is redrawn only from cards of its Rank."""
        return self.rank_of

    def observe_as(self) -> list[int] | None:
        """A seat sees the card type of an instance, not which copy it is."""
        return self.card_of

    def trace_turn(self) -> int:
        """Trace events carry the turn being played (1 = the first); the game's end, the turn it ended in."""
        return self.numbers[TURN] if self.over else self.numbers[TURN] + 1

    # ----------------------------------------------------------- the zones

    def party(self, seat: i64) -> list[int]:
        """The instances in ``seat``'s Party, in order (positions are answers: do not change the list)."""
        # In place with the game's constants, not through ``seat_zone`` (``SeatZonesState`` says why).
        return self.zones[FIRST_SEAT_ZONE + AREAS_PER_SEAT * seat + PARTY_AREA].cards

    def reward(self, seat: i64) -> list[int]:
        """The instances in ``seat``'s Reward, in order (do not change the list)."""
        return self.zones[FIRST_SEAT_ZONE + AREAS_PER_SEAT * seat + REWARD_AREA].cards  # as ``party``

    def board(self) -> list[int]:
        """The instances on the Board, in order (do not change the list)."""
        return self.zones[BOARD].cards

    def has_bonus(self, position: i64) -> bool:
        """Whether the Board card at ``position`` carries a Bonus."""
        return (self.numbers[BONUS_MASK] >> position & 1) != 0

    def asked_kind(self) -> int:
        """The task kind asked now (``MAIN``, ``STEP_EXPLORE``, ``EXILE``...), ``OVER`` once the game has ended."""
        return OVER if self.over else self.decisions.asked.kind

    # ------------------------------------------------------------- the rules

    def perform(self, task: Task, choice: int) -> None:
        """Do ``task``: ask its question (``NO_CHOICE``) or carry out its answer
        (see the module docstring). A step that cannot be performed (an empty
        Board or Hand, no other Reward to pillage) is skipped."""
        kind: i64 = task.kind
        seat: i64 = task.seat
        if kind == MAIN:
            if choice == NO_CHOICE:
                self.ask(task, self._main_choices(seat))
            elif choice == END_TURN:
                self._close_turn(seat)
            else:
                self._use(task, choice)
        elif kind == STEP_EXPLORE:
            if choice != NO_CHOICE:
                self._explore(seat, BOARD_POSITION.value(choice))
                return
            board = self.zones[BOARD]
            if not board.cards and self.numbers[REFILL_HELD]:
                # The Board as it stood is used up: the remaining picks come from its refill.
                self._refill_board()
            if board.cards:
                self.ask(task, positions(BOARD_POSITION, len(board.cards)))
        elif kind in (STEP_RECRUIT, STEP_SUBJUGATE):
            if choice != NO_CHOICE:
                self._take_from_hand(seat, HAND_POSITION.value(choice), kind)
                return
            hand = self.hand(seat)
            if hand:
                self.ask(task, positions(HAND_POSITION, len(hand)))
        elif kind == EXILE:
            self._exile_task(task, choice)
        elif kind == LIMITS:
            hand_limit = self.config.hand_limit + self.numbers[HAND_LIMIT_BONUS]
            over = self._over_limits(seat, hand_limit)
            if over:
                self._demand_limits(seat, hand_limit, over)
        elif kind == STEP_DRAW:
            self._draw(seat)
        elif kind == STEP_HOLD_REFILL:
            self.numbers[REFILL_HELD] = 1
        elif kind == STEP_REFILL:
            self.numbers[REFILL_HELD] = 0
            self._refill_board()
            self._check_final_card()
        elif kind == STEP_HAND_LIMIT:
            self.numbers[HAND_LIMIT_BONUS] += 1
            if self.trace is not None:
                self.emit("hand_limit", f"seat {seat}'s Hand limit is "
                          f"{self.config.hand_limit + self.numbers[HAND_LIMIT_BONUS]} this turn", seat=seat)
        elif kind == STEP_HEX:
            self._hex(seat)
        elif kind == STEP_PILLAGE:
            if choice != NO_CHOICE:
                self._pillage(seat, choice)
                return
            choices = self._pillage_choices(seat)
            if choices:
                self.ask(task, choices)
        else:  # FINISH_TURN
            self._finish_turn(seat)

    def _main_choices(self, seat: i64) -> list[int]:
        """The ``main`` answers of the active ``seat`` (``main_choices``); their
        usable Party positions are kept in ``offered_usable`` for ``note_offered``."""
        numbers = self.numbers
        usable: i64 = 0
        alternatives: i64 = 0
        if not numbers[ALTERNATIVE_USED]:  # an ability without a card ends the use of cards
            uses = numbers[USES]
            if uses < self.config.uses_per_turn:  # the Party positions not used yet
                size: i64 = len(self.party(seat))
                usable = ((1 << size) - 1) & ~numbers[USED_MASK]
            if uses == 0:  # an ability without a card only instead of using cards
                if self.zones[BOARD].cards:
                    alternatives |= 1 << EXPLORE_ICON
                if self.hand(seat):
                    alternatives |= 1 << RECRUIT_ICON | 1 << SUBJUGATE_ICON
        self.offered_usable = usable
        return main_choices(usable, alternatives)

    def _pillage_choices(self, seat: i64) -> list[int]:
        return [PILLAGE.encode(victim, position)
                for victim in range(self.n_players) if victim != seat
                for position in range(len(self.reward(victim)))]

    def _use(self, main: Task, choice: int) -> None:
        """Use a Party card or perform an ability without a card: its steps, then
        the limits, then the ``main`` question again (pushed in reverse; the
        first step, which ``run`` would pop at once, is performed here)."""
        seat: i64 = main.seat
        numbers = self.numbers
        stack = self.decisions.stack
        stack.append(main)
        stack.append(_TASK_OF[LIMITS * MAX_PLAYERS + seat])
        if WITHOUT_A_CARD.matches(choice):
            icon = WITHOUT_A_CARD.value(choice)
            numbers[ALTERNATIVE_USED] = 1
            if self.trace is not None:
                self.emit("alternative", f"seat {seat} performs {ICON_NAMES[icon]} without a card", seat=seat)
            self.perform(_TASK_OF[icon * MAX_PLAYERS + seat], NO_CHOICE)
            return
        position: i64 = PARTY_POSITION.value(choice)
        instance = self.party(seat)[position]
        card = self.card_types[instance]
        numbers[USED_MASK] |= 1 << position
        numbers[USES] += 1
        self.stats.note_played(seat, _USED, card, numbers[TURN] + 1)
        if self.trace is not None:
            self.emit("use", f"seat {seat} uses {self.card_name(instance)}", seat=seat, card=self.config.names[card])
        tasks = self.config.use_tasks[card * MAX_PLAYERS + seat]
        last: i64 = len(tasks) - 1  # the icon: the first step
        index: i64
        for index in range(last):
            stack.append(tasks[index])
        self.perform(tasks[last], NO_CHOICE)

    def _exile_task(self, task: Task, choice: int) -> None:
        """Exile one card of the seat's choice while the area holds more than ``keep`` (the task's fields)."""
        seat: i64 = task.seat
        area: i64 = task.a
        if choice != NO_CHOICE:
            position = (PARTY_POSITION if area == PARTY_AREA else HAND_POSITION).value(choice)
            self._exile(seat, area, position)
            self._exile_task(task, NO_CHOICE)  # asked again until the area is down to ``keep``
            return
        count = len(self.seat_zone(seat, area))
        if count > task.b:
            self.ask(task, positions(PARTY_POSITION if area == PARTY_AREA else HAND_POSITION, count))

    def _over_limits(self, seat: i64, hand_limit: i64) -> i64:
        """The areas of ``seat`` holding more cards than their limit, as a mask
        (bit ``HAND_AREA``, bit ``PARTY_AREA``); 0: nothing to exile. Checked
        after every use and at every turn's end, so the zones are read in place
        (no ``hand`` and ``party`` calls)."""
        zones = self.zones
        first = self.seat_zone_index(seat, 0)
        over: i64 = 0
        if len(zones[first + HAND_AREA].cards) > hand_limit:
            over |= 1 << HAND_AREA
        if len(zones[first + PARTY_AREA].cards) > self.config.party_limit:
            over |= 1 << PARTY_AREA
        return over

    def _demand_limits(self, seat: i64, hand_limit: i64, over: i64) -> None:
        """Exiles for ``seat`` down to the limits in the areas of ``over``
        (``_over_limits``); the Party's on top, so it is done first."""
        if over >> HAND_AREA & 1:
            self.push(Task(EXILE, seat, HAND_AREA, hand_limit))
        if over >> PARTY_AREA & 1:
            self.push(Task(EXILE, seat, PARTY_AREA, self.config.party_limit))

    def _close_turn(self, seat: i64) -> None:
        """End of turn: the temporary Hand limit lapses, so both limits are checked once more before it ends."""
        self.numbers[HAND_LIMIT_BONUS] = 0
        hand_limit = self.config.hand_limit
        over = self._over_limits(seat, hand_limit)
        if not over:
            self._finish_turn(seat)  # what ``run`` would pop next, done at once
            return
        self.push(_TASK_OF[FINISH_TURN * MAX_PLAYERS + seat])
        self._demand_limits(seat, hand_limit, over)

    def _finish_turn(self, seat: i64) -> None:
        numbers = self.numbers
        if self.trace is not None:  # in the turn it ends
            self.emit("turn_end", f"seat {seat} ends the turn", seat=seat)
        numbers[TURN] += 1
        if numbers[ENDING]:
            self._end(END_FINAL)
            return
        if numbers[TURN] >= self.config.max_turns:
            self._end(END_CAP)
            return
        following = (seat + 1) % self.n_players
        numbers[ACTIVE] = following
        numbers[USED_MASK] = 0
        numbers[USES] = 0
        numbers[ALTERNATIVE_USED] = 0
        # The next ``main`` question asked at once, as ``perform`` asks it when ``run`` pops it
        # (a call to ``_main_choices``, not through ``perform``'s dispatch: once a turn).
        self.ask(_TASK_OF[MAIN * MAX_PLAYERS + following], self._main_choices(following))

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Count, for the player to act, each card type that one of
        ``legal_actions`` would use from the Party (once per type per step).

        ``legal_actions`` is the list this state asked (``play_game`` passes
        it), whose Party positions are the mask ``offered_usable`` kept when
        the question was built: the mask is read instead of decoding each
        answer, and the card types counted as bits of one integer."""
        if self.over or self.decisions.asked.kind != MAIN:
            return
        usable = self.offered_usable
        if not usable:
            return
        seat: i64 = self.current_player
        party, card_types = self.party(seat), self.card_types
        counts = self.stats.counts
        playable = self.stats.offset(seat, _PLAYABLE)
        counted: i64 = 0  # at most MOST_CARD_TYPES types
        position: i64
        for position in range(len(party)):
            if usable >> position & 1:
                card = card_types[party[position]]
                if not counted >> card & 1:
                    counted |= 1 << card
                    counts[playable + card] += 1

    # ---------------------------------------------------- abilities, effects

    def _explore(self, seat: i64, position: i64) -> None:
        numbers = self.numbers
        bonuses = numbers[BONUS_MASK]
        bonus = bonuses >> position & 1
        if bonuses:
            numbers[BONUS_MASK] = without_bit(bonuses, position)
        instance = move_card(self.zones[BOARD], position, self.seat_zone(seat, HAND_AREA))
        card = self.card_types[instance]
        stats = self.stats
        stats.add(seat, _EXPLORED, card)
        stats.add(seat, _DRAWN, card)
        if bonus:
            self.set_seat_number(seat, BONUSES, self.seat_number(seat, BONUSES) + 1)
        if self.trace is not None:
            self.emit("explore", f"seat {seat} explores {self.card_name(instance)}"
                      + (" and adds its Bonus to the Reward" if bonus else ""),
                      seat=seat, card=self.config.names[card], bonus=bonus != 0)
        if not numbers[REFILL_HELD]:
            self._refill_board()
        self._check_final_card()

    def _take_from_hand(self, seat: i64, position: i64, kind: i64) -> None:
        """Recruit (into the Party) or subjugate (into the Reward) the Hand card at ``position``."""
        area = PARTY_AREA if kind == STEP_RECRUIT else REWARD_AREA
        instance = move_card(self.seat_zone(seat, HAND_AREA), position, self.seat_zone(seat, area))
        card = self.card_types[instance]
        self.stats.add(seat, _RECRUITED if kind == STEP_RECRUIT else _SUBJUGATED, card)
        if self.trace is not None:
            verb = TASKS.names[kind]
            self.emit(verb, f"seat {seat} {verb}s {self.card_name(instance)}", seat=seat,
                      card=self.config.names[card])

    def _exile(self, seat: i64, area: i64, position: i64) -> None:
        instance = move_card(self.seat_zone(seat, area), position, self.zones[EXILE_PILE])
        if area == PARTY_AREA and seat == self.numbers[ACTIVE]:
            self.numbers[USED_MASK] = without_bit(self.numbers[USED_MASK], position)
        card = self.card_types[instance]
        self.stats.add(seat, _EXILED, card)
        if self.trace is not None:
            self.emit("exile", f"seat {seat} exiles {self.card_name(instance)} from the {AREA_NAMES[area]}",
                      seat=seat, card=self.config.names[card], area=AREA_NAMES[area])

    def _pillage(self, seat: i64, choice: int) -> None:
        victim, position = PILLAGE.field(choice, 0), PILLAGE.field(choice, 1)
        instance = move_card(self.seat_zone(victim, REWARD_AREA), position, self.seat_zone(seat, HAND_AREA))
        card = self.card_types[instance]
        self.stats.add(seat, _DRAWN, card)
        if self.trace is not None:
            self.emit("pillage", f"seat {seat} takes {self.card_name(instance)} from seat {victim}'s Reward",
                      seat=seat, victim=victim, card=self.config.names[card])

    def _hex(self, seat: i64) -> None:
        """Each other player (in turn order) exiles one card from the Hand, if any."""
        victims = [(seat + offset) % self.n_players for offset in range(1, self.n_players)]
        if self.trace is not None:
            self.emit("hex", f"seat {seat} hexes: every other player exiles a card from the Hand", seat=seat)
        for victim in reversed(victims):  # the stack pops the next seat first
            held = len(self.hand(victim))
            if held:
                self.push(Task(EXILE, victim, HAND_AREA, held - 1))

    def _draw(self, seat: i64) -> None:
        """Draw the top card of the current Rank deck face down into the Hand."""
        rank = self.numbers[RANK]
        deck = self.zones[rank]
        if not deck.cards:
            return
        instance = move_card(deck, len(deck.cards) - 1, self.seat_zone(seat, HAND_AREA))
        self.stats.add(seat, _DRAWN, self.card_types[instance])
        if self.trace is not None:
            self.emit("draw", f"seat {seat} draws a Rank {rank} card", seat=seat, rank=rank)
        if not deck.cards:
            self._advance_rank()
            if not self.numbers[REFILL_HELD]:
                self._refill_board()
        self._check_final_card()

    # ------------------------------------------------------- board and ranks

    def _refill_board(self) -> None:
        """Reveal cards from the current Rank deck until the Board is full, advancing Ranks as decks run out."""
        board = self.zones[BOARD]
        size: i64 = self.config.board_size
        while len(board.cards) < size:
            deck = self.zones[self.numbers[RANK]]
            if not deck.cards:
                return  # only at the last Rank: there is no deck after Rank 6
            instance = deck.take_top()
            board.cards.append(instance)  # face up: a public zone keeps no history
            if self.trace is not None:
                self.emit("reveal", f"revealed {self.card_name(instance)} on the Board",
                          card=self.config.names[self.card_of[instance]], rank=self.numbers[RANK])
            if not deck.cards:
                self._advance_rank()

    def _advance_rank(self) -> None:
        """The current deck is empty: the next Rank begins. Cards still carrying a
        Bonus are exiled with it, then every lower-Rank card on the Board gets one."""
        numbers, rank_of, board = self.numbers, self.rank_of, self.zones[BOARD]
        while numbers[RANK] < LAST_RANK and not self.zones[numbers[RANK]].cards:
            rank = numbers[RANK] + 1
            numbers[RANK] = rank
            bonuses = numbers[BONUS_MASK]
            lost = [instance for position, instance in enumerate(board.cards) if bonuses >> position & 1]
            if lost:
                board.cards[:] = [instance for position, instance in enumerate(board.cards)
                                  if not bonuses >> position & 1]
                self.zones[EXILE_PILE].extend(lost, EVERY_SEAT)  # they lay face up
                numbers[BOARD_EXILES] += len(lost)
            gained = 0
            for position, instance in enumerate(board.cards):
                if rank_of[instance] < rank:
                    gained |= 1 << position
            numbers[BONUS_MASK] = gained
            if self.trace is not None:
                with_bonus = [instance for position, instance in enumerate(board.cards) if gained >> position & 1]
                self.emit("rank", f"Rank {rank} begins: exiled with their Bonus: {self._names(lost) or 'none'}; "
                          f"Bonus placed on: {self._names(with_bonus) or 'none'}", rank=rank,
                          exiled=self._names(lost), bonus=self._names(with_bonus))

    def _check_final_card(self) -> None:
        """The game ends this turn once the last Rank 6 deck is empty and no Rank 6 card is on the Board."""
        numbers = self.numbers
        if numbers[ENDING] or numbers[RANK] < LAST_RANK or self.zones[LAST_RANK].cards:
            return
        rank_of = self.rank_of
        for instance in self.zones[BOARD].cards:
            if rank_of[instance] == LAST_RANK:
                return
        numbers[ENDING] = 1
        if self.trace is not None:
            self.emit("final_card", "the last Rank 6 card has left the Board: the game ends after this turn")

    def _end(self, reason: str) -> None:
        self.end(reason)
        if self.trace is not None:
            parts = [self.score_parts(seat) for seat in range(self.n_players)]
            tiebreak = self._tiebreak()
            self.emit("game_over", f"game over ({reason}): VP {[sum(p) for p in parts]} "
                      f"(printed, effects, bonuses: {parts}); winners {self.winners()}, tiebreak {tiebreak}",
                      reason=reason, scores=[sum(p) for p in parts], winners=self.winners(), tiebreak=tiebreak)

    def _names(self, instances: list[int]) -> list[str]:
        return [self.config.names[self.card_of[instance]] for instance in instances]

    # ------------------------------------------------------------- results

    def winners(self) -> list[int]:
        """The seats with the best (VP, Party Rank total, Hand Rank total); all of them on a full tie."""
        if not self.over:
            return []
        keys = self.tie_keys()
        best = max(keys)
        return [seat for seat in range(self.n_players) if keys[seat] == best]

    def returns(self) -> list[float]:
        """1 for a sole winner, 1/k each for k winners sharing, 0 otherwise."""
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.n_players)]

    def scores(self) -> list[int]:
        """Final VP: printed VP of the Reward + card effects + Bonuses."""
        return [self.score(seat) for seat in range(self.n_players)]

    def standings(self) -> list[int]:
        """The VP each seat would score if the game ended now (RULES.md, "Standings")."""
        return [self.score(seat) for seat in range(self.n_players)]

    def ranks(self) -> list[int]:
        """Competition ranks by VP, then the tiebreakers."""
        keys = self.tie_keys()
        return [1 + sum(1 for other in keys if other > mine) for mine in keys]

    def factions(self) -> list[str | None]:
        """Theseus has no factions."""
        return [None] * self.n_players

    def turns(self) -> int:
        """Turns completed (each player's turn counts one)."""
        return self.numbers[TURN]

    def game_columns(self) -> dict[str, Any]:
        """Rank reached, tiebreak used, Bonuses taken, cards exiled from the Board with their Bonus."""
        return {
            "rank_reached": self.numbers[RANK],
            "tiebreak_used": self._tiebreak(),
            "bonuses_taken": sum(self.seat_number(seat, BONUSES) for seat in range(self.n_players)),
            "board_exiles": self.numbers[BOARD_EXILES],
        }

    def _tiebreak(self) -> str:
        return tiebreak_used(self.tie_keys()) if self.over else TIEBREAK_NONE

    def end_effect_counts(self, seat: int) -> tuple[list[int], list[int]]:
        """Per card type: the seat's copies whose end effect counts where they
        lie now, and the VP those effects score (``score_parts``' effect part).
        Do not change the lists."""
        if not self.over:
            return self._end_effect_counts_now(seat)
        if self.final_effects is None:
            self.final_effects = [self._end_effect_counts_now(other) for other in range(self.n_players)]
        return self.final_effects[seat]

    def _end_effect_counts_now(self, seat: int) -> tuple[list[int], list[int]]:
        config, card_of = self.config, self.card_of
        copies = [0] * len(config.names)
        vp = [0] * len(config.names)
        area: i64
        for area in range(PARTY_AREA, REWARD_AREA + 1):  # the Party, the Hand, the Reward
            for instance in self.seat_zone(seat, area).cards:
                card = card_of[instance]
                if config.end_effects[card] and config.end_counts_from[card][area]:
                    copies[card] = copies[card] + 1  # ``+=`` on a list item is a generic number call
        # Every copy of a card type scores the same (its effects read the seat, not the copy).
        for card in range(len(copies)):
            if copies[card]:
                vp[card] = copies[card] * self.end_effect_vp(seat, card)
        return copies, vp

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per (seat, card type) the seat explored, recruited, subjugated,
        exiled, used, could use, got into its Hand or scored an end effect with;
        ``played`` is ``used``, the effect counters are read from the final position."""
        config, stats = self.config, self.stats
        n_cards = len(config.names)
        for seat in range(self.n_players):
            stats.copy_counter(seat, _USED, _PLAYED)
            effect_copies, effect_vp = self.end_effect_counts(seat)
            stats.set_counter(seat, _EFFECT_COPIES, effect_copies)
            stats.set_counter(seat, _EFFECT_VP, effect_vp)
        # A starting card has one copy per player.
        copies = tuple([config.copies[card] or (self.n_players if config.ranks[card] == 0 else 0)
                        for card in range(n_cards)])
        stats.add_rows(columns, config.names, copies, _ROW_COUNTERS)

    def describe_action(self, action: int) -> str:
        """The action in words, e.g. ``use Rogue (explore)`` or ``explore Scout``."""
        kind = self.asked_kind()
        seat = self.current_player
        if kind == MAIN:
            if action == END_TURN:
                return "end the turn"
            if WITHOUT_A_CARD.matches(action):
                return f"{ICON_NAMES[WITHOUT_A_CARD.value(action)]} without a card"
            return f"use {self.card_name(self.party(seat)[PARTY_POSITION.value(action)])}"
        if kind == STEP_EXPLORE:
            position = BOARD_POSITION.value(action)
            return (f"explore {self.card_name(self.board()[position])}"
                    + (" with its Bonus" if self.has_bonus(position) else ""))
        if kind in (STEP_RECRUIT, STEP_SUBJUGATE):
            return f"{TASKS.names[kind]} {self.card_name(self.hand(seat)[HAND_POSITION.value(action)])}"
        if kind == EXILE:
            area = self.decisions.asked.a
            position = (PARTY_POSITION if area == PARTY_AREA else HAND_POSITION).value(action)
            return f"exile {self.card_name(self.seat_zone(seat, area).cards[position])} from the {AREA_NAMES[area]}"
        if kind == STEP_PILLAGE:
            victim, position = PILLAGE.decode(action)
            return f"take {self.card_name(self.reward(victim)[position])} from seat {victim}'s Reward"
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

    def score(self, seat: int) -> int:
        """Final VP: the sum of ``score_parts`` (added by hand: ``sum`` of a tuple is a generic call)."""
        printed, effects, bonuses = self.score_parts(seat)
        return printed + effects + bonuses

    def score_parts(self, seat: int) -> tuple[int, int, int]:
        """(printed VP of the Reward, VP from card end effects, VP from Bonuses)."""
        if not self.over:
            return self._score_parts_now(seat)
        if self.final_score_parts is None:
            self.final_score_parts = [self._score_parts_now(other) for other in range(self.n_players)]
        return self.final_score_parts[seat]

    def _score_parts_now(self, seat: int) -> tuple[int, int, int]:
        config, card_of = self.config, self.card_of
        printed = effects = 0
        for instance in self.reward(seat):
            printed += config.vps[card_of[instance]]
        for vp in self.end_effect_counts(seat)[1]:
            effects += vp
        return printed, effects, self.seat_number(seat, BONUSES) * config.bonus_vp

    def end_effect_vp(self, seat: int, card: int) -> int:
        """What ``card``'s end-of-game effects are worth to ``seat`` now (wherever the card is)."""
        return self.end_effect_vp_with_party(seat, card, self.party(seat))

    def end_effect_vp_with_party(self, seat: int, card: int, party: list[int]) -> int:
        """What ``card``'s end-of-game effects would be worth to ``seat`` with
        ``party`` (instances) as its Party and everything else as it is."""
        config, card_of = self.config, self.card_of
        bonuses = self.seat_number(seat, BONUSES)
        total = 0
        # Runs for every scored card at every game's end and at most of the heuristic's choices.
        for kind, argument, amount in config.end_effects[card]:
            if kind == END_VP:
                total += amount
            elif kind == END_PER_BONUS:
                total += amount * bonuses
            elif kind == END_PER_ICON:
                icons = config.icons
                for instance in party:
                    if icons[card_of[instance]] == argument:
                        total += amount
            elif kind == END_PER_RANK:
                ranks = config.ranks
                for instance in self.reward(seat):
                    if ranks[card_of[instance]] == argument:
                        total += amount
            elif kind == END_PER_BONUSES:
                total += amount * (bonuses // argument)
            else:  # END_ALL_ICONS: the Party shows three different icons
                icons_shown = 0
                for instance in party:
                    icons_shown |= 1 << config.icons[card_of[instance]]
                if icons_shown.bit_count() == 3:
                    total += amount
        return total

    def rank_total(self, cards: list[int]) -> int:
        """Sum of the Ranks of ``cards`` (instances), for the tiebreakers."""
        rank_of = self.rank_of
        total = 0
        for instance in cards:
            total += rank_of[instance]
        return total

    def tie_key(self, seat: int) -> tuple[int, int, int]:
        """(VP, Party Rank total, Hand Rank total): higher is better, in that order."""
        return self.score(seat), self.rank_total(self.party(seat)), self.rank_total(self.hand(seat))

    def tie_keys(self) -> list[tuple[int, int, int]]:
        """Every seat's ``tie_key`` (do not change the list)."""
        if not self.over:
            return [self.tie_key(seat) for seat in range(self.n_players)]
        if self.final_tie_keys is None:
            self.final_tie_keys = [self.tie_key(seat) for seat in range(self.n_players)]
        return self.final_tie_keys


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
