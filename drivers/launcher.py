"""The launcher: runs asked for from the dashboard, queued, played by ``cardlab run``, cancellable.

One execution path: a launched run is an experiment file (written out in full,
``experiments.whatif``) played by the very command a user types, ``cardlab run
SPEC --results RESULTS --no-progress``, in a process of its own. Nothing here
plays a game.

Everything lives in the results folder, under ``.launcher/`` (a dot folder, so
``analytics`` never takes it for an experiment), not in a dashboard session, so
runs survive a dashboard restart and every dashboard on the folder sees them:

- ``specs/NAME.toml``: the experiment file of each launched run;
- ``runs/NAME.json``: its state (``queued``, ``running``, ``finished``,
  ``failed`` with a one-line reason, ``cancelled``), who launched it and when;
- ``logs/NAME.log``: what ``cardlab run`` printed;
- ``launches.jsonl``: one line per launch, cancel and refusal (who, what, when);
- ``queue.lock``: held (``flock``) while the queue changes.

A run starts as ``queued``; ``advance`` starts queued runs, oldest first,
while fewer than ``max_running`` run. Each started run gets a supervisor
(``python -m drivers.launcher supervise RESULTS NAME``, in a session of its
own, so that stopping the dashboard stops no run) that runs ``cardlab run``,
records how it ended and then calls ``advance`` itself, so the queue moves on
with no dashboard open.

A run is owned by its supervisor and never outlives it: ``cardlab run`` gets
SIGTERM when its supervisor dies, however it dies (Linux's parent-death
signal, ``workers.reaper.ends_with_parent``; SIGKILL included), and a SIGTERM
to the supervisor is passed on to it. A supervisor that died without saying
how its run ended (killed, the machine restarted) is found dead by
``list_runs``, which keeps the run ``running`` (holding its slot, so that
``max_running`` holds) until its ``cardlab run`` has ended, stops its Ray job
(with a ``job_address``), and then marks it ``failed``, saying so.

``launch`` and ``cancel`` check the ``LaunchPolicy`` first: launching off
unless the dashboard was started with ``--allow-runs``; a token (one of the
named tokens given at start) when the dashboard listens beyond loopback, and
on loopback too when it was given a token file (without one, any local user
may launch there, which ``cardlab dashboard`` says at start); at
most ``max_games_per_run`` games per run and ``runs_per_hour`` launches in
any hour. A refused launch writes nothing but its line in ``launches.jsonl``.

With a ``job_address`` (``cardlab dashboard --job-address http://HEAD:8265``)
the supervisor submits the same ``cardlab run`` command to that Ray cluster
through Ray's job API instead, follows it, and stops the job on a cancel; the
results folder must then be on a disk the cluster's nodes share at the same
path. The queue itself is local either way (its lock and the supervisors are
on the dashboard's machine), so the results folder must be a local path.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import hmac
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl

from dataset.location import ResultsPath, is_remote
from dataset.storage import RUN_FILE, write_bytes_atomically, write_json_atomically
from experiments.spec import NAME_PATTERN, ExperimentSpec, SpecError, first_difference
from experiments.whatif import read_launch
from workers.reaper import alive, ends_with_parent, process_table

LAUNCHER_FOLDER = ".launcher"
QUEUED, RUNNING, FINISHED, FAILED, CANCELLED = "queued", "running", "finished", "failed", "cancelled"
ENDED = (FINISHED, FAILED, CANCELLED)
HOUR = 3600.0
LOOPBACK_HOSTS = ("localhost", "::1")
REASON_LENGTH = 300
"""A failed run's reason is cut to this many characters (it is shown in one table cell)."""


class LaunchRefused(Exception):
    """A launch or cancel the policy does not allow; the message is one line for the page."""


@dataclass(frozen=True)
class LaunchPolicy:
    """What the dashboard allows (``cardlab dashboard --allow-runs ...``)."""

    allowed: bool = False
    loopback: bool = True
    tokens: Mapping[str, str] = field(default_factory=dict)
    """Token name -> secret; the name is who launched (``launches.jsonl``)."""
    max_games_per_run: int = 1_000_000
    runs_per_hour: int = 20
    max_running: int = 1
    workers: int | None = None
    """CPUs for each run's embedded Ray (``cardlab run --workers``); None: all cores."""
    job_address: str | None = None
    """A Ray cluster's dashboard (``http://HEAD:8265``): runs are submitted there through Ray's job API."""

    @property
    def needs_token(self) -> bool:
        """Every launch and cancel needs a token beyond loopback, and on loopback too when the
        dashboard was given a token file (then it is the operator's rule, whatever the address)."""
        return not self.loopback or bool(self.tokens)


@dataclass(frozen=True)
class LaunchedRun:
    """A run's record (``runs/NAME.json``)."""

    name: str
    game: str
    games: int
    who: str
    state: str
    queued_at: float
    started_at: float | None = None
    ended_at: float | None = None
    reason: str = ""
    supervisor_pid: int | None = None
    supervisor_start: int | None = None
    run_pid: int | None = None
    run_start: int | None = None
    """The start time (clock ticks since boot) of ``run_pid``: a pid the kernel may reuse, made unique."""
    job_id: str = ""
    job_address: str = ""
    """The Ray job API the run's job was submitted to (``--job-address``), to stop it should its supervisor die."""
    cancel_requested: bool = False
    overrides: dict[str, Any] = field(default_factory=dict)
    base: str = ""


def is_loopback(host: str) -> bool:
    """Whether a server bound to ``host`` is reachable from this machine only
    (``127.x.y.z``, ``::1``, ``localhost``); ``""`` and ``0.0.0.0`` are every interface."""
    return host in LOOPBACK_HOSTS or (host.startswith("127.") and host.count(".") == 3)


def read_tokens(path: Path) -> dict[str, str]:
    """The named tokens of a token file (TOML: ``name = "secret"`` per line).

    Raises ``ValueError`` with a one-line message for a file that is missing,
    not TOML, empty, or holds a secret shorter than 16 characters or a name
    that is not a plain word.
    """
    try:
        table = tomllib.loads(path.read_text())
    except OSError as error:
        raise ValueError(f"{path}: cannot read the token file ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path}: not valid TOML ({error}); expected lines such as alice = \"a long secret\"") \
            from None
    if not table:
        raise ValueError(f"{path}: no token; expected lines such as alice = \"a long secret\"")
    for name, secret in table.items():
        if not NAME_PATTERN.fullmatch(name):
            raise ValueError(f"{path}: {name!r}: expected a token name of letters, digits, '_', '-' or '.'")
        if not isinstance(secret, str) or len(secret) < 16:
            raise ValueError(f"{path}: {name}: expected a secret string of at least 16 characters")
    return dict(table)


def policy_from_environment(environment: Mapping[str, str], host: str) -> LaunchPolicy:
    """The policy ``cardlab dashboard`` handed to Streamlit in ``CARDLAB_*`` variables
    (``dashboard_environment``), for a server bound to ``host``.

    Launching stays off unless ``CARDLAB_ALLOW_RUNS=1``; beyond loopback it also
    stays off without a readable token file, whatever else the variables say.
    """
    allowed = environment.get("CARDLAB_ALLOW_RUNS") == "1"
    loopback = is_loopback(host)
    tokens: dict[str, str] = {}
    token_file = environment.get("CARDLAB_RUN_TOKENS")
    if token_file:
        try:
            tokens = read_tokens(Path(token_file))
        except ValueError:
            allowed = False
    if not loopback and not tokens:
        allowed = False

    def number(name: str, default: int | None) -> int | None:
        text = environment.get(name, "")
        return int(text) if text.isdigit() and int(text) > 0 else default

    defaults = LaunchPolicy()
    return LaunchPolicy(
        allowed=allowed, loopback=loopback, tokens=tokens,
        max_games_per_run=number("CARDLAB_MAX_GAMES_PER_RUN", defaults.max_games_per_run) or 1,
        runs_per_hour=number("CARDLAB_RUNS_PER_HOUR", defaults.runs_per_hour) or 1,
        max_running=number("CARDLAB_MAX_RUNNING", defaults.max_running) or 1,
        workers=number("CARDLAB_RUN_WORKERS", None),
        job_address=environment.get("CARDLAB_JOB_ADDRESS") or None,
    )


def dashboard_environment(allow_runs: bool, token_file: Path | None, max_games_per_run: int, runs_per_hour: int,
                          max_running: int, workers: int | None, job_address: str | None = None) -> dict[str, str]:
    """The ``CARDLAB_*`` variables that carry ``cardlab dashboard``'s launch options to the pages."""
    environment = {
        "CARDLAB_ALLOW_RUNS": "1" if allow_runs else "0",
        "CARDLAB_MAX_GAMES_PER_RUN": str(max_games_per_run),
        "CARDLAB_RUNS_PER_HOUR": str(runs_per_hour),
        "CARDLAB_MAX_RUNNING": str(max_running),
        "CARDLAB_RUN_TOKENS": str(token_file.resolve()) if token_file else "",
        "CARDLAB_RUN_WORKERS": str(workers or ""),
        "CARDLAB_JOB_ADDRESS": job_address or "",
    }
    return environment


# ------------------------------------------------------------------ the folder


def local_folder(results_root: ResultsPath) -> Path:
    """``results_root`` as a local path; ``LaunchRefused`` for an object store (see the module docstring)."""
    if isinstance(results_root, Path) and not is_remote(results_root):
        return results_root
    raise LaunchRefused(f"{results_root}: launching from the dashboard needs a local results folder")


def launcher_folder(results_root: ResultsPath) -> Path:
    """``RESULTS/.launcher``."""
    return local_folder(results_root) / LAUNCHER_FOLDER


def spec_file(results_root: ResultsPath, name: str) -> Path:
    """The experiment file of launched run ``name``."""
    return launcher_folder(results_root) / "specs" / f"{name}.toml"


def log_file(results_root: ResultsPath, name: str) -> Path:
    """What ``cardlab run`` printed for launched run ``name``."""
    return launcher_folder(results_root) / "logs" / f"{name}.log"


def _record_file(results_root: ResultsPath, name: str) -> Path:
    return launcher_folder(results_root) / "runs" / f"{name}.json"


@contextlib.contextmanager
def _queue_lock(results_root: ResultsPath) -> Iterator[None]:
    """Hold the queue's lock: one change of the queue at a time, across processes."""
    folder = launcher_folder(results_root)
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "queue.lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _write_record(results_root: ResultsPath, run: LaunchedRun) -> None:
    write_json_atomically(asdict(run), _record_file(results_root, run.name))


def _read_record(path: Path) -> LaunchedRun | None:
    try:
        data = json.loads(path.read_text())
        return LaunchedRun(**data)
    except (OSError, ValueError, TypeError):
        return None  # a damaged record is left out rather than breaking the page


def read_run(results_root: ResultsPath, name: str) -> LaunchedRun | None:
    """The record of launched run ``name`` as stored, or None."""
    return _read_record(_record_file(results_root, name))


def launch_log(results_root: ResultsPath) -> list[dict[str, Any]]:
    """Every line of ``launches.jsonl`` (launches, cancels, refusals), oldest first."""
    path = launcher_folder(results_root) / "launches.jsonl"
    if not path.is_file():
        return []
    entries = []
    for line in path.read_text().splitlines():
        with contextlib.suppress(ValueError):
            entries.append(json.loads(line))
    return entries


def _log(results_root: ResultsPath, entry: dict[str, Any]) -> None:
    """Append one line to ``launches.jsonl`` (appends of one short line do not interleave)."""
    path = launcher_folder(results_root) / "launches.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        handle.write(json.dumps(entry, sort_keys=True) + "\n")


# ------------------------------------------------------------------ policy


def authorise(policy: LaunchPolicy, token: str | None) -> str:
    """Who is asking (the token's name, or ``local`` on loopback), or ``LaunchRefused``."""
    if not policy.allowed:
        raise LaunchRefused("launching runs is off: start the dashboard with `cardlab dashboard --allow-runs`")
    # Every secret is compared (in constant time), so the answer's timing says nothing about them.
    matches = [name for name, secret in policy.tokens.items()
               if hmac.compare_digest(secret.encode(), (token or "").encode())]
    if matches and token:
        return matches[0]
    if not policy.needs_token:
        return "local"
    if policy.loopback:
        raise LaunchRefused("wrong or missing token: this dashboard was started with a token file; enter the "
                            "token you were given")
    raise LaunchRefused("wrong or missing token: this dashboard listens beyond loopback; enter the token "
                        "you were given")


def sign_in(results_root: ResultsPath, policy: LaunchPolicy, token: str | None,
            now: Callable[[], float] = time.time) -> str:
    """``authorise`` for the New run page's token box: who is asking, or ``LaunchRefused``;
    a refused token is logged (``refused``, action ``sign-in``) as refused launches are, so an
    operator sees guessing in ``launches.jsonl``. Not throttled: one shared counter would let
    anyone lock every other user out, and a token has at least 16 characters."""
    try:
        return authorise(policy, token)
    except LaunchRefused as refusal:
        _log_refused_token(results_root, refusal, now(), {"experiment": "", "attempt": "sign-in"})
        raise


def _log_refused_token(results_root: ResultsPath, refusal: LaunchRefused, moment: float,
                       what: Mapping[str, Any]) -> None:
    """Log a refused token's line, when the results folder can hold the launcher's files."""
    with contextlib.suppress(LaunchRefused):
        launcher_folder(results_root)
        _log(results_root, {"action": "refused", "who": "unknown", "when": moment, "reason": str(refusal), **what})


def _check_limits(results_root: ResultsPath, policy: LaunchPolicy, spec: ExperimentSpec, now: float) -> None:
    if spec.total_games > policy.max_games_per_run:
        raise LaunchRefused(f"{spec.total_games:,} games; this dashboard allows at most "
                            f"{policy.max_games_per_run:,} games per run")
    recent = [entry for entry in launch_log(results_root)
              if entry.get("action") == "launch" and now - float(entry.get("when", 0)) < HOUR]
    if len(recent) >= policy.runs_per_hour:
        raise LaunchRefused(f"{len(recent)} runs launched in the last hour; this dashboard allows at most "
                            f"{policy.runs_per_hour} per hour")


def read_as_run_will(spec: ExperimentSpec, toml_text: str) -> ExperimentSpec:
    """The experiment ``cardlab run`` will play from ``toml_text``, read as it reads it and held
    to the New run page's bounds (``experiments.whatif.read_launch``); ``LaunchRefused`` with
    the spec reader's one line, or when the file says something else than ``spec``."""
    try:
        written = read_launch(toml_text, spec.source or spec.name)
    except SpecError as error:
        raise LaunchRefused(str(error)) from None
    asked, played = (json.loads(json.dumps(each.identity())) for each in (spec, written))
    if asked != played:
        raise LaunchRefused(f"{spec.name}: the experiment file to run differs from the launch asked for "
                            f"({first_difference(asked, played, 'asked for')})")
    return written


def _check_name(results_root: ResultsPath, name: str) -> None:
    if (local_folder(results_root) / name).exists():
        raise LaunchRefused(f"{name}: an experiment of that name exists under {results_root}; choose another name")
    if _record_file(results_root, name).exists():
        raise LaunchRefused(f"{name}: a run of that name was launched already; choose another name")


# ------------------------------------------------------------------ launch, cancel, list


def launch(results_root: ResultsPath, spec: ExperimentSpec, toml_text: str, policy: LaunchPolicy,
           token: str | None, *, base: str = "", now: Callable[[], float] = time.time,
           start: bool = True) -> LaunchedRun:
    """Queue ``spec`` (its experiment file ``toml_text``) and start it if a slot is free.

    Checks the policy (``authorise``), the name, and the experiment file as
    ``cardlab run`` will read it (``read_as_run_will``: the New run page's bounds,
    games per run, runs per hour) before writing anything but the log line;
    raises ``LaunchRefused``. ``start=False`` queues without starting (tests).
    """
    moment = now()
    what = {"experiment": spec.name, "game": spec.game, "games": spec.total_games,
            "overrides": _overrides(spec)}
    try:
        who = authorise(policy, token)
    except LaunchRefused as refusal:
        _log_refused_token(results_root, refusal, moment, what)
        raise
    with _queue_lock(results_root):
        try:
            _check_name(results_root, spec.name)
            _check_limits(results_root, policy, read_as_run_will(spec, toml_text), moment)
        except LaunchRefused as refusal:
            _log(results_root, {"action": "refused", "who": who, "when": moment, "reason": str(refusal), **what})
            raise
        write_bytes_atomically(toml_text.encode(), spec_file(results_root, spec.name))
        run = LaunchedRun(name=spec.name, game=spec.game, games=spec.total_games, who=who, state=QUEUED,
                          queued_at=moment, overrides=_overrides(spec), base=base)
        _write_record(results_root, run)
        _log(results_root, {"action": "launch", "who": who, "when": moment, **what})
    if start:
        advance(results_root, policy.max_running, policy.workers, policy.job_address)
    return read_run(results_root, spec.name) or run


def _overrides(spec: ExperimentSpec) -> dict[str, Any]:
    return {path: value for variant in spec.variants for path, value in variant.overrides.items()}


def cancel(results_root: ResultsPath, name: str, policy: LaunchPolicy, token: str | None,
           now: Callable[[], float] = time.time) -> LaunchedRun:
    """Cancel launched run ``name``: a queued run never starts; a running one gets SIGTERM
    (``cardlab run`` then stops its shards and records ``interrupted`` in its ``run.json``)
    and is marked cancelled by its supervisor. Raises ``LaunchRefused`` (a refused token logged)."""
    try:
        who = authorise(policy, token)
    except LaunchRefused as refusal:
        _log_refused_token(results_root, refusal, now(), {"experiment": name, "attempt": "cancel"})
        raise
    with _queue_lock(results_root):
        run = read_run(results_root, name)
        if run is None:
            raise LaunchRefused(f"{name}: no run of that name was launched from the dashboard")
        if run.state in ENDED:
            raise LaunchRefused(f"{name}: already {run.state}; nothing to cancel")
        if run.state == QUEUED:
            run = replace(run, state=CANCELLED, ended_at=now(), reason=f"cancelled by {who} before it started")
        else:
            run = replace(run, cancel_requested=True, reason=f"cancelled by {who}")
            if run.run_pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(run.run_pid, signal.SIGTERM)
        _write_record(results_root, run)
        _log(results_root, {"action": "cancel", "who": who, "when": now(), "experiment": name})
    return run


def _supervisor_alive(run: LaunchedRun, table: dict[int, tuple[int, int, str]]) -> bool:
    if run.supervisor_pid is None or run.supervisor_start is None:
        return False
    return bool(alive({(run.supervisor_pid, run.supervisor_start)}, table))


def list_runs(results_root: ResultsPath) -> list[LaunchedRun]:
    """Every launched run, oldest first. A run whose supervisor is gone without a word
    (killed) is stopped with it and marked failed (and stored so) once nothing of it
    runs any more (``_orphan``); until then it stays running and holds its slot."""
    _reap_children()
    folder = launcher_folder(results_root) / "runs"
    if not folder.is_dir():
        return []
    runs = [run for run in map(_read_record, sorted(folder.glob("*.json"))) if run is not None]
    if any(run.state == RUNNING for run in runs):
        with _queue_lock(results_root):
            # The processes read under the lock: a supervisor that another process started and
            # recorded while this one waited for the lock must be in the table, not taken for dead.
            table = process_table()
            for index, run in enumerate(runs):
                fresh = read_run(results_root, run.name)
                if fresh is not None and fresh.state == RUNNING and not _supervisor_alive(fresh, table):
                    runs[index] = _orphan(results_root, fresh, table)
    return sorted(runs, key=lambda run: (run.queued_at, run.name))


def _orphan(results_root: ResultsPath, run: LaunchedRun, table: dict[int, tuple[int, int, str]]) -> LaunchedRun:
    """A running run whose supervisor died without recording how it ended, as it stands now.

    Its ``cardlab run`` got SIGTERM when the supervisor died (``ends_with_parent``) and
    stops as after a Cancel: while that process lives the run stays ``running`` (so that
    ``max_running`` counts it). A Ray job has no such tie: it is stopped here, and the run
    stays ``running`` until the job has ended. Then the run is ``failed``, saying so."""
    if run.run_pid is not None and run.run_start is not None and alive({(run.run_pid, run.run_start)}, table):
        return run
    ended = (f"its launcher process (pid {run.supervisor_pid}) died without recording how the run ended (it was "
             "killed, or the machine restarted); the run was stopped with it")
    if run.job_id and run.job_address:
        try:
            if not _stop_job(run.job_address, run.job_id):
                return run
            ended += f" (Ray job {run.job_id} stopped)"
        except Exception as error:  # the cluster cannot be reached: say so rather than hold the slot for ever
            ended += f"; its Ray job {run.job_id} could not be stopped ({_one_line(error)})"
    failed = replace(run, state=FAILED, ended_at=time.time(), reason=_cut(ended + "; its finished shards are kept"))
    _write_record(results_root, failed)
    return failed


def _one_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _cut(reason: str) -> str:
    """``reason`` cut to ``REASON_LENGTH`` characters (it is shown in one table cell)."""
    return reason if len(reason) <= REASON_LENGTH else reason[:REASON_LENGTH - 3] + "..."


def advance(results_root: ResultsPath, max_running: int, workers: int | None = None,
            job_address: str | None = None) -> list[str]:
    """Start queued runs, oldest first, while fewer than ``max_running`` run; their names.
    With ``job_address`` they are submitted to that cluster's job API."""
    started = []
    runs = list_runs(results_root)
    with _queue_lock(results_root):
        fresh = [read_run(results_root, run.name) or run for run in runs]
        running = sum(run.state == RUNNING for run in fresh)
        for run in fresh:
            if running >= max_running:
                break
            if run.state != QUEUED:
                continue
            process = _start_supervisor(results_root, run.name, max_running, workers, job_address)
            start = process_table().get(process.pid, (0, 0, ""))[1]
            _write_record(results_root, replace(run, state=RUNNING, started_at=time.time(),
                                                supervisor_pid=process.pid, supervisor_start=start))
            running += 1
            started.append(run.name)
    return started


def _start_supervisor(results_root: ResultsPath, name: str, max_running: int, workers: int | None,
                      job_address: str | None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "drivers.launcher", "supervise", str(local_folder(results_root).resolve()),
               name, "--max-running", str(max_running)] + (["--workers", str(workers)] if workers else []) + (
                   ["--job-address", job_address] if job_address else [])
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True,
                               cwd=Path(__file__).resolve().parents[1])
    _children.append(process)
    _reap_children()
    return process


_children: list[subprocess.Popen[bytes]] = []
"""Supervisors this process started: polled now and then so that ended ones leave no zombie."""


def _reap_children() -> None:
    _children[:] = [child for child in _children if child.poll() is None]


def run_reason(folder: Path) -> str:
    """The one-line reason a run of ``folder`` failed, from its ``run.json`` (``failed: ...``), or ''."""
    try:
        status = json.loads((folder / RUN_FILE).read_text()).get("status", "")
    except (OSError, ValueError, AttributeError):
        return ""
    return status.removeprefix("failed: ") if isinstance(status, str) and status.startswith("failed") else ""


def overview_with_launched_runs(overview: pl.DataFrame, runs: list[LaunchedRun], results_root: ResultsPath
                                ) -> pl.DataFrame:
    """``analytics.explore.experiment_overview`` with the launched runs: a ``reason`` column
    (why a run failed or was cancelled), the launcher's state where it says more than the
    folder (``cancelled``, ``failed``, ``queued``) and one row for each launched run that has
    no folder yet (queued, or cancelled or failed before its first shard)."""
    by_name = {run.name: run for run in runs}
    root = local_folder(results_root)
    statuses, reasons = [], []
    for name, status in overview.select("experiment", "status").iter_rows():
        run = by_name.get(name)
        if run is not None and status != "running" and run.state in (CANCELLED, FAILED, QUEUED):
            statuses.append(run.state)
            reasons.append(run.reason)
        else:
            statuses.append(status)
            reasons.append(run_reason(root / name) if status == "failed" else "")
    shown = overview.with_columns(pl.Series("status", statuses, dtype=pl.String),
                                  pl.Series("reason", reasons, dtype=pl.String))
    missing = [run for run in runs if run.name not in set(overview["experiment"].to_list())]
    if not missing:
        return shown
    extra = pl.DataFrame([{
        "experiment": run.name, "game": run.game, "run_at": dt.datetime.fromtimestamp(run.queued_at, dt.UTC),
        "status": run.state, "games_done": 0, "games_planned": run.games, "progress": 0.0, "variants": 2,
        "player_counts": "", "shards_done": 0, "size_bytes": 0,
        "description": ", ".join(f"{path} = {value!r}" for path, value in run.overrides.items()),
        "reason": run.reason} for run in missing], schema=shown.schema)
    return pl.concat([shown, extra]).sort("experiment")


# ------------------------------------------------------------------ the supervisor


def run_command(results_root: ResultsPath, name: str, workers: int | None) -> list[str]:
    """The ``cardlab run`` command line of launched run ``name`` (what a user would type)."""
    return ([sys.executable, "-m", "cardlab", "run", str(spec_file(results_root, name)),
             "--results", str(local_folder(results_root).resolve()), "--no-progress"]
            + (["--workers", str(workers)] if workers else []))


def failure_reason(log: str, exit_code: int) -> str:
    """One line saying why a run failed: its last ``cardlab: error:`` line, else its last
    line, else the exit code."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    errors = [line.removeprefix("cardlab: error: ") for line in lines if line.startswith("cardlab: error: ")]
    reason = errors[-1] if errors else (lines[-1] if lines else "")
    return _cut(reason or f"cardlab run exited with code {exit_code}")


def supervise(results_root: Path, name: str, max_running: int, workers: int | None,
              job_address: str | None = None) -> int:
    """Run launched run ``name`` with ``cardlab run`` (here, or as a job of the cluster at
    ``job_address``), record how it ended, move the queue on."""
    log = log_file(results_root, name)
    log.parent.mkdir(parents=True, exist_ok=True)
    terminated: list[bool] = []
    """Appended to when this supervisor gets SIGTERM; its run is stopped then (see ``_play_here``)."""
    signal.signal(signal.SIGTERM, lambda number, frame: terminated.append(True))
    if job_address:
        exit_code = _play_as_job(results_root, name, job_address, log, terminated)
    else:
        exit_code = _play_here(results_root, name, workers, log, terminated)
    with _queue_lock(results_root):
        run = read_run(results_root, name)
        if run is not None:
            if run.cancel_requested:
                state, reason = CANCELLED, run.reason or "cancelled"
            elif exit_code == 0:
                state, reason = FINISHED, ""
            elif terminated:
                state, reason = FAILED, (f"its launcher process (pid {os.getpid()}) was sent SIGTERM; the run was "
                                         "stopped with it; its finished shards are kept")
            else:
                state, reason = FAILED, failure_reason(log.read_text(errors="replace"), exit_code)
            _write_record(results_root, replace(run, state=state, reason=reason, ended_at=time.time()))
    advance(results_root, max_running, workers, job_address)
    return 0


def _play_here(results_root: Path, name: str, workers: int | None, log: Path, terminated: list[bool]) -> int:
    """``cardlab run`` as a child process; its exit code. A cancel SIGTERMs it (``run_pid``);
    so does a SIGTERM to this supervisor (passed on), and the supervisor's death, however it
    dies (the parent-death signal, ``workers.reaper.ends_with_parent``): no run outlives the
    process that answers for it."""
    with log.open("wb") as output:
        process = subprocess.Popen(run_command(results_root, name, workers), stdin=subprocess.DEVNULL,
                                   stdout=output, stderr=subprocess.STDOUT, cwd=Path(__file__).resolve().parents[1],
                                   preexec_fn=ends_with_parent(signal.SIGTERM))

        def pass_on(number: int, frame: object) -> None:
            terminated.append(True)
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, pass_on)
        if terminated:  # a SIGTERM came before the child was there to hear it
            process.send_signal(signal.SIGTERM)
        with _queue_lock(results_root):
            run = read_run(results_root, name)
            if run is not None:
                start = process_table().get(process.pid, (0, None, ""))[1]
                _write_record(results_root, replace(run, run_pid=process.pid, run_start=start))
                if run.cancel_requested:  # cancelled between the start and now
                    process.send_signal(signal.SIGTERM)
        return process.wait()


JOB_POLL_SECONDS = 2.0


def job_entrypoint(results_root: Path, name: str) -> str:
    """The job's command: ``cardlab run`` on the spec, from ``cardlab`` on the head's ``PATH``
    (the results folder, and so the spec under it, must be on a disk every node shares)."""
    return shlex.join(["cardlab", "run", str(spec_file(results_root, name).resolve()),
                       "--results", str(results_root.resolve()), "--no-progress"])


def _job_client(job_address: str) -> Any:
    """A client of the Ray job API at ``job_address``, with Ray's token (``RAY_AUTH_TOKEN``) from
    the environment, as for ``ray job submit``."""
    from ray.job_submission import JobSubmissionClient

    token = os.environ.get("RAY_AUTH_TOKEN")
    return JobSubmissionClient(job_address, headers={"Authorization": f"Bearer {token}"} if token else None)


def _stop_job(job_address: str, job_id: str) -> bool:
    """Ask the cluster to stop job ``job_id``; whether it has ended."""
    client = _job_client(job_address)
    if client.get_job_status(job_id).is_terminal():
        return True
    client.stop_job(job_id)
    return bool(client.get_job_status(job_id).is_terminal())


def _play_as_job(results_root: Path, name: str, job_address: str, log: Path, stop_asked: list[bool]) -> int:
    """``cardlab run`` submitted through Ray's job API, followed until it ends; 0 when it
    succeeded. A cancel SIGTERMs this supervisor (its own pid is ``run_pid``), which stops the
    job, as any SIGTERM to it does (``stop_asked``). Should this supervisor be killed, the next
    ``list_runs`` stops the job (``_orphan``): the record keeps the job's id and address."""
    from ray.job_submission import JobStatus

    client = _job_client(job_address)
    try:
        job_id = client.submit_job(entrypoint=job_entrypoint(results_root, name),
                                   submission_id=f"cardlab-{name}-{os.getpid()}")
    except Exception as error:  # the cluster refused or cannot be reached: the run failed, with its reason
        log.write_text(f"cardlab: error: {job_address}: the job was not accepted ({error})\n")
        return 1
    with _queue_lock(results_root):
        run = read_run(results_root, name)
        if run is not None:
            _write_record(results_root, replace(run, run_pid=os.getpid(), run_start=run.supervisor_start,
                                                job_id=job_id, job_address=job_address))
            if run.cancel_requested:
                stop_asked.append(True)
    stopping = False
    while True:
        if stop_asked and not stopping:
            stopping = True
            client.stop_job(job_id)
        status = client.get_job_status(job_id)
        if status.is_terminal():
            break
        time.sleep(JOB_POLL_SECONDS)
    log.write_text(client.get_job_logs(job_id))
    return 0 if status == JobStatus.SUCCEEDED else 1


def main(arguments: list[str]) -> int:
    """``python -m drivers.launcher supervise RESULTS NAME [--max-running N] [--workers W] [--job-address URL]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m drivers.launcher")
    commands = parser.add_subparsers(dest="command", required=True)
    supervisor = commands.add_parser("supervise")
    supervisor.add_argument("results", type=Path)
    supervisor.add_argument("name")
    supervisor.add_argument("--max-running", type=int, default=1)
    supervisor.add_argument("--workers", type=int)
    supervisor.add_argument("--job-address")
    options = parser.parse_args(arguments)
    return supervise(options.results, options.name, options.max_running, options.workers, options.job_address)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the dashboard's terminal does not end a run
    sys.exit(main(sys.argv[1:]))
