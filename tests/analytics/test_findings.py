"""The report's findings (``analytics.findings``): which rows become findings,
in which order, with their interval and sample; checked on hand-made metric
rows and on a synthetic experiment whose true faction rates are known."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from analytics.findings import (
    PER_KIND,
    SET_BY,
    card_findings,
    construction_rules,
    delta_findings,
    faction_findings,
    findings,
    findings_lines,
    mark_set_by_construction,
    never_played_findings,
    run_findings,
    seat_findings,
    set_by_construction,
    turn_cap_findings,
)
from analytics.views import FACTION_BAND
from tests.analytics.synthetic import competitive

LABELS = {"baseline": "baseline", "sweep-001": "sweep-001 (rounds=4)"}


def _seat(seat: int, share: float, low: float, high: float) -> dict[str, Any]:
    return {"variant": "baseline", "n_players": 3, "seat": seat, "games": 3000, "win_share": share,
            "win_share_low": low, "win_share_high": high, "fair_share": 1 / 3}


def test_a_seat_is_a_finding_only_when_its_whole_share_interval_is_outside_the_band() -> None:
    seats = pl.DataFrame([_seat(0, 0.40, 0.385, 0.415), _seat(1, 0.36, 0.30, 0.42), _seat(2, 0.24, 0.225, 0.255)])
    found = seat_findings(seats, LABELS)
    assert [(f.subject, f.value, f.low, f.high, f.n) for f in found] == [
        ("seat 0", 0.40, 0.385, 0.415, 3000), ("seat 2", 0.24, 0.225, 0.255, 3000)]
    assert found[0].text == ("baseline, 3 players: seat 0 takes 40.0% of the wins [38.5%, 41.5%], fair 33.3% +- 5.0% "
                             "(3,000 games)")


def test_factions_surely_outside_their_band_are_findings_on_a_synthetic_experiment() -> None:
    synthetic = competitive(1, 3000)
    data = synthetic
    stats = data.con.sql("SELECT * FROM faction_stats").pl()
    found = faction_findings(stats, {}, cooperative=False)
    assert found, "the synthetic factions' strengths range from 0.6 to 1.6"
    for finding in found:
        truth = synthetic.truth[("faction", finding.variant, finding.subject)]
        expected = stats.filter((pl.col("variant") == finding.variant)
                                & (pl.col("faction") == finding.subject))["expected"][0]
        assert abs(truth - expected) > FACTION_BAND - 0.01, finding  # the truth is outside (or at) the band too
        assert finding.low is not None and finding.high is not None and finding.value is not None
        assert finding.low <= finding.value <= finding.high
    assert {"faction_0", "faction_5"} <= {finding.subject for finding in found if finding.variant == "baseline"}


def _card(card: str, gih: float, low: float, high: float, z: float, outlier: bool, outside: bool,
          never: bool = False) -> dict[str, Any]:
    return {"variant": "baseline", "n_players": 2, "agent": "heuristic", "card": card, "gih_win_rate": gih,
            "gih_win_rate_low": low, "gih_win_rate_high": high, "card_mean": 0.5, "z_score": z, "outlier": outlier,
            "surely_outside": outside, "games_in_hand": 1000, "never_played": never}


def test_outlier_cards_are_listed_largest_difference_first_with_their_interval() -> None:
    cards = pl.DataFrame([_card("a", 0.53, 0.50, 0.56, 2.0, False, False),
                          _card("b", 0.56, 0.53, 0.59, 3.8, True, False),
                          _card("c", 0.35, 0.32, 0.38, -9.5, True, True)])
    found = card_findings(cards, LABELS)
    assert [f.subject for f in found] == ["c", "b"]
    assert found[1].text == ("baseline, 2 players, heuristic: b wins 56.0% in hand [53.0%, 59.0%] against the agent's "
                             "card mean 50.0% (z = 3.8, +6.0 points; 1,000 seat-games in hand)")


def test_cards_never_played_are_one_finding_per_agent_saying_what_their_numbers_describe() -> None:
    cards = pl.DataFrame([_card(name, 0.5, 0.45, 0.55, 0.0, False, False, never=name in "xz") for name in "xyz"])
    (found,) = never_played_findings(cards, LABELS)
    assert found.subject == "x, z" and found.n == 2000
    assert found.text == ("baseline, 2 players, heuristic: 2 card(s) never played by this agent: its numbers "
                          "describe the agent, not the card: x, z")


def _delta(family: str, key: str, metric: str, delta: float, significant: bool, agent: str | None = None,
           test: str = "z") -> dict[str, Any]:
    return {"variant": "sweep-001", "n_players": 2, "family": family, "agent": agent, "key": key, "metric": metric,
            "baseline_value": 0.5, "value": 0.5 + delta, "delta": delta, "delta_low": delta - 0.01,
            "delta_high": delta + 0.01, "q_value": 0.001 if significant else 0.5, "significant": significant,
            "test": test, "n": 5000}


def test_significant_variant_changes_come_win_rates_first_with_q_and_the_swept_values() -> None:
    deltas = pl.DataFrame([_delta("card", "fireball", "gih_win_rate", 0.08, True, agent="heuristic"),
                           _delta("seat", "0", "win_rate", 0.02, True), _delta("seat", "1", "win_rate", -0.05, True),
                           _delta("faction", "Brutes", "win_rate", 0.09, False)])
    found = delta_findings(deltas, LABELS)
    assert [f.subject for f in found] == ["seat 1 win rate", "seat 0 win rate",
                                          "card fireball (heuristic) GIH win rate"]
    assert found[0].text == ("sweep-001 (rounds=4), 2 players, against the baseline: seat 1 win rate 50.0% -> 45.0% "
                             "(-5.0 points [-6.0, -4.0]), q = 0.0010 (z; n = 5,000)")


def test_a_significant_change_too_small_to_matter_is_no_finding() -> None:
    # 200,000 games make half a point significant; a designer acts on a point or more
    # (2% of a mean): the deltas section still lists every change.
    turns = {**_delta("game", "game", "turns", -0.09, True, test="welch"), "baseline_value": 5.0}
    longer = {**_delta("game", "game", "decisions", 1.5, True, test="welch"), "baseline_value": 48.0}
    deltas = pl.DataFrame([_delta("agent", "heuristic", "win_rate", -0.005, True),
                           _delta("agent", "random", "win_rate", 0.01, True), turns, longer])
    found = delta_findings(deltas, LABELS)
    assert [(f.subject, f.value) for f in found] == [("agent random win rate", 0.01),
                                                     ("decisions per game", 1.5)]


def test_a_variant_changing_a_rule_sets_the_metrics_its_game_declares_for_that_rule_and_no_others() -> None:
    overrides = {"sweep-001": {"rules.rounds": 4, "cards.ace.copies": 2}, "cards": {"cards.ace.copies": 3}}
    assert set_by_construction(overrides, construction_rules("divvy")) == {
        ("sweep-001", "turns"): "rules.rounds", ("sweep-001", "decisions"): "rules.rounds"}
    assert set_by_construction({"long": {"rules.max_turns": 90}}, construction_rules("ring_of_chaos")) == {
        ("long", "turns"): "rules.max_turns", ("long", "decisions"): "rules.max_turns",
        ("long", "turn_cap_rate"): "rules.max_turns"}


def test_a_change_the_variant_set_by_construction_is_no_finding_but_the_same_change_of_a_card_variant_is() -> None:
    turns = {**_delta("game", "game", "turns", -1.0, True, test="welch"), "baseline_value": 5.0}
    decisions = {**_delta("game", "game", "decisions", -10.0, True, test="welch"), "baseline_value": 48.0}
    seat = _delta("seat", "1", "win_rate", -0.05, True)
    deltas = pl.DataFrame([turns, decisions, seat])
    marked = mark_set_by_construction(deltas, set_by_construction({"sweep-001": {"rules.rounds": 4}},
                                                                  construction_rules("divvy")))
    assert marked[SET_BY].to_list() == ["rules.rounds", "rules.rounds", None]
    assert [f.subject for f in delta_findings(marked, LABELS)] == ["seat 1 win rate"]
    # A card change does not set the length of a game: there, fewer turns is a finding.
    by_card = mark_set_by_construction(deltas, set_by_construction({"sweep-001": {"cards.ace.copies": 2}},
                                                                   construction_rules("divvy")))
    assert [f.subject for f in delta_findings(by_card, LABELS)] == ["seat 1 win rate", "decisions per game",
                                                                    "mean turns"]


def test_a_cooperative_variant_won_almost_always_reports_wipes_and_levels_instead() -> None:
    runs = pl.DataFrame([
        {"variant": "party_mode", "n_players": 4, "games": 10000, "win_rate": 0.97, "win_rate_low": 0.966,
         "win_rate_high": 0.973, "wipes_per_game": 1.3, "wipes_per_game_low": 1.27, "wipes_per_game_high": 1.33,
         "wipe_rate": 0.62, "mean_level": 3.9},
        {"variant": "baseline", "n_players": 4, "games": 10000, "win_rate": 0.45, "win_rate_low": 0.44,
         "win_rate_high": 0.46, "wipes_per_game": 0.0, "wipes_per_game_low": 0.0, "wipes_per_game_high": 0.0,
         "wipe_rate": 0.0, "mean_level": 3.1}])
    (found,) = run_findings(runs, {})
    assert found.variant == "party_mode"
    assert found.text == ("party_mode, 4 heroes: the party wins 97.0% [96.6%, 97.3%], which says little; wipes per "
                          "game 1.30 [1.27, 1.33], 62.0% of games with a wipe; mean level reached 3.90 (10,000 games)")


def test_games_stopped_by_the_turn_cap_are_a_finding_above_five_percent() -> None:
    games = pl.DataFrame({"variant": ["baseline", "sweep-001"], "n_players": [4, 4], "games": [100, 100],
                          "turn_cap_rate": [0.04, 0.12], "turn_cap_rate_low": [0.02, 0.07],
                          "turn_cap_rate_high": [0.1, 0.2]})
    assert [f.variant for f in turn_cap_findings(games, LABELS)] == ["sweep-001"]


def test_many_findings_of_a_kind_are_cut_with_a_count_and_none_at_all_is_said() -> None:
    seats = pl.DataFrame([_seat(seat, 0.45, 0.44, 0.46) for seat in range(PER_KIND + 3)])
    lines = findings_lines(seat_findings(seats, LABELS))
    assert len(lines) == PER_KIND + 1 and lines[-1] == "- ... and 3 more of this kind: see the seats section"
    (nothing,) = findings_lines([])
    assert nothing.startswith("Nothing outside its band")


def test_a_cooperative_experiment_has_no_seat_findings() -> None:
    seats = pl.DataFrame([_seat(0, 0.40, 0.385, 0.415)])
    assert findings({"seat_stats": seats}, LABELS, cooperative=False)
    assert not findings({"seat_stats": seats}, LABELS, cooperative=True)


def test_a_favoured_first_seat_in_self_play_is_reported_outside_its_band() -> None:
    # One agent in every seat, seat 0 favoured (about 33% of the wins at 4 players, fair 25%):
    # seat_balance flags it OUTSIDE the +- 5 point band and the findings name seat 0.
    from tests.analytics.synthetic import CompetitiveModel

    model = CompetitiveModel(agent_strength=(("heuristic", 1.0),), self_play=True, seat_bias=(1.4, 1.0, 0.95, 0.85))
    data = competitive(1, 3000, model=model)
    balance = data.con.sql("FROM seat_balance WHERE variant = 'baseline'").pl().row(0, named=True)
    assert balance["self_play"] and balance["surely_outside"]
    assert balance["first_seat_advantage"] == pytest.approx(
        data.truth[("first_seat", "baseline", "heuristic")], abs=0.03)
    found = findings({"seat_stats": data.con.sql("FROM seat_stats").pl(),
                      "seat_balance": data.con.sql("FROM seat_balance").pl()}, {}, cooperative=False)
    assert {(f.kind, f.variant, f.subject) for f in found} >= {("seat", "baseline", "seat 0")}
    assert not [f for f in found if f.kind == "first_seat"]


def test_a_lineup_of_different_agents_gives_no_seat_finding_from_its_pooled_seats_only_per_agent_ones() -> None:
    # A strong and a weak agent at two seats each, placed at random, seat 0 favoured: the pooled
    # seats mix the agents, so no seat finding comes from them; each agent against itself does.
    from tests.analytics.synthetic import CompetitiveModel

    data = competitive(1, 3000, model=CompetitiveModel(seat_bias=(1.4, 1.0, 0.95, 0.85)))
    seats, balance = data.con.sql("FROM seat_stats").pl(), data.con.sql("FROM seat_balance").pl()
    assert not seats["self_play"].any() and set(balance["agent"]) == {"strong", "weak"}
    assert seat_findings(seats.with_columns(pl.lit(True).alias("self_play")), {})  # pooled, they would be
    found = findings({"seat_stats": seats, "seat_balance": balance}, {}, cooperative=False)
    assert not [f for f in found if f.kind == "seat"]
    per_agent = [f for f in found if f.kind == "first_seat"]
    assert per_agent and all(f.agent in {"strong", "weak"} and f.subject == "seat 0" for f in per_agent)
    assert "at seat 0 against" in per_agent[0].text and "a lineup of different agents" in per_agent[0].text
