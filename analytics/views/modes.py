"""``experiment_modes``: whether each experiment is cooperative."""

from __future__ import annotations

from dataset.contracts import EXPERIMENT, Column, contract

# A cooperative experiment: no game of it where some seats win and others
# lose, and no draw (a cooperative loss is no draw: records.py). A competitive
# game has a winner (a mixed game) or is a draw.
EXPERIMENT_MODES = """
SELECT experiment, sum(mixed) = 0 AND sum(draws) = 0 AS cooperative
FROM team_counts
GROUP BY experiment
ORDER BY experiment
"""

EXPERIMENT_MODES_CONTRACT = contract(
    "experiment_modes", "One row per experiment: cooperative or competitive.", EXPERIMENT,
    Column("cooperative", "BOOLEAN", "No game had seats that won and seats that lost, and none was a draw: the "
           "seats share one outcome, so seat tests are left out and every rate counts games."))
