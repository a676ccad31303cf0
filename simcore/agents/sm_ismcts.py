"""The ``sm_ismcts`` agent: ISMCTS that plays simultaneous moves as simultaneous.

``sm_ismcts(iterations=N, exploration=C, rollout=random|heuristic)`` is
``ismcts`` (same determinizations, UCB with availability counts, expansion,
rollouts and back-up) with one change, at the steps a game marks as one
*simultaneous move* (``GameState.rewind_simultaneous_move``; in Divvy the
lead fighters, chaff bids, brawl cards and reinforcements):

- plain ``ismcts`` walks such a move as if the seats chose one after the
  other, so the tree node of the second seat is a child of the first seat's
  choice: in the search the second seat "sees" the first seat's hidden card
  and answers it, and the first seat plans against an opponent who reads its
  mind. When the search's own seat is the second one, the first seat's choice
  is fixed by the determinization (drawn uniformly), so the search plans
  against a random opponent.
- ``sm_ismcts`` takes back the choices already made in the move (they are
  hidden from the seat to act, so in a determinization they are only
  guesses), then lets every seat of the move choose from its *own*
  statistics, not conditioned on the others' choices in the same move
  (decoupled UCT, as in simultaneous-move MCTS: Lanctot et al. 2013, "Monte
  Carlo Tree Search in Simultaneous Move Games with Applications to
  Goofspiel"; on information sets, Cowling, Powley and Whitehouse 2012). The
  joint choice then leads to the next tree node.

In a game without simultaneous moves it plays exactly as ``ismcts`` with the
same parameters and seed. Seat-honest like ``ismcts``: it plays only on
determinizations, and the choices it takes back were redrawn in them.
"""

from __future__ import annotations

from simcore.agents.ismcts import DEFAULT_EXPLORATION, DEFAULT_ITERATIONS, Children, IsmctsAgent, Node, SimultaneousMove
from simcore.agents.search import DEFAULT_MAX_STEPS
from simcore.api import Game, GameState
from simcore.rng import Generator


class SimultaneousIsmctsAgent(IsmctsAgent):
    """ISMCTS with decoupled selection at simultaneous moves (see the module docstring)."""

    def __init__(self, game: Game, seat: int, rng: Generator, iterations: int = DEFAULT_ITERATIONS,
                 exploration: float = DEFAULT_EXPLORATION, rollout: str = "random",
                 max_steps: int = DEFAULT_MAX_STEPS) -> None:
        super().__init__(game, seat, rng, iterations, exploration, rollout, max_steps)
        self.name = "sm_ismcts"

    def _root_statistics(self, root: Node) -> Children:
        """At a simultaneous move, the move's decoupled statistics; elsewhere the root's children."""
        return root.simultaneous.choices if root.simultaneous is not None else root.children

    def _select_and_expand(self, root: Node, state: GameState) -> list[Node]:
        """The ``ismcts`` walk, except that a simultaneous move is one step
        (``_simultaneous_step``); returns the statistics nodes to back up."""
        node: Node | None = root
        path = [root]
        n_players = len(root.totals)
        while node is not None and not state.is_terminal():
            steps = state.rewind_simultaneous_move()
            if steps:
                node = self._simultaneous_step(node, state, steps, path, n_players)
                continue
            actions = state.legal_actions()
            if len(actions) == 1:
                state.apply(actions[0])  # forced: no node
                continue
            child, added = self._choose_child(node.children, state.current_player, actions, n_players)
            state.apply(child.action)
            path.append(child)
            node = None if added else child
        return path

    def _simultaneous_step(self, node: Node, state: GameState, steps: int, path: list[Node],
                           n_players: int) -> Node | None:
        """Play the ``steps`` choices of one simultaneous move on ``state``,
        each seat's from the move's decoupled statistics (appended to
        ``path``; forced steps need none); return the node the joint choice
        leads to, or None once that joint choice is new (expansion)."""
        move = node.simultaneous
        if move is None:
            move = node.simultaneous = SimultaneousMove()
        joint: list[tuple[int, int]] = []
        chose = False
        for _ in range(steps):
            player = state.current_player
            actions = state.legal_actions()
            if len(actions) == 1:
                action = actions[0]
            else:
                choice, _ = self._choose_child(move.choices, player, actions, n_players)
                path.append(choice)
                action = choice.action
                chose = True
            joint.append((player, action))
            state.apply(action)
        if not chose:
            return node  # every seat's part was forced: the rules moving on, no node
        key = tuple(joint)
        outcome = move.outcomes.get(key)
        if outcome is None:
            move.outcomes[key] = Node(-1, -1, n_players)
            return None
        return outcome
