"""Decisions: a stack of named tasks, the question asked, and action types.

How a kit game runs (``simcore.kit.state.KitState``): the rules keep a stack
of small *tasks*. A task is an immutable record ``Task(kind, seat, a, b, c)``
whose kind is registered once, with a name and the names of the fields it
uses (``TaskKinds.add("counter", ("attacker", "card"))``), so traces and
describe views can print it. Running the game pops a task and *performs* it:
the task does its work, may push more tasks, or asks its seat a question —
``Decisions.ask(task, choices)`` stores it with the legal answers and the
game waits. ``apply(answer)`` performs the asked task again with the answer
and runs on. A task performed without an answer (``NO_CHOICE``) only asks,
so re-sampling can ask the same question again of a redrawn hand.

Answers are ints made by an ``ActionType``: a named kind of answer ("hand
position", "pass", "play (position, hero, slot)") with up to three named
fields packed into the low 24 bits and the type's code above them. Agents and
traces use ``ActionType.encode``/``decode`` and ``ActionTypes.describe``
instead of arithmetic on integers. The type with code 0 and one field encodes
a value as itself, so a game can keep its old answers while porting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, final

from mypy_extensions import i64, mypyc_attr

NO_CHOICE: Final = -1
"""The answer given to a task performed before (or without) its question."""

FIELD_BITS: Final = 24
"""Bits of an action below its type code, shared by the type's fields."""
FIELD_MASK: Final = (1 << FIELD_BITS) - 1


# Compiled, a task is made and freed at almost every step of a game: holding
# only numbers, it can never be part of a reference cycle, so the cyclic
# collector need not track it (``acyclic``), and the last one freed is kept
# for the next to reuse (``free_list_len``). Interpreted, both are no-ops.
@final
@mypyc_attr(acyclic=True, free_list_len=1)
class Task:
    """One pending step of the rules: what to do (``kind``), for whom
    (``seat``), and up to three numbers whose names the kind gives."""

    kind: int
    seat: int
    a: int
    b: int
    c: int

    def __init__(self, kind: int, seat: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        self.kind = kind
        self.seat = seat
        self.a = a
        self.b = b
        self.c = c

    def key(self) -> tuple[int, int, int, int, int]:
        """The task as a comparable value (observations, tests)."""
        return (self.kind, self.seat, self.a, self.b, self.c)


COMMITTED_UNSEEN: Final = -2
"""What another seat's observation shows of a committed (hidden) choice."""

NO_TASK: Final = Task(-1, -1)
"""The question asked before the first one (and after the last)."""


@final
class TaskKinds:
    """The task kinds of one game, each with a name and its field names."""

    names: list[str]
    fields: list[tuple[str, ...]]

    def __init__(self) -> None:
        self.names = []
        self.fields = []

    def add(self, name: str, fields: tuple[str, ...] = ()) -> int:
        """Register a kind; its code (0, 1, 2... in order). At most three fields (``a``, ``b``, ``c``)."""
        if len(fields) > 3:
            raise ValueError(f"task {name!r}: at most three fields, got {len(fields)}")
        if name in self.names:
            raise ValueError(f"task {name!r} is registered twice")
        self.names.append(name)
        self.fields.append(fields)
        return len(self.names) - 1

    def describe(self, task: Task) -> str:
        """``task`` in words, e.g. ``block(seat 1, card=3)``."""
        if task.kind < 0:
            return "no task"
        values = (task.a, task.b, task.c)
        named = [f"{field}={values[index]}" for index, field in enumerate(self.fields[task.kind])]
        return f"{self.names[task.kind]}(seat {task.seat}" + "".join(", " + part for part in named) + ")"


@final
@mypyc_attr(acyclic=True)  # tasks and numbers only: never in a reference cycle
class TaskStack:
    """The pending tasks, the last one pushed on top, with the ``append``,
    ``pop``, ``clear`` and ``len`` of a list.

    A plain list gave its memory back each time it emptied and asked for it
    again at the next push: a stack that goes from one task to none and back
    at almost every step of a game (a task pushes the next one), so two
    reallocations a step, 13% of a Theseus game's instructions. Here the
    slots stay: ``size`` says how many hold pending tasks (the slots above it
    keep tasks already done until new ones replace them).
    """

    slots: list[Task]
    size: i64

    def __init__(self, tasks: list[Task] | None = None) -> None:
        self.slots = list(tasks) if tasks is not None else []
        self.size = len(self.slots)

    def append(self, task: Task) -> None:
        """Put ``task`` on top."""
        if self.size < len(self.slots):
            self.slots[self.size] = task
        else:
            self.slots.append(task)
        self.size += 1

    def pop(self) -> Task:
        """Take the top task off; IndexError when none is pending."""
        if self.size <= 0:
            raise IndexError("pop from an empty task stack")
        self.size -= 1
        return self.slots[self.size]

    def clear(self) -> None:
        """No task pending."""
        self.size = 0

    def __len__(self) -> int:
        return self.size

    def tasks(self) -> list[Task]:
        """The pending tasks, bottom first (a copy)."""
        return self.slots[:self.size]

    def replace(self, tasks: list[Task]) -> None:
        """Make ``tasks`` (bottom first) the pending tasks."""
        self.slots = list(tasks)
        self.size = len(self.slots)


@final
@mypyc_attr(acyclic=True)  # tasks and numbers only: never in a reference cycle
class Decisions:
    """The task stack and the question now asked (see the module docstring).

    ``committed[seat]`` holds a seat's choice in a *simultaneous move* (choices
    revealed together, so no seat's choice may depend on another's): the
    first seats' answers wait there, seen only by their own seat, until the
    rules reveal them all and ``clear_commitments``. Re-sampling redraws
    another seat's committed choice among its legal answers
    (``KitState.resample_hidden``).
    """

    stack: TaskStack
    asked: Task
    choices: list[int]
    waiting: bool
    committed: list[int]

    def __init__(self, n_seats: int = 0) -> None:
        self.stack = TaskStack()
        self.asked = NO_TASK
        self.choices = []
        self.waiting = False
        self.committed = [NO_CHOICE] * n_seats

    def push(self, task: Task) -> None:
        """Put ``task`` on top: it runs before everything pushed earlier."""
        self.stack.append(task)

    def ask(self, task: Task, choices: list[int]) -> None:
        """Ask ``task.seat`` the question of ``task``; ``choices`` are its legal answers."""
        self.asked = task
        self.choices = choices
        self.waiting = True

    def answered(self) -> Task:
        """The asked task, now no longer waiting (its stale choices stay until
        the next ``ask`` or ``clear`` replaces them: no list per step)."""
        self.waiting = False
        return self.asked

    def commit(self, seat: int, action: int) -> None:
        """Keep ``seat``'s choice of a simultaneous move, hidden until revealed."""
        self.committed[seat] = action

    def clear_commitments(self) -> None:
        """The simultaneous move is revealed: no choice waits any more."""
        for seat in range(len(self.committed)):
            self.committed[seat] = NO_CHOICE

    def drop(self, keep: Callable[[Task], bool]) -> None:
        """Remove, in place, every pending task for which ``keep`` is false."""
        self.stack.replace([task for task in self.stack.tasks() if keep(task)])

    def clear(self) -> None:
        """No task pending and no question asked (the game is over)."""
        self.stack = TaskStack()
        self.asked = NO_TASK
        self.choices = []
        self.waiting = False
        self.clear_commitments()

    def copy(self) -> Decisions:
        """An independent copy (tasks are immutable, so they are shared)."""
        twin = Decisions()
        twin.stack = TaskStack(self.stack.tasks())
        twin.asked = self.asked
        twin.choices = list(self.choices)
        twin.waiting = self.waiting
        twin.committed = list(self.committed)
        return twin

    def observe(self, seat: int) -> tuple[object, ...]:
        """The pending tasks, the question asked and the committed choices as
        ``seat`` sees them (its own; only *that* the others chose), as a
        comparable value.

        The legal answers are not in it: they can depend on a hand, so the
        state shows them to the asked seat only."""
        committed = tuple(action if other == seat or action == NO_CHOICE else COMMITTED_UNSEEN
                          for other, action in enumerate(self.committed))
        return (tuple(task.key() for task in self.stack.tasks()), self.asked.key(), self.waiting, committed)


@final
class ActionType:
    """One kind of answer: a code and up to three named fields.

    ``encode(first, second, third)`` packs the fields (each below
    ``1 << width``) under the code; ``decode(action)`` gives them back;
    ``value(action)`` reads the first field and ``field(action, index)`` any
    one, without building a tuple. The shifts and limits are kept as plain
    ints so that encoding is a few native operations in the compiled core.
    """

    code: int
    name: str
    fields: tuple[str, ...]
    widths: tuple[int, ...]
    # Compiled, ``i64`` is a machine integer (interpreted, a plain int): the
    # packing below is then a few native instructions, not tagged-int calls.
    base: i64
    shift0: i64
    shift1: i64
    shift2: i64
    limit0: i64
    limit1: i64
    limit2: i64

    def __init__(self, code: int, name: str, fields: tuple[str, ...], widths: tuple[int, ...]) -> None:
        if len(fields) != len(widths) or len(fields) > 3:
            raise ValueError(f"action type {name!r}: one width per field, at most three fields")
        if sum(widths) > FIELD_BITS:
            raise ValueError(f"action type {name!r}: the field widths add up to more than {FIELD_BITS} bits")
        self.code = code
        self.name = name
        self.fields = fields
        self.widths = widths
        self.base = code << FIELD_BITS
        # Field i sits above the fields after it; an absent field has limit 1 (only 0 fits).
        padded = list(widths) + [0] * (3 - len(widths))
        self.shift0 = padded[1] + padded[2]
        self.shift1 = padded[2]
        self.shift2 = 0
        self.limit0 = 1 << padded[0]
        self.limit1 = 1 << padded[1]
        self.limit2 = 1 << padded[2]

    def encode(self, first: i64 = 0, second: i64 = 0, third: i64 = 0) -> int:
        """The action with these field values (first field highest)."""
        if (first < 0 or first >= self.limit0 or second < 0 or second >= self.limit1
                or third < 0 or third >= self.limit2):
            values = (first, second, third)
            index = next(i for i, limit in enumerate((self.limit0, self.limit1, self.limit2))
                         if not 0 <= values[i] < limit)
            field = self.fields[index] if index < len(self.fields) else f"field {index}"
            width = self.widths[index] if index < len(self.widths) else 0
            raise ValueError(f"{self.name}: {field} {values[index]} does not fit {width} bits")
        return self.base | first << self.shift0 | second << self.shift1 | third << self.shift2

    def matches(self, action: i64) -> bool:
        """True when ``action`` is of this type."""
        return action >> FIELD_BITS == self.base >> FIELD_BITS

    def value(self, action: i64) -> int:
        """The first field of ``action`` (the whole value of a one-field type)."""
        return action >> self.shift0 & (self.limit0 - 1)

    def field(self, action: i64, index: int) -> int:
        """The value of field ``index`` of ``action``."""
        if index == 0:
            return action >> self.shift0 & (self.limit0 - 1)
        if index == 1:
            return action >> self.shift1 & (self.limit1 - 1)
        return action & (self.limit2 - 1)

    def decode(self, action: int) -> tuple[int, ...]:
        """Every field value of ``action``, in order."""
        return tuple(self.field(action, index) for index in range(len(self.widths)))


def answer_list(answers: Sequence[int]) -> list[int]:
    """``answers`` as a ``list[int]``: the very list when it is one (the engines and
    ``play_game`` pass the list asked), a copy of any other sequence. Compiled, a typed
    list is indexed and iterated natively, any ``Sequence`` through Python's protocol."""
    return answers if isinstance(answers, list) else list(answers)


def action_code(action: int) -> int:
    """The code of ``action``'s type (``ActionType.code``)."""
    return action >> FIELD_BITS


def action_value(action: int) -> int:
    """Everything below the type code: the value of a one-field action."""
    return action & FIELD_MASK


@final
class ActionTypes:
    """The action types of one game (see ``ActionType``)."""

    types: list[ActionType]

    def __init__(self) -> None:
        self.types = []

    def add(self, name: str, fields: tuple[str, ...] = (), widths: tuple[int, ...] = ()) -> ActionType:
        """Register a type, code 0, 1, 2... in order. A single field is 24 bits
        wide unless told; several fields are 8 bits each unless told."""
        if any(known.name == name for known in self.types):
            raise ValueError(f"action type {name!r} is registered twice")
        if not widths:
            widths = (FIELD_BITS,) if len(fields) == 1 else tuple(8 for _ in fields)
        action_type = ActionType(len(self.types), name, fields, widths)
        self.types.append(action_type)
        return action_type

    def of(self, action: int) -> ActionType:
        """The type of ``action``; ValueError for an action of no registered type."""
        code = action >> FIELD_BITS
        if action < 0 or code >= len(self.types):
            raise ValueError(f"action {action} is of no registered type")
        return self.types[code]

    def describe(self, action: int) -> str:
        """``action`` in words, e.g. ``play(position=2)`` or ``pass``."""
        action_type = self.of(action)
        if not action_type.fields:
            return action_type.name
        values = action_type.decode(action)
        parts = ", ".join(f"{field}={values[index]}" for index, field in enumerate(action_type.fields))
        return f"{action_type.name}({parts})"
