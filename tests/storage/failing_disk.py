"""A ``cardlab run`` whose results disk fails mid-run, then ``--resume`` once the disk is mended.

Run by ``tests/storage/test_disk_failures.py`` inside a private mount namespace
(``unshare -rm``: a user namespace, so no privilege is needed where the
kernel allows them, and mounts no other process sees)::

    unshare -rm python -m tests.storage.failing_disk CASE SPEC WORK

The results go to a small tmpfs mounted on ``WORK/disk``; the disk fails
while shards are being written:

- ``full``: the tmpfs is too small for the run (ENOSPC);
- ``read-only``: it is remounted read-only once a few shards have finished (EROFS);
- ``permission``: the experiment folder loses its write permission once a few
  shards have finished (EACCES); the run then goes without the capabilities
  that let root ignore permission bits (``setpriv``), as any other user would.

Then the disk is mended (a larger size, read-write again, the permission back)
and ``cardlab run --resume`` finishes the run. ``WORK/report.json`` says what
each step printed and left (exit codes, stderr, ``run.json``, the lock,
``cardlab verify``), and ``WORK/after`` holds a copy of the finished results:
the tmpfs disappears with the namespace.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CASES = ("full", "read-only", "permission")
FULL_SIZE = "1500k"
"""The ``full`` case's disk: room for about a quarter of the run's shards."""
ROOMY_SIZE = "64m"
FINISHED_BEFORE_FAILING = 4
"""Shards finished when the ``read-only`` and ``permission`` cases break the disk."""
WITHOUT_OVERRIDES = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
"""Root without the capabilities that ignore permission bits (and their owner's): as any user."""


def _mount(*arguments: str) -> None:
    subprocess.run(["mount", *arguments], check=True)


def _cardlab(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "cardlab", *arguments]


def _finished(folder: Path) -> int:
    manifest = folder / "_manifest"
    return sum(1 for path in manifest.glob("*.json") if not path.name.startswith(".")) if manifest.is_dir() else 0


def _writable(folder: Path, writable: bool) -> None:
    """Give or take the write permission of ``folder`` and every folder under it."""
    for directory, _subfolders, _names in os.walk(folder):
        os.chmod(directory, 0o755 if writable else 0o555)


def _snapshot(results: Path, name: str) -> dict[str, Any]:
    folder = results / name
    run_file = folder / "run.json"
    verify = subprocess.run(_cardlab("verify", name, "--results", str(results), "--json"), cwd=ROOT,
                            capture_output=True, text=True)
    return {"run.json": json.loads(run_file.read_text()) if run_file.is_file() else None,
            "lock": (folder / ".lock").exists(), "finished": _finished(folder),
            "verify": {"exit": verify.returncode, "report": json.loads(verify.stdout) if verify.stdout else None,
                       "stderr": verify.stderr}}


def _remount_read_only(disk: Path, run: subprocess.Popen[str]) -> None:
    """Remount ``disk`` read-only while ``run`` writes to it. The kernel refuses (EBUSY) while a
    file on it is open for writing, as one often is mid-shard on a busy machine: try again at once
    until a moment between two writes (a disk failing for real does not wait for one)."""
    while subprocess.run(["mount", "-o", "remount,ro", str(disk)], capture_output=True).returncode != 0:
        if run.poll() is not None:
            raise RuntimeError(f"{disk}: the run ended before the disk could be remounted read-only")
        time.sleep(0.005)


def main(case: str, spec: Path, work: Path) -> int:
    """Play ``spec`` on a failing disk (``case``), mend it, resume; the report in ``WORK``."""
    disk = work / "disk"
    disk.mkdir()
    _mount("-t", "tmpfs", "-o", f"size={FULL_SIZE if case == 'full' else ROOMY_SIZE}", "tmpfs", str(disk))
    results = disk / "results"
    name = spec.stem
    command = _cardlab("run", str(spec), "--results", str(results), "--workers", "2", "--no-progress")
    if case == "permission" and os.geteuid() == 0:
        command = WITHOUT_OVERRIDES + command
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if case != "full":
        while _finished(results / name) < FINISHED_BEFORE_FAILING and run.poll() is None:
            time.sleep(0.02)
        if case == "read-only":
            _remount_read_only(disk, run)
        else:
            _writable(results / name, False)
    stdout, stderr = run.communicate(timeout=600)
    report: dict[str, Any] = {"results": str(results), "failed": {"exit": run.returncode, "stdout": stdout,
                                                                    "stderr": stderr}}
    report["after failure"] = _snapshot(results, name)
    if case == "full":
        _mount("-o", f"remount,size={ROOMY_SIZE}", str(disk))
    elif case == "read-only":
        _mount("-o", "remount,rw", str(disk))
    else:
        _writable(results / name, True)
    resumed = subprocess.run(_cardlab("run", str(spec), "--results", str(results), "--workers", "2", "--no-progress",
                                      "--resume"), cwd=ROOT, capture_output=True, text=True)
    report["resumed"] = {"exit": resumed.returncode, "stderr": resumed.stderr}
    report["after resume"] = _snapshot(results, name)
    shutil.copytree(results, work / "after", symlinks=True)
    (work / "report.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])))
