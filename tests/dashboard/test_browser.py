"""The dashboard in a real browser: ``cardlab dashboard`` on a free loopback
port, every page loaded by headless Chromium (Debian's ``chromium``; CI
installs it with ``apt-get install -y chromium``) driven over the DevTools
protocol, checked for its key element and for the absence of a Streamlit
exception, with one screenshot per page under ``build/screenshots/``; then
the filters (Cards; the Win rates of one agent), the card detail view and
the comparison opened from shared links, every label of their widgets
present, the address's values shown in the widgets, and no Deploy button;
and a designer's path: the home page's findings, one followed to its
evidence, a card row clicked into that card's detail.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.browser import CHROMIUM, Browser
from tests.dashboard.conftest import Results

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "screenshots"
PAGES = {  # url path -> (experiment, text that only the rendered page shows)
    "": ("ring_tiny", "games played"),
    "experiments": ("ring_tiny", "Select a row to open"),
    "win_rates": ("ring_tiny", "By faction (party)"),
    "cards": ("divvy_tiny", "Sort by"),
    "card": ("ring_tiny", "by the turn it was first played"),
    "compare": ("divvy_tiny", "Compare with (same game)"),
    "variants": ("divvy_tiny", "Significant changes only"),
    "sweeps": ("sweep_tiny", "Parameter (x axis)"),
    "game_length": ("party_tiny", "End reasons"),
    "design": ("divvy_tiny", "Lead changes and comebacks"),
    "skill": ("skill_tiny", "How win rates move with skill"),
    "replay": ("theseus_tiny", "omniscient designer"),
    "sql": ("divvy_tiny", "Download CSV"),
}

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium: apt-get install -y chromium")


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def dashboard(results: Results) -> Iterator[str]:
    """``cardlab dashboard`` on the tiny experiments; yields its base address."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "dashboard", "--results", str(results.root), "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        assert process.stdout is not None
        first_line = process.stdout.readline()
        assert f"http://127.0.0.1:{port}" in first_line  # binds loopback by default and says where
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # Streamlit itself, should it outlive `cardlab`


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for every page."""
    chromium = Browser()
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_renders_in_chromium_without_an_exception(dashboard: str, browser: Browser, page: str) -> None:
    experiment, key_text = PAGES[page]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    screenshot = SCREENSHOTS / f"{page or 'home'}.png"
    dom = browser.load(f"{dashboard}/{page}?experiment={experiment}", key_text)
    if page:  # the home page says the findings in words, with no table to wait for
        dom = browser.wait_for("stDataFrame")
    browser.screenshot(screenshot)
    assert 'data-testid="stException"' not in dom
    assert key_text in dom, f"{page or 'home'}: {key_text!r} not rendered"
    if page:
        assert 'data-testid="stDataFrame"' in dom
    if page not in ("", "experiments", "replay", "sql"):
        assert "stVegaLiteChart" in dom, f"{page}: no chart rendered"
    assert screenshot.stat().st_size > 10_000


def page_text(browser: Browser) -> str:
    """The rendered page's visible text."""
    return str(browser.evaluate("document.body.innerText"))


def widget_labels(browser: Browser) -> list[str]:
    """The labels of every widget on the page, as the browser shows them."""
    return list(browser.evaluate(
        "Array.from(document.querySelectorAll('[data-testid=\"stWidgetLabel\"]')).map(e => e.innerText.trim())"))


def input_value(browser: Browser, label: str) -> str:
    """The value of the text or number input labelled ``label``."""
    return str(browser.evaluate(f"document.querySelector('input[aria-label=\"{label}\"]').value"))


def test_a_shared_link_opens_the_cards_page_with_its_filters_and_every_label(
        dashboard: str, browser: Browser) -> None:
    dom = browser.load(f"{dashboard}/cards?experiment=divvy_tiny&agent=random&search=axes&sort=card&min_games=2",
                       "Every column")
    dom = browser.wait_for("stDataFrame")
    assert 'data-testid="stException"' not in dom and "Deploy" not in page_text(browser)
    labels = widget_labels(browser)
    for label in ("Experiment", "Variant", "Agent (cards held by)", "Sort by",
                  "At least this many seat-games in hand", "Card name contains",
                  "Show", "Every column"):
        assert label in labels, (label, labels)
    assert "Faction (of the seat holding the card)" not in labels  # Divvy has no factions
    text = page_text(browser)
    assert "random" in text and "card" in text  # the address's agent and sort, shown in their boxes
    assert input_value(browser, "Card name contains") == "axes" and input_value(
        browser, "At least this many seat-games in hand") == "2"
    assert 'data-testid="stDataFrame"' in dom and "stVegaLiteChart" in dom
    # The improvement-when-drawn axis ticks in points (+0.4), the play-rate axis in percent.
    ticks = [line.strip() for line in text.splitlines()]
    assert any(re.fullmatch(r"[+−][\d.]+", tick) for tick in ticks), ticks
    assert not any(re.fullmatch(r"[+−][\d.]+%", tick) for tick in ticks)
    assert any(re.fullmatch(r"\d+%", tick) for tick in ticks)
    browser.screenshot(SCREENSHOTS / "cards_filtered.png")


def test_the_card_detail_view_shows_one_card_across_variants_and_its_trend(dashboard: str, browser: Browser) -> None:
    dom = browser.load(f"{dashboard}/card?experiment=ring_tiny&card=fireball&players=4",
                       "Fireball by the turn it was first played")
    assert 'data-testid="stException"' not in dom
    text = page_text(browser)
    assert "Fireball in every variant, player count and agent" in text
    labels = widget_labels(browser)
    for label in ("Card", "Variant", "Players"):
        assert label in labels, (label, labels)
    dom = browser.wait_for("stDataFrame", count=2)  # the second table mounts last, later on a busy machine
    assert dom.count('data-testid="stDataFrame"') == 2 and dom.count("stVegaLiteChart") >= 2
    browser.screenshot(SCREENSHOTS / "card_fireball.png")


def test_the_comparison_puts_two_experiments_side_by_side_with_every_label(dashboard: str, browser: Browser) -> None:
    dom = browser.load(f"{dashboard}/compare?experiment=divvy_tiny&other=sweep_tiny&what=card_stats",
                       "Compare with (same game)")
    assert 'data-testid="stException"' not in dom
    text = page_text(browser)
    assert "Left: divvy_tiny" in text and "Right: sweep_tiny" in text
    assert "Difference = right − left" in text
    labels = widget_labels(browser)
    for label in ("Compare with (same game)", "What"):
        assert label in labels, (label, labels)
    assert "Cards (GIH win rate per agent)" in text  # the address's choice, shown in its box
    assert 'data-testid="stDataFrame"' in dom and "stVegaLiteChart" in dom
    browser.screenshot(SCREENSHOTS / "compare.png")


def test_a_shared_link_opens_one_agents_win_rates_with_every_label(dashboard: str, browser: Browser) -> None:
    dom = browser.load(f"{dashboard}/win_rates?experiment=divvy_tiny&agent=random&variant=four_rounds",
                       "Win rate by seat, held by random")
    dom = browser.wait_for("stDataFrame")
    assert 'data-testid="stException"' not in dom
    labels = widget_labels(browser)
    for label in ("Experiment", "Variant (factions, matchups, powers, compositions, runs)", "Agent (seats held by)"):
        assert label in labels, (label, labels)
    text = page_text(browser)
    assert "random" in text and "four_rounds" in text  # the address's agent and variant, shown in their boxes
    assert "The seat, faction and matchup tables are random's seats only" in text
    assert 'data-testid="stDataFrame"' in dom and "stVegaLiteChart" in dom
    browser.screenshot(SCREENSHOTS / "win_rates_random.png")


def url(browser: Browser) -> str:
    """The page's address, as the browser has it now."""
    return str(browser.evaluate("window.location.href"))


def wait_for_text(browser: Browser, text: str, timeout: float = 60) -> str:
    """Wait until the page's text holds ``text`` and Streamlit is idle; the text."""
    deadline = time.monotonic() + timeout
    while True:
        shown = page_text(browser)
        busy = browser.evaluate("!!document.querySelector('[data-testid=\"stStatusWidget\"]')")
        if text in shown and not busy:
            return shown
        assert time.monotonic() < deadline, f"{text!r} not shown within {timeout} s: {shown[:600]!r}"
        time.sleep(0.3)


def click_at(browser: Browser, x: float, y: float) -> None:
    """A left click of the mouse at viewport pixel (x, y)."""
    for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
        browser.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)


def test_the_home_page_says_the_findings_and_a_findings_link_opens_its_evidence(
        dashboard: str, browser: Browser) -> None:
    browser.load(f"{dashboard}/?experiment=ring_tiny", "games played")
    text = page_text(browser)
    assert "Findings" in text and "Factions that" not in text
    first = text.split("1. ", 1)[1].split(" · ", 1)[0]  # the first finding's headline
    assert "wins" in first  # a faction or a card that stands out, in words
    links = browser.evaluate("Array.from(document.querySelectorAll('[data-testid=\"stPageLink-NavLink\"]'))"
                             ".filter(a => a.href.includes('finding=')).map(a => a.href)")
    assert links and "finding=0" in links[0], links
    browser.screenshot(SCREENSHOTS / "home_findings.png")
    browser.evaluate("Array.from(document.querySelectorAll('[data-testid=\"stPageLink-NavLink\"]'))"
                     ".find(a => a.href.includes('finding=0')).click()")
    shown = wait_for_text(browser, "From the findings:")
    assert first in shown  # the page says which finding it shows
    address = url(browser)
    assert "finding=0" in address and "variant=" in address and "players=" in address, address
    dom = browser.wait_for("stDataFrame")
    assert 'data-testid="stException"' not in dom
    browser.screenshot(SCREENSHOTS / "finding_evidence.png")


def test_a_card_row_clicked_opens_that_cards_detail(dashboard: str, browser: Browser) -> None:
    browser.load(f"{dashboard}/cards?experiment=ring_tiny&min_games=0&sort=card", "Every column")
    browser.wait_for("stDataFrame")
    time.sleep(1.0)  # the grid draws its rows after it mounts
    box = browser.evaluate("""(() => {
        const grid = document.querySelector('[data-testid="stDataFrame"]');
        grid.scrollIntoView({block: 'center'});
        const r = grid.getBoundingClientRect();
        return [r.left, r.top, r.width, r.height]; })()""")
    left, top = float(box[0]), float(box[1])
    # Sorted by name, the first row is the alphabetically first card; a click on its row's
    # selection box (left of the header's 35 pixels and the row's 35) opens its detail.
    click_at(browser, left + 18, top + 35 + 17)
    shown = wait_for_text(browser, "by the turn it was first played")
    address = url(browser)
    assert "/card?" in address and "card=" in address and "experiment=ring_tiny" in address, address
    card = address.split("card=", 1)[1].split("&", 1)[0]
    assert card == "bow", address  # the first card by name of those held in Ring of Chaos
    assert "Bow" in shown and "Bow in every variant, player count and agent" in shown
    browser.screenshot(SCREENSHOTS / "card_from_row.png")
