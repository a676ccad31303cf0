"""Hidden information, over every game: a seat is shown only what it may see.

What a seat may see is worked out here from the game's zones alone, step by
step, without the zones' ``seen`` marks (which are what is checked): a seat
sees every card of a zone it sees whole (a public zone, its own hand) and
the face-up cards of a face-up-count pile; of the other places it may know
a card only when it saw the card go there (the card left a place the seat
sees) and no card has since left that place for one the seat cannot see
(then it cannot tell which of the known cards went: a chaff bid taken face
down from a hand, a card exiled face down, a random card taken from a hand).
Two more ways are allowed: the cards of a place that was emptied into
another one stay known there, and a card turned face up where it lies
(every seat is shown it) is known from then on.

At every decision of random games, for every seat ``s``, two states that
differ only in what ``s`` cannot see must look the same to ``s``
(``observation``) and re-sample the same for ``s`` (``resample_hidden``,
what search agents play on): a card ``s`` could not follow swapped with
another one, and another seat's committed simultaneous choice swapped for
another of its answers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from simcore.kit.decisions import NO_CHOICE
from simcore.kit.state import KitState
from simcore.kit.zones import FACE_UP_COUNT, UNSEEN, Zone, observe_zones
from simcore.registry import GAMES
from simcore.rng import Generator
from tests.gamekit import default_config

# Seeds per player count: enough random games that every game's ways of hiding
# a card from a seat come up many times (a Divvy game bids face down five times).
SEEDS = {"divvy": 40, "ring_of_chaos": 12, "party_wanted": 3, "theseus": 12}


def _first_hideable(zone: Zone) -> int:
    """The first position of ``zone`` whose card may be hidden: a face-up-count pile's
    face-up cards lie at the bottom, seen by every seat."""
    return zone.face_up if zone.visibility == FACE_UP_COUNT else 0


def _shown(state: KitState, seat: int) -> tuple[Any, ...]:
    """The zones as ``state.observation(seat)`` shows them."""
    view = observe_zones(state.zones, seat, state.observe_as())
    assert view in state.observation(seat)
    return view


@dataclass(frozen=True)
class _Zone:
    """One look at one zone: its cards, how many lie face up at the bottom, and the
    cards of its hidden part that every seat is shown (turned face up)."""

    cards: tuple[int, ...]
    first_hideable: int
    public: Counter[int]

    def parts(self, zone: Zone, seat: int) -> tuple[Counter[int], Counter[int]]:
        """What ``seat`` sees of the zone by its visibility alone, and the rest."""
        if zone.visible_to(seat):
            return Counter(self.cards), Counter()
        return Counter(self.cards[:self.first_hideable]), Counter(self.cards[self.first_hideable:])


def _look_at(state: KitState, index: int) -> _Zone:
    zone = state.zones[index]
    first = _first_hideable(zone)
    as_seen = state.observe_as()
    views = [zone.observe(seat, as_seen) for seat in range(state.n_players)]
    public = Counter(card for position, card in enumerate(zone.cards)
                     if position >= first and all(view[position] != UNSEEN for view in views))
    return _Zone(tuple(zone.cards), first, public)


_NOWHERE = _Zone((), 0, Counter())
"""A zone before the game added it."""


class _Follower:
    """What each seat of one game may know of each zone's hidden part (see the
    module docstring), followed from every look at the table: after every
    step of the rules (each trace event: ``look`` is the trace sink) and after
    every decision.

    Generous where copies of a card make it ambiguous: a card that some place
    the seat sees gained or lost is taken to be that one."""

    def __init__(self) -> None:
        self.state: KitState | None = None
        self.last: list[_Zone] = []
        self.marks: list[tuple[int, ...]] = []
        self.knowledge: list[list[Counter[int]]] = []

    def start(self, state: KitState) -> None:
        self.state = state
        self.last = [_look_at(state, index) for index in range(len(state.zones))]
        self.marks = [tuple(zone.seen) for zone in state.zones]
        self.knowledge = [[Counter(look.public) for look in self.last] for _ in range(state.n_players)]

    def look(self, event: object = None) -> None:
        state = self.state
        if state is None:  # still setting up
            return
        zones = state.zones
        while len(self.last) < len(zones):
            self.last.append(_NOWHERE)
            self.marks.append(())
            for known in self.knowledge:
                known.append(Counter())
        changed = [index for index, zone in enumerate(zones)
                   if self.last[index].cards != tuple(zone.cards) or self.marks[index] != tuple(zone.seen)
                   or self.last[index].first_hideable != _first_hideable(zone)]
        if not changed:
            return
        now = {index: _look_at(state, index) for index in changed}
        for seat in range(state.n_players):
            self._follow(seat, changed, now)
        for index in changed:
            self.last[index] = now[index]
            self.marks[index] = tuple(zones[index].seen)

    def _follow(self, seat: int, changed: list[int], now: dict[int, _Zone]) -> None:
        assert self.state is not None
        zones, known = self.state.zones, self.knowledge[seat]
        before = {index: self.last[index].parts(zones[index], seat) for index in changed}
        after = {index: now[index].parts(zones[index], seat) for index in changed}
        left_sight: Counter[int] = Counter()  # cards that left a place the seat sees
        came_into_sight: Counter[int] = Counter()
        emptied: Counter[int] = Counter()  # known cards of hidden places emptied
        for index in changed:
            left_sight += before[index][0] - after[index][0]
            came_into_sight += after[index][0] - before[index][0]
            if not after[index][1]:
                emptied += known[index] & before[index][1]
        for index in changed:
            was, is_now = before[index][1], after[index][1]
            lost, gained = was - is_now, is_now - was
            # The seat cannot tell which cards went when one went where it does not see.
            blind = any(card not in came_into_sight for card in lost)
            kept = Counter() if blind else known[index] & is_now
            # Turned face up where it lay (every seat is shown it now, not before), not a card that just came.
            turned_up = (now[index].public - self.last[index].public - known[index]) & was & is_now
            known[index] = (kept + (gained & left_sight) + (gained & emptied) + turned_up) & is_now


def _unfollowed_positions(state: KitState, seat: int, known: list[Counter[int]]) -> list[tuple[int, int]]:
    """The (zone, position) of every card ``seat`` could not follow (in a hidden part,
    not known). Of two copies of a card, the one shown to ``seat`` is taken as the known one."""
    view = _shown(state, seat)
    positions = []
    for index, zone in enumerate(state.zones):
        if zone.visible_to(seat):
            continue
        left = Counter(known[index])
        hideable = range(_first_hideable(zone), len(zone.cards))
        shown_first = sorted(hideable, key=lambda position: view[index][position] == UNSEEN)
        for position in shown_first:
            card = zone.cards[position]
            if left[card] > 0:
                left[card] -= 1
            else:
                positions.append((index, position))
    return positions


def _resampled(state: KitState, seat: int, seed: int) -> tuple[Any, ...]:
    """Everything of ``state.resample_hidden(seat, ...)`` a search plays on."""
    copy = state.resample_hidden(seat, Generator(seed))
    assert isinstance(copy, KitState)
    return (tuple(tuple(zone.cards) for zone in copy.zones), tuple(copy.decisions.committed),
            copy.current_player, tuple(copy.legal_actions()), tuple(copy.numbers), tuple(copy.seat_numbers))


def _card_name(state: KitState, card: int) -> str:
    """The card's name in the game's config (its id when the config has no names)."""
    names = getattr(getattr(state, "config", None), "names", None)
    as_seen = state.observe_as()
    shown = as_seen[card] if as_seen is not None else card
    return str(names[shown]) if names is not None and 0 <= shown < len(names) else str(card)


@dataclass
class _Checked:
    """The problems found, and how many twin states were compared."""

    problems: list[str]
    swaps: int = 0
    committed_swaps: int = 0


def _check_swaps(state: KitState, seat: int, known: list[Counter[int]], rng: Generator,
                 where: str, checked: _Checked) -> None:
    """Swap each card ``seat`` is shown but could not follow, and one card it could
    not follow at random, with another card it could not follow of the same pool
    (and class): ``seat`` must not tell the two states apart."""
    unfollowed = _unfollowed_positions(state, seat, known)
    if len(unfollowed) < 2:
        return
    view = _shown(state, seat)
    shown_unfollowed = [spot for spot in unfollowed if view[spot[0]][spot[1]] != UNSEEN]
    classes = state.card_classes()
    as_seen = state.observe_as()

    def looks(card: int) -> int:
        return as_seen[card] if as_seen is not None else card

    observation = state.observation(seat)
    seed = rng.next_u32()
    resampled = _resampled(state, seat, seed)
    for first in [*shown_unfollowed[:3], unfollowed[rng.below(len(unfollowed))]]:
        zone, position = first
        card = state.zones[zone].cards[position]
        partners = [(other_zone, other_position) for other_zone, other_position in unfollowed
                    if state.zones[other_zone].pool == state.zones[zone].pool
                    and looks(state.zones[other_zone].cards[other_position]) != looks(card)
                    and (classes is None or classes[state.zones[other_zone].cards[other_position]] == classes[card])]
        if not partners:
            continue
        other_zone, other_position = partners[rng.below(len(partners))]
        twin = state.clone()
        assert isinstance(twin, KitState)
        other = twin.zones[other_zone].cards[other_position]
        twin.zones[zone].cards[position], twin.zones[other_zone].cards[other_position] = other, card
        checked.swaps += 1
        if twin.observation(seat) != observation:
            checked.problems.append(
                f"{where}: seat {seat} tells {_card_name(state, card)} in the "
                f"{state.zones[zone].name} (zone {zone}) from {_card_name(state, other)} in the "
                f"{state.zones[other_zone].name} (zone {other_zone}), though it could follow neither there")
            continue
        if _resampled(twin, seat, seed) != resampled:
            checked.problems.append(
                f"{where}: re-sampling for seat {seat} differs when {_card_name(state, card)} "
                f"(zone {zone}) and {_card_name(state, other)} (zone {other_zone}) swap places")


def _check_committed(state: KitState, seat: int, rng: Generator, where: str, checked: _Checked) -> None:
    """Another seat's committed (not yet revealed) choice swapped for another of its answers."""
    committed = state.decisions.committed
    for other in range(len(committed)):
        if other == seat or committed[other] == NO_CHOICE:
            continue
        alternatives = [choice for choice in state.choices_for(other) if choice != committed[other]]
        if not alternatives:
            continue
        twin = state.clone()
        assert isinstance(twin, KitState)
        twin.decisions.committed[other] = alternatives[rng.below(len(alternatives))]
        checked.committed_swaps += 1
        seed = rng.next_u32()
        if twin.observation(seat) != state.observation(seat):
            checked.problems.append(f"{where}: seat {seat} is shown seat {other}'s committed choice")
        elif _resampled(twin, seat, seed) != _resampled(state, seat, seed):
            checked.problems.append(f"{where}: re-sampling for seat {seat} depends on seat {other}'s committed choice")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_seat_is_shown_and_re_sampled_only_what_it_could_follow(game_id: str) -> None:
    game = GAMES[game_id]
    config = default_config(game)
    checked = _Checked([])
    info = game.info
    # The fewest players, two, four (a seat watching two others: a card taken at random from a
    # hand into another one) and the most.
    for n_players in sorted({info.min_players, max(2, info.min_players), min(4, info.max_players), info.max_players}):
        for seed in range(SEEDS[game_id]):
            follower = _Follower()
            state = game.new_state(config, n_players, seed, follower.look)
            assert isinstance(state, KitState)
            follower.start(state)
            agent, checks = Generator(seed + 1), Generator(seed + 2)
            step = 0
            while not state.is_terminal() and len(checked.problems) <= 5:
                where = f"{n_players} players, seed {seed}, step {step}"
                for seat in range(n_players):
                    _check_swaps(state, seat, follower.knowledge[seat], checks, where, checked)
                    _check_committed(state, seat, checks, where, checked)
                actions = state.legal_actions()
                state.apply(actions[agent.below(len(actions))])
                follower.look()
                step += 1
    assert not checked.problems, f"{len(checked.problems)} problem(s), the first:\n" + "\n".join(checked.problems[:6])
    assert checked.swaps > 100
    if game_id == "divvy":
        assert checked.committed_swaps > 100
