"""Decisions: named tasks, the question asked, and one encode/decode per action type."""

from __future__ import annotations

import pytest

from simcore.kit.decisions import (
    FIELD_BITS,
    NO_TASK,
    ActionTypes,
    Decisions,
    Task,
    TaskKinds,
    TaskStack,
    action_code,
    action_value,
    answer_list,
)


def test_an_action_type_packs_its_fields_under_its_code_and_decodes_them_back() -> None:
    types = ActionTypes()
    position = types.add("position", ("position",))
    play = types.add("play", ("position", "hero", "slot"))
    passing = types.add("pass")
    assert position.encode(5) == 5  # code 0, one field: the value itself
    action = play.encode(3, 2, 7)
    assert action == 1 << FIELD_BITS | 3 << 16 | 2 << 8 | 7
    assert play.decode(action) == (3, 2, 7) and play.field(action, 1) == 2 and play.field(action, 2) == 7
    assert play.value(action) == 3 and action_code(action) == play.code == 1
    assert action_value(position.encode(123456)) == 123456 and position.value(position.encode(9)) == 9
    assert play.matches(action) and not position.matches(action)
    assert types.of(passing.encode()) is passing
    assert types.describe(action) == "play(position=3, hero=2, slot=7)"
    assert types.describe(passing.encode()) == "pass"


def test_a_field_value_that_does_not_fit_is_refused() -> None:
    play = ActionTypes().add("play", ("position", "target"), (4, 4))
    with pytest.raises(ValueError, match="target 16 does not fit 4 bits"):
        play.encode(1, 16)
    with pytest.raises(ValueError, match="field 2 5 does not fit 0 bits"):
        play.encode(1, 1, 5)  # a two-field type has no third field
    with pytest.raises(ValueError, match="position -1 does not fit 24 bits"):
        ActionTypes().add("position", ("position",)).encode(-1)
    with pytest.raises(ValueError, match="more than 24 bits"):
        ActionTypes().add("wide", ("a", "b"), (16, 16))


def test_an_action_of_no_registered_type_is_refused() -> None:
    types = ActionTypes()
    types.add("draw")
    with pytest.raises(ValueError, match="of no registered type"):
        types.of(5 << FIELD_BITS)
    with pytest.raises(ValueError, match="registered twice"):
        types.add("draw")


def test_task_kinds_name_their_fields_for_traces() -> None:
    kinds = TaskKinds()
    turn = kinds.add("turn")
    block = kinds.add("block offer", ("planter", "card"))
    assert (turn, block) == (0, 1)
    assert kinds.describe(Task(block, 2, 0, 7)) == "block offer(seat 2, planter=0, card=7)"
    assert kinds.describe(NO_TASK) == "no task"
    with pytest.raises(ValueError, match="at most three fields"):
        kinds.add("big", ("a", "b", "c", "d"))


def test_the_stack_runs_last_pushed_first_and_a_copy_is_independent() -> None:
    decisions = Decisions()
    decisions.push(Task(0, 0))
    decisions.push(Task(1, 1))
    decisions.ask(Task(2, 1), [4, 5])
    copy = decisions.copy()
    assert copy.observe(0) == decisions.observe(0)
    assert decisions.answered().kind == 2 and not decisions.waiting
    assert decisions.stack.pop().kind == 1
    assert copy.waiting and copy.choices == [4, 5] and len(copy.stack) == 2
    copy.drop(lambda task: task.seat != 1)
    assert [task.kind for task in copy.stack.tasks()] == [0]


def test_a_task_stack_reuses_its_slots_and_refuses_to_pop_when_empty() -> None:
    stack = TaskStack()
    stack.append(Task(0, 0))
    assert stack.pop().kind == 0 and len(stack) == 0 and stack.tasks() == []
    # The slot of the task done is reused: the stack holds only what is pending.
    stack.append(Task(1, 0))
    stack.append(Task(2, 0))
    assert [task.kind for task in stack.tasks()] == [1, 2] and len(stack.slots) == 2
    assert stack.pop().kind == 2 and stack.pop().kind == 1
    with pytest.raises(IndexError, match="pop from an empty task stack"):
        stack.pop()
    stack.replace([Task(3, 0), Task(4, 0)])
    stack.clear()
    assert len(stack) == 0
    stack.append(Task(5, 1))
    assert [task.kind for task in stack.tasks()] == [5]


def test_answer_list_hands_back_a_list_itself_and_copies_any_other_sequence() -> None:
    answers = [3, 1, 2]
    assert answer_list(answers) is answers
    copied = answer_list((3, 1, 2))
    assert type(copied) is list and copied == [3, 1, 2]
