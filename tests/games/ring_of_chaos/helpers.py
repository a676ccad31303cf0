"""Hand-made Ring of Chaos positions and moves by name, shared by the rule tests.

``build`` plays the party draft of a real game (seat 0 first, each seat taking
the party the test names), then sets the table: parties' spaces, Hero
statuses, hands, the Ring, points, the top of the draw pile (top card
first) and the discard pile. Every card not named goes under the draw pile,
so each card of the deck is in exactly one place, as in a real game. The
position starts at the active player's main menu (its three draws already
done) unless ``start_turn`` is set, in which case the turn begins from its
first draw.

Moves go through ``legal_actions``/``apply`` only: ``act`` checks an answer is
legal before applying it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import CARD_NAMES, CLASS_NAMES, RingConfig
from simcore.games.ring_of_chaos.rules import (
    ACTIVE,
    DISCARD_PILE,
    DRAW_PILE,
    FIRST_SEAT_ZONE,
    HEROES,
    K_END_TURN,
    K_MAIN,
    K_TURN_START,
    OCCUPANT,
    PARTY_DECK,
    PARTY_NUMBER,
    PASS,
    PLAY,
    POSITION,
    RING_HOLDER,
    RING_SPACE,
    TURN_COUNT,
    RingState,
)
from simcore.kit.decisions import Task
from simcore.parameters import apply_overrides
from simcore.seeding import make_rng

DEFAULT = GAME.configure(GAME.default_parameters())
LABYRINTH = GAME.configure(apply_overrides(GAME.default_parameters(), {"rules.map": "labyrinth"}))

FULL_PARTY = (2, 2, 2, 2)


def configured(overrides: dict[str, Any]) -> RingConfig:
    """The default parameters with dotted-path overrides, compiled."""
    return GAME.configure(apply_overrides(GAME.default_parameters(), overrides))


def card(name: str) -> int:
    """The card id of ``name``."""
    return CARD_NAMES.index(name)


def ids(names: Iterable[str]) -> list[int]:
    """Card ids of ``names``, in order."""
    return [card(name) for name in names]


def hero(name: str) -> int:
    """The class id of ``name`` (cleric, fighter, rogue, wizard)."""
    return CLASS_NAMES.index(name)


def party_id(key: str, config: RingConfig = DEFAULT) -> int:
    """The party id of the party key ``key`` (e.g. ``brute_squad``)."""
    return config.party_keys.index(key)


def build(
    parties: Sequence[str],
    spaces: Sequence[int],
    hands: Sequence[Sequence[str]] = (),
    *,
    heroes: Sequence[Sequence[int]] = (),
    ring_holder: int = -1,
    ring_space: int = -2,
    points: Sequence[int] = (),
    draw_top: Sequence[str] = (),
    discard: Sequence[str] = (),
    active: int = 0,
    start_turn: bool = False,
    config: RingConfig = DEFAULT,
    events: list[dict[str, Any]] | None = None,
) -> RingState:
    """A hand-made position (see the module docstring); ``ring_space`` -2 means the Altar."""
    n_players = len(parties)
    state = RingState(config, n_players, make_rng(7), None if events is None else events.append)
    state.add_zones()
    for seat, key in enumerate(parties):
        state.set_seat_number(seat, PARTY_NUMBER, party_id(key, config))
    for seat, space in enumerate(spaces):
        state.set_seat_number(seat, POSITION, space)
        state.numbers[OCCUPANT + space] = seat
    for seat, statuses in enumerate(heroes):
        for hero_class, status in enumerate(statuses):
            state.set_seat_number(seat, HEROES + hero_class, status)
    for seat, hand in enumerate(hands):
        state.hand_zone(seat).extend(ids(hand))
    state.numbers[RING_HOLDER] = ring_holder
    state.numbers[RING_SPACE] = -1 if ring_holder >= 0 else (config.board.altar if ring_space == -2 else ring_space)
    for seat, seat_points in enumerate(points):
        state.set_points(seat, seat_points)
    placed = [name for hand in hands for name in hand] + list(draw_top) + list(discard)
    left = Counter(config.deck) - Counter(ids(placed))
    assert sum(left.values()) == len(config.deck) - len(placed), "a card is placed more often than the deck holds"
    # The rest lies under the named cards, Temple Guardians at the very bottom.
    rest = [card_id for card_id in reversed(range(len(CARD_NAMES))) for _ in range(left[card_id])]
    state.zones[DRAW_PILE].extend(rest + ids(reversed(draw_top)))  # the top of the pile is the end of the list
    state.zones[DISCARD_PILE].extend(ids(discard))
    state.numbers[TURN_COUNT] = 1
    state.numbers[ACTIVE] = active
    if start_turn:
        state.numbers[TURN_COUNT] = 0
        state.push(Task(K_TURN_START, active))
    else:
        state.push(Task(K_END_TURN, active))
        state.push(Task(K_MAIN, active))
    state.run()
    pass_forced(state)
    if events is not None:
        events.clear()
    return state


def act(state: RingState, action: int) -> None:
    """Apply ``action`` for the current player after checking it is legal, then
    answer every question whose only answer is PASS (a player asked whether to
    counter while holding no counter), as ``play_game`` does with forced moves."""
    assert action in state.legal_actions(), (state.describe_action(action), action, list(state.legal_actions()))
    state.apply(action)
    pass_forced(state)


def pass_forced(state: RingState) -> None:
    """Apply PASS while it is the only legal answer."""
    while not state.is_terminal() and list(state.legal_actions()) == [PASS]:
        state.apply(PASS)


def play(state: RingState, name: str) -> None:
    """The active player plays the first ``name`` in its hand from the main menu."""
    position = state.hand(state.current_player).index(card(name))
    act(state, PLAY.encode(position))


def position_of(state: RingState, seat: int, name: str) -> int:
    """Where ``name`` is in ``seat``'s hand."""
    return state.hand(seat).index(card(name))


def hand_names(state: RingState, seat: int) -> Counter[str]:
    """``seat``'s hand as a multiset of names."""
    return Counter(CARD_NAMES[c] for c in state.hand(seat))


def locations(state: RingState) -> Counter[int]:
    """Every card, counted once per place it occupies."""
    card_zones = state.zones[:PARTY_DECK] + state.zones[FIRST_SEAT_ZONE:]  # the party cards are no cards
    return Counter(card_id for zone in card_zones for card_id in zone.cards)


def names(cards: Iterable[int]) -> list[str]:
    """Card names of ids."""
    return [CARD_NAMES[c] for c in cards]


def all_hands(state: RingState) -> list[list[int]]:
    """Every seat's hand, by seat."""
    return [list(state.hand(seat)) for seat in range(state.n_players)]


def all_heroes(state: RingState) -> list[list[int]]:
    """Every seat's Heroes' statuses, by seat."""
    return [state.statuses(seat) for seat in range(state.n_players)]


def all_positions(state: RingState) -> list[int]:
    """Every seat's space, by seat."""
    return [state.position(seat) for seat in range(state.n_players)]


def all_parties(state: RingState) -> list[int]:
    """Every seat's party id, by seat."""
    return [state.party(seat) for seat in range(state.n_players)]


def seat_counters(state: RingState, seat: int) -> list[list[int]]:
    """``seat``'s card counters: ``seat_counters(state, seat)[counter][card]`` (``CARD_COUNTERS`` order)."""
    stats = state.stats
    return [[stats.get(seat, counter, card_id) for card_id in range(len(CARD_NAMES))]
            for counter in range(stats.n_counters)]


def random_game_positions(choice_seed: int) -> Iterator[RingState]:
    """Every position of 12 four-player games played by random answers (at most 400 steps each;
    the same state object, advanced between yields)."""
    for seed in range(12):
        state = RingState.new_game(DEFAULT, 4, seed, None)
        choices = make_rng(choice_seed + seed)
        for _ in range(400):
            if state.is_terminal():
                break
            yield state
            legal = state.legal_actions()
            state.apply(legal[choices.below(len(legal))])
