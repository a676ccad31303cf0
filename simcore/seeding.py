"""Seeds: every game and every agent gets its own reproducible generator.

Seeds are derived by hashing their parts (experiment seed, variant, player
count, game index, and a role such as ``"game"`` or ``"agent"`` and the seat),
so they do not depend on worker count, shard size or play order. Generators
are ``simcore.rng.Generator`` instances, whose stream for a seed is the same on
every platform; nothing reads the clock or the global ``random`` state.
"""

from __future__ import annotations

import hashlib

from simcore.rng import Generator


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any sequence of parts (stable across machines)."""
    text = "\x1f".join([str(part) for part in parts]).encode()
    digest = hashlib.blake2b(text, digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


def game_seed(
    experiment_seed: int, variant: str, n_players: int, game_index: int
) -> int:
    """The seed of one game of an experiment."""
    return derive_seed("game", experiment_seed, variant, n_players, game_index)


def agent_seed(game_seed_value: int, seat: int) -> int:
    """The seed of the agent in ``seat``, separate from the game's own stream."""
    return derive_seed("agent", game_seed_value, seat)


def make_rng(seed: int) -> Generator:
    """A private generator for ``seed``."""
    return Generator(seed)
