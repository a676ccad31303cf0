"""The ``ismcts`` agent: information-set Monte Carlo tree search.

``ismcts(iterations=N, exploration=C, rollout=random|heuristic)`` is
single-observer ISMCTS with determinization (Cowling, Powley and Whitehouse,
2012). Each iteration:

1. *determinize*: draw again everything the agent's seat cannot see (the
   real state is never played on, so the agent is seat-honest);
2. *select*: walk down the tree while every action legal in this
   determinization has a child, taking the child with the best UCB value for
   the seat to act; ``availability`` counts how often a child could have been
   chosen, since a move legal in one determinization may not be in another;
3. *expand*: add one untried legal action;
4. *roll out* with the chosen policy (random, or the game's heuristic);
5. *back up* the per-seat result (``returns()``, in [0, 1]) along the path.

The budget is a number of iterations, not a time, so the same seed always
gives the same choice. The move played is the most visited root child.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, final

from librt.vecs import append, vec
from mypy_extensions import i64, mypyc_attr

from simcore.agents.search import DEFAULT_MAX_STEPS, RolloutPolicy, determinize, first_best
from simcore.api import Agent, Game, GameState
from simcore.kit.decisions import answer_list
from simcore.rng import Generator

DEFAULT_ITERATIONS = 200
DEFAULT_EXPLORATION = 0.7
SEAT_BITS: Final = 8
"""``child_key``: the seat in the low bits, the action above them (at most 256 seats)."""


def child_key(player: i64, action: i64) -> i64:
    """The key of ``player``'s ``action`` among a node's children: one int,
    not a (player, action) tuple made and hashed at every step of the walk."""
    return action << SEAT_BITS | player


MOST_CHILDREN_SCANNED: Final = 16
"""``Children`` of at most this many nodes are found by scanning their keys."""


@final
@mypyc_attr(acyclic=True)  # nodes below it only: no reference cycle
class Children:
    """A node's children (or a simultaneous move's statistics) by ``child_key``,
    in the order they were added.

    Looked up once per legal action at every step of every iteration's walk:
    with few children (most nodes), a scan of their keys as machine integers
    is a few native compares, where a dictionary boxed the key and probed a
    hash table (5% of a Divvy search); past ``MOST_CHILDREN_SCANNED`` children a
    dictionary is built and kept beside the scan's vectors."""

    keys: vec[i64]
    nodes: list[Node]
    index: dict[int, Node] | None

    def __init__(self) -> None:
        self.keys = vec[i64]()
        self.nodes = []
        self.index = None

    def __len__(self) -> int:
        return len(self.nodes)

    def get(self, key: i64) -> Node | None:
        """The child under ``key``, or None."""
        index = self.index
        if index is not None:
            return index.get(key)
        keys = self.keys
        position: i64
        for position in range(len(keys)):
            if keys[position] == key:
                return self.nodes[position]
        return None

    def add(self, key: i64, node: Node) -> None:
        """Add ``node`` under a ``key`` not yet present."""
        self.keys = append(self.keys, key)
        self.nodes.append(node)
        index = self.index
        if index is not None:
            index[key] = node
        elif len(self.nodes) > MOST_CHILDREN_SCANNED:
            self.index = {int(self.keys[position]): self.nodes[position] for position in range(len(self.nodes))}

    def values(self) -> list[Node]:
        """The children, in the order they were added."""
        return self.nodes


@final
@mypyc_attr(acyclic=True)  # a search tree points only downwards: no reference cycle
class Node:
    """A tree node: reached by ``action`` of ``player``; statistics per seat."""

    def __init__(self, action: int, player: int, n_players: int) -> None:
        self.action = action
        self.player = player
        # Keyed by (seat to act, action) (``child_key``): action ints mean different
        # things for different seats, and determinizations may disagree on who acts.
        self.children = Children()
        # Only the sm_ismcts agent fills this: the statistics of the
        # simultaneous move made from this node.
        self.simultaneous: SimultaneousMove | None = None
        self.visits = 0
        self.availability = 0
        self.totals = [0.0] * n_players

    def ucb(self, exploration: float) -> float:
        """UCB1 with availability in place of the parent's visits (ISMCTS)."""
        mean = self.totals[self.player] / self.visits
        return mean + exploration * math.sqrt(math.log(self.availability) / self.visits)


@final
@mypyc_attr(acyclic=True)  # a search tree points only downwards: no reference cycle
class SimultaneousMove:
    """The statistics of one simultaneous move at a tree node (``sm_ismcts``).

    ``choices`` holds one statistics node per (seat, action) of any step of
    the move, *not* conditioned on the other seats' choices in the same move
    (decoupled selection: each seat picks from its own statistics).
    ``outcomes`` holds the node reached by each joint choice, keyed by the
    (seat, action) pairs in step order.
    """

    def __init__(self) -> None:
        self.choices = Children()
        self.outcomes: dict[tuple[tuple[int, int], ...], Node] = {}


class IsmctsAgent(Agent):
    """Information-set MCTS with a fixed iteration budget (see the module docstring)."""

    def __init__(self, game: Game, seat: int, rng: Generator, iterations: int = DEFAULT_ITERATIONS,
                 exploration: float = DEFAULT_EXPLORATION, rollout: str = "random",
                 max_steps: int = DEFAULT_MAX_STEPS) -> None:
        self.name = "ismcts"
        self.seat = seat
        self.rng = rng
        self.iterations = iterations
        self.exploration = exploration
        self.policy = RolloutPolicy(rollout, game, rng, max_steps)

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """The most visited root action after ``iterations`` iterations."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        root = self.search(state)
        statistics = self._root_statistics(root)
        children = [statistics.get(child_key(self.seat, action)) for action in legal_actions]
        visits = [child.visits if child is not None else -1 for child in children]
        return first_best(legal_actions, visits)

    def _root_statistics(self, root: Node) -> Children:
        """The statistics of the seat's own root actions: the root's children."""
        return root.children

    def search(self, state: GameState) -> Node:
        """Run the iterations from ``state`` and return the tree's root."""
        root = Node(-1, -1, state.n_players)
        for _ in range(self.iterations):
            copy = determinize(state, self.seat, self.rng)
            path = self._select_and_expand(root, copy)
            values = self.policy.play_out(copy)
            for node in path:
                node.visits += 1
                totals = node.totals
                for seat, value in enumerate(values):
                    totals[seat] += value
        return root

    def _select_and_expand(self, root: Node, state: GameState) -> list[Node]:
        """Walk ``state`` (a determinization) down the tree, adding at most
        one node; return the nodes visited, root first."""
        node = root
        path = [root]
        n_players = len(root.totals)
        # The hot path of the search: a plain loop (``sm_ismcts`` has its own).
        while not state.is_terminal():
            actions = state.legal_actions()
            if len(actions) == 1:
                # Forced moves are the rules moving on, not choices: no node.
                state.apply(actions[0])
                continue
            child, added = self._choose_child(node.children, state.current_player, actions, n_players)
            state.apply(child.action)
            path.append(child)
            if added:
                break
            node = child
        return path

    def _choose_child(self, children: Children, player: int, actions: Sequence[int],
                      n_players: int) -> tuple[Node, bool]:
        """The child of ``children`` for ``player``'s next action: an untried
        one of ``actions`` (drawn at random and added, then True), else the
        best by UCB (False). Every existing child among ``actions`` counts
        one more availability."""
        untried: list[int] = []
        best: Node | None = None
        best_value = -math.inf
        for action in answer_list(actions):
            child = children.get(child_key(player, action))
            if child is None:
                untried.append(action)
                continue
            child.availability += 1
            if not untried:
                value = child.ucb(self.exploration)
                if value > best_value:
                    best, best_value = child, value
        if untried:
            action = untried[self.rng.below(len(untried))]
            added = Node(action, player, n_players)
            added.availability = 1
            children.add(child_key(player, action), added)
            return added, True
        assert best is not None
        return best, False
