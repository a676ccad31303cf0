"""Zones: piles of cards with an owner and a visibility.

A zone is a list of card ids (``cards[-1]`` is the top) with

- an ``owner``: a seat, or ``TABLE`` for a zone nobody owns;
- a ``visibility``: ``PUBLIC`` (every seat sees every card), ``OWNER_ONLY``
  (a hand: the owner sees the cards, the others only how many),
  ``HIDDEN`` (a face-down pile: nobody sees the cards) or ``FACE_UP_COUNT``
  (a pile whose lowest ``face_up`` cards lie face up under the face-down
  rest, as Party Wanted buries cards);
- a ``seen`` seat mask per position of a zone that can hide cards (a public
  zone keeps none: every card in it is seen anyway): the history of the card
  there, bit ``s`` set when seat ``s`` saw it. A card taken from a public
  zone is seen by every seat (``EVERY_SEAT``), one taken from a hand at least
  by that hand's owner, and a seen card keeps its seers when it moves on; a
  seat sees the cards it saw, and re-sampling for it keeps them in place
  (``move_card`` sets the mask, ``show`` adds seats, shuffling clears it).
  A seat follows a card only while it can tell it from the others: a card
  taken out of a hand to a place a seat does not see (bid face down, exiled
  face down, taken at random into another hand) is lost to that seat, and so
  is every card left in the hand, since it cannot tell which of them went;
- a re-sampling ``pool``: the cards a seat cannot see are redrawn only among
  the zones of the same pool (a hero deck keeps its cards). A zone that can
  hide cards must name its pool, so no hidden card is copied into a search's
  world by mistake. Within a pool, a zone may hold only one ``card_class``
  (a Rank deck only cards of its Rank, ``resample_zones``' ``class_of_card``)
  while the other zones of the pool take cards of any class.

``clone_zones``, ``observe_zones`` and ``resample_zones`` are the one
implementation of a state's ``clone``, ``observation`` and
``resample_hidden`` for its cards (``simcore.kit.state``): what a seat sees
of a zone is decided by the zone's visibility alone, so hidden information is
right by construction.
"""

from __future__ import annotations

from typing import Any, Final, cast, final

from librt.vecs import append, extend, vec
from librt.vecs import pop as pop_item
from mypy_extensions import i64, mypyc_attr

from simcore.kit.vectors import filled, sort_in_place
from simcore.rng import Generator

TABLE: Final = -1
"""The owner of a zone that belongs to no seat."""

PUBLIC: Final = 0
OWNER_ONLY: Final = 1
HIDDEN: Final = 2
FACE_UP_COUNT: Final = 3
VISIBILITY_NAMES: Final = ("public", "owner only", "hidden", "face-up count")

NO_POOL: Final = -1
"""The pool of a zone whose cards are never redrawn (a public zone)."""

UNSEEN: Final = -1
"""What an observation shows in place of a card the seat cannot see."""

EVERY_SEAT: Final = -1
"""The ``seen`` mask of a card every seat saw (every bit set)."""

NOBODY: Final = 0
"""The ``seen`` mask of a card no seat saw (but its zone's owner, who sees its zone anyway)."""

_SHIFT_BY_HAND: Final = 8
"""``Zone.take`` moves at most this many cards down one by one (more: ``list.pop``)."""

ANY_CLASS: Final = -1
"""The ``card_class`` of a zone that may hold cards of any class."""


@final
@mypyc_attr(acyclic=True)  # holds cards and marks only: never in a reference cycle
class Zone:
    """One pile of cards (see the module docstring)."""

    name: str
    owner: int
    visibility: int
    pool: int
    cards: list[int]
    # A vec[i64] (mypyc's unboxed vector): kept beside every move of a card in
    # a zone that can hide cards, so native: no boxing, no list resizing.
    seen: vec[i64]
    face_up: int
    card_class: int

    def __init__(self, name: str, owner: int, visibility: int, pool: int = NO_POOL,
                 card_class: int = ANY_CLASS) -> None:
        if visibility < PUBLIC or visibility > FACE_UP_COUNT:
            raise ValueError(f"zone {name!r}: unknown visibility {visibility}")
        if visibility != PUBLIC and pool < 0:
            raise ValueError(f"zone {name!r} hides cards, so it needs a re-sampling pool (pool >= 0)")
        self.name = name
        self.owner = owner
        self.visibility = visibility
        self.pool = pool
        self.cards = []
        self.seen = vec[i64]()
        self.face_up = 0
        self.card_class = card_class

    def __len__(self) -> int:
        return len(self.cards)

    def visible_to(self, seat: int) -> bool:
        """True when ``seat`` sees every card of the zone."""
        visibility = self.visibility
        return visibility == PUBLIC or (visibility == OWNER_ONLY and seat == self.owner)

    def add(self, card: int, seen: int = NOBODY) -> None:
        """Put ``card`` on top; ``seen``: the seats that saw it (a mask)."""
        self.cards.append(card)
        if self.visibility != PUBLIC:
            self.seen = append(self.seen, seen)

    def extend(self, cards: list[int], seen: int = NOBODY) -> None:
        """Put ``cards`` on top, the last one topmost."""
        self.cards.extend(cards)
        if self.visibility != PUBLIC:
            # One copy of a kept run of marks (``filled``), not an append per card: a deck
            # is extended card by card at every new game.
            self.seen = extend(self.seen, filled(seen, len(cards)))

    def show(self, position: int, seat: int) -> None:
        """``seat`` sees the card at ``position`` (a card shown, or taken by it)."""
        if self.visibility != PUBLIC:
            self.seen[position] |= 1 << seat

    def reveal(self, position: int) -> None:
        """Every seat sees the card at ``position`` (a card turned face up where it lies)."""
        if self.visibility != PUBLIC:
            self.seen[position] = EVERY_SEAT

    def take(self, position: i64) -> int:
        """Remove and return the card at ``position``."""
        if self.visibility != PUBLIC:
            self.seen = pop_item(self.seen, position)[0]
        cards = self.cards
        if position < 0:
            position += len(cards)
        if len(cards) - position > _SHIFT_BY_HAND:
            return cards.pop(position)
        card = cards[position]
        # The few cards above move down one by hand, as objects (no unboxing
        # and boxing of each), and the top one is popped: list.pop(position)
        # goes through CPython's general slice deletion, costlier for a hand.
        objects = cast(list[object], cards)
        for index in range(position, len(objects) - 1):
            objects[index] = objects[index + 1]
        objects.pop()
        return card

    def take_top(self) -> int:
        """Remove and return the top card; -1 when the zone is empty."""
        if not self.cards:
            return -1
        if self.visibility != PUBLIC:
            self.seen = pop_item(self.seen)[0]
        return self.cards.pop()

    def take_all(self) -> list[int]:
        """Empty the zone; its cards, bottom first."""
        cards = self.cards
        self.cards = []
        self.seen = vec[i64]()
        self.face_up = 0
        return cards

    def bury_face_up(self, card: int) -> None:
        """Put ``card`` face up at the bottom (``FACE_UP_COUNT`` zones): every seat sees it."""
        self.cards.insert(0, card)
        # The old marks copied in one call, not appended one by one (a card buried for +1
        # in Party Wanted cost ~750 instructions that way).
        self.seen = extend(append(vec[i64](capacity=len(self.seen) + 1), EVERY_SEAT), self.seen)
        self.face_up += 1

    def shuffle_in(self, cards: list[int], rng: Generator) -> None:
        """Put ``cards`` in and shuffle the whole zone face down (``shuffle``). No seen mark
        is written for them first, as ``extend`` would: the shuffle clears every mark."""
        self.cards.extend(cards)
        self.shuffle(rng)

    def shuffle(self, rng: Generator) -> None:
        """Shuffle every card face down: no card is seen or face up any more."""
        rng.shuffle(self.cards)
        if self.visibility != PUBLIC:
            self.seen = filled(NOBODY, len(self.cards))
        self.face_up = 0

    def copy(self) -> Zone:
        """An independent copy."""
        twin = Zone(self.name, self.owner, self.visibility, self.pool, self.card_class)
        twin.cards = self.cards[:]  # a slice copies the pointers at once; list() goes through iteration
        twin.seen = self.seen[:]
        twin.face_up = self.face_up
        return twin

    def hidden_from(self, seat: int, position: int) -> bool:
        """True when ``seat`` cannot see the card at ``position``."""
        if self.visible_to(seat) or position < _first_hideable(self):
            return False
        return _unseen_mark(self.seen[position], seat)

    def observe(self, seat: int, observe_as: list[int] | None = None) -> tuple[int, ...]:
        """The zone as ``seat`` sees it: every card, or ``UNSEEN`` in place of
        each card it cannot see (so the size is seen too).

        With ``observe_as`` (card -> what a seat sees of it), each seen card
        is shown as ``observe_as[card]``: a game whose cards are physical
        copies (Theseus' instances) shows the card type, so two copies of a
        card look the same."""
        if observe_as is None:
            if self.visible_to(seat):
                return tuple(self.cards)
            return tuple(card if not self.hidden_from(seat, position) else UNSEEN
                         for position, card in enumerate(self.cards))
        if self.visible_to(seat):
            return tuple(observe_as[card] for card in self.cards)
        return tuple(observe_as[card] if not self.hidden_from(seat, position) else UNSEEN
                     for position, card in enumerate(self.cards))


def draw_face_down(pile: Zone, rng: Generator) -> int:
    """Take the top card of ``pile`` (-1 when it is empty); a pile whose cards
    all lie face up (``bury_face_up``) is first shuffled face down."""
    if len(pile.cards) <= pile.face_up:
        if not pile.cards:
            return -1
        pile.shuffle(rng)
    return pile.take_top()


def move_card(source: Zone, position: int, target: Zone) -> int:
    """Move the card at ``position`` of ``source`` onto ``target``; return it.

    The seats that saw it where it was still know it (history): every seat
    for a card from a public zone, the seats that had seen it otherwise, and
    the owner of the hand it leaves. A card leaving a public zone for a hand
    is therefore never redrawn by re-sampling, and a card taken from a hand is
    never redrawn for the seat it was taken from.

    But a card taken out of a hand (``OWNER_ONLY``) to a zone that is not
    public was chosen where the other seats cannot see: a seat that sees
    neither the hand nor the target cannot tell which card went, so it
    forgets the moved card and every card left in the hand (it saw a battle
    card taken back into the hand; bid face down, it may be any of them).
    """
    if target.visibility == PUBLIC:  # every seat sees it now: no history to keep
        card = source.take(position)
        target.cards.append(card)
        return card
    seen = _seen_when_moved(source, position)
    if source.visibility == OWNER_ONLY:
        # Who can still tell the cards apart: the hand's owner, and the target's when it sees it whole.
        followers = _owner_bit(source) | (_owner_bit(target) if target.visibility == OWNER_ONLY else 0)
        seen &= followers
        marks = source.seen
        for index in range(len(marks)):
            marks[index] &= followers
    card = source.take(position)
    target.add(card, seen)
    return card


def _owner_bit(zone: Zone) -> int:
    """The ``seen`` bit of ``zone``'s owner; none for a table zone."""
    return 1 << zone.owner if zone.owner >= 0 else 0


def _seen_when_moved(source: Zone, position: int) -> int:
    """The ``seen`` mask a card at ``position`` of ``source`` takes along (``move_card``)."""
    if source.visibility == PUBLIC:
        return EVERY_SEAT
    seen = source.seen[position]
    if source.visibility == OWNER_ONLY:
        seen |= _owner_bit(source)
    return seen


def move_masked(source: Zone, mask: int, target: Zone) -> int:
    """Move the cards at the positions of ``source`` whose bits are set in
    ``mask`` onto ``target``, in ``source`` order, each as ``move_card``
    moves it (the seats that saw it still know it, unless it went face down
    out of a hand); how many moved.

    (Compiled, popping each card beats rebuilding the source's two lists:
    400 random Divvy games, 21.1 M instructions against 25.7 M.)"""
    moved = 0
    position = 0
    while mask:
        if mask & 1:
            move_card(source, position - moved, target)
            moved += 1
        mask >>= 1
        position += 1
    return moved


def move_all(source: Zone, target: Zone) -> int:
    """Move every card of ``source`` onto ``target``, in order, each as
    ``move_card`` moves it, but that nobody forgets a card: no card was
    chosen, every seat sees them all go; how many moved."""
    count = len(source.cards)
    for position in range(count):
        target.add(source.cards[position], _seen_when_moved(source, position))
    source.take_all()
    return count


def clone_zones(zones: list[Zone]) -> list[Zone]:
    """Independent copies of ``zones``, in order."""
    return [zone.copy() for zone in zones]


def observe_zones(zones: list[Zone], seat: int, observe_as: list[int] | None = None) -> tuple[Any, ...]:
    """Every zone as ``seat`` sees it, in order (each seen card as
    ``observe_as[card]`` when given: ``Zone.observe``)."""
    return tuple(zone.observe(seat, observe_as) for zone in zones)


def resample_zones(zones: list[Zone], seat: int, rng: Generator, class_of_card: list[int] | None = None) -> None:
    """Redraw, in place, every card ``seat`` cannot see, pool by pool.

    The unseen cards of one pool are sorted first (so the result depends only
    on what ``seat`` sees and on ``rng``, not on where the cards really were:
    seat-honest search), shuffled, and dealt back into the same positions; a
    zone keeps its size and every card ``seat`` sees or saw stays where it
    is. Pools are taken in the order of their first zone.

    With ``class_of_card`` (card -> class), the zones of a pool that hold one
    ``card_class`` are dealt first, class by class in the order of their
    first zone, from the pool's unseen cards of that class (sorted, then
    shuffled); every card left over, of any class, then goes (sorted, then
    shuffled) to the pool's zones of ``ANY_CLASS``.
    """
    # Native vectors and loops throughout: a search re-samples at every
    # iteration, and boxed lists of cards, a generic ``in`` per zone and a
    # method call per position were a fifth of Party Wanted's search.
    pools = vec[i64]()
    for zone in zones:
        if zone.pool >= 0 and not _holds(pools, zone.pool):
            pools = append(pools, zone.pool)
    for pool in pools:
        # First pass: the unseen cards, and the class-bound slots; the free slots are found
        # again in the same order by the second pass (no list of them: ~180 a re-sampling).
        classed_zones: list[Zone] = []
        classed_positions = vec[i64]()
        unseen = vec[i64]()
        for zone in zones:
            if zone.pool != pool or zone.visible_to(seat):
                continue
            classed = _class_bound(zone, class_of_card)
            cards, seen = zone.cards, zone.seen
            for position in range(_first_hideable(zone), len(cards)):
                if _unseen_mark(seen[position], seat):
                    if classed:
                        classed_zones.append(zone)
                        classed_positions = append(classed_positions, position)
                    unseen = append(unseen, cards[position])
        if classed_zones and class_of_card is not None:
            unseen = _deal_classed(classed_zones, classed_positions, unseen, class_of_card, rng)
        sort_in_place(unseen)
        rng.shuffle_vector(unseen)
        dealt: i64 = 0
        for zone in zones:
            if zone.pool != pool or zone.visible_to(seat) or _class_bound(zone, class_of_card):
                continue
            cards, seen = zone.cards, zone.seen
            for position in range(_first_hideable(zone), len(cards)):
                if _unseen_mark(seen[position], seat):
                    cards[position] = unseen[dealt]
                    dealt += 1


def _holds(values: vec[i64], value: i64) -> bool:
    """Whether ``value`` is one of ``values`` (mypyc makes ``any`` of a generator a native loop)."""
    return any(held == value for held in values)


def _first_hideable(zone: Zone) -> int:
    """The first position of ``zone`` whose card a seat may not see: the
    face-up cards at the bottom of a ``FACE_UP_COUNT`` zone are seen by all."""
    return zone.face_up if zone.visibility == FACE_UP_COUNT else 0


def _unseen_mark(seen: i64, seat: i64) -> bool:
    """Whether a card with the ``seen`` mask is hidden from ``seat`` in a zone
    ``seat`` does not see whole (``Zone.hidden_from`` after its zone-wide tests)."""
    if seat < 0:  # no seat in particular: only what every seat saw is seen
        return seen != EVERY_SEAT
    return not seen >> seat & 1


def _class_bound(zone: Zone, class_of_card: list[int] | None) -> bool:
    """Whether ``zone``'s hidden cards are dealt from its class's cards (``resample_zones``)."""
    return zone.card_class != ANY_CLASS and class_of_card is not None


def _deal_classed(zones: list[Zone], positions: vec[i64], unseen: vec[i64], class_of_card: list[int],
                  rng: Generator) -> vec[i64]:
    """Deal the class-bound slots (``zones[i]``, ``positions[i]``) from
    ``unseen``, class by class; the cards left over, for the free slots."""
    done_classes = vec[i64]()
    left = unseen
    for first in zones:
        card_class = first.card_class
        if _holds(done_classes, card_class):
            continue
        done_classes = append(done_classes, card_class)
        eligible = vec[i64]()
        others = vec[i64]()
        for card in left:
            if class_of_card[card] == card_class:
                eligible = append(eligible, card)
            else:
                others = append(others, card)
        sort_in_place(eligible)
        rng.shuffle_vector(eligible)
        dealt: i64 = 0
        for index in range(len(zones)):
            if zones[index].card_class == card_class:
                zones[index].cards[positions[index]] = eligible[dealt]
                dealt += 1
        for index in range(dealt, len(eligible)):
            others = append(others, eligible[index])
        left = others
    return left
