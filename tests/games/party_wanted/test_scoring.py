"""Outcome and dataset columns: a shared result, composition, level reached,
final enemy, boss kills per level, deaths; card counters."""

from __future__ import annotations

from simcore.api import CardColumns
from simcore.games.party_wanted.rules import INFO

from .helpers import bury_for, cid, done, fight, party, play, set_enemy, set_hand


def test_everyone_shares_rank_one_and_the_bosses_killed_as_score() -> None:
    state = party("fighter,wizard")
    state.bosses_killed = 2
    assert state.ranks() == [1, 1] and state.scores() == [2, 2]
    assert state.returns() == [0.0, 0.0] and state.winners() == []


def test_the_games_columns_describe_the_run() -> None:
    state = party("wizard,fighter")
    state.boss_kills = [1, 1, 0, 0]
    state.level = 3
    state._kill_hero(1)
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
    assert state.counters[0][2][cid("fighter_strike")] == 1
