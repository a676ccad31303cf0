"""Who leads a game, turn after turn, kept as running summaries (no per-turn rows).

``play_game`` reads every seat's standing (``GameState.standings``: the
coins, VP or points each holds so far) after every turn and once more at
the end, and hands each reading to a ``LeadRecord``. What the ``games``
table keeps of them (``simcore.records``; the methods page defines each):

- ``lead_changes``: readings whose sole leader (the one seat strictly ahead
  of every other) is another seat than the last sole leader; a reading with
  seats level at the top has no sole leader and changes nothing;
- ``winner_deficit``: the largest deficit the sole winner came back from:
  the most its standing ever fell short of a reading's best (0: never behind);
- ``margin``: the sole winner's final standing minus the best final
  standing of the other seats (0 or less when the game was won otherwise:
  by a tiebreaker, by elimination);
- ``leader_first_third``, ``leader_second_third``: the sole leader at
  reading ⌈m/3⌉ and ⌈2m/3⌉ of the game's m readings (none when seats were
  level at the top then).

A game without standings (cooperative) has none of them; the margin and the
deficit need a sole winner (none in a draw or a shared win). The record
keeps a few counters per seat and one small integer per reading (the leader,
to find the thirds once the game's length is known): written once a game, it
costs the engine a few instructions a step (docs/development/compiled-style.md
measures it).
"""

from __future__ import annotations

from typing import Final, final

from librt.vecs import append, vec
from mypy_extensions import i64

from simcore.kit.vectors import filled

NO_SEAT: Final = -1
"""No sole leader (seats level at the top), or no sole winner."""


@final
class LeadRecord:
    """The running summaries of one game's standings (see the module docstring)."""

    readings: i64
    lead_changes: i64
    last_leader: i64
    deficits: vec[i64]
    leaders: vec[i64]
    last_standings: list[int]

    def __init__(self, n_players: i64) -> None:
        self.readings = 0
        self.lead_changes = 0
        self.last_leader = NO_SEAT
        self.deficits = filled(0, n_players)
        self.leaders = vec[i64]()
        self.last_standings = []

    def read(self, standings: list[int]) -> None:
        """Take one reading: every seat's standing, by seat."""
        seat: i64
        value: i64
        top: i64 = standings[0]
        leader: i64 = 0
        level: i64 = 1
        count: i64 = len(standings)
        for seat in range(1, count):
            value = standings[seat]
            if value > top:
                top = value
                leader = seat
                level = 1
            elif value == top:
                level += 1
        deficits = self.deficits
        for seat in range(count):
            value = top - standings[seat]
            if value > deficits[seat]:
                deficits[seat] = value
        if level > 1:
            leader = NO_SEAT
        elif leader != self.last_leader:
            if self.last_leader != NO_SEAT:
                self.lead_changes += 1
            self.last_leader = leader
        self.leaders = append(self.leaders, leader)
        self.readings += 1
        self.last_standings = standings

    def margin(self, winner: i64) -> int | None:
        """The sole ``winner``'s final standing minus the best of the others' (None: no sole winner)."""
        if winner == NO_SEAT or self.readings == 0:
            return None
        last = self.last_standings
        best: i64 = 0
        found = False
        seat: i64
        for seat in range(len(last)):
            if seat != winner and (not found or last[seat] > best):
                best = last[seat]
                found = True
        return last[winner] - best if found else None

    def winner_deficit(self, winner: i64) -> int | None:
        """The most the sole ``winner`` ever trailed a reading's best standing (None: no sole winner)."""
        if winner == NO_SEAT or self.readings == 0:
            return None
        return self.deficits[winner]

    def leader_at(self, thirds: i64) -> int | None:
        """The sole leader at the end of ``thirds`` thirds of the readings (reading
        ⌈thirds·m/3⌉ of m); None when seats were level at the top then."""
        if self.readings == 0:
            return None
        leader = self.leaders[(thirds * self.readings + 2) // 3 - 1]
        return None if leader == NO_SEAT else leader
