"""Divvy's neutral stand-in for a card (``simcore.games.stand_ins``; RULES.md, "Card impact").

Every Divvy card is a fighter (suit, value, battle icon) and a treasure (d20
number, coin). Its stand-in keeps the suit and the icon, so it is played in
the same rounds and battles, and takes the deck's average on the two numbers
the card's strength is made of: the fighter value is the deck's mean value
and the treasure is the deck's mean d20 number and the coin closest to the
deck's mean coin worth (both rounded to the nearest whole number, halves to
even). A card already at those numbers has a stand-in identical to itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from statistics import mean
from typing import Any


def deck_means(parameters: Mapping[str, Any]) -> tuple[int, int, str]:
    """The deck's mean fighter value, mean d20 number (each copy counted) and the coin whose
    worth is closest to the mean coin worth (the cheaper one on a tie)."""
    cards = parameters["cards"]
    copies = [(card, card["copies"]) for card in cards.values() if card["copies"] > 0]
    worth = parameters["rules"]["coin_values"]
    value = round(mean(card["value"] for card, count in copies for _ in range(count)))
    d20 = round(mean(card["d20"] for card, count in copies for _ in range(count)))
    coin_worth = mean(worth[card["coin"]] for card, count in copies for _ in range(count))
    coin = min(sorted(worth, key=lambda name: worth[name]), key=lambda name: abs(worth[name] - coin_worth))
    return value, d20, coin


def stand_in(parameters: Mapping[str, Any], card: str) -> dict[str, Any] | None:
    """``card`` at the deck's mean value, d20 number and coin, its suit and icon kept."""
    if card not in parameters["cards"]:
        return None
    value, d20, coin = deck_means(parameters)
    return {f"cards.{card}.value": value, f"cards.{card}.d20": d20, f"cards.{card}.coin": coin}
