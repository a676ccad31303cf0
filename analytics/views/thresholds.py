"""The bands and thresholds the metric views flag by (``outside_band``, ``outlier``...),
shared with the report's findings and the dashboard's marks."""

from __future__ import annotations

TURN_CAP_REASONS = ("turn_cap", "round_cap", "turn_limit", "max_turns", "round_limit")
"""End reasons that mean "stopped by the turn cap", not a real end of the game."""

FACTION_BAND = 0.05
"""Half-width of the target band around the expected faction (and seat) win rate."""

CARD_BAND = 0.10
"""Half-width of the target band of a card's GIH win rate around its agent's card mean."""

OUTLIER_Z = 3.0
"""``|z_score|`` from which a card is flagged as an outlier..."""

OUTLIER_POINTS = 0.02
"""...when its GIH win rate is also at least this far from its agent's card mean (with
100,000 games in hand, a 0.5-point difference has |z| > 3 but matters to nobody)."""

CARD_MIN_EXPECTED = 5.0
"""A card is flagged (``outlier``, ``surely_outside``) only on enough evidence: at its agent's
card mean ``m``, its games in hand (``gih_win_rate_effective_n``, ``n``) would hold at least
this many wins and this many losses, ``n·m >= 5`` and ``n·(1 − m) >= 5`` (the textbook
condition for the normal approximation that ``z_score`` and the interval rest on). A card
held in one game cannot stand out: where the agent wins 95% of its games, 0 wins in 1 game
happen 5% of the time and gave |z| = 4.5; with hundreds of cards, dozens such. There a card
needs 100 games in hand (5 expected losses); where it wins half, 10."""

SIGNIFICANCE = 0.05
"""False discovery rate at which a variant delta is called significant."""

NEVER_PLAYED = "never played by this agent: its numbers describe the agent, not the card"
"""What a card row flagged ``never_played`` means."""
