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
from collections.abc import Iterable, Sequence
from typing import Any

from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import CARD_NAMES, CLASS_NAMES, RingConfig
from simcore.games.ring_of_chaos.rules import K_END_TURN, K_MAIN, K_TURN_START, PASS, PLAY_CARD, RingState
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
    state.party = [party_id(key, config) for key in parties]
    for seat, space in enumerate(spaces):
        state.position[seat] = space
        state.occupant[space] = seat
    state.heroes = [list(statuses) for statuses in heroes] or [list(FULL_PARTY) for _ in range(n_players)]
    state.hands = [ids(hand) for hand in hands] or [[] for _ in range(n_players)]
    while len(state.hands) < n_players:
        state.hands.append([])
    state.ring_holder = ring_holder
    state.ring_space = -1 if ring_holder >= 0 else (config.board.altar if ring_space == -2 else ring_space)
    state.points = list(points) or [0] * n_players
    placed = [name for hand in hands for name in hand] + list(draw_top) + list(discard)
    left = Counter(config.deck) - Counter(ids(placed))
    assert sum(left.values()) == len(config.deck) - len(placed), "a card is placed more often than the deck holds"
    # The rest lies under the named cards, Temple Guardians at the very bottom.
    rest = [card_id for card_id in reversed(range(len(CARD_NAMES))) for _ in range(left[card_id])]
    state.draw_pile = rest + ids(reversed(draw_top))  # the top of the pile is the end of the list
    state.discard_pile = ids(discard)
    state.turn_count = 1
    state.active = active
    if start_turn:
        state.turn_count = 0
        state.stack = [(K_TURN_START, active, 0, 0, 0)]
    else:
        state.stack = [(K_END_TURN, active, 0, 0, 0), (K_MAIN, active, 0, 0, 0)]
    state._run()
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
    position = state.hands[state.current_player].index(card(name))
    act(state, PLAY_CARD + position)


def position_of(state: RingState, seat: int, name: str) -> int:
    """Where ``name`` is in ``seat``'s hand."""
    return state.hands[seat].index(card(name))


def hand_names(state: RingState, seat: int) -> Counter[str]:
    """``seat``'s hand as a multiset of names."""
    return Counter(CARD_NAMES[c] for c in state.hands[seat])


def locations(state: RingState) -> Counter[int]:
    """Every card, counted once per place it occupies."""
    cards = [*state.draw_pile, *state.discard_pile, *state.limbo, *state.tithe_pool]
    for seat in range(state.n_players):
        cards += state.hands[seat] + state.imprisoned[seat]
    return Counter(cards)


def names(cards: Iterable[int]) -> list[str]:
    """Card names of ids."""
    return [CARD_NAMES[c] for c in cards]
