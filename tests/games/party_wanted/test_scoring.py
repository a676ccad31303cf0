"""Outcome and dataset columns: a shared result, composition, level reached,
final enemy, boss kills per level, deaths; card counters."""

from __future__ import annotations

from simcore.api import CardColumns
from simcore.games.party_wanted.config import WEAPON
from simcore.games.party_wanted.rules import BOSS_KILLS, BOSSES_KILLED, INFO, ITEMS_HELD, LEVEL, PartyState

from .helpers import (
    DEFAULT,
    bury_for,
    cid,
    counter,
    done,
    fight,
    party,
    play,
    reask,
    sacrifice,
    set_enemy,
    set_hand,
    set_number,
    set_zone,
    use_item,
)


def test_everyone_shares_rank_one_and_the_bosses_killed_as_score() -> None:
    state = party("fighter,wizard")
    set_number(state, BOSSES_KILLED, 2)
    assert state.ranks() == [1, 1] and state.scores() == [2, 2]
    assert state.returns() == [0.0, 0.0] and state.winners() == []


def test_the_games_columns_describe_the_run() -> None:
    state = party("wizard,fighter")
    state.numbers[BOSS_KILLS] = state.numbers[BOSS_KILLS + 1] = 1
    state.numbers[BOSS_KILLS + 2] = state.numbers[BOSS_KILLS + 3] = 0
    set_number(state, LEVEL, 3)
    state._kill_hero(1)
    reask(state)
    columns = state.game_columns()
    assert set(columns) == set(INFO.game_columns)
    assert columns["composition"] == "fighter,wizard" and columns["level_reached"] == 3
    assert columns["boss_kills_level_1"] == 1 and columns["boss_kills_level_3"] == 0
    assert columns["heroes_dead"] == 1 and columns["hero_deaths"] == 1


def test_card_rows_count_drawn_played_and_buried_for_plus_one() -> None:
    state = party("fighter")
    set_hand(state, 0, ["fighter_strike", "fighter_guard", "fighter_cleave"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    play(state, "fighter_strike")
    bury_for(state, "fighter_guard", hero=0)
    done(state)
    columns = CardColumns(len(INFO.card_counters))
    state.add_card_rows(columns)
    rows = {columns.names[card]: [counter[i] for counter in columns.counters] for i, card in enumerate(columns.card)}
    assert rows["fighter_strike"][2] == 1 and rows["fighter_guard"][3] == 1
    assert all(row[1] >= row[0] for row in rows.values())  # the opening hand counts as drawn
    assert state.stats.get(0, 2, cid("fighter_strike")) == 1


def test_playable_counts_each_card_once_per_step_at_which_a_legal_action_plays_it() -> None:
    state = party("fighter")
    set_hand(state, 0, ["fighter_strike", "fighter_strike", "fighter_guard"])
    set_zone(state, 0, ITEMS_HELD, ["bomb", "bomb"])  # two copies of an item: one card
    fight(state, ["goblin", "wolf"])  # two enemies: each card has a target per enemy
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    set_enemy(state, 1, attack=0, defense=99, speed=0, hp=5)
    state.note_offered(state.legal_actions())
    playable = counter(state, 0, 4)
    assert {name: playable[cid(name)] for name in ("fighter_strike", "fighter_guard", "bomb")} == {
        "fighter_strike": 1, "fighter_guard": 1, "bomb": 1}
    assert sum(playable) == 3  # burying a card for +1 is not a play of it


def test_played_counts_items_used_and_equipment_sacrificed_and_their_rows_are_written() -> None:
    state = party("fighter")
    state._equip(0, WEAPON)
    reask(state)
    weapon = state.weapon(0)
    set_zone(state, 0, ITEMS_HELD, ["bomb"])
    set_hand(state, 0, ["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    state.note_offered(state.legal_actions())
    use_item(state, 0)
    state.note_offered(state.legal_actions())
    sacrifice(state, 0)
    columns = CardColumns(len(INFO.card_counters))
    state.add_card_rows(columns)
    rows = {columns.names[card]: dict(zip(INFO.card_counters, (counter[i] for counter in columns.counters),
                                          strict=True))
            for i, card in enumerate(columns.card)}
    assert rows["bomb"]["played"] == 1 and rows["bomb"]["playable"] == 1
    assert rows[state.config.names[weapon]]["played"] == 1 and rows[state.config.names[weapon]]["playable"] == 2
    assert INFO.card_counters[-1] == "playable"


def test_in_real_games_no_card_is_played_more_often_than_it_was_playable() -> None:
    from simcore.agents import parse_agent_spec
    from simcore.games.party_wanted import GAME
    from simcore.play import play_game


    checked = 0
    for seed in range(12):
        n_players = 1 + seed % 4
        for agent in ("random", "heuristic"):
            state = play_game(GAME, DEFAULT, n_players, seed, [parse_agent_spec(agent)] * n_players).state
            assert isinstance(state, PartyState)
            for seat in range(n_players):
                played, playable = counter(state, seat, 2), counter(state, seat, 4)
                assert all(p <= q for p, q in zip(played, playable, strict=True))
                checked += sum(played)
    assert checked > 100


def test_the_playable_cards_noted_with_the_answers_are_those_the_answers_play() -> None:
    """``note_offered`` of the list asked reads the cards noted as its answers were built;
    of a copy it reads the answers themselves: the same counts, game after game."""
    from simcore.agents import parse_agent_spec
    from simcore.agents.registry import make_agent
    from simcore.games.party_wanted import GAME

    steps = 0
    for seed in range(8):
        n_players = 1 + seed % 4
        noted = GAME.new_state(DEFAULT, n_players, seed, None)
        read = GAME.new_state(DEFAULT, n_players, seed, None)
        assert isinstance(noted, PartyState) and isinstance(read, PartyState)
        agent = parse_agent_spec("random" if seed % 2 else "heuristic")
        agents = [make_agent(agent, GAME, seat, seed * 8 + seat) for seat in range(n_players)]
        while not noted.is_terminal():
            actions = noted.legal_actions()
            noted.note_offered(actions)
            read.note_offered(list(actions))
            action = agents[noted.current_player].choose(noted, actions) if len(actions) > 1 else actions[0]
            noted.apply(action)
            read.apply(action)
            steps += 1
        for seat in range(n_players):
            assert counter(noted, seat, 4) == counter(read, seat, 4)
    assert steps > 500
