"""The heuristic agent does what agents.py documents, in hand-made positions (Sanctum map)."""

from __future__ import annotations

from collections import Counter

from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import RingConfig
from simcore.games.ring_of_chaos.rules import (
    DEFENDERS_POWER,
    DRAW_CARD,
    FULL,
    K_DRAFT,
    K_LEADERSHIP,
    K_SACRIFICE,
    K_SPACE,
    MOVE,
    PASS,
    PICK_UP_RING,
    PLAY,
    PLAY_AS_RANGED,
    STEAL_CARD,
    STEAL_RING,
    USED_ATTACK,
    USED_BONUS,
    USED_MOVE,
    WOUNDED,
    RingState,
)
from simcore.rng import Generator
from simcore.seeding import make_rng
from tests import gamekit

from .helpers import DEFAULT, act, all_parties, build, card, configured, hand_names, hero, play, position_of

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
        while state.decisions.asked.kind == K_DRAFT:
            state.apply(agents[state.current_player].choose(state, state.legal_actions()))
        chosen.update(DEFAULT.party_keys[party] for party in all_parties(state))
    assert len(chosen) == 7 and min(chosen.values()) > 10


def test_it_picks_up_the_ring_first() -> None:
    state = build([NEUTRAL, NEUTRAL], [0, 16], [["sword", "healing_potion"], []], heroes=[(1, 2, 2, 2), (2, 2, 2, 2)])
    assert _choice(state) == PICK_UP_RING


def test_it_steals_the_ring_from_an_adjacent_wearer() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], []], ring_holder=1)
    assert _choice(state) == STEAL_RING


def test_it_takes_the_ring_with_dominance_or_mind_control_from_a_distant_wearer() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["bow", "mind_control"], []], ring_holder=1)
    assert _choice(state) == PLAY.encode(position_of(state, 0, "mind_control"))


def test_it_heals_a_wounded_hero_before_attacking() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["bow", "healing_potion"], []], heroes=[(1, 2, 2, 2), (2, 2, 2, 2)])
    assert _choice(state) == PLAY.encode(position_of(state, 0, "healing_potion"))


def test_it_attacks_the_ring_wearer_and_a_wounded_hero_of_it() -> None:
    state = build([NEUTRAL] * 3, [13, 16, 15], [["bow"], [], []], ring_holder=2, heroes=[(2, 2, 2, 2)] * 2
                  + [(2, 2, 1, 2)], points=[0, 5, 1])
    assert _choice(state) == PLAY.encode(position_of(state, 0, "bow"))
    play(state, "bow")
    assert _choice(state) == 2  # the wearer, not the points leader
    act(state, 2)
    assert _choice(state) == hero("rogue")  # the Wounded Hero


def test_it_moves_toward_the_ring_lying_on_the_altar() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [[], []])
    assert _choice(state) == MOVE.encode(1)  # two steps up the stairs toward the Altar


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
    state.numbers[USED_MOVE] = state.numbers[USED_ATTACK] = state.numbers[USED_BONUS] = True
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
    assert gamekit.share_won(GAME, DEFAULT, 4, range(60)) > 0.8  # one heuristic seat among three random ones


def test_it_plays_pit_trap_only_when_another_partys_rogue_is_dead() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["pit_trap"], []])
    assert _choice(state) != PLAY.encode(position_of(state, 0, "pit_trap"))
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["pit_trap"], []], heroes=[(2, 2, 2, 2), (2, 2, 0, 2)])
    assert _choice(state) == PLAY.encode(position_of(state, 0, "pit_trap"))


def _spent(state: RingState, move: bool = False, attack: bool = False, bonus: bool = False) -> RingState:
    """The same main-menu position with some of the turn's Actions already taken."""
    state.numbers[USED_MOVE], state.numbers[USED_ATTACK], state.numbers[USED_BONUS] = int(move), int(attack), int(bonus)
    state.decisions.choices = state.main_choices(state.current_player)
    return state


def _plays(state: RingState, name: str) -> int:
    """The main-menu answer that plays ``name`` from the current player's hand."""
    return PLAY.encode(position_of(state, state.current_player, name))


def test_it_brings_a_distant_wearer_next_to_itself_with_leadership_and_then_steals_the_ring() -> None:
    state = build([NEUTRAL] * 3, [13, 16, 4], [["leadership"], [], []], ring_holder=1)
    assert _choice(state) == _plays(state, "leadership")
    play(state, "leadership")
    assert state.decisions.asked.kind == K_LEADERSHIP and state.decisions.asked.a == 1
    act(state, _choice(state))
    assert DEFAULT.board.distance[13][state.position(1)] == 1  # the wearer now stands next to seat 0
    act(state, _choice(state))
    assert DEFAULT.board.distance[13][state.position(2)] >= 3  # the other party far from us
    assert _choice(state) == STEAL_RING


def test_it_plays_necromancy_only_when_no_adjacent_rival_raises_a_hero_too() -> None:
    heroes = [(2, 0, 2, 2), (2, 0, 2, 2)]
    state = build([NEUTRAL, NEUTRAL], [1, 16], [["necromancy"], []], heroes=heroes)
    assert _choice(state) == _plays(state, "necromancy")
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["necromancy"], []], heroes=heroes)
    assert _choice(state) != _plays(state, "necromancy")


def test_it_uses_the_defenders_power_paying_with_its_two_cheapest_cards_and_raises_a_dead_hero() -> None:
    state = build(["defenders_of_the_faith", NEUTRAL], [13, 16], [["sword", "bow", "dodge"], []],
                  heroes=[(2, 0, 2, 2), (2, 2, 2, 2)])
    assert _choice(state) == DEFENDERS_POWER
    for _ in range(4):  # the power, the Hero, two discards
        act(state, _choice(state))
    assert state.status(0, hero("fighter")) == WOUNDED and hand_names(state, 0) == {"dodge": 1}
    dear = build(["defenders_of_the_faith", NEUTRAL], [13, 16], [["dominance", "healing_potion"], []],
                 heroes=[(2, 0, 2, 2), (2, 2, 2, 2)])
    assert _choice(dear) != DEFENDERS_POWER  # too valuable to pay with


def test_it_pays_for_the_defenders_power_with_as_many_cards_as_the_power_asks() -> None:
    def wounded_rogue(config: RingConfig) -> RingState:
        return build(["defenders_of_the_faith", NEUTRAL], [13, 16], [["sword", "dominance"], []],
                     heroes=[(2, 2, 1, 2), (2, 2, 2, 2)], config=config)

    assert _choice(wounded_rogue(DEFAULT)) != DEFENDERS_POWER  # two cards: the Dominance is too dear
    cheaper = wounded_rogue(configured({"powers.defenders_of_the_faith.cards_to_discard": 1}))
    assert _choice(cheaper) == DEFENDERS_POWER  # one card: the Sword pays, the Dominance stays
    for _ in range(3):  # the power, the Hero, one discard
        act(cheaper, _choice(cheaper))
    assert cheaper.status(0, hero("rogue")) == FULL and hand_names(cheaper, 0) == {"dominance": 1}


def test_it_plays_earthquake_only_when_its_party_keeps_every_hero_and_a_rival_loses_one() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["earthquake"], []], heroes=[(2, 2, 2, 2), (1, 1, 1, 0)])
    assert _choice(state) == _plays(state, "earthquake")
    shaky = build([NEUTRAL, NEUTRAL], [13, 16], [["earthquake"], []], heroes=[(1, 1, 1, 1), (1, 1, 1, 0)])
    assert _choice(shaky) != _plays(shaky, "earthquake")  # one of our Heroes would die
    sturdy = build([NEUTRAL, NEUTRAL], [13, 16], [["earthquake"], []], heroes=[(2, 2, 2, 2), (2, 1, 1, 0)])
    assert _choice(sturdy) != _plays(sturdy, "earthquake")  # every rival would just be Wounded


def test_it_bullies_its_way_next_to_the_ring_wearer_and_attacks_it() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 3], [["bully"], []], ring_holder=1)
    assert _choice(state) == _plays(state, "bully")
    play(state, "bully")
    space = _choice(state)
    assert DEFAULT.board.distance[space][3] == 1
    act(state, space)
    assert _choice(state) == 1


def test_it_teleports_onto_the_ring_when_walking_falls_short() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 4], [["teleport"], []], ring_space=16)
    assert _choice(state) == _plays(state, "teleport")
    play(state, "teleport")
    assert state.decisions.asked.kind == K_SPACE and _choice(state) == 16
    act(state, 16)
    assert _choice(state) == PICK_UP_RING
    near = build([NEUTRAL, NEUTRAL], [13, 4], [["teleport"], []])  # walking reaches the Altar's ring as well
    assert _choice(near) != _plays(near, "teleport")


def test_it_sneaks_into_the_place_of_a_party_standing_next_to_the_ring_wearer() -> None:
    state = build([NEUTRAL] * 3, [17, 2, 3], [["sneak"], [], []], ring_holder=2)
    assert _choice(state) == _plays(state, "sneak")
    play(state, "sneak")
    assert _choice(state) == 1


def test_as_the_wearer_it_walks_or_teleports_away_from_the_others_or_scatters_them_with_leadership() -> None:
    state = build([NEUTRAL, NEUTRAL], [0, 1], [[], []], ring_holder=0)
    action = _choice(state)
    assert MOVE.matches(action) and DEFAULT.board.distance[MOVE.value(action)][1] == 3
    state = build([NEUTRAL, NEUTRAL], [0, 1], [["teleport"], []], ring_holder=0)
    assert _choice(state) == _plays(state, "teleport")
    play(state, "teleport")
    assert DEFAULT.board.distance[_choice(state)][1] == max(DEFAULT.board.distance[1])
    state = build([NEUTRAL, NEUTRAL], [0, 1], [["leadership", "teleport"], []], ring_holder=0)
    assert _choice(state) == _plays(state, "leadership")
    play(state, "leadership")
    assert DEFAULT.board.distance[0][_choice(state)] == max(DEFAULT.board.distance[0])


def test_it_plays_poison_tithe_pickpocket_and_scavenge_with_actions_that_would_go_unused() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["poison"], ["dodge"]])
    assert MOVE.matches(_choice(state))  # first toward the Ring
    assert _choice(_spent(state, move=True)) == _plays(state, "poison")
    state = build([NEUTRAL, NEUTRAL], [13, 4], [["tithe"], ["dodge"]], ring_holder=0)  # nobody within reach
    assert _choice(state) == _plays(state, "tithe")
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["pickpocket"], ["dodge"]], ring_holder=1)
    _spent(state, bonus=True)  # the Ring cannot be stolen this turn; the Move Action has nothing better to do
    assert _choice(state) == _plays(state, "pickpocket")
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["scavenge"], []], ring_holder=1, discard=["dominance", "sword"])
    assert _choice(_spent(state, bonus=True)) == _plays(state, "scavenge")
    play(state, "scavenge")
    assert _choice(state) == card("dominance")
    cheap = build([NEUTRAL, NEUTRAL], [1, 2], [["scavenge"], []], ring_holder=1, discard=["sword", "temple_guardian"])
    assert _choice(_spent(cheap, bonus=True)) != _plays(cheap, "scavenge")


def test_den_of_thieves_take_from_the_fullest_hand_instead_of_drawing() -> None:
    state = build(["den_of_thieves", NEUTRAL, NEUTRAL], [13, 15, 17], [[], ["dodge"], ["bow", "mace"]])
    assert _choice(_spent(state, move=True, bonus=True)) == STEAL_CARD.encode(2)


def test_death_from_above_shoots_its_cheapest_attack_card_at_a_distant_wearer() -> None:
    state = build(["death_from_above", NEUTRAL], [1, 16], [["mace", "sword"], []],
                  heroes=[(0, 2, 2, 2), (2, 2, 2, 2)], ring_holder=1)
    # The Dead Cleric's Mace cannot be played (rules.death_from_above_dead_classes is false); the Sword can.
    assert _choice(state) == PLAY_AS_RANGED.encode(position_of(state, 0, "sword"))
    state = build(["death_from_above", NEUTRAL], [1, 16], [["sword"], []], ring_holder=1)
    assert _choice(state) == PLAY_AS_RANGED.encode(position_of(state, 0, "sword"))


def test_it_never_makes_a_heroic_sacrifice_that_would_eliminate_its_party() -> None:
    for heroes, expected in (((0, 1, 0, 0), "pass"), ((0, 1, 1, 0), "sacrifice"), ((0, 2, 0, 0), "sacrifice")):
        state = build([NEUTRAL, NEUTRAL], [1, 2], [[], ["heroic_sacrifice"]], ring_holder=1,
                      heroes=[(2, 2, 2, 2), heroes])
        act(state, STEAL_RING)
        assert state.decisions.asked.kind == K_SACRIFICE
        assert (_choice(state) == PASS) == (expected == "pass"), heroes


def test_when_any_player_may_sacrifice_it_stops_only_a_taker_that_would_then_win() -> None:
    config = configured({"rules.heroic_sacrifice_any_player": True})
    for taker_points, expected in ((7, "sacrifice"), (6, "pass")):
        state = build([NEUTRAL] * 3, [1, 2, 15], [[], [], ["heroic_sacrifice"]], ring_holder=1,
                      points=[taker_points, 5, 0], config=config)
        act(state, STEAL_RING)
        assert state.decisions.asked.kind == K_SACRIFICE and state.current_player == 2
        assert (_choice(state) == PASS) == (expected == "pass")


def test_it_never_counters_a_guardian_with_heroic_sacrifice_and_plays_no_chaos_magic_at_ten_points() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [[], ["heroic_sacrifice"]],
                  draw_top=["temple_guardian", "mace", "mace", "mace"], start_turn=True)
    act(state, hero("cleric"))
    act(state, hero("wizard"))
    assert position_of(state, 1, "heroic_sacrifice") in state.legal_actions() and _choice(state) == PASS
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["chaos_magic"], []], points=[10, 3])
    assert _choice(_spent(state, move=True)) == DRAW_CARD
    state.set_points(0, 9)
    assert _choice(state) == _plays(state, "chaos_magic")
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["chaos_magic"], []], points=[10, 3],
                  config=configured({"rules.chaos_magic_at_ten_costs_victim": True}))
    assert _choice(_spent(state, move=True)) == _plays(state, "chaos_magic")  # then it costs the victim a point
    assert state.statuses(0) == [FULL] * 4
