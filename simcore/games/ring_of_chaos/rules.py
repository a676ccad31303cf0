"""Ring of Chaos: the rules (see RULES.md beside this file).

2 to 6 players, each an Adventuring Party of four Heroes (Cleric, Fighter,
Rogue, Wizard) on a battle map; the Ring of Chaos starts on the Chaos Altar.
A turn: draw three cards one at a time (a Temple Guardian attacks every party
at once and is replaced), then at most one Move, one Attack and one Bonus
Action in any order, then discard down to five cards. Win with 11 Summoning
Points (the last one only from the Ring) or as the last party alive.

How decisions are modelled. The rules run a stack of small *tasks* (tuples
``(kind, seat, a, b, c)``): a turn is "draw, draw, draw, main menu, end of
turn", an attack is "attacker picks the hero, defender may counter, the hit".
A task either does its work (and may push more tasks) or *asks* one seat a
question: it stores itself in ``asked`` with the legal answers in
``choices`` and sets ``current_player`` to that seat — the active player, or
the targeted player for an out-of-turn counter. ``apply(answer)`` re-runs the
asked task with the answer and then runs the stack until the next question.
Every answer is a small int whose meaning depends on the asked task (see
``describe_action``): a main-menu code, a seat, a hero class, a space, a hand
position, a card id, or ``PASS``.

A task asked without an answer (``NO_CHOICE``) only computes its choices, so
``resample_hidden`` can ask the same question again after redrawing what the
seat cannot see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simcore.api import CardColumns, GameInfo, GameState, TraceSink, ranks_from_scores
from simcore.games.ring_of_chaos.config import (
    ATTACK_SLOT,
    BONUS_SLOT,
    BRUTE_SQUAD,
    BULLY,
    CARD_NAMES,
    CARD_REACH,
    CARD_SLOTS,
    CHAOS_MAGIC,
    CLASS_NAMES,
    DAGGER,
    DEATH_FROM_ABOVE,
    DEFENDERS_OF_THE_FAITH,
    DEN_OF_THIEVES,
    DODGE,
    DOMINANCE,
    DREAD_LEGION,
    EARTHQUAKE,
    FIREBALL,
    GIANT_SLAYERS,
    HASTY_RETREAT,
    HEALING_POTION,
    HELL_RAISERS,
    HEROIC_SACRIFICE,
    IMPRISON,
    LEADERSHIP,
    MELEE_CARDS,
    MELEE_REACH,
    MIND_CONTROL,
    MOVE_SLOT,
    NECROMANCY,
    NO_CLASS,
    PARRY,
    PICKPOCKET,
    PIT_TRAP,
    POISON,
    RANGED_CARDS,
    RANGED_REACH,
    RESURRECTION,
    ROGUE,
    SAVAGE_ATTACK,
    SCAVENGE,
    SNEAK,
    TELEPORT,
    TEMPLE_GUARDIAN,
    TITHE,
    UNDODGEABLE,
    UNPARRYABLE,
    RingConfig,
)
from simcore.rng import Generator
from simcore.seeding import make_rng

DEAD, WOUNDED, FULL = 0, 1, 2
STATUS_NAMES = ("dead", "wounded", "full strength")

# Answers that are not a seat, hero, space, position or card.
NO_CHOICE = -1
PASS = 999

# Main-menu answers (the active player's Actions).
END_TURN = 0
DRAW_CARD = 1  # Attack Action: draw a card instead of attacking
PICK_UP_RING = 2  # Bonus Action
STEAL_RING = 3  # Bonus Action, from an Adjacent wearer
DEFENDERS_POWER = 4  # Bonus Action of Defenders of the Faith
DEN_STEAL = 10  # + seat: Den of Thieves takes a random card instead of drawing
MOVE_TO = 100  # + space: move up to two spaces
PLAY_CARD = 200  # + hand position
PLAY_AS_RANGED = 400  # + hand position: Death from Above plays any Attack card as a ranged attack

# Attack styles: who may counter with what.
MELEE, MELEE_SURE, RANGED, RANGED_SURE, GUARDIAN = range(5)
STYLE_NAMES = ("melee", "melee (cannot be parried)", "ranged", "ranged (cannot be dodged)", "Temple Guardian")

# Task kinds.
(
    K_DRAFT, K_TURN_START, K_DRAW, K_GUARDIAN_DEFEND, K_MAIN, K_END_TURN, K_DISCARD_EXCESS, K_PUSH,
    K_TARGET, K_ATTACKER_HERO, K_COUNTER, K_OWN_HERO_HIT, K_RETREAT, K_SPACE, K_BULLY_TARGET,
    K_LEADERSHIP, K_SCAVENGE, K_TITHE_DROP, K_TITHE_PICK, K_SAVAGE_MORE, K_TAKE_RING, K_SACRIFICE,
    K_GIVE_RING, K_CHAOS_OFFER, K_RAISE, K_HELL_OFFER, K_NECROMANCY, K_DEFENDERS_HERO,
    K_DEFENDERS_DISCARD, K_RAISE_HERO, K_POISON_DISCARD, K_PIT_TRAP, K_EARTHQUAKE, K_SPLASH,
) = range(34)

# Tasks that stay on the stack when a party is eliminated although they name it: its turn
# still ends (and the next begins), and a Chaos Magic chain offered to it carries on past it.
_TASKS_OUTLIVING_THEIR_SEAT = (K_END_TURN, K_TURN_START, K_CHAOS_OFFER)
# Tasks whose ``a`` field is the party whose card they come from (an attack's attacker, Pit
# Trap's or Earthquake's caster, Tithe's or a raise's caster): they fizzle with that party.
_TASKS_OWNED_THROUGH_A = (K_COUNTER, K_OWN_HERO_HIT, K_TITHE_DROP, K_HELL_OFFER)

END_POINTS = "points"
END_ELIMINATION = "elimination"
END_TURN_CAP = "turn_cap"

# ``played`` counts every card the seat chose to play, in turn or out of it (counters, Heroic
# Sacrifice, Chaos Magic against Chaos Magic, a Hell Raisers negation); ``played_as_counter``
# is the out-of-turn part of it. ``playable``: steps at which one of the seat's answers would
# have played the card (at most once per step), counted by ``note_offered``.
CARD_COUNTERS = ("in_opening_hand", "drawn", "played", "countered", "played_as_counter", "playable")
_OPENING, _DRAWN, _PLAYED, _COUNTERED, _AS_COUNTER, _PLAYABLE = range(6)

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
    bench_players=4,  # the speed target is for four players
    faction_label="party",
)

Task = tuple[int, int, int, int, int]


def pack_attack(style: int, card: int) -> int:
    """An attack's style and card (-1 for none) in one int."""
    return style * 100 + card + 1


def attack_style(packed: int) -> int:
    """The style of a packed attack."""
    return packed // 100


def attack_card(packed: int) -> int:
    """The card of a packed attack, -1 for none."""
    return packed % 100 - 1


class RingState(GameState):
    """One game of Ring of Chaos in progress."""

    config: RingConfig
    rng: Generator
    trace: TraceSink | None
    party: list[int]
    heroes: list[list[int]]
    alive: list[bool]
    position: list[int]
    occupant: list[int]
    ring_holder: int
    ring_space: int
    points: list[int]
    hands: list[list[int]]
    draw_pile: list[int]
    discard_pile: list[int]
    limbo: list[int]
    tithe_pool: list[int]
    imprisoned: list[list[int]]
    party_deck: list[int]
    active: int
    first_player: int  # the seat that took the first turn (left of the first drafter)
    used_move: bool
    used_attack: bool
    used_bonus: bool
    active_imprisoned: bool  # the active player's turn began imprisoned: its Imprison goes when the turn ends
    turn_count: int
    stack: list[Task]
    asked: Task
    choices: list[int]
    waiting: bool
    over: bool
    ended_by: str
    winner: int
    eliminations: int
    ring_takes: int
    reshuffles: int
    counters: list[list[list[int]]]
    first_played: list[dict[int, int]]
    power_playable: list[int]
    power_used: list[int]

    # ----------------------------------------------------------------- set-up

    def __init__(self, config: RingConfig, n_players: int, rng: Generator, trace: TraceSink | None) -> None:
        self.n_players = n_players
        self.current_player = -1
        self.config = config
        self.rng = rng
        self.trace = trace
        self.party = [-1] * n_players
        self.heroes = [[FULL, FULL, FULL, FULL] for _ in range(n_players)]
        self.alive = [True] * n_players
        self.position = [-1] * n_players
        self.occupant = [-1] * config.board.n_spaces
        self.ring_holder = -1
        self.ring_space = config.board.altar
        self.points = [0] * n_players
        self.hands = [[] for _ in range(n_players)]
        self.draw_pile = []
        self.discard_pile = []
        self.limbo = []
        self.tithe_pool = []
        self.imprisoned = [[] for _ in range(n_players)]
        self.party_deck = []
        self.active = -1
        self.first_player = -1
        self.used_move = False
        self.used_attack = False
        self.used_bonus = False
        self.active_imprisoned = False
        self.turn_count = 0
        self.stack = []
        self.asked = (K_DRAFT, -1, -1, -1, -1)
        self.choices = []
        self.waiting = False
        self.over = False
        self.ended_by = ""
        self.winner = -1
        self.eliminations = 0
        self.ring_takes = 0
        self.reshuffles = 0
        self.counters = [[[0] * len(CARD_NAMES) for _ in CARD_COUNTERS] for _ in range(n_players)]
        self.first_played = [{} for _ in range(n_players)]
        self.power_playable = [0] * n_players
        self.power_used = [0] * n_players

    @staticmethod
    def new_game(config: RingConfig, n_players: int, seed: int, trace: TraceSink | None) -> RingState:
        """Shuffle the deck and the party cards and offer the first two parties (``GAME.new_state``
        has checked the player count)."""
        if len(config.draft_parties) < n_players + 1:
            raise ValueError(f"the draft needs {n_players + 1} party cards, only {len(config.draft_parties)} are in it")
        state = RingState(config, n_players, make_rng(seed), trace)
        state.draw_pile = list(config.deck)
        state.rng.shuffle(state.draw_pile)
        state.party_deck = list(config.draft_parties)
        state.rng.shuffle(state.party_deck)
        first = state.rng.below(n_players)
        if trace is not None:
            state._emit("setup", f"{n_players} players on the {config.board.name} map; deck of "
                        f"{len(state.draw_pile)} cards shuffled; seat {first} drafts first", first=first)
        offer_a, offer_b = state.party_deck.pop(), state.party_deck.pop()
        state.stack.append((K_DRAFT, first, offer_a, offer_b, 0))
        state._run()
        return state

    def _finish_setup(self, first_drafter: int) -> None:
        """Standees on the starting spaces, the Ring on the Altar, four cards each."""
        board = self.config.board
        for seat in range(self.n_players):
            space = board.starts[seat * 6 // self.n_players]
            self.position[seat] = space
            self.occupant[space] = seat
        self.ring_space = board.altar
        for _ in range(self.config.opening_hand):
            for seat in range(self.n_players):
                card = self._draw_card()
                while card == TEMPLE_GUARDIAN:  # discarded and replaced in the opening hand
                    self.discard_pile.append(card)
                    card = self._draw_card()
                self.hands[seat].append(card)
                self.counters[seat][_OPENING][card] += 1
                self.counters[seat][_DRAWN][card] += 1
        first = (first_drafter + 1) % self.n_players
        self.first_player = first
        if self.trace is not None:
            for seat in range(self.n_players):
                self._emit("deal", f"seat {seat} ({self.party_name(seat)}) starts on space {self.position[seat]} "
                           f"holding {', '.join(self.card_name(c) for c in self.hands[seat])}", seat=seat)
            self._emit("first_player", f"seat {first}, left of the first drafter, goes first", seat=first)
        self.stack.append((K_TURN_START, first, 0, 0, 0))

    # ------------------------------------------------------------ public API

    def legal_actions(self) -> Sequence[int]:
        """The answers to the question the current player is asked."""
        return self.choices

    def apply(self, action: int) -> None:
        """Answer the pending question with ``action`` and play on to the next one."""
        kind, seat, a, b, c = self.asked
        self.waiting = False
        self.choices = []
        self._handle(kind, seat, a, b, c, action)
        self._run()

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        return self.over

    def winners(self) -> list[int]:
        """The party with 11 points or the last alive; nobody at the turn cap."""
        return [self.winner] if self.winner >= 0 else []

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others; at the turn cap 1/n each for a draw."""
        if self.winner < 0:
            return [1.0 / self.n_players] * self.n_players
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.n_players)]

    def scores(self) -> list[int]:
        """Summoning Points (an eliminated party's end at 0)."""
        return list(self.points)

    def ranks(self) -> list[int]:
        """The winner first, then parties still alive by points, then the eliminated."""
        keys = [
            (1000 if seat == self.winner else 0) + (100 if self.alive[seat] else 0) + self.points[seat]
            for seat in range(self.n_players)
        ]
        return ranks_from_scores(keys)

    def factions(self) -> list[str | None]:
        """Each seat's Adventuring Party."""
        return [self.party_name(seat) for seat in range(self.n_players)]

    def end_reason(self) -> str:
        """``points``, ``elimination`` or ``turn_cap``."""
        return self.ended_by

    def turns(self) -> int:
        """Player turns played: those completed, and at the end also the one the game ended in."""
        if self.over or self.turn_count == 0:
            return self.turn_count
        return self.turn_count - 1

    def game_columns(self) -> dict[str, Any]:
        """Map, victory type, the first player, eliminations, Ring takes and reshuffles."""
        return {
            "map": self.config.board.name,
            "victory": self.ended_by if self.winner >= 0 else "none",
            "first_player": self.first_player,
            "eliminations": self.eliminations,
            "ring_takes": self.ring_takes,
            "reshuffles": self.reshuffles,
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
        kind = self.asked[0]
        if seat < 0 or kind == K_DRAFT:
            return
        hand = self.hands[seat]
        playable = self.counters[seat][_PLAYABLE]
        power = self.power(seat)
        power_offered = False
        seen = 0  # a bit per card id already counted at this step
        cards: list[int] = []
        if kind == K_MAIN:
            for action in legal_actions:
                if action >= PLAY_AS_RANGED:
                    cards.append(hand[action - PLAY_AS_RANGED])
                    power_offered = True
                elif action >= PLAY_CARD:
                    cards.append(hand[action - PLAY_CARD])
                elif action == DEFENDERS_POWER or DEN_STEAL <= action < MOVE_TO:
                    power_offered = True
        elif kind in (K_COUNTER, K_SACRIFICE, K_CHAOS_OFFER, K_SAVAGE_MORE):
            for action in legal_actions:
                if action != PASS:
                    cards.append(hand[action])
        elif kind == K_HELL_OFFER and 0 in legal_actions:
            cards = list(hand)
            power_offered = True
        if not cards and not power_offered:
            return
        statuses = self.heroes[seat]
        classes = self.config.card_classes
        for card in cards:
            bit = 1 << card
            if seen & bit:
                continue
            seen |= bit
            playable[card] += 1
            if power == DREAD_LEGION and classes[card] != NO_CLASS and statuses[classes[card]] == DEAD:
                power_offered = True
        if power_offered:
            self.power_playable[seat] += 1

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per card each seat drew, played, countered with or could have played."""
        copies = self.config.copies
        columns.names = CARD_NAMES
        counter_columns = columns.counters
        for seat in range(self.n_players):
            seat_counters = self.counters[seat]
            drawn, played, playable = seat_counters[_DRAWN], seat_counters[_PLAYED], seat_counters[_PLAYABLE]
            first_played = self.first_played[seat]
            for card in range(len(CARD_NAMES)):
                if drawn[card] or played[card] or playable[card]:
                    columns.seat.append(seat)
                    columns.card.append(card)
                    columns.copies.append(copies[card])
                    for index in range(len(CARD_COUNTERS)):
                        counter_columns[index].append(seat_counters[index][card])
                    columns.first_played_turn.append(first_played.get(card, -1))

    def observation(self, seat: int) -> tuple[Any, ...]:
        """All ``seat`` sees: the table, its own hand, the other hands' sizes,
        and the question asked (its answers only when asked of ``seat``)."""
        return (
            self.over, self.ended_by, self.winner, self.current_player, self.asked,
            tuple(self.choices) if self.current_player == seat else (),
            tuple(self.party), tuple(map(tuple, self.heroes)), tuple(self.alive), tuple(self.position),
            self.ring_holder, self.ring_space, tuple(self.points), tuple(self.hands[seat]),
            tuple(len(hand) for hand in self.hands), len(self.draw_pile), tuple(self.discard_pile),
            tuple(self.limbo), tuple(self.tithe_pool), tuple(map(tuple, self.imprisoned)),
            len(self.party_deck), self.active, self.used_move, self.used_attack, self.used_bonus,
            self.active_imprisoned, self.turn_count, tuple(self.stack),
        )

    def resample_hidden(self, seat: int, rng: Generator) -> RingState:
        """A copy in which the other hands and the draw pile's order are dealt
        again from the cards ``seat`` cannot see (the hand sizes kept), and
        the party cards not yet offered are reshuffled; a question pending
        for another seat is asked again of its new hand."""
        copy = self.clone()
        hidden = list(copy.draw_pile)
        for other in range(copy.n_players):
            if other != seat:
                hidden.extend(copy.hands[other])
        # Sorted first (here and for the party deck), so the copy depends only
        # on what ``seat`` sees and on ``rng`` (seat-honest search).
        hidden.sort()
        rng.shuffle(hidden)
        start = 0
        for other in range(copy.n_players):
            if other != seat:
                size = len(copy.hands[other])
                copy.hands[other] = hidden[start:start + size]
                start += size
        copy.draw_pile = hidden[start:]
        copy.party_deck.sort()
        rng.shuffle(copy.party_deck)
        if copy.waiting and copy.current_player != seat:
            kind, asked_seat, a, b, c = copy.asked
            copy.waiting = False
            copy._handle(kind, asked_seat, a, b, c, NO_CHOICE)
            copy._run()
        # Future chance (reshuffles, later draws) is hidden too: from here on
        # the copy has its own generator, so no search foresees the real shuffles.
        copy.rng = Generator(rng.next_u32() << 32 | rng.next_u32())
        return copy

    def clone(self) -> RingState:
        """An exact copy with its own generator state and tracing off."""
        copy = RingState(self.config, self.n_players, self.rng.copy(), None)
        copy.current_player = self.current_player
        copy.party = list(self.party)
        copy.heroes = [list(statuses) for statuses in self.heroes]
        copy.alive = list(self.alive)
        copy.position = list(self.position)
        copy.occupant = list(self.occupant)
        copy.ring_holder = self.ring_holder
        copy.ring_space = self.ring_space
        copy.points = list(self.points)
        copy.hands = [list(hand) for hand in self.hands]
        copy.draw_pile = list(self.draw_pile)
        copy.discard_pile = list(self.discard_pile)
        copy.limbo = list(self.limbo)
        copy.tithe_pool = list(self.tithe_pool)
        copy.imprisoned = [list(cards) for cards in self.imprisoned]
        copy.party_deck = list(self.party_deck)
        copy.active = self.active
        copy.first_player = self.first_player
        copy.used_move = self.used_move
        copy.used_attack = self.used_attack
        copy.used_bonus = self.used_bonus
        copy.active_imprisoned = self.active_imprisoned
        copy.turn_count = self.turn_count
        copy.stack = list(self.stack)
        copy.asked = self.asked
        copy.choices = list(self.choices)
        copy.waiting = self.waiting
        copy.over = self.over
        copy.ended_by = self.ended_by
        copy.winner = self.winner
        copy.eliminations = self.eliminations
        copy.ring_takes = self.ring_takes
        copy.reshuffles = self.reshuffles
        copy.counters = [[list(counter) for counter in seat] for seat in self.counters]
        copy.first_played = [dict(seat) for seat in self.first_played]
        copy.power_playable = list(self.power_playable)
        copy.power_used = list(self.power_used)
        return copy

    def describe_action(self, action: int) -> str:
        """The answer in words for the question now asked."""
        kind, seat, _a, _b, _c = self.asked
        hand = self.hands[seat] if 0 <= seat < self.n_players else []
        if action == PASS:
            return "pass"
        if kind == K_DRAFT:
            return f"choose the {self.config.party_names[action]}"
        if kind == K_MAIN:
            return self._describe_main(action, hand)
        if kind in (K_TARGET, K_BULLY_TARGET):
            return f"target seat {action} ({self.party_name(action)})"
        if kind == K_SPLASH:
            return f"the Fireball also attacks seat {action} ({self.party_name(action)})"
        if kind in (K_ATTACKER_HERO, K_GUARDIAN_DEFEND, K_OWN_HERO_HIT, K_RAISE, K_DEFENDERS_HERO):
            return f"the {CLASS_NAMES[action]}"
        if kind in (K_PUSH, K_RETREAT, K_SPACE, K_LEADERSHIP):
            return f"space {action}"
        if kind in (K_SCAVENGE, K_TITHE_PICK):
            return f"take {self.card_name(action)}"
        if kind == K_HELL_OFFER:
            return "negate it with a random card"
        if 0 <= action < len(hand):
            verb = "discard" if kind in (K_DISCARD_EXCESS, K_TITHE_DROP, K_DEFENDERS_DISCARD, K_POISON_DISCARD) \
                else "play"
            return f"{verb} {self.card_name(hand[action])}"
        return str(action)

    def _describe_main(self, action: int, hand: list[int]) -> str:
        if action == END_TURN:
            return "end the turn"
        if action == DRAW_CARD:
            return "draw a card (Attack Action)"
        if action == PICK_UP_RING:
            return "pick up the Ring"
        if action == STEAL_RING:
            return f"steal the Ring from seat {self.ring_holder}"
        if action == DEFENDERS_POWER:
            return "discard two cards to raise a Hero (Defenders of the Faith)"
        if DEN_STEAL <= action < MOVE_TO:
            return f"take a random card from seat {action - DEN_STEAL} (Den of Thieves)"
        if MOVE_TO <= action < PLAY_CARD:
            return f"move to space {action - MOVE_TO}"
        if PLAY_CARD <= action < PLAY_AS_RANGED:
            return f"play {self.card_name(hand[action - PLAY_CARD])}"
        return f"play {self.card_name(hand[action - PLAY_AS_RANGED])} as a ranged attack (Death from Above)"

    def card_name(self, card: int) -> str:
        """A card's name, e.g. ``fireball``."""
        return CARD_NAMES[card]

    def party_name(self, seat: int) -> str | None:
        """The seat's party name (None before the draft reaches it)."""
        party = self.party[seat]
        return self.config.party_names[party] if party >= 0 else None

    def power(self, seat: int) -> int:
        """The seat's party power id."""
        return self.config.party_powers[self.party[seat]]

    # ------------------------------------------------------------ queries

    def is_adjacent(self, seat: int, other: int) -> bool:
        """Whether two parties' spaces are linked on the battle map."""
        return self.config.board.distance[self.position[seat]][self.position[other]] == 1

    def living_heroes(self, seat: int) -> list[int]:
        """Classes whose Hero is alive (Full Strength or Wounded)."""
        statuses = self.heroes[seat]
        return [hero for hero in range(4) if statuses[hero] > DEAD]

    def can_use_class(self, seat: int, card: int) -> bool:
        """Class cards only while that class's Hero is alive (Dread Legion: always)."""
        card_class = self.config.card_classes[card]
        if card_class == NO_CLASS or self.heroes[seat][card_class] > DEAD:
            return True
        return self.power(seat) == DREAD_LEGION

    def others_alive(self, seat: int) -> list[int]:
        """The other parties still in the game, clockwise from ``seat``."""
        n = self.n_players
        return [(seat + step) % n for step in range(1, n) if self.alive[(seat + step) % n]]

    def retreat_destinations(self, seat: int) -> list[int]:
        """Spaces 1..retreat_spaces steps away where Hasty Retreat may end (it may pass occupied
        spaces): empty ones, and with ``rules.retreat_may_push`` occupied ones whose party can be
        pushed to an empty Adjacent space, as in a Move."""
        occupant = self.occupant
        if not self.config.retreat_may_push:
            return [space for space in self.config.retreat_reach[self.position[seat]] if occupant[space] < 0]
        return [space for space in self.config.retreat_reach[self.position[seat]]
                if occupant[space] < 0 or self.push_spaces(seat, space)]

    def attack_targets(self, seat: int, card: int, as_ranged: bool) -> list[int]:
        """Parties ``card`` may target: Adjacent for melee, not Adjacent for ranged, any for Imprison."""
        others = self.others_alive(seat)
        if as_ranged or card in RANGED_CARDS:
            return [other for other in others if not self.is_adjacent(seat, other)]
        if card in MELEE_CARDS:
            return [other for other in others if self.is_adjacent(seat, other)]
        if card == IMPRISON:
            return [other for other in others if not self.imprisoned[other]]
        return others

    def move_destinations(self, seat: int) -> list[int]:
        """Spaces 1..move_spaces away where the party may end its move."""
        occupant = self.occupant
        result = []
        for space in self.config.move_reach[self.position[seat]]:
            if occupant[space] < 0 or self.push_spaces(seat, space):
                result.append(space)
        return result

    def push_spaces(self, mover: int, destination: int) -> list[int]:
        """Empty spaces Adjacent to ``destination`` its occupant may be pushed to
        (the space the mover vacates counts as empty)."""
        origin = self.position[mover]
        return [space for space in self.config.board.neighbours[destination]
                if self.occupant[space] < 0 or space == origin]

    def bully_spaces(self, seat: int) -> list[int]:
        """Open spaces, not the Altar, Adjacent to another party."""
        board = self.config.board
        result = []
        for space in range(board.n_spaces):
            if self.occupant[space] >= 0 or space == board.altar:
                continue
            for neighbour in board.neighbours[space]:
                if self.occupant[neighbour] >= 0 and self.occupant[neighbour] != seat:
                    result.append(space)
                    break
        return result

    def can_play(self, seat: int, card: int, has_adjacent: bool, has_distant: bool) -> bool:
        """Whether ``card`` may be played now as the active player's Action
        (``has_adjacent``/``has_distant``: whether another party is / is not Adjacent)."""
        slot = CARD_SLOTS[card]
        if slot == MOVE_SLOT:
            if self.used_move:
                return False
        elif slot == ATTACK_SLOT:
            if self.used_attack:
                return False
        elif slot == BONUS_SLOT:
            if self.used_bonus:
                return False
        else:
            return False
        if not self.can_use_class(seat, card):
            return False
        reach = CARD_REACH[card]
        if reach == MELEE_REACH:
            return has_adjacent
        if reach == RANGED_REACH:
            return has_distant
        return self._has_effect(seat, card)

    def _has_effect(self, seat: int, card: int) -> bool:
        """Whether the card has something to act on (a target, a Hero to raise...)."""
        holder = self.ring_holder
        if card in (DOMINANCE, MIND_CONTROL):
            return holder >= 0 and holder != seat
        if card == SNEAK:  # "The Party that possesses the Ring cannot be moved by this card": nor by its own
            return holder != seat and any(other != holder for other in self.others_alive(seat))
        if card == TELEPORT:
            altar = self.config.board.altar
            return any(self.occupant[s] < 0 and s != altar for s in range(self.config.board.n_spaces))
        if card == BULLY:
            return len(self.bully_spaces(seat)) > 0
        if card == PICKPOCKET:
            return any(self.hands[other] and self.is_adjacent(seat, other) for other in self.others_alive(seat))
        if card == SCAVENGE:
            return len(self.discard_pile) > 0
        if card in (TITHE, POISON):
            return any(self.hands[other] for other in self.others_alive(seat))
        if card == CHAOS_MAGIC:
            return any(self.points[other] > 0 for other in self.others_alive(seat))
        if card == HEALING_POTION:
            return WOUNDED in self.heroes[seat]
        if card == RESURRECTION:
            return DEAD in self.heroes[seat] and self.power(seat) != DREAD_LEGION
        if card == NECROMANCY:
            return len(self.necromancy_parties(seat)) > 0
        if card == IMPRISON:
            return len(self.attack_targets(seat, card, False)) > 0
        return True  # Leadership, Earthquake, Pit Trap

    def necromancy_parties(self, seat: int) -> list[int]:
        """The caster and every Adjacent party that has a Dead Hero to raise."""
        parties = [seat] if DEAD in self.heroes[seat] else []
        for other in self.others_alive(seat):
            if self.is_adjacent(seat, other) and DEAD in self.heroes[other]:
                parties.append(other)
        return parties

    def counter_positions(self, defender: int, style: int) -> list[int]:
        """Hand positions (one per card type) of the cards that can counter an
        attack of ``style`` on a Full Strength Hero of ``defender``."""
        hand = self.hands[defender]
        seen: list[int] = []
        result: list[int] = []
        for position in range(len(hand)):
            card = hand[position]
            if card in seen or not self.can_use_class(defender, card):
                continue
            if card == HASTY_RETREAT:
                usable = len(self.retreat_destinations(defender)) > 0
            elif card == PARRY:
                usable = style in (MELEE, GUARDIAN)
            elif card == DODGE:
                usable = style in (RANGED, GUARDIAN)
            elif style != GUARDIAN:
                usable = False
            elif card in (CHAOS_MAGIC, HEROIC_SACRIFICE):  # Counter Action cards too
                usable = self.config.guardian_every_counter_card
            else:
                usable = CARD_SLOTS[card] == ATTACK_SLOT
            if usable:
                seen.append(card)
                result.append(position)
        return result

    def distinct_positions(self, seat: int) -> list[int]:
        """One hand position per card type (same cards are the same choice)."""
        hand = self.hands[seat]
        seen = 0  # a bit per card id
        result: list[int] = []
        for position in range(len(hand)):
            bit = 1 << hand[position]
            if not seen & bit:
                seen |= bit
                result.append(position)
        return result

    def positions_of(self, seat: int, card: int) -> list[int]:
        """The first hand position holding ``card`` (empty if none, or the class cannot use it)."""
        hand = self.hands[seat]
        if card in hand and self.can_use_class(seat, card):
            return [hand.index(card)]
        return []

    def main_choices(self, seat: int) -> list[int]:
        """The active player's Actions still open this turn."""
        choices = [END_TURN]
        if not self.used_move:
            choices.extend(MOVE_TO + space for space in self.move_destinations(seat))
        if not self.used_attack:
            choices.append(DRAW_CARD)
            if self.power(seat) == DEN_OF_THIEVES:
                choices.extend(DEN_STEAL + other for other in self.others_alive(seat) if self.hands[other])
        if not self.used_bonus:
            if self.ring_holder < 0 and self.ring_space == self.position[seat]:
                choices.append(PICK_UP_RING)
            if 0 <= self.ring_holder != seat and self.is_adjacent(seat, self.ring_holder):
                choices.append(STEAL_RING)
            if (self.power(seat) == DEFENDERS_OF_THE_FAITH
                    and len(self.hands[seat]) >= self.config.defenders_cards_to_discard
                    and min(self.heroes[seat]) < FULL):
                choices.append(DEFENDERS_POWER)
        hand = self.hands[seat]
        has_adjacent = has_distant = False
        for other in self.others_alive(seat):
            if self.is_adjacent(seat, other):
                has_adjacent = True
            else:
                has_distant = True
        open_slots = (not self.used_move, not self.used_attack, not self.used_bonus, False, False)
        for position in self.distinct_positions(seat):
            card = hand[position]
            if open_slots[CARD_SLOTS[card]] and self.can_play(seat, card, has_adjacent, has_distant):
                choices.append(PLAY_CARD + position)
        if not self.used_attack and self.power(seat) == DEATH_FROM_ABOVE and has_distant:
            any_class = self.config.death_from_above_dead_classes
            for position in self.distinct_positions(seat):
                card = hand[position]
                if CARD_SLOTS[card] == ATTACK_SLOT and (any_class or self.can_use_class(seat, card)):
                    choices.append(PLAY_AS_RANGED + position)
        return choices

    # ------------------------------------------------------------- the engine

    def _emit(self, kind: str, text: str, **data: Any) -> None:
        assert self.trace is not None
        self.trace({"turn": self.turn_count, "type": kind, "text": text, **data})

    def _run(self) -> None:
        """Run tasks until a question is asked or the game is over."""
        stack = self.stack
        while not self.waiting and not self.over and stack:
            kind, seat, a, b, c = stack.pop()
            self._handle(kind, seat, a, b, c, NO_CHOICE)
        if self.over:
            self.current_player = -1
            self.choices = []
            self.stack = []

    def _ask(self, kind: int, seat: int, a: int, b: int, c: int, choices: list[int]) -> None:
        """Ask ``seat`` the question of task (kind, seat, a, b, c); answers in ``choices``."""
        self.asked = (kind, seat, a, b, c)
        self.choices = choices
        self.current_player = seat
        self.waiting = True

    def _push(self, kind: int, seat: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        self.stack.append((kind, seat, a, b, c))

    def _handle(self, kind: int, seat: int, a: int, b: int, c: int, choice: int) -> None:
        """Do one task (``choice`` is NO_CHOICE unless the task's question was answered)."""
        if kind == K_MAIN:
            self._main(seat, choice)
        elif kind == K_DRAW:
            self._draw_task(seat, a == 1)
        elif kind == K_TURN_START:
            self._turn_start(seat)
        elif kind == K_END_TURN:
            self._end_turn(seat)
        elif kind == K_GUARDIAN_DEFEND:
            self._guardian_defend(seat, a, choice)
        elif kind == K_TARGET:
            self._target(seat, a, b, choice)
        elif kind == K_ATTACKER_HERO:
            self._attacker_hero(seat, a, b, c, choice)
        elif kind == K_COUNTER:
            self._counter(seat, a, b, c, choice)
        elif kind == K_OWN_HERO_HIT:
            self._own_hero_hit(seat, a, b == 1, choice)
        elif kind == K_DISCARD_EXCESS:
            self._discard_excess(seat, choice)
        elif kind == K_DRAFT:
            self._draft(seat, a, b, c, choice)
        elif kind == K_PUSH:
            self._push_occupant(seat, a, b, choice)
        elif kind == K_RETREAT:
            self._retreat(seat, choice)
        elif kind == K_SPACE:
            self._space(seat, a, choice)
        elif kind == K_BULLY_TARGET:
            self._bully_target(seat, choice)
        elif kind == K_LEADERSHIP:
            self._leadership(seat, a, choice)
        elif kind == K_SCAVENGE:
            self._scavenge(seat, choice)
        elif kind == K_TITHE_DROP:
            self._tithe_drop(seat, a, choice)
        elif kind == K_TITHE_PICK:
            self._tithe_pick(seat, choice)
        elif kind == K_SAVAGE_MORE:
            self._savage_more(seat, choice)
        elif kind == K_TAKE_RING:
            self._take_ring(seat, a, b)
        elif kind == K_SACRIFICE:
            self._sacrifice(seat, a, b, c, choice)
        elif kind == K_GIVE_RING:
            self._give_ring(seat, a)
        elif kind == K_CHAOS_OFFER:
            self._chaos_offer(seat, a, b, c, choice)
        elif kind == K_RAISE:
            self._raise(seat, a, choice)
        elif kind == K_HELL_OFFER:
            self._hell_offer(seat, a, b, choice)
        elif kind == K_NECROMANCY:
            self._necromancy(seat)
        elif kind == K_DEFENDERS_HERO:
            self._defenders_hero(seat, choice)
        elif kind == K_DEFENDERS_DISCARD:
            self._defenders_discard(seat, choice)
        elif kind == K_RAISE_HERO:
            self._raise_hero(seat, a)
        elif kind == K_POISON_DISCARD:
            self._poison_discard(seat, choice)
        elif kind == K_PIT_TRAP:
            self._pit_trap(seat)
        elif kind == K_EARTHQUAKE:
            self._earthquake(seat)
        elif kind == K_SPLASH:
            self._splash(seat, a, choice)
        else:
            raise AssertionError(f"unknown task {kind}")

    # --------------------------------------------------------- draft and turn

    def _draft(self, seat: int, offer_a: int, offer_b: int, drafted: int, choice: int) -> None:
        """A player chooses one of two party cards; the other goes on with a new one."""
        if choice == NO_CHOICE:
            self._ask(K_DRAFT, seat, offer_a, offer_b, drafted, [offer_a, offer_b])
            return
        rejected = offer_b if choice == offer_a else offer_a
        self.party[seat] = choice
        if self.trace is not None:
            self._emit("draft", f"seat {seat} chooses the {self.config.party_names[choice]} over the "
                       f"{self.config.party_names[rejected]}", seat=seat, party=self.config.party_names[choice])
        drafted += 1
        first_drafter = (seat - drafted + 1) % self.n_players
        if drafted == self.n_players:
            self.party_deck.append(rejected)  # the unchosen cards leave the game
            self._finish_setup(first_drafter)
            return
        self._push(K_DRAFT, (seat + 1) % self.n_players, rejected, self.party_deck.pop(), drafted)

    def _turn_start(self, seat: int) -> None:
        """Ring points, then the three draws, the Actions and the end of the turn."""
        if self.turn_count >= self.config.max_turns:
            self._end(END_TURN_CAP, -1)
            return
        self.turn_count += 1
        self.active = seat
        self.used_move = self.used_attack = self.used_bonus = False
        self.active_imprisoned = len(self.imprisoned[seat]) > 0
        if self.trace is not None:
            self._emit("turn", f"seat {seat} ({self.party_name(seat)}) begins turn {self.turn_count}", seat=seat)
        self._push(K_END_TURN, seat)
        if self.active_imprisoned:
            if self.trace is not None:
                self._emit("imprisoned", f"seat {seat} is imprisoned: no Actions this turn", seat=seat)
        else:
            self._push(K_MAIN, seat)
        for _ in range(self.config.draws_per_turn):
            self._push(K_DRAW, seat, 1)
        if self.ring_holder == seat:
            self._gain_ring_points(seat, self.config.ring_wear_points, "wears the Ring as the turn begins")

    def _end_turn(self, seat: int) -> None:
        """Discard down to the hand limit, release an Imprison card, pass the turn."""
        if self.alive[seat] and len(self.hands[seat]) > self.config.hand_limit:
            self._push(K_END_TURN, seat)
            self._ask(K_DISCARD_EXCESS, seat, 0, 0, 0, self.distinct_positions(seat))
            return
        # Only an imprisonment this turn served is over: one laid during the turn (an Imprison
        # played against a Temple Guardian) waits for the player's next turn.
        if self.active_imprisoned:
            self.discard_pile.extend(self.imprisoned[seat])
            self.imprisoned[seat] = []
            self.active_imprisoned = False
        following = (seat + 1) % self.n_players
        while not self.alive[following]:
            following = (following + 1) % self.n_players
        self._push(K_TURN_START, following)

    def _discard_excess(self, seat: int, position: int) -> None:
        if position == NO_CHOICE:  # asked again after a resample
            self._ask(K_DISCARD_EXCESS, seat, 0, 0, 0, self.distinct_positions(seat))
            return
        card = self.hands[seat].pop(position)
        self.discard_pile.append(card)
        if self.trace is not None:
            self._emit("discard", f"seat {seat} discards {self.card_name(card)} to the hand limit", seat=seat)

    def _draw_card(self) -> int:
        """Top card of the draw pile; the discard pile is reshuffled when it runs out; -1 if both are empty."""
        if not self.draw_pile:
            if not self.discard_pile:
                return -1
            self.draw_pile = self.discard_pile
            self.discard_pile = []
            self.rng.shuffle(self.draw_pile)
            self.reshuffles += 1
            if self.trace is not None:
                self._emit("reshuffle", f"the discard pile of {len(self.draw_pile)} cards becomes the draw pile")
        return self.draw_pile.pop()

    def _draw_task(self, seat: int, replace_guardian: bool) -> None:
        """Draw one card; a Temple Guardian attacks everyone and (usually) is replaced."""
        if not self.alive[seat]:
            return
        card = self._draw_card()
        if card < 0:
            return
        self.counters[seat][_DRAWN][card] += 1
        if card == TEMPLE_GUARDIAN:
            self.discard_pile.append(card)
            self._start_guardian(seat, replace_guardian)
            return
        self.hands[seat].append(card)
        if self.trace is not None:
            self._emit("draw", f"seat {seat} draws {self.card_name(card)}", seat=seat, card=CARD_NAMES[card])

    def _start_guardian(self, drawer: int, replace: bool) -> None:
        """Every party, the drawer's first and then clockwise, is attacked."""
        if self.trace is not None:
            self._emit("guardian", f"seat {drawer} draws a Temple Guardian: every party is attacked", seat=drawer)
        if replace:
            self._push(K_DRAW, drawer, 1)
        order = [drawer, *self.others_alive(drawer)] if self.alive[drawer] else self.others_alive(drawer)
        for defender in reversed(order):
            self._push(K_GUARDIAN_DEFEND, defender, drawer)

    def _guardian_defend(self, defender: int, drawer: int, hero: int) -> None:
        """The defender picks the Hero the Guardian attacks; then it may counter."""
        if not self.alive[defender]:
            return
        if hero == NO_CHOICE:
            self._ask(K_GUARDIAN_DEFEND, defender, drawer, 0, 0, self.living_heroes(defender))
            return
        self._push(K_COUNTER, defender, -1 - drawer, hero, pack_attack(GUARDIAN, TEMPLE_GUARDIAN))

    def _main(self, seat: int, choice: int) -> None:
        """The active player's menu: one Move, one Attack, one Bonus Action, any order."""
        if not self.alive[seat]:
            return
        if choice == NO_CHOICE:
            self._ask(K_MAIN, seat, 0, 0, 0, self.main_choices(seat))
            return
        if choice == END_TURN:
            return
        self._push(K_MAIN, seat)
        if choice == DRAW_CARD:
            self.used_attack = True
            self._push(K_DRAW, seat, 1)
        elif choice == PICK_UP_RING:
            self.used_bonus = True
            self._give_ring(seat, -1)
        elif choice == STEAL_RING:
            self.used_bonus = True
            self._push(K_TAKE_RING, seat, self.ring_holder, -1)
        elif choice == DEFENDERS_POWER:
            self.used_bonus = True
            self.power_used[seat] += 1
            self._push(K_DEFENDERS_HERO, seat)
        elif DEN_STEAL <= choice < MOVE_TO:
            self.used_attack = True
            self.power_used[seat] += 1
            self._take_random_card(seat, choice - DEN_STEAL)
        elif MOVE_TO <= choice < PLAY_CARD:
            self.used_move = True
            self._move(seat, choice - MOVE_TO)
        elif PLAY_CARD <= choice < PLAY_AS_RANGED:
            self._play_card(seat, choice - PLAY_CARD, False)
        else:
            self.power_used[seat] += 1
            self._play_card(seat, choice - PLAY_AS_RANGED, True)

    # --------------------------------------------------------------- movement

    def _place(self, seat: int, space: int) -> None:
        """Put a party's standee on ``space`` (a worn Ring moves with it)."""
        old = self.position[seat]
        if old >= 0 and self.occupant[old] == seat:
            self.occupant[old] = -1
        self.position[seat] = space
        self.occupant[space] = seat

    def _move(self, seat: int, destination: int) -> None:
        occupant = self.occupant[destination]
        if occupant >= 0:
            self._push(K_PUSH, seat, occupant, destination)
            return
        self._place(seat, destination)
        if self.trace is not None:
            self._emit("move", f"seat {seat} moves to space {destination}", seat=seat, space=destination)

    def _push_occupant(self, mover: int, occupant: int, destination: int, space: int) -> None:
        """The mover pushes the party on its destination to an empty Adjacent space."""
        if space == NO_CHOICE:
            self._ask(K_PUSH, mover, occupant, destination, 0, self.push_spaces(mover, destination))
            return
        self.occupant[self.position[mover]] = -1
        self._place(occupant, space)
        self._place(mover, destination)
        if self.trace is not None:
            self._emit("move", f"seat {mover} moves to space {destination}, pushing seat {occupant} to space {space}",
                       seat=mover, space=destination, pushed=occupant)

    def _swap(self, seat: int, other: int) -> None:
        mine, theirs = self.position[seat], self.position[other]
        self.position[seat], self.position[other] = theirs, mine
        self.occupant[mine], self.occupant[theirs] = other, seat

    def _retreat(self, seat: int, space: int) -> None:
        """Hasty Retreat: move 1 to 3 spaces to an empty space."""
        if space == NO_CHOICE:
            choices = self.retreat_destinations(seat)
            if choices:
                self._ask(K_RETREAT, seat, 0, 0, 0, choices)
            return
        occupant = self.occupant[space]
        if occupant >= 0:  # rules.retreat_may_push: as in a Move, the party there is pushed aside
            self._push(K_PUSH, seat, occupant, space)
            return
        self._place(seat, space)
        if self.trace is not None:
            self._emit("move", f"seat {seat} retreats to space {space}", seat=seat, space=space)

    def _space(self, seat: int, card: int, space: int) -> None:
        """Teleport or Bully: choose the space to move to."""
        if space == NO_CHOICE:
            if card == TELEPORT:
                altar = self.config.board.altar
                choices = [s for s in range(self.config.board.n_spaces) if self.occupant[s] < 0 and s != altar]
            else:
                choices = self.bully_spaces(seat)
            if choices:
                self._ask(K_SPACE, seat, card, 0, 0, choices)
            return
        self._place(seat, space)
        if self.trace is not None:
            self._emit("move", f"seat {seat} moves to space {space}", seat=seat, space=space)
        if card == BULLY:
            self._push(K_BULLY_TARGET, seat)

    def _bully_target(self, seat: int, target: int) -> None:
        if target == NO_CHOICE:
            choices = [other for other in self.others_alive(seat) if self.is_adjacent(seat, other)]
            if choices:
                self._ask(K_BULLY_TARGET, seat, 0, 0, 0, choices)
            return
        self._push(K_ATTACKER_HERO, seat, target, MELEE, BULLY)

    def _leadership(self, seat: int, target: int, space: int) -> None:
        """Leadership: place each other party on any space (empty, or where it stands)."""
        if not self.alive[target]:
            return
        if space == NO_CHOICE:
            choices = [s for s in range(self.config.board.n_spaces)
                       if self.occupant[s] < 0 or self.occupant[s] == target]
            self._ask(K_LEADERSHIP, seat, target, 0, 0, choices)
            return
        self._place(target, space)
        if self.trace is not None:
            self._emit("move", f"seat {seat} moves seat {target} to space {space}", seat=target, space=space)

    # ------------------------------------------------------------- the cards

    def _mark_played(self, seat: int, card: int) -> None:
        """Count a card the seat chose to play, in turn or out of it."""
        self.counters[seat][_PLAYED][card] += 1
        if card not in self.first_played[seat]:
            self.first_played[seat][card] = self.turn_count
        card_class = self.config.card_classes[card]
        if card_class != NO_CLASS and self.heroes[seat][card_class] == DEAD and self.power(seat) == DREAD_LEGION:
            self.power_used[seat] += 1  # a Class card of a Dead Hero

    def _mark_played_as_counter(self, seat: int, card: int) -> None:
        self._mark_played(seat, card)
        self.counters[seat][_AS_COUNTER][card] += 1

    def _play_card(self, seat: int, position: int, as_ranged: bool) -> None:
        """Take the card from the hand, use up its Action, and start its effect."""
        card = self.hands[seat].pop(position)
        self._mark_played(seat, card)
        slot = ATTACK_SLOT if as_ranged else CARD_SLOTS[card]
        if slot == MOVE_SLOT:
            self.used_move = True
        elif slot == ATTACK_SLOT:
            self.used_attack = True
        else:
            self.used_bonus = True
        if (card in (IMPRISON, SCAVENGE)) and not as_ranged:
            self.limbo.append(card)  # placed in front of a player / discarded after the pick
        else:
            self.discard_pile.append(card)
        if self.trace is not None:
            how = " as a ranged attack" if as_ranged else ""
            self._emit("play", f"seat {seat} plays {self.card_name(card)}{how}", seat=seat, card=CARD_NAMES[card])
        if as_ranged:
            self._push(K_TARGET, seat, card, 1)
        else:
            self._start_effect(seat, card)

    def _start_effect(self, seat: int, card: int) -> None:
        if card in MELEE_CARDS or card in RANGED_CARDS or card in (IMPRISON, SNEAK, PICKPOCKET, POISON, CHAOS_MAGIC):
            self._push(K_TARGET, seat, card, 0)
        elif card == DOMINANCE:
            holder = self.ring_holder
            self._swap(seat, holder)
            self._push(K_TAKE_RING, seat, holder, DOMINANCE)
        elif card == MIND_CONTROL:
            self._push(K_TAKE_RING, seat, self.ring_holder, MIND_CONTROL)
        elif card == LEADERSHIP:
            for other in reversed(self.others_alive(seat)):
                self._push(K_LEADERSHIP, seat, other)
        elif card in (TELEPORT, BULLY):
            self._push(K_SPACE, seat, card)
        elif card == EARTHQUAKE:
            self._push(K_EARTHQUAKE, seat)
        elif card == SCAVENGE:
            self._push(K_SCAVENGE, seat)
        elif card == TITHE:
            self._push(K_TITHE_PICK, seat)
            for other in reversed(self.others_alive(seat)):
                self._push(K_TITHE_DROP, other, seat)
        elif card == PIT_TRAP:
            self._push(K_PIT_TRAP, seat)
        elif card == HEALING_POTION:
            self._push(K_RAISE, seat, WOUNDED)
        elif card == RESURRECTION:
            self._push(K_RAISE, seat, DEAD)
            self._offer_hell_raisers(seat, RESURRECTION)
        elif card == NECROMANCY:
            self._push(K_NECROMANCY, seat)
            self._offer_hell_raisers(seat, NECROMANCY)

    def _target(self, seat: int, card: int, mode: int, target: int) -> None:
        """Choose the party a targeted card acts on (mode 1: Death from Above's ranged attack;
        mode 2: an extra attack of a Savage Attack)."""
        if target == NO_CHOICE:
            choices = self._targets(seat, card, mode == 1)
            if choices:
                self._ask(K_TARGET, seat, card, mode, 0, choices)
            return
        if self.trace is not None:
            self._emit("target", f"seat {seat} targets seat {target} with {self.card_name(card)}",
                       seat=seat, target=target)
        if mode == 1:
            self._push(K_ATTACKER_HERO, seat, target, RANGED, card)
        elif card in MELEE_CARDS:
            if card == SAVAGE_ATTACK and mode == 0:
                self._push(K_SAVAGE_MORE, seat)
            self._push(K_ATTACKER_HERO, seat, target, MELEE_SURE if card in UNPARRYABLE else MELEE, card)
        elif card in RANGED_CARDS:
            if card == FIREBALL:
                space = self.position[target]
                splash = K_SPLASH if self.config.fireball_splash_optional else K_ATTACKER_HERO
                for other in reversed(self.others_alive(seat)):
                    if other != target and self.config.board.distance[space][self.position[other]] == 1:
                        self._push(splash, seat, other, RANGED, FIREBALL)
            self._push(K_ATTACKER_HERO, seat, target, RANGED_SURE if card in UNDODGEABLE else RANGED, card)
        elif card == IMPRISON:
            self.limbo.remove(IMPRISON)
            self.imprisoned[target].append(IMPRISON)
        elif card == SNEAK:
            self._swap(seat, target)
        elif card == PICKPOCKET:
            self._take_random_card(seat, target)
        elif card == POISON:
            self._push(K_POISON_DISCARD, target)
        elif card == CHAOS_MAGIC:
            self._offer_chaos_magic(seat, target, seat, 0, 1)

    def _splash(self, seat: int, other: int, choice: int) -> None:
        """rules.fireball_splash_optional: whether the Fireball also attacks ``other`` (its seat) or not (PASS)."""
        if not self.alive[other]:
            return
        if choice == NO_CHOICE:
            self._ask(K_SPLASH, seat, other, RANGED, FIREBALL, [other, PASS])
            return
        if choice != PASS:
            self._push(K_ATTACKER_HERO, seat, other, RANGED, FIREBALL)

    def _targets(self, seat: int, card: int, as_ranged: bool) -> list[int]:
        others = self.others_alive(seat)
        if card == SNEAK:
            if self.ring_holder == seat:
                return []
            return [other for other in others if other != self.ring_holder]
        if card == PICKPOCKET:
            return [other for other in others if self.hands[other] and self.is_adjacent(seat, other)]
        if card == POISON:
            return [other for other in others if self.hands[other]]
        if card == CHAOS_MAGIC:
            return [other for other in others if self.points[other] > 0]
        return self.attack_targets(seat, card, as_ranged)

    def _take_random_card(self, seat: int, victim: int) -> None:
        hand = self.hands[victim]
        if not hand:
            return
        card = hand.pop(self.rng.below(len(hand)))
        self.hands[seat].append(card)
        if self.trace is not None:
            self._emit("take_card", f"seat {seat} takes a random card from seat {victim}", seat=seat, victim=victim)

    def _poison_discard(self, seat: int, position: int) -> None:
        if position == NO_CHOICE:
            if self.hands[seat]:
                self._ask(K_POISON_DISCARD, seat, 0, 0, 0, self.distinct_positions(seat))
            return
        card = self.hands[seat].pop(position)
        self.discard_pile.append(card)
        if self.trace is not None:
            self._emit("discard", f"seat {seat} discards {self.card_name(card)} (Poison)", seat=seat)

    def _scavenge(self, seat: int, card: int) -> None:
        """Take any card from the discard pile; a Temple Guardian attacks at once, not replaced."""
        if card == NO_CHOICE:
            choices = sorted(set(self.discard_pile))
            if choices:
                self._ask(K_SCAVENGE, seat, 0, 0, 0, choices)
            else:
                self.discard_pile.extend(self.limbo)
                self.limbo = []
            return
        self.discard_pile.remove(card)
        self.limbo.remove(SCAVENGE)
        self.discard_pile.append(SCAVENGE)
        self.counters[seat][_DRAWN][card] += 1
        if card == TEMPLE_GUARDIAN:
            self.discard_pile.append(card)
            self._start_guardian(seat, False)
            return
        self.hands[seat].append(card)
        if self.trace is not None:
            self._emit("scavenge", f"seat {seat} takes {self.card_name(card)} from the discard pile", seat=seat)

    def _tithe_drop(self, seat: int, caster: int, position: int) -> None:
        if not self.alive[seat]:
            return
        if position == NO_CHOICE:
            if self.hands[seat]:
                self._ask(K_TITHE_DROP, seat, caster, 0, 0, self.distinct_positions(seat))
            return
        card = self.hands[seat].pop(position)
        self.tithe_pool.append(card)
        if self.trace is not None:
            self._emit("tithe", f"seat {seat} drops {self.card_name(card)} face up", seat=seat)

    def _tithe_pick(self, seat: int, card: int) -> None:
        if card == NO_CHOICE:
            if self.tithe_pool:
                self._ask(K_TITHE_PICK, seat, 0, 0, 0, sorted(set(self.tithe_pool)))
            return
        self.tithe_pool.remove(card)
        self.hands[seat].append(card)
        self.discard_pile.extend(self.tithe_pool)
        self.tithe_pool = []
        if self.trace is not None:
            self._emit("tithe", f"seat {seat} keeps {self.card_name(card)}; the rest are discarded", seat=seat)

    def _savage_more(self, seat: int, position: int) -> None:
        """Savage Attack: play further Melee Attack cards as part of the same Action."""
        if position == NO_CHOICE:
            choices = [PASS]
            hand = self.hands[seat]
            if self.attack_targets(seat, DAGGER, False):
                for candidate in self.distinct_positions(seat):
                    card = hand[candidate]
                    if card in MELEE_CARDS and self.can_use_class(seat, card):
                        choices.append(candidate)
            # Asked even when passing is the only answer (then applied without a
            # decision), so that the question does not reveal the hand.
            self._ask(K_SAVAGE_MORE, seat, 0, 0, 0, choices)
            return
        if position == PASS:
            return
        card = self.hands[seat].pop(position)
        self._mark_played(seat, card)
        self.discard_pile.append(card)
        self._push(K_SAVAGE_MORE, seat)
        self._push(K_TARGET, seat, card, 2)

    def _pit_trap(self, seat: int) -> None:
        """Every other party lowers one Hero, unless its Rogue is alive."""
        for other in reversed(self.others_alive(seat)):
            if self.heroes[other][ROGUE] > DEAD:
                if self.trace is not None:
                    self._emit("pit_trap", f"seat {other}'s Rogue is alive: the Pit Trap fails", seat=other)
            else:
                self._push(K_OWN_HERO_HIT, other, seat, 1)

    def _earthquake(self, seat: int) -> None:
        """Every party, the caster's last, reduces one Hero of its choice."""
        self._push(K_OWN_HERO_HIT, seat, seat, 0)
        for other in reversed(self.others_alive(seat)):
            self._push(K_OWN_HERO_HIT, other, seat, 0)

    # ------------------------------------------------------------- attacks

    def _attacker_hero(self, attacker: int, defender: int, style: int, card: int, hero: int) -> None:
        """The attacker chooses which of the defender's Heroes it attacks."""
        if not self.alive[defender]:
            return
        if hero == NO_CHOICE:
            self._ask(K_ATTACKER_HERO, attacker, defender, style, card, self.living_heroes(defender))
            return
        self._push(K_COUNTER, defender, attacker, hero, pack_attack(style, card))

    def _counter(self, defender: int, attacker: int, hero: int, packed: int, position: int) -> None:
        """The defender of a Full Strength Hero may play a counter card."""
        style = attack_style(packed)
        if position == NO_CHOICE:
            # A Full Strength Hero's player is always asked, even holding no counter (then
            # PASS is the only answer): whether it holds one stays hidden.
            if self.heroes[defender][hero] == FULL:
                choices = self.counter_positions(defender, style)
                choices.append(PASS)
                self._ask(K_COUNTER, defender, attacker, hero, packed, choices)
                return
            position = PASS
        if position == PASS:
            levels = 1
            if (style in (MELEE, MELEE_SURE)) and attacker >= 0 and self.power(attacker) == BRUTE_SQUAD:
                levels = self.config.brute_squad_melee_hits
                if levels > 1 and self.heroes[defender][hero] == FULL:
                    self.power_used[attacker] += 1  # the second hit counts: Full Strength to Dead
            self._hit(attacker, defender, hero, levels, True)
            return
        card = self.hands[defender].pop(position)
        self.discard_pile.append(card)
        self._mark_played_as_counter(defender, card)
        attacking_card = attack_card(packed)
        owner = attacker if attacker >= 0 else -1 - attacker
        if attacking_card >= 0 and self.alive[owner]:
            self.counters[owner][_COUNTERED][attacking_card] += 1
        if self.trace is not None:
            self._emit("counter", f"seat {defender} counters the {STYLE_NAMES[style]} attack with "
                       f"{self.card_name(card)}", seat=defender, card=CARD_NAMES[card])
        if card == HASTY_RETREAT:
            self._push(K_RETREAT, defender)
        elif card == PIT_TRAP:
            self._push(K_PIT_TRAP, defender)  # its attack on every other party happens as well
        elif style == GUARDIAN:
            self._guardian_counter_effect(defender, card)

    def _guardian_counter_effect(self, defender: int, card: int) -> None:
        """The additional effects of a card played against a Temple Guardian ("If the card you
        play has additional effects, those effects take place"), Hasty Retreat's and Pit Trap's
        aside. Fireball splashes nobody: the Guardian has no space on the map."""
        if card == HEROIC_SACRIFICE:
            self._push(K_OWN_HERO_HIT, defender, -1, 0)  # "Reduce one of your Heroes one level"
        elif not self.config.guardian_counter_full_effects:
            return
        elif card == IMPRISON:
            if self.attack_targets(defender, IMPRISON, False):
                self.discard_pile.pop()
                self.limbo.append(IMPRISON)  # placed in front of the player it imprisons
                self._push(K_TARGET, defender, IMPRISON, 0)
        elif card == SAVAGE_ATTACK:
            self._push(K_SAVAGE_MORE, defender)  # further melee attacks on Adjacent parties

    def _own_hero_hit(self, defender: int, attacker: int, is_attack: bool, hero: int) -> None:
        """The defender chooses which of its Heroes takes a hit (Pit Trap, Earthquake, Heroic Sacrifice)."""
        if not self.alive[defender]:
            return
        if hero == NO_CHOICE:
            self._ask(K_OWN_HERO_HIT, defender, attacker, 1 if is_attack else 0, 0, self.living_heroes(defender))
            return
        self._hit(attacker, defender, hero, 1, is_attack)

    def _hit(self, attacker: int, defender: int, hero: int, levels: int, is_attack: bool) -> None:
        """Lower a Hero by ``levels``; a party with no living Hero is eliminated."""
        statuses = self.heroes[defender]
        statuses[hero] = max(DEAD, statuses[hero] - levels)
        if self.trace is not None:
            self._emit("hit", f"seat {defender}'s {CLASS_NAMES[hero]} is now {STATUS_NAMES[statuses[hero]]}",
                       seat=defender, hero=CLASS_NAMES[hero], status=STATUS_NAMES[statuses[hero]])
        if max(statuses) == DEAD:
            self._eliminate(defender, attacker)
            return
        if is_attack and self.power(defender) == GIANT_SLAYERS and self.config.giant_slayers_cards_per_hit:
            self.power_used[defender] += 1
            for _ in range(self.config.giant_slayers_cards_per_hit):
                self._push(K_DRAW, defender, 1)  # after the attack is resolved: too late to counter it

    def _eliminate(self, seat: int, attacker: int) -> None:
        """Discard the hand, remove the standee, drop the Ring, reward the final blow; every
        remaining effect of the party's cards fizzles."""
        self.alive[seat] = False
        self._drop_tasks_of(seat)
        self.eliminations += 1
        self.discard_pile.extend(self.hands[seat])
        self.hands[seat] = []
        self.discard_pile.extend(self.imprisoned[seat])
        self.imprisoned[seat] = []
        space = self.position[seat]
        self.occupant[space] = -1
        self.position[seat] = -1
        if self.ring_holder == seat:
            self.ring_holder = -1
            self.ring_space = space
        reward = 0
        if 0 <= attacker != seat and self.alive[attacker]:
            reward = max(0, min(self.config.max_taken_points - self.points[attacker], self.points[seat]))
            self.points[attacker] += reward
        self.points[seat] = 0
        if self.trace is not None:
            self._emit("eliminated", f"seat {seat} ({self.party_name(seat)}) is eliminated"
                       + (f"; seat {attacker} gains {reward} points" if reward else ""), seat=seat)
        survivors = [other for other in range(self.n_players) if self.alive[other]]
        if len(survivors) == 1:
            self._end(END_ELIMINATION, survivors[0])

    def _drop_tasks_of(self, seat: int) -> None:
        """Remove the eliminated ``seat``'s pending tasks: "you are immediately out of the game",
        so the rest of its card (Fireball's other attacks, Savage Attack's extras, Pit Trap's
        hits...) fizzles, wherever the elimination happened. Its turn still ends, and attacks
        that are not its own (a Temple Guardian's) go on."""
        kept: list[Task] = []
        for task in self.stack:
            kind, task_seat, a = task[0], task[1], task[2]
            if task_seat == seat and kind not in _TASKS_OUTLIVING_THEIR_SEAT:
                continue
            if a == seat and kind in _TASKS_OWNED_THROUGH_A:
                continue
            kept.append(task)
        self.stack[:] = kept  # in place: ``_run`` holds the list

    # ------------------------------------------------------------- the Ring

    def _take_ring(self, taker: int, holder: int, card: int) -> None:
        """Taking the Ring from another party: it (with ``rules.heroic_sacrifice_any_player``,
        then every other player but the taker, clockwise) may answer with Heroic Sacrifice."""
        if not self.alive[taker] or self.ring_holder != holder:
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
            if seat != taker and self.alive[seat] and self.can_use_class(seat, HEROIC_SACRIFICE):
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
        self.stack.pop()  # the K_GIVE_RING below: the Ring stays
        sacrifice = self.hands[seat].pop(position)
        self.discard_pile.append(sacrifice)
        self._mark_played_as_counter(seat, sacrifice)
        if card >= 0:
            self.counters[taker][_COUNTERED][card] += 1
        if self.trace is not None:
            whose = "keeps the Ring" if seat == holder else f"keeps seat {taker} from taking the Ring"
            self._emit("counter", f"seat {seat} {whose} with a Heroic Sacrifice", seat=seat)
        self._push(K_OWN_HERO_HIT, seat, -1, 0)

    def _give_ring(self, taker: int, holder: int) -> None:
        """The taker wears the Ring and gains a Summoning Point."""
        self.ring_holder = taker
        self.ring_space = -1
        self.ring_takes += 1
        if self.trace is not None:
            source = "from the map" if holder < 0 else f"from seat {holder}"
            self._emit("ring", f"seat {taker} takes the Ring {source}", seat=taker)
        self._gain_ring_points(taker, self.config.ring_take_points, "takes the Ring")

    def _gain_ring_points(self, seat: int, points: int, why: str) -> None:
        """Ring points: the only way to the winning point."""
        self.points[seat] = min(self.config.points_to_win, self.points[seat] + points)
        if self.trace is not None:
            self._emit("points", f"seat {seat} {why}: {self.points[seat]} Summoning Points", seat=seat,
                       points=self.points[seat])
        if self.points[seat] >= self.config.points_to_win:
            self._end(END_POINTS, seat)

    # ------------------------------------------------------- Chaos Magic chain

    def _offer_chaos_magic(self, caster: int, victim: int, last: int, countered: int, step: int) -> None:
        """Offer the other players, clockwise from the last Chaos Magic played,
        the chance to counter it with their own; resolve when all pass."""
        n = self.n_players
        while step < n:
            seat = (last + step) % n
            if self.alive[seat]:  # asked even without the card: hands stay hidden
                self._push(K_CHAOS_OFFER, seat, caster * 8 + victim, last, countered * 8 + step)
                return
            step += 1
        if countered or self.points[victim] == 0:
            return
        if self.points[caster] >= self.config.max_taken_points:  # never the winning point by stealing
            if not self.config.chaos_magic_at_ten_costs_victim:
                return  # the point cannot be given to the thief: the victim keeps it
            self.points[victim] -= 1
            return
        self.points[victim] -= 1
        self.points[caster] += 1
        if self.trace is not None:
            self._emit("points", f"seat {caster} takes a Summoning Point from seat {victim} (Chaos Magic)",
                       seat=caster, victim=victim)

    def _chaos_offer(self, seat: int, who: int, last: int, chain: int, position: int) -> None:
        caster, victim = who // 8, who % 8
        countered, step = chain // 8, chain % 8
        if position == NO_CHOICE:
            choices = self.positions_of(seat, CHAOS_MAGIC)
            choices.append(PASS)
            self._ask(K_CHAOS_OFFER, seat, who, last, chain, choices)
            return
        if position == PASS:
            self._offer_chaos_magic(caster, victim, last, countered, step + 1)
            return
        card = self.hands[seat].pop(position)
        self.discard_pile.append(card)
        self._mark_played_as_counter(seat, card)
        if not countered:
            self.counters[caster][_COUNTERED][CHAOS_MAGIC] += 1
        if self.trace is not None:
            self._emit("counter", f"seat {seat} counters the Chaos Magic with a Chaos Magic", seat=seat)
        self._offer_chaos_magic(caster, victim, seat, 1 - countered, 1)

    # -------------------------------------------------------- raising Heroes

    def _offer_hell_raisers(self, caster: int, card: int, hero: int = -1) -> None:
        """Hell Raisers may negate a Resurrection, Necromancy or Defenders' raise of a Dead Hero."""
        for other in self.others_alive(caster):
            if self.power(other) == HELL_RAISERS and self.hands[other]:
                self._push(K_HELL_OFFER, other, caster, card)
                return

    def _hell_offer(self, seat: int, caster: int, card: int, choice: int) -> None:
        if choice == NO_CHOICE:
            if self.hands[seat]:
                self._ask(K_HELL_OFFER, seat, caster, card, 0, [0, PASS])
            return
        if choice == PASS:
            return
        self.stack.pop()  # the raise below is negated
        hand = self.hands[seat]
        discarded = hand.pop(self.rng.below(len(hand)))  # the victim picks blindly
        self.discard_pile.append(discarded)
        self._mark_played_as_counter(seat, discarded)
        self.power_used[seat] += 1
        if card >= 0:
            self.counters[caster][_COUNTERED][card] += 1
        if self.trace is not None:
            self._emit("counter", f"seat {seat} (Hell Raisers) negates it, discarding {self.card_name(discarded)}",
                       seat=seat)

    def _raise(self, seat: int, from_status: int, hero: int) -> None:
        """Raise one Hero of status ``from_status`` by one level (the party chooses)."""
        if not self.alive[seat]:
            return
        if hero == NO_CHOICE:
            choices = [h for h in range(4) if self.heroes[seat][h] == from_status]
            if choices:
                self._ask(K_RAISE, seat, from_status, 0, 0, choices)
            return
        self._raise_hero(seat, hero)

    def _raise_hero(self, seat: int, hero: int) -> None:
        if not self.alive[seat]:
            return
        self.heroes[seat][hero] = min(FULL, self.heroes[seat][hero] + 1)
        if self.trace is not None:
            self._emit("raise", f"seat {seat}'s {CLASS_NAMES[hero]} rises to {STATUS_NAMES[self.heroes[seat][hero]]}",
                       seat=seat, hero=CLASS_NAMES[hero])

    def _necromancy(self, seat: int) -> None:
        for party in reversed(self.necromancy_parties(seat)):
            self._push(K_RAISE, party, DEAD)

    def _defenders_hero(self, seat: int, hero: int) -> None:
        """Defenders of the Faith: pick the Hero, discard two cards (powers.defenders_of_the_faith.
        cards_to_discard), raise it one level."""
        if hero == NO_CHOICE:
            self._ask(K_DEFENDERS_HERO, seat, 0, 0, 0, [h for h in range(4) if self.heroes[seat][h] < FULL])
            return
        self._push(K_RAISE_HERO, seat, hero)
        if self.heroes[seat][hero] == DEAD:
            self._offer_hell_raisers(seat, -1)
        for _ in range(self.config.defenders_cards_to_discard):
            self._push(K_DEFENDERS_DISCARD, seat)

    def _defenders_discard(self, seat: int, position: int) -> None:
        if position == NO_CHOICE:
            self._ask(K_DEFENDERS_DISCARD, seat, 0, 0, 0, self.distinct_positions(seat))
            return
        self.discard_pile.append(self.hands[seat].pop(position))

    # ------------------------------------------------------------- the end

    def _end(self, reason: str, winner: int) -> None:
        self.over = True
        self.waiting = False
        self.ended_by = reason
        self.winner = winner
        self.current_player = -1
        if self.trace is not None:
            self._emit("game_over", f"game over ({reason}): winner seat {winner}, points {self.points}",
                       reason=reason, winners=self.winners(), points=list(self.points))
