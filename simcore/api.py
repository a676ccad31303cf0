"""The game API every cardlab game implements.

A *game* (one object per rulebook) describes itself with ``GameInfo``, owns the
default parameter tree, compiles a parameter tree into a fast configuration,
and makes new states. A *state* is one game in progress: the seat to act, the
legal actions, ``apply``, the terminal test, the outcome, and
``resample_hidden`` — a copy in which everything one seat cannot see is drawn
again (what search agents use).

Actions are small integers whose meaning depends on the state's phase;
``describe_action`` turns one into words for traces and agents' logs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, final

from librt.strings import BytesWriter, write_i16_le
from mypy_extensions import i16, i64, mypyc_attr

from simcore.rng import Generator

TraceSink = Callable[[dict[str, Any]], None]
"""Receives trace events; ``None`` in its place means tracing is off."""


@dataclass(frozen=True)
class GameInfo:
    """What a game is: id, name, allowed player counts, and result columns."""

    id: str
    name: str
    min_players: int
    max_players: int
    description: str
    # Extra columns of the ``games`` table: name -> Arrow type name.
    game_columns: Mapping[str, str] = field(default_factory=dict)
    # Per-card counters of the ``cards`` table (int32 columns), in order.
    card_counters: tuple[str, ...] = ("in_opening_hand", "drawn", "played")
    # Extra columns of the ``players`` table: name -> Arrow type name.
    player_columns: Mapping[str, str] = field(default_factory=dict)
    # The player count ``cardlab bench`` measures by default (0: the minimum).
    bench_players: int = 0
    # False for games where every seat sees the same things (open hands,
    # cooperative play): re-sampling then changes only what nobody sees.
    hidden_between_seats: bool = True
    faction_label: str = "faction"
    # One line per game-specific column, by name: every ``game_columns`` and
    # ``player_columns`` entry and every card counter, as a designer reads it
    # (what it counts, in what unit). The catalogs store them as the columns'
    # comments (``dataset.schemas.table_contract``).
    column_descriptions: Mapping[str, str] = field(default_factory=dict)


INT16_SMALLEST: Final = -32768
INT16_LARGEST: Final = 32767


def append_int16(buffer: BytesWriter, value: i64) -> None:
    """Add ``value`` to a buffer of little-endian int16 (``Int16Column.buffer``);
    ``OverflowError`` outside [-32768, 32767]. A machine integer in the compiled
    core (no Python int is made or read per value)."""
    if value < INT16_SMALLEST or value > INT16_LARGEST:
        raise int16_overflow(value)
    write_i16_le(buffer, i16(value))


def int16_overflow(value: i64) -> OverflowError:
    """The error of a ``value`` that does not fit a 16-bit column (for the caller to raise)."""
    return OverflowError(f"{value} does not fit a 16-bit column")


@final
class Int16Column:
    """A growing column of 16-bit integers, appended to like a list.

    The values live in one typed buffer (a ``librt.strings.BytesWriter`` of
    little-endian int16, which the compiled core appends to without a Python
    object per value), so that the recorder hands a whole column to numpy and
    Arrow at once (``to_bytes``) instead of converting one Python int after
    another. Appending a value outside [-32768, 32767] raises
    ``OverflowError``.
    """

    buffer: BytesWriter

    def __init__(self) -> None:
        self.buffer = BytesWriter()

    def append(self, value: int) -> None:
        """Add ``value`` at the end."""
        append_int16(self.buffer, value)

    def __len__(self) -> int:
        return len(self.buffer) >> 1

    def __getitem__(self, index: int) -> int:
        size = len(self)
        if index < 0:
            index += size
        if index < 0 or index >= size:
            raise IndexError("Int16Column index out of range")
        value = int(self.buffer[2 * index]) | int(self.buffer[2 * index + 1]) << 8
        return value - 65536 if value > INT16_LARGEST else value

    def __iter__(self) -> Iterator[int]:
        for index in range(len(self)):
            yield self[index]

    def to_bytes(self) -> bytes:
        """The values as little-endian int16 bytes (a copy of the buffer)."""
        return self.buffer.getvalue()


class CardColumns:
    """Card statistics, column by column, one entry per (game, seat, card)
    that the seat owned or saw; games append their rows with
    ``GameState.add_card_rows`` (``columns.seat.append(seat)``...). ``card``
    holds indices into ``names`` (set by the game); ``counters`` holds one
    column per name in ``GameInfo.card_counters``; ``first_played_turn`` is
    -1 for a card never played. Every column is an ``Int16Column``."""

    def __init__(self, n_counters: int) -> None:
        self.names: tuple[str, ...] = ()
        self.seat = Int16Column()
        self.card = Int16Column()
        self.copies = Int16Column()
        self.counters: list[Int16Column] = [Int16Column() for _ in range(n_counters)]
        self.first_played_turn = Int16Column()

    def __len__(self) -> int:
        return len(self.seat)


@mypyc_attr(allow_interpreted_subclasses=True)
class GameState:
    """One game in progress (see the module docstring).

    A plain base class rather than a Protocol so that the compiled core
    (mypyc) dispatches these calls through a vtable. Subclasses set
    ``n_players`` and keep ``current_player`` up to date (-1 once over).
    """

    n_players: int
    current_player: int

    def legal_actions(self) -> Sequence[int]:
        """Actions the current player may take (never empty while not over)."""
        raise NotImplementedError

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player, advancing the game."""
        raise NotImplementedError

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Called by ``play_game`` at every step of the real game (forced ones
        too, never in a search agent's copies), before the action is chosen.

        A game with a ``playable`` card counter counts here, once per card per
        step, the cards that one of ``legal_actions`` would play for the
        current player; ``played`` counts the cards the seat then chose to
        play, in turn or out of it (counters). Their ratio is the "play rate
        when playable" that tells an ignored card from a weak one. Default:
        nothing.
        """
        return None

    def rewind_simultaneous_move(self) -> int:
        """For search agents, on their own copies only (never the real game):
        if the current step belongs to a *simultaneous move* (choices of
        several seats that are revealed together, so no seat's choice can
        depend on another's), take back the choices of it already made, so
        that its first seat is to choose again, and return how many steps
        (one per seat) the move has. Return 0 and change nothing when the
        current step belongs to none: the default, for games without
        simultaneous moves.

        Taking back is seat-honest: until the reveal, the choices already
        made are hidden from the seat now to act, so in a determinization
        (``resample_hidden``) they are guesses. A search can then choose
        every seat's part of the move from that seat's own statistics
        (decoupled selection, ``simcore.agents.sm_ismcts``) instead of
        letting a later seat see an earlier seat's choice.
        """
        return 0

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        raise NotImplementedError

    def winners(self) -> list[int]:
        """Seats that won; empty for a draw or a shared loss."""
        raise NotImplementedError

    def returns(self) -> list[float]:
        """Per-seat result in [0, 1] (1 win, 0 loss, shares for draws)."""
        raise NotImplementedError

    def scores(self) -> list[int]:
        """Per-seat final score as the rulebook counts it."""
        raise NotImplementedError

    def ranks(self) -> list[int]:
        """Per-seat rank, 1 = best; tied seats share a rank."""
        raise NotImplementedError

    def factions(self) -> list[str | None]:
        """Per-seat faction (party, hero class...), None where the game has none."""
        raise NotImplementedError

    def end_reason(self) -> str:
        """Why the game ended (a short identifier)."""
        raise NotImplementedError

    def turns(self) -> int:
        """Turns (or rounds, as the game counts them) played."""
        raise NotImplementedError

    def standings(self) -> list[int]:
        """Each seat's standing now, in the game's own units (the coins, VP or
        points it holds so far: what "who is ahead" means at the table), higher
        is better; read by ``play_game`` after every turn and at the end, for
        the lead-change and margin columns of ``games`` (``simcore.standings``).

        Empty where standings mean nothing (a cooperative game, whose seats
        share one outcome): those columns are then NULL. Default: empty; each
        game says in its RULES.md what its standing is, or why it has none.
        """
        return []

    def game_columns(self) -> dict[str, Any]:
        """Values of the game-specific ``games`` columns in ``GameInfo``."""
        raise NotImplementedError

    def player_columns(self, seat: int) -> dict[str, Any]:
        """Values of the game-specific ``players`` columns in ``GameInfo`` for ``seat``."""
        return {}

    def add_card_rows(self, columns: CardColumns) -> None:
        """Append card statistics for every (seat, card) the seat owned or saw."""
        raise NotImplementedError

    def observation(self, seat: int) -> Any:
        """Everything ``seat`` can see now, as a comparable value."""
        raise NotImplementedError

    def resample_hidden(self, seat: int, rng: Generator) -> GameState:
        """A copy keeping all ``seat`` sees, with all it cannot see redrawn."""
        raise NotImplementedError

    def clone(self) -> GameState:
        """An exact, independent copy (tracing off)."""
        raise NotImplementedError

    def __copy__(self) -> GameState:
        """``copy.copy(state)`` is ``clone()``: a shallow copy would share the
        zones, numbers and generator with the original, so that playing one
        plays the other."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        """``copy.deepcopy(state)`` is ``clone()`` (tracing off), which copies
        the typed vectors a generic deep copy cannot."""
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Refused in one line: a state holds the compiled core's typed vectors,
        which do not pickle; a position travels as its game, parameters, player
        count, seed and the answers given so far, and is replayed."""
        raise TypeError(f"a {type(self).__name__} cannot be pickled: copy it with clone(), or send the game, "
                        "parameters, player count, seed and answers so far and replay them")

    def describe_action(self, action: int) -> str:
        """``action`` in words, for the current phase and player."""
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class Agent:
    """Chooses one of the legal actions for its seat (base class, see GameState)."""

    name: str = "agent"

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """Return one element of ``legal_actions``."""
        raise NotImplementedError


class Game(Protocol):
    """A registered game: metadata, parameters, and a state factory."""

    info: GameInfo

    def default_parameters(self) -> dict[str, Any]:
        """The full parameter tree with the rulebook's (and our) defaults."""
        ...

    def configure(self, parameters: Mapping[str, Any]) -> Any:
        """Validate a resolved parameter tree and compile it for fast play.

        Raises ``simcore.parameters.ParameterError`` naming the bad path.
        """
        ...

    def new_state(
        self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None
    ) -> GameState:
        """A new game for ``n_players`` seats, shuffled by ``seed``."""
        ...

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        """The game's documented heuristic strategy for ``seat``."""
        ...


def ranks_from_scores(scores: Sequence[float]) -> list[int]:
    """Competition ranks (1 = best; ties share the better rank)."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]
