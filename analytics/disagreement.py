"""Why a card's correlational rate (IWD) and its causal impact disagree, in words:
``why_they_disagree`` reads a row of ``card_impact_vs_gih`` (``analytics.views.impact``). The
report's impact section, its findings and the dashboard's Card impact page all say it this way.
"""

from __future__ import annotations

from typing import Any

from analytics import text_tables as fmt

LENGTH_BIAS = 0.02
"""How much longer (or shorter), as a share of the mean game, the games a card was held in must be for
``why_they_disagree`` to name it."""
STRENGTH_BIAS = 0.005
"""How much stronger (or weaker) its holder seats must be, as a win rate, to be named."""
SEEN_BIAS = 0.05
"""How many more (or fewer) cards, as a share of the mean, its holder seats must have had in hand to be named."""
SELECTION_BIAS = 0.02
"""How much more (or less) the seats that come to hold a card win with its stand-in for it to be named."""
OPPONENT_SHARE = 0.3
"""The share of not-seen games an opponent held the card in from which it is named."""


def why_they_disagree(row: dict[str, Any]) -> str:
    """In words, what biases or blurs the correlational rate (IWD) of a card of
    ``card_impact_vs_gih``: the games it was held in were longer or shorter, its holders had more
    cards in hand than the seats without it (``seen_bias``), its holder seats stronger or weaker,
    the seats that come to hold it winning more or less whatever the card does
    (``selection_bias``), its GNS games are ones another seat held it in (in a competitive game IWD
    then sets the card's holder against its victim), and the GIH rate's own noise."""
    reasons = []
    length, strength = row.get("length_bias"), row.get("strength_bias")
    selection, opponent, noise = row.get("selection_bias"), row.get("opponent_held_share"), row.get("gih_half_width")
    mean_turns = row.get("mean_turns_all") or 1.0
    if length is not None and abs(length) >= LENGTH_BIAS * mean_turns:
        reasons.append(f"held in {'longer' if length > 0 else 'shorter'} games ({length:+.2f} turns)")
    seen, mean_seen = row.get("seen_bias"), row.get("mean_cards_seen") or 1.0
    if seen is not None and abs(seen) >= SEEN_BIAS * mean_seen:
        reasons.append(f"its holders had {abs(seen):.1f} {'more' if seen > 0 else 'fewer'} cards in hand than the "
                       f"seats without it (mean {mean_seen:.1f}): a seat that lives longer or draws more holds more "
                       "of every card")
    if strength is not None and abs(strength) >= STRENGTH_BIAS:
        reasons.append(f"held by {'stronger' if strength > 0 else 'weaker'} seats ({fmt.points(strength)} points)")
    if selection is not None and abs(selection) >= SELECTION_BIAS:
        more = "more" if selection > 0 else "less"
        reasons.append(f"its holders win {fmt.points(abs(selection)).lstrip('+')} points {more} than average even "
                       "with the stand-in: who comes to hold it, not what it does")
    if opponent is not None and opponent >= OPPONENT_SHARE:
        reasons.append(f"another seat held it in {fmt.percent(opponent)} of its not-seen games")
    if noise is not None:
        reasons.append(f"GIH +-{fmt.points(noise).lstrip('+')} points of noise")
    return "; ".join(reasons) if reasons else "-"
