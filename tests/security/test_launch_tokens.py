"""Launch authority on a live ``cardlab dashboard --allow-runs`` on loopback, spoken to as a
browser does (``tests.live_dashboard``): given a token file, the New run page asks for a token
there too, and a WebSocket session that never gave one launches nothing, even replaying the
messages of a session that did; without a token file, the dashboard says at start that any
local user may launch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardlab.cli import LOOPBACK_WITHOUT_TOKENS
from drivers.launcher import launch_log, list_runs, read_run
from tests.launcher.helpers import TOKENS, stopping_runs
from tests.live_dashboard import CLICK, BrowserSession, of_kind, running_dashboard


def _widget(elements: list[Any], kind: str, label: str) -> str:
    """The id of the page's widget of ``kind`` whose label starts with ``label``."""
    return str(next(widget.id for widget in of_kind(elements, kind) if widget.label.startswith(label)))


def _labels(elements: list[Any], kind: str) -> list[str]:
    return [str(widget.label) for widget in of_kind(elements, kind)]


def test_on_loopback_with_a_token_file_a_replayed_launch_without_a_token_launches_nothing(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.toml"
    tokens.write_text("".join(f'{name} = "{secret}"\n' for name, secret in TOKENS.items()))
    results = tmp_path / "results"
    results.mkdir()
    options = ["--allow-runs", "--token-file", str(tokens), "--run-workers", "1"]
    with stopping_runs(results), running_dashboard(results, arguments=options) as dashboard:
        signed = BrowserSession(dashboard)
        stranger = BrowserSession(dashboard)
        try:
            first = signed.run("new_run")
            assert "Launch token" in _labels(first, "text_input") and "Launch" not in _labels(first, "button")
            signed.run("new_run", {_widget(first, "text_input", "Launch token"): TOKENS["alice"],
                                   _widget(first, "button", "Use this token"): CLICK})
            form = signed.run("new_run")
            change = {_widget(form, "text_input", "New value"): "4", _widget(form, "button", "Add change"): CLICK}
            launch = {_widget(form, "text_input", "New value"): "4", _widget(form, "number_input", "Games"): 20,
                      _widget(form, "text_input", "Name"): "with_token", _widget(form, "button", "Launch"): CLICK}
            signed.run("new_run", change)
            launched = signed.run("new_run", launch)
            assert any(alert.body.startswith("with_token: ") for alert in of_kind(launched, "alert")), [
                alert.body for alert in of_kind(launched, "alert")]
            # The same messages from a session that never gave a token: the page asks for one and launches nothing.
            for message in (change, {**launch, _widget(form, "text_input", "Name"): "replayed"}):
                replayed = stranger.run("new_run", message)
                assert "Launch token" in _labels(replayed, "text_input")
                assert "Launch" not in _labels(replayed, "button"), _labels(replayed, "button")
        finally:
            signed.close()
            stranger.close()
        run = read_run(results, "with_token")
        assert run is not None and run.who == "alice"
        assert [run.name for run in list_runs(results)] == ["with_token"]
        assert [(entry["action"], entry["who"]) for entry in launch_log(results)] == [("launch", "alice")]
    assert dashboard.process.stdout is not None
    said = dashboard.process.stdout.read()
    assert f"launching runs from the New run page is on, for holders of a token of {tokens}" in said
    assert LOOPBACK_WITHOUT_TOKENS not in said


def test_on_loopback_without_a_token_file_the_dashboard_says_any_local_user_may_launch(tmp_path: Path) -> None:
    with running_dashboard(tmp_path, arguments=["--allow-runs"]) as dashboard:
        pass
    assert dashboard.process.stdout is not None
    said = dashboard.process.stdout.read().splitlines()  # after the address line, read by running_dashboard
    assert said[:2] == ["cardlab dashboard: launching runs from the New run page is on", LOOPBACK_WITHOUT_TOKENS]
