"""Over a few thousand heuristic games every card is played where it is legal,
and the heuristic never throws reinforcements into a round it cannot win."""

from __future__ import annotations

from collections import Counter

from simcore.agents import parse_agent_spec
from simcore.api import CardColumns
from simcore.games.divvy import GAME
from simcore.games.divvy.rules import REINFORCE, DivvyState, split_by_mask
from simcore.play import play_game
from simcore.seeding import make_rng

from .helpers import DEFAULT

GAMES = 2000


def test_every_card_is_played_in_some_games_where_it_is_playable() -> None:
    heuristic = parse_agent_spec("heuristic")
    playable: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for seed in range(GAMES):
        state = play_game(GAME, DEFAULT, 2, seed, [heuristic, heuristic]).state
        columns = CardColumns(len(GAME.info.card_counters))
        state.add_card_rows(columns)
        counters = dict(zip(GAME.info.card_counters, columns.counters, strict=True))
        for row, card in enumerate(columns.card):
            name = columns.names[card]
            playable[name] += counters["playable"][row]
            played[name] += counters["played"][row]
    assert set(playable) == set(DEFAULT.names)
    never_played = [name for name in DEFAULT.names if played[name] == 0]
    assert never_played == []
    # Every card is played at one in five of the steps that offer it, or more
    # (measured: 35% for the least played, 66% for the most).
    assert min(played[name] / playable[name] for name in DEFAULT.names) > 0.2


def test_it_never_sends_reinforcements_into_a_round_it_cannot_win_or_tie() -> None:
    config, values = DEFAULT, DEFAULT.values
    sent = withheld = 0
    for seed in range(300):
        state = DivvyState.new_game(config, seed, None)
        agents = [GAME.heuristic_agent(seat, make_rng(seat)) for seat in (0, 1)]
        while not state.is_terminal():
            seat, legal = state.current_player, state.legal_actions()
            action = agents[seat].choose(state, legal)
            if state.phase == REINFORCE and len(legal) > 1:
                chosen, _ = split_by_mask(state.hand(seat), action)
                everything, _ = split_by_mask(state.hand(seat), legal[-1])
                best_reachable = values[state.lead_card(seat)] + sum(values[card] for card in everything)
                if chosen:
                    sent += 1
                    assert best_reachable >= values[state.lead_card(1 - seat)]
                elif best_reachable < values[state.lead_card(1 - seat)]:
                    withheld += 1
            state.apply(action)
    assert sent > 100 and withheld > 10
