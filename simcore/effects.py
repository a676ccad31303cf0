"""Card effects as data: one syntax and one parser for every game that lists effects.

The syntax. A card's effects are a TOML list of strings, one effect per
string, in the order they resolve; each string is the effect's name, then its
arguments, separated by spaces::

    use = ["explore 1", "draw 2"]          # Theseus: explore one more card, then draw two
    end = ["vp_per_icon explore 1"]         # Theseus: 1 VP per explore card in the Party
    effects = ["attack 2", "speed 1"]       # Party Wanted
    effects = ["negate"]                    # an effect without arguments
    use = []                                # no effect

Why this form, for the designers who write it:

- One string per effect reads like the card ("explore 1", "vp_per_icon
  explore 1") and like the vocabulary table of the game's RULES.md, which
  prints each effect's form (``vp_per_icon ICON N``) exactly as it is written.
- TOML gives the list its structure, so there is no separator grammar inside
  the strings to learn (no commas between effects, no colon before an amount)
  and an effect of two arguments needs no second separator.
- An error quotes the one item at fault, and an override replaces the whole
  list (``"cards.scout.use" = ["draw 1"]``), so a variant shows exactly which
  effects a card has.
- Inline tables (``{explore = 1}``) were the alternative: longer for the
  common one-argument effect, and the arguments of ``vp_per_icon`` would
  need names of their own.

The vocabulary. Each game declares, as data, the effects it knows and the
kind of each argument: an ``Integer`` (with an optional minimum and maximum)
or a ``Choice`` among words (icons, areas...). ``Vocabulary.parse`` checks a
list against it and returns each effect as a ``ParsedEffect`` of plain
integers (the effect's index in the vocabulary, its arguments; a choice as
the index of its word), which the game compiles into the tuples its rules
read. A mistake is one line naming the dotted path and what was expected::

    cards.minotaur.end: unknown effect 'vpp 2'; expected one of vp, vp_per_bonus, ...
    cards.scout.use: 'explore 0': expected 'explore N' with N an integer from 1 to 9, got N = 0

Set-up code, interpreted (never on the hot path): the rules only see the
compiled tuples.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from simcore.parameters import ParameterError

_INTEGER = re.compile(r"-?[0-9]+")


@dataclass(frozen=True)
class Integer:
    """An integer argument, written in digits (``-1`` allowed), within ``minimum``
    and ``maximum`` (inclusive; ``None`` for no bound); ``label`` names it in a
    form such as ``explore N``."""

    label: str
    minimum: int | None = None
    maximum: int | None = None

    def read(self, word: str) -> int | None:
        """The value of ``word``, or ``None`` when it is no integer in range."""
        if not _INTEGER.fullmatch(word):
            return None
        value = int(word)
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            return None
        return value

    def describe(self) -> str:
        """What the argument must be, e.g. ``an integer from 1 to 9``."""
        if self.minimum is not None and self.maximum is not None:
            if self.minimum == self.maximum:
                return f"the integer {self.minimum}"
            return f"an integer from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"an integer of at least {self.minimum}"
        if self.maximum is not None:
            return f"an integer of at most {self.maximum}"
        return "an integer"

    def example(self) -> str:
        """A value that ``read`` accepts, for the examples of a message."""
        if self.minimum is not None:
            return str(self.minimum)
        return str(min(1, self.maximum)) if self.maximum is not None else "1"


@dataclass(frozen=True)
class Choice:
    """An argument that is one of ``words``, read as the word's index."""

    label: str
    words: tuple[str, ...]

    def read(self, word: str) -> int | None:
        """The index of ``word`` in ``words``, or ``None`` when it is not one of them."""
        return self.words.index(word) if word in self.words else None

    def describe(self) -> str:
        """What the argument must be, e.g. ``one of explore, recruit, subjugate``."""
        return "one of " + ", ".join(self.words)

    def example(self) -> str:
        """A value that ``read`` accepts, for the examples of a message."""
        return self.words[0]


Argument = Integer | Choice


class ParsedEffect(NamedTuple):
    """One effect as plain integers: ``kind`` is the effect's index in its
    vocabulary (the order it was declared in), ``arguments`` its arguments in
    order (an integer as written, a choice as the index of its word)."""

    kind: int
    arguments: tuple[int, ...]


class Vocabulary:
    """The effects a game knows (name -> its arguments, in a fixed order) and the
    one parser of effect lists against them."""

    def __init__(self, effects: Mapping[str, Sequence[Argument]]) -> None:
        for name in effects:
            if len(name.split()) != 1:
                raise ValueError(f"an effect name is one word, got {name!r}")
        self.arguments: dict[str, tuple[Argument, ...]] = {name: tuple(kinds) for name, kinds in effects.items()}
        self.names: tuple[str, ...] = tuple(self.arguments)
        self._kinds = {name: kind for kind, name in enumerate(self.names)}

    def form(self, name: str) -> str:
        """The effect as written with its argument labels, e.g. ``vp_per_icon ICON N``."""
        return " ".join([name, *(argument.label for argument in self.arguments[name])])

    def usage(self, name: str) -> str:
        """The form and what each argument must be, e.g. ``'vp_per_rank R N' with
        R an integer from 1 to 6 and N an integer from 1 to 9``."""
        kinds = self.arguments[name]
        if not kinds:
            return f"'{name}' (no arguments)"
        parts = [f"{argument.label} {argument.describe()}" for argument in kinds]
        return f"'{self.form(name)}' with " + " and ".join(parts)

    def example(self) -> str:
        """An effect text of this vocabulary (its first effect), for messages."""
        name = self.names[0]
        return " ".join([name, *(argument.example() for argument in self.arguments[name])])

    def parse_one(self, text: str, path: str) -> ParsedEffect:
        """One effect text, e.g. ``"vp_per_icon explore 1"``; ``path`` (the list's
        dotted path) and the text are named in the error of a mistake."""
        words = text.split()
        name = words[0] if words else ""
        kind = self._kinds.get(name)
        if kind is None:
            raise ParameterError(path, f"unknown effect {text!r}; expected one of {', '.join(self.names)}")
        # The messages are built only for a mistake: a game parses hundreds of effects per configure.
        kinds = self.arguments[name]
        written = words[1:]
        if len(written) != len(kinds):
            count = len(written)
            raise ParameterError(path, f"{text!r}: expected {self.usage(name)}, "
                                       f"got {count or 'no'} argument{'' if count == 1 else 's'}")
        values: list[int] = []
        for argument, word in zip(kinds, written, strict=True):
            value = argument.read(word)
            if value is None:
                raise ParameterError(path, f"{text!r}: expected {self.usage(name)}, got {argument.label} = {word}")
            values.append(value)
        return ParsedEffect(kind, tuple(values))

    def parse(self, values: Any, path: str) -> tuple[ParsedEffect, ...]:
        """An effect list as written in a parameter tree (a TOML list of strings),
        in order; raises ``ParameterError`` naming ``path`` for a mistake."""
        if not isinstance(values, list):
            raise ParameterError(path, f"expected a list of effects such as [\"{self.example()}\"], got {values!r}")
        effects: list[ParsedEffect] = []
        for text in values:
            if not isinstance(text, str):
                raise ParameterError(path, f"expected each effect as a string such as \"{self.example()}\", "
                                           f"got {text!r}")
            effects.append(self.parse_one(text, path))
        return tuple(effects)
