"""Whole-command timings of small runs, cold (each run starts its own Ray) and warm
(``cardlab ray start`` first): ``python -m bench.start_up [--rounds N]``.

Two questions a designer iterates with:

- a 3,000-game run: Party of the Theseus, the heuristic in every seat, 3 players,
  shards of 500 (``cardlab run``): the time from the command to its first game
  (the run's own summary line: ``first game X s after the command started``)
  and to the command's end;
- a 600-game what-if as the dashboard's New run page launches it: the
  ``theseus_demo`` lineup at 3 and 4 players, 150 games each for the baseline
  and for an Oracle worth 2 VP at the end, on the same deals
  (``experiments.whatif``), played by ``cardlab run`` as the launcher does and
  answered by ``cardlab report --sections variants`` (the comparison the page
  opens): the time to the first game and to the comparison printed.

Every number is a whole process's wall time, ``/usr/bin/time``-style, in a
fresh results folder; the warm cluster has two shard players and is stopped at
the end. The median of ``--rounds`` rounds is printed as a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from experiments.spec import load_spec
from experiments.whatif import whatif_spec, whatif_toml

ROOT = Path(__file__).resolve().parents[1]
RUN_3000 = ('name = "theseus_3000"\ngame = "theseus"\ngames = 3000\nseed = 2026\nplayer_counts = [3]\n'
            'agents = ["heuristic"]\nshard_size = 500\n')
FIRST_GAME = re.compile(r"first game ([0-9.]+) s after the command started")


def _cardlab(environment: dict[str, str], *arguments: str) -> tuple[float, str]:
    """Run ``cardlab ARGUMENTS``; its wall time and what it printed (stdout and stderr)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardlab", *arguments], cwd=ROOT, env=environment,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"cardlab {' '.join(arguments)} failed ({done.returncode}):\n{done.stderr}")
    return seconds, done.stdout + done.stderr


def _first_game(output: str) -> float:
    found = FIRST_GAME.search(output)
    if found is None:
        raise SystemExit(f"no first-game time in the run's summary:\n{output}")
    return float(found.group(1))


def _whatif_file(folder: Path) -> Path:
    base = load_spec(ROOT / "experiments" / "theseus_demo.toml")
    spec = whatif_spec(base, "whatif_oracle", {"cards.oracle.end": ["vp 2"]}, 150, [3, 4],
                       [str(agent) for agent in base.agents], source="bench")
    path = folder / "whatif_oracle.toml"
    path.write_text(whatif_toml(spec))
    return path


def one_round(folder: Path, environment: dict[str, str]) -> dict[str, float]:
    """The four timings of one round in ``environment`` (cold or warm)."""
    run_file = folder / "theseus_3000.toml"
    run_file.write_text(RUN_3000)
    whatif = _whatif_file(folder)
    results = tempfile.mkdtemp(prefix="results-", dir=folder)
    run_seconds, run_output = _cardlab(environment, "run", str(run_file), "--results", results, "--no-progress")
    whatif_seconds, whatif_output = _cardlab(environment, "run", str(whatif), "--results", results, "--no-progress")
    report_seconds, _ = _cardlab(environment, "report", "whatif_oracle", "--results", results,
                                 "--sections", "variants")
    return {"run_first_game": _first_game(run_output), "run_end": run_seconds,
            "whatif_first_game": _first_game(whatif_output), "whatif_answer": whatif_seconds + report_seconds}


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.start_up", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each kind; the median is printed")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardlab-start-up-") as temporary:
        folder = Path(temporary)
        cold = {**os.environ, "CARDLAB_WARM_RAY": "off", "XDG_CACHE_HOME": str(folder / "cache")}
        warm = {**cold, "CARDLAB_WARM_RAY": str(folder / "warm-ray.json")}
        rounds: dict[str, list[dict[str, float]]] = {"cold": [], "warm": []}
        for _ in range(options.rounds):
            rounds["cold"].append(one_round(folder, cold))
        start_seconds, _ = _cardlab(warm, "ray", "start", "--workers", "2", "--idle-minutes", "10")
        try:
            for _ in range(options.rounds):
                rounds["warm"].append(one_round(folder, warm))
        finally:
            _cardlab(warm, "ray", "stop")
    print(f"`cardlab ray start` (2 shard players): {start_seconds:.1f} s\n")
    print("| Ray | 3,000-game run: first game | 3,000-game run: whole command | 600-game what-if: first game "
          "| 600-game what-if: comparison printed |\n|---|---:|---:|---:|---:|")
    for kind, measured in rounds.items():
        cells = [statistics.median(row[name] for row in measured)
                 for name in ("run_first_game", "run_end", "whatif_first_game", "whatif_answer")]
        print(f"| {kind} | " + " | ".join(f"{cell:.1f} s" for cell in cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
