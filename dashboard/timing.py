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

Imports (Polars, DuckDB, Altair) are paid once before timing starts. Not a
test: the numbers depend on the machine and go into README's Dashboard section.

    python -m dashboard.timing --experiment divvy_million [--results results] [--cold]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

from analytics.partials import CACHE_FOLDER

APP = Path(__file__).resolve().parent / "app.py"
PAGES = ("experiments", "win_rates", "cards", "variants", "sweeps", "game_length", "replay", "sql")
TIMEOUT = 600


def open_app(experiment: str, page: str) -> AppTest:
    """An AppTest of ``page`` with ``experiment`` chosen (not run yet)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["experiment"] = experiment
    at.switch_page(f"pages/{page}.py")
    return at


def timed(run: AppTest) -> float:
    """Seconds ``run.run()`` takes; raises if the page raised."""
    start = time.perf_counter()
    run.run()
    seconds = time.perf_counter() - start
    if run.exception:
        raise RuntimeError(f"the page raised: {run.exception}")
    return seconds


def time_page(experiment: str, page: str, *, new_server: bool) -> tuple[float, float]:
    """(first load, rerun) of ``page`` in seconds; with ``new_server`` the caches are emptied first."""
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
    arguments = parser.parse_args(argv)
    folder = arguments.results / arguments.experiment
    if not (folder / "spec.json").is_file():
        print(f"{folder}: not an experiment folder; expected spec.json from `cardlab run`", file=sys.stderr)
        return 2
    os.environ["CARDLAB_RESULTS"] = str(arguments.results)
    open_app(arguments.experiment, "sql").run()  # imports, paid once
    if arguments.cold:
        shutil.rmtree(folder / CACHE_FOLDER, ignore_errors=True)
    new_server = {page: time_page(arguments.experiment, page, new_server=True) for page in PAGES}
    for page in PAGES:  # every page visited once: the server is warm
        open_app(arguments.experiment, page).run()
    print("| page | first load, new server (s) | first load, warm server (s) | rerun (s) |\n|---|---:|---:|---:|")
    for page in PAGES:
        warm, rerun = time_page(arguments.experiment, page, new_server=False)
        print(f"| {page} | {new_server[page][0]:.2f} | {warm:.2f} | {rerun:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
