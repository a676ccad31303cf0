"""The embedded Ray of a test process: one shared by the tests that play on Ray, or a fresh one.

Starting an embedded Ray costs seconds of CPU and many more of waiting (its
processes start one after the other; 7 to 25 s on a busy 2-core machine), so
the tests that only need *a* Ray to play on share one per test process
(``join_shared_ray``, the ``shared_ray`` fixture of ``tests/conftest.py``):
started the way ``cardlab run`` starts one (loopback, token authentication,
the reaper), with ``SHARED_RAY_CPUS`` CPUs, and left running for the next
test. A test that needs another Ray (a cluster, a game registered in the
workers, Ray's own start-up) disconnects from it; the next test that asks for
the shared one starts it again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import ray

SHARED_RAY_CPUS = 2
"""Enough for a run on two workers; a run on one (``workers=1``) plays on one of them at a
time only with ``max_in_flight=1`` (the runner keeps twice its workers' shards in flight)."""

_shared_address: str | None = None
"""The GCS address of this process's shared Ray, once started."""


def _connected_address() -> str | None:
    return ray.get_runtime_context().gcs_address if ray.is_initialized() else None


def join_shared_ray() -> None:
    """Connect this process to its shared embedded Ray, starting it if it is not running
    (and disconnecting from any other Ray first)."""
    global _shared_address
    from workers.runner import RunOptions, _init_ray

    if _shared_address is not None and _connected_address() == _shared_address:
        return
    if ray.is_initialized():
        ray.shutdown()
    _init_ray(RunOptions(workers=SHARED_RAY_CPUS))  # the embedded start of `cardlab run` (no address is set)
    _shared_address = _connected_address()


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
