"""What a seat can see: hands are open, only face-down order is hidden;
``resample_hidden`` and ``clone``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import islice

from simcore.games.party_wanted.rules import ADD, BOSS_POOL, MONSTER_DECK, PartyState
from simcore.rng import Generator

from .helpers import (
    DEFAULT,
    deck,
    done,
    fight,
    party,
    phase,
    random_play,
    reveal,
    revealed,
    set_enemy,
    set_hand,
    tier,
)


def _states(seeds: range, n_players: int = 3) -> Iterator[PartyState]:
    """Every position of random games (the same state object per game, advanced between yields)."""
    for seed in seeds:
        yield from random_play(PartyState.new_game(DEFAULT, n_players, seed, None), seed + 500)


def tiers(state: PartyState) -> list[list[int]]:
    """The cards of every Pyramid tier."""
    return [list(state.tier_zone(row).cards) for row in range(state.tier_count())]


def test_every_seat_sees_the_same_open_table() -> None:
    # Every tenth position as it stands; the question's answers (an observation's last part)
    # are shown to the seat asked only, as the kit's observation does for every game.
    for state in islice(_states(range(2)), 0, None, 10):
        observations = [state.observation(seat) for seat in range(3)]
        assert observations[0][:-1] == observations[1][:-1] == observations[2][:-1]
        assert [observation[-1] for observation in observations] == [
            tuple(state.legal_actions()) if seat == state.current_player else () for seat in range(3)]


def test_resample_hidden_keeps_the_observation_and_redraws_the_face_down_order() -> None:
    rng = Generator(3)
    changed = 0
    for state in islice(_states(range(4)), 0, None, 7):
        copy = state.resample_hidden(0, rng)
        assert copy.observation(0) == state.observation(0)
        assert copy.legal_actions() == state.legal_actions()
        for seat in range(state.n_players):
            assert Counter(deck(copy, seat).cards) == Counter(deck(state, seat).cards)
        changed += copy.zones[MONSTER_DECK].cards != state.zones[MONSTER_DECK].cards or tiers(copy) != tiers(state)
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
    copy.hand(0).append(deck(copy, 0).take_top())
    assert copy.observation(0) != state.observation(0)
    assert state.observation(0) == PartyState.new_game(DEFAULT, 2, 9, None).observation(0)


def test_revealed_lands_stay_in_their_slots_and_the_face_down_ones_stay_in_the_pyramid_through_resampling() -> None:
    state = party("fighter,wizard")
    reveal(state, 1)
    land = tier(state, 2)[1]
    face_down = sorted([*tier(state, 1), tier(state, 2)[0], tier(state, 2)[2]])
    for seed in range(20):
        copy = state.resample_hidden(0, Generator(seed))
        assert tier(copy, 2)[1] == land and revealed(copy, 2, 1)
        assert sorted([*tier(copy, 1), tier(copy, 2)[0], tier(copy, 2)[2]]) == face_down


def test_after_a_party_mode_wipe_resampling_keeps_the_pyramid_top_empty_and_the_boss_in_its_pool() -> None:
    """Before the kit, re-sampling drew a boss onto the empty top of the
    Pyramid (and put the empty slot, -1, into the boss pool)."""
    state = party("fighter,wizard", overrides={"rules.party_mode": True})
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, [])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=99, defense=99, speed=9, hp=5)
    done(state)
    assert phase(state) == ADD and state.boss() == -1  # the level-1 boss went back to its pool
    pool = sorted(state.zones[BOSS_POOL].cards)
    for seed in range(10):
        copy = state.resample_hidden(0, Generator(seed))
        assert copy.boss() == -1 and sorted(copy.zones[BOSS_POOL].cards) == pool
