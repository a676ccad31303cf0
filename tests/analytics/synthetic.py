"""Synthetic results with known true win probabilities, for checking intervals.

``competitive`` and ``cooperative`` generate many replicate experiments
(``rep-0000``, ``rep-0001``...) of a made-up game straight into DuckDB
tables shaped like cardlab's ``games``, ``players`` and ``cards``, with the
metric views of ``analytics.views`` on top, and return the exact values the
rates estimate (worked out by enumerating every seat arrangement, not by
simulation), so a test can count how often each 95% interval covers its
truth.

*Competitive* (4 players, exactly one winner or a draw): two seats of a
strong agent and two of a weak one, placed at random; four of six factions
drawn without replacement; the winner is drawn with probability
proportional to seat bias × agent strength × faction strength, after a 5%
chance of a draw. Seat-games of one game are linked (one winner), and an
agent holds two seats of each game.

*Cooperative* (3 heroes, one shared outcome): classes drawn with
replacement (a class may appear twice), the party wins with probability
``logistic(base + Σ class effects)``; two heroes are played by one agent and
one by another.

Cards, in both: a seat holds card ``k`` with probability ``held_if_won[k]``
when it won the game and ``held_if_lost[k]`` when it lost, so the card's
games-in-hand win rate of agent A is ``a·W / (a·W + b·(S − W))`` (``W``, ``S``:
A's expected wins and seat-games per game); a held card is playable with
probability ``playable[k]`` and, when playable, played with probability
``played_if_playable[k]``, whatever the outcome, so its played win rate
equals its GIH win rate. Several seats of one game hold the same card, so
card rates are clustered too.

Each experiment has a ``baseline`` and a ``buffed`` variant (one faction or
class stronger, one card more often held by winners). With ``paired=True``
both variants are played on the same seeds: same seat arrangement and the
same random numbers, so the paired tests of ``variant_deltas`` apply.

A ``CompetitiveModel`` changes the competitive game: the agents' strengths
(a dominant agent whose rival rarely wins), self-play (one agent at every
seat), draws, ties (a second winner: the seat after the first, with
probability ``tie``), the cards, and game lengths (``short_game``: the share
of games one turn short, per variant; ``decisions_rate``: decisions are
``10 + Binomial(20, rate)``). The truths follow (``competitive_truth``):
also each agent's game-win rate (``game``), the first-seat advantage
(``first_seat``: in self-play seat 0's share of the wins minus 1/4, per
agent its win rate at seat 0 minus its win rate over its seats) and the
means (``turns``, ``decisions``, key ``""``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import duckdb
import numpy as np
import pyarrow as pa

from analytics.stats import register_sql_macros
from analytics.views import register_metric_views
from dataset.count_views import Columns, count_view_sql

VARIANTS = ("baseline", "buffed")


@dataclass
class Synthetic:
    """Replicate experiments in ``con`` and the true value of each rate.

    ``con`` has the base tables, the count views as tables and the metric
    views over them, and ``deltas``: ``variant_deltas`` computed once.

    ``truth[(family, variant, key)]``: family ``seat`` (key: seat), ``agent``
    (agent), ``faction`` (faction), ``card`` (key: (agent, card), GIH and
    played win rate), ``play`` ((agent, card): play rate of the games in
    hand), ``playable`` ((agent, card): play rate when playable), ``team``
    (key ``""``, cooperative party win rate).
    """

    con: duckdb.DuckDBPyConnection
    truth: dict[tuple[str, str, object], float] = field(default_factory=dict)
    replicates: int = 0
    games: int = 0


@dataclass(frozen=True)
class CardModel:
    """How likely each card is held by a winner and a loser, made playable, and played."""

    held_if_won: tuple[float, ...]
    held_if_lost: tuple[float, ...]
    playable: tuple[float, ...]
    played_if_playable: tuple[float, ...]

    def names(self) -> list[str]:
        """The cards' names: card_0, card_1..."""
        return [f"card_{index}" for index in range(len(self.held_if_won))]


COMPETITIVE_CARDS = {
    "baseline": CardModel(held_if_won=(0.50, 0.45, 0.40, 0.40, 0.35, 0.30, 0.30, 0.20),
                          held_if_lost=(0.30, 0.35, 0.40, 0.30, 0.35, 0.40, 0.25, 0.30),
                          playable=(1.0, 0.9, 0.8, 0.7, 0.6, 0.9, 0.5, 0.4),
                          played_if_playable=(0.9, 0.8, 0.8, 0.5, 0.6, 0.3, 0.5, 0.5)),
}
COMPETITIVE_CARDS["buffed"] = CardModel(
    held_if_won=(0.60, *COMPETITIVE_CARDS["baseline"].held_if_won[1:]),
    held_if_lost=COMPETITIVE_CARDS["baseline"].held_if_lost, playable=COMPETITIVE_CARDS["baseline"].playable,
    played_if_playable=COMPETITIVE_CARDS["baseline"].played_if_playable)

SEAT_BIAS = (1.25, 1.0, 0.95, 0.85)
AGENT_STRENGTH = {"strong": 2.0, "weak": 1.0}
FACTION_STRENGTH = {"baseline": (1.6, 1.2, 1.0, 1.0, 0.8, 0.6), "buffed": (1.6, 1.2, 1.0, 1.0, 0.8, 1.0)}
DRAW = 0.05


@dataclass(frozen=True)
class CompetitiveModel:
    """The competitive game's parameters (the defaults: the module docstring's game)."""

    agent_strength: tuple[tuple[str, float], ...] = tuple(AGENT_STRENGTH.items())
    self_play: bool = False
    seat_bias: tuple[float, ...] = SEAT_BIAS
    draw: float = DRAW
    tie: float = 0.0
    cards: tuple[tuple[str, CardModel], ...] = ()
    short_game: tuple[float, float] = (0.0, 0.0)
    decisions_rate: tuple[float, float] = (0.0, 0.0)

    def strength(self, agent: str) -> float:
        """The agent's strength (the winner is drawn in proportion to seat × agent × faction)."""
        return dict(self.agent_strength)[agent]

    def card_model(self, variant: str) -> CardModel:
        """The variant's cards (``COMPETITIVE_CARDS`` unless ``cards`` says otherwise)."""
        return dict(self.cards).get(variant, COMPETITIVE_CARDS[variant])

    def arrangements(self) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
        """Every seat arrangement of agents and factions, equally likely."""
        factions = list(itertools.permutations(range(6), 4))
        agents: list[tuple[str, ...]]
        if self.self_play:
            agents = [(self.agent_strength[0][0],) * 4]
        else:
            agents = [tuple("strong" if seat in pair else "weak" for seat in range(4))
                      for pair in itertools.combinations(range(4), 2)]
        return [(a, f) for a in agents for f in factions]


DEFAULT_MODEL = CompetitiveModel()

COOPERATIVE_CARDS = {
    "baseline": CardModel(held_if_won=(0.5, 0.4, 0.4, 0.3, 0.6, 0.2), held_if_lost=(0.3, 0.4, 0.5, 0.3, 0.5, 0.3),
                          playable=(1.0, 0.8, 0.7, 0.9, 0.6, 0.5), played_if_playable=(0.9, 0.7, 0.5, 0.6, 0.8, 0.4)),
}
COOPERATIVE_CARDS["buffed"] = CardModel(
    held_if_won=(0.6, *COOPERATIVE_CARDS["baseline"].held_if_won[1:]),
    held_if_lost=COOPERATIVE_CARDS["baseline"].held_if_lost, playable=COOPERATIVE_CARDS["baseline"].playable,
    played_if_playable=COOPERATIVE_CARDS["baseline"].played_if_playable)
CLASS_EFFECT = {"baseline": (0.6, 0.2, 0.0, -0.2, -0.5), "buffed": (0.6, 0.2, 0.0, -0.2, 0.1)}
PARTY_BASE = -0.3
HERO_AGENTS = ("heuristic", "heuristic", "random")


def _card_rows(rng: np.random.Generator, won: np.ndarray, model: CardModel,
               uniforms: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Card rows (one per seat-game and card held) for seat-games whose outcomes are ``won``.

    ``uniforms`` (seat-games × cards × 4), when given, are the random numbers
    to use (a paired variant reuses the baseline's)."""
    cards = len(model.held_if_won)
    draws = rng.random((won.size, cards, 4)) if uniforms is None else uniforms
    held_if_won, held_if_lost = np.array(model.held_if_won), np.array(model.held_if_lost)
    held = draws[:, :, 0] < np.where(won[:, None], held_if_won[None, :], held_if_lost[None, :])
    playable = held & (draws[:, :, 1] < np.array(model.playable)[None, :])
    played = playable & (draws[:, :, 2] < np.array(model.played_if_playable)[None, :])
    seat_game, card = np.nonzero(held)
    return {
        "seat_game": seat_game, "card": card,
        "played": played[seat_game, card].astype(np.int32),
        "playable": playable[seat_game, card].astype(np.int32),
        "opening": (draws[seat_game, card, 3] < 0.5).astype(np.int32),
        "turn": 1 + (draws[seat_game, card, 3] * 10).astype(np.int32) % 5,
    }


def _tables(experiment: np.ndarray, variant: str, n_players: int, game_index: np.ndarray, seed: np.ndarray,
            winners: list[list[int]], seats: dict[str, np.ndarray], cards: dict[str, np.ndarray],
            names: list[str], *, cooperative: bool, turns: np.ndarray | None = None,
            decisions: np.ndarray | None = None) -> dict[str, pa.Table]:
    """Arrow tables ``games``, ``players``, ``cards`` of one variant.

    ``seats`` holds per seat-game (game-major, seat-minor) ``agent``,
    ``faction`` and ``won``; ``cards`` the rows of ``_card_rows``. A game
    without winners is a draw, unless ``cooperative`` (then it is a loss)."""
    games = experiment.size
    seat = np.tile(np.arange(n_players, dtype=np.int8), games)
    seat_game = cards["seat_game"]
    players_game = np.repeat(np.arange(games), n_players)
    names_array = np.array(names, dtype=object)
    draw = np.array([len(w) == 0 and not cooperative for w in winners])
    return {
        "games": pa.table({
            "experiment": experiment, "variant": [variant] * games, "n_players": np.full(games, n_players, np.int8),
            "game_index": game_index, "seed": seed,
            "winners": pa.array(winners, type=pa.list_(pa.int8())),
            "draw": draw,
            "end_reason": ["finished"] * games,
            "turns": np.full(games, 5, np.int32) if turns is None else turns.astype(np.int32),
            "decisions": np.full(games, 10, np.int32) if decisions is None else decisions.astype(np.int32)}),
        "players": pa.table({
            "experiment": experiment[players_game], "variant": [variant] * players_game.size,
            "n_players": np.full(players_game.size, n_players, np.int8), "game_index": game_index[players_game],
            "seat": seat, "agent": seats["agent"], "faction": seats["faction"], "won": seats["won"]}),
        "cards": pa.table({
            "experiment": experiment[players_game][seat_game], "variant": [variant] * seat_game.size,
            "n_players": np.full(seat_game.size, n_players, np.int8),
            "game_index": game_index[players_game][seat_game], "seat": seat[seat_game],
            "card": names_array[cards["card"]], "in_opening_hand": cards["opening"],
            "drawn": np.ones(seat_game.size, np.int32), "played": cards["played"], "playable": cards["playable"],
            "first_played_turn": pa.array(np.where(cards["played"] > 0, cards["turn"], 0),
                                          mask=cards["played"] == 0, type=pa.int32()),
            "won": seats["won"][seat_game]}),
    }


def _connect(parts: list[dict[str, pa.Table]]) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(":memory:")
    con.execute("SET enable_progress_bar = false")
    register_sql_macros(con)
    for table in ("games", "players", "cards"):
        con.register(f"_{table}", pa.concat_tables([part[table] for part in parts]))
        con.execute(f"CREATE TABLE {table} AS SELECT * FROM _{table}")
        con.unregister(f"_{table}")
    # As the report does (analytics.partials): the count views as tables, then the metric views on them.
    for name, query in count_view_sql(Columns.of(con)).items():
        con.execute(f"CREATE TABLE {name} AS {query}")
    register_metric_views(con, counts=False, paired=None, materialize=True)
    con.execute("CREATE TABLE deltas AS SELECT * FROM variant_deltas")
    return con


def _experiments(replicates: int, games: int) -> tuple[np.ndarray, np.ndarray]:
    experiment = np.repeat(np.array([f"rep-{index:04d}" for index in range(replicates)], dtype=object), games)
    return experiment, np.tile(np.arange(games, dtype=np.int32), replicates)


def _seat_probabilities(agents: tuple[str, ...], factions: tuple[int, ...], variant: str,
                        model: CompetitiveModel = DEFAULT_MODEL) -> np.ndarray:
    weights = np.array([model.seat_bias[s] * model.strength(agents[s]) * FACTION_STRENGTH[variant][factions[s]]
                        for s in range(4)])
    return (1 - model.draw) * weights / weights.sum()


def _card_truths(truth: dict[tuple[str, str, object], float], variant: str, agent: str, wins: float,
                 seat_games: float, model: CardModel) -> None:
    """GIH, played, play and playable rates of each card of ``agent`` with ``wins`` expected
    wins over ``seat_games`` expected seat-games per game."""
    for name, a, b, playable, played in zip(model.names(), model.held_if_won, model.held_if_lost, model.playable,
                                            model.played_if_playable, strict=True):
        truth[("card", variant, (agent, name))] = a * wins / (a * wins + b * (seat_games - wins))
        truth[("play", variant, (agent, name))] = playable * played
        truth[("playable", variant, (agent, name))] = played


def competitive_truth(model: CompetitiveModel = DEFAULT_MODEL) -> dict[tuple[str, str, object], float]:
    """The exact rates of the competitive model (every arrangement is equally likely)."""
    truth: dict[tuple[str, str, object], float] = {}
    arrangements = model.arrangements()
    for index, variant in enumerate(VARIANTS):
        first = np.array([_seat_probabilities(a, f, variant, model) for a, f in arrangements])
        # A seat wins as the first winner, or tied after the seat before it.
        probabilities = first + model.tie * np.roll(first, 1, axis=1)
        agents = np.array([a for a, _ in arrangements], dtype=object)
        factions = np.array([f for _, f in arrangements])
        for seat in range(4):
            truth[("seat", variant, seat)] = float(probabilities[:, seat].mean())
        if model.self_play:
            truth[("first_seat", variant, agents[0, 0])] = float(
                probabilities[:, 0].mean() / probabilities.sum(axis=1).mean() - 0.25)
        for agent in sorted(set(agents.reshape(-1))):
            mask = agents == agent
            seats = float(mask.sum(axis=1).mean())
            wins = float((probabilities * mask).sum(axis=1).mean())
            truth[("agent", variant, agent)] = wins / seats
            # Its game won: the first winner is its, or the tied second one is.
            seconds = np.roll(mask, -1, axis=1)  # the seat after each seat is the agent's
            truth[("game", variant, agent)] = float(
                ((first * mask).sum(axis=1) + (first * ~mask * seconds).sum(axis=1) * model.tie).mean())
            _card_truths(truth, variant, agent, wins, seats, model.card_model(variant))
            if not model.self_play:
                at_first = mask[:, 0]
                truth[("first_seat", variant, agent)] = float(probabilities[at_first, 0].mean()) - wins / seats
        for faction in range(6):
            held = factions == faction
            truth[("faction", variant, f"faction_{faction}")] = float(
                (probabilities * held).sum(axis=1).mean() / held.sum(axis=1).mean())
        truth[("turns", variant, "")] = 5.0 - model.short_game[index]
        truth[("decisions", variant, "")] = 10.0 + 20 * model.decisions_rate[index]
    return truth


def competitive(replicates: int, games: int, *, paired: bool = False, seed: int = 1,
                model: CompetitiveModel = DEFAULT_MODEL) -> Synthetic:
    """``replicates`` competitive experiments of ``games`` games per variant (see the module docstring)."""
    rng = np.random.default_rng(seed)
    # Ties and game lengths draw from a generator of their own: the default model's games stay
    # those of its first version, draw for draw.
    extra = np.random.default_rng([seed, 7])
    arrangements = model.arrangements()
    experiment, game_index = _experiments(replicates, games)
    total = experiment.size
    choice = rng.integers(len(arrangements), size=total)
    outcome_draw = rng.random(total)
    card_uniforms = rng.random((total * 4, len(model.card_model("baseline").held_if_won), 4))
    extra_uniforms = extra.random((total, 22))
    parts = []
    for index, variant in enumerate(VARIANTS):
        if not paired and variant != "baseline":
            choice = rng.integers(len(arrangements), size=total)
            outcome_draw = rng.random(total)
            card_uniforms = rng.random(card_uniforms.shape)
            extra_uniforms = extra.random(extra_uniforms.shape)
        table = np.array([_seat_probabilities(a, f, variant, model) for a, f in arrangements])
        cumulative = np.cumsum(table[choice], axis=1)
        winner = (outcome_draw[:, None] >= cumulative).sum(axis=1)  # 4: nobody (a draw)
        tied = (winner < 4) & (extra_uniforms[:, 0] < model.tie)
        won = ((winner[:, None] == np.arange(4)[None, :])
               | (tied[:, None] & ((winner[:, None] + 1) % 4 == np.arange(4)[None, :]))).reshape(-1)
        agents = np.array([a for a, _ in arrangements], dtype=object)[choice].reshape(-1)
        factions = np.array([[f"faction_{x}" for x in f] for _, f in arrangements], dtype=object)[choice].reshape(-1)
        cards = _card_rows(rng, won, model.card_model(variant), card_uniforms)
        seeds = np.arange(total, dtype=np.int64) + (0 if paired or variant == "baseline" else 10 ** 9)
        winners = [[] if w == 4 else [int(w), int(w + 1) % 4] if tie else [int(w)]
                   for w, tie in zip(winner, tied, strict=True)]
        turns = 5 - (extra_uniforms[:, 1] < model.short_game[index])
        decisions = 10 + (extra_uniforms[:, 2:] < model.decisions_rate[index]).sum(axis=1)
        parts.append(_tables(experiment, variant, 4, game_index, seeds, winners,
                             {"agent": agents, "faction": factions, "won": won}, cards,
                             model.card_model(variant).names(), cooperative=False, turns=turns, decisions=decisions))
    return Synthetic(_connect(parts), competitive_truth(model), replicates, games)


def _party_probability(classes: tuple[int, ...], variant: str) -> float:
    score = PARTY_BASE + sum(CLASS_EFFECT[variant][c] for c in classes)
    return 1 / (1 + math.exp(-score))


def cooperative_truth() -> dict[tuple[str, str, object], float]:
    """The exact rates of the cooperative model (every composition is equally likely)."""
    truth: dict[tuple[str, str, object], float] = {}
    compositions = list(itertools.product(range(5), repeat=3))
    for variant in VARIANTS:
        probability = np.array([_party_probability(c, variant) for c in compositions])
        party = float(probability.mean())
        truth[("team", variant, "")] = party
        for seat in range(3):
            truth[("seat", variant, seat)] = party
        for agent, seats in (("heuristic", 2), ("random", 1)):
            truth[("agent", variant, agent)] = party
            _card_truths(truth, variant, agent, party * seats, float(seats), COOPERATIVE_CARDS[variant])
        for cls in range(5):
            count = np.array([c.count(cls) for c in compositions])
            truth[("faction", variant, f"class_{cls}")] = float((count * probability).mean() / count.mean())
    return truth


def cooperative(replicates: int, games: int, *, paired: bool = False, seed: int = 2) -> Synthetic:
    """``replicates`` cooperative experiments of ``games`` games per variant (see the module docstring)."""
    rng = np.random.default_rng(seed)
    experiment, game_index = _experiments(replicates, games)
    total = experiment.size
    classes = rng.integers(5, size=(total, 3))
    outcome_draw = rng.random(total)
    card_uniforms = rng.random((total * 3, len(COOPERATIVE_CARDS["baseline"].held_if_won), 4))
    parts = []
    for variant in VARIANTS:
        if not paired and variant != "baseline":
            classes = rng.integers(5, size=(total, 3))
            outcome_draw = rng.random(total)
            card_uniforms = rng.random(card_uniforms.shape)
        effect = np.array(CLASS_EFFECT[variant])
        probability = 1 / (1 + np.exp(-(PARTY_BASE + effect[classes].sum(axis=1))))
        party_won = outcome_draw < probability
        won = np.repeat(party_won, 3)
        agents = np.tile(np.array(HERO_AGENTS, dtype=object), total)
        factions = np.array([f"class_{c}" for c in classes.reshape(-1)], dtype=object)
        cards = _card_rows(rng, won, COOPERATIVE_CARDS[variant], card_uniforms)
        seeds = np.arange(total, dtype=np.int64) + (0 if paired or variant == "baseline" else 10 ** 9)
        winners = [[0, 1, 2] if w else [] for w in party_won]
        parts.append(_tables(experiment, variant, 3, game_index, seeds, winners,
                             {"agent": agents, "faction": factions, "won": won}, cards,
                             COOPERATIVE_CARDS[variant].names(), cooperative=True))
    return Synthetic(_connect(parts), cooperative_truth(), replicates, games)
