"""The turn: three draws one at a time, Temple Guardians, one Move, one Attack and one Bonus Action, the hand limit.

Positions are on the Sanctum map: the Altar 0 in the inner ring 1-6 (1-2, 2-3 ... 6-1 and each to 0),
stairs 7-12 (7-1, 8-2 ...), starting spaces 13-18 (13-7, 14-8 ...) on a gallery (13-14, 14-15 ...).
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from simcore.games.ring_of_chaos import rules
from simcore.games.ring_of_chaos.rules import (
    ACTIVE,
    ALIVE,
    DEAD,
    DISCARD_PILE,
    DRAW_CARD,
    DRAW_PILE,
    END_TURN,
    FULL,
    HEROES,
    K_COUNTER,
    K_DISCARD_EXCESS,
    K_GUARDIAN_DEFEND,
    K_MAIN,
    K_PUSH,
    K_RETREAT,
    MOVE,
    OCCUPANT,
    PASS,
    PICK_UP_RING,
    PLAY,
    POSITION,
    RING_HOLDER,
    RING_SPACE,
    STEAL_RING,
    WOUNDED,
)
from simcore.kit.decisions import Task

from .helpers import (
    DEFAULT,
    act,
    all_positions,
    build,
    card,
    hand_names,
    hero,
    names,
    play,
    position_of,
    random_game_positions,
)

NEUTRAL = "nameless_band"  # the party without a power


def _defend(state: object, choice: str) -> None:
    """The asked party picks its Hero for the Guardian."""
    act(state, hero(choice))  # type: ignore[arg-type]


def test_a_turn_begins_by_drawing_three_cards_one_at_a_time() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], draw_top=["mace", "dodge", "sneak", "parry"], start_turn=True)
    assert state.decisions.asked.kind == K_MAIN and state.current_player == 0
    assert hand_names(state, 0) == {"mace": 1, "dodge": 1, "sneak": 1}
    assert state.zones[DRAW_PILE].cards[-1] == card("parry")  # the fourth card stays on the pile


def test_a_temple_guardian_attacks_every_party_at_once_before_the_next_card_is_drawn_and_is_replaced() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [13, 15, 17],
                  draw_top=["temple_guardian", "mace", "dodge", "sneak"], start_turn=True)
    # The Guardian resolves at once: the drawer has not seen the cards below it.
    assert state.decisions.asked.kind == K_GUARDIAN_DEFEND and state.current_player == 0
    assert state.hand(0) == [] and names(state.zones[DRAW_PILE].cards[-3:]) == ["sneak", "dodge", "mace"]
    defenders = []
    for choice in ("rogue", "wizard", "cleric"):
        defenders.append(state.current_player)
        _defend(state, choice)
    assert defenders == [0, 1, 2]  # every party, the drawer first, then clockwise
    assert state.status(0, hero("rogue")) == WOUNDED
    assert state.status(1, hero("wizard")) == WOUNDED
    assert state.status(2, hero("cleric")) == WOUNDED
    # Replaced: three cards reach the hand all the same.
    assert state.decisions.asked.kind == K_MAIN and hand_names(state, 0) == {"mace": 1, "dodge": 1, "sneak": 1}
    assert card("temple_guardian") in state.zones[DISCARD_PILE].cards


def test_the_defender_picks_which_hero_the_guardian_attacks() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], draw_top=["temple_guardian", "mace", "mace", "mace"],
                  heroes=[(2, 2, 2, 2), (1, 2, 0, 2)], start_turn=True)
    _defend(state, "fighter")
    assert state.current_player == 1 and state.decisions.asked.kind == K_GUARDIAN_DEFEND
    assert sorted(state.legal_actions()) == [hero("cleric"), hero("fighter"), hero("wizard")]  # living Heroes only


def test_a_guardian_attack_can_be_countered_by_dodge_parry_or_an_attack_card() -> None:
    for counter in ("dodge", "parry", "sword"):
        state = build([NEUTRAL, NEUTRAL], [13, 16], [[], [counter]],
                      draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
        _defend(state, "cleric")
        _defend(state, "wizard")
        assert state.decisions.asked.kind == K_COUNTER and state.current_player == 1  # out of turn
        act(state, position_of(state, 1, counter))
        assert state.statuses(1) == [FULL] * 4 and state.hand(1) == []
        assert state.stats.get(1, 4, card(counter)) == 1  # played as a counter
        assert state.stats.get(0, 3, card("temple_guardian")) == 1  # the drawer's Guardian was countered


def test_a_wounded_hero_cannot_be_defended_with_a_counter() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [[], ["dodge"]], heroes=[(2, 2, 2, 2), (1, 2, 2, 2)],
                  draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    _defend(state, "cleric")
    _defend(state, "cleric")  # the Wounded Cleric: no counter is offered
    assert state.status(1, hero("cleric")) == 0
    assert state.decisions.asked.kind == K_MAIN and hand_names(state, 1) == {"dodge": 1}


def test_countering_a_guardian_with_hasty_retreat_also_moves_the_party_one_to_three_spaces() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [[], ["hasty_retreat"]],
                  draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    _defend(state, "cleric")
    _defend(state, "fighter")
    act(state, position_of(state, 1, "hasty_retreat"))
    assert state.decisions.asked.kind == K_RETREAT and state.current_player == 1
    distance = DEFAULT.board.distance[16]
    # Every space one to three steps away: 13, where seat 0 stands, too (it would be pushed aside).
    assert sorted(state.legal_actions()) == sorted(s for s in range(DEFAULT.board.n_spaces) if 1 <= distance[s] <= 3)
    act(state, 4)
    assert state.position(1) == 4 and state.occupant(16) == -1 and state.statuses(1) == [FULL] * 4


def test_countering_a_guardian_with_pit_trap_also_hits_every_other_party_whose_rogue_is_dead() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [13, 15, 17], [[], ["pit_trap"], []],
                  heroes=[(2, 2, 2, 2), (2, 2, 2, 2), (2, 2, 0, 2)],
                  draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    _defend(state, "cleric")  # seat 0: Wounded Cleric
    _defend(state, "fighter")
    act(state, position_of(state, 1, "pit_trap"))
    # The Pit Trap's own attack: seat 0's Rogue is alive (it fails), seat 2's is Dead (seat 2 picks a Hero).
    assert state.current_player == 2
    act(state, hero("wizard"))
    assert state.status(2, hero("wizard")) == WOUNDED
    _defend(state, "fighter")  # then the Guardian reaches seat 2
    assert state.statuses(0) == [WOUNDED, FULL, FULL, FULL]


def test_countering_a_guardian_with_fireball_hurts_no_other_party() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [13, 15, 14], [[], ["fireball"], []],
                  draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    _defend(state, "cleric")
    _defend(state, "fighter")
    act(state, position_of(state, 1, "fireball"))
    assert state.current_player == 2 and state.decisions.asked.kind == K_GUARDIAN_DEFEND  # no splash attack on seat 2
    _defend(state, "rogue")
    assert state.statuses(1) == [FULL] * 4 and state.statuses(2) == [FULL, FULL, WOUNDED, FULL]


def test_a_party_cannot_counter_with_an_attack_card_of_a_dead_class() -> None:
    state = build([NEUTRAL, "dread_legion"], [13, 16], [[], ["fireball"]], heroes=[(2, 2, 2, 2), (2, 2, 2, 0)],
                  draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    _defend(state, "cleric")
    _defend(state, "cleric")
    assert state.decisions.asked.kind == K_COUNTER  # Dread Legion may: its Class cards work with the Wizard Dead
    nobody = build([NEUTRAL, NEUTRAL], [13, 16], [[], ["fireball"]], heroes=[(2, 2, 2, 2), (2, 2, 2, 0)],
                   draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    _defend(nobody, "cleric")
    _defend(nobody, "cleric")
    assert nobody.decisions.asked.kind == K_MAIN and nobody.status(1, hero("cleric")) == WOUNDED


def test_at_most_one_move_one_attack_and_one_bonus_action_in_any_order() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 16], [["healing_potion", "bow", "teleport", "sneak", "chaos_magic"], []],
                  heroes=[(1, 2, 2, 2), (2, 2, 2, 2)], points=[0, 3])
    legal = state.legal_actions()
    assert DRAW_CARD in legal and any(MOVE.matches(a) for a in legal)
    assert PLAY.encode(position_of(state, 0, "chaos_magic")) in legal  # a Bonus card, playable so far
    play(state, "healing_potion")  # the Bonus Action first
    act(state, hero("cleric"))
    assert PLAY.encode(position_of(state, 0, "chaos_magic")) not in state.legal_actions()  # no second Bonus Action
    act(state, MOVE.encode(7))  # then the Move Action
    legal = state.legal_actions()
    assert not any(MOVE.matches(a) for a in legal)
    assert PLAY.encode(position_of(state, 0, "teleport")) not in legal  # a Move card needs the Move Action
    assert PLAY.encode(position_of(state, 0, "sneak")) not in legal
    play(state, "bow")  # then the Attack Action
    act(state, 1)
    act(state, hero("wizard"))
    legal = state.legal_actions()
    assert DRAW_CARD not in legal and list(legal) == [END_TURN]


def test_moving_without_a_card_goes_up_to_two_spaces() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16])
    moves = {MOVE.value(a) for a in state.legal_actions() if MOVE.matches(a)}
    assert moves == {7, 14, 18, 1, 8, 12, 15, 17}  # one or two links away; the Altar is three
    act(state, MOVE.encode(1))
    assert state.position(0) == 1 and state.occupant(13) == -1 and state.occupant(1) == 0


def test_moving_onto_an_occupied_space_pushes_that_party_to_an_empty_adjacent_space_of_the_movers_choice() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [7, 1, 2])
    act(state, MOVE.encode(1))
    assert state.decisions.asked.kind == K_PUSH and state.current_player == 0
    assert sorted(state.legal_actions()) == [0, 6, 7]  # 2 is taken; 7 is the space the mover vacates
    act(state, 7)
    assert all_positions(state)[:2] == [1, 7] and state.occupant(1) == 0 and state.occupant(7) == 1


def test_passing_through_an_occupied_space_does_not_move_that_party() -> None:
    state = build([NEUTRAL, NEUTRAL], [7, 1])
    act(state, MOVE.encode(0))  # through space 1
    assert all_positions(state) == [0, 1]


def test_drawing_a_card_is_an_attack_action_and_a_guardian_drawn_so_is_resolved_and_replaced() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["sneak"], []], draw_top=["temple_guardian", "dodge"])
    act(state, DRAW_CARD)
    assert state.decisions.asked.kind == K_GUARDIAN_DEFEND
    _defend(state, "rogue")
    _defend(state, "rogue")
    assert hand_names(state, 0) == {"sneak": 1, "dodge": 1}
    assert DRAW_CARD not in state.legal_actions()


def test_picking_up_the_ring_on_your_space_is_a_bonus_action_worth_a_point() -> None:
    state = build([NEUTRAL, NEUTRAL], [0, 16], [["chaos_magic"], []], points=[0, 2])
    assert PICK_UP_RING in state.legal_actions()
    act(state, PICK_UP_RING)
    assert state.numbers[RING_HOLDER] == 0 and state.numbers[RING_SPACE] == -1 and state.points(0) == 1
    assert PLAY.encode(0) not in state.legal_actions()  # the Bonus Action is used: no Chaos Magic


def test_the_ring_can_be_picked_up_only_on_its_space() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 16])
    assert PICK_UP_RING not in state.legal_actions()


def test_stealing_the_ring_from_an_adjacent_wearer_is_a_bonus_action_worth_a_point() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 15], ring_holder=1, points=[3, 5, 0])
    assert STEAL_RING in state.legal_actions()
    act(state, STEAL_RING)
    assert state.numbers[RING_HOLDER] == 0 and state.scores()[:2] == [4, 5]
    far = build([NEUTRAL, NEUTRAL], [1, 15], ring_holder=1)
    assert STEAL_RING not in far.legal_actions()


def test_wearing_the_ring_when_the_turn_begins_gives_three_points() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 15], ring_holder=0, points=[4, 0], draw_top=["mace"] * 3,
                  start_turn=True)
    assert state.scores() == [7, 0]


def test_at_the_end_of_the_turn_the_player_discards_down_to_five_cards() -> None:
    hand = ["mace", "dodge", "parry", "sneak", "bow", "staff", "dagger"]
    state = build([NEUTRAL, NEUTRAL], [13, 16], [hand, []], draw_top=["sword"] * 3)
    assert len(state.hand(0)) == 7  # more than five is fine during the turn
    act(state, END_TURN)
    assert state.decisions.asked.kind == K_DISCARD_EXCESS and state.current_player == 0
    act(state, position_of(state, 0, "dagger"))
    act(state, position_of(state, 0, "staff"))
    assert len(state.hand(0)) == 5 and state.numbers[ACTIVE] == 1
    assert card("dagger") in state.zones[DISCARD_PILE].cards and card("staff") in state.zones[DISCARD_PILE].cards


def test_turns_pass_clockwise_and_skip_eliminated_parties() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [13, 15, 17],
                  draw_top=["mace", "mace", "sneak", "sneak", "dodge", "dodge"])
    state.set_seat_number(1, ALIVE, 0)
    state.numbers[OCCUPANT + 15] = -1
    state.set_seat_number(1, POSITION, -1)
    for hero_class in range(4):
        state.set_seat_number(1, HEROES + hero_class, DEAD)
    act(state, END_TURN)
    assert state.numbers[ACTIVE] == 2 and state.current_player == 2


def test_the_counter_question_goes_to_the_targeted_player_and_back() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], ["parry"]])
    play(state, "sword")
    act(state, 1)
    act(state, hero("fighter"))
    assert state.current_player == 1 and state.decisions.asked.kind == K_COUNTER
    assert sorted(state.legal_actions()) == [0, PASS]
    act(state, PASS)
    assert state.current_player == 0 and state.decisions.asked.kind == K_MAIN


def test_perform_has_one_branch_for_every_task_kind_and_refuses_an_unknown_one() -> None:
    # perform is an if-chain (a table of functions cost ~3% of a game in the compiled
    # core): a kind registered without its branch would otherwise do nothing at all.
    source = ast.parse((Path(inspect.getfile(rules)).parent / "rules.py").read_text())
    perform = next(node for node in ast.walk(source) if isinstance(node, ast.FunctionDef) and node.name == "perform")
    branches = [node.comparators[0].id for node in ast.walk(perform) if isinstance(node, ast.Compare)
                and isinstance(node.left, ast.Name) and node.left.id == "kind"
                and isinstance(node.comparators[0], ast.Name)]
    registered = [name for name in dir(rules) if name.startswith("K_")]
    assert sorted(branches) == sorted(registered) and len(branches) == len(rules.TASKS.names)
    state = build([NEUTRAL, NEUTRAL], [13, 16])
    unknown = len(rules.TASKS.names)
    with pytest.raises(ValueError, match=f"^no rule performs task kind {unknown}$"):
        state.perform(Task(unknown, 0, 0, 0, 0), -1)


def test_a_move_may_end_on_an_occupied_space_exactly_when_that_party_has_a_space_to_be_pushed_to() -> None:
    # can_push (which can_move_to asks) against push_spaces (which lists them),
    # for every seat and space, in the positions of random games.
    compared = 0
    for state in random_game_positions(500):
        for seat in range(4):
            if state.alive(seat) and state.position(seat) >= 0:
                for space in range(DEFAULT.board.n_spaces):
                    assert state.can_push(seat, space) == bool(state.push_spaces(seat, space))
                    compared += 1
    assert compared > 10_000


def test_whether_a_party_has_a_hero_of_a_status_is_read_from_its_four_heroes() -> None:
    # has_hero_at (asked by Healing Potion, Resurrection, Necromancy) against the statuses list.
    compared = 0
    for state in random_game_positions(900):
        for seat in range(4):
            for status in (rules.DEAD, rules.WOUNDED, rules.FULL):
                assert state.has_hero_at(seat, status) == (status in state.statuses(seat))
                compared += 1
    assert compared > 10_000


def test_the_main_menu_offers_each_card_type_once_at_its_first_place_in_the_hand() -> None:
    # "Same cards are the same choice": main_choices keeps the card types seen in a bit mask.
    menus = offered = with_copies = 0
    for state in random_game_positions(2100):
        if state.is_terminal() or state.decisions.asked.kind != K_MAIN:
            continue
        hand = state.hand(state.current_player)
        positions = [PLAY.value(action) for action in state.legal_actions() if PLAY.matches(action)]
        assert positions == sorted(positions)
        assert len({hand[position] for position in positions}) == len(positions)
        assert all(hand.index(hand[position]) == position for position in positions)
        menus += 1
        offered += len(positions)
        with_copies += len(hand) > len(set(hand))
    assert menus > 500 and offered > menus and with_copies > 100
