"""``KitState``: a ``GameState`` built from zones, numbers, decisions and card stats.

A kit state holds

- ``zones``: every card of the game, each in exactly one zone
  (``simcore.kit.zones``); the game keeps the index of each zone;
- ``numbers`` (table numbers: round, phase, the ring's space...) and
  ``seat_numbers`` (``seat * n_seat_numbers + index``: score, hit points...),
  all public: anything hidden is a card in a zone;
- ``decisions``: the task stack, the question asked and the committed
  choices of a simultaneous move (``simcore.kit.decisions``);
- ``stats``: the card counters (``simcore.kit.cardstats``);
- ``rng``, ``trace``, ``over``, ``ended_by``; the game adds its config.

``clone``, ``observation``, ``resample_hidden``, ``legal_actions``,
``apply``, ``is_terminal``, ``end_reason`` and the tracer (``emit``) are
written here once, as loops over these parts, so a new field cannot be
forgotten in one of them. A game writes ``blank`` (an empty state with its
config, for ``clone``), ``perform`` (one task, with the answer to its
question or ``NO_CHOICE``), its scoring and ``add_card_rows``.

The contract of ``perform``: a task performed with ``NO_CHOICE`` that needs
an answer only calls ``ask`` (no other change), so the question can be asked
again after re-sampling redrew the asked seat's hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from librt.vecs import vec
from mypy_extensions import i64, mypyc_attr

from simcore.api import GameState, TraceSink
from simcore.kit.cardstats import CardStats
from simcore.kit.decisions import NO_CHOICE, Decisions, Task
from simcore.kit.vectors import filled
from simcore.kit.zones import Zone, clone_zones, observe_zones, resample_zones
from simcore.rng import Generator


@mypyc_attr(allow_interpreted_subclasses=True)
class KitState(GameState):
    """One game in progress, built from the kit's parts (see the module docstring)."""

    rng: Generator
    trace: TraceSink | None
    zones: list[Zone]
    numbers: vec[i64]
    seat_numbers: vec[i64]
    n_seat_numbers: i64
    decisions: Decisions
    stats: CardStats
    over: bool
    ended_by: str

    def __init__(self, n_players: int, rng: Generator, trace: TraceSink | None, n_numbers: int,
                 n_seat_numbers: int, stats: CardStats) -> None:
        self.n_players = n_players
        self.current_player = -1
        self.rng = rng
        self.trace = trace
        self.zones = []
        self.numbers = filled(0, n_numbers)
        self.n_seat_numbers = n_seat_numbers
        self.seat_numbers = filled(0, n_players * n_seat_numbers)
        self.decisions = Decisions(n_players)
        self.stats = stats
        self.over = False
        self.ended_by = ""

    # ------------------------------------------------ what the game writes

    def blank(self) -> KitState:
        """A new state of the same game and config with nothing in it (``clone`` fills it)."""
        raise NotImplementedError

    def perform(self, task: Task, choice: int) -> None:
        """Do ``task``; ``choice`` answers its question, ``NO_CHOICE`` before it is asked."""
        raise NotImplementedError

    def choices_for(self, seat: int) -> list[int]:
        """The legal answers ``seat`` had in the simultaneous move now under
        way (re-sampling redraws another seat's committed choice among them);
        only games with simultaneous moves (``Decisions.commit``) write it."""
        raise NotImplementedError(f"{type(self).__name__} commits choices but has no choices_for")

    def card_classes(self) -> list[int] | None:
        """Card -> class for zones bound to one ``card_class`` (a Rank deck
        holds only its Rank; ``resample_zones``); default: no classes."""
        return None

    def observe_as(self) -> list[int] | None:
        """Card -> what a seat sees of it, for ``observation`` (e.g. the card
        type of a physical copy, so two copies look the same); default: the
        card itself."""
        return None

    def trace_turn(self) -> int:
        """The ``turn`` of trace events (default: ``turns()``)."""
        return self.turns()

    def copy_extra(self, copy: KitState) -> None:
        """Copy fields the game keeps outside the kit's parts into ``copy`` (default: none)."""
        return None

    # ------------------------------------------------ the rules' tools

    def add_zone(self, zone: Zone) -> int:
        """Add ``zone`` to the state; its index in ``zones``."""
        self.zones.append(zone)
        return len(self.zones) - 1

    def seat_number(self, seat: i64, index: i64) -> int:
        """Seat number ``index`` of ``seat``."""
        return self.seat_numbers[seat * self.n_seat_numbers + index]

    def set_seat_number(self, seat: i64, index: i64, value: i64) -> None:
        """Set seat number ``index`` of ``seat``."""
        self.seat_numbers[seat * self.n_seat_numbers + index] = value

    def push(self, task: Task) -> None:
        """Put ``task`` on top of the stack."""
        self.decisions.stack.append(task)

    def ask(self, task: Task, choices: list[int]) -> None:
        """Ask ``task.seat`` the question of ``task`` (``choices``: its legal answers, never empty)."""
        self.decisions.ask(task, choices)
        self.current_player = task.seat

    def run(self) -> None:
        """Perform tasks until a question is asked or the game is over."""
        decisions = self.decisions
        while not decisions.waiting and not self.over and decisions.stack.size > 0:
            self.perform(decisions.stack.pop(), NO_CHOICE)
        if self.over:
            self.current_player = -1
            decisions.clear()

    def end(self, reason: str) -> None:
        """The game is over (``reason``: a short identifier, ``end_reason``)."""
        self.over = True
        self.ended_by = reason
        self.current_player = -1

    def emit(self, kind: str, text: str, **data: Any) -> None:
        """Send one trace event (call only when ``self.trace is not None``)."""
        assert self.trace is not None
        self.trace({"turn": self.trace_turn(), "type": kind, "text": text, **data})

    # ------------------------------------------------ GameState, written once

    def legal_actions(self) -> Sequence[int]:
        """The answers to the question now asked."""
        return self.decisions.choices

    def apply(self, action: int) -> None:
        """Answer the question asked with ``action`` and play on to the next one."""
        task = self.decisions.answered()
        self.perform(task, action)
        self.run()

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        return self.over

    def end_reason(self) -> str:
        """Why the game ended."""
        return self.ended_by

    def clone(self) -> KitState:
        """An exact copy with its own generator state and tracing off."""
        return self._copy_with_stats(self.stats.copy())

    def _copy_with_stats(self, stats: CardStats) -> KitState:
        """An exact copy, as ``clone`` makes it, whose card stats are ``stats``."""
        copy = self.blank()
        copy.rng = self.rng.copy()
        copy.trace = None
        copy.current_player = self.current_player
        copy.zones = clone_zones(self.zones)
        copy.numbers = self.numbers[:]
        copy.seat_numbers = self.seat_numbers[:]
        copy.decisions = self.decisions.copy()
        copy.stats = stats
        copy.over = self.over
        copy.ended_by = self.ended_by
        self.copy_extra(copy)
        return copy

    def observation(self, seat: int) -> tuple[Any, ...]:
        """All ``seat`` sees: every zone as its visibility allows (each seen
        card as ``observe_as`` shows it), the numbers, the tasks and the
        question (its answers only when asked of ``seat``)."""
        return (
            self.current_player, self.over, self.ended_by, tuple(self.numbers), tuple(self.seat_numbers),
            observe_zones(self.zones, seat, self.observe_as()), self.decisions.observe(seat),
            tuple(self.decisions.choices) if self.current_player == seat else (),
        )

    def resample_hidden(self, seat: int, rng: Generator) -> KitState:
        """A copy in which every card ``seat`` cannot see is redrawn within its
        pool (``resample_zones``), another seat's committed choice is redrawn
        among its answers (``choices_for``), a question pending for another
        seat is asked again of its redrawn cards, and future chance gets a new
        generator. The copy's card stats are a scratch nobody reads
        (``CardStats.scratch``): a search never records its games, and the real
        game's counters would show what other seats drew."""
        copy = self._copy_with_stats(self.stats.scratch())
        resample_zones(copy.zones, seat, rng, copy.card_classes())
        committed = copy.decisions.committed
        for other in range(len(committed)):
            if other != seat and committed[other] != NO_CHOICE:
                choices = copy.choices_for(other)
                committed[other] = choices[rng.below(len(choices))]
        if copy.decisions.waiting and copy.current_player != seat:
            copy.perform(copy.decisions.answered(), NO_CHOICE)
            copy.run()
        # Future chance (reshuffles, later draws) is hidden too: the copy gets
        # its own generator, so no search can foresee the real game's shuffles.
        copy.rng = Generator(rng.next_u32() << 32 | rng.next_u32())
        return copy


class SeatZonesState(KitState):
    """A ``KitState`` whose seats each own the same zones, in one run per seat after
    the table's zones: zone ``which`` of ``seat`` is ``zones[first_seat_zone +
    zones_per_seat * seat + which]``, and zone ``hand_zone_index`` of the run is
    the seat's hand. The accessors every game reads them with are written here
    once (all four games lay their zones out so).

    Unlike ``KitState`` it takes no interpreted subclass: mypyc then knows the
    layout fields are set by ``__init__`` and reads them without a check, so these
    accessors cost about what each game's own did (random and heuristic games
    within 1% of the instructions). A game's accessor of another one of its zones
    (Theseus' ``party``) indexes ``zones`` in place with its own constants:
    through ``seat_zone`` (one more call and a reference to the ``Zone``),
    Theseus' random game took 1.4% more instructions."""

    first_seat_zone: i64
    zones_per_seat: i64
    hand_zone_index: i64

    def __init__(self, n_players: int, rng: Generator, trace: TraceSink | None, n_numbers: int,
                 n_seat_numbers: int, stats: CardStats, first_seat_zone: int, zones_per_seat: int,
                 hand_zone_index: int) -> None:
        super().__init__(n_players, rng, trace, n_numbers, n_seat_numbers, stats)
        self.first_seat_zone = first_seat_zone
        self.zones_per_seat = zones_per_seat
        self.hand_zone_index = hand_zone_index

    def seat_zone_index(self, seat: i64, which: i64) -> i64:
        """The index in ``zones`` of zone ``which`` of ``seat``."""
        return self.first_seat_zone + self.zones_per_seat * seat + which

    def seat_zone(self, seat: i64, which: i64) -> Zone:
        """Zone ``which`` (a game's ``HAND``...) of ``seat``."""
        return self.zones[self.first_seat_zone + self.zones_per_seat * seat + which]

    def hand_zone(self, seat: i64) -> Zone:
        """``seat``'s hand."""
        return self.zones[self.first_seat_zone + self.zones_per_seat * seat + self.hand_zone_index]

    def hand(self, seat: i64) -> list[int]:
        """The cards in ``seat``'s hand, in hand order (positions are answers: do not change the list)."""
        return self.zones[self.first_seat_zone + self.zones_per_seat * seat + self.hand_zone_index].cards
