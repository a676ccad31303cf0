"""The heuristic agent does what agents.py documents, in hand-made positions (Sanctum map)."""

from __future__ import annotations

from collections import Counter

from simcore.agents import parse_agent_spec
from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.rules import (
    DRAW_CARD,
    K_DRAFT,
    MOVE_TO,
    PASS,
    PICK_UP_RING,
    PLAY_CARD,
    STEAL_RING,
    RingState,
)
from simcore.play import play_game
from simcore.rng import Generator
from simcore.seeding import make_rng

from .helpers import DEFAULT, act, build, hero, play, position_of

NEUTRAL = "nameless_band"


def _choice(state: RingState) -> int:
    legal = state.legal_actions()
    action = GAME.heuristic_agent(state.current_player, make_rng(1)).choose(state, legal)
    assert action in legal
    return action


def test_it_drafts_at_random_so_that_every_party_is_played() -> None:
    chosen: Counter[str] = Counter()
    for seed in range(40):
        state = GAME.new_state(DEFAULT, 6, seed)
        agents = [GAME.heuristic_agent(seat, make_rng(seed * 10 + seat)) for seat in range(6)]
        while state.asked[0] == K_DRAFT:
            state.apply(agents[state.current_player].choose(state, state.legal_actions()))
        chosen.update(DEFAULT.party_keys[party] for party in state.party)
    assert len(chosen) == 7 and min(chosen.values()) > 10


def test_it_picks_up_the_ring_first() -> None:
    state = build([NEUTRAL, NEUTRAL], [0, 16], [["sword", "healing_potion"], []], heroes=[(1, 2, 2, 2), (2, 2, 2, 2)])
    assert _choice(state) == PICK_UP_RING


def test_it_steals_the_ring_from_an_adjacent_wearer() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], []], ring_holder=1)
    assert _choice(state) == STEAL_RING


def test_it_takes_the_ring_with_dominance_or_mind_control_from_a_distant_wearer() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["bow", "mind_control"], []], ring_holder=1)
    assert _choice(state) == PLAY_CARD + position_of(state, 0, "mind_control")


def test_it_heals_a_wounded_hero_before_attacking() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["bow", "healing_potion"], []], heroes=[(1, 2, 2, 2), (2, 2, 2, 2)])
    assert _choice(state) == PLAY_CARD + position_of(state, 0, "healing_potion")


def test_it_attacks_the_ring_wearer_and_a_wounded_hero_of_it() -> None:
    state = build([NEUTRAL] * 3, [13, 16, 15], [["bow"], [], []], ring_holder=2, heroes=[(2, 2, 2, 2)] * 2
                  + [(2, 2, 1, 2)], points=[0, 5, 1])
    assert _choice(state) == PLAY_CARD + position_of(state, 0, "bow")
    play(state, "bow")
    assert _choice(state) == 2  # the wearer, not the points leader
    act(state, 2)
    assert _choice(state) == hero("rogue")  # the Wounded Hero


def test_it_moves_toward_the_ring_lying_on_the_altar() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [[], []])
    assert _choice(state) == MOVE_TO + 1  # two steps up the stairs toward the Altar


def test_it_draws_a_card_when_nothing_better_is_open() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 16], [[], []], ring_holder=0)
    assert _choice(state) == DRAW_CARD


def test_it_counters_with_dodge_or_parry_before_hasty_retreat() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], ["hasty_retreat", "parry"]])
    play(state, "sword")
    act(state, 1)
    act(state, hero("cleric"))
    assert _choice(state) == position_of(state, 1, "parry")


def test_it_offers_a_full_strength_hero_to_a_guardian() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], heroes=[(1, 2, 1, 1), (2, 2, 2, 2)],
                  draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    assert _choice(state) == hero("fighter")


def test_it_discards_cards_of_a_dead_class_first() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["dodge", "sword", "healing_potion", "bow", "mace", "staff"], []],
                  heroes=[(0, 2, 2, 2), (2, 2, 2, 2)])
    state.used_move = state.used_attack = state.used_bonus = True
    act(state, 0)  # end the turn
    assert _choice(state) == position_of(state, 0, "mace")  # the Cleric is Dead


def test_it_keeps_the_ring_with_heroic_sacrifice_and_stops_chaos_magic_aimed_at_it() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [[], ["heroic_sacrifice", "chaos_magic"]], ring_holder=1, points=[0, 3])
    act(state, STEAL_RING)
    assert _choice(state) == position_of(state, 1, "heroic_sacrifice")
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["chaos_magic"], ["chaos_magic"]], points=[0, 3])
    play(state, "chaos_magic")
    act(state, 1)
    assert _choice(state) == position_of(state, 1, "chaos_magic")
    third = build([NEUTRAL] * 3, [13, 16, 15], [["chaos_magic"], ["chaos_magic"], []], points=[0, 3, 3])
    play(third, "chaos_magic")
    act(third, 2)
    assert _choice(third) == PASS  # not aimed at it


def test_its_choices_depend_only_on_what_its_seat_can_see() -> None:
    rng = Generator(3)
    for seed in range(5):
        state = GAME.new_state(DEFAULT, 4, seed)
        agent_rng = Generator(seed)
        for _ in range(150):
            if state.is_terminal():
                break
            seat = state.current_player
            copy = state.resample_hidden(seat, rng)
            assert _choice(copy) == _choice(state)
            actions = state.legal_actions()
            state.apply(actions[agent_rng.below(len(actions))])


def test_it_beats_random_players_most_of_the_time() -> None:
    wins = 0
    for seed in range(60):
        lineup = [parse_agent_spec("heuristic")] + [parse_agent_spec("random")] * 3
        wins += play_game(GAME, DEFAULT, 4, seed, lineup).state.winners() == [0]
    assert wins > 40



def test_it_plays_pit_trap_only_when_another_partys_rogue_is_dead() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["pit_trap"], []])
    assert _choice(state) != PLAY_CARD + position_of(state, 0, "pit_trap")
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["pit_trap"], []], heroes=[(2, 2, 2, 2), (2, 2, 0, 2)])
    assert _choice(state) == PLAY_CARD + position_of(state, 0, "pit_trap")
