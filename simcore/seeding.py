"""Seeds: every game and every agent gets its own reproducible generator.

Seeds are derived by hashing their parts (experiment seed, variant, player
count, game index, and a role such as ``"game"`` or ``"agent"`` and the seat),
so they do not depend on worker count, shard size or play order. Generators
are ``simcore.rng.Generator`` instances, whose stream for a seed is the same on
every platform; nothing reads the clock or the global ``random`` state.
"""

from __future__ import annotations

import hashlib
from typing import Final

from simcore.rng import Generator


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any sequence of parts (stable across machines)."""
    return _seed_of_text("\x1f".join([str(part) for part in parts]))


_BLAKE2B_8: Final = hashlib.blake2b(digest_size=8)
"""An empty 8-byte BLAKE2b, copied per seed: a copy costs less than a constructor's keyword parsing."""


def _seed_of_text(text: str) -> int:
    """The seed of the joined parts' text: the first 8 bytes of its BLAKE2b, less one bit."""
    hasher = _BLAKE2B_8.copy()
    hasher.update(text.encode())
    return int.from_bytes(hasher.digest(), "little") >> 1


def game_seed(
    experiment_seed: int, variant: str, n_players: int, game_index: int
) -> int:
    """The seed of one game of an experiment."""
    # The text ``derive_seed("game", ...)`` hashes, written out: once per game,
    # an f-string of typed parts costs a fraction of the generic join.
    return _seed_of_text(f"game\x1f{experiment_seed}\x1f{variant}\x1f{n_players}\x1f{game_index}")


def agent_seed(game_seed_value: int, seat: int, replay: int = 0) -> int:
    """The seed of the agent in ``seat``, separate from the game's own stream.

    ``replay`` > 0 gives the agents of the same deal other seeds (an
    experiment's ``deal_replays``: the same cards, other choices); replay 0 is
    the seed every game has always had."""
    if replay == 0:
        return _seed_of_text(f"agent\x1f{game_seed_value}\x1f{seat}")
    return _seed_of_text(f"agent\x1f{game_seed_value}\x1f{seat}\x1freplay\x1f{replay}")


def make_rng(seed: int) -> Generator:
    """A private generator for ``seed``."""
    return Generator(seed)
