"""The party wins together (the level-4 boss dies) or loses together (every
hero dead); Party mode goes on after a wipe; caps stop endless games."""

from __future__ import annotations

from simcore.games.party_wanted.rules import (
    BOSS_POOL,
    END_PARTY_DEAD,
    END_ROUND_CAP,
    END_TURN_CAP,
    END_VICTORY,
    LEVEL,
    REVEAL,
    WIPES,
)

from .helpers import (
    act,
    alive,
    answer,
    boss_kills,
    cid,
    done,
    fight,
    hps,
    party,
    phase,
    reask,
    set_enemy,
    set_hand,
    set_number,
    tier,
)


def test_killing_the_level_four_boss_wins_for_every_seat() -> None:
    state = party("fighter,wizard,healer")
    set_number(state, LEVEL, 4)
    tier(state, 0)[0] = cid("dragon")
    for seat in range(3):
        set_hand(state, seat, ["fighter_strike"] if seat == 0 else [])
    fight(state, ["dragon"])
    set_enemy(state, 0, attack=0, defense=0, speed=0, hp=1)
    done(state)
    assert state.is_terminal() and state.end_reason() == END_VICTORY
    assert state.winners() == [0, 1, 2] and state.returns() == [1.0, 1.0, 1.0]
    assert boss_kills(state) == [0, 0, 0, 1] and state.current_player == -1


def test_the_party_loses_together_when_every_hero_is_dead() -> None:
    state = party("fighter,wizard")
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, [])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=99, defense=99, speed=9, hp=5)
    done(state)
    assert state.is_terminal() and state.end_reason() == END_PARTY_DEAD
    assert state.winners() == [] and state.returns() == [0.0, 0.0]
    assert state.game_columns()["final_enemy"] == "goblin" and state.game_columns()["heroes_dead"] == 2


def test_one_dead_hero_is_not_the_end() -> None:
    state = party("fighter,wizard")
    state._damage_hero(0, 99)
    reask(state)
    assert not state.alive(0) and not state.is_terminal()


def test_in_party_mode_the_game_goes_on_after_a_wipe_at_the_next_level() -> None:
    state = party("fighter,wizard", overrides={"rules.party_mode": True})
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, [])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=99, defense=99, speed=9, hp=5)
    done(state)
    assert not state.is_terminal() and state.numbers[WIPES] == 1
    assert state.game_columns()["wipes"] == 1 and state.game_columns()["first_wipe_level"] == 1
    while phase(state) != REVEAL:
        act(state, state.legal_actions()[0])  # each hero adds one class or utility card
    assert state.numbers[LEVEL] == 2 and all(alive(state)) and boss_kills(state) == [0, 0, 0, 0]
    assert hps(state) == [state.max_hp(seat) for seat in range(2)]


def test_in_party_mode_a_wipe_at_level_four_stays_at_level_four() -> None:
    state = party("fighter", overrides={"rules.party_mode": True})
    set_number(state, LEVEL, 4)
    tier(state, 0)[0] = cid("lich")
    state.zones[BOSS_POOL].add(cid("goblin_chief"))
    set_hand(state, 0, ["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=99, defense=99, speed=9, hp=5)
    done(state)
    while phase(state) != REVEAL:
        act(state, state.legal_actions()[0])
    assert state.numbers[LEVEL] == 4 and not state.is_terminal()
    assert state.config.boss_levels[state.boss()] == 4
    assert state.game_columns()["first_wipe_level"] == 4


def test_the_turn_cap_ends_a_game_that_would_go_on() -> None:
    state = party("fighter", overrides={"rules.max_turns": 1})
    answer(state, 0)
    while not state.is_terminal():
        act(state, state.legal_actions()[0])
    assert state.end_reason() in (END_TURN_CAP, END_PARTY_DEAD) and state.turns() <= 1


def test_the_round_cap_ends_a_combat_nobody_can_win() -> None:
    state = party("fighter", overrides={"rules.max_combat_rounds": 3})
    set_hand(state, 0, ["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    for _ in range(3):
        done(state)
    assert state.is_terminal() and state.end_reason() == END_ROUND_CAP and state.winners() == []
