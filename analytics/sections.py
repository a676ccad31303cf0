"""The sections of ``cardlab report``, in report order, with what each shows.

Kept apart from ``analytics.report`` (and free of heavy imports) so that the
command line can list them in ``cardlab report --help`` without loading
Polars or DuckDB.
"""

from __future__ import annotations

SECTION_HELP: dict[str, str] = {
    "findings": "what deserves a designer's attention: seats, factions, cards outside their band, "
                "significant variant changes, outliers, cards never played",
    "variants": "each variant and its overrides (a sweep's grid points with their values)",
    "seats": "win rate and share of wins by seat, chi-square against 1/N, first-seat advantage "
             "(competitive games only)",
    "agents": "win rate by agent, intervals clustered by game",
    "factions": "win rate by faction against the expected rate +- 5 points, spread, matchup matrix",
    "coop": "cooperative games: party win rate by size and composition, each class's marginal effect",
    "runs": "cooperative runs: level reached, wipes per game (Party mode)",
    "games": "game length, decisions, legal actions, draw and turn-cap rates, end reasons",
    "design": "game design: how decisive games are (margin of victory, draw rate), lead changes and comebacks, "
              "how often the leader at each third wins, the deal's share of the outcome (experiments with "
              "deal_replays), skill depth (each agent against random, the skill ladder's rating span)",
    "cards": "17lands-style card tables per agent: GIH/GNS win rates, IWD, play rate (when playable), "
             "shrunk win rate, outliers",
    "impact": "card impact runs ([impact]): what each card adds to its holder's win rate against a neutral "
              "stand-in on the same deals (paired intervals, BH q-values); where the correlational IWD rank and the "
              "causal rank disagree, and why; what one copy fewer changes for every seat, faction and game",
    "powers": "faction powers, per agent (games that record power_playable/power_used, e.g. Ring of "
              "Chaos): uses per game, use rate when playable, win rate when used at least once vs never, "
              "powers never used",
    "deltas": "each variant against the baseline: differences with 95% intervals, tests, BH q-values",
    "matrix": "skill ladders: agent-versus-agent win rates",
    "skill": "skill ladders: how factions and cards move across the rungs",
    "cost": "wall seconds and decisions per game of each variant's agents",
    "ratings": "skill ladders: Bradley-Terry ratings on the Elo scale with bootstrap intervals, adjacent gaps",
    "tuning": "cardlab tune runs: how much of the space was seen, targets, confirmed candidates and their verdicts, "
              "the cost-miss trade-off",
}
"""Section name -> what it shows (``cardlab report --sections``)."""

SECTIONS = tuple(SECTION_HELP)
"""The section names, in report order."""


def sections_help() -> str:
    """The ``--sections`` help text for argparse: every section with what it shows ('%' doubled)."""
    text = "comma-separated sections to show (default all that apply): " + "; ".join(
        f"{name}: {what}" for name, what in SECTION_HELP.items())
    return text.replace("%", "%%")
