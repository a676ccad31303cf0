"""Trace events: what happened in a game, in order.

A state emits events only when it was created with a trace sink; with tracing
off the sink is ``None`` and the rules skip building events entirely, so
tracing costs one ``is not None`` test per event site.

Every event is a flat dict with at least ``turn``, ``type`` and ``text`` (a
sentence for humans); other keys are the event's data (``seat``, ``card``...).
"""

from __future__ import annotations

import json
from typing import Any


class TraceRecorder:
    """Collects events in memory; pass ``recorder.record`` as the sink."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def record(self, event: dict[str, Any]) -> None:
        """Append one event."""
        self.events.append(event)


def format_event(event: dict[str, Any]) -> str:
    """One human-readable line for an event."""
    return f"[turn {event.get('turn', 0):>2}] {event['type']:<14} {event['text']}"


def event_to_json(event: dict[str, Any]) -> str:
    """One JSON line for an event (keys sorted, stable across runs)."""
    return json.dumps(event, sort_keys=True)
