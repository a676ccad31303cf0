"""Ring of Chaos: the rules (see RULES.md beside this file).

2 to 6 players, each an Adventuring Party of four Heroes (Cleric, Fighter,
Rogue, Wizard) on a battle map; the Ring of Chaos starts on the Chaos Altar.
A turn: draw three cards one at a time (a Temple Guardian attacks every party
at once and is replaced), then at most one Move, one Attack and one Bonus
Action in any order, then discard down to five cards. Win with 11 Summoning
Points (the last one only from the Ring) or as the last party alive.

The state is a ``simcore.kit.state.KitState``: every card in a zone (the draw
pile, the discard pile, the cards in play, the Tithe pool, the party cards;
per seat its hand and its Imprison cards), the public numbers (the Ring, the
Actions used, each space's occupant; per seat its party, space, points and
Heroes' statuses) and the task stack. A turn is "draw, draw, draw, main menu,
end of turn", an attack is "attacker picks the hero, defender may counter,
the hit": each a task (``TASKS``) that does its work, pushes more tasks, or
asks one seat a question (the active player, or the targeted player for an
out-of-turn counter). Every answer is made by an action type (``MENU``,
``MOVE``, ``PLAY``, ``PLAY_AS_RANGED``, ``STEAL_CARD``, ``PASS`` and the
value answers of ``ANSWER_TYPES``); ``describe_action`` and the heuristic
decode through them.

A task performed without an answer (``NO_CHOICE``) only computes its choices,
so the kit's ``resample_hidden`` can ask the same question again after
redrawing what the seat cannot see.

Compiled with mypyc; docs/development/compiled-style.md says why the code is
written as it is (``Final`` constants, ``elif`` dispatch, ``i64``, plain loops,
native vectors, bit masks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, cast

from mypy_extensions import i64

from simcore.api import CardColumns, GameInfo, TraceSink, ranks_from_scores
from simcore.games.ring_of_chaos.config import (
    ATTACK_SLOT,
    BONUS_SLOT,
    BRUTE_SQUAD,
    BULLY,
    CARD_NAMES,
    CHAOS_MAGIC,
    CLASS_NAMES,
    DEATH_FROM_ABOVE,
    DEFENDERS_OF_THE_FAITH,
    DEN_OF_THIEVES,
    DREAD_LEGION,
    FIREBALL,
    GIANT_SLAYERS,
    GUARDIAN,
    HELL_RAISERS,
    HEROIC_SACRIFICE,
    MELEE,
    MELEE_REACH,
    MELEE_SURE,
    MOVE_SLOT,
    NO_CLASS,
    RANGED,
    RANGED_REACH,
    RANGED_SURE,
    ROGUE,
    SAVAGE_ATTACK,
    SCAVENGE,
    TEMPLE_GUARDIAN,
    RingConfig,
    check_party_draft,
)
from simcore.kit.cardstats import CardStats
from simcore.kit.decisions import FIELD_BITS, NO_CHOICE, ActionType, Task, TaskKinds, answer_list
from simcore.kit.state import KitState, SeatZonesState
from simcore.kit.zones import EVERY_SEAT, HIDDEN, OWNER_ONLY, PUBLIC, TABLE, Zone, move_card
from simcore.rng import Generator
from simcore.seeding import make_rng

DEAD: Final = 0
WOUNDED: Final = 1
FULL: Final = 2
STATUS_NAMES = ("dead", "wounded", "full strength")

# Attack styles (``config.MELEE``...): who may counter with what.
STYLE_NAMES = ("melee", "melee (cannot be parried)", "ranged", "ranged (cannot be dodged)", "Temple Guardian")

# The task kinds, with their fields' names (``a``, ``b``, ``c`` in order), in the order of
# the old ``K_*`` numbers.
TASKS: Final = TaskKinds()
K_DRAFT: Final = TASKS.add("draft", ("offer_a", "offer_b", "drafted"))
K_TURN_START: Final = TASKS.add("turn_start")
K_DRAW: Final = TASKS.add("draw", ("replace_guardian",))
K_GUARDIAN_DEFEND: Final = TASKS.add("guardian_defend", ("drawer",))
K_MAIN: Final = TASKS.add("main")
K_END_TURN: Final = TASKS.add("end_turn")
K_DISCARD_EXCESS: Final = TASKS.add("discard_excess")
K_PUSH: Final = TASKS.add("push", ("occupant", "destination"))
K_TARGET: Final = TASKS.add("target", ("card", "mode"))
K_ATTACKER_HERO: Final = TASKS.add("attacker_hero", ("defender", "style", "card"))
K_COUNTER: Final = TASKS.add("counter", ("attacker", "hero", "attack"))
K_OWN_HERO_HIT: Final = TASKS.add("own_hero_hit", ("attacker", "is_attack"))
K_RETREAT: Final = TASKS.add("retreat")
K_SPACE: Final = TASKS.add("space", ("card",))
K_BULLY_TARGET: Final = TASKS.add("bully_target")
K_LEADERSHIP: Final = TASKS.add("leadership", ("target",))
K_SCAVENGE: Final = TASKS.add("scavenge")
K_TITHE_DROP: Final = TASKS.add("tithe_drop", ("caster",))
K_TITHE_PICK: Final = TASKS.add("tithe_pick")
K_SAVAGE_MORE: Final = TASKS.add("savage_more")
K_TAKE_RING: Final = TASKS.add("take_ring", ("holder", "card"))
K_SACRIFICE: Final = TASKS.add("sacrifice", ("taker", "card", "step"))
K_GIVE_RING: Final = TASKS.add("give_ring", ("holder",))
K_CHAOS_OFFER: Final = TASKS.add("chaos_offer", ("caster_victim", "last", "countered_step"))
K_RAISE: Final = TASKS.add("raise", ("from_status",))
K_HELL_OFFER: Final = TASKS.add("hell_offer", ("caster", "card"))
K_NECROMANCY: Final = TASKS.add("necromancy")
K_DEFENDERS_HERO: Final = TASKS.add("defenders_hero")
K_DEFENDERS_DISCARD: Final = TASKS.add("defenders_discard")
K_RAISE_HERO: Final = TASKS.add("raise_hero", ("hero",))
K_POISON_DISCARD: Final = TASKS.add("poison_discard")
K_PIT_TRAP: Final = TASKS.add("pit_trap")
K_EARTHQUAKE: Final = TASKS.add("earthquake")
K_SPLASH: Final = TASKS.add("splash", ("other", "style", "card"))

# Tasks that stay on the stack when a party is eliminated although they name it: its turn
# still ends (and the next begins), and a Chaos Magic chain offered to it carries on past it.
_TASKS_OUTLIVING_THEIR_SEAT = (K_END_TURN, K_TURN_START, K_CHAOS_OFFER)
# Tasks whose ``a`` field is the party whose card they come from (an attack's attacker, Pit
# Trap's or Earthquake's caster, Tithe's or a raise's caster): they fizzle with that party.
_TASKS_OWNED_THROUGH_A = (K_COUNTER, K_OWN_HERO_HIT, K_TITHE_DROP, K_HELL_OFFER)

# The answers. The value answers (code 0) are the value itself; the question asked says which
# type they are (``ANSWER_TYPES``). The main menu mixes types, told apart by their codes.
HAND_POSITION: Final = ActionType(0, "hand position", ("position",), (FIELD_BITS,))
HERO: Final = ActionType(0, "hero", ("hero",), (FIELD_BITS,))
SPACE: Final = ActionType(0, "space", ("space",), (FIELD_BITS,))
SEAT: Final = ActionType(0, "seat", ("seat",), (FIELD_BITS,))
CARD: Final = ActionType(0, "card", ("card",), (FIELD_BITS,))
PARTY: Final = ActionType(0, "party", ("party",), (FIELD_BITS,))
NEGATE: Final = ActionType(0, "negate", (), ())
MENU: Final = ActionType(0, "menu", ("choice",), (FIELD_BITS,))
MOVE: Final = ActionType(1, "move to", ("space",), (FIELD_BITS,))
PLAY: Final = ActionType(2, "play", ("position",), (FIELD_BITS,))
PLAY_AS_RANGED: Final = ActionType(3, "play as ranged", ("position",), (FIELD_BITS,))
STEAL_CARD: Final = ActionType(4, "steal a card from", ("seat",), (FIELD_BITS,))
PASS_TYPE: Final = ActionType(5, "pass", (), ())
PASS: Final = PASS_TYPE.encode()

# Main-menu choices (``MENU`` values: the active player's Actions without a card).
END_TURN: Final = MENU.encode(0)
DRAW_CARD: Final = MENU.encode(1)  # Attack Action: draw a card instead of attacking
PICK_UP_RING: Final = MENU.encode(2)  # Bonus Action
STEAL_RING: Final = MENU.encode(3)  # Bonus Action, from an Adjacent wearer
DEFENDERS_POWER: Final = MENU.encode(4)  # Bonus Action of Defenders of the Faith
# The main menu's Move and Play answers as int objects made once, by space and by hand position
# (``answer_object``): a list of answers holds int objects, and these, above the small ints Python
# keeps, were made and freed again at every question (two thirds of the menu's answers).
MADE_ANSWERS: Final = 64
"""Answers made in advance per type: every space of a map and every hand position in practice."""


def answer_objects(action_type: ActionType) -> tuple[object, ...]:
    """``action_type``'s answers of values 0 to ``MADE_ANSWERS - 1``, as int objects."""
    return tuple(action_type.encode(value) for value in range(MADE_ANSWERS))


MOVE_ANSWERS: Final = answer_objects(MOVE)
PLAY_ANSWERS: Final = answer_objects(PLAY)
PLAY_AS_RANGED_ANSWERS: Final = answer_objects(PLAY_AS_RANGED)


def answer_object(made: tuple[object, ...], action_type: ActionType, value: int) -> object:
    """``action_type.encode(value)``, the object already made in ``made`` when it is there."""
    return made[value] if value < len(made) else action_type.encode(value)


_MENU_TEXTS: Final = ("end the turn", "draw a card (Attack Action)", "pick up the Ring", "steal the Ring",
                      "discard two cards to raise a Hero (Defenders of the Faith)")

_VALUE_ANSWERS: Final = {
    K_DRAFT: PARTY, K_GUARDIAN_DEFEND: HERO, K_DISCARD_EXCESS: HAND_POSITION, K_PUSH: SPACE, K_TARGET: SEAT,
    K_ATTACKER_HERO: HERO, K_COUNTER: HAND_POSITION, K_OWN_HERO_HIT: HERO, K_RETREAT: SPACE, K_SPACE: SPACE,
    K_BULLY_TARGET: SEAT, K_LEADERSHIP: SPACE, K_SCAVENGE: CARD, K_TITHE_DROP: HAND_POSITION, K_TITHE_PICK: CARD,
    K_SAVAGE_MORE: HAND_POSITION, K_SACRIFICE: HAND_POSITION, K_CHAOS_OFFER: HAND_POSITION, K_RAISE: HERO,
    K_HELL_OFFER: NEGATE, K_DEFENDERS_HERO: HERO, K_DEFENDERS_DISCARD: HAND_POSITION,
    K_POISON_DISCARD: HAND_POSITION, K_SPLASH: SEAT,
}
ANSWER_TYPES: Final = tuple(_VALUE_ANSWERS.get(kind, MENU) for kind in range(len(TASKS.names)))
"""The value answers' type of each task kind, by kind (``MENU`` for a kind never asked)."""

# The zones: five on the table, then two per seat (``seat_zone``).
DRAW_PILE: Final = 0
DISCARD_PILE: Final = 1
LIMBO: Final = 2  # cards in play: an Imprison on its way to a player, a Scavenge until its pick
TITHE_POOL: Final = 3
PARTY_DECK: Final = 4  # party ids, not cards: a re-sampling pool of their own
FIRST_SEAT_ZONE: Final = 5
HAND: Final = 0
IMPRISONED: Final = 1
ZONES_PER_SEAT: Final = 2

# Table numbers (all public), then one per space: its occupant (``OCCUPANT + space``).
RING_HOLDER: Final = 0  # the seat wearing the Ring, -1 for none
RING_SPACE: Final = 1  # the Ring's space on the map, -1 while worn
ACTIVE: Final = 2
FIRST_PLAYER: Final = 3  # the seat that took the first turn (left of the first drafter)
USED_MOVE: Final = 4
USED_ATTACK: Final = 5
USED_BONUS: Final = 6
ACTIVE_IMPRISONED: Final = 7  # the active player's turn began imprisoned: its Imprison goes when the turn ends
TURN_COUNT: Final = 8
WINNER: Final = 9
ELIMINATIONS: Final = 10
RING_TAKES: Final = 11
RESHUFFLES: Final = 12
OCCUPANT: Final = 13
# Seat numbers (all public): the party, alive (1) or not, space, points, the four Heroes' statuses.
PARTY_NUMBER: Final = 0
ALIVE: Final = 1
POSITION: Final = 2
POINTS: Final = 3
HEROES: Final = 4  # + the class: that Hero's status
SEAT_NUMBERS: Final = 8

END_POINTS: Final = "points"
END_ELIMINATION: Final = "elimination"
END_TURN_CAP: Final = "turn_cap"

# ``played`` counts every card the seat chose to play, in turn or out of it (counters, Heroic
# Sacrifice, Chaos Magic against Chaos Magic, a Hell Raisers negation); ``played_as_counter``
# is the out-of-turn part of it. ``playable``: steps at which one of the seat's answers would
# have played the card (at most once per step), counted by ``note_offered``.
CARD_COUNTERS = ("in_opening_hand", "drawn", "played", "countered", "played_as_counter", "playable")
_OPENING: Final = 0
_DRAWN: Final = 1
_PLAYED: Final = 2
_COUNTERED: Final = 3
_AS_COUNTER: Final = 4
_PLAYABLE: Final = 5
_ROW_COUNTERS: Final = (_DRAWN, _PLAYED, _PLAYABLE)
"""A card gets a row in the ``cards`` table when its seat drew, played or could have played it."""

# Players-table columns: steps at which the party's power was a legal option, and the times
# it was used (passive powers, Brute Squad and Giant Slayers, are never an option: 0 offers,
# and ``power_used`` counts the times they took effect).
PLAYER_COLUMNS = {"power_playable": "int32", "power_used": "int32"}

INFO = GameInfo(
    id="ring_of_chaos",
    name="Ring of Chaos",
    min_players=2,
    max_players=6,
    description="Adventuring parties fight over the Ring of Chaos on a temple map: 11 Summoning Points or last alive.",
    game_columns={
        "map": "string",
        "victory": "string",
        "first_player": "int8",
        "eliminations": "int8",
        "ring_takes": "int16",
        "reshuffles": "int16",
    },
    card_counters=CARD_COUNTERS,
    player_columns=PLAYER_COLUMNS,
    bench_players=4,  # the issue's speed target is for four players
    faction_label="party",
    column_descriptions={
        "map": "The temple map the game was played on.",
        "victory": "How the game was won: `points` (11 Summoning Points), `elimination` (the last party "
                   "alive), or `none` (stopped at the turn cap).",
        "first_player": "The seat that took the first turn (left of the first drafter, so not always seat 0).",
        "eliminations": "Parties eliminated during the game.",
        "ring_takes": "Times a party took the Ring (from the map or from its wearer).",
        "reshuffles": "Times the discard pile was shuffled into a new draw pile.",
        "power_playable": "Steps at which using the party's power was one of the seat's legal answers "
                          "(0 for a passive power and for the Nameless Band, which has none).",
        "power_used": "Times the seat used its party's power (a passive power: the times it took effect).",
        "in_opening_hand": "Copies of the card in the seat's opening hand.",
        "drawn": "Copies the seat drew (deck draws, Scavenge, Guardians drawn).",
        "played": "Times the seat chose to play the card, in its turn or out of it (as an Action, a ranged "
                  "attack, a Savage Attack extra, a counter, a Heroic Sacrifice...); discards are no plays.",
        "countered": "Times this seat's card was countered.",
        "played_as_counter": "Times the seat played the card out of turn as a counter (part of `played`).",
        "playable": "Steps at which one of the seat's legal answers would have played the card, once per card "
                    "per step, forced steps included.",
    },
)


# Two small numbers in one task field (a counter's attack, a Chaos Magic chain's parties and
# progress), packed by the kit's encoder rather than by arithmetic.
ATTACK: Final = ActionType(0, "attack", ("style", "card + 1"), (8, 8))
PAIR: Final = ActionType(0, "pair", ("first", "second"), (8, 8))


class RingState(SeatZonesState):
    """One game of Ring of Chaos in progress."""

    config: RingConfig
    # The players table's statistics (``PLAYER_COLUMNS``), kept outside the numbers on purpose:
    # ``power_playable`` counts offers that depend on the seat's hand, so it must stay out of
    # the observations (which show every number); copied by ``copy_extra``.
    power_playable: list[int]
    power_used: list[int]

    # ----------------------------------------------------------------- set-up

    def __init__(self, config: RingConfig, n_players: int, rng: Generator, trace: TraceSink | None,
                 stats: CardStats | None = None) -> None:
        super().__init__(n_players, rng, trace, OCCUPANT + config.board.n_spaces, SEAT_NUMBERS,
                         stats if stats is not None else CardStats(n_players, len(CARD_COUNTERS), len(CARD_NAMES)),
                         FIRST_SEAT_ZONE, ZONES_PER_SEAT, HAND)
        self.config = config
        self.power_playable = [0] * n_players
        self.power_used = [0] * n_players

    def add_zones(self) -> None:
        """The table's zones, then each seat's (``seat_zone``); every number at its start."""
        self.add_zone(Zone("draw pile", TABLE, HIDDEN, pool=0))
        self.add_zone(Zone("discard pile", TABLE, PUBLIC))
        self.add_zone(Zone("in play", TABLE, PUBLIC))
        self.add_zone(Zone("Tithe pool", TABLE, PUBLIC))
        self.add_zone(Zone("party cards", TABLE, HIDDEN, pool=1))
        for seat in range(self.n_players):
            self.add_zone(Zone("hand", seat, OWNER_ONLY, pool=0))
            self.add_zone(Zone("imprisoned by", seat, PUBLIC))
        numbers = self.numbers
        numbers[RING_HOLDER] = numbers[ACTIVE] = numbers[FIRST_PLAYER] = numbers[WINNER] = -1
        numbers[RING_SPACE] = self.config.board.altar
        for space in range(self.config.board.n_spaces):
            numbers[OCCUPANT + space] = -1
        for seat in range(self.n_players):
            self.set_seat_number(seat, PARTY_NUMBER, -1)
            self.set_seat_number(seat, ALIVE, 1)
            self.set_seat_number(seat, POSITION, -1)
            for hero in range(4):
                self.set_seat_number(seat, HEROES + hero, FULL)

    @staticmethod
    def new_game(config: RingConfig, n_players: int, seed: int, trace: TraceSink | None) -> RingState:
        """Shuffle the deck and the party cards and offer the first two parties (``GAME.new_state``
        has checked the player count)."""
        check_party_draft(config, n_players)  # as an experiment's check before anything is played
        state = RingState(config, n_players, make_rng(seed), trace)
        state.add_zones()
        draw_pile, party_deck = state.zones[DRAW_PILE], state.zones[PARTY_DECK]
        draw_pile.extend(list(config.deck))
        draw_pile.shuffle(state.rng)
        party_deck.extend(list(config.draft_parties))
        party_deck.shuffle(state.rng)
        first = state.rng.below(n_players)
        if trace is not None:
            state.emit("setup", f"{n_players} players on the {config.board.name} map; deck of "
                       f"{len(draw_pile)} cards shuffled; seat {first} drafts first", first=first)
        offer_a, offer_b = party_deck.take_top(), party_deck.take_top()
        state.push(Task(K_DRAFT, first, offer_a, offer_b, 0))
        state.run()
        return state

    def blank(self) -> RingState:
        """An empty state of the same config (``clone`` fills it; its card stats are replaced)."""
        return RingState(self.config, self.n_players, self.rng, None, self.stats)

    def copy_extra(self, copy: KitState) -> None:
        """The players table's statistics (see the class)."""
        assert isinstance(copy, RingState)
        copy.power_playable = self.power_playable[:]
        copy.power_used = self.power_used[:]

    def clone(self) -> RingState:
        """An exact copy with its own generator state and tracing off (the kit's)."""
        copy = super().clone()
        assert isinstance(copy, RingState)
        return copy

    def resample_hidden(self, seat: int, rng: Generator) -> RingState:
        """The kit's re-sampling (the other hands and the draw pile redealt among the cards
        ``seat`` cannot see, the party cards reshuffled), typed as a Ring of Chaos state."""
        copy = super().resample_hidden(seat, rng)
        assert isinstance(copy, RingState)
        return copy

    def trace_turn(self) -> int:
        """Trace events carry the number of the turn under way."""
        return self.numbers[TURN_COUNT]

    def _finish_setup(self, first_drafter: int) -> None:
        """Standees on the starting spaces, the Ring on the Altar, four cards each."""
        board = self.config.board
        for seat in range(self.n_players):
            self._place(seat, board.starts[seat * 6 // self.n_players])
        self.numbers[RING_SPACE] = board.altar
        stats = self.stats
        for _ in range(self.config.opening_hand):
            for seat in range(self.n_players):
                card = self._draw_card()
                while card == TEMPLE_GUARDIAN:  # discarded and replaced in the opening hand
                    self.zones[DISCARD_PILE].cards.append(card)
                    card = self._draw_card()
                self.hand_zone(seat).add(card)
                stats.add(seat, _OPENING, card)
                stats.add(seat, _DRAWN, card)
        first = (first_drafter + 1) % self.n_players
        self.numbers[FIRST_PLAYER] = first
        if self.trace is not None:
            for seat in range(self.n_players):
                self.emit("deal", f"seat {seat} ({self.party_name(seat)}) starts on space {self.position(seat)} "
                          f"holding {', '.join(self.card_name(c) for c in self.hand(seat))}", seat=seat)
            self.emit("first_player", f"seat {first}, left of the first drafter, goes first", seat=first)
        self.push(Task(K_TURN_START, first))

    # ------------------------------------------------------------ zones and numbers

    def imprisoned(self, seat: int) -> list[int]:
        """The Imprison cards in front of ``seat``."""
        # In place with the game's constants, not through ``seat_zone`` (``SeatZonesState`` says why).
        return self.zones[FIRST_SEAT_ZONE + ZONES_PER_SEAT * seat + IMPRISONED].cards

    def party(self, seat: int) -> int:
        """The seat's party id (-1 before the draft reaches it)."""
        return self.seat_numbers[seat * SEAT_NUMBERS + PARTY_NUMBER]

    def alive(self, seat: int) -> bool:
        """Whether the seat's party is still in the game."""
        return self.seat_numbers[seat * SEAT_NUMBERS + ALIVE] != 0

    def position(self, seat: int) -> int:
        """The seat's space (-1 before set-up or once eliminated)."""
        return self.seat_numbers[seat * SEAT_NUMBERS + POSITION]

    def points(self, seat: int) -> int:
        """The seat's Summoning Points."""
        return self.seat_numbers[seat * SEAT_NUMBERS + POINTS]

    def set_points(self, seat: int, points: int) -> None:
        """Set the seat's Summoning Points."""
        self.seat_numbers[seat * SEAT_NUMBERS + POINTS] = points

    def status(self, seat: int, hero: int) -> int:
        """The status (``DEAD``, ``WOUNDED``, ``FULL``) of ``seat``'s Hero of class ``hero``."""
        return self.seat_numbers[seat * SEAT_NUMBERS + HEROES + hero]

    def has_hero_at(self, seat: int, status: int) -> bool:
        """Whether one of ``seat``'s four Heroes has ``status`` (``DEAD``...): read
        in place, without the list copy ``statuses`` makes."""
        numbers, base = self.seat_numbers, seat * SEAT_NUMBERS + HEROES
        return any(numbers[base + hero] == status for hero in range(4))

    def statuses(self, seat: int) -> list[int]:
        """The four Heroes' statuses of ``seat``, by class (a copy)."""
        base = seat * SEAT_NUMBERS + HEROES
        return list(self.seat_numbers[base:base + 4])

    def occupant(self, space: int) -> int:
        """The seat standing on ``space``, -1 for none."""
        return self.numbers[OCCUPANT + space]

    # ------------------------------------------------------------ public API

    def winners(self) -> list[int]:
        """The party with 11 points or the last alive; nobody at the turn cap."""
        winner = self.numbers[WINNER]
        return [winner] if winner >= 0 else []

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others; at the turn cap 1/n each for a draw."""
        winner = self.numbers[WINNER]
        if winner < 0:
            return [1.0 / self.n_players] * self.n_players
        return [1.0 if seat == winner else 0.0 for seat in range(self.n_players)]

    def scores(self) -> list[int]:
        """Summoning Points (an eliminated party's end at 0)."""
        return [self.points(seat) for seat in range(self.n_players)]

    def standings(self) -> list[int]:
        """Summoning Points so far (RULES.md, "Standings")."""
        return [self.points(seat) for seat in range(self.n_players)]

    def ranks(self) -> list[int]:
        """The winner first, then parties still alive by points, then the eliminated."""
        winner = self.numbers[WINNER]
        keys = [
            (1000 if seat == winner else 0) + (100 if self.alive(seat) else 0) + self.points(seat)
            for seat in range(self.n_players)
        ]
        return ranks_from_scores(keys)

    def factions(self) -> list[str | None]:
        """Each seat's Adventuring Party."""
        return [self.party_name(seat) for seat in range(self.n_players)]

    def turns(self) -> int:
        """Player turns played: those completed, and at the end also the one the game ended in."""
        turn_count = self.numbers[TURN_COUNT]
        if self.over or turn_count == 0:
            return turn_count
        return turn_count - 1

    def game_columns(self) -> dict[str, Any]:
        """Map, victory type, the first player, eliminations, Ring takes and reshuffles."""
        numbers = self.numbers
        return {
            "map": self.config.board.name,
            "victory": self.ended_by if numbers[WINNER] >= 0 else "none",
            "first_player": numbers[FIRST_PLAYER],
            "eliminations": numbers[ELIMINATIONS],
            "ring_takes": numbers[RING_TAKES],
            "reshuffles": numbers[RESHUFFLES],
        }

    def player_columns(self, seat: int) -> dict[str, Any]:
        """``power_playable`` and ``power_used`` of the seat's party power (see ``PLAYER_COLUMNS``)."""
        return {"power_playable": self.power_playable[seat], "power_used": self.power_used[seat]}

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Count, for the seat asked, each card one of ``legal_actions`` would play (``playable``,
        once per card per step) and whether one of them uses its party power (``power_playable``).

        Plays: a card from the main menu (as itself, or as a Death from Above ranged attack), a
        counter, a Heroic Sacrifice, a Chaos Magic against a Chaos Magic, a Savage Attack extra,
        and a Hell Raisers negation (which plays a random card: every card held is counted).
        Discards (the hand limit, Poison, Tithe, Defenders of the Faith's price) are no plays.
        The powers offered: Defenders of the Faith's raise, Den of Thieves' theft, Death from
        Above's ranged plays, Hell Raisers' negation, Dread Legion's Class cards of Dead Heroes.
        """
        seat = self.current_player
        kind = self.decisions.asked.kind
        if seat < 0 or kind == K_DRAFT:
            return
        hand = self.hand(seat)
        power_offered = False
        # The cards offered, a bit per card id (fewer than 64 cards): a card offered at several
        # positions is counted once.
        offered: i64 = 0
        actions = answer_list(legal_actions)
        if kind == K_MAIN:
            for action in actions:
                if PLAY.matches(action):
                    offered |= 1 << hand[PLAY.value(action)]
                elif PLAY_AS_RANGED.matches(action):
                    offered |= 1 << hand[PLAY_AS_RANGED.value(action)]
                    power_offered = True
                elif action == DEFENDERS_POWER or STEAL_CARD.matches(action):
                    power_offered = True
        elif kind in (K_COUNTER, K_SACRIFICE, K_CHAOS_OFFER, K_SAVAGE_MORE):
            for action in actions:
                if action != PASS:
                    offered |= 1 << hand[HAND_POSITION.value(action)]
        elif kind == K_HELL_OFFER and NEGATE.encode() in actions:
            for held in hand:
                offered |= 1 << held
            power_offered = True
        if offered:
            counts = self.stats.counts
            offset = self.stats.offset(seat, _PLAYABLE)
            dread_legion = self.power(seat) == DREAD_LEGION
            classes = self.config.card_classes
            card: i64 = 0
            while offered:
                if offered & 1:
                    counts[offset + card] += 1
                    if dread_legion and classes[card] != NO_CLASS and self.status(seat, classes[card]) == DEAD:
                        power_offered = True
                offered >>= 1
                card += 1
        if power_offered:
            self.power_playable[seat] += 1

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per card each seat drew, played, countered with or could have played."""
        self.stats.add_rows(columns, CARD_NAMES, self.config.copies, _ROW_COUNTERS)

    def describe_action(self, action: int) -> str:
        """The answer in words for the question now asked."""
        asked = self.decisions.asked
        kind, seat = asked.kind, asked.seat
        hand = self.hand(seat) if 0 <= seat < self.n_players else []
        if action == PASS:
            return "pass"
        if kind == K_MAIN:
            return self._describe_main(action, hand)
        value = ANSWER_TYPES[kind].value(action)
        if kind == K_DRAFT:
            return f"choose the {self.config.party_names[value]}"
        if kind in (K_TARGET, K_BULLY_TARGET):
            return f"target seat {value} ({self.party_name(value)})"
        if kind == K_SPLASH:
            return f"the Fireball also attacks seat {value} ({self.party_name(value)})"
        if kind in (K_ATTACKER_HERO, K_GUARDIAN_DEFEND, K_OWN_HERO_HIT, K_RAISE, K_DEFENDERS_HERO):
            return f"the {CLASS_NAMES[value]}"
        if kind in (K_PUSH, K_RETREAT, K_SPACE, K_LEADERSHIP):
            return f"space {value}"
        if kind in (K_SCAVENGE, K_TITHE_PICK):
            return f"take {self.card_name(value)}"
        if kind == K_HELL_OFFER:
            return "negate it with a random card"
        if 0 <= value < len(hand):
            verb = "discard" if kind in (K_DISCARD_EXCESS, K_TITHE_DROP, K_DEFENDERS_DISCARD, K_POISON_DISCARD) \
                else "play"
            return f"{verb} {self.card_name(hand[value])}"
        return str(action)

    def _describe_main(self, action: int, hand: list[int]) -> str:
        if MENU.matches(action):
            if action == STEAL_RING:
                return f"steal the Ring from seat {self.numbers[RING_HOLDER]}"
            return _MENU_TEXTS[MENU.value(action)]
        if STEAL_CARD.matches(action):
            return f"take a random card from seat {STEAL_CARD.value(action)} (Den of Thieves)"
        if MOVE.matches(action):
            return f"move to space {MOVE.value(action)}"
        if PLAY.matches(action):
            return f"play {self.card_name(hand[PLAY.value(action)])}"
        return f"play {self.card_name(hand[PLAY_AS_RANGED.value(action)])} as a ranged attack (Death from Above)"

    def card_name(self, card: int) -> str:
        """A card's name, e.g. ``fireball``."""
        return CARD_NAMES[card]

    def party_name(self, seat: int) -> str | None:
        """The seat's party name (None before the draft reaches it)."""
        party = self.party(seat)
        return self.config.party_names[party] if party >= 0 else None

    def power(self, seat: int) -> int:
        """The seat's party power id."""
        return self.config.party_powers[self.party(seat)]

    # ------------------------------------------------------------ queries

    def is_adjacent(self, seat: int, other: int) -> bool:
        """Whether two parties' spaces are linked on the battle map."""
        seat_numbers = self.seat_numbers
        return self.config.board.distance[seat_numbers[seat * SEAT_NUMBERS + POSITION]][
            seat_numbers[other * SEAT_NUMBERS + POSITION]] == 1

    def living_heroes(self, seat: int) -> list[int]:
        """Classes whose Hero is alive (Full Strength or Wounded)."""
        numbers, base = self.seat_numbers, seat * SEAT_NUMBERS + HEROES  # in place: no copy of the statuses
        return [hero for hero in range(4) if numbers[base + hero] > DEAD]

    def has_living_hero(self, seat: int) -> bool:
        """Whether one of ``seat``'s Heroes is alive (Full Strength or Wounded)."""
        numbers, base = self.seat_numbers, seat * SEAT_NUMBERS + HEROES
        return any(numbers[base + hero] > DEAD for hero in range(4))

    def is_rival(self, seat: int, other: int) -> bool:
        """Whether ``other`` is another party still in the game (one of ``others_alive(seat)``):
        a test per seat, for the questions that need no list of them in clockwise order."""
        return other != seat and self.seat_numbers[other * SEAT_NUMBERS + ALIVE] != 0

    def can_use_class(self, seat: int, card: int) -> bool:
        """Class cards only while that class's Hero is alive (Dread Legion: always)."""
        return self.usable_cards(seat) >> card & 1 != 0

    def usable_cards(self, seat: int) -> i64:
        """A bit per card id ``seat`` may play by its class (``can_use_class``): every card but
        those of its Dead Heroes' classes (Dread Legion: every card), read once per question. A blank
        card (``rules.blank_cards``, card impact's stand-in) is usable by nobody."""
        usable: i64 = ~self.config.blank_cards
        if self.power(seat) == DREAD_LEGION:
            return usable
        seat_numbers, base = self.seat_numbers, seat * SEAT_NUMBERS + HEROES
        class_cards = self.config.class_cards
        hero: i64
        for hero in range(4):
            if seat_numbers[base + hero] == DEAD:
                usable &= ~class_cards[hero]
        return usable

    def others_alive(self, seat: int) -> list[int]:
        """The other parties still in the game, clockwise from ``seat``."""
        n = self.n_players
        seat_numbers = self.seat_numbers
        others: list[int] = []
        # A loop reading the ALIVE numbers directly: this runs several times per question.
        step: i64
        for step in range(1, n):
            other = seat + step
            if other >= n:
                other -= n
            if seat_numbers[other * SEAT_NUMBERS + ALIVE] != 0:
                others.append(other)
        return others

    def retreat_destinations(self, seat: int) -> list[int]:
        """Spaces 1..retreat_spaces steps away where Hasty Retreat may end (it may pass occupied
        spaces): empty ones, and with ``rules.retreat_may_push`` occupied ones whose party can be
        pushed to an empty Adjacent space, as in a Move."""
        numbers = self.numbers
        if not self.config.retreat_may_push:
            return [space for space in self.config.retreat_reach[self.position(seat)] if numbers[OCCUPANT + space] < 0]
        return [space for space in self.config.retreat_reach[self.position(seat)]
                if numbers[OCCUPANT + space] < 0 or self.push_spaces(seat, space)]

    def attack_targets(self, seat: int, card: int, as_ranged: bool) -> list[int]:
        """Parties ``card`` may attack by its reach: Adjacent for melee, not Adjacent for ranged (or
        ``as_ranged``), any without a reach."""
        others = self.others_alive(seat)
        reach = self.config.card_reach[card]
        if as_ranged or reach == RANGED_REACH:
            return [other for other in others if not self.is_adjacent(seat, other)]
        if reach == MELEE_REACH:
            return [other for other in others if self.is_adjacent(seat, other)]
        return others

    def can_move_to(self, seat: int, space: int) -> bool:
        """Whether the party may end its move on ``space`` (one of ``move_reach``): empty, or its
        occupant can be pushed aside."""
        return self.numbers[OCCUPANT + space] < 0 or self.can_push(seat, space)

    def can_push(self, mover: int, destination: int) -> bool:
        """Whether ``push_spaces(mover, destination)`` has a space (without listing them)."""
        if self.config.push_to_vacated_space_always:
            return True  # the space the mover vacates is always one
        origin = self.position(mover)
        return any(self._push_space(origin, space) for space in self.config.board.neighbours[destination])

    def push_spaces(self, mover: int, destination: int) -> list[int]:
        """Empty spaces Adjacent to ``destination`` its occupant may be pushed to (the space the
        mover vacates counts as empty; with ``rules.push_to_vacated_space_always`` it is one of
        them even when it is not Adjacent to ``destination``, after a two-space move)."""
        origin = self.position(mover)
        spaces = [space for space in self.config.board.neighbours[destination] if self._push_space(origin, space)]
        if self.config.push_to_vacated_space_always and origin not in spaces:
            spaces.append(origin)
        return spaces

    def _push_space(self, origin: int, space: int) -> bool:
        """Whether a pushed party may land on ``space`` when the mover leaves ``origin``."""
        return self.numbers[OCCUPANT + space] < 0 or space == origin

    def bully_spaces(self, seat: int) -> list[int]:
        """Open spaces, not the Altar, Adjacent to another party."""
        return [space for space in range(self.config.board.n_spaces) if self._bully_space(seat, space)]

    def can_bully(self, seat: int) -> bool:
        """Whether ``bully_spaces(seat)`` has a space (found without listing them)."""
        return any(self._bully_space(seat, space) for space in range(self.config.board.n_spaces))

    def _bully_space(self, seat: int, space: int) -> bool:
        """Whether Bully may take ``seat``'s party to ``space``: open, not the Altar, Adjacent to another party."""
        board = self.config.board
        numbers = self.numbers
        if numbers[OCCUPANT + space] >= 0 or space == board.altar:
            return False
        for neighbour in board.neighbours[space]:
            occupant = numbers[OCCUPANT + neighbour]
            if occupant >= 0 and occupant != seat:
                return True
        return False

    def can_play(self, seat: int, card: int, usable: i64, has_adjacent: bool, has_distant: bool) -> bool:
        """Whether ``card``, whose Action is still open (``main_choices``), may be played now
        (``usable``: the seat's ``usable_cards``; ``has_adjacent``/``has_distant``: whether
        another party is / is not Adjacent)."""
        if not usable >> card & 1:
            return False
        reach = self.config.card_reach[card]
        if reach == MELEE_REACH:
            return has_adjacent
        if reach == RANGED_REACH:
            return has_distant
        return BEHAVIOUR_BY_CARD[card].playable(self, seat, card)

    def necromancy_parties(self, seat: int) -> list[int]:
        """The caster and every Adjacent party that has a Dead Hero to raise."""
        parties = [seat] if self.has_hero_at(seat, DEAD) else []
        for other in self.others_alive(seat):
            if self._raised_by_necromancy(seat, other):
                parties.append(other)
        return parties

    def necromancy_raises(self, seat: int) -> bool:
        """Whether ``necromancy_parties(seat)`` has a party (found without listing them)."""
        return self.has_hero_at(seat, DEAD) or any(
            self.is_rival(seat, other) and self._raised_by_necromancy(seat, other) for other in range(self.n_players))

    def _raised_by_necromancy(self, seat: int, other: int) -> bool:
        """Whether ``seat``'s Necromancy raises a Hero of ``other``: Adjacent, with a Dead Hero."""
        return self.is_adjacent(seat, other) and self.has_hero_at(other, DEAD)

    def counter_positions(self, defender: int, style: int) -> list[int]:
        """Hand positions (one per card type) of the cards that can counter an
        attack of ``style`` on a Full Strength Hero of ``defender``."""
        hand = self.hand(defender)
        counter_styles = self.config.card_counter_styles  # ``cards.<name>.counters``
        usable = self.usable_cards(defender)
        seen: i64 = 0  # a bit per card id already answered (or refused)
        result: list[int] = []
        position: i64
        for position in range(len(hand)):
            card = hand[position]
            bit: i64 = 1 << card
            if seen & bit:
                continue
            seen |= bit
            if (usable & bit and counter_styles[card] >> style & 1
                    and BEHAVIOUR_BY_CARD[card].can_counter(self, defender, card)):
                result.append(position)
        return result

    def distinct_positions(self, seat: int) -> list[int]:
        """One hand position per card type (same cards are the same choice)."""
        hand = self.hand(seat)
        seen: i64 = 0  # a bit per card id (CARD_NAMES has fewer than 64 cards, tested)
        result: list[int] = []
        position: i64
        for position in range(len(hand)):
            bit: i64 = 1 << hand[position]
            if not seen & bit:
                seen |= bit
                result.append(position)
        return result

    def positions_of(self, seat: int, card: int) -> list[int]:
        """The first hand position holding ``card`` (empty if none, or the class cannot use it)."""
        hand = self.hand(seat)
        if card in hand and self.can_use_class(seat, card):
            return [hand.index(card)]
        return []

    def main_choices(self, seat: int) -> list[int]:
        """The active player's Actions still open this turn."""
        # Objects, not ints: the answers made in advance go in as they are (``answer_object``).
        choices: list[object] = [END_TURN]
        config = self.config
        numbers = self.numbers
        holder = numbers[RING_HOLDER]
        power = self.power(seat)
        if not numbers[USED_MOVE]:
            for space in config.move_reach[self.position(seat)]:
                if self.can_move_to(seat, space):
                    choices.append(answer_object(MOVE_ANSWERS, MOVE, space))
        if not numbers[USED_ATTACK]:
            choices.append(DRAW_CARD)
            if power == DEN_OF_THIEVES:
                for other in self.others_alive(seat):
                    if self.hand(other):
                        choices.append(STEAL_CARD.encode(other))
        if not numbers[USED_BONUS]:
            if holder < 0 and numbers[RING_SPACE] == self.position(seat):
                choices.append(PICK_UP_RING)
            if 0 <= holder != seat and self.is_adjacent(seat, holder):
                choices.append(STEAL_RING)
            if (power == DEFENDERS_OF_THE_FAITH
                    and len(self.hand(seat)) >= config.defenders_cards_to_discard
                    and (self.has_hero_at(seat, DEAD) or self.has_hero_at(seat, WOUNDED))):
                choices.append(DEFENDERS_POWER)
        hand = self.hand(seat)
        # Whether another living party is Adjacent, and whether one is not: read
        # straight from the seat numbers (no list of the others per question).
        has_adjacent = has_distant = False
        seat_numbers = self.seat_numbers
        distance = config.board.distance[seat_numbers[seat * SEAT_NUMBERS + POSITION]]
        rival: i64
        for rival in range(self.n_players):
            if rival != seat and seat_numbers[rival * SEAT_NUMBERS + ALIVE] != 0:
                if distance[seat_numbers[rival * SEAT_NUMBERS + POSITION]] == 1:
                    has_adjacent = True
                else:
                    has_distant = True
        slots = config.card_slots
        usable = self.usable_cards(seat)
        # A bit per Action still open (MOVE_SLOT, ATTACK_SLOT, BONUS_SLOT).
        open_slots: i64 = ((0 if numbers[USED_MOVE] else 1 << MOVE_SLOT)
                           | (0 if numbers[USED_ATTACK] else 1 << ATTACK_SLOT)
                           | (0 if numbers[USED_BONUS] else 1 << BONUS_SLOT))
        # One answer per card type, at its first position (as ``distinct_positions``), the
        # types seen kept as bits.
        seen: i64 = 0
        position: i64
        for position in range(len(hand)):
            card = hand[position]
            bit: i64 = 1 << card
            if seen & bit:
                continue
            seen |= bit
            if open_slots >> slots[card] & 1 and self.can_play(seat, card, usable, has_adjacent, has_distant):
                choices.append(answer_object(PLAY_ANSWERS, PLAY, position))
        if not numbers[USED_ATTACK] and power == DEATH_FROM_ABOVE and has_distant:
            if config.death_from_above_dead_classes:
                usable = ~config.blank_cards  # every class, dead ones too; never a blank card
            seen = 0
            for position in range(len(hand)):
                card = hand[position]
                bit = 1 << card
                if seen & bit:
                    continue
                seen |= bit
                if slots[card] == ATTACK_SLOT and usable & bit:
                    choices.append(answer_object(PLAY_AS_RANGED_ANSWERS, PLAY_AS_RANGED, position))
        return cast(list[int], choices)  # every answer is an int

    # ------------------------------------------------------------- the engine

    def _push(self, kind: int, seat: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        """Put the task (kind, seat, a, b, c) on top of the stack."""
        self.decisions.stack.append(Task(kind, seat, a, b, c))

    def _discard(self, seat: int, position: int) -> int:
        """Put the card at ``position`` of ``seat``'s hand on the discard pile; the card."""
        card = self.hand_zone(seat).take(position)
        self.zones[DISCARD_PILE].cards.append(card)
        return card

    def _ask(self, kind: int, seat: int, a: int, b: int, c: int, choices: list[int]) -> None:
        """Ask ``seat`` the question of task (kind, seat, a, b, c); answers in ``choices``."""
        self.ask(Task(kind, seat, a, b, c), choices)

    def perform(self, task: Task, choice: int) -> None:
        """Do one task (``choice`` is NO_CHOICE unless the task's question was answered).

        One branch per task kind, the most frequent first. The
        frequent questions' handlers take the task itself: a task is immutable, so the one
        performed is asked (or pushed back) as it is, not remade from its fields."""
        kind = task.kind
        if kind == K_MAIN:
            self._main(task, choice)
        elif kind == K_DRAW:
            self._draw_task(task.seat, task.a == 1)
        elif kind == K_COUNTER:
            self._counter(task, choice)
        elif kind == K_END_TURN:
            self._end_turn(task)
        elif kind == K_TURN_START:
            self._turn_start(task.seat)
        elif kind == K_GUARDIAN_DEFEND:
            self._guardian_defend(task, choice)
        elif kind == K_DISCARD_EXCESS:
            self._discard_excess(task.seat, choice)
        elif kind == K_TARGET:
            self._target(task, choice)
        elif kind == K_ATTACKER_HERO:
            self._attacker_hero(task, choice)
        elif kind == K_OWN_HERO_HIT:
            self._own_hero_hit(task.seat, task.a, task.b == 1, choice)
        elif kind == K_DRAFT:
            self._draft(task.seat, task.a, task.b, task.c, choice)
        elif kind == K_PUSH:
            self._push_occupant(task.seat, task.a, task.b, choice)
        elif kind == K_RETREAT:
            self._retreat(task.seat, choice)
        elif kind == K_SPACE:
            self._space(task.seat, task.a, choice)
        elif kind == K_BULLY_TARGET:
            self._bully_target(task.seat, choice)
        elif kind == K_LEADERSHIP:
            self._leadership(task.seat, task.a, choice)
        elif kind == K_SCAVENGE:
            self._scavenge(task.seat, choice)
        elif kind == K_TITHE_DROP:
            self._tithe_drop(task.seat, task.a, choice)
        elif kind == K_TITHE_PICK:
            self._tithe_pick(task.seat, choice)
        elif kind == K_SAVAGE_MORE:
            self._savage_more(task.seat, choice)
        elif kind == K_TAKE_RING:
            self._take_ring(task.seat, task.a, task.b)
        elif kind == K_SACRIFICE:
            self._sacrifice(task.seat, task.a, task.b, task.c, choice)
        elif kind == K_GIVE_RING:
            self._give_ring(task.seat, task.a)
        elif kind == K_CHAOS_OFFER:
            self._chaos_offer(task.seat, task.a, task.b, task.c, choice)
        elif kind == K_RAISE:
            self._raise(task.seat, task.a, choice)
        elif kind == K_HELL_OFFER:
            self._hell_offer(task.seat, task.a, task.b, choice)
        elif kind == K_NECROMANCY:
            self._necromancy(task.seat)
        elif kind == K_DEFENDERS_HERO:
            self._defenders_hero(task.seat, choice)
        elif kind == K_DEFENDERS_DISCARD:
            self._defenders_discard(task.seat, choice)
        elif kind == K_RAISE_HERO:
            self._raise_hero(task.seat, task.a)
        elif kind == K_POISON_DISCARD:
            self._poison_discard(task.seat, choice)
        elif kind == K_PIT_TRAP:
            self._pit_trap(task.seat)
        elif kind == K_EARTHQUAKE:
            self._earthquake(task.seat)
        elif kind == K_SPLASH:
            self._splash(task.seat, task.a, choice)
        else:
            raise ValueError(f"no rule performs task kind {kind}")

    # --------------------------------------------------------- draft and turn

    def _draft(self, seat: int, offer_a: int, offer_b: int, drafted: int, choice: int) -> None:
        """A player chooses one of two party cards; the other goes on with a new one."""
        if choice == NO_CHOICE:
            self._ask(K_DRAFT, seat, offer_a, offer_b, drafted, [offer_a, offer_b])
            return
        rejected = offer_b if choice == offer_a else offer_a
        self.set_seat_number(seat, PARTY_NUMBER, choice)
        if self.trace is not None:
            self.emit("draft", f"seat {seat} chooses the {self.config.party_names[choice]} over the "
                       f"{self.config.party_names[rejected]}", seat=seat, party=self.config.party_names[choice])
        drafted += 1
        first_drafter = (seat - drafted + 1) % self.n_players
        if drafted == self.n_players:
            self.zones[PARTY_DECK].add(rejected)  # the unchosen cards leave the game
            self._finish_setup(first_drafter)
            return
        self._push(K_DRAFT, (seat + 1) % self.n_players, rejected, self.zones[PARTY_DECK].take_top(), drafted)

    def _turn_start(self, seat: int) -> None:
        """Ring points, then the three draws, the Actions and the end of the turn."""
        numbers = self.numbers
        if numbers[TURN_COUNT] >= self.config.max_turns:
            self._end(END_TURN_CAP, -1)
            return
        numbers[TURN_COUNT] += 1
        numbers[ACTIVE] = seat
        numbers[USED_MOVE] = numbers[USED_ATTACK] = numbers[USED_BONUS] = 0
        imprisoned = len(self.imprisoned(seat)) > 0
        numbers[ACTIVE_IMPRISONED] = int(imprisoned)
        if self.trace is not None:
            self.emit("turn", f"seat {seat} ({self.party_name(seat)}) begins turn {numbers[TURN_COUNT]}", seat=seat)
        self._push(K_END_TURN, seat)
        if imprisoned:
            if self.trace is not None:
                self.emit("imprisoned", f"seat {seat} is imprisoned: no Actions this turn", seat=seat)
        else:
            self._push(K_MAIN, seat)
        for _ in range(self.config.draws_per_turn):
            self._push(K_DRAW, seat, 1)
        if numbers[RING_HOLDER] == seat:
            self._gain_ring_points(seat, self.config.ring_wear_points, "wears the Ring as the turn begins")

    def _end_turn(self, task: Task) -> None:
        """Discard down to the hand limit, release an Imprison card, pass the turn."""
        seat = task.seat
        if self.alive(seat) and len(self.hand(seat)) > self.config.hand_limit:
            self.push(task)  # after the discard, the end of the turn again
            self._ask(K_DISCARD_EXCESS, seat, 0, 0, 0, self.distinct_positions(seat))
            return
        # Only an imprisonment this turn served is over: one laid during the turn (an Imprison
        # played against a Temple Guardian) waits for the player's next turn.
        if self.numbers[ACTIVE_IMPRISONED]:
            self.zones[DISCARD_PILE].cards.extend(self.seat_zone(seat, IMPRISONED).take_all())
            self.numbers[ACTIVE_IMPRISONED] = 0
        following = (seat + 1) % self.n_players
        while not self.alive(following):
            following = (following + 1) % self.n_players
        self._push(K_TURN_START, following)

    def _discard_excess(self, seat: int, position: int) -> None:
        if position == NO_CHOICE:  # asked again after a resample
            self._ask(K_DISCARD_EXCESS, seat, 0, 0, 0, self.distinct_positions(seat))
            return
        card = self._discard(seat, position)
        if self.trace is not None:
            self.emit("discard", f"seat {seat} discards {self.card_name(card)} to the hand limit", seat=seat)

    def _draw_card(self) -> int:
        """Top card of the draw pile; the discard pile is reshuffled when it runs out; -1 if both are empty."""
        draw_pile = self.zones[DRAW_PILE]
        if not draw_pile.cards:
            discard_pile = self.zones[DISCARD_PILE]
            if not discard_pile.cards:
                return -1
            draw_pile.extend(discard_pile.take_all())
            draw_pile.shuffle(self.rng)
            self.numbers[RESHUFFLES] += 1
            if self.trace is not None:
                self.emit("reshuffle", f"the discard pile of {len(draw_pile)} cards becomes the draw pile")
        return draw_pile.take_top()

    def _draw_task(self, seat: int, replace_guardian: bool) -> None:
        """Draw one card; a Temple Guardian attacks everyone and (usually) is replaced."""
        if not self.alive(seat):
            return
        card = self._draw_card()
        if card < 0:
            return
        self.stats.add(seat, _DRAWN, card)
        if card == TEMPLE_GUARDIAN:
            self.zones[DISCARD_PILE].cards.append(card)
            self._start_guardian(seat, replace_guardian)
            return
        self.hand_zone(seat).add(card)
        if self.trace is not None:
            self.emit("draw", f"seat {seat} draws {self.card_name(card)}", seat=seat, card=CARD_NAMES[card])

    def _start_guardian(self, drawer: int, replace: bool) -> None:
        """Every party, the drawer's first and then clockwise, is attacked."""
        if self.trace is not None:
            self.emit("guardian", f"seat {drawer} draws a Temple Guardian: every party is attacked", seat=drawer)
        if replace:
            self._push(K_DRAW, drawer, 1)
        for defender in reversed(self.others_alive(drawer)):  # pushed last first: the drawer's goes on top
            self._push(K_GUARDIAN_DEFEND, defender, drawer)
        if self.alive(drawer):
            self._push(K_GUARDIAN_DEFEND, drawer, drawer)

    def _guardian_defend(self, task: Task, hero: int) -> None:
        """The defender picks the Hero the Guardian attacks; then it may counter."""
        defender, drawer = task.seat, task.a
        if not self.alive(defender):
            return
        if hero == NO_CHOICE:
            self.ask(task, self.living_heroes(defender))
            return
        self._push(K_COUNTER, defender, -1 - drawer, hero, ATTACK.encode(GUARDIAN, TEMPLE_GUARDIAN + 1))

    def _main(self, task: Task, choice: int) -> None:
        """The active player's menu: one Move, one Attack, one Bonus Action, any order."""
        seat = task.seat
        if not self.alive(seat):
            return
        if choice == NO_CHOICE:
            self.ask(task, self.main_choices(seat))
            return
        if choice == END_TURN:
            return
        self.push(task)  # the menu again after this Action
        if choice == DRAW_CARD:
            self.numbers[USED_ATTACK] = 1
            self._push(K_DRAW, seat, 1)
        elif choice == PICK_UP_RING:
            self.numbers[USED_BONUS] = 1
            self._give_ring(seat, -1)
        elif choice == STEAL_RING:
            self.numbers[USED_BONUS] = 1
            self._push(K_TAKE_RING, seat, self.numbers[RING_HOLDER], -1)
        elif choice == DEFENDERS_POWER:
            self.numbers[USED_BONUS] = 1
            self.power_used[seat] += 1
            self._push(K_DEFENDERS_HERO, seat)
        elif STEAL_CARD.matches(choice):
            self.numbers[USED_ATTACK] = 1
            self.power_used[seat] += 1
            self._take_random_card(seat, STEAL_CARD.value(choice))
        elif MOVE.matches(choice):
            self.numbers[USED_MOVE] = 1
            self._move(seat, MOVE.value(choice))
        elif PLAY.matches(choice):
            self._play_card(seat, PLAY.value(choice), False)
        else:
            self.power_used[seat] += 1
            self._play_card(seat, PLAY_AS_RANGED.value(choice), True)

    # --------------------------------------------------------------- movement

    def _place(self, seat: int, space: int) -> None:
        """Put a party's standee on ``space`` (a worn Ring moves with it)."""
        numbers = self.numbers
        old = self.position(seat)
        if old >= 0 and numbers[OCCUPANT + old] == seat:
            numbers[OCCUPANT + old] = -1
        self.set_seat_number(seat, POSITION, space)
        numbers[OCCUPANT + space] = seat

    def _move(self, seat: int, destination: int) -> None:
        occupant = self.numbers[OCCUPANT + destination]
        if occupant >= 0:
            self._push(K_PUSH, seat, occupant, destination)
            return
        self._place(seat, destination)
        if self.trace is not None:
            self.emit("move", f"seat {seat} moves to space {destination}", seat=seat, space=destination)

    def _push_occupant(self, mover: int, occupant: int, destination: int, space: int) -> None:
        """The mover pushes the party on its destination to an empty Adjacent space."""
        if space == NO_CHOICE:
            self._ask(K_PUSH, mover, occupant, destination, 0, self.push_spaces(mover, destination))
            return
        self.numbers[OCCUPANT + self.position(mover)] = -1
        self._place(occupant, space)
        self._place(mover, destination)
        if self.trace is not None:
            self.emit("move", f"seat {mover} moves to space {destination}, pushing seat {occupant} to space {space}",
                       seat=mover, space=destination, pushed=occupant)

    def _swap(self, seat: int, other: int) -> None:
        mine, theirs = self.position(seat), self.position(other)
        self.set_seat_number(seat, POSITION, theirs)
        self.set_seat_number(other, POSITION, mine)
        self.numbers[OCCUPANT + mine], self.numbers[OCCUPANT + theirs] = other, seat

    def _retreat(self, seat: int, space: int) -> None:
        """Hasty Retreat: move 1 to 3 spaces to an empty space."""
        if space == NO_CHOICE:
            choices = self.retreat_destinations(seat)
            if choices:
                self._ask(K_RETREAT, seat, 0, 0, 0, choices)
            return
        occupant = self.numbers[OCCUPANT + space]
        if occupant >= 0:  # rules.retreat_may_push: as in a Move, the party there is pushed aside
            self._push(K_PUSH, seat, occupant, space)
            return
        self._place(seat, space)
        if self.trace is not None:
            self.emit("move", f"seat {seat} retreats to space {space}", seat=seat, space=space)

    def _space(self, seat: int, card: int, space: int) -> None:
        """A card that moves its party (Teleport, Bully): choose the space among its ``targets``."""
        if space == NO_CHOICE:
            choices = BEHAVIOUR_BY_CARD[card].targets(self, seat, card)
            if choices:
                self._ask(K_SPACE, seat, card, 0, 0, choices)
            return
        self._place(seat, space)
        if self.trace is not None:
            self.emit("move", f"seat {seat} moves to space {space}", seat=seat, space=space)
        BEHAVIOUR_BY_CARD[card].on_target(self, seat, card, space)

    def _bully_target(self, seat: int, target: int) -> None:
        if target == NO_CHOICE:
            choices = [other for other in self.others_alive(seat) if self.is_adjacent(seat, other)]
            if choices:
                self._ask(K_BULLY_TARGET, seat, 0, 0, 0, choices)
            return
        self._push(K_ATTACKER_HERO, seat, target, MELEE, BULLY)

    def _leadership(self, seat: int, target: int, space: int) -> None:
        """Leadership: place each other party, clockwise, on any space but the player's and those
        of the parties already placed. "Move all Adventuring Parties ... to any location": every
        layout of the others must be reachable, swaps included, so a space where a party still to
        be placed stands is open too; that party takes the placed one's old space until its turn."""
        if not self.alive(target):
            return
        numbers = self.numbers
        if space == NO_CHOICE:
            unplaced = self._leadership_unplaced(seat, target)
            choices = [s for s in range(self.config.board.n_spaces)
                       if numbers[OCCUPANT + s] < 0 or numbers[OCCUPANT + s] in unplaced]
            self._ask(K_LEADERSHIP, seat, target, 0, 0, choices)
            return
        occupant = numbers[OCCUPANT + space]
        swapped = occupant >= 0 and occupant != target  # a party still to be placed stood there
        if swapped:
            self._swap(target, occupant)
        else:
            self._place(target, space)
        if self.trace is not None:
            self.emit("move", f"seat {seat} moves seat {target} to space {space}", seat=target, space=space)
            if swapped:
                moved_to = self.position(occupant)
                self.emit("move", f"seat {occupant} stands on space {moved_to} until it is placed",
                          seat=occupant, space=moved_to)

    def _leadership_unplaced(self, seat: int, target: int) -> list[int]:
        """The parties a Leadership played by ``seat`` has still to place, ``target`` first
        (they are placed in the clockwise order of ``others_alive``)."""
        others = self.others_alive(seat)
        return others[others.index(target):]

    # ------------------------------------------------------------- the cards

    def _mark_played(self, seat: int, card: int) -> None:
        """Count a card the seat chose to play, in turn or out of it."""
        self.stats.note_played(seat, _PLAYED, card, self.numbers[TURN_COUNT])
        card_class = self.config.card_classes[card]
        if card_class != NO_CLASS and self.status(seat, card_class) == DEAD and self.power(seat) == DREAD_LEGION:
            self.power_used[seat] += 1  # a Class card of a Dead Hero

    def _mark_played_as_counter(self, seat: int, card: int) -> None:
        self._mark_played(seat, card)
        self.stats.add(seat, _AS_COUNTER, card)

    def _play_card(self, seat: int, position: int, as_ranged: bool) -> None:
        """Take the card from the hand, use up its Action, and start its effect."""
        card = self.hand_zone(seat).take(position)
        self._mark_played(seat, card)
        slot = ATTACK_SLOT if as_ranged else self.config.card_slots[card]
        if slot == MOVE_SLOT:
            self.numbers[USED_MOVE] = 1
        elif slot == ATTACK_SLOT:
            self.numbers[USED_ATTACK] = 1
        else:
            self.numbers[USED_BONUS] = 1
        behaviour = BEHAVIOUR_BY_CARD[card]
        self.zones[LIMBO if behaviour.stays_in_play and not as_ranged else DISCARD_PILE].cards.append(card)
        if self.trace is not None:
            how = " as a ranged attack" if as_ranged else ""
            self.emit("play", f"seat {seat} plays {self.card_name(card)}{how}", seat=seat, card=CARD_NAMES[card])
        if as_ranged:
            self._push(K_TARGET, seat, card, 1)
        else:
            behaviour.play(self, seat, card)

    def _target(self, task: Task, target: int) -> None:
        """Choose the party a targeted card acts on (mode 1: Death from Above's ranged attack;
        mode 2: an extra attack of a Savage Attack)."""
        seat, card, mode = task.seat, task.a, task.b
        if target == NO_CHOICE:
            behaviour = BEHAVIOUR_BY_CARD[card]
            choices = behaviour.targets(self, seat, card) if mode == 0 else self.attack_targets(seat, card, mode == 1)
            if choices:
                self.ask(task, choices)
            return
        if self.trace is not None:
            self.emit("target", f"seat {seat} targets seat {target} with {self.card_name(card)}",
                       seat=seat, target=target)
        if mode == 1:  # Death from Above: "as if it were a standard ranged attack", whatever the card
            self._push(K_ATTACKER_HERO, seat, target, RANGED, card)
        elif mode == 2:  # one of a Savage Attack's further melee attacks
            self._attack(seat, target, card)
        else:
            BEHAVIOUR_BY_CARD[card].on_target(self, seat, card, target)

    def _attack(self, attacker: int, defender: int, card: int) -> None:
        """``card``'s attack on ``defender``: melee or ranged by its reach, sure or not (its facts)."""
        sure = self.config.card_sure[card]
        if self.config.card_reach[card] == MELEE_REACH:
            self._push(K_ATTACKER_HERO, attacker, defender, MELEE_SURE if sure else MELEE, card)
        else:
            self._push(K_ATTACKER_HERO, attacker, defender, RANGED_SURE if sure else RANGED, card)

    def _splash(self, seat: int, other: int, choice: int) -> None:
        """rules.fireball_splash_optional: whether the Fireball also attacks ``other`` (its seat) or not (PASS)."""
        if not self.alive(other):
            return
        if choice == NO_CHOICE:
            self._ask(K_SPLASH, seat, other, RANGED, FIREBALL, [SEAT.encode(other), PASS])
            return
        if choice != PASS:
            self._push(K_ATTACKER_HERO, seat, other, RANGED, FIREBALL)

    def _take_random_card(self, seat: int, victim: int) -> None:
        hand = self.hand_zone(victim)
        if not hand.cards:
            return
        # Its former owner knows where it went; the other seats cannot tell which card went, so they
        # forget it and the rest of the victim's hand (``move_card``).
        move_card(hand, self.rng.below(len(hand.cards)), self.hand_zone(seat))
        if self.trace is not None:
            self.emit("take_card", f"seat {seat} takes a random card from seat {victim}", seat=seat, victim=victim)

    def _poison_discard(self, seat: int, position: int) -> None:
        if position == NO_CHOICE:
            if self.hand(seat):
                self._ask(K_POISON_DISCARD, seat, 0, 0, 0, self.distinct_positions(seat))
            return
        card = self._discard(seat, position)
        if self.trace is not None:
            self.emit("discard", f"seat {seat} discards {self.card_name(card)} (Poison)", seat=seat)

    def _scavenge(self, seat: int, card: int) -> None:
        """Take any card from the discard pile; a Temple Guardian attacks at once, not replaced."""
        if card == NO_CHOICE:
            choices = sorted(set(self.zones[DISCARD_PILE].cards))
            if choices:
                self._ask(K_SCAVENGE, seat, 0, 0, 0, choices)
            else:
                self.zones[DISCARD_PILE].cards.extend(self.zones[LIMBO].take_all())
            return
        self.zones[DISCARD_PILE].cards.remove(card)
        self.zones[LIMBO].cards.remove(SCAVENGE)
        self.zones[DISCARD_PILE].cards.append(SCAVENGE)
        self.stats.add(seat, _DRAWN, card)
        if card == TEMPLE_GUARDIAN:
            self.zones[DISCARD_PILE].cards.append(card)
            self._start_guardian(seat, False)
            return
        self.hand_zone(seat).add(card, EVERY_SEAT)  # taken face up from the discard pile
        if self.trace is not None:
            self.emit("scavenge", f"seat {seat} takes {self.card_name(card)} from the discard pile", seat=seat)

    def _tithe_drop(self, seat: int, caster: int, position: int) -> None:
        if not self.alive(seat):
            return
        if position == NO_CHOICE:
            if self.hand(seat):
                self._ask(K_TITHE_DROP, seat, caster, 0, 0, self.distinct_positions(seat))
            return
        card = self.hand_zone(seat).take(position)
        self.zones[TITHE_POOL].cards.append(card)
        if self.trace is not None:
            self.emit("tithe", f"seat {seat} drops {self.card_name(card)} face up", seat=seat)

    def _tithe_pick(self, seat: int, card: int) -> None:
        if card == NO_CHOICE:
            if self.zones[TITHE_POOL].cards:
                self._ask(K_TITHE_PICK, seat, 0, 0, 0, sorted(set(self.zones[TITHE_POOL].cards)))
            return
        tithe_pool = self.zones[TITHE_POOL]
        tithe_pool.cards.remove(card)
        self.hand_zone(seat).add(card, EVERY_SEAT)  # taken face up from the Tithe pool
        self.zones[DISCARD_PILE].cards.extend(tithe_pool.take_all())
        if self.trace is not None:
            self.emit("tithe", f"seat {seat} keeps {self.card_name(card)}; the rest are discarded", seat=seat)

    def _savage_more(self, seat: int, position: int) -> None:
        """Savage Attack: play further Melee Attack cards as part of the same Action."""
        if position == NO_CHOICE:
            choices = [PASS]
            hand = self.hand(seat)
            if any(self.is_rival(seat, other) and self.is_adjacent(seat, other) for other in range(self.n_players)):
                for candidate in self.distinct_positions(seat):
                    card = hand[candidate]
                    if (self.config.card_reach[card] == MELEE_REACH and self.can_use_class(seat, card)
                            and (card != SAVAGE_ATTACK or self.config.savage_attack_adds_savage_attacks)):
                        choices.append(candidate)
            # Asked even when passing is the only answer (then applied without a
            # decision), so that the question does not reveal the hand.
            self._ask(K_SAVAGE_MORE, seat, 0, 0, 0, choices)
            return
        if position == PASS:
            return
        card = self._discard(seat, position)
        self._mark_played(seat, card)
        self._push(K_SAVAGE_MORE, seat)
        self._push(K_TARGET, seat, card, 2)

    def _pit_trap(self, seat: int) -> None:
        """Every other party lowers one Hero, unless its Rogue is alive."""
        for other in reversed(self.others_alive(seat)):
            if self.status(other, ROGUE) > DEAD:
                if self.trace is not None:
                    self.emit("pit_trap", f"seat {other}'s Rogue is alive: the Pit Trap fails", seat=other)
            else:
                self._push(K_OWN_HERO_HIT, other, seat, 1)

    def _earthquake(self, seat: int) -> None:
        """Every party, the caster's last, reduces one Hero of its choice."""
        self._push(K_OWN_HERO_HIT, seat, seat, 0)
        for other in reversed(self.others_alive(seat)):
            self._push(K_OWN_HERO_HIT, other, seat, 0)

    # ------------------------------------------------------------- attacks

    def _attacker_hero(self, task: Task, hero: int) -> None:
        """The attacker chooses which of the defender's Heroes it attacks."""
        attacker, defender, style, card = task.seat, task.a, task.b, task.c
        if not self.alive(defender):
            return
        if hero == NO_CHOICE:
            self.ask(task, self.living_heroes(defender))
            return
        self._push(K_COUNTER, defender, attacker, hero, ATTACK.encode(style, card + 1))

    def _counter(self, task: Task, position: int) -> None:
        """The defender of a Full Strength Hero may play a counter card."""
        defender, attacker, hero, packed = task.seat, task.a, task.b, task.c
        style = ATTACK.field(packed, 0)
        if position == NO_CHOICE:
            # A Full Strength Hero's player is always asked, even holding no counter (then
            # PASS is the only answer): whether it holds one stays hidden.
            if self.status(defender, hero) == FULL:
                choices = self.counter_positions(defender, style)
                choices.append(PASS)
                self.ask(task, choices)
                return
            position = PASS
        if position == PASS:
            levels = 1
            if (style in (MELEE, MELEE_SURE)) and attacker >= 0 and self.power(attacker) == BRUTE_SQUAD:
                levels = self.config.brute_squad_melee_hits
                if levels > 1 and self.status(defender, hero) == FULL:
                    self.power_used[attacker] += 1  # the second hit counts: Full Strength to Dead
            self._hit(attacker, defender, hero, levels, True)
            return
        card = self._discard(defender, position)
        self._mark_played_as_counter(defender, card)
        attacking_card = ATTACK.field(packed, 1) - 1
        owner = attacker if attacker >= 0 else -1 - attacker
        if attacking_card >= 0 and self.alive(owner):
            self.stats.add(owner, _COUNTERED, attacking_card)
        if self.trace is not None:
            self.emit("counter", f"seat {defender} counters the {STYLE_NAMES[style]} attack with "
                       f"{self.card_name(card)}", seat=defender, card=CARD_NAMES[card])
        BEHAVIOUR_BY_CARD[card].as_counter(self, defender, card, style)

    def _own_hero_hit(self, defender: int, attacker: int, is_attack: bool, hero: int) -> None:
        """The defender chooses which of its Heroes takes a hit (Pit Trap, Earthquake, Heroic Sacrifice)."""
        if not self.alive(defender):
            return
        if hero == NO_CHOICE:
            self._ask(K_OWN_HERO_HIT, defender, attacker, 1 if is_attack else 0, 0, self.living_heroes(defender))
            return
        self._hit(attacker, defender, hero, 1, is_attack)

    def _hit(self, attacker: int, defender: int, hero: int, levels: int, is_attack: bool) -> None:
        """Lower a Hero by ``levels``; a party with no living Hero is eliminated."""
        status = max(DEAD, self.status(defender, hero) - levels)
        self.set_seat_number(defender, HEROES + hero, status)
        if self.trace is not None:
            self.emit("hit", f"seat {defender}'s {CLASS_NAMES[hero]} is now {STATUS_NAMES[status]}",
                      seat=defender, hero=CLASS_NAMES[hero], status=STATUS_NAMES[status])
        if not self.has_living_hero(defender):
            self._eliminate(defender, attacker)
            return
        if is_attack and self.power(defender) == GIANT_SLAYERS and self.config.giant_slayers_cards_per_hit:
            self.power_used[defender] += 1
            for _ in range(self.config.giant_slayers_cards_per_hit):
                self._push(K_DRAW, defender, 1)  # after the attack is resolved: too late to counter it

    def _eliminate(self, seat: int, attacker: int) -> None:
        """Discard the hand, remove the standee, drop the Ring, reward the final blow; every
        remaining effect of the party's cards fizzles."""
        self.set_seat_number(seat, ALIVE, 0)
        self._drop_tasks_of(seat)
        self.numbers[ELIMINATIONS] += 1
        discard_pile = self.zones[DISCARD_PILE].cards
        discard_pile.extend(self.hand_zone(seat).take_all())
        discard_pile.extend(self.seat_zone(seat, IMPRISONED).take_all())
        space = self.position(seat)
        self.numbers[OCCUPANT + space] = -1
        self.set_seat_number(seat, POSITION, -1)
        if self.numbers[RING_HOLDER] == seat:
            self.numbers[RING_HOLDER] = -1
            self.numbers[RING_SPACE] = space
        reward = 0
        if 0 <= attacker != seat and self.alive(attacker):
            reward = max(0, min(self.config.max_taken_points - self.points(attacker), self.points(seat)))
            self.set_points(attacker, self.points(attacker) + reward)
        self.set_points(seat, 0)
        if self.trace is not None:
            self.emit("eliminated", f"seat {seat} ({self.party_name(seat)}) is eliminated"
                       + (f"; seat {attacker} gains {reward} points" if reward else ""), seat=seat)
        survivors = [other for other in range(self.n_players) if self.alive(other)]
        if len(survivors) == 1:
            self._end(END_ELIMINATION, survivors[0])

    def _drop_tasks_of(self, seat: int) -> None:
        """Remove the eliminated ``seat``'s pending tasks: "you are immediately out of the game",
        so the rest of its card (Fireball's other attacks, Savage Attack's extras, Pit Trap's
        hits...) fizzles, wherever the elimination happened. Its turn still ends, and attacks
        that are not its own (a Temple Guardian's) go on."""
        self.decisions.drop(lambda task: not (
            (task.seat == seat and task.kind not in _TASKS_OUTLIVING_THEIR_SEAT)
            or (task.a == seat and task.kind in _TASKS_OWNED_THROUGH_A)))

    # ------------------------------------------------------------- the Ring

    def _take_ring(self, taker: int, holder: int, card: int) -> None:
        """Taking the Ring from another party: it (with ``rules.heroic_sacrifice_any_player``,
        then every other player but the taker, clockwise) may answer with Heroic Sacrifice."""
        if not self.alive(taker) or self.numbers[RING_HOLDER] != holder:
            return
        self._push(K_GIVE_RING, taker, holder)
        self._offer_sacrifice(taker, holder, card, 0)

    def _offer_sacrifice(self, taker: int, holder: int, card: int, step: int) -> None:
        """Ask the next player, ``step`` seats clockwise from the holder, whether to play Heroic
        Sacrifice (asked even without the card, while its Fighter lives: hands stay hidden)."""
        n = self.n_players
        last_step = n - 1 if self.config.heroic_sacrifice_any_player else 0
        while step <= last_step:
            seat = (holder + step) % n
            if seat != taker and self.alive(seat) and self.can_use_class(seat, HEROIC_SACRIFICE):
                choices = self.positions_of(seat, HEROIC_SACRIFICE)
                choices.append(PASS)
                self._ask(K_SACRIFICE, seat, taker, card, step, choices)
                return
            step += 1

    def _sacrifice(self, seat: int, taker: int, card: int, step: int, position: int) -> None:
        holder = (seat - step) % self.n_players
        if position == NO_CHOICE:  # asked again after a resample
            self._offer_sacrifice(taker, holder, card, step)
            return
        if position == PASS:
            self._offer_sacrifice(taker, holder, card, step + 1)
            return
        self.decisions.stack.pop()  # the K_GIVE_RING below: the Ring stays
        self._mark_played_as_counter(seat, self._discard(seat, position))
        if card >= 0:
            self.stats.add(taker, _COUNTERED, card)
        if self.trace is not None:
            whose = "keeps the Ring" if seat == holder else f"keeps seat {taker} from taking the Ring"
            self.emit("counter", f"seat {seat} {whose} with a Heroic Sacrifice", seat=seat)
        self._push(K_OWN_HERO_HIT, seat, -1, 0)

    def _give_ring(self, taker: int, holder: int) -> None:
        """The taker wears the Ring and gains a Summoning Point."""
        self.numbers[RING_HOLDER] = taker
        self.numbers[RING_SPACE] = -1
        self.numbers[RING_TAKES] += 1
        if self.trace is not None:
            source = "from the map" if holder < 0 else f"from seat {holder}"
            self.emit("ring", f"seat {taker} takes the Ring {source}", seat=taker)
        self._gain_ring_points(taker, self.config.ring_take_points, "takes the Ring")

    def _gain_ring_points(self, seat: int, points: int, why: str) -> None:
        """Ring points: the only way to the winning point."""
        total = min(self.config.points_to_win, self.points(seat) + points)
        self.set_points(seat, total)
        if self.trace is not None:
            self.emit("points", f"seat {seat} {why}: {total} Summoning Points", seat=seat, points=total)
        if total >= self.config.points_to_win:
            self._end(END_POINTS, seat)

    # ------------------------------------------------------- Chaos Magic chain

    def _offer_chaos_magic(self, caster: int, victim: int, last: int, countered: int, step: int) -> None:
        """Offer the other players, clockwise from the last Chaos Magic played,
        the chance to counter it with their own; resolve when all pass."""
        n = self.n_players
        while step < n:
            seat = (last + step) % n
            if self.alive(seat):  # asked even without the card: hands stay hidden
                self._push(K_CHAOS_OFFER, seat, PAIR.encode(caster, victim), last, PAIR.encode(countered, step))
                return
            step += 1
        if countered or self.points(victim) == 0:
            return
        capped = self.points(caster) >= self.config.max_taken_points  # never the winning point by stealing
        if capped and not self.config.chaos_magic_at_ten_costs_victim:
            return  # the point cannot be given to the thief: the victim keeps it
        self.set_points(victim, self.points(victim) - 1)
        if not capped:
            self.set_points(caster, self.points(caster) + 1)
        if self.trace is None:
            return
        if capped:  # the seat whose points changed and its total, as the Ring's points are traced
            total = self.points(victim)
            self.emit("points", f"seat {victim} loses a Summoning Point to seat {caster}'s Chaos Magic, "
                      f"which gains none at {self.points(caster)}: {total} Summoning Points",
                      seat=victim, points=total, caster=caster)
        else:
            self.emit("points", f"seat {caster} takes a Summoning Point from seat {victim} (Chaos Magic)",
                      seat=caster, victim=victim)

    def _chaos_offer(self, seat: int, who: int, last: int, chain: int, position: int) -> None:
        caster, victim = PAIR.field(who, 0), PAIR.field(who, 1)
        countered, step = PAIR.field(chain, 0), PAIR.field(chain, 1)
        if position == NO_CHOICE:
            choices = self.positions_of(seat, CHAOS_MAGIC)
            choices.append(PASS)
            self._ask(K_CHAOS_OFFER, seat, who, last, chain, choices)
            return
        if position == PASS:
            self._offer_chaos_magic(caster, victim, last, countered, step + 1)
            return
        self._mark_played_as_counter(seat, self._discard(seat, position))
        if not countered:
            self.stats.add(caster, _COUNTERED, CHAOS_MAGIC)
        if self.trace is not None:
            self.emit("counter", f"seat {seat} counters the Chaos Magic with a Chaos Magic", seat=seat)
        self._offer_chaos_magic(caster, victim, seat, 1 - countered, 1)

    # -------------------------------------------------------- raising Heroes

    def _offer_hell_raisers(self, caster: int, card: int, after: int = -1) -> None:
        """Hell Raisers may negate a Resurrection, Necromancy or Defenders' raise of a Dead Hero:
        the first party with that power and a card, clockwise from the caster (past ``after``,
        one that has let it pass: a variant may give the power to several parties)."""
        others = self.others_alive(caster)
        start = others.index(after) + 1 if after in others else 0
        for other in others[start:]:
            if self.power(other) == HELL_RAISERS and self.hand(other):
                self._push(K_HELL_OFFER, other, caster, card)
                return

    def _hell_offer(self, seat: int, caster: int, card: int, choice: int) -> None:
        if choice == NO_CHOICE:
            if self.hand(seat):
                self._ask(K_HELL_OFFER, seat, caster, card, 0, [NEGATE.encode(), PASS])
            else:
                self._offer_hell_raisers(caster, card, seat)
            return
        if choice == PASS:
            self._offer_hell_raisers(caster, card, seat)
            return
        self.decisions.stack.pop()  # the raise below is negated
        discarded = self._discard(seat, self.rng.below(len(self.hand(seat))))  # the victim picks blindly
        self._mark_played_as_counter(seat, discarded)
        self.power_used[seat] += 1
        if card >= 0:
            self.stats.add(caster, _COUNTERED, card)
        if self.trace is not None:
            self.emit("counter", f"seat {seat} (Hell Raisers) negates it, discarding {self.card_name(discarded)}",
                       seat=seat)

    def _raise(self, seat: int, from_status: int, hero: int) -> None:
        """Raise one Hero of status ``from_status`` by one level (the party chooses)."""
        if not self.alive(seat):
            return
        if hero == NO_CHOICE:
            choices = [h for h in range(4) if self.status(seat, h) == from_status]
            if choices:
                self._ask(K_RAISE, seat, from_status, 0, 0, choices)
            return
        self._raise_hero(seat, hero)

    def _raise_hero(self, seat: int, hero: int) -> None:
        if not self.alive(seat):
            return
        status = min(FULL, self.status(seat, hero) + 1)
        self.set_seat_number(seat, HEROES + hero, status)
        if self.trace is not None:
            self.emit("raise", f"seat {seat}'s {CLASS_NAMES[hero]} rises to {STATUS_NAMES[status]}",
                       seat=seat, hero=CLASS_NAMES[hero])

    def _necromancy(self, seat: int) -> None:
        for party in reversed(self.necromancy_parties(seat)):
            self._push(K_RAISE, party, DEAD)

    def _defenders_hero(self, seat: int, hero: int) -> None:
        """Defenders of the Faith: pick the Hero, discard two cards (powers.defenders_of_the_faith.
        cards_to_discard), raise it one level."""
        if hero == NO_CHOICE:
            self._ask(K_DEFENDERS_HERO, seat, 0, 0, 0, [h for h in range(4) if self.status(seat, h) < FULL])
            return
        self._push(K_RAISE_HERO, seat, hero)
        if self.status(seat, hero) == DEAD:
            self._offer_hell_raisers(seat, -1)
        for _ in range(self.config.defenders_cards_to_discard):
            self._push(K_DEFENDERS_DISCARD, seat)

    def _defenders_discard(self, seat: int, position: int) -> None:
        if position == NO_CHOICE:
            self._ask(K_DEFENDERS_DISCARD, seat, 0, 0, 0, self.distinct_positions(seat))
            return
        self._discard(seat, position)

    # ------------------------------------------------------------- the end

    def _end(self, reason: str, winner: int) -> None:
        self.end(reason)
        self.decisions.waiting = False
        self.numbers[WINNER] = winner
        if self.trace is not None:
            points = self.scores()
            self.emit("game_over", f"game over ({reason}): winner seat {winner}, points {points}",
                      reason=reason, winners=self.winners(), points=points)


# ------------------------------------------------------------------ the cards
#
# A card lives in two places side by side: its facts (class, Action, reach, sure, counters, copies) in
# cards.toml, its behaviour in its entry of ``CARD_BEHAVIOUR``: a ``CardBehaviour``, whose methods answer
# what the engine asks about the card (``can_play``, ``_play_card``, ``_target``, ``_space``,
# ``counter_positions``, ``_counter``), so that the engine never tests a card id. A card's class below
# overrides what its text changes, in a line or two each, and pushes the steps (task kinds) it needs.


class CardBehaviour:
    """A card whose behaviour is all in its facts: an Attack card (played on a party within its reach,
    which it attacks, melee or ranged, sure or not), or a card that only counters."""

    stays_in_play = False  # played, it waits in play until its effect is done, not on the discard pile

    def playable(self, state: RingState, seat: int, card: int) -> bool:
        """Whether it has something to act on now (asked of a card without an attack reach: one with a
        reach is playable while a party is within it)."""
        return len(self.targets(state, seat, card)) > 0

    def play(self, state: RingState, seat: int, card: int) -> None:
        """What playing it as the active player's Action does (out of the hand, its Action used)."""
        state._push(K_TARGET, seat, card, 0)

    def targets(self, state: RingState, seat: int, card: int) -> list[int]:
        """The parties it may be played on (the spaces, for a card that moves its party: ``_space``)."""
        return state.attack_targets(seat, card, False)

    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        """What it does to the party (or space) chosen."""
        state._attack(seat, target, card)

    def can_counter(self, state: RingState, defender: int, card: int) -> bool:
        """Whether it may counter now an attack its facts name."""
        return True

    def as_counter(self, state: RingState, defender: int, card: int, style: int) -> None:
        """What it does besides stopping the attack (of ``style``), played as a counter."""


class PartyTargeted(CardBehaviour):
    """A card played on another living party that ``aims_at`` accepts: its targets are those
    parties, clockwise from the caster, and it is playable while one is (found without listing
    them: ``playable`` is asked at every main question)."""

    def aims_at(self, state: RingState, seat: int, card: int, other: int) -> bool:
        """Whether it may be played on ``other``, a living party other than ``seat``."""
        return True

    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return any(state.is_rival(seat, other) and self.aims_at(state, seat, card, other)
                   for other in range(state.n_players))

    def targets(self, state: RingState, seat: int, card: int) -> list[int]:
        return [other for other in state.others_alive(seat) if self.aims_at(state, seat, card, other)]


class MindControl(CardBehaviour):
    """Mind Control (Wizard): "Cause the Party holding the Ring to give it to you"."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return 0 <= state.numbers[RING_HOLDER] != seat
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._push(K_TAKE_RING, seat, state.numbers[RING_HOLDER], card)


class Dominance(MindControl):
    """Dominance: "Switch places ... with the Party that's wearing the Ring and take the Ring for yourself"."""
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._swap(seat, state.numbers[RING_HOLDER])
        super().play(state, seat, card)


class Leadership(CardBehaviour):
    """Leadership: "Move all Adventuring Parties, other than yourself, to any location on the battle map"."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return True
    def play(self, state: RingState, seat: int, card: int) -> None:
        for other in reversed(state.others_alive(seat)):
            state._push(K_LEADERSHIP, seat, other)


class Sneak(PartyTargeted):
    """Sneak: "Swap places on the battle map with another Adventuring Party. The Party that possesses the Ring
    cannot be moved by this card" (nor can its wearer play it)."""
    def aims_at(self, state: RingState, seat: int, card: int, other: int) -> bool:
        return state.numbers[RING_HOLDER] not in (seat, other)
    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        state._swap(seat, target)


class Teleport(CardBehaviour):
    """Teleport: "Move to any open space on the battle map, except the Chaos Altar"."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        # The first open space will do (compiled, ``any`` is a loop that stops
        # there): asked at every main question, while ``targets`` lists most of the map.
        return any(_teleport_space(state, space) for space in range(state.config.board.n_spaces))
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._push(K_SPACE, seat, card)
    def targets(self, state: RingState, seat: int, card: int) -> list[int]:
        return [space for space in range(state.config.board.n_spaces) if _teleport_space(state, space)]
    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        pass  # moved by ``_space``


def _teleport_space(state: RingState, space: int) -> bool:
    """Whether Teleport may end on ``space``: open, and not the Chaos Altar."""
    return state.numbers[OCCUPANT + space] < 0 and space != state.config.board.altar


class Bully(Teleport):
    """Bully (Fighter): "Move to any open space ... Adjacent to another Party (other than the Chaos Altar) and
    make an immediate melee attack against that Party", parried "as if it were a Sword card"."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        # Not Teleport's test: Bully's spaces are fewer (next to a party); the first one will do.
        return state.can_bully(seat)
    def targets(self, state: RingState, seat: int, card: int) -> list[int]:
        return state.bully_spaces(seat)
    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        state._push(K_BULLY_TARGET, seat)


class Earthquake(CardBehaviour):
    """Earthquake (Wizard): "Every Party, including the caster, reduces one Hero by one level", no counter."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return True
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._push(K_EARTHQUAKE, seat)


class Pickpocket(PartyTargeted):
    """Pickpocket (Rogue): "Take one random card from the hand of a player whose Party is Adjacent to yours"."""
    def aims_at(self, state: RingState, seat: int, card: int, other: int) -> bool:
        return len(state.hand(other)) > 0 and state.is_adjacent(seat, other)
    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        state._take_random_card(seat, target)


class Scavenge(CardBehaviour):
    """Scavenge: "Draw any one card from the discard pile and add it to your hand" (a Guardian attacks at once)."""
    stays_in_play = True  # until the pick
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return len(state.zones[DISCARD_PILE].cards) > 0
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._push(K_SCAVENGE, seat)


class Tithe(CardBehaviour):
    """Tithe (Cleric): "All other players drop one card of their choosing, face-up. The player who played Tithe
    selects one of those dropped cards to add to their hand, then discards the rest"."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return any(state.is_rival(seat, other) and state.hand(other) for other in range(state.n_players))
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._push(K_TITHE_PICK, seat)
        for other in reversed(state.others_alive(seat)):
            state._push(K_TITHE_DROP, other, seat)


class Fireball(CardBehaviour):
    """Fireball (Wizard): "Make one ranged attack, then make additional ranged attacks against any other Parties
    Adjacent to the original target" (none against a Temple Guardian, which has no space)."""
    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        splash = K_SPLASH if state.config.fireball_splash_optional else K_ATTACKER_HERO  # (a reading) or all of them
        for other in reversed(state.others_alive(seat)):
            if other != target and state.is_adjacent(target, other):
                state._push(splash, seat, other, RANGED, card)
        super().on_target(state, seat, card, target)


class Imprison(PartyTargeted):
    """Imprison (Cleric): "Cause any player to lose all action phases on their next turn ... Place this card in
    front of the targeted player until their next turn"; no counter; against a Guardian too (a reading)."""
    stays_in_play = True  # until it is in front of the player
    def aims_at(self, state: RingState, seat: int, card: int, other: int) -> bool:
        return not state.imprisoned(other)
    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        state.zones[LIMBO].cards.remove(card)
        state.imprisoned(target).append(card)  # a public zone: no history to keep
    def as_counter(self, state: RingState, defender: int, card: int, style: int) -> None:
        if style == GUARDIAN and state.config.guardian_counter_full_effects and self.targets(state, defender, card):
            state.zones[DISCARD_PILE].cards.pop()  # back in play, on its way to the player it imprisons
            state.zones[LIMBO].cards.append(card)
            state._push(K_TARGET, defender, card, 0)


class PitTrap(CardBehaviour):
    """Pit Trap (Rogue): "All other Adventuring Parties lower one Hero one level"; no counter, but a party whose
    Rogue is alive is not hurt; against a Temple Guardian it hits them as well."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return True
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._push(K_PIT_TRAP, seat)
    def as_counter(self, state: RingState, defender: int, card: int, style: int) -> None:
        state._push(K_PIT_TRAP, defender)


class SavageAttack(CardBehaviour):
    """Savage Attack (Fighter): "Melee attack. You may also play any (or all) other Melee Attack cards in your
    hand as part of the same single Attack Action"; against a Guardian too (a reading)."""
    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        state._push(K_SAVAGE_MORE, seat)
        super().on_target(state, seat, card, target)
    def as_counter(self, state: RingState, defender: int, card: int, style: int) -> None:
        if style == GUARDIAN and state.config.guardian_counter_full_effects:
            state._push(K_SAVAGE_MORE, defender)


class ChaosMagic(PartyTargeted):
    """Chaos Magic: "Force any player to give you one of their Summoning Points. Countered by Chaos Magic"."""
    def aims_at(self, state: RingState, seat: int, card: int, other: int) -> bool:
        return state.points(other) > 0
    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        state._offer_chaos_magic(seat, target, seat, 0, 1)


class HealingPotion(CardBehaviour):
    """Healing Potion: "Raise one Hero from Wounded to Full Strength"."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return state.has_hero_at(seat, WOUNDED)
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._push(K_RAISE, seat, WOUNDED)


class Necromancy(CardBehaviour):
    """Necromancy: "You and every Adjacent Adventuring Party raises one Hero from Dead to Wounded"."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return state.necromancy_raises(seat)
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._push(K_NECROMANCY, seat)
        state._offer_hell_raisers(seat, card)


class Poison(PartyTargeted):
    """Poison (Rogue): "Force any one player to discard a card of their choice from their hand"."""
    def aims_at(self, state: RingState, seat: int, card: int, other: int) -> bool:
        return len(state.hand(other)) > 0
    def on_target(self, state: RingState, seat: int, card: int, target: int) -> None:
        state._push(K_POISON_DISCARD, target)


class Resurrection(CardBehaviour):
    """Resurrection (Cleric): "Raise one Hero from Dead to Wounded"; Dread Legion "can never use" it."""
    def playable(self, state: RingState, seat: int, card: int) -> bool:
        return state.has_hero_at(seat, DEAD) and state.power(seat) != DREAD_LEGION
    def play(self, state: RingState, seat: int, card: int) -> None:
        state._push(K_RAISE, seat, DEAD)
        state._offer_hell_raisers(seat, card)


class HastyRetreat(CardBehaviour):
    """Hasty Retreat: "Avoid any attack and move one to three spaces ... (You must move at least one space.)"."""
    def can_counter(self, state: RingState, defender: int, card: int) -> bool:
        return len(state.retreat_destinations(defender)) > 0
    def as_counter(self, state: RingState, defender: int, card: int, style: int) -> None:
        state._push(K_RETREAT, defender)


class HeroicSacrifice(CardBehaviour):
    """Heroic Sacrifice (Fighter): "Prevent a Party from taking the Ring from any other Party. Reduce one of your
    Heroes one level" (``_take_ring``); against a Temple Guardian the level is lost too."""
    def as_counter(self, state: RingState, defender: int, card: int, style: int) -> None:
        if style == GUARDIAN:
            state._push(K_OWN_HERO_HIT, defender, -1, 0)


# Every card's behaviour, by its key in cards.toml (``test_card_behaviour.py`` holds the two together), in the
# rulebook's order: the Move, Attack, Bonus and Counter Action cards, then the threat. The plain Attack cards,
# Dodge, Parry and the Temple Guardian (drawn, it attacks every party: ``_draw_task``) are all in their facts.
CARD_BEHAVIOUR: Final[dict[str, CardBehaviour]] = {
    "dominance": Dominance(), "leadership": Leadership(), "sneak": Sneak(), "teleport": Teleport(),
    "bully": Bully(), "earthquake": Earthquake(), "pickpocket": Pickpocket(), "scavenge": Scavenge(),
    "tithe": Tithe(),
    "dagger": CardBehaviour(), "mace": CardBehaviour(), "staff": CardBehaviour(), "sword": CardBehaviour(),
    "dagger_of_biting": CardBehaviour(), "sword_of_slaying": CardBehaviour(), "bow": CardBehaviour(),
    "holy_strike": CardBehaviour(), "lightning_bolt": CardBehaviour(), "throwing_axe": CardBehaviour(),
    "lightning_storm": CardBehaviour(), "holy_vengeance": CardBehaviour(),
    "fireball": Fireball(), "imprison": Imprison(), "pit_trap": PitTrap(), "savage_attack": SavageAttack(),
    "chaos_magic": ChaosMagic(), "healing_potion": HealingPotion(), "mind_control": MindControl(),
    "necromancy": Necromancy(), "poison": Poison(), "resurrection": Resurrection(),
    "dodge": CardBehaviour(), "hasty_retreat": HastyRetreat(), "heroic_sacrifice": HeroicSacrifice(),
    "parry": CardBehaviour(), "temple_guardian": CardBehaviour(),
}
BEHAVIOUR_BY_CARD: Final[tuple[CardBehaviour, ...]] = tuple(CARD_BEHAVIOUR[name] for name in CARD_NAMES)
"""``CARD_BEHAVIOUR`` by card id."""
