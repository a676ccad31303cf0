"""The heuristic's picks written as loops choose what ``max``/``min`` with a key
chose before them — the first best answer — in the positions of random games.

The loops replaced key lambdas (each key call went through Python's calling
convention in the compiled core, issue 21); these tests hold the two against
each other with the answers in both orders, so that ties are decided the same way.
"""

from __future__ import annotations

from simcore.games.ring_of_chaos import agents
from simcore.games.ring_of_chaos.config import PICKPOCKET, POISON, SNEAK, TELEPORT
from simcore.games.ring_of_chaos.rules import RING_HOLDER, RING_SPACE, SEAT, SPACE, RingState

from .helpers import DEFAULT, random_game_positions


def _keyed_best_target(state: RingState, legal: list[int]) -> int:
    holder = state.numbers[RING_HOLDER]
    for action in legal:
        if SEAT.value(action) == holder:
            return action
    return max(legal, key=lambda action: (state.points(SEAT.value(action)),
                                          -len(state.living_heroes(SEAT.value(action)))))


def _keyed_card_target(state: RingState, card: int, legal: list[int]) -> int:
    if card == SNEAK:
        return min(legal, key=lambda action: agents.ring_distance(state, state.position(SEAT.value(action))))
    holder = state.numbers[RING_HOLDER]
    for action in legal:
        if SEAT.value(action) == holder:
            return action
    return max(legal, key=lambda action: (len(state.hand(SEAT.value(action))), state.points(SEAT.value(action))))


def _keyed_leadership_space(state: RingState, seat: int, target: int, legal: list[int]) -> int:
    distance_from_me = state.config.board.distance[state.position(seat)]
    if target == state.numbers[RING_HOLDER]:
        return min(legal, key=lambda action: abs(distance_from_me[SPACE.value(action)] - 1))
    if state.numbers[RING_HOLDER] < 0:
        anchor = state.config.board.distance[state.numbers[RING_SPACE]]
        return max(legal, key=lambda action: anchor[SPACE.value(action)])
    return max(legal, key=lambda action: distance_from_me[SPACE.value(action)])


def _both_orders(actions: list[int]) -> list[list[int]]:
    return [actions, actions[::-1]]


def test_the_party_a_card_or_bully_targets_is_the_first_best_as_max_and_min_with_keys_pick_it() -> None:
    compared = 0
    for state in random_game_positions(1300):
        for seat in range(4):
            if not state.alive(seat) or state.position(seat) < 0:
                continue
            others = [SEAT.encode(other) for other in state.others_alive(seat)]
            if not others:
                continue
            for legal in _both_orders(others):
                assert agents.best_target(state, legal) == _keyed_best_target(state, legal)
                for card in (SNEAK, POISON, PICKPOCKET, TELEPORT):
                    assert agents.card_target(state, seat, card, legal) == (
                        _keyed_card_target(state, card, legal) if card != TELEPORT
                        else _keyed_best_target(state, legal))
                compared += 1
    assert compared > 5_000


def test_the_space_leadership_or_a_push_sends_a_party_to_is_the_first_best_as_max_and_min_pick_it() -> None:
    compared = 0
    every_space = [SPACE.encode(space) for space in range(DEFAULT.board.n_spaces)]
    for state in random_game_positions(1700):
        if state.numbers[RING_HOLDER] < 0 and state.numbers[RING_SPACE] < 0:
            continue
        for legal in _both_orders(every_space):
            assert agents.push_space(state, legal) == max(
                legal, key=lambda action: agents.ring_distance(state, SPACE.value(action)))
            for seat in range(4):
                if not state.alive(seat) or state.position(seat) < 0:
                    continue
                for target in state.others_alive(seat):
                    assert agents.leadership_space(state, seat, target, legal) == _keyed_leadership_space(
                        state, seat, target, legal)
                    compared += 1
    assert compared > 5_000
