"""What a seat can see: hands are open, only face-down order is hidden;
``resample_hidden`` and ``clone``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from simcore.games.party_wanted.rules import PartyState
from simcore.rng import Generator

from .helpers import DEFAULT


def _states(seeds: range, n_players: int = 3) -> Iterator[PartyState]:
    for seed in seeds:
        state = PartyState.new_game(DEFAULT, n_players, seed, None)
        agent = Generator(seed + 500)
        while not state.is_terminal():
            yield state
            actions = state.legal_actions()
            state.apply(actions[agent.below(len(actions))])


def test_every_seat_sees_the_same_open_table() -> None:
    for state in list(_states(range(2)))[::10]:
        assert state.observation(0) == state.observation(1) == state.observation(2)


def test_resample_hidden_keeps_the_observation_and_redraws_the_face_down_order() -> None:
    rng = Generator(3)
    changed = 0
    for state in list(_states(range(4)))[::7]:
        copy = state.resample_hidden(0, rng)
        assert copy.observation(0) == state.observation(0)
        assert copy.legal_actions() == state.legal_actions()
        for seat in range(state.n_players):
            assert Counter(copy.decks[seat].cards) == Counter(state.decks[seat].cards)
        changed += copy.monster_deck.cards != state.monster_deck.cards or copy.tiers != state.tiers
    assert changed > 0


def test_a_resampled_state_plays_on_to_a_legal_end() -> None:
    rng, agent = Generator(5), Generator(6)
    for state in [s.clone() for s in _states(range(2))][::25]:
        copy = state.resample_hidden(state.current_player, rng)
        while not copy.is_terminal():
            actions = copy.legal_actions()
            assert actions
            copy.apply(actions[agent.below(len(actions))])


def test_clone_is_an_exact_and_independent_copy() -> None:
    state = PartyState.new_game(DEFAULT, 2, 9, None)
    copy = state.clone()
    assert copy.observation(0) == state.observation(0)
    copy.apply(copy.legal_actions()[0])
    copy.hands[0].append(copy.decks[0].cards.pop())
    assert copy.observation(0) != state.observation(0)
    assert state.observation(0) == PartyState.new_game(DEFAULT, 2, 9, None).observation(0)
