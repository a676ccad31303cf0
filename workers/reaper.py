"""A watchdog that kills what a driver started once the driver is gone, however it ended.

``ray.init`` starts the embedded cluster's GCS and raylet as children of the
driver, and the raylet starts the dashboard agent, the runtime-env agent and
the workers. When the driver is SIGKILLed, Ray's own fate sharing takes the
GCS and the raylet with it, but the agents only notice minutes later (they
wait on a GCS that is gone before they exit), and nothing is left to clean
up after them. So before it starts Ray, the driver starts this watchdog
(``start_reaper``) in a session of its own, holding the read end of a pipe
whose write end only the driver has. While the driver lives, the watchdog
notes every process that descends from it (twice a second, from ``/proc``);
when the pipe reaches end of file (the driver has exited, by any signal),
it SIGKILLs those processes and whatever they started since, then exits.

Linux only (``/proc``); elsewhere ``start_reaper`` does nothing.

    python -m workers.reaper DRIVER_PID    # stdin: the pipe; started by start_reaper
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

PROC = Path("/proc")
POLL_SECONDS = 0.5
"""How often the watchdog notes the driver's descendants (each look reads every ``/proc/<pid>/stat``:
7 ms of CPU with 130 processes on the machine, so about 1.5% of one core)."""
SWEEPS = 3
"""Kill rounds after the driver's death (a process may start a child while being killed)."""

ProcessKey = tuple[int, int]
"""(pid, start time in clock ticks since boot): a pid the kernel may reuse, made unique."""


def _stat(pid: int) -> tuple[int, int, str] | None:
    """(parent pid, start time, state) of a process, or None if it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after its last ")".
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[1]), int(fields[19]), fields[0]


def process_table() -> dict[int, tuple[int, int, str]]:
    """Every live process: pid -> (parent pid, start time, state)."""
    table = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                table[int(entry.name)] = stat
    return table


def descendants(roots: set[int], table: dict[int, tuple[int, int, str]] | None = None) -> set[ProcessKey]:
    """The processes below ``roots`` (children, their children...), zombies left out."""
    table = process_table() if table is None else table
    children: dict[int, list[int]] = {}
    for pid, (parent, _start, _state) in table.items():
        children.setdefault(parent, []).append(pid)
    found: set[ProcessKey] = set()
    frontier = list(roots)
    while frontier:
        for child in children.get(frontier.pop(), []):
            parent, start, state = table[child]
            if state != "Z" and (child, start) not in found:
                found.add((child, start))
                frontier.append(child)
    return found


def alive(keys: set[ProcessKey], table: dict[int, tuple[int, int, str]] | None = None) -> set[ProcessKey]:
    """Those of ``keys`` still running (same pid and start time, not a zombie)."""
    table = process_table() if table is None else table
    return {(pid, start) for pid, start in keys
            if pid in table and table[pid][1] == start and table[pid][2] != "Z"}


def _kill_all(noted: set[ProcessKey]) -> None:
    for _ in range(SWEEPS):
        table = process_table()
        targets = alive(noted, table)
        targets |= descendants({pid for pid, _start in targets}, table)
        if not targets:
            return
        for pid, _start in targets:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        noted |= targets
        time.sleep(0.1)


def watch(driver: int, pipe: int) -> None:
    """Note the descendants of ``driver`` until ``pipe`` is closed, then kill them."""
    noted: set[ProcessKey] = set()
    while True:
        readable, _, _ = select.select([pipe], [], [], POLL_SECONDS)
        if readable and not os.read(pipe, 4096):
            break  # end of file: the driver is gone
        table = process_table()
        # Keep only those still alive: a finished process's pid may be reused by a stranger.
        noted = alive(noted, table) | descendants({driver}, table)
        noted = {key for key in noted if key[0] != os.getpid()}  # this watchdog is the driver's child too
    _kill_all(noted)


PR_SET_PDEATHSIG = 1
"""prctl(2): the signal a process gets when the thread that started it ends."""


def ends_with_parent(number: int = signal.SIGTERM) -> Callable[[], None] | None:
    """A ``preexec_fn`` for ``subprocess.Popen``: the child gets signal ``number`` when the
    process starting it ends, however it ends (SIGKILL included): Linux's parent-death signal
    (``prctl(PR_SET_PDEATHSIG)``), kept across ``exec``. Should the parent be gone before the
    signal is armed, the child sends it to itself. None off Linux (nothing to arm there).

    The parent must start the child from the thread that lives as long as it does (the kernel
    signals when that *thread* ends): the main thread of a single-threaded parent."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)  # loaded before the fork: the child only calls it
    parent = os.getpid()

    def arm() -> None:
        libc.prctl(PR_SET_PDEATHSIG, number, 0, 0, 0)
        if os.getppid() != parent:
            os.kill(os.getpid(), number)

    return arm


_started: subprocess.Popen[bytes] | None = None
_write_end: int | None = None


def start_reaper() -> None:
    """Start the watchdog for this process, once (later calls do nothing while it runs)."""
    global _started, _write_end
    if not PROC.is_dir() or (_started is not None and _started.poll() is None):
        return
    read_end, write_end = os.pipe()  # not inheritable: no child of this process holds the write end
    _started = subprocess.Popen([sys.executable, "-m", "workers.reaper", str(os.getpid())], stdin=read_end,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                cwd=Path(__file__).resolve().parents[1])
    os.close(read_end)
    _write_end = write_end  # held, never written, until this process ends


def reaper_pid() -> int | None:
    """The watchdog's pid while it runs (for tests)."""
    return _started.pid if _started is not None and _started.poll() is None else None


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the driver's terminal is for the driver
    watch(int(sys.argv[1]), sys.stdin.fileno())
