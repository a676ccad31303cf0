"""The naive reference of issue 21: Divvy written plainly in Python, interpreted.

A hand-written, straightforward Python version of Divvy the Loot (the rules
of ``simcore/games/divvy/rules.py`` and ``bench/divvy_playout.c``: deal,
lead fighters, chaff bids, icon brawls, replacement and bonus draws,
same-suit reinforcements, the treasure row to the stronger fighter), played
by two uniformly random agents. It is what one would write without an engine
or a compiler: plain lists, the legal actions built as lists at every step
(``itertools.combinations`` for the masks), ``random.Random`` generators (one
for the game, one per agent, seeded per game), each legal-mask list made
once per hand shape, no tracing, nothing recorded.
Its games are not the engine's games (another generator), but the same game:
``--compare`` prints both sides' decisions per game.

It is the yardstick of "the Divvy engine is N times a naive interpreted
version": ``--compare`` plays it and the project's engine (``cardlab bench``'s
engine rate: ``workers.bench.bench_engine``, random agents, compiled when
``make compile`` built the core) in alternating rounds in one process and
prints each side's games/s per CPU second and the ratio per round.

Usage: .venv/bin/python bench/naive_divvy.py [--games 5000] [--compare] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tomllib
from functools import cache
from itertools import combinations
from pathlib import Path

CARDS_FILE = Path(__file__).resolve().parent.parent / "simcore" / "games" / "divvy" / "cards.toml"
ICONS = ("shield", "sword", "scroll")


def load_cards(path: Path = CARDS_FILE) -> dict:
    """Divvy's rules and one list per card attribute (indexed by card kind), from its ``cards.toml``."""
    data = tomllib.loads(path.read_text())
    rules, cards = data["rules"], data["cards"]
    suit_names = sorted({card["suit"] for card in cards.values()})
    setup: dict = {"rules": rules, "suit": [], "value": [], "icon": [], "d20": [], "coins": [], "deck": []}
    for kind, card in enumerate(cards.values()):
        setup["suit"].append(suit_names.index(card["suit"]))
        setup["value"].append(card["value"])
        setup["icon"].append(ICONS.index(card["icon"]))
        setup["d20"].append(card["d20"])
        setup["coins"].append(rules["coin_values"][card["coin"]])
        setup["deck"] += [kind] * card["copies"]
    return setup


def beats(icon_a: int, icon_b: int) -> int:
    """0 if icon_a wins the brawl, 1 if icon_b wins, -1 for a tie (shield > sword > scroll > shield)."""
    if icon_a == icon_b:
        return -1
    return 0 if icon_b == (icon_a + 1) % 3 else 1


@cache
def masks(count: int, smallest: int, largest: int) -> list[int]:
    """Bit masks over ``count`` hand positions with smallest..largest bits set
    (made once per shape, as the engine does: rebuilding them at every step
    would make this reference ten times slower, a straw man)."""
    found = []
    for size in range(max(smallest, 0), min(largest, count) + 1):
        for chosen in combinations(range(count), size):
            found.append(sum(1 << position for position in chosen))
    return found


@cache
def subsets(positions: tuple[int, ...]) -> list[int]:
    """Every subset of ``positions`` as a mask, ascending (made once per set)."""
    return sorted(sum(1 << position for position in chosen) for size in range(len(positions) + 1)
                  for chosen in combinations(positions, size))


def split(hand: list[int], mask: int) -> tuple[list[int], list[int]]:
    """(the cards at the masked positions, the others)."""
    chosen = [card for position, card in enumerate(hand) if mask >> position & 1]
    kept = [card for position, card in enumerate(hand) if not mask >> position & 1]
    return chosen, kept


class Game:
    """One game of Divvy, played by ``play``."""

    def __init__(self, setup: dict, rng: random.Random) -> None:
        self.rules = setup["rules"]
        self.setup = setup
        self.rng = rng
        self.draw_pile = list(setup["deck"])
        rng.shuffle(self.draw_pile)
        self.discard_pile: list[int] = []
        self.reshuffled = False
        self.treasure: list[int] = []
        self.hands: list[list[int]] = [[], []]
        self.coins = [0, 0]
        self.round = 1
        self.over = False

    def draw(self) -> int:
        """The top card of the draw pile (the discards reshuffled once); -1 when none is left."""
        if not self.draw_pile:
            if self.reshuffled or not self.discard_pile:
                return -1
            self.reshuffled = True
            self.draw_pile, self.discard_pile = self.discard_pile, []
            self.rng.shuffle(self.draw_pile)
        return self.draw_pile.pop()

    def draw_into(self, seat: int, count: int) -> None:
        """Up to ``count`` cards into ``seat``'s hand."""
        for _ in range(count):
            card = self.draw()
            if card < 0:
                return
            self.hands[seat].append(card)

    def deal(self) -> bool:
        """Deal the hands one card at a time; False when the pile runs out."""
        for _ in range(self.rules["hand_size"]):
            for seat in (0, 1):
                card = self.draw()
                if card < 0:
                    return False
                self.hands[seat].append(card)
        return True

    def reveal_treasure(self) -> bool:
        """Turn cards over until their d20 total reaches the target; False when the pile runs out."""
        total = 0
        while total < self.rules["treasure_target"]:
            card = self.draw()
            if card < 0:
                return False
            self.treasure.append(card)
            total += self.setup["d20"][card]
        return True

    def choose(self, seat: int, actions: list[int], agents: list[random.Random]) -> int:
        """The random agent of ``seat`` picks one (a forced move is no decision)."""
        if len(actions) == 1:
            return actions[0]
        self.decisions += 1
        return actions[agents[seat].randrange(len(actions))]

    def discard_to_limit(self, agents: list[random.Random]) -> None:
        """Each hand over the limit discards down to it."""
        for seat in (0, 1):
            hand = self.hands[seat]
            excess = len(hand) - self.rules["hand_limit"]
            if excess > 0:
                mask = self.choose(seat, masks(len(hand), excess, excess), agents)
                dropped, self.hands[seat] = split(hand, mask)
                self.discard_pile += dropped

    def play_round(self, agents: list[random.Random]) -> None:
        """One round: leads, chaff, brawl, replacement, reinforcements, treasure."""
        rules = self.rules
        suit, value, icon = self.setup["suit"], self.setup["value"], self.setup["icon"]
        self.discard_to_limit(agents)
        leads = []
        for seat in (0, 1):
            hand = self.hands[seat]
            leads.append(self.choose(seat, list(range(len(hand))), agents))
        leads = [self.hands[seat].pop(leads[seat]) for seat in (0, 1)]
        chaff = []
        for seat in (0, 1):
            hand = self.hands[seat]
            chaff.append(self.choose(seat, masks(len(hand), rules["min_chaff"], len(hand) - 1), agents))
        bids = []
        for seat in (0, 1):
            bid, self.hands[seat] = split(self.hands[seat], chaff[seat])
            bids.append(bid)
        picks = [self.choose(seat, list(range(len(self.hands[seat]))), agents) for seat in (0, 1)]
        battle = [self.hands[seat].pop(picks[seat]) for seat in (0, 1)]
        winner = beats(icon[battle[0]], icon[battle[1]])
        for seat in (0, 1):
            if seat != winner:
                self.hands[seat] += [*bids[seat], battle[seat]]
        if winner >= 0:
            placed = [*bids[winner], battle[winner]]
            if self.choose(winner, [1, 0], agents):
                self.discard_pile += placed
                self.draw_into(winner, len(placed))
            else:
                self.hands[winner] += placed
            if icon[battle[winner]] == icon[self.treasure[-1]] and rules["bonus_draw"]:
                self.draw_into(winner, rules["bonus_draw"])
        strengths = []
        sent_cards = []
        for seat in (0, 1):
            hand = self.hands[seat]
            lead_suit = suit[leads[seat]]
            matching = tuple(position for position, card in enumerate(hand) if suit[card] == lead_suit)
            sent_cards.append(self.choose(seat, subsets(matching), agents))
        for seat in (0, 1):
            sent, self.hands[seat] = split(self.hands[seat], sent_cards[seat])
            strengths.append(value[leads[seat]] + sum(value[card] for card in sent))
            self.discard_pile += [leads[seat], *sent]
        if strengths[0] != strengths[1]:
            won = 0 if strengths[0] > strengths[1] else 1
            self.coins[won] += sum(self.setup["coins"][card] for card in self.treasure)
            self.treasure = []
        elif rules["tied_strength"] != "carry_over":
            self.discard_pile += self.treasure
            self.treasure = []

    def play(self, agents: list[random.Random]) -> int:
        """Play to the end; the decisions made."""
        self.decisions = 0
        if not self.deal() or not self.reveal_treasure():
            return 0
        while True:
            self.play_round(agents)
            if self.round >= self.rules["rounds"]:
                return self.decisions
            self.round += 1
            if not self.reveal_treasure() or not self.deal():
                return self.decisions


def play_naive(setup: dict, games: int, first: int = 0) -> int:
    """Play ``games`` games (seeds ``first``...); the decisions made."""
    decisions = 0
    for index in range(first, first + games):
        agents = [random.Random(3 * index + 1), random.Random(3 * index + 2)]
        decisions += Game(setup, random.Random(3 * index)).play(agents)
    return decisions


def naive_rate(setup: dict, games: int) -> tuple[float, float]:
    """(games/s, decisions per game) of the naive version, per CPU second."""
    started = time.process_time()
    decisions = play_naive(setup, games)
    return games / (time.process_time() - started), decisions / games


def main() -> None:
    """Measure (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--compare", action="store_true", help="also the engine, in alternating rounds")
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    setup = load_cards()
    if not options.compare:
        rate, per_game = naive_rate(setup, options.games)
        print(f"naive Divvy: {rate:,.0f} games/s ({per_game:.1f} decisions a game), {options.games:,} games")
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import simcore.play
    from simcore.agents.registry import parse_agent_spec
    from workers.bench import bench_engine

    compiled = not str(simcore.play.__file__).endswith(".py")
    print(f"engine compiled: {compiled}; load average before: {', '.join(f'{v:.1f}' for v in _load())}")
    engine_rates, naive_rates, ratios = [], [], []
    for _ in range(options.rounds):
        engine, _decisions, engine_per_game = bench_engine("divvy", parse_agent_spec("random"), 2, options.games)
        naive, naive_per_game = naive_rate(setup, options.games)
        engine_rates.append(engine)
        naive_rates.append(naive)
        ratios.append(engine / naive)
    print(f"engine: {statistics.median(engine_rates):,.0f} games/s ({engine_per_game:.1f} decisions a game)")
    print(f"naive:  {statistics.median(naive_rates):,.0f} games/s ({naive_per_game:.1f} decisions a game)")
    print(f"engine / naive: {statistics.median(ratios):.2f} (rounds {min(ratios):.2f}-{max(ratios):.2f}), "
          f"{options.rounds} rounds of {options.games:,} games; load average after: "
          f"{', '.join(f'{v:.1f}' for v in _load())}")


def _load() -> tuple[float, float, float]:
    import os

    return os.getloadavg()


if __name__ == "__main__":
    main()
