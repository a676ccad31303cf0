"""The warm Ray cluster: one local Ray kept up between runs, so that a run plays at once.

A cold ``cardlab run`` starts Ray in its own process: the GCS, the raylet and
their agents, then one worker process per CPU that loads the rules core,
seconds before the first game (more on a loaded machine). ``cardlab ray
start`` and ``cardlab dashboard --allow-runs`` start a *keeper* instead
(``workers.keeper``): a process that starts the same embedded cluster
(loopback only, Ray's token authentication on, watched by
``workers.reaper``) with one ``ShardPlayer`` actor per CPU, each with the
rules core already loaded, and writes a *record* (``record_file``: its
address, its pid, the code it loaded) once they are ready. A run finds the
record, joins that cluster in a fraction of a second and hands its shards
to the players: the same ``run_shard`` on the same seeds as a task of a cold
run, so the same games.

One keeper per record: it holds a lock beside it (``hold_keeper_lock``), so
two starts at once make one cluster and both report it. The record is
written atomically, ``ready`` only once every player has loaded the rules
core; a run finding one ``starting`` waits for it.

The keeper stops by itself: after ``--idle-minutes`` without a run (``cardlab
ray start``; 15 by default) or with the dashboard that started it. ``cardlab
ray stop`` stops it at once. Stopping removes the record first; a record
whose keeper is gone (pid and start time) is ignored, and a run whose warm
cluster does not answer any more starts its own Ray.

The players load the code as it was when the keeper started: a run whose code
differs (an edit, ``make compile``, a checkout; ``code_fingerprint``) does
not join, and says why.

``CARDLAB_WARM_RAY`` names the record file (default
``$XDG_CACHE_HOME/cardlab/warm-ray.json``); ``off`` turns the warm cluster
off (the test suite's default).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from dataset.location import ResultsPath
from dataset.storage import write_json_atomically
from experiments.spec import ExperimentSpec, Shard
from workers.reaper import alive, process_table

RECORD_VARIABLE = "CARDLAB_WARM_RAY"
NAMESPACE = "cardlab"
"""The Ray namespace of the players (a joining run names it to find them)."""
STARTING, READY = "starting", "ready"
DEFAULT_IDLE_MINUTES = 15.0
PROJECT_ROOT = Path(__file__).resolve().parents[1]
CODE_FOLDERS = ("simcore", "workers", "dataset", "experiments")
"""The packages a shard task runs (``workers.shard`` and what it imports)."""
WARM_KEY = "cardlab-warm"
"""Ray's key-value store: the warm cluster's players and code, for a run that joins it by address."""
PLAYING_KEY = "cardlab-playing-{index}"
"""Ray's key-value store: the job a player is playing a shard for (its keeper stops a shard
whose run has died)."""


def cache_folder() -> Path:
    """cardlab's folder of the user's cache: ``$XDG_CACHE_HOME/cardlab`` (``~/.cache/cardlab``)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardlab"


def record_file() -> Path | None:
    """Where the warm cluster's record lives (``CARDLAB_WARM_RAY``), or None when it is ``off``."""
    setting = os.environ.get(RECORD_VARIABLE, "").strip()
    if setting.lower() == "off":
        return None
    return Path(setting).expanduser() if setting else cache_folder() / "warm-ray.json"


def code_fingerprint(root: Path = PROJECT_ROOT) -> str:
    """A fingerprint of the code a shard plays with: the checkout, the Python and Ray it runs
    on, and the path, size and modification time of every Python file and compiled module of
    ``CODE_FOLDERS`` and of the compiled core (a few milliseconds: no file is read)."""
    from importlib.metadata import version

    digest = hashlib.sha256(f"{root}\0{sys.executable}\0{sys.version}\0ray {version('ray')}\n".encode())
    # The compiled core's shared library sits at the project root (mypyc's per-module files in
    # the packages only load it: a new compile changes it alone).
    files = [*root.glob("*.so"), *(path for folder in CODE_FOLDERS for path in (root / folder).rglob("*")
                                   if path.suffix in (".py", ".so") and "__pycache__" not in path.parts)]
    for path in sorted(files):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class WarmRay:
    """A warm cluster's record: where it listens, its keeper (pid and start time, so that a
    reused pid is not taken for it), its players (one per CPU), the code they loaded, when it
    stops by itself, who started it and whether it is ready."""

    address: str
    keeper_pid: int
    keeper_start: int
    cpus: int
    code: str
    idle_minutes: float
    owner: str
    state: str
    log: str = ""

    def alive(self) -> bool:
        """Whether its keeper still runs."""
        return bool(alive({(self.keeper_pid, self.keeper_start)}, process_table()))

    def describe(self) -> str:
        """``127.0.0.1:PORT, 2 shard players, started by cardlab ray start``."""
        stops = (f"stops after {self.idle_minutes:g} minutes without a run" if self.idle_minutes > 0
                 else "stops with its dashboard")
        return f"{self.address or '(starting)'}, {self.cpus} shard player(s), started by {self.owner}; {stops}"


ALREADY_KEPT = 3
"""The exit code of a keeper that found another one holding the record's lock."""


def hold_keeper_lock(record: Path) -> int | None:
    """Take the lock beside ``record`` (``.lock``) for this process's lifetime: its descriptor,
    or None when another keeper holds it. One keeper per record, however many start at once;
    the lock goes with its process, however it ends."""
    record.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(record.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    return descriptor


def read_record(path: Path | None = None) -> WarmRay | None:
    """The record at ``path`` (default ``record_file()``), or None: none, unreadable, or off."""
    path = record_file() if path is None else path
    if path is None:
        return None
    try:
        data = json.loads(path.read_text())
        return WarmRay(**{name: data[name] for name in WarmRay.__dataclass_fields__ if name in data})
    except (OSError, ValueError, TypeError):
        return None


def write_record(path: Path, record: WarmRay) -> None:
    """Write the record atomically, readable by its owner only (it names a cluster to join)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomically(asdict(record), path)
    path.chmod(0o600)


def remove_record(path: Path, keeper_pid: int) -> None:
    """Remove the record at ``path`` if it is still ``keeper_pid``'s."""
    record = read_record(path)
    if record is not None and record.keeper_pid == keeper_pid:
        path.unlink(missing_ok=True)


def live_record(path: Path | None = None) -> WarmRay | None:
    """The record of a keeper that still runs (starting or ready), or None."""
    record = read_record(path)
    return record if record is not None and record.alive() else None


def find_warm_ray(say: Callable[[str], None] = lambda line: None, wait_seconds: float = 120.0,
                  path: Path | None = None) -> WarmRay | None:
    """The ready warm cluster to join (its record at ``path``, default ``record_file()``), or
    None (none, off, its keeper gone). A keeper still starting is waited for (up to
    ``wait_seconds``, saying so): a run that started its own Ray beside it would only slow
    both down."""
    record = live_record(path)
    if record is None:
        return None
    if record.state == STARTING:
        say(f"waiting for the warm Ray cluster that is starting (keeper pid {record.keeper_pid}) ...")
        deadline = time.monotonic() + wait_seconds
        while record is not None and record.state == STARTING and time.monotonic() < deadline:
            time.sleep(0.2)
            record = live_record(path)
    return record if record is not None and record.state == READY else None


def player_name(index: int) -> str:
    """The Ray name of player ``index`` (in ``NAMESPACE``)."""
    return f"shard-player-{index}"


class ShardPlayer:
    """What each player of the warm cluster is (made a Ray actor by the keeper): a worker
    process that has loaded the rules core and plays one shard after another, as the shard
    task of a cold run does."""

    def __init__(self, index: int) -> None:
        import workers.shard  # noqa: F401  # loaded now, not when the first run asks

        self.index = index

    def ready(self) -> int:
        """This player's pid, once it has loaded the rules core."""
        return os.getpid()

    def play(self, spec: ExperimentSpec, shard: Shard, root: ResultsPath, job: str) -> dict[str, Any]:
        """``run_shard``, as the run's task would: the shard's manifest entry, which node played
        it and when it started (``started``, seconds since the epoch)."""
        import ray
        from ray.experimental.internal_kv import _internal_kv_del, _internal_kv_put

        from workers.shard import run_shard

        started = time.time()
        key = PLAYING_KEY.format(index=self.index)
        _internal_kv_put(key, job, namespace=NAMESPACE)
        try:
            entry = run_shard(spec, shard, root)
        finally:
            with contextlib.suppress(Exception):
                _internal_kv_del(key, namespace=NAMESPACE)
        entry["node"] = ray.get_runtime_context().get_node_id()
        entry["started"] = started
        return entry


READY_SECONDS = 180.0
"""How long ``cardlab ray start`` waits for the keeper to be ready (Ray's start, then one player
per CPU loading the rules core: seconds on an idle machine, a minute or more on a loaded one)."""


def start_keeper(record: Path, cpus: int, idle_minutes: float, owner: str,
                 ends_with: Callable[[], None] | None = None) -> subprocess.Popen[bytes]:
    """Start a keeper (``python -m workers.keeper``) writing ``record``, its output in the log
    beside it. In a session of its own (a Ctrl-C in this terminal is not for it), unless
    ``ends_with`` (a ``preexec_fn`` such as ``workers.reaper.ends_with_parent()``) binds it to
    this process."""
    log = record.with_suffix(".log")
    record.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as output:  # appended: a second start at once writes its one line after the first's
        return subprocess.Popen(
            [sys.executable, "-m", "workers.keeper", "--record", str(record), "--cpus", str(cpus),
             "--idle-minutes", repr(idle_minutes), "--owner", owner, "--log", str(log)],
            stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, cwd=PROJECT_ROOT,
            start_new_session=ends_with is None, preexec_fn=ends_with)


def wait_until_ready(record: Path, keeper: subprocess.Popen[bytes], timeout: float = READY_SECONDS) -> WarmRay:
    """The record of ``keeper`` once it is ready, or of the keeper that held the lock before it
    (``ALREADY_KEPT``: two starts at once); ``RuntimeError`` with its log's last line if it
    ended otherwise first, or after ``timeout`` seconds (it is then stopped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = read_record(record)
        ended = keeper.poll()
        ours = found is not None and found.keeper_pid == keeper.pid
        if found is not None and found.state == READY and (ours or (ended == ALREADY_KEPT and found.alive())):
            return found
        if ended is not None and ended != ALREADY_KEPT:
            raise RuntimeError(f"the keeper ended before it was ready: {_last_line(record.with_suffix('.log'))}")
        time.sleep(0.2)
    keeper.terminate()
    raise RuntimeError(f"not ready after {timeout:g} s; see {record.with_suffix('.log')}")


def _last_line(log: Path) -> str:
    try:
        lines = [line.strip() for line in log.read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return "(no log)"
    return lines[-1] if lines else "(nothing logged)"


def stop_keeper(record: WarmRay, path: Path, timeout: float = 30.0) -> bool:
    """Stop the keeper of ``record``: its record removed (so no run joins it any more), then
    SIGTERM; whether it has ended within ``timeout`` seconds."""
    remove_record(path, record.keeper_pid)
    with contextlib.suppress(ProcessLookupError):
        if record.alive():
            os.kill(record.keeper_pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while record.alive():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


START_UP_FILE = "ray-start-up.json"
"""In cardlab's cache folder: the last local runs' start-up, cold and warm, for ``--dry-run``."""
TYPICAL_START_UP = {"cold": 10.0, "warm": 2.0}
"""Seconds from the command to the first game before any run here has measured it: a cold
run starting Ray on an idle 2-core machine, a run joining a warm cluster."""


def record_start_up(kind: str, seconds: float) -> None:
    """Keep how long a local run (``cold``: its own Ray; ``warm``: the warm cluster) took from
    its command to its first game, for the dry run's estimate; a cache: failures are ignored."""
    path = cache_folder() / START_UP_FILE
    with contextlib.suppress(OSError, ValueError):
        known = json.loads(path.read_text()) if path.is_file() else {}
        known[kind] = round(seconds, 2)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomically(known, path)


def measured_start_up() -> dict[str, float]:
    """The start-ups ``record_start_up`` kept (``cold``, ``warm``), those known."""
    try:
        known = json.loads((cache_folder() / START_UP_FILE).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(known, dict):
        return {}
    return {kind: float(value) for kind, value in known.items() if isinstance(value, int | float)}


@dataclass(frozen=True)
class StartUp:
    """What a local run waits for before its first game, and how long that is expected to take."""

    seconds: float
    what: str


def expected_start_up() -> StartUp:
    """The start-up a local run (no cluster address) would wait for now: joining the warm
    cluster when one is ready with this code, else starting Ray; the last such run's measured
    time on this machine, else ``TYPICAL_START_UP``."""
    warm = live_record()
    kind = "warm" if warm is not None and warm.state == READY and warm.code == code_fingerprint() else "cold"
    measured = measured_start_up()
    seconds = measured.get(kind, TYPICAL_START_UP[kind])
    source = "as the last such run here took" if kind in measured else "typical"
    what = (f"joining the warm Ray cluster at {warm.address}" if warm is not None and kind == "warm"
            else "starting Ray on this machine and loading the rules core in each worker")
    return StartUp(seconds, f"{what}; {source}")
