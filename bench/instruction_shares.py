"""How much of a workload's instructions is the compiled code's own, and what that allows (issue 21).

Reads two callgrind profiles of ``bench/hot_path.py`` (a workload and its
``--count 0`` start-up) and splits the workload's instructions, per game (or
search, or clone round), by who executes them:

- *own code*: the functions mypyc generated from the project's typed Python
  (``CPyDef_*`` and their ``CPyPy_*`` wrappers), exclusive of their callees;
- *native vectors*: ``librt``'s ``vec[i64]`` operations (``VecI64_*``);
- *the rest*: CPython's and mypyc's object machinery under the typed code
  (allocating and freeing objects, list appends and pops, boxing ints,
  reference counts, tuples, generic calls, hashing).

If every instruction of *the rest* vanished and the own code stayed as it is,
the workload would run ``total / (own + vectors)`` times faster: the
*ceiling*. Given the speed-up reached so far (``--ratio``) and a target
(``--target``), it also prints the share of *the rest* that would have to go
to reach the target with the own code unchanged.

Usage::

    valgrind --tool=callgrind --dump-instr=no --callgrind-out-file=/tmp/divvy.0 \\
        .venv/bin/python bench/hot_path.py --game divvy --work random --count 0
    valgrind --tool=callgrind --dump-instr=no --callgrind-out-file=/tmp/divvy.400 \\
        .venv/bin/python bench/hot_path.py --game divvy --work random --count 400
    .venv/bin/python bench/instruction_shares.py /tmp/divvy.400 /tmp/divvy.0 400 --ratio 1.41 --target 2.5
"""

from __future__ import annotations

import argparse
import re
import subprocess
from dataclasses import dataclass

# One function's line in ``callgrind_annotate`` output: "  1,234 (12.3%)  file:function [object]".
_LINE = re.compile(r"\s*([\d,]+) \([^)]*\)\s+(.*)$")


def exclusive_costs(annotated: str) -> dict[str, int]:
    """Exclusive instructions per function name in ``callgrind_annotate``'s text
    (the program totals left out; a name's source file and object dropped)."""
    costs: dict[str, int] = {}
    for line in annotated.splitlines():
        match = _LINE.match(line)
        if not match or "PROGRAM TOTALS" in line:
            continue
        # "file:function": a file never holds a colon, a C++ function may ("arrow::Table").
        name = match.group(2).split(" [")[0].partition(":")[2]
        costs[name] = costs.get(name, 0) + int(match.group(1).replace(",", ""))
    return costs


@dataclass(frozen=True)
class Shares:
    """A workload's instructions per unit, split by who executes them."""

    total: float
    own: float
    vectors: float

    @property
    def rest(self) -> float:
        """CPython's and mypyc's object machinery."""
        return self.total - self.own - self.vectors

    @property
    def ceiling(self) -> float:
        """The speed-up if the rest vanished and the own code stayed."""
        return self.total / (self.own + self.vectors)

    def rest_to_remove(self, ratio: float, target: float) -> float:
        """The share of the rest that must go for ``ratio`` to become ``target``
        (more than 1: out of reach without cutting the own code too)."""
        needed = self.total * ratio / target
        return (self.total - needed) / self.rest


def shares(workload: dict[str, int], start_up: dict[str, int], count: int) -> Shares:
    """The shares of ``workload`` less ``start_up``, per unit of ``count``."""
    difference = {name: (workload.get(name, 0) - start_up.get(name, 0)) / count
                  for name in set(workload) | set(start_up)}
    own = sum(cost for name, cost in difference.items() if name.startswith(("CPyDef_", "CPyPy_")))
    vectors = sum(cost for name, cost in difference.items() if name.startswith("VecI64"))
    return Shares(sum(difference.values()), own, vectors)


def annotate(profile: str) -> dict[str, int]:
    """The exclusive costs of a callgrind output file."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", profile],
                          capture_output=True, text=True, check=True).stdout
    return exclusive_costs(text)


def main() -> None:
    """Print the shares of one workload (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workload", help="callgrind output of the workload")
    parser.add_argument("start_up", help="callgrind output of the same command with --count 0")
    parser.add_argument("count", type=int, help="the workload's --count")
    parser.add_argument("--ratio", type=float, help="the speed-up reached so far")
    parser.add_argument("--target", type=float, help="the speed-up wanted")
    options = parser.parse_args()
    split = shares(annotate(options.workload), annotate(options.start_up), options.count)
    print(f"instructions per unit {split.total:,.0f}: own code {split.own / split.total:.1%}, "
          f"native vectors {split.vectors / split.total:.1%}, the rest {split.rest / split.total:.1%}; "
          f"ceiling {split.ceiling:.2f}x")
    if options.ratio and options.target:
        print(f"from {options.ratio:.2f}x to {options.target:.2f}x: "
              f"{split.rest_to_remove(options.ratio, options.target):.0%} of the rest would have to go")


if __name__ == "__main__":
    main()
