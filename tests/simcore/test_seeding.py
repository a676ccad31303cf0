"""Seeds: the per-game and per-agent seeds are ``derive_seed`` of their parts."""

from __future__ import annotations

import hashlib

from simcore.seeding import agent_seed, derive_seed, game_seed


def test_a_game_seed_is_the_derived_seed_of_its_parts() -> None:
    for parts in ((0, "baseline", 2, 0), (7, "rules.rounds=4", 5, 123_456), (2**40, "", 1, 9)):
        assert game_seed(*parts) == derive_seed("game", *parts)


def test_an_agent_seed_is_the_derived_seed_of_the_game_seed_and_seat() -> None:
    for seed, seat in ((0, 0), (2**62 + 5, 3), (12345, 1)):
        assert agent_seed(seed, seat) == derive_seed("agent", seed, seat)
    assert agent_seed(5, 0) != agent_seed(5, 1)


def test_a_derived_seed_is_fixed_by_its_text_and_below_two_to_the_63() -> None:
    assert derive_seed("game", 0, "baseline", 2, 0) == derive_seed("game", "0", "baseline", "2", "0")
    assert 0 <= derive_seed("x") < 2**63


def test_a_derived_seed_is_the_first_eight_bytes_of_the_blake2b_of_its_parts_joined_less_one_bit() -> None:
    # The published formula (README, Determinism): anyone can recompute a game's seed.
    for parts in (("game", 0, "baseline", 2, 0), ("agent", 2**62 + 5, 3), ("x",)):
        text = "\x1f".join(str(part) for part in parts).encode()
        expected = int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little") >> 1
        assert derive_seed(*parts) == expected
    assert game_seed(7, "rules.rounds=4", 5, 123_456) == int.from_bytes(
        hashlib.blake2b(b"game\x1f7\x1frules.rounds=4\x1f5\x1f123456", digest_size=8).digest(), "little") >> 1
