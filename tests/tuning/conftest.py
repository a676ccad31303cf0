"""Fixtures of the tuning tests: the synthetic ``duel`` game in the registry, for one test at a time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from simcore.registry import GAMES
from tests.tuning.duel import GAME, INFO


@pytest.fixture
def duel_registered() -> Iterator[None]:
    """``duel`` in this process's game registry for the test, removed afterwards (no other test sees it)."""
    GAMES[INFO.id] = GAME
    try:
        yield
    finally:
        GAMES.pop(INFO.id, None)
