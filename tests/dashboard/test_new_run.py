"""The New run page (AppTest): launching is off without --allow-runs; beyond loopback a wrong
token unlocks nothing; the parameter form (types, current values, accepted ranges, search)
and its one-line errors, which are the spec reader's; the queue with two launches, one
cancelled, across a dashboard restart; a finished what-if opening on its comparison."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
from streamlit import config as streamlit_config
from streamlit.testing.v1 import AppTest

from drivers.launcher import _write_record, cancel, dashboard_environment, launch, launch_log, list_runs, read_run
from tests.launcher.helpers import LOCAL, TOKENS, small_whatif, stopping_runs
from tests.launcher.test_whatif_spec import HOSTILE_SPELLINGS
from workers.reaper import process_table

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
TIMEOUT = 60


def environment(monkeypatch: pytest.MonkeyPatch, results: Path, allow_runs: bool,
                token_file: Path | None = None) -> None:
    """What ``cardlab dashboard [--allow-runs] [--token-file F]`` hands to the pages."""
    monkeypatch.setenv("CARDLAB_RESULTS", str(results))
    for name, value in dashboard_environment(allow_runs, token_file, 100_000, 20, 1, 1).items():
        monkeypatch.setenv(name, value)


DIVVY_BASE = "experiments/divvy_baseline.toml"


def new_run_page(base: str | None = DIVVY_BASE) -> AppTest:
    """The New run page, run once, its form started from ``base`` (when it shows the form)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.switch_page("pages/new_run.py")
    at.run()
    assert not at.exception, at.exception
    if base is not None and "newrun_base" in [box.key for box in at.selectbox]:
        at.selectbox(key="newrun_base").select(base).run()
        assert not at.exception, at.exception
    return at


def test_the_form_starts_from_the_demos_lineup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, tmp_path, allow_runs=True)
    at = new_run_page(base=None)
    assert at.selectbox(key="newrun_base").value == "experiments/theseus_demo.toml"
    assert at.text_input(key="newrun_agents:experiments/theseus_demo.toml").value == "heuristic"
    assert at.multiselect(key="newrun_players:experiments/theseus_demo.toml").value == [3, 4]
    assert parameter_table(at)["path"].to_list()[0].startswith("rules.")
    assert "rules.board_size" in parameter_table(at)["path"].to_list()


@contextlib.contextmanager
def listening_on(address: str) -> Iterator[None]:
    """Streamlit's ``server.address`` set to ``address`` (as ``--host`` sets it), then restored."""
    saved = streamlit_config.get_option("server.address")
    streamlit_config.set_option("server.address", address)
    try:
        yield
    finally:
        streamlit_config.set_option("server.address", saved)


@pytest.fixture(autouse=True)
def loopback() -> Iterator[None]:
    """The pages see the address ``cardlab dashboard`` binds by default (AppTest has no server)."""
    with listening_on("127.0.0.1"):
        yield


def texts(at: AppTest, kind: str) -> list[str]:
    """The values of the page's elements of one kind (``error``, ``info``, ``success``...)."""
    return [str(element.value) for element in getattr(at, kind)]


def test_without_allow_runs_the_page_offers_no_launch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, tmp_path, allow_runs=False)
    at = new_run_page()
    assert any("Launching runs is off" in text for text in texts(at, "info"))
    assert [button.key for button in at.button] == []
    assert [box.key for box in at.text_input] == []
    assert list_runs(tmp_path) == []


@pytest.mark.parametrize(("address", "refusal"), [
    ("0.0.0.0", "wrong or missing token: this dashboard listens beyond loopback; enter the token you were given"),
    # On loopback too: a token file given is the operator's rule, whatever the address.
    ("127.0.0.1", "wrong or missing token: this dashboard was started with a token file; enter the token you were "
                  "given")])
def test_with_a_token_file_a_wrong_token_unlocks_nothing_and_the_right_one_opens_the_form(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, address: str, refusal: str) -> None:
    tokens = tmp_path / "tokens.toml"
    tokens.write_text("".join(f'{name} = "{secret}"\n' for name, secret in TOKENS.items()))
    results = tmp_path / "results"
    results.mkdir()
    environment(monkeypatch, results, allow_runs=True, token_file=tokens)
    with listening_on(address):
        at = new_run_page()
        assert at.button(key="newrun_use_token") is not None
        assert "newrun_launch" not in [button.key for button in at.button]
        at.text_input(key="newrun_token").input("guess-guess-guess-guess").run()
        at.button(key="newrun_use_token").click().run()
        assert texts(at, "error") == [refusal]
        assert "newrun_launch" not in [button.key for button in at.button]
        at.text_input(key="newrun_token").input(TOKENS["bob"]).run()
        at.button(key="newrun_use_token").click().run()
        assert not at.exception, at.exception
        assert "newrun_launch" in [button.key for button in at.button]
    assert list_runs(results) == []
    # The wrong token is in the log an operator reads (the right one signs in without a line).
    [refused] = launch_log(results)
    assert (refused["action"], refused["who"], refused["attempt"]) == ("refused", "unknown", "sign-in")
    assert refused["reason"].startswith("wrong or missing token")
    assert TOKENS["bob"] not in json.dumps(refused) and "guess-guess" not in json.dumps(refused)


def frame_with(at: AppTest, column: str) -> pl.DataFrame:
    """The page's first table with ``column``."""
    frames = [pl.from_pandas(frame.value) for frame in at.dataframe]
    return next(frame for frame in frames if column in frame.columns)


def parameter_table(at: AppTest) -> pl.DataFrame:
    """The page's parameter table."""
    return frame_with(at, "accepted")


def test_the_form_shows_every_parameter_with_type_current_value_and_range(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, tmp_path, allow_runs=True)
    at = new_run_page()
    everything = parameter_table(at)
    from simcore.parameters import flatten
    from simcore.registry import get_game

    leaves = [path for path, _ in flatten(get_game("divvy").default_parameters())
              if path.startswith(("rules.", "cards."))]
    assert everything["path"].to_list() == leaves
    at.text_input(key="newrun_search").input("axes_12").run()
    found = parameter_table(at)
    assert found["path"].to_list() == [path for path in leaves if "axes_12" in path]
    rows = {row["path"]: row for row in found.iter_rows(named=True)}
    assert rows["cards.axes_12.copies"] == {"path": "cards.axes_12.copies", "type": "an integer", "current": "1",
                                            "accepted": "0 to 1000"}
    assert rows["cards.axes_12.d20"]["accepted"] == "1 to 20"
    assert rows["cards.axes_12.icon"]["accepted"] == "one of shield, sword, scroll"


@pytest.mark.parametrize(("path", "value", "error"), [
    ("cards.axes_12.copies", "-1", "new run: variants.whatif.cards.axes_12.copies: expected 0 to 1,000 copies"),
    ("cards.axes_12.copies", "two", "new run: variants.whatif.cards.axes_12.copies: expected an integer, got 'two'"),
    ("cards.axes_12.d20", "21", "new run: variants.whatif.cards.axes_12.d20: expected a d20 number from 1 to 20"),
])
def test_a_bad_value_is_refused_with_the_spec_readers_one_line_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str, value: str, error: str) -> None:
    environment(monkeypatch, tmp_path, allow_runs=True)
    at = new_run_page()
    at.text_input(key="newrun_search").input("axes_12").run()
    at.selectbox(key="newrun_path").select(path).run()
    at.text_input(key="newrun_value").input(value).run()
    at.button(key="newrun_add").click().run()
    assert texts(at, "error") == [error]
    assert not any("Changes:" in text for text in texts(at, "markdown"))


def test_a_bad_lineup_or_no_change_is_refused_at_launch_and_nothing_is_queued(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, tmp_path, allow_runs=True)
    at = new_run_page()
    at.button(key="newrun_launch").click().run()
    assert texts(at, "error") == ["new run: variants.whatif: no parameter changed; expected at least one"]
    at.text_input(key="newrun_value").input("4").run()  # the first parameter: rules.hand_size
    at.button(key="newrun_add").click().run()
    at.text_input(key=f"newrun_agents:{DIVVY_BASE}").input("heuristic, nobody").run()
    at.button(key="newrun_launch").click().run()
    [error] = texts(at, "error")
    assert error.startswith("new run: agents[1]: ")
    assert list_runs(tmp_path) == []


def test_the_page_reads_agent_parameters_with_commas_and_refuses_search_beyond_its_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, tmp_path, allow_runs=True)
    at = new_run_page()
    at.text_input(key="newrun_value").input("{a = 1}").run()  # a TOML table: no parameter holds one
    at.button(key="newrun_add").click().run()
    assert not at.exception and texts(at, "error") == [
        "new value '{a = 1}': expected one number, true or false, text, or a list of those"]
    at.text_input(key="newrun_value").input("4").run()
    at.button(key="newrun_add").click().run()
    at.text_input(key=f"newrun_agents:{DIVVY_BASE}").input("ismcts(iterations=3000,rollout=heuristic), random").run()
    at.button(key="newrun_launch").click().run()
    [error] = texts(at, "error")  # one agent with two parameters, not "rollout=heuristic)" as a second agent
    assert error.startswith("new run: agents[0]: iterations=3000 is more search per decision than the New run page")
    assert list_runs(tmp_path) == []


@pytest.mark.parametrize(("agent", "read", "limit"), HOSTILE_SPELLINGS)
def test_search_spelled_past_the_forms_bound_is_refused_in_one_line_and_nothing_launched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str, read: str, limit: int) -> None:
    environment(monkeypatch, tmp_path, allow_runs=True)
    at = new_run_page()
    at.text_input(key="newrun_value").input("4").run()
    at.button(key="newrun_add").click().run()
    at.text_input(key=f"newrun_agents:{DIVVY_BASE}").input(f"{agent}, random").run()
    at.button(key="newrun_launch").click().run()
    assert texts(at, "error") == [f"new run: agents[0]: {read} is more search per decision than the New run page "
                                  f"launches (at most {limit:,}); play it with `cardlab run`"]
    assert list_runs(tmp_path) == []


def test_a_cancel_names_its_run_and_is_refused_when_that_run_ended_before_the_click(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, tmp_path, allow_runs=True)
    # "playing" holds the one run slot (its supervisor stands for this process), "waiting" is queued behind it.
    for name in ("playing", "waiting"):
        spec, text = small_whatif(name)
        launch(tmp_path, spec, text, LOCAL, None, start=False)
    playing = read_run(tmp_path, "playing")
    assert playing is not None
    _write_record(tmp_path, replace(playing, state="running", supervisor_pid=os.getpid(),
                                    supervisor_start=process_table()[os.getpid()][1]))
    at = new_run_page()
    assert at.selectbox(key="newrun_cancel_choice").value is None  # nothing chosen until a run is
    at.selectbox(key="newrun_cancel_choice").select("waiting").run()
    assert at.button(key="newrun_cancel").label == "Cancel waiting"
    cancel(tmp_path, "waiting", LOCAL, None)  # it ends (here: cancelled elsewhere) before the click
    at.button(key="newrun_cancel").click().run()
    assert not at.exception, at.exception
    assert texts(at, "error") == ["waiting: already cancelled; nothing to cancel"]
    untouched = read_run(tmp_path, "playing")
    assert untouched is not None and (untouched.state, untouched.cancel_requested) == ("running", False)
    assert [(entry["action"], entry["experiment"]) for entry in launch_log(tmp_path)] == [
        ("launch", "playing"), ("launch", "waiting"), ("cancel", "waiting")]


def test_the_form_says_how_many_games_launch_will_start_before_it_is_pressed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, tmp_path, allow_runs=True)
    at = new_run_page()
    at.number_input(key=f"newrun_games:{DIVVY_BASE}").set_value(150).run()
    at.multiselect(key=f"newrun_players:{DIVVY_BASE}").set_value([2]).run()
    at.text_input(key="newrun_name").input("preview").run()
    assert ("Launches **preview**: 300 games (150 per variant and player count; baseline and what-if; "
            "1 player count).") in texts(at, "markdown")
    assert list_runs(tmp_path) == []  # nothing launched yet


def launch_from_page(at: AppTest, name: str, copies: str, games: int) -> AppTest:
    """Fill the form (one change of cards.axes_12.copies) and press Launch."""
    at.text_input(key="newrun_search").input("axes_12.copies").run()
    at.text_input(key="newrun_value").input(copies).run()
    at.button(key="newrun_add").click().run()
    at.number_input(key=f"newrun_games:{DIVVY_BASE}").set_value(games).run()
    at.text_input(key="newrun_name").input(name).run()
    at.button(key="newrun_launch").click().run()
    assert not at.exception, at.exception
    assert not texts(at, "error"), texts(at, "error")
    return at


def wait_for_state(results: Path, name: str, state: str, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while (run := read_run(results, name)) is None or run.state != state:
        assert time.monotonic() < deadline, f"{name}: {run.state if run else None} after {timeout} s"
        time.sleep(0.5)


def test_two_launches_one_cancelled_across_a_restart_and_the_finished_one_opens_on_its_comparison(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with stopping_runs(tmp_path):
        play_two_launches(tmp_path, monkeypatch)


def play_two_launches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The queue test's body: see its name."""
    environment(monkeypatch, tmp_path, allow_runs=True)
    at = launch_from_page(new_run_page(), "fewer_axes", "0", 40)
    assert texts(at, "success")[-1].startswith("fewer_axes: running (80 games)")
    at = launch_from_page(at, "more_axes", "3", 40)
    assert texts(at, "success")[-1].startswith("more_axes: queued (80 games)")
    # A dashboard restart: a new session with nothing but the results folder.
    restarted = new_run_page()
    queue = frame_with(restarted, "run")
    assert queue.select("run", "state", "who", "games").rows() == [("fewer_axes", "running", "local", 80),
                                                                   ("more_axes", "queued", "local", 80)]
    restarted.selectbox(key="newrun_cancel_choice").select("more_axes").run()
    restarted.button(key="newrun_cancel").click().run()
    assert texts(restarted, "success") == ["more_axes: cancelled"]
    wait_for_state(tmp_path, "fewer_axes", "finished")
    again = new_run_page()
    queue = frame_with(again, "run")
    assert queue.select("run", "state", "progress").rows() == [("fewer_axes", "finished", 1.0),
                                                               ("more_axes", "cancelled", 0.0)]
    assert queue["changes"].to_list() == ["cards.axes_12.copies = 0", "cards.axes_12.copies = 3"]
    assert not (tmp_path / "more_axes").exists()
    # The Experiments page lists both, the cancelled one with its reason.
    experiments = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    experiments.switch_page("pages/experiments.py")
    experiments.run()
    listed = frame_with(experiments, "experiment")
    assert listed.select("experiment", "status", "reason").rows() == [
        ("fewer_axes", "finished", ""), ("more_axes", "cancelled", "cancelled by local before it started")]
    # The finished what-if opens on its comparison.
    again.selectbox(key="newrun_open_choice").select("fewer_axes").run()
    again.button(key="newrun_open").click().run()
    assert not again.exception, again.exception
    assert [title.value for title in again.title] == ["What-if result"]
    assert any("Experiment **fewer_axes**" in text for text in texts(again, "caption"))
    assert any("cards.axes_12.copies = 0" in text for text in texts(again, "markdown"))
