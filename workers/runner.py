"""The runner: shards of an experiment fanned out over Ray.

``run_experiment`` starts Ray in-process (or joins the cluster at
``--address`` / ``RAY_ADDRESS``), keeps a bounded number of shard tasks in
flight, shows progress, and returns a summary. Each task plays one shard and
writes its Parquet files and manifest marker itself (``workers.shard``), so a
driver that dies loses nothing already written: ``--resume`` plays only the
shards without a marker.

Whether a run may stop early (``[[stop_when]]``) is decided by reading the
results (``analytics``, a layer above this one): the caller hands that
decision in as ``stop_check`` (``drivers.run`` builds it).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dataset.integrity import check_shards, remove_half_written, repair_command
from dataset.location import ResultsPath, bucket_problem, remove_tree, results_path, writable_folder_problem
from dataset.storage import (
    LOCK_FILE,
    RUN_FILE,
    SPEC_FILE,
    STORAGE_ERRNOS,
    ExperimentLockedError,
    acquire_lock,
    finished_shards,
    forget_shard,
    lock_holder,
    locked_message,
    release_lock,
    storage_failure,
    write_json_atomically,
)
from experiments.spec import ExperimentSpec, Shard, first_difference
from workers.reaper import start_reaper
from workers.shard import run_shard

# Multi-node clusters started on one machine (the cluster tests) use another
# loopback address: with Ray's usual settings it rewrites "127.0.0.1" to the
# machine's outward address. The embedded cluster: EMBEDDED_RAY_NODE_IP below.
LOCAL_RAY_NODE_IP = "127.0.0.2"


class RunError(RuntimeError):
    """A run that cannot start as asked (one line, shown to the user)."""


StopVerdict = bool | frozenset[str]
"""A stop check's answer: True to stop the whole run, False to go on, or the variants measured
well enough to submit no more of their shards (a card impact run's arms, ``[impact] max_width``)."""
StopCheck = Callable[[ResultsPath], StopVerdict]
"""Whether the results played so far in an experiment folder are enough to stop
(every ``[[stop_when]]`` interval narrow enough), or which variants are (``StopVerdict``);
may raise ``RunError``."""


@dataclass
class RunOptions:
    """How to run: where results go (a local folder or an ``s3://`` prefix), which Ray,
    what to do with old results."""

    results_root: ResultsPath = Path("results")
    workers: int | None = None
    address: str | None = None
    resume: bool = False
    overwrite: bool = False
    progress: bool = True
    max_in_flight: int | None = None
    # How the run talks (when ``progress``): a bar on a terminal; plain status
    # lines every ``status_interval`` seconds when stderr is no terminal or
    # ``plain_status`` is set (``--no-progress``: logs, CI, ``ray job submit``).
    plain_status: bool = False
    status_interval: float = 5.0
    # ``time.perf_counter()`` when the command started (``cardlab.STARTED``),
    # so that the summary's wall time includes start-up; None: when
    # ``run_experiment`` was called.
    started: float | None = None
    cluster_timeout: float = 15.0
    """Seconds a cluster at ``address`` has to answer before the run is refused."""
    games: int | None = None
    """``--games N`` when the spec was cut down by ``shrink_spec``: recorded in ``run.json``
    so that the repair hint of a damaged folder repeats it (without it, the hint's command
    would start the full-size run in another folder)."""


@dataclass
class RunSummary:
    """What a run did."""

    experiment_dir: ResultsPath
    shards_total: int
    shards_skipped: int
    shards_played: int
    games_played: int
    seconds: float
    workers: int
    shard_entries: list[dict[str, Any]] = field(default_factory=list)
    stopped_early: bool = False
    variants_stopped: tuple[str, ...] = ()
    """Variants whose remaining shards were not played: measured well enough (``StopVerdict``)."""
    # The whole run's wall time: from the command's start (or the call), start-up
    # (imports, folder, Ray) included; ``seconds`` is the playing part alone.
    wall_seconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        """Games played per wall-clock second of the whole run, start-up included."""
        seconds = self.wall_seconds or self.seconds
        return self.games_played / seconds if seconds > 0 else 0.0

    def lines(self) -> list[str]:
        """A short human summary."""
        skipped = f" ({self.shards_skipped} already done)" if self.shards_skipped else ""
        stopped = ["stopped early: every stop_when interval is as narrow as asked"] if self.stopped_early else []
        if self.variants_stopped:
            stopped.append(f"stopped early: {len(self.variants_stopped)} variant(s) measured as precisely as asked "
                           "(their remaining shards not played)")
        return [*stopped,
            f"experiment folder: {self.experiment_dir}",
            f"shards: {self.shards_played} played{skipped} of {self.shards_total}",
            f"games: {self.games_played:,} in {self.wall_seconds or self.seconds:.1f} s on {self.workers} worker(s)"
            f" = {self.games_per_second:,.0f} games/s (whole run: start-up {self.start_up_seconds:.1f} s, "
            f"playing {self.seconds:.1f} s)",
        ]

    @property
    def start_up_seconds(self) -> float:
        """Wall time before the first shard was submitted (imports, folder, Ray)."""
        return max(0.0, self.wall_seconds - self.seconds)


def shrink_spec(spec: ExperimentSpec, games: int) -> ExperimentSpec:
    """``--games N``: the first ``games`` games of every variant and player count
    of ``spec`` (the same seeds, so the same games as in the full run), in a
    results folder named ``<name>-games-N`` so that they are never mixed with
    the full run's."""
    return replace(spec, name=f"{spec.name}-games-{games}", games=games, shard_size=min(spec.shard_size, games))


def shards_to_play(spec: ExperimentSpec, root: ResultsPath, resume: bool) -> list[Shard]:
    """The shards a run would play: all, or with ``resume`` those without a manifest marker."""
    done = finished_shards(root) if resume else {}
    return [shard for shard in spec.shards() if shard.id not in done]


def results_folder_problem(results_root: ResultsPath, name: str) -> str | None:
    """Why a run could not write experiment ``name`` under ``results_root`` (a missing bucket,
    a file in the way, no permission), or None; a ``--dry-run`` asks it too, so that it
    never plans a run the real one refuses. Leaves nothing behind. The line names the
    ``--results`` given, then the folder that refuses (it may be one of its parents)."""
    problem = bucket_problem(results_root) or writable_folder_problem(results_root / name)
    return None if problem is None else f"--results {results_root}: {problem}"


def stored_identity(spec_file: ResultsPath) -> dict[str, Any]:
    """The identity (``ExperimentSpec.identity``) of the spec a run stored, read as the JSON
    it is: compared as data, not parsed again, so a resume depends on no game's rules."""
    try:
        stored = json.loads(spec_file.read_text())
    except (OSError, ValueError) as error:
        raise RunError(f"{spec_file}: unreadable ({error}); expected the JSON spec written by `cardlab run`") from None
    if not isinstance(stored, dict):
        raise RunError(f"{spec_file}: expected a JSON object, the spec written by `cardlab run`")
    return {key: value for key, value in stored.items() if key != "description"}


def prepare_experiment_dir(spec: ExperimentSpec, options: RunOptions) -> ResultsPath:
    """Create (or check, for ``--resume``) the experiment folder and its spec file.

    Refuses to mix results: an existing folder needs ``--resume`` (with the
    same spec) or ``--overwrite``.
    """
    results_root = results_path(options.results_root)
    root = results_root / spec.name
    problem = results_folder_problem(results_root, spec.name)
    if problem is not None:
        raise RunError(problem)
    spec_file = root / SPEC_FILE
    holder = lock_holder(root)
    if holder is not None:
        raise RunError(locked_message(root, holder))
    if root.exists() and options.overwrite:
        remove_tree(root)
    elif root.exists() and not options.resume:
        raise RunError(f"{root}: results already exist; use --resume to finish them or --overwrite to start again")
    elif root.exists():
        if not spec_file.exists():
            raise RunError(f"{spec_file}: missing; this folder was not made by `cardlab run`")
        stored = stored_identity(spec_file)
        now = json.loads(json.dumps(spec.identity()))  # as JSON stores it: lists, not tuples
        if stored != now:
            raise RunError(
                f"{spec_file}: the stored spec differs from {spec.source or 'this spec'} "
                f"({first_difference(stored, now, 'when the run started')}); "
                "--resume needs the same games, seed, agents, variants and shard size"
            )
        for leftover in root.rglob(".*.tmp"):  # half-written files of killed tasks
            leftover.unlink()
    write_json_atomically(spec.to_json_dict(), spec_file)
    return root


TERMINATED = 128 + signal.SIGTERM
"""The exit code of a run ended by SIGTERM (the shell's convention)."""


class Terminated(SystemExit):
    """A SIGTERM, as a run sees it: it ends the run as ``interrupted`` (a SystemExit)."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated(TERMINATED)


def _quiet_sigterm() -> None:
    """End on SIGTERM with ``Terminated`` instead of Ray's handler. Ray's core worker puts a
    C-level handler in front of its own Python one that prints a stack dump of this process
    for every SIGTERM, an ordinary way to stop a run (``kill``, a scheduler, the dashboard's
    Cancel): a Python handler set after ``ray.init`` replaces it for SIGTERM alone (crashes
    such as SIGSEGV still get their dump). Only the main thread may set a handler."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)


def _init_ray(options: RunOptions) -> int:
    """Start or join Ray; return the number of CPUs it offers."""
    import ray

    if not ray.is_initialized():
        address = _cluster_address(options)
        if address:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=True)
        else:
            _start_embedded_ray(options.workers or os.cpu_count() or 1)
        _quiet_sigterm()
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return min(cpus, options.workers) if options.workers else cpus


EMBEDDED_RAY_NODE_IP = "127.0.0.1"
EMBEDDED_RAY_ENVIRONMENT = {
    # With this, Ray keeps the node address 127.0.0.1 as given (on Linux it would
    # swap it for the machine's outward address), and Ray binds its gRPC servers
    # (GCS, raylet, workers, agents) to loopback only when the node address is
    # exactly 127.0.0.1; for any other address they listen on every interface.
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    # No Prometheus exporter in the dashboard agent: its /metrics port answers without a token.
    "RAY_enable_metrics_collection": "0",
    # Nor in the autoscaler monitor and the dashboard head, which serve /metrics without a
    # token on fixed ports (44217, 44227) whatever the setting above. Ray has no switch for
    # them; a port no socket can bind makes each log one exception and serve nothing.
    "AUTOSCALER_METRIC_PORT": "-1",
    "DASHBOARD_METRIC_PORT": "-1",
}
"""Set while the embedded cluster starts (its processes inherit them), then restored."""


def require_token_authentication() -> None:
    """Turn Ray's token authentication on for the embedded cluster (this process and its children).

    Ray's default changes between releases; cardlab does not rely on it. An
    environment that turns it off (``RAY_AUTH_MODE=disabled``) is refused
    rather than silently overridden. Ray keeps the token in
    ``~/.ray/auth_token`` (made on first use) unless ``RAY_AUTH_TOKEN`` or
    ``RAY_AUTH_TOKEN_PATH`` gives one.
    """
    mode = os.environ.get("RAY_AUTH_MODE")
    if mode is not None and mode.strip().lower() != "token":
        raise RunError(f"RAY_AUTH_MODE={mode}: cardlab's embedded Ray cluster always runs with token "
                       "authentication; unset RAY_AUTH_MODE or set it to token")
    os.environ["RAY_AUTH_MODE"] = "token"


@contextlib.contextmanager
def _embedded_ray_environment() -> Iterator[None]:
    """``EMBEDDED_RAY_ENVIRONMENT`` in force while the embedded cluster starts.

    Ray reads the first variable once, at import, into ``ray_constants``, and
    this process may have imported Ray long before (tests do), so the
    constant is set too; ``Config.initialize`` makes this process's Ray core
    read its settings again (as Ray does itself when it changes them).
    Restored afterwards: a later ``ray.init(address=...)`` from this process
    must find its node address as usual.
    """
    from ray._private import ray_constants
    from ray._raylet import Config  # type: ignore[attr-defined]  # not in its stub

    saved = {name: os.environ.get(name) for name in EMBEDDED_RAY_ENVIRONMENT}
    saved_cluster = ray_constants.ENABLE_RAY_CLUSTER
    os.environ.update(EMBEDDED_RAY_ENVIRONMENT)
    ray_constants.ENABLE_RAY_CLUSTER = False
    Config.initialize("")
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = saved_cluster
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _start_embedded_ray(cpus: int) -> None:
    """A new Ray cluster in this process, on loopback, token-protected, watched by the reaper."""
    import ray

    require_token_authentication()
    start_reaper()  # before Ray: it must see every process Ray starts
    with _embedded_ray_environment():
        ray.init(
            address="local",  # a new embedded cluster, even when another one runs on this machine
            num_cpus=cpus,
            include_dashboard=False,
            _node_ip_address=EMBEDDED_RAY_NODE_IP,
            logging_level=logging.WARNING,
            configure_logging=True,
        )


def run_experiment(
    spec: ExperimentSpec,
    options: RunOptions,
    on_shard_done: Callable[[dict[str, Any]], None] | None = None,
    on_start: Callable[[list[Shard]], None] | None = None,
    stop_check: StopCheck | None = None,
) -> RunSummary:
    """Play every unfinished shard of ``spec`` on Ray and write the results.

    ``on_start`` receives the shards about to be played, once the folder is
    prepared and locked; ``on_shard_done`` each finished shard's manifest entry.
    A spec with ``[[stop_when]]`` targets needs ``stop_check``, asked once per
    round of workers while shards are still waiting.

    Holds the experiment folder's lock for the whole run, so that a second
    run on the same folder refuses instead of mixing results. A cluster
    address that does not answer is refused before anything is written. A
    run that ends early says so in ``run.json`` (``interrupted`` after Ctrl-C
    or SIGTERM, ``failed: ...`` after an error); one that ends before its
    first shard leaves no folder it created behind.

    A results disk that fails under the run (full, read-only, permission lost:
    ``dataset.storage.STORAGE_ERRNOS``) ends it with ``RunStorageError``, one
    line naming the folder, the cause and the ``--resume`` that finishes it,
    once the shards in flight are stopped, what they left half-written is
    removed, ``run.json`` says ``failed`` and the lock is released (the line
    says which of these the disk did not allow).
    """
    if spec.stop_when and stop_check is None:
        raise ValueError(f"{spec.name}: a spec with [[stop_when]] targets runs with a stop_check (drivers.run)")
    if options.started is None:
        options = replace(options, started=time.perf_counter())
    address = _cluster_address(options)
    if address is not None:
        _require_cluster_answers(address, options.cluster_timeout)
    else:
        require_token_authentication()
    root = results_path(options.results_root) / spec.name
    created = first_missing(root)
    try:
        root = prepare_experiment_dir(spec, options)
        acquire_lock(root)
    except ExperimentLockedError as error:
        raise RunError(str(error)) from None
    except OSError as error:  # the disk refused the spec file or the lock: nothing was played
        failure = storage_failure(error)
        if failure is None:
            raise
        notes = [] if created is None or _removed(created) else [f"{created} could not be removed"]
        raise RunStorageError(storage_failure_line(root, failure, notes, started=False)) from None
    try:
        summary = _run_locked(spec, options, root, on_shard_done, on_start, stop_check)
    except BaseException as error:
        failure = storage_failure(error)
        line = None if failure is None else storage_failure_line(root, failure, [])
        notes = _end_early(spec, root, error, created, options.games, line)
        if line is None:
            raise
        raise RunStorageError("; ".join([line, *notes])) from None
    release_lock(root)
    return summary


class RunStorageError(RuntimeError):
    """The results disk failed under a run (``dataset.storage.STORAGE_ERRNOS``); the message is
    one line naming the folder, the cause and the ``--resume`` that finishes the run."""


def storage_failure_line(root: ResultsPath, failure: OSError, notes: list[str], started: bool = True) -> str:
    """The one line a run ended by its disk's ``failure`` says: the folder, what happened and its
    errno, the finished shards kept, what to do, the ``--resume`` that finishes the run (the
    run's spec file and ``--games`` from ``run.json``, see ``dataset.integrity.repair_command``),
    and ``notes`` (what the disk did not let the run clean up)."""
    number = failure.errno or 0  # one of STORAGE_ERRNOS (``storage_failure``)
    what, advice = STORAGE_ERRNOS[number]
    code = errno.errorcode.get(number, str(number))
    if not started:
        line = f"{root}: {what} ({code}); nothing was played; {advice}, then run it again"
    else:
        try:
            kept = f"its {len(finished_shards(root)):,} finished shard(s) are kept"
        except OSError:
            kept = "its finished shards are kept"
        line = (f"{root}: {what} ({code}); the run stopped and {kept}; {advice}, then "
                f"`{repair_command(root)}` finishes it")
    return "; ".join([line, *notes])


def _removed(folder: ResultsPath) -> bool:
    """Remove ``folder`` and what is under it; whether that worked."""
    try:
        remove_tree(folder)
    except OSError:
        return False
    return True


def _end_early(spec: ExperimentSpec, root: ResultsPath, error: BaseException, created: ResultsPath | None,
               games: int | None, disk_failure: str | None) -> list[str]:
    """After a run ended by ``error``: remove what it left half-written (when its disk failed:
    ``disk_failure`` is then the line saying so), say in ``run.json`` how it ended, release the
    lock. Returns, as short phrases, what the disk did not allow (nothing is raised here:
    ``error`` is the news)."""
    notes = []
    if disk_failure is not None:
        try:
            stuck = remove_half_written(root)
        except OSError as problem:
            notes.append(f"its half-written files could not be listed for removal ({problem.strerror})")
        else:
            if stuck:
                notes.append(f"{len(stuck)} half-written file(s) could not be removed (`--resume` removes them), "
                             f"e.g. {stuck[0].path}")
    try:
        _record_early_end(spec, root, error, created, games, disk_failure)
    except OSError as problem:
        notes.append(f"{root / RUN_FILE} could not be updated ({problem.strerror}) and still says running")
    try:
        release_lock(root)
    except OSError as problem:
        notes.append(f"its lock {root / LOCK_FILE} could not be removed ({problem.strerror}); the next run takes "
                     "it over, as this one has ended")
    return notes


def first_missing(root: ResultsPath) -> ResultsPath | None:
    """The outermost of ``root`` and its parents that does not exist yet (what a run creates), or None."""
    if root.exists():
        return None
    missing = root
    while not missing.parent.exists() and missing.parent != missing:
        missing = missing.parent
    return missing


def _record_early_end(spec: ExperimentSpec, root: ResultsPath, error: BaseException,
                      created: ResultsPath | None, games: int | None, reason: str | None = None) -> None:
    """After a run ended by ``error``: remove what this run created (``created``: the
    outermost new folder) if it finished no shard, else say in ``run.json`` how it ended
    (``failed: reason``, by default ``failure_reason(error)``)."""
    if created is not None and not finished_shards(root):
        remove_tree(created)
        return
    interrupted = isinstance(error, KeyboardInterrupt | SystemExit)
    reason = reason or failure_reason(error)
    _write_status(spec, root, "interrupted" if interrupted else f"failed: {reason}", "ended", games)


def failure_reason(error: BaseException) -> str:
    """One plain line saying why a run failed: a shard task's own exception rather than Ray's
    wrapper around it (whose first line is a coloured ``ray::_run_shard_task()`` banner)."""
    cause = getattr(error, "cause", None)  # a RayTaskError carries the task's exception
    source = cause if isinstance(cause, BaseException) else error
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(source)).strip()
    return text.splitlines()[0] if text else type(source).__name__


def _write_status(spec: ExperimentSpec, root: ResultsPath, status: str, moment: str, games: int | None) -> None:
    """``run.json``: the status, when (``moment`` is ``started``, ``finished`` or ``ended``),
    the number of shards, and the spec file and ``--games`` (for the repair hint of
    ``dataset.integrity``)."""
    source = Path(spec.source) if spec.source else None
    record: dict[str, Any] = {"status": status, moment: time.time(), "shards": len(spec.shards())}
    if source is not None and source.is_file():
        record["spec"] = str(source.resolve())
        if games is not None:
            record["games"] = games
    path = root / RUN_FILE
    try:
        write_json_atomically(record, path)
    except OSError as error:
        # A full disk has no room for a second copy, but may for the same few bytes in place:
        # truncating the old status frees the blocks the new one then takes.
        if error.errno not in (errno.ENOSPC, errno.EDQUOT) or not isinstance(path, Path) or not path.is_file():
            raise
        path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")


def _cluster_address(options: RunOptions) -> str | None:
    """The Ray cluster to join (``--address``, else ``$RAY_ADDRESS``), or None for an embedded cluster."""
    return options.address or os.environ.get("RAY_ADDRESS") or None


def _require_cluster_answers(address: str, timeout: float) -> None:
    """Refuse (``RunError``) a cluster whose GCS does not answer within ``timeout`` seconds.

    ``ray.init`` waits for ever on an address where nothing (or something
    other than Ray) listens. Only ``HOST:PORT`` and ``ray://HOST:PORT`` are
    probed: first a TCP connection, then a gRPC (HTTP/2) handshake, which a
    port that accepts connections but never answers fails.
    """
    import socket

    import grpc

    target = address.removeprefix("ray://")
    host, separator, port = target.rpartition(":")
    if not separator or not port.isdigit() or "/" in target:
        return  # "auto", a URL...: left to Ray
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as error:
        raise RunError(f"--address {address}: no Ray cluster answers ({error.strerror or error}); "
                       "expected the address of a running cluster's head (HOST:PORT)") from None
    channel = grpc.insecure_channel(target)
    try:
        grpc.channel_ready_future(channel).result(timeout=max(0.1, deadline - time.monotonic()))
    except grpc.FutureTimeoutError:
        raise RunError(f"--address {address}: no Ray cluster answered within {timeout:g} s (the port accepts "
                       "connections but does not speak Ray's protocol); expected a running cluster's head") from None
    finally:
        channel.close()


def _replay_damaged_shards(root: ResultsPath, report: Callable[[str], None]) -> None:
    """Forget finished shards whose files are missing or damaged (they are
    deterministic, so playing them again restores them exactly)."""
    def unreadable(path: ResultsPath, reason: str) -> None:
        report(f"shard {path.stem}: {path}: unreadable manifest entry ({reason}); playing it again")
        path.unlink(missing_ok=True)

    manifest = finished_shards(root, unreadable)
    findings, _hashed = check_shards(root, manifest, trust_identity=False)
    for finding in findings:
        report(f"shard {finding.shard}: {finding.line()}; playing it again")
    for shard_id in {finding.shard for finding in findings if finding.shard is not None}:
        forget_shard(root, shard_id, manifest[shard_id])


def _run_locked(
    spec: ExperimentSpec,
    options: RunOptions,
    root: ResultsPath,
    on_shard_done: Callable[[dict[str, Any]], None] | None,
    on_start: Callable[[list[Shard]], None] | None,
    stop_check: StopCheck | None,
) -> RunSummary:
    import ray

    shards = spec.shards()
    if options.resume:
        _replay_damaged_shards(root, lambda line: print(line, file=sys.stderr))
    done = finished_shards(root) if options.resume else {}
    todo = [shard for shard in shards if shard.id not in done]
    _write_status(spec, root, "running", "started", options.games)
    if on_start is not None:
        on_start(todo)

    workers = _start_ray(options)
    # SPREAD: on a cluster, shards go to every node from the start instead of queueing on the
    # driver's node while the other nodes still start their first worker process.
    task = ray.remote(_run_shard_task).options(num_cpus=1, max_retries=3, retry_exceptions=False,
                                               scheduling_strategy="SPREAD")
    max_in_flight = options.max_in_flight or 2 * workers
    pending: dict[Any, Shard] = {}
    waiting = list(reversed(todo))
    entries: list[dict[str, Any]] = []
    played: list[Shard] = []
    stopped_early = False
    variants_done: set[str] = set()  # variants the stop check called measured well enough
    unchecked = 0
    started = time.perf_counter()
    progress = _progress_display(todo, workers, options)
    try:
        while pending or (waiting and not stopped_early):
            while waiting and len(pending) < max_in_flight and not stopped_early:
                shard = waiting.pop()
                pending[task.remote(spec, shard, root)] = shard
            # A timeout, so that the plain status lines keep coming while long shards run.
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=progress.wait_seconds)
            for reference in ready:
                shard = pending.pop(reference)
                entry = ray.get(reference)
                entries.append(entry)
                played.append(shard)
                unchecked += 1
                progress.update(shard.games)
                if on_shard_done is not None:
                    on_shard_done(entry)
            progress.tick()
            # Early stop: checked once per round of workers, so the check's cost stays small.
            if stop_check is not None and not stopped_early and waiting and unchecked >= workers:
                unchecked = 0
                verdict = stop_check(root)
                if isinstance(verdict, bool):
                    stopped_early = verdict
                elif verdict:
                    # Their shards still waiting are dropped; those in flight finish. Shards are
                    # submitted in index order, so each variant keeps a prefix of its games.
                    variants_done |= verdict
                    waiting = [shard for shard in waiting if shard.variant not in variants_done]
    except Exception:
        _stop_tasks(list(pending))  # none may write on while the run cleans up after itself
        raise
    finally:
        progress.close()
    finished = time.perf_counter()
    played_ids = {shard.id for shard in played}
    skipped_variants = tuple(sorted({shard.variant for shard in todo
                                     if shard.variant in variants_done and shard.id not in played_ids}))
    status = ("stopped early: every stop_when target met" if stopped_early
              else "stopped early: some variants measured as precisely as asked" if skipped_variants else "finished")
    _write_status(spec, root, status, "finished", options.games)
    return RunSummary(
        experiment_dir=root,
        shards_total=len(shards),
        shards_skipped=len(shards) - len(todo),
        shards_played=len(played),
        games_played=sum(shard.games for shard in played),
        seconds=finished - started,
        workers=workers,
        shard_entries=entries,
        stopped_early=stopped_early,
        variants_stopped=skipped_variants,
        wall_seconds=finished - (options.started if options.started is not None else started),
    )


STOP_SECONDS = 30.0
"""How long a failed run waits for its shard tasks in flight to be stopped."""


def _stop_tasks(references: list[Any]) -> None:
    """Stop the shard tasks of ``references`` (their worker processes are ended) and wait until
    they are; their results, errors all, are read here so that Ray does not print each one as
    an unhandled error when the run ends."""
    import ray

    for reference in references:
        with contextlib.suppress(Exception):
            ray.cancel(reference, force=True)
    if references:
        ready, _ = ray.wait(references, num_returns=len(references), timeout=STOP_SECONDS)
        for reference in ready:
            with contextlib.suppress(Exception):
                ray.get(reference)


def _run_shard_task(spec: ExperimentSpec, shard: Shard, root: ResultsPath) -> dict[str, Any]:
    """The Ray task: one shard, plus which node played it (for the run's record)."""
    import ray

    entry = run_shard(spec, shard, root)
    entry["node"] = ray.get_runtime_context().get_node_id()
    return entry


def _say(options: RunOptions, line: str) -> None:
    """One line of the run's talk on stderr (nothing when progress is off)."""
    if options.progress:
        print(f"cardlab run: {line}", file=sys.stderr, flush=True)


def _start_ray(options: RunOptions) -> int:
    """Start or join Ray, saying so before (it takes seconds) and after (where, how many workers)."""
    return _announced_ray_start(options, lambda line: _say(options, line))


def start_ray(options: RunOptions, say: Callable[[str], None]) -> int:
    """Start or join Ray as ``options`` ask, telling ``say`` before (it takes seconds) and
    after (where, how many workers); return the workers a run gets. A cluster address that
    does not answer is refused (``RunError``) first, as ``run_experiment`` refuses it. A
    balance search calls it before its first batch."""
    address = _cluster_address(options)
    if address is not None:
        _require_cluster_answers(address, options.cluster_timeout)
    return _announced_ray_start(options, say)


def _announced_ray_start(options: RunOptions, say: Callable[[str], None]) -> int:
    address = options.address or os.environ.get("RAY_ADDRESS")
    if address:
        say(f"joining the Ray cluster at {address} ...")
    else:
        say(f"starting Ray on this machine ({options.workers or os.cpu_count() or 1} CPUs) ...")
    asked = time.perf_counter()
    workers = _init_ray(options)
    say(f"Ray ready in {time.perf_counter() - asked:.1f} s: {_ray_address()}, {workers} worker(s)")
    return workers


def _ray_address() -> str:
    """Where the Ray cluster this process is connected to listens."""
    import ray

    try:
        return f"cluster at {ray.get_runtime_context().gcs_address}"
    except Exception:  # an older Ray without gcs_address: the address is only informative
        return "cluster connected"


class _NoProgress:
    """Progress off: nothing shown."""

    wait_seconds: float | None = None

    def update(self, games: int) -> None:
        """A shard of ``games`` games finished."""

    def tick(self) -> None:
        """Called after every wait."""

    def close(self) -> None:
        """The run is over."""


class _ProgressBar(_NoProgress):
    """A tqdm bar of games done with games/s and ETA, redrawn in place on a terminal."""

    def __init__(self, total: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, unit=" games", unit_scale=True, file=sys.stderr, smoothing=0.1,
                        bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]")
        self.wait_seconds = 1.0

    def update(self, games: int) -> None:
        """A shard of ``games`` games finished."""
        self.bar.update(games)

    def tick(self) -> None:
        """Redraw, so that the elapsed time moves while long shards run."""
        self.bar.refresh()

    def close(self) -> None:
        """The run is over."""
        self.bar.close()


class _StatusLines(_NoProgress):
    """One plain line every ``interval`` seconds (and one at the end): for logs, where a
    redrawn bar would be one endless line of carriage returns."""

    def __init__(self, total_games: int, total_shards: int, interval: float) -> None:
        self.total_games, self.total_shards, self.interval = total_games, total_shards, interval
        self.games = self.shards = 0
        self.started = self.last_line = time.perf_counter()
        self.wait_seconds = interval
        self.games_in_last_line = -1

    def update(self, games: int) -> None:
        """A shard of ``games`` games finished."""
        self.games += games
        self.shards += 1

    def tick(self) -> None:
        """A status line when ``interval`` seconds have passed since the last one."""
        now = time.perf_counter()
        if now - self.last_line >= self.interval:
            self.last_line = now
            self.games_in_last_line = self.games
            line = status_line(self.games, self.total_games, self.shards, self.total_shards, now - self.started)
            print(f"cardlab run: {line}", file=sys.stderr, flush=True)

    def close(self) -> None:
        """The last status line, unless the last one already said it all."""
        if self.games_in_last_line != self.games:
            self.last_line = -self.interval
            self.tick()


def status_line(games: int, total_games: int, shards: int, total_shards: int, seconds: float) -> str:
    """``120,000 of 600,000 games (20%), 12 of 60 shards, 11,532 games/s, about 42 s left``."""
    share = games / total_games if total_games else 1.0
    rate = games / seconds if seconds > 0 else 0.0
    left = f"about {(total_games - games) / rate:,.0f} s left" if rate > 0 else "first shards running"
    if games >= total_games:
        left = f"done in {seconds:,.1f} s"
    return (f"{games:,} of {total_games:,} games ({100 * share:.0f}%), {shards:,} of {total_shards:,} shards, "
            f"{rate:,.0f} games/s, {left}")


def _progress_display(todo: list[Shard], workers: int, options: RunOptions) -> _NoProgress:
    """The bar on a terminal, plain status lines elsewhere, nothing when progress is off;
    shown as soon as the first shards are submitted."""
    if not options.progress:
        return _NoProgress()
    total = sum(shard.games for shard in todo)
    _say(options, f"playing {len(todo):,} shard(s), {total:,} games, on {workers} worker(s)")
    if options.plain_status or not sys.stderr.isatty():
        return _StatusLines(total, len(todo), options.status_interval)
    return _ProgressBar(total)
