"""``cardlab bench --compare REF``: the working tree against a git ref, in one run.

Speed gates ("within 10% of before", "2.5x today's") are ratios of two
builds measured on the same machine at the same time; rates measured an
hour apart on a shared machine are not comparable. So:

1. REF is checked out in a temporary git worktree and its compiled core is
   built there by its own build: the module list and the mypyc levels of its
   own ``Makefile`` (read with ``make --eval``, no recipe of it runs) and its
   own ``bench/compile_core.py``, which shares the compile cache
   (``~/.cache/cardlab/compiled``), so a ref built before takes a second.
2. Both sides are measured by the same ``workers.bench.run_bench`` of their
   own tree (engine games/s, decisions/s, recorded games/s; one core, per CPU
   second), each in its own subprocess whose ``sys.path`` starts at its own
   tree, so each imports its own sources and ``.so`` files (checked). A round
   runs ``run_bench`` twice and keeps the second: neither side then pays a fresh
   process's first touch of memory (older trees' benches warmed up less).
3. The rounds alternate, working tree then REF, round after round (A B A B
   ...), one game and agent after another, so a change of load hits both
   sides alike; each side's rate is the median of its rounds, and the ratio
   (working tree / REF) is taken per round, then its median and its range
   over the rounds are printed.

With ``search``, each round measures ISMCTS iterations per CPU second instead
(``workers.bench.bench_search``'s positions along one seeded random game, 200
iterations each, random rollouts), one row per game.

The working tree is measured as ``make compile`` left it (its compiled core,
or interpreted when there is none: the header says which, for both sides).
The header also gives the one-minute load average before the first round and
after the last, and the cores: on a 2-core machine a ratio measured beside
another busy process moves by ±10% from one run to the next (README,
Development), so a figure is never quoted without its load.
This file is also the subprocess's script (``--measure``): run as a script,
it imports nothing of the project but what it measures.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
"""The working tree measured against REF (the checkout this file is in)."""

RATES = (
    ("engine games/s", "engine_games_per_second"),
    ("decisions/s", "decisions_per_second"),
    ("recorded games/s", "recorded_games_per_second"),
)
"""The rates compared: (label, ``workers.bench.BenchRow`` field)."""

SEARCH_RATES = (("ISMCTS iterations/s", "iterations_per_second"),)
"""The rate compared with ``--search``: ISMCTS iterations per CPU second."""

SEARCH_POSITIONS = 20
SEARCH_ITERATIONS = 200
"""``--search`` measures ``workers.bench.bench_search``'s positions and budget (``cardlab bench --search``)."""

TREE = "working tree"


class CompareError(Exception):
    """REF could not be built or a side could not be measured (one line)."""


class BadRefError(CompareError):
    """REF names no commit of this repository."""


@dataclass(frozen=True)
class Side:
    """One side of the comparison: its name and the root of its tree."""

    name: str
    root: Path


@dataclass
class Measured:
    """Every round's rates of one (game, agent, player count), per side."""

    game: str
    agent: str
    n_players: int
    rates: dict[str, dict[str, list[float]]]  # side name -> rate field -> one value per round


def _run(command: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), cwd=cwd, env=env, capture_output=True, text=True, check=False)


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def resolve_ref(ref: str, root: Path = PROJECT_ROOT) -> str:
    """The commit REF names in the repository at ``root``; ``BadRefError`` if none."""
    if ref.startswith("-"):
        raise BadRefError(f"--compare {ref}: expected a git ref (a commit, branch or tag), not an option")
    found = _run(["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], root)
    if found.returncode != 0:
        inside = _run(["git", "rev-parse", "--git-dir"], root)
        if inside.returncode != 0:
            raise BadRefError(f"--compare {ref}: {root} is not a git checkout, so there is no ref to compare with")
        raise BadRefError(f"--compare {ref}: expected a commit, branch or tag of the repository at {root}")
    return found.stdout.strip()


def make_variables(root: Path, names: Sequence[str]) -> dict[str, str]:
    """The values of ``names`` in the ``Makefile`` at ``root``, as ``make`` computes
    them (environment overrides included); no recipe of the Makefile runs."""
    target = "cardlab-compare-print-variables"
    recipe = "; ".join(f"echo '{name}=$({name})'" for name in names)
    printed = _run(["make", "-s", "--no-print-directory", "--eval", f"{target}: ; @{recipe}", target], root)
    if printed.returncode != 0:
        raise CompareError(f"could not read the Makefile at {root}: {_last_line(printed.stderr)}")
    values = dict(line.split("=", 1) for line in printed.stdout.splitlines() if "=" in line)
    return {name: values.get(name, "").strip() for name in names}


def build_compiled_core(root: Path) -> str:
    """Build the compiled core of the tree at ``root`` as its own ``make compile``
    would (its module list and levels, its ``bench/compile_core.py``, the shared
    compile cache); the build's last line."""
    if not (root / "bench" / "compile_core.py").is_file():
        raise CompareError("it has no bench/compile_core.py to build its compiled core with")
    variables = make_variables(root, ["COMPILED", "MYPYC_OPT_LEVEL", "MYPYC_DEBUG_LEVEL"])
    modules = variables["COMPILED"].split()
    if not modules:
        raise CompareError("its Makefile lists no compiled module (COMPILED)")
    env = {**os.environ, "MYPYC_OPT_LEVEL": variables["MYPYC_OPT_LEVEL"] or "1",
           "MYPYC_DEBUG_LEVEL": variables["MYPYC_DEBUG_LEVEL"] or "0"}
    built = _run([sys.executable, "bench/compile_core.py", *modules], root, env)
    if built.returncode != 0:
        raise CompareError(f"its compiled core did not build: {_last_line(built.stdout + built.stderr)}")
    # As the Makefile of a ref before the content check did: a fresh mtime, or that ref's simcore
    # refuses a .so "older" than its new checkout (later refs compare the sources' hashes).
    for extension in (root / "simcore").rglob("*.so"):
        extension.touch()
    return _last_line(built.stdout)


def measure_side(side: Side, game_ids: Sequence[str], agents: Sequence[str], games: int,
                 search: bool = False) -> dict[str, Any]:
    """One round of one side, in a subprocess importing that side's tree:
    ``{"compiled": bool, "rows": [BenchRow fields...]}`` (``search``: ISMCTS rows instead)."""
    request = json.dumps({"root": str(side.root), "games": list(game_ids), "agents": list(agents), "n": games,
                          "search": search})
    env = {**os.environ, "PYTHONPATH": str(side.root)}
    finished = _run([sys.executable, str(Path(__file__).resolve()), "--measure", request], side.root, env)
    if finished.returncode != 0:
        raise CompareError(f"{side.name}: {_last_line(finished.stderr)}")
    result: dict[str, Any] = json.loads(_last_line(finished.stdout))
    return result


def alternate(sides: Sequence[Side], rounds: int) -> list[tuple[int, Side]]:
    """The measuring order: every side once per round, in the same order (A B A B ...)."""
    return [(number, side) for number in range(1, rounds + 1) for side in sides]


def run_compare(sides: Sequence[Side], game_ids: Sequence[str], agents: Sequence[str], games: int, rounds: int,
                progress: Callable[[str], None], search: bool = False) -> tuple[list[Measured], dict[str, bool]]:
    """Measure ``sides`` in alternating rounds, one game and agent at a time (so
    that the two measurements of a round are minutes apart at most); the rates
    per configuration and whether each side's core was compiled. With
    ``search``, one ISMCTS measurement per game instead of one per agent."""
    measured: dict[tuple[str, str, int], Measured] = {}
    compiled: dict[str, bool] = {}
    rates = SEARCH_RATES if search else RATES
    for game_id in game_ids:
        for agent in [_search_agent()] if search else agents:
            for number, side in alternate(sides, rounds):
                progress(f"{game_id}, {agent}, round {number} of {rounds}: {side.name}")
                result = measure_side(side, [game_id], [agent], games, search)
                compiled[side.name] = bool(result["compiled"])
                for row in result["rows"]:
                    _add_round(measured, side.name, row, rates)
    return list(measured.values()), compiled


def _search_agent() -> str:
    """The agent column of an ISMCTS measurement."""
    return f"ismcts(iterations={SEARCH_ITERATIONS},rollout=random)"


def _add_round(measured: dict[tuple[str, str, int], Measured], side: str, row: dict[str, Any],
               rates: Sequence[tuple[str, str]] = RATES) -> None:
    """Append one round's rates of ``side`` (a ``BenchRow`` as a dict) to its configuration's lists."""
    key = (row["game"], row["agent"], int(row["n_players"]))
    entry = measured.setdefault(key, Measured(*key, {}))
    side_rates = entry.rates.setdefault(side, {field: [] for _, field in rates})
    for _, field in rates:
        side_rates[field].append(float(row[field]))


def format_compare(measured: Sequence[Measured], tree: str, ref: str,
                   rates: Sequence[tuple[str, str]] = RATES) -> str:
    """The comparison as a plain-text table: per game, agent and rate, each side's
    median over the rounds and the ratio tree / ref, median (min-max) of the rounds."""
    header = ["game", "agent", "players", "rate", tree, ref, f"ratio {tree} / {ref}, median (min-max)"]
    lines = [header]
    for entry in measured:
        for label, field in rates:
            ours, theirs = entry.rates[tree][field], entry.rates[ref][field]
            ratios = [mine / other for mine, other in zip(ours, theirs, strict=True)]
            lines.append([entry.game, entry.agent, str(entry.n_players), label,
                          f"{statistics.median(ours):,.0f}", f"{statistics.median(theirs):,.0f}",
                          f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"])
    widths = [max(len(line[column]) for line in lines) for column in range(len(header))]
    right = {2, 4, 5}  # numbers align right
    return "\n".join("  ".join(cell.rjust(widths[column]) if column in right else cell.ljust(widths[column])
                               for column, cell in enumerate(line)).rstrip() for line in lines)


def compare(ref: str, game_ids: Sequence[str], agents: Sequence[str], games: int, rounds: int,
            progress: Callable[[str], None], search: bool = False) -> str:
    """``cardlab bench --compare REF``: the header line and the table (see the module docstring);
    ``search``: ISMCTS iterations/s per game instead of the engine rates."""
    commit = resolve_ref(ref)
    with tempfile.TemporaryDirectory(prefix="cardlab-compare-") as folder:
        ref_root = Path(folder) / "ref"
        added = _run(["git", "worktree", "add", "--detach", "--quiet", str(ref_root), commit], PROJECT_ROOT)
        if added.returncode != 0:
            raise CompareError(f"--compare {ref}: git worktree add failed: {_last_line(added.stderr)}")
        try:
            progress(f"building {ref} ({commit[:10]}) in a temporary worktree: ...")
            try:
                progress(build_compiled_core(ref_root))
            except CompareError as error:
                raise CompareError(f"--compare {ref}: {error}") from None
            sides = (Side(TREE, PROJECT_ROOT), Side(ref, ref_root))
            load_before = os.getloadavg()[0]
            measured, compiled = run_compare(sides, game_ids, agents, games, rounds, progress, search)
            load_after = os.getloadavg()[0]
        finally:
            _run(["git", "worktree", "remove", "--force", str(ref_root)], PROJECT_ROOT)
            _run(["git", "worktree", "prune"], PROJECT_ROOT)
    cores = ", ".join(f"{side.name} {'compiled' if compiled[side.name] else 'INTERPRETED'}" for side in sides)
    measurement = (f"{SEARCH_POSITIONS} ISMCTS searches" if search else f"{games:,} games") + " a measurement"
    header = (f"{TREE} ({PROJECT_ROOT}) against {ref} ({commit[:10]}): {rounds} alternating rounds of "
              f"{measurement}, one core, rates per CPU second ({cores}); load average "
              f"{load_before:.1f} before the rounds, {load_after:.1f} after, {os.cpu_count()} cores")
    return header + "\n\n" + format_compare(measured, TREE, ref, SEARCH_RATES if search else RATES)


def _measure(request: dict[str, Any]) -> dict[str, Any]:
    """The subprocess's work: one round of ``workers.bench.run_bench`` of the tree
    at ``request["root"]`` (run twice, the second run's rates kept), refusing to
    measure modules imported from elsewhere."""
    from dataclasses import asdict
    from importlib.machinery import EXTENSION_SUFFIXES

    import simcore.play
    import workers.bench

    root = Path(request["root"]).resolve()
    for module in (simcore.play, workers.bench):
        source = Path(str(module.__file__)).resolve()
        if not source.is_relative_to(root):
            raise RuntimeError(f"{module.__name__} was imported from {source}, not from {root}")
    compiled = str(simcore.play.__file__).endswith(tuple(EXTENSION_SUFFIXES))
    if request.get("search"):
        return {"compiled": compiled, "rows": [_measure_search(game_id) for game_id in request["games"]]}
    # Measured twice, the second time kept: both sides then measure a process
    # that has played such shards before, whatever their own bench warms up.
    workers.bench.run_bench(request["games"], request["agents"], request["n"])
    rows = workers.bench.run_bench(request["games"], request["agents"], request["n"])
    return {"compiled": compiled, "rows": [asdict(row) for row in rows]}


def _measure_search(game_id: str) -> dict[str, Any]:
    """ISMCTS iterations per CPU second of ``workers.bench.bench_search`` (random
    rollouts) on ``game_id``: its own rate is per wall second, so the whole call
    is timed here, the walk that picks the positions included (one seeded game)."""
    import time

    import workers.bench

    started = time.process_time()
    row = workers.bench.bench_search(game_id, "random", SEARCH_POSITIONS, SEARCH_ITERATIONS)
    seconds = time.process_time() - started
    return {"game": game_id, "agent": _search_agent(), "n_players": row.n_players,
            "iterations_per_second": row.iterations / seconds}


if __name__ == "__main__" and sys.argv[1:2] == ["--measure"]:
    print(json.dumps(_measure(json.loads(sys.argv[2]))))
