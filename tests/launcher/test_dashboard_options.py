"""``cardlab dashboard``'s launch options: off unless --allow-runs, a token file required beyond
loopback, the limits handed to the pages; and a live dashboard started without --allow-runs
whose New run page offers nothing to launch."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.cli import _launch_environment, build_parser, main
from drivers.launcher import list_runs, policy_from_environment
from tests.live_dashboard import BrowserSession, of_kind, running_dashboard


def _policy(arguments: list[str], host: str = "127.0.0.1"):  # type: ignore[no-untyped-def]
    parsed = build_parser().parse_args(["dashboard", *arguments])
    return policy_from_environment(_launch_environment(parsed), host)


def test_launching_is_off_unless_allow_runs_is_given(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.toml"
    tokens.write_text('alice = "alice-secret-0123456789"\n')
    assert not _policy([]).allowed
    assert not _policy(["--token-file", str(tokens)], host="0.0.0.0").allowed
    on = _policy(["--allow-runs", "--max-games-per-run", "5000", "--runs-per-hour", "3", "--max-running", "2",
                  "--run-workers", "1"])
    assert (on.allowed, on.needs_token, on.max_games_per_run, on.runs_per_hour, on.max_running, on.workers) == (
        True, False, 5000, 3, 2, 1)
    shared = _policy(["--allow-runs", "--host", "0.0.0.0", "--token-file", str(tokens)], host="0.0.0.0")
    assert (shared.allowed, shared.needs_token, sorted(shared.tokens)) == (True, True, ["alice"])


def test_allow_runs_beyond_loopback_without_a_token_file_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["dashboard", "--allow-runs", "--host", "0.0.0.0", "--results", str(tmp_path)])
    assert code == 2
    assert capsys.readouterr().err == ("cardlab: error: --allow-runs with --host 0.0.0.0: beyond loopback, launching "
                                       "needs --token-file FILE (lines such as alice = \"a long secret\")\n")


def test_a_job_address_goes_to_the_pages_and_must_be_the_ray_dashboards(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _policy(["--allow-runs", "--job-address", "http://127.0.0.2:8265"]).job_address == "http://127.0.0.2:8265"
    assert _policy(["--allow-runs"]).job_address is None
    code = main(["dashboard", "--allow-runs", "--job-address", "127.0.0.2:6379", "--results", str(tmp_path)])
    assert code == 2
    assert capsys.readouterr().err == ("cardlab: error: --job-address 127.0.0.2:6379: expected the Ray dashboard's "
                                       "address, http://HEAD:8265\n")


def test_a_bad_token_file_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tokens = tmp_path / "tokens.toml"
    tokens.write_text('alice = "short"\n')
    code = main(["dashboard", "--allow-runs", "--token-file", str(tokens), "--results", str(tmp_path)])
    assert code == 2
    assert capsys.readouterr().err == (f"cardlab: error: --token-file: {tokens}: alice: expected a secret string of "
                                       "at least 16 characters\n")


def test_a_live_dashboard_without_allow_runs_offers_no_launch(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    with running_dashboard(results) as dashboard:
        session = BrowserSession(dashboard)
        try:
            elements = session.run("new_run")
        finally:
            session.close()
    alerts = [alert.body for alert in of_kind(elements, "alert")]
    assert any(body.startswith("Launching runs is off.") for body in alerts), alerts
    assert of_kind(elements, "button") == [] and of_kind(elements, "text_input") == []
    assert list_runs(results) == []
