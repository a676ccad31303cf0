"""Hand-made Theseus positions and moves by card name, shared by the rule tests.

A position starts from ``TheseusState.new_game`` (which makes one instance
per physical card) and then has its places set by card name: Parties, Hands,
Rewards, the Board (and which Board cards carry a Bonus), the top of each
Rank deck (``deck_tops``, top card first). Every card not named goes to the
bottom of its Rank deck if that Rank is still to come (``rest="decks"``),
otherwise (and for the Ranks in ``only_tops``, whose decks are exactly
their ``deck_tops``) to the exile pile; starting cards not named are exiled. So each
card is in exactly one place, as in a real game.

Moves are played through ``legal_actions``/``apply`` only: the helpers turn
card names into the action the rules expect and check that it is legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from simcore.games.theseus import GAME
from simcore.games.theseus.rules import (
    ACTIVE,
    BOARD,
    BOARD_POSITION,
    BONUS_MASK,
    BONUSES,
    END_TURN,
    ENDING,
    EXILE,
    EXILE_PILE,
    HAND_AREA,
    HAND_POSITION,
    ICON_NAMES,
    LAST_RANK,
    MAIN,
    PARTY_AREA,
    PARTY_POSITION,
    PILLAGE,
    RANK,
    REWARD_AREA,
    STEP_EXPLORE,
    STEP_RECRUIT,
    STEP_SUBJUGATE,
    WITHOUT_A_CARD,
    TheseusConfig,
    TheseusState,
)
from simcore.kit.decisions import ActionType, Task
from simcore.parameters import apply_overrides

DEFAULT = GAME.configure(GAME.default_parameters())
STARTERS = ("knight", "mage", "rogue")


def configured(overrides: dict[str, Any]) -> TheseusConfig:
    """The default parameters with dotted-path overrides, compiled."""
    return GAME.configure(apply_overrides(GAME.default_parameters(), overrides))


def card(name: str, config: TheseusConfig = DEFAULT) -> int:
    """The card type of ``name``."""
    return config.names.index(name)


def rank_of(name: str, config: TheseusConfig = DEFAULT) -> int:
    """The Rank printed on ``name``."""
    return config.ranks[card(name, config)]


def vp_of(name: str, config: TheseusConfig = DEFAULT) -> int:
    """The VP printed on ``name``."""
    return config.vps[card(name, config)]


def icon_of(name: str, config: TheseusConfig = DEFAULT) -> str:
    """The Icon Ability of ``name``."""
    return ICON_NAMES[config.icons[card(name, config)]]


def names(state: TheseusState, instances: Iterable[int]) -> list[str]:
    """Card names of ``instances``, in order."""
    return [state.config.names[state.card_of[instance]] for instance in instances]


def build(
    *,
    n_players: int = 2,
    parties: Sequence[Sequence[str]] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    rewards: Sequence[Sequence[str]] | None = None,
    board: Sequence[str] = (),
    bonus_on: Sequence[str] = (),
    deck_tops: Mapping[int, Sequence[str]] | None = None,
    rest: str = "decks",
    only_tops: Sequence[int] = (),
    rank: int = 1,
    bonuses: Sequence[int] | None = None,
    active: int = 0,
    ending: bool = False,
    config: TheseusConfig = DEFAULT,
    events: list[dict[str, Any]] | None = None,
) -> TheseusState:
    """A hand-made position (see the module docstring); ``active`` is asked the ``main`` question."""
    state = TheseusState.new_game(config, n_players, 7, None if events is None else events.append)
    free: dict[int, list[int]] = {}
    for instance, card_type in enumerate(state.card_of):
        free.setdefault(card_type, []).append(instance)

    def take(name: str) -> int:
        pile = free.get(card(name, config), [])
        assert pile, f"no copy of {name} left to place"
        return pile.pop(0)

    for zone in state.zones:
        zone.take_all()
    empty: list[list[str]] = [[] for _ in range(n_players)]
    default_parties = [list(STARTERS) for _ in range(n_players)]
    for area, by_seat in ((PARTY_AREA, parties or default_parties), (HAND_AREA, hands or empty),
                          (REWARD_AREA, rewards or empty)):
        for seat, seat_names in enumerate(by_seat):
            state.seat_zone(seat, area).extend([take(name) for name in seat_names])
    state.zones[BOARD].extend([take(name) for name in board])
    bonus_mask = 0
    for name in bonus_on:
        bonus_mask |= 1 << next(position for position, on_board in enumerate(board)
                                if on_board == name and not bonus_mask >> position & 1)
    tops = {deck_rank: [take(name) for name in reversed(top_first)]  # the top is the end of the list
            for deck_rank, top_first in (deck_tops or {}).items()}
    bottoms: dict[int, list[int]] = {}
    exiled = []
    for card_type in sorted(free):
        for instance in free[card_type]:
            card_rank = config.ranks[card_type]
            if rest == "decks" and card_rank >= rank and card_rank > 0 and card_rank not in only_tops:
                bottoms.setdefault(card_rank, []).insert(0, instance)
            else:
                exiled.append(instance)
    for deck_rank in range(1, LAST_RANK + 1):
        state.zones[deck_rank].extend(bottoms.get(deck_rank, []) + tops.get(deck_rank, []))
    state.zones[EXILE_PILE].extend(exiled)
    state.numbers[RANK] = rank
    state.numbers[ACTIVE] = active
    state.numbers[BONUS_MASK] = bonus_mask
    state.numbers[ENDING] = int(ending)
    for seat in range(n_players):
        state.set_seat_number(seat, BONUSES, bonuses[seat] if bonuses is not None else 0)
    state.decisions.clear()
    state.push(Task(MAIN, active))
    state.run()
    if events is not None:
        events.clear()
    return state


def act(state: TheseusState, action: int) -> None:
    """Apply ``action`` for the current player after checking it is legal."""
    legal = list(state.legal_actions())
    assert action in legal, (action, legal, state.asked_kind())
    state.apply(action)


def party_position(state: TheseusState, name: str, seat: int | None = None) -> int:
    """Where the first ``name`` is in the Party of ``seat`` (default: the player to act)."""
    return names(state, state.party(state.current_player if seat is None else seat)).index(name)


def use(state: TheseusState, name: str) -> None:
    """The active player uses the Party card ``name``."""
    assert state.asked_kind() == MAIN
    act(state, PARTY_POSITION.encode(party_position(state, name)))


def without_card(state: TheseusState, ability: str) -> None:
    """The active player performs ``ability`` without using a card."""
    assert state.asked_kind() == MAIN
    act(state, WITHOUT_A_CARD.encode(ICON_NAMES.index(ability)))


def end_turn(state: TheseusState) -> None:
    """The active player ends the turn."""
    assert state.asked_kind() == MAIN
    act(state, END_TURN)


def explore(state: TheseusState, name: str) -> None:
    """Choose ``name`` on the Board for the pending Explore."""
    assert state.asked_kind() == STEP_EXPLORE
    act(state, BOARD_POSITION.encode(board(state).index(name)))


def recruit(state: TheseusState, name: str) -> None:
    """Choose ``name`` in the Hand for the pending Recruit."""
    assert state.asked_kind() == STEP_RECRUIT
    act(state, HAND_POSITION.encode(hand(state, state.current_player).index(name)))


def subjugate(state: TheseusState, name: str) -> None:
    """Choose ``name`` in the Hand for the pending Subjugate."""
    assert state.asked_kind() == STEP_SUBJUGATE
    act(state, HAND_POSITION.encode(hand(state, state.current_player).index(name)))


def exile(state: TheseusState, name: str) -> None:
    """The player who must exile chooses ``name`` from the area named by the obligation."""
    assert state.asked_kind() == EXILE
    area = exile_area(state)
    cards = names(state, state.seat_zone(state.current_player, area).cards)
    act(state, (PARTY_POSITION if area == PARTY_AREA else HAND_POSITION).encode(cards.index(name)))


def exile_area(state: TheseusState) -> int:
    """The area (``PARTY_AREA`` or ``HAND_AREA``) of the exile asked now."""
    asked = state.decisions.asked
    assert asked.kind == EXILE
    return asked.a


def pillage(state: TheseusState, victim: int, name: str) -> None:
    """Take ``name`` from ``victim``'s Reward for the pending pillage."""
    act(state, PILLAGE.encode(victim, reward(state, victim).index(name)))


def party(state: TheseusState, seat: int) -> list[str]:
    """The Party of ``seat`` by name, in order."""
    return names(state, state.party(seat))


def hand(state: TheseusState, seat: int) -> list[str]:
    """The Hand of ``seat`` by name, in order."""
    return names(state, state.hand(seat))


def reward(state: TheseusState, seat: int) -> list[str]:
    """The Reward of ``seat`` by name, in order."""
    return names(state, state.reward(seat))


def board(state: TheseusState) -> list[str]:
    """The Board by name, in order."""
    return names(state, state.board())


def exiled(state: TheseusState) -> list[str]:
    """The exile pile by name, the last exiled card last."""
    return names(state, state.zones[EXILE_PILE].cards)


def bonus_cards(state: TheseusState) -> list[str]:
    """Board cards carrying a Bonus."""
    return [name for position, name in enumerate(board(state)) if state.has_bonus(position)]


def bonuses(state: TheseusState) -> list[int]:
    """Every seat's Bonuses."""
    return [state.seat_number(seat, BONUSES) for seat in range(state.n_players)]


def places(state: TheseusState) -> Counter[int]:
    """Every card instance, counted once per zone it is in."""
    return Counter(instance for zone in state.zones for instance in zone.cards)


def every_card_once(state: TheseusState) -> bool:
    """True when each instance is in exactly one place."""
    return places(state) == Counter(range(len(state.card_of)))


def finish(state: TheseusState) -> None:
    """End the current turn of a position built with ``ending=True``: the game is over."""
    end_turn(state)
    assert state.is_terminal()


def legal_positions(state: TheseusState, action_type: ActionType) -> list[int]:
    """The positions the legal actions choose, each checked to be of ``action_type``."""
    legal = list(state.legal_actions())
    assert all(action_type.matches(action) for action in legal), (action_type.name, legal)
    return [action_type.value(action) for action in legal]


def seen_by(state: TheseusState, viewer: int, seat: int, area: int) -> tuple[int, ...]:
    """``seat``'s Party, Hand or Reward in ``viewer``'s observation (card types, ``UNSEEN`` for a card back)."""
    zone = state.seat_zone(seat, area)
    return state.observation(viewer)[OBSERVED_ZONES][state.zones.index(zone)]


OBSERVED_ZONES = 5
"""Where the zones are in a kit state's observation (``KitState.observation``)."""


def decks(state: TheseusState) -> list[list[int]]:
    """The six Rank decks' instances, Rank 1 first, each top card last."""
    return [state.zones[rank].cards for rank in range(1, LAST_RANK + 1)]
