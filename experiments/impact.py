"""Card impact experiments: the ``[impact]`` table of an experiment file, expanded into arms.

For every card asked (``cards = "all"`` or a list), each *arm* is a variant
compared with the baseline (``analytics.views.impact``). The arms:

- ``stand_in``: the card replaced in place by its game's neutral card
  (``simcore.games.stand_ins``): the same name, copies and place in the deck,
  played on the baseline's seeds, so that the two games of one seed differ
  only where the card matters and its effect on its holder's win rate is read
  game by game (paired);
- ``one_fewer``: one copy fewer of the card (for a card of one copy: gone),
  played on seeds of its own (``PAIRED_ARMS``). It measures what the removal
  changes for every seat and game, compared unpaired; it has no holder-level
  impact (see ``PAIRED_ARMS``).

An arm's variant is named ``impact.<card>.<arm>`` (``ARM_PREFIX``). The
optional ``max_width`` stops playing an arm once its interval is that narrow
(``min_games`` games first); see the documentation's methods page, "Card impact".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simcore.api import Game
from simcore.games.stand_ins import NoStandInError, copies_of, impact_cards, stand_in_function
from simcore.parameters import ParameterError, apply_overrides

STAND_IN = "stand_in"
ONE_FEWER = "one_fewer"
ARMS = (STAND_IN, ONE_FEWER)
"""The arms of a card impact run, in the order they are played."""
PAIRED_ARMS = (STAND_IN,)
"""The arms played on the baseline's seeds. With one copy fewer the deck is shorter, its shuffle
draws from the game's generator differently and every later draw serves another purpose: no
seat of the arm's game is "the seat that held the card", and on the baseline's seeds which
seat held it would even be correlated with the arm game's own luck (a card of no effect then
measured 44 points "strong"). So ``one_fewer`` plays seeds of its own and reports only what is
causal for it, every seat's, agent's and faction's rate and the game's length and endings,
as two independent samples (``card_removal``)."""
ARM_PREFIX = "impact."
"""Every arm's variant name starts with this: ``impact.<card>.<arm>``."""
DEFAULT_MIN_GAMES = 200
"""Games an arm plays at least before ``max_width`` may stop it: games with the card held
(``stand_in``), games of the arm (``one_fewer``)."""
KEYS = ("cards", "arms", "max_width", "min_games", "arm_variants")


class ImpactTableError(ValueError):
    """A mistake in the ``[impact]`` table: ``key`` (under ``impact``) and what was expected."""

    def __init__(self, key: str, expected: str) -> None:
        super().__init__(f"{key}: {expected}")
        self.key = key
        self.expected = expected


@dataclass(frozen=True)
class ImpactArm:
    """One arm of one card: its variant's overrides and resolved parameter tree."""

    card: str
    arm: str
    overrides: dict[str, Any]
    parameters: dict[str, Any]

    @property
    def variant(self) -> str:
        """The arm's variant name (``arm_variant``)."""
        return arm_variant(self.card, self.arm)

    @property
    def paired(self) -> bool:
        """Whether the arm plays the baseline's seeds (``PAIRED_ARMS``)."""
        return self.arm in PAIRED_ARMS


@dataclass(frozen=True)
class ImpactPlan:
    """A validated ``[impact]`` table: the cards (resolved from ``"all"``), the arms asked, every
    arm to play, the arms ``"all"`` left out (card, arm, why) and the per-arm early stop
    (``max_width``, None for none; ``min_games``)."""

    cards: tuple[str, ...]
    arms: tuple[str, ...]
    played: tuple[ImpactArm, ...]
    left_out: tuple[tuple[str, str, str], ...] = ()
    max_width: float | None = None
    min_games: int = DEFAULT_MIN_GAMES
    all_cards: bool = False

    def to_json_dict(self) -> dict[str, Any]:
        """The table as written in the experiment file (what ``parse_impact_table`` reads back)."""
        stored: dict[str, Any] = {"cards": "all" if self.all_cards else list(self.cards), "arms": list(self.arms),
                                  "min_games": self.min_games}
        # What readers of spec.json count the planned games by, without the game's rules
        # (``analytics.explore.planned_games``); parse_impact_table ignores it.
        stored["arm_variants"] = len(self.played)
        if self.max_width is not None:
            stored["max_width"] = self.max_width
        return stored


def arm_variant(card: str, arm: str) -> str:
    """The variant name of ``card``'s ``arm``."""
    return f"{ARM_PREFIX}{card}.{arm}"


def parse_arm_variant(variant: str) -> tuple[str, str] | None:
    """(card, arm) of an arm's variant name, or None for any other variant."""
    if not variant.startswith(ARM_PREFIX):
        return None
    card, _, arm = variant.removeprefix(ARM_PREFIX).rpartition(".")
    return (card, arm) if card and arm in ARMS else None


def arm_overrides(game_id: str, parameters: Mapping[str, Any], card: str, arm: str) -> dict[str, Any] | None:
    """The overrides of ``card``'s ``arm`` on ``parameters`` (None: the card has no such arm)."""
    if arm == STAND_IN:
        return stand_in_function(game_id)(parameters, card)
    copies = copies_of(parameters, card)
    return {f"cards.{card}.copies": copies - 1} if copies > 0 else None


def parse_impact_table(table: Any, game: Game) -> ImpactPlan:
    """Validate an ``[impact]`` table against ``game``'s defaults; raises ``ImpactTableError``.

    With ``cards = "all"`` an arm the game refuses (one copy fewer of a card a deck needs all
    of) is left out and listed in ``left_out``; a card named in a list must have every arm."""
    if not isinstance(table, dict):
        raise ImpactTableError("impact", "expected a table with cards and arms")
    unknown = sorted(set(table) - set(KEYS))
    # ``arm_variants`` is written into spec.json (``to_json_dict``) and read back from it: a count, not a choice.
    if unknown:
        raise ImpactTableError(f"impact.{unknown[0]}", f"unknown key; expected one of {', '.join(KEYS[:4])}")
    defaults = game.default_parameters()
    game_id = game.info.id
    arms = table.get("arms", list(ARMS))
    if isinstance(arms, str):
        arms = [arms]
    if not isinstance(arms, list) or not arms or any(arm not in ARMS for arm in arms) or len(set(arms)) != len(arms):
        raise ImpactTableError("impact.arms", f"expected a list of {' and/or '.join(ARMS)} (each once), got {arms!r}")
    if STAND_IN in arms:
        try:
            stand_in_function(game_id)
        except NoStandInError as error:
            raise ImpactTableError("impact.arms", f"{error}; use arms = [\"{ONE_FEWER}\"]") from None
    value = table.get("cards", "all")
    cards = _cards(value, game_id, defaults, arms)
    max_width = table.get("max_width")
    if max_width is not None and (isinstance(max_width, bool) or not isinstance(max_width, (int, float))
                                  or not 0 < max_width < 2):
        raise ImpactTableError("impact.max_width", f"expected a number above 0 and below 2 (an interval width "
                               f"of a win-rate difference), got {max_width!r}")
    min_games = table.get("min_games", DEFAULT_MIN_GAMES)
    if isinstance(min_games, bool) or not isinstance(min_games, int) or min_games < 1:
        raise ImpactTableError("impact.min_games", f"expected a positive integer, got {min_games!r}")
    played, left_out = _arms(game, defaults, cards, arms, strict=value != "all")
    if not played:
        raise ImpactTableError("impact.cards", f"no card of {game_id} has the arms {arms!r}")
    return ImpactPlan(tuple(cards), tuple(arms), tuple(played), tuple(left_out),
                      None if max_width is None else float(max_width), min_games, all_cards=value == "all")


def _cards(value: Any, game_id: str, defaults: Mapping[str, Any], arms: Sequence[str]) -> list[str]:
    """The cards asked: every card with a stand-in (or, without that arm, in the deck) for
    ``"all"``, else the names of the list, each a card of the game, once."""
    if value == "all":
        if STAND_IN in arms:
            return impact_cards(game_id, defaults)
        return [card for card in defaults["cards"] if copies_of(defaults, card) > 0]
    if not isinstance(value, list) or not value:
        raise ImpactTableError("impact.cards", f"expected \"all\" or a non-empty list of card names, got {value!r}")
    known = defaults["cards"]
    for index, card in enumerate(value):
        if not isinstance(card, str) or card not in known:
            raise ImpactTableError(f"impact.cards[{index}]", f"expected a card of {game_id}, got {card!r}")
    if len(set(value)) != len(value):
        raise ImpactTableError("impact.cards", f"each card once, got {value!r}")
    return list(value)


def _arms(game: Game, defaults: Mapping[str, Any], cards: Sequence[str], arms: Sequence[str], strict: bool
          ) -> tuple[list[ImpactArm], list[tuple[str, str, str]]]:
    """Every arm of every card, checked by the game (``configure``), and those left out with why;
    with ``strict`` (cards named in a list) an arm that cannot be played is an error instead."""
    played, left_out = [], []
    for index, card in enumerate(cards):
        for arm in arms:
            overrides = arm_overrides(game.info.id, defaults, card, arm)
            why = ""
            if overrides is None:
                why = "no copy in the deck" if copies_of(defaults, card) == 0 else f"no {arm} in {game.info.id}"
            else:
                try:
                    parameters = apply_overrides(defaults, overrides)
                    game.configure(parameters)
                except ParameterError as error:
                    why = f"{error.path}: {error.message}"
            if why and strict:
                raise ImpactTableError(f"impact.cards[{index}]", f"{card}, arm {arm}: {why}; leave it out")
            if why:
                left_out.append((card, arm, why))
            else:
                played.append(ImpactArm(card, arm, overrides or {}, parameters))
    return played, left_out
