"""A block of a test with no Ray before it and none after it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import ray


@contextmanager
def fresh_ray() -> Iterator[None]:
    """No Ray connected when the block starts (the first run inside starts an embedded
    cluster of its own worker count, later runs join it) and none left when it ends,
    whether it ends normally or not."""
    if ray.is_initialized():
        ray.shutdown()
    try:
        yield
    finally:
        ray.shutdown()
