"""The party heuristic: kill with as few cards as possible, protect the hero
in danger, and win clearly more often than random play."""

from __future__ import annotations

from simcore.agents import parse_agent_spec
from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.agents import PartyHeuristicAgent, card_worth
from simcore.games.party_wanted.rules import ADD, BURY, DONE, END_VICTORY, T_ADD, PartyState
from simcore.play import play_game
from simcore.rng import Generator

from .helpers import DEFAULT, act, cid, fight, named, party, set_enemy, set_hand


def _choice(state: PartyState) -> int:
    agent = PartyHeuristicAgent(state.current_player, Generator(0))
    return agent.choose(state, state.legal_actions())


STEADY = {"heroes.fighter.attack": [4, 4, 4, 4], "heroes.fighter.defense": [10, 10, 10, 10]}


def test_it_plays_the_cheapest_card_that_closes_the_gap_to_the_enemy_defense() -> None:
    state = party("fighter", overrides=STEADY)
    set_hand(state, 0, ["fighter_power_strike", "fighter_strike", "fighter_heavy_blow"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=6, speed=0, hp=5)  # gap 2: the +2 strike is enough
    assert state.describe_action(_choice(state)) == "play fighter_strike against goblin"


def test_it_plays_nothing_when_the_hero_already_hits_and_is_safe() -> None:
    state = party("fighter", overrides=STEADY)
    set_hand(state, 0, ["fighter_strike", "fighter_guard"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=5, defense=3, speed=0, hp=5)
    assert _choice(state) == DONE


def test_it_leaves_a_gap_alone_that_its_cards_cannot_close() -> None:
    state = party("fighter", overrides=STEADY)
    set_hand(state, 0, ["fighter_strike", "fighter_guard"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=20, speed=0, hp=5)
    assert _choice(state) == DONE


def test_it_protects_the_hero_in_danger_first() -> None:
    state = party("fighter,healer", overrides=STEADY)
    set_hand(state, 0, ["fighter_strike", "fighter_cover"])
    set_hand(state, 1, ["healer_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=state.hero_defense(1, 0) + 4, defense=6, speed=9, hp=5)
    state.hp[1] = 3  # the healer would die
    action = _choice(state)
    assert state.describe_action(action) == "play fighter_cover on seat 1 against goblin"
    act(state, action)
    assert state.incoming_damage(1) < state.hp[1]


def test_outside_combat_it_buries_the_least_and_adds_the_most_valuable_card() -> None:
    state = party("fighter")
    set_hand(state, 0, ["fighter_strike", "fighter_power_strike"])
    state.tiers[state.tier][0] = cid("quiet_glade")
    act(state, 0)
    assert state.phase == BURY
    buried = named([state.hands[0][_choice(state)]])[0]
    worths = {name: card_worth(DEFAULT, cid(name)) for name in named(state.hands[0])}
    assert worths[buried] == min(worths.values())
    state.tasks = [(T_ADD, 0, 1, 0)]
    state.phase = -1
    state._run()
    assert state.phase == ADD
    added = _choice(state)
    assert card_worth(DEFAULT, added) == max(card_worth(DEFAULT, card) for card in state.legal_actions())


def test_the_heuristic_party_wins_clearly_more_often_than_random_play() -> None:
    wins = {"heuristic": 0, "random": 0}
    for agent in wins:
        for seed in range(48):
            n_players = 1 + seed % 8
            played = play_game(GAME, DEFAULT, n_players, seed, [parse_agent_spec(agent)] * n_players)
            wins[agent] += played.state.end_reason() == END_VICTORY
    assert wins["heuristic"] >= 12 and wins["heuristic"] >= 4 * max(1, wins["random"])
