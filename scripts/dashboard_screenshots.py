"""Screenshots of every dashboard page, made from the shipped example specs.

Plays the first ``--games`` games per variant and player count of a few example specs of
``experiments/`` (``cardlab run SPEC --games N``, into ``<name>-games-N``; the card impact
spec of Divvy likewise, per arm), a one-card what-if of Theseus (the Oracle drawing 1 instead
of 2, on the baseline's seeds) and the Oracle's balance search cut down (``cardlab tune
experiments/tune/theseus_oracle_tune.toml --trials 8 --games 100``), starts
``cardlab dashboard --allow-runs`` on them, opens every page in headless Chromium (Debian's
``chromium``) and saves one PNG per page as ``docs/images/dashboard-<page>.png``, the images of
docs/guides/dashboard.md. Experiments already played are kept (``--replay`` plays them again).

    .venv/bin/python scripts/dashboard_screenshots.py [--games 200] [--results build/screenshot-results]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser import CHROMIUM, Browser  # noqa: E402
from experiments.spec import load_spec  # noqa: E402
from experiments.whatif import whatif_spec, whatif_toml  # noqa: E402

SPECS = ("divvy_baseline", "divvy_sweep", "ring_of_chaos_baseline", "party_wanted_baseline", "theseus_baseline",
         "divvy_skill_ladder", "divvy_impact")
"""The example specs played (``experiments/<name>.toml``)."""
WHATIF = ("oracle_draw_one", "theseus_baseline", {"cards.oracle.use": ["draw 1"]})
"""The what-if: its name, the spec it changes and the change (one card)."""
TUNE = ("theseus_oracle_tune", ("--trials", "8", "--games", "100"))
"""The balance search: its spec (``experiments/tune/<name>.toml``, its results under that name) and
how it is cut down (a few points, small first looks: a minute or two)."""


@dataclass(frozen=True)
class Shot:
    """One screenshot: the page's address path, its experiment (a played spec's name), more of
    its address, the text the page shows once drawn, and the image's name."""

    path: str
    spec: str
    params: str
    ready: str
    image: str


SHOTS = (
    Shot("", "divvy_baseline", "", "games played", "findings"),
    Shot("experiments", "divvy_baseline", "", "Select a row to open", "experiments"),
    Shot("win_rates", "ring_of_chaos_baseline", "", "By faction", "win-rates"),
    Shot("cards", "ring_of_chaos_baseline", "", "Every column", "cards"),
    Shot("card", "ring_of_chaos_baseline", "&card=fireball", "by the turn it was first played", "card-detail"),
    Shot("variants", "divvy_baseline", "&variant=no_twelves", "Every difference", "variants"),
    Shot("compare", "divvy_baseline", "&other={divvy_sweep}", "Side by side", "compare"),
    Shot("sweeps", "divvy_sweep", "", "Parameter (x axis)", "sweeps"),
    Shot("tuning", "theseus_oracle_tune", "", "Objective over the trials", "tuning"),
    Shot("game_length", "party_wanted_baseline", "", "End reasons", "game-length"),
    Shot("skill", "divvy_skill_ladder", "", "How win rates move with skill", "skill"),
    Shot("design", "divvy_baseline", "", "Decisiveness", "design"),
    Shot("impact", "divvy_impact", "", "Correlational rate against causal impact", "impact"),
    Shot("replay", "theseus_baseline", "", "omniscient designer", "replay"),
    Shot("sql", "divvy_baseline", "", "Download CSV", "sql"),
    Shot("new_run", "divvy_baseline", "", "Search parameters", "new-run"),
    Shot("whatif", "oracle_draw_one", "", "Every metric", "whatif"),
)
"""Every page of ``dashboard/app.py``, in menu order."""


def played_name(spec: str, games: int) -> str:
    """The folder ``cardlab run --games`` writes a spec's first games into (the what-if and the
    balance search: their own names)."""
    return spec if spec in (WHATIF[0], TUNE[0]) else f"{spec}-games-{games}"


def play(results: Path, games: int, workers: int, replay: bool) -> None:
    """Play every spec of ``SPECS`` (its first ``games``), the what-if and the balance search,
    unless already there."""
    cardlab = [sys.executable, "-m", "cardlab"]
    common = ["--results", str(results), "--workers", str(workers), "--no-progress"]
    for spec in SPECS:
        if replay or not (results / played_name(spec, games) / "spec.json").is_file():
            subprocess.run([*cardlab, "run", str(ROOT / "experiments" / f"{spec}.toml"), "--games", str(games),
                            "--overwrite", *common], check=True, cwd=ROOT)
    name, base, change = WHATIF
    if replay or not (results / name / "spec.json").is_file():
        baseline = load_spec(ROOT / "experiments" / f"{base}.toml")
        whatif = whatif_spec(baseline, name, change, games, list(baseline.player_counts),
                             [str(agent) for agent in baseline.agents], source="scripts/dashboard_screenshots.py",
                             description="What if the Oracle drew 1 card instead of 2?")
        with tempfile.TemporaryDirectory() as folder:
            file = Path(folder) / f"{name}.toml"
            file.write_text(whatif_toml(whatif))
            subprocess.run([*cardlab, "run", str(file), "--overwrite", *common], check=True, cwd=ROOT)
    tune, cut = TUNE
    if replay or not (results / tune).is_dir():
        subprocess.run([*cardlab, "tune", str(ROOT / "experiments" / "tune" / f"{tune}.toml"), *cut, "--overwrite",
                        *common], check=True, cwd=ROOT)


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def shoot(results: Path, out: Path, games: int) -> list[Path]:
    """Start the dashboard on ``results`` and save every page of ``SHOTS`` under ``out``."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "cardlab", "dashboard", "--results", str(results), "--port",
                               str(port), "--allow-runs"], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    saved = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        browser = Browser()
        try:
            names = {spec: played_name(spec, games) for spec in (*SPECS, WHATIF[0], TUNE[0])}
            for shot in SHOTS:
                address = (f"http://127.0.0.1:{port}/{shot.path}?experiment={names[shot.spec]}"
                           + shot.params.format(**names))
                browser.load(address, shot.ready, timeout=180)
                browser.wait_for("stVegaLiteChart", timeout=10)
                time.sleep(1.0)  # the grids and charts draw after they mount
                image = out / f"dashboard-{shot.image}.png"
                browser.screenshot(image)
                saved.append(image)
                print(f"{image.relative_to(ROOT) if image.is_relative_to(ROOT) else image}", flush=True)
        finally:
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=ROOT / "build" / "screenshot-results")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--games", type=int, default=200, help="games per variant and player count of each spec")
    parser.add_argument("--workers", type=int, default=2, help="CPUs for local Ray")
    parser.add_argument("--replay", action="store_true", help="play the experiments again")
    arguments = parser.parse_args(argv)
    if CHROMIUM is None:
        print("scripts/dashboard_screenshots.py: no chromium on the PATH; expected Debian's "
              "(apt-get install -y chromium)", file=sys.stderr)
        return 2
    arguments.results.mkdir(parents=True, exist_ok=True)
    arguments.out.mkdir(parents=True, exist_ok=True)
    play(arguments.results, arguments.games, arguments.workers, arguments.replay)
    shoot(arguments.results, arguments.out, arguments.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
