"""Who may launch: off without --allow-runs, a token beyond loopback, games-per-run and
runs-per-hour limits; a refused launch writes nothing but its line in the launch log."""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

import pytest

from drivers.launcher import (
    LaunchPolicy,
    LaunchRefused,
    cancel,
    dashboard_environment,
    launch,
    launch_log,
    launcher_folder,
    list_runs,
    policy_from_environment,
    read_tokens,
    sign_in,
)
from tests.launcher.helpers import LOCAL, SHARED, TOKENS, small_whatif


def _nothing_queued(results: Path) -> None:
    assert list_runs(results) == []
    assert not (launcher_folder(results) / "specs").exists()
    assert [path.name for path in results.iterdir() if path.name != ".launcher"] == []


def test_with_runs_not_allowed_nothing_can_be_launched(tmp_path: Path) -> None:
    spec, text = small_whatif("off")
    for policy in (LaunchPolicy(), replace(SHARED, allowed=False)):
        for token in (None, TOKENS["alice"]):
            with pytest.raises(LaunchRefused, match="launching runs is off: start the dashboard with "
                                                    "`cardlab dashboard --allow-runs`"):
                launch(tmp_path, spec, text, policy, token, start=False)
    _nothing_queued(tmp_path)
    assert [entry["action"] for entry in launch_log(tmp_path)] == ["refused"] * 4


def test_beyond_loopback_a_wrong_or_missing_token_launches_nothing(tmp_path: Path) -> None:
    spec, text = small_whatif("guess")
    for token in (None, "", "alice-secret-012345678", TOKENS["alice"] + "x", "alice"):
        with pytest.raises(LaunchRefused, match="wrong or missing token"):
            launch(tmp_path, spec, text, SHARED, token, start=False)
    _nothing_queued(tmp_path)
    refusals = launch_log(tmp_path)
    assert [(entry["action"], entry["who"], entry["experiment"]) for entry in refusals] == [
        ("refused", "unknown", "guess")] * 5


def test_beyond_loopback_the_right_token_launches_and_names_who(tmp_path: Path) -> None:
    spec, text = small_whatif("by_bob")
    run = launch(tmp_path, spec, text, SHARED, TOKENS["bob"], start=False, now=lambda: 1000.0)
    assert (run.state, run.who, run.games) == ("queued", "bob", 80)
    assert launch_log(tmp_path) == [{"action": "launch", "who": "bob", "when": 1000.0, "experiment": "by_bob",
                                     "game": "divvy", "games": 80, "overrides": {"cards.axes_12.copies": 0}}]
    with pytest.raises(LaunchRefused, match="wrong or missing token"):
        cancel(tmp_path, "by_bob", SHARED, "not-a-token", now=lambda: 1001.0)
    assert cancel(tmp_path, "by_bob", SHARED, TOKENS["alice"]).reason == "cancelled by alice before it started"
    # The refused cancel is in the log too, with what it tried and without the guess.
    refused = launch_log(tmp_path)[1]
    assert {key: refused[key] for key in ("action", "who", "when", "experiment", "attempt")} == {
        "action": "refused", "who": "unknown", "when": 1001.0, "experiment": "by_bob", "attempt": "cancel"}
    assert "not-a-token" not in str(refused)


def test_a_wrong_token_at_sign_in_is_logged_and_the_right_one_names_who(tmp_path: Path) -> None:
    with pytest.raises(LaunchRefused, match="wrong or missing token"):
        sign_in(tmp_path, SHARED, "guess-guess-guess-guess", now=lambda: 5.0)
    assert sign_in(tmp_path, SHARED, TOKENS["bob"]) == "bob"
    assert sign_in(tmp_path, LOCAL, None) == "local"
    [refused] = launch_log(tmp_path)
    assert (refused["action"], refused["who"], refused["when"], refused["attempt"]) == (
        "refused", "unknown", 5.0, "sign-in")
    assert "guess-guess" not in str(refused)


def test_on_loopback_without_a_token_file_no_token_is_needed(tmp_path: Path) -> None:
    spec, text = small_whatif("local_run")
    assert launch(tmp_path, spec, text, LOCAL, None, start=False).who == "local"


def test_on_loopback_a_token_file_given_makes_every_launch_and_cancel_need_a_token(tmp_path: Path) -> None:
    guarded = replace(LOCAL, tokens=TOKENS)
    spec, text = small_whatif("guarded")
    for token in (None, "", "guess-guess-guess-guess"):
        with pytest.raises(LaunchRefused) as raised:
            launch(tmp_path, spec, text, guarded, token, start=False)
        assert str(raised.value) == ("wrong or missing token: this dashboard was started with a token file; enter the "
                                     "token you were given")
    _nothing_queued(tmp_path)
    run = launch(tmp_path, spec, text, guarded, TOKENS["alice"], start=False, now=lambda: 7.0)
    assert (run.state, run.who) == ("queued", "alice")
    with pytest.raises(LaunchRefused, match="wrong or missing token"):
        cancel(tmp_path, "guarded", guarded, None)
    assert cancel(tmp_path, "guarded", guarded, TOKENS["bob"], now=lambda: 8.0).reason == (
        "cancelled by bob before it started")
    assert [(entry["action"], entry["who"]) for entry in launch_log(tmp_path)] == [
        ("refused", "unknown")] * 3 + [("launch", "alice"), ("refused", "unknown"), ("cancel", "bob")]
    with pytest.raises(LaunchRefused, match="wrong or missing token"):
        sign_in(tmp_path, guarded, None)


def test_a_run_with_more_games_than_allowed_is_refused(tmp_path: Path) -> None:
    spec, text = small_whatif("too_big", games=600)
    with pytest.raises(LaunchRefused, match=r"^1,200 games; this dashboard allows at most 1,000 games per run$"):
        launch(tmp_path, spec, text, replace(SHARED, max_games_per_run=1000), TOKENS["alice"], start=False)
    _nothing_queued(tmp_path)
    assert launch_log(tmp_path)[0]["who"] == "alice"


def test_more_runs_per_hour_than_allowed_are_refused_until_the_hour_has_passed(tmp_path: Path) -> None:
    policy = replace(SHARED, runs_per_hour=2)
    for index, moment in enumerate((0.0, 1800.0)):
        spec, text = small_whatif(f"hourly_{index}")
        launch(tmp_path, spec, text, policy, TOKENS["alice"], start=False, now=functools.partial(float, moment))
    spec, text = small_whatif("hourly_2")
    with pytest.raises(LaunchRefused, match="2 runs launched in the last hour; this dashboard allows at most 2"):
        launch(tmp_path, spec, text, policy, TOKENS["bob"], start=False, now=lambda: 3599.0)
    assert [run.name for run in list_runs(tmp_path)] == ["hourly_0", "hourly_1"]
    assert launch(tmp_path, spec, text, policy, TOKENS["bob"], start=False, now=lambda: 3600.5).state == "queued"


def test_a_name_already_used_is_refused(tmp_path: Path) -> None:
    spec, text = small_whatif("taken")
    launch(tmp_path, spec, text, LOCAL, None, start=False)
    with pytest.raises(LaunchRefused, match="taken: a run of that name was launched already"):
        launch(tmp_path, spec, text, LOCAL, None, start=False)
    (tmp_path / "existing").mkdir()
    spec, text = small_whatif("existing")
    with pytest.raises(LaunchRefused, match="existing: an experiment of that name exists"):
        launch(tmp_path, spec, text, LOCAL, None, start=False)


def test_the_dashboard_environment_turns_launching_on_only_when_asked(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.toml"
    tokens.write_text('alice = "alice-secret-0123456789"\n')
    assert not policy_from_environment({}, "127.0.0.1").allowed
    on = dashboard_environment(True, None, 500, 3, 2, 1)
    local = policy_from_environment(on, "127.0.0.1")
    assert (local.allowed, local.loopback, local.max_games_per_run, local.runs_per_hour, local.max_running,
            local.workers) == (True, True, 500, 3, 2, 1)
    # Beyond loopback, launching stays off without a token file, whatever the other variables say.
    assert not policy_from_environment(on, "0.0.0.0").allowed
    assert not policy_from_environment(on, "").allowed
    shared = policy_from_environment(dashboard_environment(True, tokens, 500, 3, 2, None), "0.0.0.0")
    assert (shared.allowed, shared.loopback, dict(shared.tokens)) == (True, False, {"alice": "alice-secret-0123456789"})
    assert not policy_from_environment(dashboard_environment(False, tokens, 500, 3, 2, None), "0.0.0.0").allowed


@pytest.mark.parametrize(("text", "message"), [
    ("", "no token"),
    ("alice = 'short'", "alice: expected a secret string of at least 16 characters"),
    ("alice = 12345678901234567890", "alice: expected a secret string"),
    ("alice = ", "not valid TOML"),
    ('"alice\\n" = "alice-secret-0123456789"', "'alice\\\\n': expected a token name of letters"),
])
def test_a_bad_token_file_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tokens.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as raised:
        read_tokens(path)
    assert "\n" not in str(raised.value)
    assert str(raised.value).startswith(f"{path}: ")
