"""Time every dashboard page on one experiment: ``python -m dashboard.timing``.

Each page runs headless in Streamlit's ``AppTest`` (the code path of a
browser session, without the browser's drawing) through ``dashboard/app.py``:

- *first load, new server*: the page opened with Streamlit's caches
  emptied (``st.cache_data`` and ``st.cache_resource``, as in a new server
  process), so it computes the report and opens the catalog itself; with
  ``--cold`` the per-shard count cache on disk (``analytics.partials``) is
  deleted once first, so the first page also pays for counting every shard;
- *first load, warm server*: the page opened in a new session after every
  page has been opened once (the report and the catalog are shared by all
  pages and sessions of a server);
- *rerun*: the same page run again, as any widget change does; for the
  Replay page, moving the turn slider to the last turn.

Imports (Polars, DuckDB, Altair) and the scan of the installed packages for
Streamlit components are paid once before timing starts, as a server pays
them once when it starts. Each first load also gives its CPU seconds (every
thread of this process), which a busy machine does not inflate. Not a
test: the numbers depend on the machine and go into docs/development/performance.md.

    python -m dashboard.timing --experiment divvy_million [--results results] [--cold]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.testing.v1 import AppTest

from analytics.partials import CACHE_FOLDER

APP = Path(__file__).resolve().parent / "app.py"
PAGES = ("home", "experiments", "win_rates", "cards", "card", "variants", "compare", "sweeps", "tuning",
         "game_length", "skill", "design", "impact", "replay", "sql", "new_run", "whatif")
"""Every page of ``dashboard/app.py``, the home page (Findings) first."""
TIMEOUT = 600


def scan_components_once() -> Callable[[], None]:
    """A server scans the installed packages for Streamlit components once, when it starts;
    ``AppTest`` does it on every run (a second or more of CPU), so the first answer is kept
    and served again (the installed packages do not change meanwhile): the timings are those
    of the page, and the tests' ``AppTest`` runs pay the scan once. Returns what puts the
    scanner back; nothing is changed if Streamlit moved it."""
    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:
        return lambda: None
    scan = manifest_scanner.scan_component_manifests
    found: list[Any] = []

    def scan_once(max_workers: int | None = None) -> Any:
        if not found:
            found.append(scan(max_workers))
        return list(found[0])

    manifest_scanner.scan_component_manifests = scan_once
    return lambda: setattr(manifest_scanner, "scan_component_manifests", scan)


def open_app(experiment: str, page: str) -> AppTest:
    """An AppTest of ``page`` with ``experiment`` chosen (not run yet)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["experiment"] = experiment
    at.switch_page(f"pages/{page}.py")
    return at


@dataclass(frozen=True)
class Timing:
    """One page run: wall seconds, and CPU seconds of this process (every thread: the page's,
    DuckDB's), which a busy machine does not inflate."""

    wall: float
    cpu: float


def timed(run: AppTest) -> Timing:
    """How long ``run.run()`` takes; raises if the page raised."""
    start, cpu = time.perf_counter(), time.process_time()
    run.run()
    timing = Timing(time.perf_counter() - start, time.process_time() - cpu)
    if run.exception:
        raise RuntimeError(f"the page raised: {run.exception}")
    return timing


def time_page(experiment: str, page: str, *, new_server: bool) -> tuple[Timing, Timing]:
    """(first load, rerun) of ``page``; with ``new_server`` the caches are emptied first."""
    if new_server:
        st.cache_data.clear()
        st.cache_resource.clear()
    at = open_app(experiment, page)
    first = timed(at)
    if page == "replay" and at.select_slider:
        slider = at.select_slider[0]
        slider.set_value(slider.options[-1])
    return first, timed(at)


def main(argv: list[str] | None = None) -> int:
    """Print a Markdown table of first-load and rerun times per page."""
    parser = argparse.ArgumentParser(prog="python -m dashboard.timing", description=__doc__.splitlines()[0])
    parser.add_argument("--experiment", required=True)
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--cold", action="store_true", help="delete the per-shard count cache first")
    parser.add_argument("--pages", nargs="+", choices=PAGES, default=list(PAGES), help="the pages to time")
    arguments = parser.parse_args(argv)
    folder = arguments.results / arguments.experiment
    if not (folder / "spec.json").is_file():
        print(f"{folder}: not an experiment folder; expected spec.json from `cardlab run`", file=sys.stderr)
        return 2
    os.environ["CARDLAB_RESULTS"] = str(arguments.results)
    scan_components_once()
    open_app(arguments.experiment, "sql").run()  # imports, paid once
    if arguments.cold:
        shutil.rmtree(folder / CACHE_FOLDER, ignore_errors=True)
    pages = arguments.pages
    new_server = {page: time_page(arguments.experiment, page, new_server=True)[0] for page in pages}
    for page in pages:  # every page visited once: the server is warm
        open_app(arguments.experiment, page).run()
    print(f"Load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")
    print("| page | first load, new server (s) | of which CPU (s) | first load, warm server (s) | rerun (s) |\n"
          "|---|---:|---:|---:|---:|")
    for page in pages:
        warm, rerun = time_page(arguments.experiment, page, new_server=False)
        first = new_server[page]
        print(f"| {page} | {first.wall:.2f} | {first.cpu:.2f} | {warm.wall:.2f} | {rerun.wall:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
