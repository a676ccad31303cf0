"""bench/instruction_shares.py: a workload's instructions split into the compiled code's own and the rest."""

from __future__ import annotations

import pytest

from bench.instruction_shares import Shares, exclusive_costs, shares

ANNOTATED = """\
--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
1,000,000 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
{own} ( 5.00%)  ???:CPyDef_rules___DivvyState___perform [/work/main/abc__mypyc.cpython-311-x86_64-linux-gnu.so]
{wrapper} ( 1.00%)  ???:CPyPy_play___play_game [/work/main/abc__mypyc.cpython-311-x86_64-linux-gnu.so]
{recursive} ( 1.00%)  ???:CPyDef_rules___DivvyState___perform'2 [/work/main/abc__mypyc.cpython-311-x86_64-linux-gnu.so]
{vectors} ( 1.00%)  ???:VecI64_Append [/usr/lib/librt.so]
{free} ( 2.00%)  /tmp/python-build/Objects/obmalloc.c:_PyObject_Free [/root/.pyenv/lib/libpython3.11.so.1.0]
{append} ( 2.00%)  /tmp/python-build/Objects/listobject.c:PyList_Append [/root/.pyenv/lib/libpython3.11.so.1.0]
   700 ( 0.01%)  ???:parquet::arrow::FileWriterImpl::WriteTable(arrow::Table const&, long) [/lib/libparquet.so]
"""


def _annotated(own: int, wrapper: int, recursive: int, vectors: int, free: int, append: int) -> str:
    return ANNOTATED.format(own=f"{own:,}", wrapper=f"{wrapper:,}", recursive=f"{recursive:,}",
                            vectors=f"{vectors:,}", free=f"{free:,}", append=f"{append:,}")


def test_exclusive_costs_are_read_per_function_name_without_the_totals_file_or_object() -> None:
    costs = exclusive_costs(_annotated(50_000, 10_000, 7_000, 4_000, 20_000, 1_234_567))
    assert costs == {
        "CPyDef_rules___DivvyState___perform": 50_000, "CPyPy_play___play_game": 10_000,
        "CPyDef_rules___DivvyState___perform'2": 7_000, "VecI64_Append": 4_000,
        "_PyObject_Free": 20_000, "PyList_Append": 1_234_567,
        "parquet::arrow::FileWriterImpl::WriteTable(arrow::Table const&, long)": 700,
    }


def test_the_workload_less_its_start_up_is_split_per_unit_into_own_code_vectors_and_the_rest() -> None:
    start_up = exclusive_costs(_annotated(1_000, 0, 0, 0, 5_000, 5_000))
    workload = exclusive_costs(_annotated(41_000, 10_000, 9_000, 10_000, 25_000, 25_000))
    split = shares(workload, start_up, count=10)
    # per unit: own (40,000 + 10,000 + 9,000) / 10, vectors 1,000, the rest (20,000 + 20,000) / 10
    assert (split.total, split.own, split.vectors, split.rest) == (10_900, 5_900, 1_000, 4_000)  # the 700 cancel
    assert split.ceiling == pytest.approx(10_900 / 6_900)


def test_the_share_of_the_rest_to_remove_is_what_takes_the_ratio_to_the_target() -> None:
    split = Shares(total=1_000, own=500, vectors=100)
    # 1.5x to 2.5x: the unit must fall to 1,000 * 1.5 / 2.5 = 600 instructions, 400 of the rest's 400.
    assert split.rest_to_remove(1.5, 2.5) == pytest.approx(1.0)
    assert split.rest_to_remove(2.0, 2.5) == pytest.approx(200 / 400)
    assert split.rest_to_remove(1.2, 2.5) > 1  # out of reach without cutting the own code
