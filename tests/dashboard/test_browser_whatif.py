"""A what-if from the browser, end to end: ``cardlab dashboard --allow-runs`` on a free loopback
port with an empty results folder, headless Chromium (Debian's ``chromium``) fills the New run
form (one card of Divvy's card data changed: a second Axes 12; 60 games a variant), launches,
waits for the run (``cardlab run`` on the embedded Ray, through the launcher) to finish, lands
on the What-if result page and reads the comparison: the changed card and its own numbers
first, then the answer. Its screenshot is ``build/screenshots/whatif.png``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.launcher import launch_log, list_runs, spec_file
from tests.dashboard.test_browser import CHROMIUM, ROOT, SCREENSHOTS, Browser, free_port
from tests.launcher.helpers import stopping_runs
from tests.live_dashboard import wait_until_healthy

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium: apt-get install -y chromium")


@pytest.fixture
def launching_dashboard(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``cardlab dashboard --allow-runs --run-workers 1`` on an empty results folder; (address, results)."""
    results = tmp_path / "results"
    results.mkdir()
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "dashboard", "--results", str(results), "--port", str(port),
         "--allow-runs", "--run-workers", "1"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        with stopping_runs(results):
            wait_until_healthy(port, process)
            yield f"http://127.0.0.1:{port}", results
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def until_true(browser: Browser, script: str, timeout: float = 30) -> bool:
    """Evaluate ``script`` until it gives true (False after ``timeout`` seconds): after an
    answer, Streamlit may still be redrawing the form when its status widget has gone."""
    deadline = time.monotonic() + timeout
    while not browser.evaluate(script):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.3)
    return True


TYPING_ATTEMPTS = 3


def type_into(browser: Browser, label: str, text: str, then: str, kept: bool = False) -> None:
    """Type ``text`` into the input whose aria-label is ``label`` (replacing what it holds), press
    Enter, and wait until the page shows ``then`` (and, with ``kept``, until the input holds
    ``text``: for a box whose value the page shows nowhere else). Typed again (at most
    ``TYPING_ATTEMPTS`` times) when it does not: on a loaded machine a rerun still redrawing the
    form can replace the input between the focus and the typing, and the text is lost."""
    box = f"document.querySelector('input[aria-label={json.dumps(label)}]')"
    holds = f"(() => {{ const box = {box}; return !!box && box.value === {json.dumps(text)}; }})()"
    for attempt in range(1, TYPING_ATTEMPTS + 1):
        found = until_true(browser, f"""(() => {{
            const box = {box};
            if (!box) return false;
            box.focus(); box.select(); return true; }})()""")
        assert found, f"no input labelled {label!r}"
        browser.call("Input.insertText", text=text)
        browser.call("Input.dispatchKeyEvent", type="keyDown", key="Enter", code="Enter", windowsVirtualKeyCode=13,
                     text="\r")
        browser.call("Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter", windowsVirtualKeyCode=13)
        try:
            wait_for_text(browser, then, timeout=30 if attempt < TYPING_ATTEMPTS else 60)
            assert not kept or until_true(browser, holds, timeout=5), f"{label!r} does not hold {text!r}"
            return
        except AssertionError:
            if attempt == TYPING_ATTEMPTS:
                raise


def click(browser: Browser, text: str, then: str | tuple[str, ...]) -> None:
    """Click the button that says ``text`` and wait until the page shows ``then`` (or one of several)."""
    clicked = until_true(browser, f"""(() => {{
        const button = [...document.querySelectorAll('button')].find(b => b.innerText.trim() === {json.dumps(text)});
        if (!button) return false;
        button.click(); return true; }})()""")
    assert clicked, f"no button {text!r}"
    wait_for_text(browser, then)


def wait_for_text(browser: Browser, text: str | tuple[str, ...], timeout: float = 60) -> None:
    """Wait until the page's text holds ``text`` (or one of several) and Streamlit is idle."""
    texts = (text,) if isinstance(text, str) else text
    deadline = time.monotonic() + timeout
    while not any(one in page_text(browser) for one in texts) or browser.evaluate(
            "!!document.querySelector('[data-testid=\"stStatusWidget\"]')"):
        assert time.monotonic() < deadline, f"{texts!r} not shown within {timeout} s: {page_text(browser)[-800:]!r}"
        time.sleep(0.3)


def page_text(browser: Browser) -> str:
    return str(browser.evaluate("document.body ? document.body.innerText : ''") or "")


def test_a_divvy_whatif_launched_from_the_browser_opens_on_its_comparison(
        launching_dashboard: tuple[str, Path]) -> None:
    address, results = launching_dashboard
    browser = Browser()
    try:
        browser.load(f"{address}/new_run", "Search parameters")
        # The form starts from the demo's Theseus lineup; this what-if changes a Divvy card.
        type_into(browser, "Start from", "experiments/divvy_baseline.toml", then="Game divvy")
        # The accepted range comes from the game's own validator.
        type_into(browser, "Search parameters", "axes_12.copies", then="an integer, now 1; accepted: 0 to 1000")
        type_into(browser, "New value", "-1", then="New value", kept=True)
        click(browser, "Add change",
              then="new run: variants.whatif.cards.axes_12.copies: expected 0 to 1,000 copies")
        type_into(browser, "New value", "2", then="New value", kept=True)
        click(browser, "Add change", then="Changes: cards.axes_12.copies = 2")
        # Waited for in the line that says what Launch will start: the label alone shows before
        # the value is committed, and a value lost to a rerun is then typed again.
        type_into(browser, "Games per variant and player count", "60", then=": 120 games (60 per variant")
        # On a loaded machine values typed just before Launch could still be uncommitted (a run
        # got the default name and games): the page says what Launch will start, as the server has it.
        type_into(browser, "Name", "browser_whatif", then="Launches browser_whatif: 120 games (60 per variant")
        # The 120 games may be played before a poll sees them running: then the page
        # has moved on to the comparison already.
        click(browser, "Launch", then=("browser_whatif: running (120 games)", "What-if result"))
        deadline = time.monotonic() + 300
        while "What-if result" not in page_text(browser) or "Every metric" not in page_text(browser):
            assert time.monotonic() < deadline, page_text(browser)[:800]
            time.sleep(1)
        wait_for_text(browser, "Every metric")
        time.sleep(1.5)  # let the charts draw
        text = page_text(browser)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        browser.screenshot(SCREENSHOTS / "whatif.png")
        dom = str(browser.evaluate("document.documentElement.outerHTML"))
    finally:
        browser.close()
    assert "cards.axes_12.copies = 2" in text and "Experiment browser_whatif" in text.replace("*", "")
    assert "The answer" in text and "Moved most" in text
    # The page leads with the change: the card by its name, its copies before and after, and its own
    # numbers (play rate first), all before the answer and the rest of the game.
    answer = text.index("The answer")
    assert text.index("What changed") < text.index("Axes 12 (axes_12): copies 1 → 2") < answer
    assert text.index("The changed card's own numbers") < text.index("Axes 12 (heuristic) play rate") < answer
    assert 'data-testid="stException"' not in dom
    assert "stVegaLiteChart" in dom and 'data-testid="stDataFrame"' in dom
    [run] = list_runs(results)
    assert (run.name, run.state, run.who, run.overrides) == ("browser_whatif", "finished", "local",
                                                            {"cards.axes_12.copies": 2})
    assert "paired_seeds = true" in spec_file(results, "browser_whatif").read_text()
    assert [entry["action"] for entry in launch_log(results)] == ["launch"]
