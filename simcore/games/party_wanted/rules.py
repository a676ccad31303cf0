"""Party Wanted: the rules (see RULES.md beside this file).

A cooperative dungeon crawl for 1 to 8 heroes. Each level the heroes reveal
one land per tier of the Pyramid of Chaos, from the bottom tier up (one
hero's turn per land), then fight the level's boss; killing the level-4
boss wins, losing every hero loses.

The engine is a small task machine: ``tasks`` is a stack of pending steps
(``T_*``, each ``(op, seat, amount, arg)``); ``_run`` pops and performs them
until one needs a decision, sets ``phase`` and ``current_player`` and
returns. ``apply`` performs the decision and calls ``_run`` again.

Actions are small integers whose meaning depends on the phase:

- ``REVEAL``: the slot of a face-down land on the current tier;
- ``BURY``, ``REMOVE``: a position in the hero's hand;
- ``ORDER``: a position in the list of drawn treasures/encounters;
- ``ADD``: a card id of the hero's Build Pool;
- ``VOTE``: the seat that gets its Ultimate;
- ``SOCIAL``: 1 to take part in the land's Social step, 0 to sit it out;
- ``PLAN`` (combat planning): ``DONE`` (0) or ``verb << 16 | index << 8 | target``
  with verb ``PLAY`` (hand position), ``BURY_BONUS`` (hand position),
  ``USE`` (held single-use item) or ``SACRIFICE`` (0 weapon, 1 armor, 2 + k
  the k-th minion in play). The target is ``hero * SLOTS + slot``: for a
  play, use or sacrifice, ``hero`` is the hero the card aims at (0 if none)
  and ``slot`` the enemy it is designated to (0 if it aims at none); for a
  card buried for +1, ``hero`` gets the +1, ``slot`` is the enemy ``e`` for
  +1 defense against it and ``ATTACK_SLOT + e`` for +1 attack against it;
- ``ITEMS`` (before damage outside combat): ``DONE`` or a ``USE`` action as
  in planning (no enemy).

All mutation happens in ``PartyState`` methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simcore.api import CardColumns, GameInfo, GameState, TraceSink
from simcore.games.party_wanted.config import (
    ARMOR,
    ATTACK,
    DATA_FILE,
    DEFENSE,
    ENCOUNTER,
    HEAL_AMOUNT,
    HEAL_FULL,
    INSTANT,
    LEVELS,
    MINION,
    P_ADD,
    P_ARMOR,
    P_ATTACK,
    P_DAMAGE,
    P_DAMAGE_PARTY,
    P_DAMAGE_SELF,
    P_DEFENSE,
    P_DRAW,
    P_DRAW_PARTY,
    P_ENCOUNTER,
    P_ENEMY_ATTACK_PER_DEAD,
    P_EXPOSE,
    P_FIGHT,
    P_GUARD,
    P_HEAL,
    P_HEAL_SELF,
    P_MINI_BOSS,
    P_MULTIPLY_ATTACK,
    P_MULTIPLY_DEFENSE,
    P_NEGATE,
    P_PARTY_ATTACK,
    P_PARTY_DEFENSE,
    P_PARTY_HEAL,
    P_PARTY_SPEED,
    P_PERM_HP,
    P_REMOVE,
    P_RESURRECT,
    P_SLOW,
    P_SPEED,
    P_TREASURE,
    P_WEAKEN,
    P_WEAPON,
    PERM_ATTACK,
    PERM_DEFENSE,
    PERM_HP,
    PERM_SPEED,
    PLANNING_ONCE,
    SINGLE_USE,
    SKILL_KINDS,
    SOCIAL_REWARD,
    SOCIAL_RULEBOOK,
    SOCIAL_SOLO,
    TARGET_DEAD,
    TARGET_HERO,
    TREASURE,
    ULTIMATE,
    WEAPON,
    Effects,
    PartyConfig,
    compile_config,
)
from simcore.rng import Generator
from simcore.seeding import make_rng

__all__ = ["DATA_FILE", "INFO", "PartyConfig", "PartyState", "compile_config"]

REVEAL, BURY, ORDER, PLAN, ADD, REMOVE, VOTE, OVER, SOCIAL, ITEMS = range(10)
PHASE_NAMES = ("reveal", "bury", "order", "plan", "add", "remove", "vote", "over", "social", "items")

DONE = 0
PLAY, BURY_BONUS, USE, SACRIFICE = 1, 2, 3, 4
SLOTS = 16  # a planning target is hero * SLOTS + slot
ATTACK_SLOT = 8  # bury for +1: slot e is defense against enemy e, ATTACK_SLOT + e attack against it
SACRIFICE_MINION = 2  # sacrifice index of the first minion in play (0 weapon, 1 armor)
# The Add of a level-up is "a Class or Utility card"; a land's or an item's
# Add ("a card of his choice as listed by the card") may be any playing card
# of the Build Pool but armor, weapons and the Ultimate (our card text).
ADD_SKILL_CARD, ADD_ANY_CARD = 0, 1
ADDABLE_BY_CARDS = (ATTACK, DEFENSE, *SKILL_KINDS)

END_VICTORY = "victory"
END_PARTY_DEAD = "party_dead"
END_TURN_CAP = "turn_cap"
END_ROUND_CAP = "round_cap"

# Tasks: (op, seat, amount, arg).
(
    T_START_TURN, T_SOCIAL, T_EFFECT, T_END_TURN, T_BOSS, T_BOSS_FIGHT, T_LEVEL_UP, T_NEXT_LEVEL,
    T_DRAW_ITEMS, T_ORDER, T_RESOLVE_ITEM, T_FIGHT, T_MINI_BOSS, T_ADD, T_REMOVE, T_VOTE, T_BURY,
    T_ITEM_WINDOW, T_DAMAGE,
) = range(19)

ENEMY_MONSTER, ENEMY_MINI_BOSS, ENEMY_BOSS = range(3)

# Per (seat, card): in the opening hand; drawn (hero cards) or received
# (treasures and encounters); played by the hero's choice (a hand card played
# for its effect, a single-use item used, armor, a weapon or a minion
# Sacrificed); buried for +1; playable: steps at which one of the hero's legal
# actions would play it (see ``note_offered``).
CARD_COUNTERS = ("in_opening_hand", "drawn", "played", "buried_for_bonus", "playable")
_OPENING, _DRAWN, _PLAYED, _BURIED, _PLAYABLE = range(5)

INFO = GameInfo(
    id="party_wanted",
    name="Party Wanted",
    min_players=1,
    max_players=8,
    description="Cooperative dungeon crawl: 1-8 heroes climb the Pyramid of Chaos and kill four bosses.",
    game_columns={
        "composition": "string",
        "level_reached": "int8",
        "final_enemy": "string",
        "boss_kills_level_1": "int8",
        "boss_kills_level_2": "int8",
        "boss_kills_level_3": "int8",
        "boss_kills_level_4": "int8",
        "heroes_dead": "int8",
        "hero_deaths": "int16",
        "combat_rounds": "int32",
        "wipes": "int16",
        "first_wipe_level": "int8",
        "modifier_triggers": "int32",
    },
    card_counters=CARD_COUNTERS,
    bench_players=4,  # a typical party
    faction_label="hero class",
    hidden_between_seats=False,  # open hands: every hero sees the whole table
)


class Pile:
    """A deck with its bury pile: ``cards[-1]`` is the top; the lowest
    ``face_up`` cards are buried face up under the deck. When a draw finds
    only face-up cards left, the whole pile is shuffled face down first."""

    cards: list[int]
    face_up: int

    def __init__(self, cards: list[int]) -> None:
        self.cards = cards
        self.face_up = 0

    def draw(self, rng: Generator) -> int:
        """The top card (-1 if the pile is empty), reshuffling a face-up pile."""
        if len(self.cards) <= self.face_up:
            if not self.cards:
                return -1
            rng.shuffle(self.cards)
            self.face_up = 0
        return self.cards.pop()

    def bury(self, card: int) -> None:
        """Place ``card`` face up at the bottom."""
        self.cards.insert(0, card)
        self.face_up += 1

    def shuffle_all(self, rng: Generator, extra: list[int]) -> None:
        """Add ``extra`` and shuffle everything face down."""
        self.cards.extend(extra)
        rng.shuffle(self.cards)
        self.face_up = 0

    def hidden(self) -> list[int]:
        """The face-down cards (bottom to top)."""
        return self.cards[self.face_up:]

    def copy(self) -> Pile:
        """An independent copy."""
        twin = Pile(list(self.cards))
        twin.face_up = self.face_up
        return twin


def stats_for(config: PartyConfig, card: int, level: int) -> tuple[int, ...]:
    """[attack, defense, speed, hp] of an enemy card at party ``level``."""
    return config.stats_12[card] if level <= 2 else config.stats_34[card]


class PartyState(GameState):
    """One game of Party Wanted in progress."""

    config: PartyConfig
    rng: Generator
    trace: TraceSink | None
    phase: int
    classes: list[int]
    level: int
    hp: list[int]
    alive: list[bool]
    hands: list[list[int]]
    decks: list[Pile]
    pools: list[list[int]]
    weapons: list[int]
    armors: list[int]
    minions: list[list[int]]
    items: list[list[int]]
    aside: list[list[int]]
    in_play: list[list[int]]
    treasure_deck: Pile
    encounter_deck: Pile
    monster_deck: Pile
    land_deck: Pile
    boss_pools: list[list[int]]
    defeated_bosses: list[int]
    tiers: list[list[int]]
    revealed: list[list[bool]]
    tier: int
    holder: int
    holder_starts: bool
    turn_count: int
    bosses_killed: int
    tasks: list[tuple[int, int, int, int]]
    pending_items: list[int]
    pending_owners: list[int]
    order_seat: int
    choice_seat: int
    choice_left: int
    in_combat: bool
    enemies: list[int]
    enemy_kinds: list[int]
    enemy_hp: list[int]
    enemy_stats: list[tuple[int, ...]]
    enemy_slow: list[int]
    enemy_weaken: list[int]
    enemy_expose: list[int]
    enemy_attack_bonus: int
    # Round numbers per hero and per enemy (cards are designated to one enemy).
    card_attack: list[list[int]]
    bonus_attack: list[list[int]]
    card_defense: list[list[int]]
    bonus_defense: list[list[int]]
    bonus_speed: list[list[int]]
    multiply_attack: list[list[int]]
    multiply_defense: list[list[int]]
    negated: list[list[bool]]
    shielded: list[bool]
    combat_round: int
    planners: list[int]
    planner_index: int
    passes: int
    # Bumped by every planning action but "done" and by every new round:
    # while it stays the same, so do the round's numbers (agents cache them).
    combat_version: int
    social_card: int
    add_any_card: bool
    last_enemy: str
    damage_source: str
    counters: list[list[list[int]]]
    first_played: list[dict[int, int]]
    boss_kills: list[int]
    hero_deaths: int
    wipes: int
    first_wipe_level: int
    modifier_triggers: int
    total_rounds: int
    ended_by: str

    # ----------------------------------------------------------------- set-up

    def __init__(self, config: PartyConfig, n_players: int, rng: Generator, trace: TraceSink | None) -> None:
        self.config = config
        self.n_players = n_players
        self.rng = rng
        self.trace = trace
        self.current_player = 0
        self.phase = REVEAL
        self.classes = []
        self.level = 1
        self.hp = [0] * n_players
        self.alive = [True] * n_players
        self.hands = [[] for _ in range(n_players)]
        self.decks = [Pile([]) for _ in range(n_players)]
        self.pools = [[] for _ in range(n_players)]
        self.weapons = [-1] * n_players
        self.armors = [-1] * n_players
        self.minions = [[] for _ in range(n_players)]
        self.items = [[] for _ in range(n_players)]
        self.aside = [[] for _ in range(n_players)]
        self.in_play = [[] for _ in range(n_players)]
        self.treasure_deck = Pile([])
        self.encounter_deck = Pile([])
        self.monster_deck = Pile([])
        self.land_deck = Pile([])
        self.boss_pools = [[] for _ in range(LEVELS)]
        self.defeated_bosses = []
        self.tiers = []
        self.revealed = []
        self.tier = 0
        self.holder = -1
        self.holder_starts = False
        self.turn_count = 0
        self.bosses_killed = 0
        self.tasks = []
        self.pending_items = []
        self.pending_owners = []
        self.order_seat = -1
        self.choice_seat = -1
        self.choice_left = 0
        self.in_combat = False
        enemies = config.max_enemies
        self.card_attack = [[0] * enemies for _ in range(n_players)]
        self.bonus_attack = [[0] * enemies for _ in range(n_players)]
        self.card_defense = [[0] * enemies for _ in range(n_players)]
        self.bonus_defense = [[0] * enemies for _ in range(n_players)]
        self.bonus_speed = [[0] * enemies for _ in range(n_players)]
        self.multiply_attack = [[1] * enemies for _ in range(n_players)]
        self.multiply_defense = [[1] * enemies for _ in range(n_players)]
        self.negated = [[False] * enemies for _ in range(n_players)]
        self.shielded = [False] * n_players
        self.planners = []
        self.planner_index = 0
        self.passes = 0
        self.combat_version = 0
        self.social_card = -1
        self.add_any_card = False
        self.last_enemy = ""
        self.damage_source = ""
        n_cards = len(config.names)
        self.counters = [[[0] * n_cards for _ in CARD_COUNTERS] for _ in range(n_players)]
        self.first_played = [{} for _ in range(n_players)]
        self.boss_kills = [0] * LEVELS
        self.hero_deaths = 0
        self.wipes = 0
        self.first_wipe_level = 0
        self.modifier_triggers = 0
        self.total_rounds = 0
        self.ended_by = ""
        # Last, so that mypyc still knows every attribute above is always
        # defined (calling a method lets ``self`` escape its analysis).
        self._clear_enemies()

    def _clear_enemies(self) -> None:
        """No enemy on the table: before the first combat and after each one."""
        self.enemies = []
        self.enemy_kinds = []
        self.enemy_hp = []
        self.enemy_stats = []
        self.enemy_slow = []
        self.enemy_weaken = []
        self.enemy_expose = []
        self.enemy_attack_bonus = 0
        self.combat_round = 0

    @staticmethod
    def new_game(config: PartyConfig, n_players: int, seed: int, trace: TraceSink | None) -> PartyState:
        """Choose the heroes, build the decks and the Pyramid, deal, and wait
        for the first land reveal."""
        if not 1 <= n_players <= len(config.enabled_classes):
            raise ValueError(f"party_wanted is played by 1 to {len(config.enabled_classes)} heroes, not {n_players}")
        if config.composition and len(config.composition) < n_players:
            raise ValueError(f"rules.composition names {len(config.composition)} heroes, the game has {n_players}")
        state = PartyState(config, n_players, make_rng(seed), trace)
        state._set_up()
        state._run()
        return state

    def _set_up(self) -> None:
        config, rng = self.config, self.rng
        if config.composition:
            self.classes = list(config.composition[: self.n_players])
        else:
            available = list(config.enabled_classes)
            rng.shuffle(available)
            self.classes = available[: self.n_players]
        for deck_name, cards in (
            ("treasure", config.treasure_deck), ("encounter", config.encounter_deck),
            ("monster", config.monster_deck), ("land", config.land_deck),
        ):
            pile = Pile(list(cards))
            rng.shuffle(pile.cards)
            if deck_name == "treasure":
                self.treasure_deck = pile
            elif deck_name == "encounter":
                self.encounter_deck = pile
            elif deck_name == "monster":
                self.monster_deck = pile
            else:
                self.land_deck = pile
        self.boss_pools = [list(bosses) for bosses in config.bosses_by_level]
        s_lands = list(config.s_lands)
        rng.shuffle(s_lands)
        self.tiers = [[self._draw_boss(1)], s_lands[:2], s_lands[2:5]]
        self.revealed = [[False] * len(row) for row in self.tiers]
        self.tier = len(self.tiers) - 1
        for seat in range(self.n_players):
            self._build_hero(seat)
        if self.trace is not None:
            names = ", ".join(config.class_names[cls] for cls in self.classes)
            self._emit("setup", f"party of {self.n_players}: {names}; tiers {[len(row) for row in self.tiers]}",
                       heroes=[config.class_names[cls] for cls in self.classes])
        for seat in range(self.n_players):
            self._draw_cards(seat, config.hand_size)
            for card in self.hands[seat]:
                self.counters[seat][_OPENING][card] += 1
            if self.trace is not None:
                self._emit("deal", f"seat {seat} ({self.class_name(seat)}) holds {self._names(self.hands[seat])}",
                           seat=seat)
        self.tasks.append((T_START_TURN, -1, 0, 0))

    def _build_hero(self, seat: int) -> None:
        """Build Pool, level-1 HP and the starting Hero Deck: the hero's S
        cards (H class/utility cards instead of the S ones in Hard mode),
        shuffled face down."""
        config = self.config
        cls = self.classes[seat]
        pool = list(config.build_pools[cls])
        deck = list(config.starting_decks[cls])
        for card in deck:
            pool.remove(card)
        self.pools[seat] = pool
        self.decks[seat] = Pile(deck)
        self.rng.shuffle(self.decks[seat].cards)
        self.hp[seat] = self.max_hp(seat)

    def _draw_boss(self, level: int) -> int:
        pool = self.boss_pools[level - 1]
        return pool.pop(self.rng.below(len(pool)))

    # ------------------------------------------------------------ public API

    def legal_actions(self) -> Sequence[int]:
        """The current player's legal actions (see the module docstring)."""
        phase = self.phase
        seat = self.current_player
        if phase == PLAN:
            return self._plan_actions(seat)
        if phase == REVEAL:
            return tuple(slot for slot, shown in enumerate(self.revealed[self.tier]) if not shown)
        if phase in (BURY, REMOVE):
            return self._distinct_positions(self.hands[seat])
        if phase == ORDER:
            return tuple(range(len(self.pending_items)))
        if phase == ADD:
            return tuple(self._addable(seat))
        if phase == VOTE:
            return tuple(self._ultimate_candidates())
        if phase == SOCIAL:
            return (0, 1)
        if phase == ITEMS:
            return self._outside_item_actions(seat)
        return ()

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Count, once per card, the cards one of ``legal_actions`` would play
        for the current hero: hand cards played for their effect, single-use
        items used, armor, weapons and minions Sacrificed (the ``playable``
        counter; burying a card for +1 is not a play of it)."""
        phase = self.phase
        if phase != PLAN and phase != ITEMS:
            return
        seat = self.current_player
        playable = self.counters[seat][_PLAYABLE]
        counted: list[int] = []
        last_key = -1
        for action in legal_actions:
            key = action >> 8
            if key == last_key:
                continue  # the same card with another target
            last_key = key
            card = self._played_card(seat, key >> 8, key & 0xFF)
            if card >= 0 and card not in counted:
                counted.append(card)
                playable[card] += 1

    def _played_card(self, seat: int, verb: int, index: int) -> int:
        """The card a planning action of ``verb`` on ``index`` plays (-1: none)."""
        if verb == PLAY:
            return self.hands[seat][index]
        if verb == USE:
            return self.items[seat][index]
        if verb == SACRIFICE:
            return self._sacrificeable(seat, index)
        return -1

    def _sacrificeable(self, seat: int, index: int) -> int:
        """Sacrifice index -> card: 0 the weapon, 1 the armor, 2 + k the k-th minion."""
        if index == 0:
            return self.weapons[seat]
        if index == 1:
            return self.armors[seat]
        return self.minions[seat][index - SACRIFICE_MINION]

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player and run the rules on."""
        phase = self.phase
        seat = self.current_player
        if phase == PLAN:
            self._plan(seat, action)
        elif phase == REVEAL:
            self._reveal_land(seat, action)
        elif phase == BURY:
            self._bury_from_hand(seat, action)
        elif phase == REMOVE:
            self._remove_from_hand(seat, action)
        elif phase == ORDER:
            self._choose_item(action)
        elif phase == ADD:
            self._add_card(seat, action)
        elif phase == VOTE:
            self._give_ultimate(action)
        elif phase == SOCIAL:
            self._take_part(seat, action == 1)
        elif phase == ITEMS:
            self._use_outside_combat(seat, action)
        self._run()

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        return self.phase == OVER

    def winners(self) -> list[int]:
        """Every seat when the level-4 boss died, nobody otherwise."""
        return list(range(self.n_players)) if self.ended_by == END_VICTORY else []

    def returns(self) -> list[float]:
        """1.0 each on a win, 0.0 each otherwise."""
        value = 1.0 if self.ended_by == END_VICTORY else 0.0
        return [value] * self.n_players

    def scores(self) -> list[int]:
        """Bosses killed by the party (the same for every seat)."""
        return [self.bosses_killed] * self.n_players

    def ranks(self) -> list[int]:
        """Everyone shares rank 1: the party wins or loses together."""
        return [1] * self.n_players

    def factions(self) -> list[str | None]:
        """Each seat's hero class."""
        return [self.config.class_names[cls] for cls in self.classes]

    def end_reason(self) -> str:
        """``victory``, ``party_dead``, ``turn_cap`` or ``round_cap``."""
        return self.ended_by

    def turns(self) -> int:
        """Land turns taken (boss reveals are not turns)."""
        return self.turn_count

    def game_columns(self) -> dict[str, Any]:
        """Composition, level reached, final enemy, boss kills, deaths."""
        return {
            "composition": ",".join(sorted(self.config.class_names[cls] for cls in self.classes)),
            "level_reached": self.level,
            "final_enemy": self.last_enemy,
            "boss_kills_level_1": self.boss_kills[0],
            "boss_kills_level_2": self.boss_kills[1],
            "boss_kills_level_3": self.boss_kills[2],
            "boss_kills_level_4": self.boss_kills[3],
            "heroes_dead": sum(1 for alive in self.alive if not alive),
            "hero_deaths": self.hero_deaths,
            "combat_rounds": self.total_rounds,
            "wipes": self.wipes,
            "first_wipe_level": self.first_wipe_level,
            "modifier_triggers": self.modifier_triggers,
        }

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per card each seat drew, received, buried, played or could
        have played (hero cards, treasures and encounters, armor and weapons)."""
        names, copies = self.config.names, self.config.copies
        columns.names = names
        opening_column, drawn_column, played_column, buried_column, playable_column = columns.counters
        for seat in range(self.n_players):
            opening, drawn, played, buried, playable = self.counters[seat]
            first_played = self.first_played[seat]
            for card in range(len(names)):
                if drawn[card] or buried[card] or played[card] or playable[card]:
                    columns.seat.append(seat)
                    columns.card.append(card)
                    columns.copies.append(copies[card])
                    opening_column.append(opening[card])
                    drawn_column.append(drawn[card])
                    played_column.append(played[card])
                    buried_column.append(buried[card])
                    playable_column.append(playable[card])
                    columns.first_played_turn.append(first_played.get(card, -1))

    def observation(self, seat: int) -> Any:
        """Everything on the table: hands are open in Party Wanted, so every
        seat sees the same; only the order of face-down cards is hidden."""
        face_down_tiers = tuple(
            tuple(card if shown else -1 for card, shown in zip(row, shown_row, strict=True))
            for row, shown_row in zip(self.tiers, self.revealed, strict=True)
        )
        piles = tuple(
            (tuple(pile.cards[: pile.face_up]), len(pile.cards))
            for pile in (*self.decks, self.treasure_deck, self.encounter_deck, self.monster_deck, self.land_deck)
        )
        hero_decks = tuple(tuple(sorted(pile.hidden())) for pile in self.decks)
        return (
            self.phase, self.current_player, self.level, self.tier, self.holder, self.turn_count,
            tuple(self.hp), tuple(self.alive), tuple(map(tuple, self.hands)), hero_decks, piles,
            tuple(map(tuple, self.pools)), tuple(self.weapons), tuple(self.armors), tuple(map(tuple, self.minions)),
            tuple(map(tuple, self.items)),
            tuple(map(tuple, self.aside)), tuple(map(tuple, self.in_play)), face_down_tiers,
            tuple(self.pending_items), tuple(self.pending_owners), self.choice_seat, self.choice_left,
            tuple(self.enemies), tuple(self.enemy_hp), tuple(self.enemy_slow), tuple(self.enemy_weaken),
            tuple(self.enemy_expose), self.enemy_attack_bonus, tuple(map(tuple, self.card_attack)),
            tuple(map(tuple, self.bonus_attack)),
            tuple(map(tuple, self.card_defense)), tuple(map(tuple, self.bonus_defense)),
            tuple(map(tuple, self.bonus_speed)), tuple(map(tuple, self.multiply_attack)),
            tuple(map(tuple, self.multiply_defense)), tuple(map(tuple, self.negated)), tuple(self.shielded),
            self.combat_round, tuple(self.planners), self.planner_index, self.passes, self.social_card,
            self.add_any_card,
            tuple(self.tasks), self.holder_starts, tuple(self.boss_kills), self.ended_by,
        )

    def resample_hidden(self, seat: int, rng: Generator) -> PartyState:
        """A copy with the order of every face-down card redrawn: hero decks,
        the Treasure, Encounter, Monster and Land decks, the face-down lands of
        the Pyramid among themselves and the face-down boss among the bosses
        of its level. What any seat sees is kept."""
        copy = self.clone()
        # Future chance (reshuffles, later draws) is hidden too: the copy gets
        # its own generator, so no search can foresee the real game's shuffles.
        copy.rng = Generator(rng.next_u32() << 32 | rng.next_u32())
        for pile in (*copy.decks, copy.treasure_deck, copy.encounter_deck, copy.monster_deck, copy.land_deck):
            # Sorted before shuffling (here and below), so the copy depends
            # only on what the seats see and on ``rng`` (seat-honest search).
            hidden = sorted(pile.cards[pile.face_up:])
            rng.shuffle(hidden)
            pile.cards[pile.face_up:] = hidden
        slots = [(t, s) for t in range(1,
                                       len(copy.tiers)) for s in range(len(copy.tiers[t])) if not copy.revealed[t][s]]
        lands = sorted(copy.tiers[t][s] for t, s in slots)
        rng.shuffle(lands)
        for (t, s), land in zip(slots, lands, strict=True):
            copy.tiers[t][s] = land
        if not copy.revealed[0][0] and copy.boss_pools[copy.level - 1]:
            pool = copy.boss_pools[copy.level - 1]
            choices = sorted([copy.tiers[0][0], *pool])
            copy.tiers[0][0] = choices.pop(rng.below(len(choices)))
            copy.boss_pools[copy.level - 1] = choices
        return copy

    def clone(self) -> PartyState:
        """An exact copy with its own generator state and tracing off."""
        copy = PartyState(self.config, self.n_players, self.rng.copy(), None)
        copy.phase = self.phase
        copy.current_player = self.current_player
        copy.classes = list(self.classes)
        copy.level = self.level
        copy.hp = list(self.hp)
        copy.alive = list(self.alive)
        copy.hands = [list(hand) for hand in self.hands]
        copy.decks = [pile.copy() for pile in self.decks]
        copy.pools = [list(pool) for pool in self.pools]
        copy.weapons = list(self.weapons)
        copy.armors = list(self.armors)
        copy.minions = [list(minions) for minions in self.minions]
        copy.items = [list(held) for held in self.items]
        copy.aside = [list(cards) for cards in self.aside]
        copy.in_play = [list(cards) for cards in self.in_play]
        copy.treasure_deck = self.treasure_deck.copy()
        copy.encounter_deck = self.encounter_deck.copy()
        copy.monster_deck = self.monster_deck.copy()
        copy.land_deck = self.land_deck.copy()
        copy.boss_pools = [list(pool) for pool in self.boss_pools]
        copy.defeated_bosses = list(self.defeated_bosses)
        copy.tiers = [list(row) for row in self.tiers]
        copy.revealed = [list(row) for row in self.revealed]
        copy.tier = self.tier
        copy.holder = self.holder
        copy.holder_starts = self.holder_starts
        copy.turn_count = self.turn_count
        copy.bosses_killed = self.bosses_killed
        copy.tasks = list(self.tasks)
        copy.pending_items = list(self.pending_items)
        copy.pending_owners = list(self.pending_owners)
        copy.order_seat = self.order_seat
        copy.choice_seat = self.choice_seat
        copy.choice_left = self.choice_left
        copy.in_combat = self.in_combat
        copy.enemies = list(self.enemies)
        copy.enemy_kinds = list(self.enemy_kinds)
        copy.enemy_hp = list(self.enemy_hp)
        copy.enemy_stats = list(self.enemy_stats)
        copy.enemy_slow = list(self.enemy_slow)
        copy.enemy_weaken = list(self.enemy_weaken)
        copy.enemy_expose = list(self.enemy_expose)
        copy.enemy_attack_bonus = self.enemy_attack_bonus
        copy.card_attack = [list(row) for row in self.card_attack]
        copy.bonus_attack = [list(row) for row in self.bonus_attack]
        copy.card_defense = [list(row) for row in self.card_defense]
        copy.bonus_defense = [list(row) for row in self.bonus_defense]
        copy.bonus_speed = [list(row) for row in self.bonus_speed]
        copy.multiply_attack = [list(row) for row in self.multiply_attack]
        copy.multiply_defense = [list(row) for row in self.multiply_defense]
        copy.negated = [list(row) for row in self.negated]
        copy.shielded = list(self.shielded)
        copy.combat_round = self.combat_round
        copy.planners = list(self.planners)
        copy.planner_index = self.planner_index
        copy.passes = self.passes
        copy.combat_version = self.combat_version
        copy.social_card = self.social_card
        copy.add_any_card = self.add_any_card
        copy.last_enemy = self.last_enemy
        copy.damage_source = self.damage_source
        copy.counters = [[list(counter) for counter in seat] for seat in self.counters]
        copy.first_played = [dict(seat) for seat in self.first_played]
        copy.boss_kills = list(self.boss_kills)
        copy.hero_deaths = self.hero_deaths
        copy.wipes = self.wipes
        copy.first_wipe_level = self.first_wipe_level
        copy.modifier_triggers = self.modifier_triggers
        copy.total_rounds = self.total_rounds
        copy.ended_by = self.ended_by
        return copy

    def describe_action(self, action: int) -> str:
        """The action in words, e.g. ``play fighter_strike`` or ``reveal slot 2``."""
        seat, phase = self.current_player, self.phase
        if phase == REVEAL:
            return f"reveal the land in slot {action} of tier {self.tier + 1}"
        if phase in (BURY, REMOVE):
            verb = "bury" if phase == BURY else "remove"
            return f"{verb} {self.config.names[self.hands[seat][action]]}"
        if phase == ORDER:
            return f"resolve {self.config.names[self.pending_items[action]]} next"
        if phase == ADD:
            return f"add {self.config.names[action]} to the Hero Deck"
        if phase == VOTE:
            return f"vote the Ultimate to seat {action} ({self.class_name(action)})"
        if phase == SOCIAL:
            return "take part in the Social" if action == 1 else "sit the Social out"
        if phase in (PLAN, ITEMS):
            return self._describe_plan(seat, action)
        return "nothing"

    # --------------------------------------------------------- hero numbers

    def class_name(self, seat: int) -> str:
        """The hero class of ``seat``."""
        return self.config.class_names[self.classes[seat]]

    def _permanent_total(self, seat: int, stat: int) -> int:
        """What the hero's permanents (armor, weapon, minions, permanent
        items) add to ``stat`` (PERM_ATTACK, PERM_DEFENSE, PERM_SPEED, PERM_HP)."""
        bonuses = self.config.permanent_bonuses
        total = 0
        weapon, armor = self.weapons[seat], self.armors[seat]
        if weapon >= 0:
            total += bonuses[weapon][stat]
        if armor >= 0:
            total += bonuses[armor][stat]
        for card in self.minions[seat]:
            total += bonuses[card][stat]
        for card in self.items[seat]:
            total += bonuses[card][stat]
        return total

    def max_hp(self, seat: int) -> int:
        """HP of the hero's level card plus permanent HP boosts."""
        return self.config.class_hp[self.classes[seat]][self.level - 1] + self._permanent_total(seat, PERM_HP)

    def base_attack(self, seat: int) -> int:
        """Level attack plus permanents (the Base Stat)."""
        return self.config.class_attack[self.classes[seat]][self.level - 1] + self._permanent_total(seat, PERM_ATTACK)

    def base_defense(self, seat: int) -> int:
        """Level defense plus permanents, minus the Nemesis penalty in a nemesis fight."""
        config = self.config
        cls = self.classes[seat]
        value = config.class_defense[cls][self.level - 1] + self._permanent_total(seat, PERM_DEFENSE)
        if self.in_combat and config.nemesis and self._facing_nemesis(seat):
            value -= config.nemesis_penalty[cls]
        return value

    def base_speed(self, seat: int) -> int:
        """Level speed plus permanents."""
        return self.config.class_speed[self.classes[seat]][self.level - 1] + self._permanent_total(seat, PERM_SPEED)

    def _facing_nemesis(self, seat: int) -> bool:
        if not self.config.nemesis:
            return False
        wanted = self.config.nemesis_types[self.classes[seat]]
        return any(
            hp > 0 and kind != ENEMY_MONSTER and self.config.enemy_types[card] == wanted
            for card, kind, hp in zip(self.enemies, self.enemy_kinds, self.enemy_hp, strict=True)
        )

    def hero_attack(self, seat: int, enemy: int) -> int:
        """Total attack of ``seat`` against ``enemy`` this round (base stats
        apply to every enemy, cards to the one they are designated to)."""
        return (self.base_attack(seat) + self.bonus_attack[seat][enemy]
                + self.card_attack[seat][enemy] * self.multiply_attack[seat][enemy])

    def hero_defense(self, seat: int, enemy: int) -> int:
        """Total defense of ``seat`` against ``enemy`` this round."""
        cards = self.card_defense[seat][enemy] * self.multiply_defense[seat][enemy]
        return self.base_defense(seat) + self.bonus_defense[seat][enemy] + cards

    def hero_speed(self, seat: int, enemy: int) -> int:
        """Speed of ``seat`` against ``enemy`` this round."""
        return self.base_speed(seat) + self.bonus_speed[seat][enemy]

    def enemy_attack(self, enemy: int) -> int:
        """Attack of ``enemy`` this round (the Combat Modifier's bonus included)."""
        return max(0, self.enemy_stats[enemy][0] + self.enemy_attack_bonus - self.enemy_weaken[enemy])

    def enemy_defense(self, enemy: int) -> int:
        """Defense of ``enemy`` this round."""
        return max(0, self.enemy_stats[enemy][1] - self.enemy_expose[enemy])

    def enemy_speed(self, enemy: int) -> int:
        """Speed of ``enemy`` this round."""
        return self.enemy_stats[enemy][2] - self.enemy_slow[enemy]

    def damage_from(self, seat: int, enemy: int) -> int:
        """Damage ``enemy`` does to ``seat`` when it attacks this round."""
        if self.negated[seat][enemy]:
            return 0
        return max(0, self.enemy_attack(enemy) - self.hero_defense(seat, enemy))

    def incoming_damage(self, seat: int) -> int:
        """Damage ``seat`` takes this round if every living enemy attacks it."""
        return sum(self.damage_from(seat, e) for e in range(len(self.enemies)) if self.enemy_hp[e] > 0)

    def living_enemies(self) -> list[int]:
        """Indices of the enemies still alive."""
        return [e for e in range(len(self.enemies)) if self.enemy_hp[e] > 0]

    # ------------------------------------------------------------- the engine

    def _run(self) -> None:
        """Perform tasks until one needs a decision or the game is over."""
        while self.phase != OVER:
            if self.in_combat:
                if self._combat_needs_decision():
                    return
                continue
            if not self.tasks:
                self.tasks.append((T_START_TURN, -1, 0, 0))
            op, seat, amount, arg = self.tasks.pop()
            if self._perform(op, seat, amount, arg):
                return

    def _perform(self, op: int, seat: int, amount: int, arg: int) -> bool:
        """Perform one task; True when it stopped for a decision."""
        if op == T_START_TURN:
            return self._start_turn()
        if op == T_SOCIAL:
            return self._social(seat, arg)
        if op == T_ITEM_WINDOW:
            return self._ask(ITEMS, seat, 1, self.alive[seat] and len(self._outside_item_actions(seat)) > 1)
        if op == T_DAMAGE:
            self._damage_outside_combat(seat, amount, arg == 1)
            return False
        if op == T_BURY:
            return self._ask(BURY, seat, amount, bool(self.hands[seat]) and self.alive[seat])
        if op == T_EFFECT:
            self._out_of_combat_effect(seat, arg, amount)
            return False
        if op == T_END_TURN:
            self._end_turn()
            return False
        if op == T_BOSS:
            self._reveal_boss()
            return False
        if op == T_BOSS_FIGHT:
            self._start_combat([self.tiers[0][0]], [ENEMY_BOSS])
            return False
        if op == T_LEVEL_UP:
            self._level_up()
            return False
        if op == T_NEXT_LEVEL:
            self._next_level(advance=bool(amount & 1), heal=not self.config.hardcore or bool(amount & 2))
            return False
        if op == T_DRAW_ITEMS:
            self._draw_items(seat, amount, arg)
            return False
        if op == T_ORDER:
            return self._order(seat)
        if op == T_RESOLVE_ITEM:
            self._resolve_item(seat, arg)
            return False
        if op == T_FIGHT:
            self._fight_monsters(amount)
            return False
        if op == T_MINI_BOSS:
            self._start_combat([arg], [ENEMY_MINI_BOSS])
            return False
        if op == T_ADD:
            self.add_any_card = arg == ADD_ANY_CARD
            return self._ask(ADD, seat, 1, self.alive[seat] and bool(self._addable(seat)))
        if op == T_REMOVE:
            return self._ask(REMOVE, seat, 1, self.alive[seat] and bool(self.hands[seat]))
        if op == T_VOTE:
            voter = self.holder if self.alive[self.holder] else self._next_living(self.holder)
            return self._ask(VOTE, voter, 1, voter >= 0 and bool(self._ultimate_candidates()))
        raise AssertionError(f"unknown task {op}")

    def _ask(self, phase: int, seat: int, count: int, possible: bool) -> bool:
        """Stop for ``seat``'s decision in ``phase`` (if there is a choice to make)."""
        if not possible or count <= 0:
            return False
        self.phase = phase
        self.current_player = seat
        self.choice_seat = seat
        self.choice_left = count
        return True

    def _end(self, reason: str) -> None:
        self.phase = OVER
        self.current_player = -1
        self.ended_by = reason
        self.tasks = []
        if self.trace is not None:
            self._emit("game_over", f"game over ({reason}) at level {self.level}; bosses killed {self.bosses_killed}",
                       reason=reason, winners=self.winners())

    def _emit(self, kind: str, text: str, **data: Any) -> None:
        assert self.trace is not None
        self.trace({"turn": self.turn_count, "type": kind, "text": text, **data})

    def _names(self, cards: Sequence[int]) -> str:
        return ", ".join(self.config.names[card] for card in cards) or "nothing"

    # ------------------------------------------------------- cards and decks

    def _draw_cards(self, seat: int, count: int) -> int:
        """Draw up to ``count`` cards from the Hero Deck; return how many came."""
        deck, hand, drawn = self.decks[seat], self.hands[seat], self.counters[seat][_DRAWN]
        for done in range(count):
            card = deck.draw(self.rng)
            if card < 0:
                return done
            hand.append(card)
            drawn[card] += 1
        return count

    def _bury_hero_card(self, seat: int, card: int) -> None:
        self.decks[seat].bury(card)

    def _item_pile(self, card: int) -> Pile:
        return self.treasure_deck if self.config.kinds[card] == TREASURE else self.encounter_deck

    def _kill_hero(self, seat: int) -> None:
        """Death: permanents and held items are lost, the hand is shuffled back."""
        if not self.alive[seat]:
            return
        self.alive[seat] = False
        self.hp[seat] = 0
        self.hero_deaths += 1
        # Every permanent is lost: armor, weapons and minions go back to the
        # Build Pool, treasures and encounters under their decks.
        for card in (self.weapons[seat], self.armors[seat]):
            if card >= 0:
                self.pools[seat].append(card)
        self.weapons[seat] = -1
        self.armors[seat] = -1
        self.pools[seat].extend(self.minions[seat])
        self.minions[seat] = []
        for card in self.items[seat]:
            self._item_pile(card).bury(card)
        self.items[seat] = []
        self.decks[seat].shuffle_all(self.rng, self.hands[seat])
        self.hands[seat] = []
        if self.trace is not None:
            self._emit("death", f"seat {seat} ({self.class_name(seat)}) dies", seat=seat)

    def _revive(self, seat: int, hp: int, draw: int) -> None:
        """Resurrection: back with ``hp``, Hero Deck shuffled, ``draw`` cards drawn."""
        self.alive[seat] = True
        self.hp[seat] = max(1, min(hp, self.max_hp(seat)))
        self.decks[seat].shuffle_all(self.rng, [])
        self._draw_cards(seat, draw)
        if self.trace is not None:
            self._emit("resurrect", f"seat {seat} ({self.class_name(seat)}) returns with {self.hp[seat]} HP", seat=seat)

    def _damage_hero(self, seat: int, amount: int) -> None:
        if amount <= 0 or not self.alive[seat]:
            return
        self.hp[seat] -= amount
        if self.hp[seat] <= 0:
            if not self.in_combat:
                self.last_enemy = self.damage_source
            self._kill_hero(seat)

    def _heal_hero(self, seat: int, amount: int) -> None:
        if self.alive[seat]:
            self.hp[seat] = min(self.max_hp(seat), self.hp[seat] + amount)

    def _party_alive(self) -> bool:
        return any(self.alive)

    def _next_living(self, seat: int) -> int:
        for step in range(1, self.n_players + 1):
            other = (seat + step) % self.n_players
            if self.alive[other]:
                return other
        return -1

    @staticmethod
    def _distinct_positions(hand: list[int]) -> tuple[int, ...]:
        """The first position of each distinct card (equal cards are one choice)."""
        seen: set[int] = set()
        positions = []
        for position, card in enumerate(hand):
            if card not in seen:
                seen.add(card)
                positions.append(position)
        return tuple(positions)

    # ------------------------------------------------------------------ turns

    def _start_turn(self) -> bool:
        """The next hero takes the Turn Counter and reveals a land on the tier."""
        if self.turn_count >= self.config.max_turns:
            self._end(END_TURN_CAP)
            return False
        if self.holder < 0:
            living = [seat for seat in range(self.n_players) if self.alive[seat]]
            self.holder = max(living, key=lambda seat: (self.base_speed(seat), -seat))
        elif self.holder_starts and self.alive[self.holder]:
            self.holder_starts = False  # a new level starts with whoever has the Turn Counter
        else:
            self.holder_starts = False
            self.holder = self._next_living(self.holder)
        self.turn_count += 1
        if self.trace is not None:
            self._emit("turn", f"turn {self.turn_count}: seat {self.holder} ({self.class_name(self.holder)}) takes the "
                       f"Turn Counter and reveals a land on tier {self.tier + 1}", seat=self.holder)
        return self._ask(REVEAL, self.holder, 1, True)

    def _reveal_land(self, seat: int, slot: int) -> None:
        land = self.tiers[self.tier][slot]
        self.revealed[self.tier][slot] = True
        self.damage_source = self.config.names[land]
        self.phase = -1
        if self.trace is not None:
            self._emit("reveal", f"seat {seat} reveals {self.config.names[land]}", land=self.config.names[land])
        steps: list[tuple[int, int, int, int]] = []
        for offset in range(self.n_players):
            steps.append((T_SOCIAL, (seat + offset) % self.n_players, 0, land))
        for primitive, amount in self.config.effects[land]:
            if primitive == P_MINI_BOSS:
                steps.append((T_MINI_BOSS, seat, 0, land))
            else:
                steps.append((T_EFFECT, seat, amount, primitive))
        steps.append((T_END_TURN, seat, 0, 0))
        self.tasks.extend(reversed(steps))

    def _social(self, seat: int, card: int) -> bool:
        """The Social step of ``card`` (a land or the boss) for one hero: alone,
        draw 1 and bury 1; in a party, the hero chooses whether to take part
        (``rules.social`` offers the other models)."""
        config = self.config
        if not self.alive[seat]:
            return False
        if config.social == SOCIAL_SOLO or (config.social == SOCIAL_RULEBOOK and self.n_players == 1):
            self._draw_cards(seat, 1)
            return self._ask(BURY, seat, 1, bool(self.hands[seat]))
        if config.social == SOCIAL_RULEBOOK:
            self.social_card = card
            return self._ask(SOCIAL, seat, 1, bool(config.socials[card]))
        if config.social == SOCIAL_REWARD:
            self._draw_cards(seat, config.social_reward)
        return False

    def _take_part(self, seat: int, joins: bool) -> None:
        """A hero takes part in the Social (and gets its reward) or sits it out."""
        card = self.social_card
        self.social_card = -1
        self._continue_choice(SOCIAL, seat, False)
        if self.trace is not None:
            verb = "takes part in" if joins else "sits out"
            self._emit("social", f"seat {seat} ({self.class_name(seat)}) {verb} the Social of "
                       f"{self.config.names[card]}", seat=seat, joins=joins)
        if joins:
            self.damage_source = self.config.names[card]
            steps = [(T_EFFECT, seat, amount, primitive) for primitive, amount in self.config.socials[card]]
            self.tasks.extend(reversed(steps))

    def _bury_from_hand(self, seat: int, position: int) -> None:
        card = self.hands[seat].pop(position)
        self._bury_hero_card(seat, card)
        if self.trace is not None:
            self._emit("bury", f"seat {seat} buries {self.config.names[card]}", seat=seat, card=self.config.names[card])
        self._continue_choice(BURY, seat, bool(self.hands[seat]))

    def _continue_choice(self, phase: int, seat: int, possible: bool) -> None:
        self.choice_left -= 1
        if self.choice_left > 0 and possible:
            return
        self.phase = -1
        self.choice_left = 0
        self.choice_seat = -1

    def _end_turn(self) -> None:
        """Healing between turns (``rules.heal_between_turns``); the next tier up."""
        config = self.config
        if config.heal_between_turns == HEAL_FULL:
            for seat in range(self.n_players):
                if self.alive[seat]:
                    self.hp[seat] = self.max_hp(seat)
        elif config.heal_between_turns == HEAL_AMOUNT:
            for seat in range(self.n_players):
                self._heal_hero(seat, config.heal_amount)
        self.tier -= 1
        self.tasks.append((T_BOSS, -1, 0, 0) if self.tier == 0 else (T_START_TURN, -1, 0, 0))

    def _reveal_boss(self) -> None:
        """The boss is flipped (not a turn), its Social resolved, then the fight."""
        self.revealed[0][0] = True
        boss = self.tiers[0][0]
        if self.trace is not None:
            self._emit("boss", f"the level-{self.level} boss {self.config.names[boss]} is revealed",
                       boss=self.config.names[boss])
        steps = [(T_SOCIAL, (self.holder + offset) % self.n_players, 0, boss) for offset in range(self.n_players)]
        steps.append((T_BOSS_FIGHT, -1, 0, 0))
        self.tasks.extend(reversed(steps))

    # ------------------------------------------------- out-of-combat effects

    def _out_of_combat_effect(self, seat: int, primitive: int, amount: int) -> None:
        """A land action or an instant treasure/encounter effect for ``seat``."""
        if not self.alive[seat] and primitive not in (P_DAMAGE_PARTY, P_PARTY_HEAL, P_DRAW_PARTY):
            return
        if primitive == P_PARTY_HEAL:
            for other in range(self.n_players):
                self._heal_hero(other, amount)
        elif primitive in (P_HEAL, P_HEAL_SELF):
            self._heal_hero(seat, amount)
        elif primitive in (P_DAMAGE_PARTY, P_DAMAGE_SELF):
            self._before_damage(seat, amount, primitive == P_DAMAGE_PARTY)
        elif primitive == P_DRAW:
            self._draw_cards(seat, amount)
        elif primitive == P_DRAW_PARTY:
            for other in range(self.n_players):
                if self.alive[other]:
                    self._draw_cards(other, amount)
        elif primitive == P_TREASURE:
            self.tasks.append((T_DRAW_ITEMS, seat, amount, TREASURE))
        elif primitive == P_ENCOUNTER:
            self.tasks.append((T_DRAW_ITEMS, seat, amount, ENCOUNTER))
        elif primitive == P_FIGHT:
            self.tasks.append((T_FIGHT, seat, amount, 0))
        elif primitive == P_ADD:
            for _ in range(amount):
                self.tasks.append((T_ADD, seat, 1, ADD_ANY_CARD))
        elif primitive == P_REMOVE:
            for _ in range(amount):
                self.tasks.append((T_REMOVE, seat, 1, 0))
        elif primitive in (P_WEAPON, P_ARMOR):
            for _ in range(amount):
                self._equip(seat, WEAPON if primitive == P_WEAPON else ARMOR)

    def _equip(self, seat: int, kind: int) -> None:
        """Put a weapon or armor from the Build Pool onto the hero; if the hero
        already has one (or none is left), the next hero clockwise who can."""
        for offset in range(self.n_players):
            other = (seat + offset) % self.n_players
            slots = self.weapons if kind == WEAPON else self.armors
            if not self.alive[other] or slots[other] >= 0:
                continue
            for card in self.pools[other]:
                if self.config.kinds[card] == kind:
                    self.pools[other].remove(card)
                    slots[other] = card
                    if kind == ARMOR or any(p == P_PERM_HP for p, _ in self.config.effects[card]):
                        self.hp[other] = min(self.hp[other], self.max_hp(other))
                    if self.trace is not None:
                        self._emit("equip", f"seat {other} equips {self.config.names[card]}", seat=other)
                    return

    def _before_damage(self, seat: int, amount: int, party: bool) -> None:
        """Damage outside combat lands after every hero holding a single-use
        item that works outside combat (negate, heal, resurrection...) has had
        the chance to use it, from ``seat`` clockwise."""
        steps: list[tuple[int, int, int, int]] = []
        for offset in range(self.n_players):
            hero = (seat + offset) % self.n_players
            if self.alive[hero] and any(self.config.usable_outside_combat[card] for card in self.items[hero]):
                steps.append((T_ITEM_WINDOW, hero, 0, 0))
        steps.append((T_DAMAGE, seat, amount, 1 if party else 0))
        self.tasks.extend(reversed(steps))

    def pending_outside_damage(self) -> tuple[int, int, bool]:
        """(seat, amount, whole party) of the damage outside combat waiting
        for the item window to close; (-1, 0, False) if none."""
        for op, seat, amount, arg in reversed(self.tasks):
            if op == T_DAMAGE:
                return seat, amount, arg == 1
        return -1, 0, False

    def _damage_outside_combat(self, seat: int, amount: int, party: bool) -> None:
        """A trap, a hazard or a dare: ``amount`` damage to every hero (or to
        ``seat``) except those shielded by a negate item; then the wipe check."""
        for hero in range(self.n_players) if party else (seat,):
            if self.shielded[hero]:
                if self.trace is not None:
                    self._emit("negated", f"seat {hero} takes no damage from {self.damage_source}", seat=hero)
            else:
                self._damage_hero(hero, amount)
        self.shielded = [False] * self.n_players
        self._check_wipe(None)

    def _outside_item_actions(self, seat: int) -> tuple[int, ...]:
        """DONE, or using a held single-use item that works outside combat on
        each hero it can aim at."""
        config = self.config
        actions = [DONE]
        any_dead = not all(self.alive)
        for index, card in enumerate(self.items[seat]):
            if config.usable_outside_combat[card]:
                actions.extend(self._targets(USE << 16 | index << 8, config.targets[card], False, [], any_dead, True))
        return tuple(actions)

    def _use_outside_combat(self, seat: int, action: int) -> None:
        """Use one item before the damage lands (the hero may then use another)."""
        self.phase = -1
        self.choice_left = 0
        self.choice_seat = -1
        if action == DONE:
            return
        config = self.config
        index, target = action >> 8 & 0xFF, action & 0xFF
        card = self.items[seat].pop(index)
        self._item_pile(card).bury(card)
        self.counters[seat][_PLAYED][card] += 1
        self.first_played[seat].setdefault(card, self.turn_count)
        hero = target // SLOTS
        if self.trace is not None:
            self._emit("use", f"seat {seat} uses {config.names[card]} outside combat (hero {hero})", seat=seat,
                       card=config.names[card])
        for primitive, amount in config.effects[card]:
            if primitive == P_NEGATE:
                self.shielded[hero] = True
            elif primitive == P_HEAL:
                self._heal_hero(hero, amount)
            elif primitive == P_HEAL_SELF:
                self._heal_hero(seat, amount)
            elif primitive == P_PARTY_HEAL:
                for other in range(self.n_players):
                    self._heal_hero(other, amount)
            elif primitive == P_RESURRECT:
                if not self.alive[hero]:
                    self._revive(hero, amount, config.hand_size)
            elif primitive == P_DRAW:
                self._draw_cards(seat, amount)
        self.tasks.append((T_ITEM_WINDOW, seat, 0, 0))

    def _draw_items(self, seat: int, count: int, kind: int) -> None:
        pile = self.treasure_deck if kind == TREASURE else self.encounter_deck
        for _ in range(count):
            card = pile.draw(self.rng)
            if card < 0:
                break
            self.pending_items.append(card)
            self.pending_owners.append(seat)
            if self.trace is not None:
                self._emit("draw_item", f"seat {seat} draws {self.config.names[card]}", seat=seat,
                           card=self.config.names[card])
        self.tasks.append((T_ORDER, seat, 0, 0))

    def _order(self, seat: int) -> bool:
        """Several drawn treasures/encounters: the party picks which resolves next."""
        if not self.pending_items:
            return False
        if len(self.pending_items) == 1:
            self._choose_item(0)
            return False
        self.order_seat = seat
        return self._ask(ORDER, seat if self.alive[seat] else self._next_living(seat), 1, self._party_alive())

    def _choose_item(self, index: int) -> None:
        card = self.pending_items.pop(index)
        owner = self.pending_owners.pop(index)
        self.phase = -1
        if self.pending_items:
            self.tasks.append((T_ORDER, owner, 0, 0))
        self.tasks.append((T_RESOLVE_ITEM, owner, 0, card))

    def _resolve_item(self, seat: int, card: int) -> None:
        """Instant: resolve, then bury; single use / permanent: keep it."""
        config = self.config
        if not self.alive[seat]:
            self._item_pile(card).bury(card)
            return
        self.counters[seat][_DRAWN][card] += 1
        if config.uses[card] != INSTANT:
            self.items[seat].append(card)
            if any(p == P_PERM_HP for p, _ in config.effects[card]):
                self.hp[seat] = min(self.hp[seat], self.max_hp(seat))
            return
        self._item_pile(card).bury(card)
        self.damage_source = config.names[card]
        steps = [(T_EFFECT, seat, amount, primitive) for primitive, amount in config.effects[card]]
        self.tasks.extend(reversed(steps))

    def _addable(self, seat: int) -> list[int]:
        """Distinct cards of the Build Pool the hero may Add: class and utility
        cards (minions included) at a level-up; any card but armor, weapons
        and the Ultimate for a land's or an item's Add."""
        kinds = self.config.kinds
        allowed = ADDABLE_BY_CARDS if self.add_any_card else SKILL_KINDS
        return sorted({card for card in self.pools[seat] if kinds[card] in allowed})

    def _add_card(self, seat: int, card: int) -> None:
        """Added cards go to the bury pile (face up under the Hero Deck)."""
        self.pools[seat].remove(card)
        self._bury_hero_card(seat, card)
        if self.trace is not None:
            self._emit("add", f"seat {seat} adds {self.config.names[card]}", seat=seat, card=self.config.names[card])
        self._continue_choice(ADD, seat, False)

    def _remove_from_hand(self, seat: int, position: int) -> None:
        """Back to the Build Pool; a card removed from the hand is replaced by a draw."""
        card = self.hands[seat].pop(position)
        self.pools[seat].append(card)
        self._draw_cards(seat, 1)
        if self.trace is not None:
            self._emit("remove", f"seat {seat} removes {self.config.names[card]}", seat=seat,
                       card=self.config.names[card])
        self._continue_choice(REMOVE, seat, False)

    # ---------------------------------------------------------------- combat

    def _fight_monsters(self, count: int) -> None:
        monsters = []
        for _ in range(count):
            card = self.monster_deck.draw(self.rng)
            if card >= 0:
                monsters.append(card)
        if monsters:
            self._start_combat(monsters, [ENEMY_MONSTER] * len(monsters))

    def _start_combat(self, cards: list[int], kinds: list[int]) -> None:
        """Enemy stats by party level, HP multiplied by the number of heroes."""
        config = self.config
        self.in_combat = True
        self.enemies = list(cards)
        self.enemy_kinds = list(kinds)
        self.enemy_stats = []
        self.enemy_hp = []
        for card in cards:
            stats = stats_for(config, card, self.level)
            self.enemy_stats.append(stats)
            self.enemy_hp.append(stats[3] * self.n_players)
        count = len(cards)
        self.enemy_slow = [0] * count
        self.enemy_weaken = [0] * count
        self.enemy_expose = [0] * count
        self.combat_round = 0
        if self.trace is not None:
            text = ", ".join(f"{config.names[c]} (attack {s[0]}, defense {s[1]}, speed {s[2]}, HP {h})"
                             for c, s, h in zip(cards, self.enemy_stats, self.enemy_hp, strict=True))
            self._emit("combat", f"combat against {text}", enemies=[config.names[c] for c in cards])
        self._start_round()

    def _start_round(self) -> None:
        self.combat_round += 1
        self.total_rounds += 1
        start = self.holder if self.holder >= 0 else 0
        self.planners = [(start + offset) % self.n_players for offset in range(self.n_players)]
        self.planner_index = 0
        self.passes = 0
        self.combat_version += 1
        if self.config.modifier_effects:
            self._apply_combat_modifier()

    def _apply_combat_modifier(self) -> None:
        """The Combat Modifier table cards act at the start of the round, before
        planning (their bonuses end with the round like every other, and count
        against every enemy); a round in which one of them changes a number
        counts as a trigger."""
        config = self.config
        dead = sum(1 for alive in self.alive if not alive)
        triggered = False
        for primitive, amount in config.modifier_effects:
            if primitive == P_ENEMY_ATTACK_PER_DEAD:
                self.enemy_attack_bonus += amount * dead
                triggered = triggered or amount * dead != 0
            else:
                self._combat_effects(self.holder, ((primitive, amount),), 0, -1, False)
                triggered = triggered or amount != 0
        if triggered:
            self.modifier_triggers += 1
            if self.trace is not None:
                names = self._names(config.combat_modifiers)
                self._emit("modifier", f"combat modifier {names}: {dead} dead heroes, enemy attack "
                           f"+{self.enemy_attack_bonus} this round", dead=dead,
                           enemy_attack_bonus=self.enemy_attack_bonus)

    def _combat_needs_decision(self) -> bool:
        """Walk the planners; when planning is over, execute the round.

        ``rules.planning = "once"``: each hero plans once, in turn from the
        Turn Counter holder. ``"anytime"`` (skills "may be used anytime within
        the combat, even out of turn"): planning goes round the table again
        and again until every hero has passed in a row, so a hero who was done
        may answer what a teammate played."""
        planners = self.planners
        count = len(planners)
        if self.config.planning == PLANNING_ONCE:
            while self.planner_index < count:
                seat = planners[self.planner_index]
                if self.alive[seat] and self._can_plan(seat):
                    return self._ask_plan(seat)
                self.planner_index += 1
        else:
            while self.passes < count:
                seat = planners[self.planner_index % count]
                if self.alive[seat] and self._can_plan(seat):
                    return self._ask_plan(seat)
                self.passes += 1
                self.planner_index += 1
        self.phase = -1
        self._execute_round()
        return False

    def _ask_plan(self, seat: int) -> bool:
        self.phase = PLAN
        self.current_player = seat
        return True

    def _can_plan(self, seat: int) -> bool:
        """Whether ``seat`` has anything to do but "done": any hand card can
        at least be buried for +1, held single-use items can be used."""
        if self.hands[seat]:
            return True
        return len(self._plan_actions(seat)) > 1

    def _plan_actions(self, seat: int) -> tuple[int, ...]:
        config = self.config
        actions = [DONE]
        living = self.living_enemies()
        designate = len(living) > 1
        hand = self.hands[seat]
        any_dead = not all(self.alive)
        positions = self._distinct_positions(hand)
        for position in positions:
            card = hand[position]
            actions.extend(self._targets(PLAY << 16 | position << 8, config.targets[card],
                                         designate and config.aims_at_enemy[card], living, any_dead,
                                         self._playable(seat, config.effects[card])))
        for position in positions:
            base = BURY_BONUS << 16 | position << 8
            for hero in range(self.n_players):
                if self.alive[hero]:
                    for enemy in living:
                        actions.append(base | hero * SLOTS + enemy)
                    for enemy in living:
                        actions.append(base | hero * SLOTS + ATTACK_SLOT + enemy)
        for index, card in enumerate(self.items[seat]):
            if config.uses[card] == SINGLE_USE:
                actions.extend(self._targets(USE << 16 | index << 8, config.targets[card],
                                             designate and config.aims_at_enemy[card], living, any_dead,
                                             self._playable(seat, config.effects[card])))
        for index in range(SACRIFICE_MINION + len(self.minions[seat])):
            card = self._sacrificeable(seat, index)
            if card >= 0 and config.sacrifices[card]:
                actions.extend(self._targets(SACRIFICE << 16 | index << 8, config.sacrifice_targets[card],
                                             designate and config.sacrifice_aims_at_enemy[card], living, any_dead,
                                             self._playable(seat, config.sacrifices[card])))
        return tuple(actions)

    def _playable(self, seat: int, effects: Effects) -> bool:
        """Only one 2x/3x multiplier per stat per hero per round."""
        for primitive, _ in effects:
            if primitive == P_MULTIPLY_ATTACK and max(self.multiply_attack[seat]) > 1:
                return False
            if primitive == P_MULTIPLY_DEFENSE and max(self.multiply_defense[seat]) > 1:
                return False
        return True

    def _targets(self, base: int, target: int, designate: bool, living: list[int], any_dead: bool,
                 playable: bool) -> list[int]:
        """``base`` with every (hero, enemy) target the card can take: the
        heroes it may aim at (none, a living or a dead one) times the living
        enemies it may be designated to (only when there are two or more)."""
        if not playable:
            return []
        if target == TARGET_HERO:
            heroes = [hero for hero in range(self.n_players) if self.alive[hero]]
        elif target == TARGET_DEAD:
            if not any_dead:
                return []
            heroes = [hero for hero in range(self.n_players) if not self.alive[hero]]
        else:
            heroes = [0]
        enemies = living if designate else [living[0] if living else 0]
        return [base | hero * SLOTS + enemy for hero in heroes for enemy in enemies]

    def _plan(self, seat: int, action: int) -> None:
        """One planning action: play, bury for +1, use an item, sacrifice, or done."""
        if action == DONE:
            self.planner_index += 1
            self.passes += 1
            return
        self.passes = 0
        self.combat_version += 1
        config = self.config
        verb, index, target = action >> 16, action >> 8 & 0xFF, action & 0xFF
        hero, slot = target // SLOTS, target % SLOTS
        if verb == PLAY:
            card = self.hands[seat].pop(index)
            self._count_play(seat, card)
            kind = config.kinds[card]
            if kind == MINION:
                self.minions[seat].append(card)  # a permanent from now on
            else:
                (self.aside if config.once_per_combat[card] else self.in_play)[seat].append(card)
            if self.trace is not None:
                self._emit("play", f"seat {seat} plays {config.names[card]}{self._aim(card, hero, slot)}", seat=seat,
                           card=config.names[card], target=target)
            self._combat_effects(seat, config.effects[card], hero, slot, kind in (ATTACK, DEFENSE))
        elif verb == BURY_BONUS:
            card = self.hands[seat].pop(index)
            self.counters[seat][_BURIED][card] += 1
            self._bury_hero_card(seat, card)
            if slot < ATTACK_SLOT:
                self.bonus_defense[hero][slot] += 1
            else:
                self.bonus_attack[hero][slot - ATTACK_SLOT] += 1
            if self.trace is not None:
                self._emit("bury_bonus", f"seat {seat} buries {config.names[card]} for {self._bonus_text(hero, slot)}",
                           seat=seat)
        elif verb == USE:
            card = self.items[seat].pop(index)
            self._item_pile(card).bury(card)
            self._count_play(seat, card)
            if self.trace is not None:
                self._emit("use", f"seat {seat} uses {config.names[card]}{self._aim(card, hero, slot)}", seat=seat,
                           card=config.names[card])
            self._combat_effects(seat, config.effects[card], hero, slot, False)
        else:
            card = self._sacrificeable(seat, index)
            if index == 0:
                self.weapons[seat] = -1
            elif index == 1:
                self.armors[seat] = -1
            else:
                self.minions[seat].pop(index - SACRIFICE_MINION)
            self.pools[seat].append(card)  # sacrificed: back to the Build Pool
            self._count_play(seat, card)
            self.hp[seat] = min(self.hp[seat], self.max_hp(seat))
            if self.trace is not None:
                aim = self._aim(card, hero, slot, True)
                self._emit("sacrifice", f"seat {seat} sacrifices {config.names[card]}{aim}", seat=seat,
                           card=config.names[card])
            self._combat_effects(seat, config.sacrifices[card], hero, slot, False)
        if not self.living_enemies():
            self._finish_round()

    def _count_play(self, seat: int, card: int) -> None:
        self.counters[seat][_PLAYED][card] += 1
        self.first_played[seat].setdefault(card, self.turn_count)

    def _combat_effects(self, seat: int, effects: Effects, hero: int, enemy: int, basic_card: bool) -> None:
        """Apply a card's effects, aimed at ``hero`` (for guard, negate, heal,
        resurrect) and designated to ``enemy`` (every enemy when -1: the
        Combat Modifier's party bonuses); the numbers of Attack and Defense
        cards are the ones a 2x/3x multiplier doubles or triples."""
        enemies = [enemy] if enemy >= 0 else list(range(len(self.enemies)))
        heroes = range(self.n_players)
        for primitive, amount in effects:
            if primitive == P_ATTACK:
                for e in enemies:
                    if basic_card:
                        self.card_attack[seat][e] += amount
                    else:
                        self.bonus_attack[seat][e] += amount
            elif primitive == P_DEFENSE:
                for e in enemies:
                    if basic_card:
                        self.card_defense[seat][e] += amount
                    else:
                        self.bonus_defense[seat][e] += amount
            elif primitive == P_SPEED:
                for e in enemies:
                    self.bonus_speed[seat][e] += amount
            elif primitive == P_PARTY_ATTACK:
                for other in heroes:
                    for e in enemies:
                        self.bonus_attack[other][e] += amount
            elif primitive == P_PARTY_DEFENSE:
                for other in heroes:
                    for e in enemies:
                        self.bonus_defense[other][e] += amount
            elif primitive == P_PARTY_SPEED:
                for other in heroes:
                    for e in enemies:
                        self.bonus_speed[other][e] += amount
            elif primitive == P_MULTIPLY_ATTACK:
                for e in enemies:
                    self.multiply_attack[seat][e] = amount
            elif primitive == P_MULTIPLY_DEFENSE:
                for e in enemies:
                    self.multiply_defense[seat][e] = amount
            elif primitive == P_GUARD:
                for e in enemies:
                    self.bonus_defense[hero][e] += amount
            elif primitive == P_NEGATE:
                for e in enemies:
                    self.negated[hero][e] = True
            elif primitive == P_DAMAGE:
                for e in enemies:
                    self._damage_enemy(e, amount)
            elif primitive == P_SLOW:
                for e in enemies:
                    self.enemy_slow[e] += amount
            elif primitive == P_WEAKEN:
                for e in enemies:
                    self.enemy_weaken[e] += amount
            elif primitive == P_EXPOSE:
                for e in enemies:
                    self.enemy_expose[e] += amount
            elif primitive == P_HEAL:
                self._heal_hero(hero, amount)
            elif primitive == P_HEAL_SELF:
                self._heal_hero(seat, amount)
            elif primitive == P_PARTY_HEAL:
                for other in heroes:
                    self._heal_hero(other, amount)
            elif primitive == P_RESURRECT:
                if not self.alive[hero]:
                    self._revive(hero, amount, self.config.hand_size)
            elif primitive == P_DRAW:
                self._draw_cards(seat, amount)

    def _damage_enemy(self, enemy: int, amount: int) -> None:
        if self.enemy_hp[enemy] <= 0:
            return
        self.enemy_hp[enemy] = max(0, self.enemy_hp[enemy] - amount)
        if self.enemy_hp[enemy] == 0 and self.trace is not None:
            self._emit("enemy_dies", f"{self.config.names[self.enemies[enemy]]} dies",
                       enemy=self.config.names[self.enemies[enemy]])

    def initiative(self) -> list[tuple[bool, int, int]]:
        """The round's attacks by speed, fastest first: ``(True, seat, enemy)``
        for a hero's attack on one enemy (at the hero's speed against it) and
        ``(False, enemy, -1)`` for an enemy's attack on every hero; ties go to
        the heroes, then seat order (heroes) or enemy order."""
        order: list[tuple[int, int, int, int, bool]] = []
        living = self.living_enemies()
        for seat in range(self.n_players):
            if self.alive[seat]:
                for enemy in living:
                    order.append((-self.hero_speed(seat, enemy), 0, seat, enemy, True))
        for enemy in living:
            order.append((-self.enemy_speed(enemy), 1, enemy, -1, False))
        order.sort()
        return [(is_hero, index, enemy) for _, _, index, enemy, is_hero in order]

    def _execute_round(self) -> None:
        """Resolve hero attacks and enemy attacks in initiative order."""
        for is_hero, index, enemy in self.initiative():
            if not self.living_enemies() or not self._party_alive():
                break
            if is_hero:
                if self.alive[index] and self.enemy_hp[enemy] > 0:
                    self._hero_attacks(index, enemy)
            elif self.enemy_hp[index] > 0:
                self._enemy_attacks(index)
        self._finish_round()

    def _hero_attacks(self, seat: int, enemy: int) -> None:
        """A hero attacks an enemy once: total attack >= defense hits for 1 HP."""
        total, defense = self.hero_attack(seat, enemy), self.enemy_defense(enemy)
        hit = total >= defense
        if self.trace is not None:
            self._emit("attack", f"seat {seat} attacks {self.config.names[self.enemies[enemy]]}: {total} against "
                       f"defense {defense}: {'hit' if hit else 'miss'}", seat=seat, hit=hit)
        if hit:
            self._damage_enemy(enemy, 1)

    def _enemy_attacks(self, enemy: int) -> None:
        """The enemy attacks every living hero once for the attack above each
        hero's defense against it."""
        attack = self.enemy_attack(enemy)
        for seat in range(self.n_players):
            if not self.alive[seat]:
                continue
            damage = self.damage_from(seat, enemy)
            if self.trace is not None:
                self._emit("enemy_attack", f"{self.config.names[self.enemies[enemy]]} attacks seat {seat}: {attack} "
                           f"against defense {self.hero_defense(seat, enemy)}: {damage} damage", seat=seat,
                           damage=damage)
            self._damage_hero(seat, damage)
            if not self.alive[seat]:
                self.last_enemy = self.config.names[self.enemies[enemy]]

    def _finish_round(self) -> None:
        """Bury used cards, reset stats, one draw per living hero; then the
        next round, or the end of combat."""
        for seat in range(self.n_players):
            for card in self.in_play[seat]:
                self._bury_hero_card(seat, card)
            self.in_play[seat] = []
        self._reset_round_stats()
        for seat in range(self.n_players):
            if self.alive[seat]:
                self._draw_cards(seat, 1)
        if not self._party_alive() or not self.living_enemies():
            self._end_combat()
            return
        if self.combat_round >= self.config.max_combat_rounds:
            self.in_combat = False
            self._end(END_ROUND_CAP)
            return
        self._start_round()

    def _reset_round_stats(self) -> None:
        for seat in range(self.n_players):
            for enemy in range(self.config.max_enemies):
                self.card_attack[seat][enemy] = 0
                self.bonus_attack[seat][enemy] = 0
                self.card_defense[seat][enemy] = 0
                self.bonus_defense[seat][enemy] = 0
                self.bonus_speed[seat][enemy] = 0
                self.multiply_attack[seat][enemy] = 1
                self.multiply_defense[seat][enemy] = 1
                self.negated[seat][enemy] = False
        for enemy in range(len(self.enemies)):
            self.enemy_slow[enemy] = 0
            self.enemy_weaken[enemy] = 0
            self.enemy_expose[enemy] = 0
        self.enemy_attack_bonus = 0

    def _end_combat(self) -> None:
        """Once-per-combat cards are buried; dead monsters buried; rewards."""
        config = self.config
        self.in_combat = False
        self.phase = -1
        for seat in range(self.n_players):
            for card in self.aside[seat]:
                self._bury_hero_card(seat, card)
            self.aside[seat] = []
        won = self._party_alive()
        boss_killed = False
        nemesis_rewards: list[tuple[int, int, int, int]] = []
        for card, kind in zip(self.enemies, self.enemy_kinds, strict=True):
            if kind == ENEMY_MONSTER:
                self.monster_deck.bury(card)
            elif kind == ENEMY_BOSS:
                boss_killed = won
            if won and kind != ENEMY_MONSTER and config.nemesis:
                for seat in range(self.n_players):
                    cls = self.classes[seat]
                    if self.alive[seat] and config.nemesis_types[cls] == config.enemy_types[card]:
                        nemesis_rewards.append((T_DRAW_ITEMS, seat, config.nemesis_reward[cls], TREASURE))
        if won:
            self.last_enemy = config.names[self.enemies[-1]]
        if self.trace is not None:
            self._emit("combat_end", "the party wins the combat" if won else "the party is wiped out")
        enemies = self.enemies
        self._clear_enemies()
        if not won:
            self._check_wipe(enemies)
            return
        if boss_killed:
            self.tasks.append((T_LEVEL_UP, -1, 0, 0))
        self.tasks.extend(reversed(nemesis_rewards))

    def _check_wipe(self, enemies: list[int] | None) -> None:
        """Every hero dead: the party loses - or, in Party mode, goes on."""
        if self._party_alive():
            return
        self.in_combat = False
        self.wipes += 1
        if self.wipes == 1:
            self.first_wipe_level = self.level
        if not self.config.party_mode:
            self._end(END_PARTY_DEAD)
            return
        if self.trace is not None:
            self._emit("wipe", "Party mode: the party is revived and advances")
        self.tasks = []
        for card in self.pending_items:
            self._item_pile(card).bury(card)
        self.pending_items = []
        self.pending_owners = []
        self.shielded = [False] * self.n_players
        for seat in range(self.n_players):
            self.alive[seat] = True
            self.hp[seat] = 1  # full HP on the next level card, even in Hardcore
        boss = self.tiers[0][0]
        if boss >= 0:
            self.boss_pools[self.config.boss_levels[boss] - 1].append(boss)
            self.tiers[0][0] = -1
        steps: list[tuple[int, int, int, int]] = [(T_ADD, seat, 1, ADD_SKILL_CARD) for seat in range(self.n_players)]
        steps.append((T_NEXT_LEVEL, -1, (1 if self.level < LEVELS else 0) | 2, 0))
        self.tasks.extend(reversed(steps))

    # -------------------------------------------------------------- level-up

    def _level_up(self) -> None:
        """After a boss: a treasure each, an added class/utility card each,
        the Ultimate vote, then the next level."""
        boss = self.tiers[0][0]
        self.boss_kills[self.level - 1] += 1
        self.bosses_killed += 1
        self.defeated_bosses.append(boss)
        self.tiers[0][0] = -1
        if self.trace is not None:
            self._emit("boss_killed", f"the party kills {self.config.names[boss]}: level {self.level} done")
        if self.level == LEVELS:
            self._end(END_VICTORY)
            return
        if self.config.revive_at_level_up and not self.config.hardcore:
            # Not in the rulebook, which brings the dead back only by
            # resurrection: the switch rules.revive_at_level_up (off).
            for seat in range(self.n_players):
                if not self.alive[seat]:
                    self.alive[seat] = True
                    self.hp[seat] = 1
        steps: list[tuple[int, int, int, int]] = []
        for offset in range(self.n_players):
            steps.append((T_DRAW_ITEMS, (self.holder + offset) % self.n_players, 1, TREASURE))
        for offset in range(self.n_players):
            steps.append((T_ADD, (self.holder + offset) % self.n_players, 1, ADD_SKILL_CARD))
        if self._ultimate_due(self.bosses_killed):
            steps.append((T_VOTE, self.holder, 1, 0))
        steps.append((T_NEXT_LEVEL, -1, 1, 0))
        self.tasks.extend(reversed(steps))

    def _ultimate_due(self, boss_number: int) -> bool:
        """4+ heroes: after every boss; 2-3: from the 2nd boss; solo: after the 3rd."""
        if self.n_players >= 4:
            return True
        if self.n_players >= 2:
            return boss_number >= 2
        return boss_number == 3

    def _ultimate_candidates(self) -> list[int]:
        kinds = self.config.kinds
        return [seat for seat in range(self.n_players)
                if self.alive[seat] and any(kinds[card] == ULTIMATE for card in self.pools[seat])]

    def _give_ultimate(self, seat: int) -> None:
        for card in self.pools[seat]:
            if self.config.kinds[card] == ULTIMATE:
                self.pools[seat].remove(card)
                self._bury_hero_card(seat, card)
                if self.trace is not None:
                    self._emit("ultimate",
                               f"the party votes the Ultimate to seat {seat} ({self.class_name(seat)})", seat=seat)
                break
        self._continue_choice(VOTE, seat, False)

    def _next_level(self, advance: bool, heal: bool) -> None:
        """Flip the level card, reset HP (not in Hardcore), rebuild the Pyramid,
        shuffle every Hero Deck and draw a new hand."""
        config, rng = self.config, self.rng
        if advance:
            self.level += 1
        for seat in range(self.n_players):
            if self.alive[seat]:
                self.hp[seat] = self.max_hp(seat) if heal else min(self.hp[seat], self.max_hp(seat))
        # Revealed lands are buried and replaced; the longer game adds a tier.
        for row, shown_row in zip(self.tiers[1:], self.revealed[1:], strict=True):
            for slot, shown in enumerate(shown_row):
                if shown:
                    self.land_deck.bury(row[slot])
                    row[slot] = self.land_deck.draw(rng)
        if config.longer_game:
            new_row = [self.land_deck.draw(rng) for _ in range(len(self.tiers) + 1)]
            self.tiers.append(new_row)
        lands = [land for row in self.tiers[1:] for land in row]
        rng.shuffle(lands)
        position = 0
        for row in self.tiers[1:]:
            for slot in range(len(row)):
                row[slot] = lands[position]
                position += 1
        self.tiers[0] = [self._draw_boss(self.level)]
        self.revealed = [[False] * len(row) for row in self.tiers]
        self.tier = len(self.tiers) - 1
        for seat in range(self.n_players):
            # "your Hand and any cards in play": minions come back into the deck.
            cards = self.hands[seat] + self.in_play[seat] + self.aside[seat] + self.minions[seat]
            self.hands[seat], self.in_play[seat], self.aside[seat], self.minions[seat] = [], [], [], []
            self.decks[seat].shuffle_all(rng, cards)
            if self.alive[seat]:
                self._draw_cards(seat, config.hand_size)
        if self.trace is not None:
            self._emit("level", f"the party is now level {self.level}; HP {self.hp}", level=self.level)
        self.holder_starts = True
        self.tasks.append((T_START_TURN, -1, 0, 0))

    # ---------------------------------------------------------- descriptions

    def _describe_plan(self, seat: int, action: int) -> str:
        if action == DONE:
            return "done"
        config = self.config
        verb, index, target = action >> 16, action >> 8 & 0xFF, action & 0xFF
        hero, slot = target // SLOTS, target % SLOTS
        if verb == BURY_BONUS:
            return f"bury {config.names[self.hands[seat][index]]} for {self._bonus_text(hero, slot)}"
        card = self._played_card(seat, verb, index)
        words = ("play", "use", "sacrifice")[(PLAY, USE, SACRIFICE).index(verb)]
        return f"{words} {config.names[card]}{self._aim(card, hero, slot, verb == SACRIFICE)}"

    def _aim(self, card: int, hero: int, enemy: int, sacrifice: bool = False) -> str:
        """" on seat 1", " against goblin" or both: what a played card aims at."""
        config = self.config
        target = (config.sacrifice_targets if sacrifice else config.targets)[card]
        aims = (config.sacrifice_aims_at_enemy if sacrifice else config.aims_at_enemy)[card]
        text = f" on seat {hero}" if target in (TARGET_HERO, TARGET_DEAD) else ""
        if aims and enemy < len(self.enemies):
            text += f" against {config.names[self.enemies[enemy]]}"
            if len(self.enemies) > 1:
                text += f" (enemy {enemy})"
        return text

    def _bonus_text(self, hero: int, slot: int) -> str:
        """"+1 defense to seat 0 against goblin" for a card buried for +1."""
        stat, enemy = ("defense", slot) if slot < ATTACK_SLOT else ("attack", slot - ATTACK_SLOT)
        against = f" against {self.config.names[self.enemies[enemy]]}" if enemy < len(self.enemies) else ""
        if len(self.enemies) > 1:
            against += f" (enemy {enemy})"
        return f"+1 {stat} to seat {hero}{against}"

