"""Playable versus played (issue 16): the ``playable`` card counter counted by ``note_offered``,
``played`` counting every play by the seat's choice (counters out of turn included, with
``played_as_counter`` as their part), and the party powers' ``power_playable`` / ``power_used``
players columns. Sanctum map (layout in test_turn.py)."""

from __future__ import annotations

from simcore.agents import parse_agent_spec
from simcore.api import CardColumns
from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import BRUTE_SQUAD, CARD_NAMES, GIANT_SLAYERS
from simcore.games.ring_of_chaos.rules import (
    CARD_COUNTERS,
    DEFENDERS_POWER,
    DRAW_CARD,
    INFO,
    PLAY,
    PLAY_AS_RANGED,
    STEAL_CARD,
    RingState,
)
from simcore.play import play_game

from .helpers import DEFAULT, act, build, card, hero, play, position_of, seat_counters

NEUTRAL = "nameless_band"
PLAYED, COUNTERED, AS_COUNTER, PLAYABLE = (CARD_COUNTERS.index(name) for name in
                                           ("played", "countered", "played_as_counter", "playable"))


def offer_and_act(state: RingState, action: int) -> None:
    """What ``play_game`` does at one step: offer the legal actions, then apply ``action``."""
    state.note_offered(state.legal_actions())
    act(state, action)


def test_a_card_is_playable_once_per_step_whatever_the_copies_and_only_where_an_answer_plays_it() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword", "sword", "bow", "dodge"], ["parry"]])
    state.note_offered(state.legal_actions())
    assert state.stats.get(0, PLAYABLE, card("sword")) == 1  # two copies, one step
    assert state.stats.get(0, PLAYABLE, card("bow")) == 0  # no party out of melee reach: no answer plays it
    assert state.stats.get(0, PLAYABLE, card("dodge")) == 0  # a counter is never an Action
    state.note_offered(state.legal_actions())
    assert state.stats.get(0, PLAYABLE, card("sword")) == 2  # a second step


def test_a_counter_played_out_of_turn_is_played_and_played_as_counter_and_was_playable() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], ["parry", "dodge"]])
    offer_and_act(state, PLAY.encode(position_of(state, 0, "sword")))
    offer_and_act(state, 1)
    offer_and_act(state, hero("cleric"))
    assert state.current_player == 1  # the counter question, out of turn
    offer_and_act(state, position_of(state, 1, "parry"))
    defender, attacker = seat_counters(state, 1), seat_counters(state, 0)
    assert defender[PLAYED][card("parry")] == 1 and defender[AS_COUNTER][card("parry")] == 1
    assert defender[PLAYABLE][card("parry")] == 1 and defender[PLAYABLE][card("dodge")] == 0  # melee: no Dodge
    assert attacker[PLAYED][card("sword")] == 1 and attacker[PLAYABLE][card("sword")] == 1
    assert attacker[COUNTERED][card("sword")] == 1


def test_heroic_sacrifice_and_chaos_magic_against_chaos_magic_are_plays() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [[], ["heroic_sacrifice"]], ring_holder=1)
    offer_and_act(state, 3)  # steal the Ring
    offer_and_act(state, position_of(state, 1, "heroic_sacrifice"))
    assert state.stats.get(1, PLAYED, card("heroic_sacrifice")) == 1
    assert state.stats.get(1, PLAYABLE, card("heroic_sacrifice")) == 1
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["chaos_magic"], ["chaos_magic"]], points=[0, 3])
    play(state, "chaos_magic")
    act(state, 1)
    offer_and_act(state, position_of(state, 1, "chaos_magic"))
    counter_player = seat_counters(state, 1)
    assert counter_player[PLAYED][card("chaos_magic")] == 1 and counter_player[AS_COUNTER][card("chaos_magic")] == 1


def test_the_card_rows_carry_playable_and_a_card_only_ever_playable_gets_a_row() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], []])
    state.note_offered(state.legal_actions())
    columns = CardColumns(len(CARD_COUNTERS))
    state.add_card_rows(columns)
    rows = {(seat, CARD_NAMES[card_id]): [counter[row] for counter in columns.counters]
            for row, (seat, card_id) in enumerate(zip(columns.seat, columns.card, strict=True))}
    assert rows == {(0, "sword"): [0, 0, 0, 0, 0, 1]}  # built by hand: never drawn, never played
    assert "playable" in INFO.card_counters


def test_den_of_thieves_power_is_counted_when_offered_and_when_used() -> None:
    state = build(["den_of_thieves", NEUTRAL], [13, 16], [[], ["fireball"]])
    assert STEAL_CARD.encode(1) in state.legal_actions()
    offer_and_act(state, STEAL_CARD.encode(1))
    assert state.player_columns(0) == {"power_playable": 1, "power_used": 1}
    other = build(["den_of_thieves", NEUTRAL], [13, 16], [[], ["fireball"]])
    offer_and_act(other, DRAW_CARD)
    assert other.player_columns(0) == {"power_playable": 1, "power_used": 0}
    assert INFO.player_columns == {"power_playable": "int32", "power_used": "int32"}


def test_defenders_death_from_above_dread_legion_and_hell_raisers_powers_are_counted() -> None:
    defenders = build(["defenders_of_the_faith", NEUTRAL], [13, 16], [["sword", "bow", "dodge"], []],
                      heroes=[(2, 1, 2, 2), (2, 2, 2, 2)])
    offer_and_act(defenders, DEFENDERS_POWER)
    assert defenders.player_columns(0) == {"power_playable": 1, "power_used": 1}
    archers = build(["death_from_above", NEUTRAL], [1, 15], [["sword"], []])
    offer_and_act(archers, PLAY_AS_RANGED.encode(0))
    assert archers.player_columns(0) == {"power_playable": 1, "power_used": 1}
    # Dread Legion: its power is a Class card of a Dead Hero (the Fighter's Sword), not the Bow.
    legion = build(["dread_legion", NEUTRAL], [1, 2], [["sword", "dagger"], []], heroes=[(2, 0, 2, 2), (2, 2, 2, 2)])
    offer_and_act(legion, PLAY.encode(position_of(legion, 0, "dagger")))
    assert legion.player_columns(0) == {"power_playable": 1, "power_used": 0}
    legion = build(["dread_legion", NEUTRAL], [1, 2], [["sword", "dagger"], []], heroes=[(2, 0, 2, 2), (2, 2, 2, 2)])
    offer_and_act(legion, PLAY.encode(position_of(legion, 0, "sword")))
    assert legion.player_columns(0) == {"power_playable": 1, "power_used": 1}
    raisers = build([NEUTRAL, "hell_raisers"], [13, 16], [["resurrection"], ["dodge", "bow"]],
                    heroes=[(2, 0, 2, 2), (2, 2, 2, 2)])
    play(raisers, "resurrection")
    assert raisers.current_player == 1
    offer_and_act(raisers, 0)  # negate it with a random card
    assert raisers.player_columns(1) == {"power_playable": 1, "power_used": 1}
    counters = seat_counters(raisers, 1)
    assert counters[PLAYABLE][card("dodge")] == 1 and counters[PLAYABLE][card("bow")] == 1  # either could go
    assert counters[PLAYED][card("dodge")] + counters[PLAYED][card("bow")] == 1


def test_passive_powers_are_never_offered_and_count_the_times_they_took_effect() -> None:
    brutes = build(["brute_squad", "giant_slayers"], [1, 2], [["sword", "dagger"], []], draw_top=["mace"])
    offer_and_act(brutes, PLAY.encode(position_of(brutes, 0, "sword")))
    offer_and_act(brutes, 1)
    offer_and_act(brutes, hero("cleric"))
    assert brutes.status(1, hero("cleric")) == 0  # two hits: Full Strength to Dead
    assert brutes.player_columns(0) == {"power_playable": 0, "power_used": 1}
    assert brutes.player_columns(1) == {"power_playable": 0, "power_used": 1}  # the Giant Slayers drew a card


def test_over_whole_games_a_card_is_never_played_more_often_than_it_was_playable() -> None:
    for seed in range(30):
        n_players = 2 + seed % 5
        lineup = [parse_agent_spec("heuristic" if seed % 2 else "random")] * n_players
        state = play_game(GAME, DEFAULT, n_players, seed, lineup).state
        assert isinstance(state, RingState)
        for seat in range(n_players):
            counters = seat_counters(state, seat)
            for card_id in range(len(CARD_NAMES)):
                assert counters[AS_COUNTER][card_id] <= counters[PLAYED][card_id] <= counters[PLAYABLE][card_id]
            columns = state.player_columns(seat)
            passive = state.power(seat) in (BRUTE_SQUAD, GIANT_SLAYERS)
            assert columns["power_used"] <= columns["power_playable"] or passive
