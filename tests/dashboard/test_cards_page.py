"""The Cards page on hand-made experiments whose card rates are known
(``tests/dashboard/handmade.py``): the card prior's message (fitted, or not
identifiable) and the default sort that follows from it, the never-played
flag, and the play rate when playable (shown when the game records the
``playable`` counter, left out with a note when it does not)."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Selectbox

from analytics.views import NEVER_PLAYED
from tests.dashboard.conftest import Results
from tests.dashboard.handmade import write_card_experiment
from tests.dashboard.test_pages import labels, open_cards, shown


@pytest.fixture(scope="module")
def cards_results(tmp_path_factory: pytest.TempPathFactory) -> Results:
    """Three hand-made experiments: cards that differ, cards alike, and no playable counter."""
    root = tmp_path_factory.mktemp("cards-page")
    write_card_experiment(root, "cards_differ", cards_differ=True)
    write_card_experiment(root, "cards_alike", cards_differ=False)
    write_card_experiment(root, "cards_no_playable", cards_differ=True, playable=False)
    return Results(root)


def selectbox(at: AppTest, label: str) -> Selectbox[Any]:
    """The select box labelled ``label``."""
    return next(box for box in at.selectbox if box.label == label)


def scatter_spec(at: AppTest) -> str:
    """The card scatter's Vega-Lite spec."""
    return str(at.get("vega_lite_chart")[0].proto.spec)


def test_cards_that_differ_get_a_fitted_prior_and_the_shrunk_rate_is_the_default_sort(
        cards_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_cards(cards_results, "cards_differ", monkeypatch)
    assert selectbox(at, "Agent (cards held by)").value == "heuristic"  # most-played (a tie: spec order)
    assert selectbox(at, "Sort by").value == "shrunk win rate"
    caption = " ".join(caption.value for caption in at.caption)
    assert "fitted to these cards by marginal likelihood" in caption
    assert not any("cannot be identified" in info.value for info in at.info)
    table = shown(at, 0)
    assert table["card"][0] == "won_with" and table["card"][-1] == "lost_with"  # GIH 100% and 0%
    shrunk = table["shrunk_win_rate"].to_list()
    assert shrunk == sorted(shrunk, reverse=True) and len(set(shrunk)) > 1
    assert 0.5 < shrunk[0] < 1.0 and 0.0 < shrunk[-1] < 0.5  # pulled towards the mean, not onto it


def test_cards_alike_say_the_prior_cannot_be_identified_and_sort_by_the_raw_rate(
        cards_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_cards(cards_results, "cards_alike", monkeypatch)
    message = next(info.value for info in at.info if "cannot be identified" in info.value)
    assert "every shrunk win rate is the agent's mean 50.0%" in message
    assert "Sort by the raw GIH win rate or the improvement when drawn instead" in message
    assert selectbox(at, "Sort by").value == "raw GIH win rate"
    assert set(shown(at, 0)["shrunk_win_rate"].to_list()) == {0.5}


def test_a_card_the_agent_never_plays_is_flagged_and_can_be_hidden(
        cards_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_cards(cards_results, "cards_differ", monkeypatch)
    assert [warning.value for warning in at.warning] == [f"1 card(s) {NEVER_PLAYED}: ignored."]
    table = shown(at, 0)
    assert table.filter(table["never_played"])["card"].to_list() == ["ignored"]
    next(box for box in at.selectbox if box.label == "Show").select("played at least once").run()
    assert not at.exception and "ignored" not in shown(at, 0)["card"].to_list()
    assert at.query_params["show"] == "played at least once"
    next(box for box in at.selectbox if box.label == "Show").select("never played").run()
    assert shown(at, 0)["card"].to_list() == ["ignored"]
    selectbox(at, "Agent (cards held by)").select("random").run()  # random plays every card
    assert not at.exception and not at.warning


def test_the_play_rate_when_playable_is_shown_when_the_game_records_it(
        cards_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_cards(cards_results, "cards_differ", monkeypatch)
    table = shown(at, 0)
    played = table.filter(~table["never_played"])
    assert set(played["playable_play_rate"].to_list()) == {1.0}
    assert table.filter(table["never_played"])["playable_play_rate"].to_list() == [0.0]
    assert "play rate when playable" in selectbox(at, "Sort by").options
    assert labels(at, 0)["playable_play_rate"] == "play rate when playable"
    spec = scatter_spec(at)
    assert "Play rate when playable (played / seat-games playable)" in spec
    assert "records no playable counter" not in " ".join(caption.value for caption in at.caption)


def test_without_a_playable_counter_the_page_shows_the_plain_play_rate_and_says_why(
        cards_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_cards(cards_results, "cards_no_playable", monkeypatch)
    table = shown(at, 0)
    assert not [name for name in table.columns if "playable" in name]
    assert "play rate when playable" not in selectbox(at, "Sort by").options
    assert "Play rate (played / seat-games in hand)" in scatter_spec(at)
    assert "This game records no playable counter" in " ".join(caption.value for caption in at.caption)
    # Never played then means: in hand, never played.
    assert table.filter(table["never_played"])["card"].to_list() == ["ignored"]

