"""Tables of formatted cells for ``cardlab report``'s text and Markdown output.

Every number of a report is formatted by one of the functions here, so the
formats agree everywhere: rates as percentages with one decimal (``52.3%``),
differences of rates in percentage points with a sign (``+1.2``), counts with
thousands separators, p- and q-values with four decimals (``<1e-4`` below).

A text table never clips a column: when it is wider than the terminal, its
columns are split into several blocks that repeat the key columns (variant,
players, ...), and a long text column (``wrap``) is wrapped onto more lines.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

WIDTH = 100
"""Columns of the terminal the text report fits."""


def missing(value: Any) -> bool:
    """Whether ``value`` has nothing to show (None or NaN)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def count(value: Any) -> str:
    """A count: ``12,345``; ``-`` when missing."""
    return "-" if missing(value) else f"{int(value):,}"


def percent(value: Any) -> str:
    """A rate as a percentage: ``52.3%``."""
    return "-" if missing(value) else f"{100 * value:.1f}%"


SELF_PLAY_WIN_RATE = ("the agent held every seat of every game, so its win rate is set by the lineup (1/N less "
                      "the draws, more with shared wins), not by how it plays; its interval says how sure that "
                      "share is.")
"""What a self-play agent's win rate means (``agent_stats.self_play``), for the report's note
and the dashboard's caption."""


def interval(low: Any, high: Any) -> str:
    """A rate's interval: ``[50.1%, 54.4%]``."""
    if missing(low) or missing(high):
        return "-"
    return f"[{percent(low)}, {percent(high)}]"


def compact_interval(low: Any, high: Any) -> str:
    """A rate's interval in a narrow column, in percent without the signs: ``50.1-54.4``."""
    if missing(low) or missing(high):
        return "-"
    return f"{100 * low:.1f}-{100 * high:.1f}"


def points(value: Any) -> str:
    """A difference of rates in percentage points: ``+1.2``."""
    return "-" if missing(value) else f"{100 * value:+.1f}"


def points_interval(low: Any, high: Any) -> str:
    """An interval of a difference, in points: ``[-0.4, +2.8]``."""
    return "-" if missing(low) or missing(high) else f"[{points(low)}, {points(high)}]"


def number(value: Any, digits: int = 1) -> str:
    """A plain number: ``12.35``."""
    return "-" if missing(value) else f"{value:,.{digits}f}"


def small_number(value: Any, digits: int = 3) -> str:
    """A plain number with ``digits`` decimals, or two significant digits where those decimals
    would read zero: ``2.444``, ``0.015``, ``0.00029`` (a fast game's seconds, not ``0.000``)."""
    if missing(value):
        return "-"
    if value == 0 or abs(value) >= 10 ** -digits:
        return number(value, digits)
    return f"{value:.2g}" if abs(value) >= 1e-4 else f"{value:.1e}"


def signed(value: Any, digits: int = 2) -> str:
    """A signed plain number (a difference of means): ``+0.35``."""
    return "-" if missing(value) else f"{value:+,.{digits}f}"


def p_value(value: Any) -> str:
    """A p- or q-value: ``0.0123``, ``<1e-4``."""
    if missing(value):
        return "-"
    return "<1e-4" if value < 1e-4 else f"{value:.4f}"


@dataclass
class TextTable:
    """A table of already formatted cells.

    ``right`` marks right-aligned columns; the first ``keys`` columns are
    repeated in every block when the table is split to fit ``WIDTH``;
    ``wrap`` names a column whose text may be wrapped onto more lines.
    """

    title: str
    headers: list[str]
    right: list[bool]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    keys: int = 0
    wrap: int | None = None

    def _widths(self, rows: Sequence[Sequence[str]], columns: Sequence[int]) -> list[int]:
        return [max([len(self.headers[i]), *(len(row[i]) for row in rows)]) for i in columns]

    def _lines(self, columns: Sequence[int], rows: Sequence[Sequence[str]]) -> list[str]:
        widths = self._widths(rows, columns)

        def line(cells: Sequence[str]) -> str:
            return "  " + "  ".join(
                cells[i].rjust(width) if self.right[i] else cells[i].ljust(width)
                for i, width in zip(columns, widths, strict=True)).rstrip()

        return [line(self.headers), *(line(row) for row in rows)]

    def _wrapped_rows(self, width: int) -> list[list[str]]:
        """The rows with the ``wrap`` column's text wrapped so that a line fits ``width``."""
        if self.wrap is None:
            return self.rows
        others = [i for i in range(len(self.headers)) if i != self.wrap]
        fixed = sum(self._widths(self.rows, others)) + 2 * len(self.headers) + 2
        room = max(20, width - fixed)
        wrapped: list[list[str]] = []
        for row in self.rows:
            pieces = textwrap.wrap(row[self.wrap], room, break_long_words=False) or [""]
            wrapped.append([*row[: self.wrap], pieces[0], *row[self.wrap + 1:]])
            wrapped.extend([*([""] * self.wrap), piece, *([""] * (len(row) - self.wrap - 1))] for piece in pieces[1:])
        return wrapped

    def _blocks(self, rows: list[list[str]], width: int) -> list[list[int]]:
        """Column groups that each fit ``width``, each starting with the key columns."""
        widths = self._widths(rows, range(len(self.headers)))
        keys = list(range(self.keys))
        used = sum(widths[i] + 2 for i in keys) + 2
        blocks: list[list[int]] = []
        current: list[int] = []
        for i in range(self.keys, len(self.headers)):
            if current and used + widths[i] + 2 > width:
                blocks.append(keys + current)
                current, used = [], sum(widths[k] + 2 for k in keys) + 2
            current.append(i)
            used += widths[i] + 2
        blocks.append(keys + current)
        return blocks

    def text(self, width: int = WIDTH) -> str:
        """The table as fixed-width text, split into blocks of columns that fit ``width``."""
        # A note that starts with "- " is a bullet: its continuation lines hang under its text.
        body = textwrap.wrap(self.title, width, subsequent_indent="    ", break_long_words=False)
        body += [line for note in self.notes
                 for line in textwrap.wrap(note, width, initial_indent="  ", break_long_words=False,
                                           subsequent_indent="    " if note.startswith("- ") else "  ") or [""]]
        if not self.headers:
            return "\n".join(body)
        rows = self._wrapped_rows(width)
        blocks = self._blocks(rows, width)
        for index, columns in enumerate(blocks):
            if len(blocks) > 1:
                body.append(f"  (columns {index + 1} of {len(blocks)})")
            body.extend(self._lines(columns, rows))
        return "\n".join(body)

    def markdown(self) -> str:
        """The table as a Markdown pipe table under a ``##`` title."""
        def line(cells: Sequence[str]) -> str:
            return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

        body = [f"## {self.title}", ""]
        if self.notes:
            body.extend([*self.notes, ""])
        if not self.headers:
            return "\n".join(body).rstrip()
        body.append(line(self.headers))
        body.append("|" + "|".join("---:" if right else "---" for right in self.right) + "|")
        body.extend(line(row) for row in self.rows)
        return "\n".join(body)


def notice(title: str, text: str) -> TextTable:
    """A section with nothing to show, saying why (only when the section was asked for)."""
    return TextTable(title=title, headers=[], right=[], rows=[], notes=[text])
