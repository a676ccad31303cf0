"""Elimination, the elimination victory, the draw pile running out and the turn cap."""

from __future__ import annotations

from collections import Counter

from simcore.agents import parse_agent_spec
from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.rules import (
    ACTIVE,
    DEAD,
    DISCARD_PILE,
    DRAW_PILE,
    END_ELIMINATION,
    END_TURN,
    END_TURN_CAP,
    FULL,
    K_GUARDIAN_DEFEND,
    K_MAIN,
    K_OWN_HERO_HIT,
    RESHUFFLES,
    RING_HOLDER,
    RING_SPACE,
    TURN_COUNT,
    WOUNDED,
    RingState,
)
from simcore.play import play_game

from .helpers import DEFAULT, act, build, card, configured, hero, locations, play

NEUTRAL = "nameless_band"
LAST_HERO = (0, 0, 1, 0)  # only a Wounded Rogue left
FULL_HEROES = (2, 2, 2, 2)


def _kill_seat_one(state: RingState) -> None:
    play(state, "sword")
    act(state, 1)
    act(state, hero("rogue"))


def test_a_party_whose_four_heroes_are_dead_is_eliminated_its_cards_discarded_its_standee_removed() -> None:
    state = build([NEUTRAL] * 3, [1, 2, 16], [["sword"], ["dodge", "bow"], []],
                  heroes=[(2, 2, 2, 2), LAST_HERO, (2, 2, 2, 2)])
    _kill_seat_one(state)
    assert not state.alive(1) and state.hand(1) == [] and state.position(1) == -1 and state.occupant(2) == -1
    assert card("dodge") in state.zones[DISCARD_PILE].cards and card("bow") in state.zones[DISCARD_PILE].cards
    assert locations(state) == Counter(DEFAULT.deck)
    act(state, END_TURN)
    assert state.numbers[ACTIVE] == 2  # the eliminated seat takes no more turns


def test_an_eliminated_ring_wearer_drops_the_ring_on_its_vacated_space() -> None:
    state = build([NEUTRAL] * 3, [1, 2, 16], [["sword"], [], []], heroes=[(2, 2, 2, 2), LAST_HERO, (2, 2, 2, 2)],
                  ring_holder=1)
    _kill_seat_one(state)
    assert state.numbers[RING_HOLDER] == -1 and state.numbers[RING_SPACE] == 2


def test_the_last_party_with_a_living_hero_wins_by_elimination() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], []], heroes=[(0, 1, 0, 0), LAST_HERO], points=[0, 9])
    _kill_seat_one(state)
    assert state.is_terminal() and state.end_reason() == END_ELIMINATION and state.winners() == [0]
    assert state.game_columns()["victory"] == END_ELIMINATION
    assert state.scores() == [9, 0]  # the reward still never passes ten


def test_a_party_killed_by_a_temple_guardian_gives_nobody_its_points() -> None:
    state = build([NEUTRAL] * 3, [13, 15, 17], heroes=[(2, 2, 2, 2), LAST_HERO, (2, 2, 2, 2)], points=[1, 6, 2],
                  draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    act(state, hero("cleric"))
    act(state, hero("rogue"))
    assert not state.alive(1) and state.scores() == [1, 0, 2]


def test_the_drawing_party_can_be_eliminated_by_its_own_guardian_and_its_turn_ends() -> None:
    state = build([NEUTRAL] * 3, [13, 15, 17], heroes=[LAST_HERO, (2, 2, 2, 2), (2, 2, 2, 2)],
                  draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    act(state, hero("rogue"))
    assert not state.alive(0)
    act(state, hero("cleric"))
    act(state, hero("cleric"))
    assert state.numbers[ACTIVE] == 1 and state.decisions.asked.kind == K_MAIN and state.hand(0) == []


def _eliminate_seat_zero_by_a_guardian_drawn_by_the_giant_slayers(state: RingState, guardian_victims: int) -> None:
    """Seat 1 (Giant Slayers) has just been hit and draws a Temple Guardian: each party picks a
    Hero for it (``guardian_victims`` of them before seat 0, whose last Hero dies)."""
    for _ in range(guardian_victims):
        assert state.decisions.asked.kind == K_GUARDIAN_DEFEND
        act(state, hero("fighter"))
    assert state.decisions.asked.kind == K_GUARDIAN_DEFEND and state.current_player == 0
    act(state, state.legal_actions()[0])
    assert not state.alive(0)


def test_a_party_eliminated_in_the_middle_of_its_own_card_acts_no_more_and_the_rest_of_its_card_fizzles() -> None:
    draws = ["temple_guardian", "mace", "mace", "mace", "bow", "bow", "bow"]
    # Fireball: seat 0 (only a Wounded Wizard left) hits the Giant Slayers; their hit-draw is a
    # Guardian that kills seat 0. The Fireball's attack on seat 2, Adjacent to its target, never comes.
    state = build([NEUTRAL, "giant_slayers", NEUTRAL], [16, 13, 14], [["fireball", "dodge"], [], []],
                  heroes=[(0, 0, 0, 1), FULL_HEROES, FULL_HEROES], draw_top=draws)
    play(state, "fireball")
    act(state, 1)
    act(state, hero("cleric"))
    _eliminate_seat_zero_by_a_guardian_drawn_by_the_giant_slayers(state, 2)
    assert state.statuses(2) == [FULL, WOUNDED, FULL, FULL]  # the Guardian's hit only
    assert state.numbers[ACTIVE] == 1 and state.decisions.asked.kind == K_MAIN and state.hand(0) == []
    # Savage Attack: after the first melee hit seat 0 is eliminated; it plays no further Sword.
    state = build([NEUTRAL, "giant_slayers", NEUTRAL], [1, 2, 15], [["savage_attack", "sword"], [], []],
                  heroes=[(0, 1, 0, 0), FULL_HEROES, FULL_HEROES], draw_top=draws)
    play(state, "savage_attack")
    act(state, 1)
    act(state, hero("cleric"))
    _eliminate_seat_zero_by_a_guardian_drawn_by_the_giant_slayers(state, 2)
    assert state.numbers[ACTIVE] == 1 and state.decisions.asked.kind == K_MAIN
    assert card("sword") in state.zones[DISCARD_PILE].cards
    assert state.statuses(1) == [WOUNDED, WOUNDED, FULL, FULL]  # the Savage Attack, then the Guardian
    # Pit Trap: its hit on the Giant Slayers (Rogue Dead) kills seat 0; seat 2 (Rogue Dead) is not hit.
    state = build([NEUTRAL, "giant_slayers", NEUTRAL], [16, 13, 14], [["pit_trap"], [], []],
                  heroes=[(0, 0, 1, 0), (2, 2, 0, 2), (2, 2, 0, 2)], draw_top=draws)
    play(state, "pit_trap")
    assert state.decisions.asked.kind == K_OWN_HERO_HIT and state.current_player == 1
    act(state, hero("cleric"))
    _eliminate_seat_zero_by_a_guardian_drawn_by_the_giant_slayers(state, 2)
    assert state.statuses(2) == [FULL, WOUNDED, DEAD, FULL]
    assert state.numbers[ACTIVE] == 1 and state.decisions.asked.kind == K_MAIN


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], draw_top=["mace"])
    cards = state.zones[DRAW_PILE].take_all()
    state.zones[DISCARD_PILE].extend(cards[:-1])
    state.zones[DRAW_PILE].extend(cards[-1:])
    act(state, END_TURN)
    assert state.numbers[RESHUFFLES] == 1 and len(state.hand(1)) == 3 and locations(state) == Counter(DEFAULT.deck)
    assert state.game_columns()["reshuffles"] == 1


def test_with_no_card_anywhere_a_draw_gives_nothing() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], config=configured({"rules.hand_limit": 100}))
    state.hand_zone(0).extend(state.zones[DRAW_PILE].take_all())  # every card in one hand
    act(state, END_TURN)
    assert state.numbers[ACTIVE] == 1 and state.hand(1) == [] and state.decisions.asked.kind == K_MAIN


def test_the_turn_cap_ends_the_game_as_a_draw() -> None:
    config = configured({"rules.max_turns": 3})
    state = build([NEUTRAL, NEUTRAL], [13, 16], config=config, draw_top=["mace", "mace", "mace", "bow", "bow", "bow"])
    assert state.numbers[TURN_COUNT] == 1
    act(state, END_TURN)
    act(state, END_TURN)
    assert state.numbers[TURN_COUNT] == 3 and not state.is_terminal()
    act(state, END_TURN)
    assert state.is_terminal() and state.end_reason() == END_TURN_CAP and state.winners() == []
    assert state.returns() == [0.5, 0.5] and state.turns() == 3
    assert state.game_columns()["victory"] == "none"


def test_every_game_ends_within_the_turn_cap() -> None:
    config = configured({"rules.max_turns": 12})
    for seed in range(40):
        played = play_game(GAME, config, 2 + seed % 5, seed, [parse_agent_spec("random")] * (2 + seed % 5))
        assert played.state.is_terminal() and played.state.turns() <= 12
