"""A warm Ray cluster is joined only by runs of the code it loaded: ``code_fingerprint``
changes with every file a shard runs, the compiled core included, and with nothing else."""

from __future__ import annotations

import os
from pathlib import Path

from workers.warm import code_fingerprint


def _checkout(root: Path) -> Path:
    for name in ("simcore/games/divvy/rules.py", "simcore/play.cpython-311-x86_64-linux-gnu.so",
                 "workers/shard.py", "dataset/storage.py", "experiments/spec.py", "analytics/report.py",
                 "abc__mypyc.cpython-311-x86_64-linux-gnu.so", "README.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name)
    return root


def _touch(path: Path) -> None:
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def test_the_fingerprint_changes_with_a_rule_file_a_new_compile_and_another_checkout(tmp_path: Path) -> None:
    root = _checkout(tmp_path / "one")
    first = code_fingerprint(root)
    assert code_fingerprint(root) == first
    _touch(root / "simcore/games/divvy/rules.py")  # an edit
    edited = code_fingerprint(root)
    assert edited != first
    _touch(root / "abc__mypyc.cpython-311-x86_64-linux-gnu.so")  # `make compile`: the core's library only
    assert code_fingerprint(root) != edited
    assert code_fingerprint(_checkout(tmp_path / "two")) != code_fingerprint(root)  # another checkout


def test_files_no_shard_runs_leave_the_fingerprint_alone(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    first = code_fingerprint(root)
    _touch(root / "analytics/report.py")
    _touch(root / "README.md")
    (root / "simcore/__pycache__").mkdir()
    (root / "simcore/__pycache__/play.cpython-311.pyc").write_text("bytecode")
    assert code_fingerprint(root) == first
