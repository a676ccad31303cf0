"""The keeper of the warm Ray cluster (``workers.warm``): ``python -m workers.keeper``.

Started by ``cardlab ray start`` (in a session of its own) or by ``cardlab
dashboard --allow-runs`` (as the dashboard's child, ending with it: the
parent-death signal of ``workers.reaper.ends_with_parent``). It starts the
embedded cluster of a cold run (``workers.runner.start_embedded_ray``:
loopback only, token authentication, the reaper watching every process Ray
starts), one ``ShardPlayer`` per CPU, writes the record once they are ready,
then watches, once a second:

- the runs on the cluster (Ray's job table): with ``--idle-minutes`` M > 0,
  it stops when no run has been connected for M minutes;
- the players: one still playing for a run that has died (SIGKILLed) is
  restarted, so that no shard writes on for a run that is gone;
- its record: removed (``cardlab ray stop`` does that, then SIGTERMs), it stops.

It stops on SIGTERM or SIGINT too. Stopping removes the record, then the
process exits; the reaper then kills every process of the cluster.

    python -m workers.keeper --record FILE [--cpus N] [--idle-minutes M] [--owner TEXT]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from workers.reaper import process_table
from workers.runner import start_embedded_ray
from workers.warm import (
    ALREADY_KEPT,
    NAMESPACE,
    PLAYING_KEY,
    READY,
    STARTING,
    WARM_KEY,
    ShardPlayer,
    WarmRay,
    code_fingerprint,
    hold_keeper_lock,
    player_name,
    read_record,
    remove_record,
    write_record,
)

WATCH_SECONDS = 1.0
JOIN_GRACE_SECONDS = 3.0
"""How long a keeper about to stop when idle waits, its record removed, for a run that read the
record just before to connect."""

_stopping: list[int] = []


def _stop(signum: int, frame: object) -> None:
    _stopping.append(signum)


def start_players(cpus: int) -> list[Any]:
    """One ``ShardPlayer`` actor per CPU, named in ``NAMESPACE``, restarted should one die (a
    call in flight on a player that died is played again, as a cold run's task is); returns
    their handles once every one has loaded the rules core."""
    import ray

    player: Any = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=3)(ShardPlayer)
    players = [player.options(name=player_name(index), namespace=NAMESPACE).remote(index) for index in range(cpus)]
    ray.get([handle.ready.remote() for handle in players])
    return players


def _other_runs(own_job: str) -> tuple[bool, set[str]]:
    """Whether a run other than this keeper is connected, and the jobs that have ended."""
    from ray._private import state

    jobs = state.jobs()
    live = any(not job["IsDead"] and job["JobID"] != own_job for job in jobs)
    return live, {str(job["JobID"]) for job in jobs if job["IsDead"]}


def _stop_orphan_shards(players: list[Any], ended: set[str]) -> None:
    """Restart each player still playing a shard for a run that has ended (died without
    stopping its shards): the shard stops, no file is written for a run that is gone."""
    import ray
    from ray.experimental.internal_kv import _internal_kv_del, _internal_kv_get

    for index, handle in enumerate(players):
        key = PLAYING_KEY.format(index=index)
        job = _internal_kv_get(key, namespace=NAMESPACE)
        if job is not None and job.decode() in ended:
            ray.kill(handle, no_restart=False)
            _internal_kv_del(key, namespace=NAMESPACE)


def keep(record_path: Path, cpus: int, idle_minutes: float, owner: str, log: str) -> int:
    """Start the warm cluster, keep it until it is idle or told to stop, then end (see the
    module docstring). Returns the exit code."""
    import ray
    from ray.experimental.internal_kv import _internal_kv_put

    own = os.getpid()
    start = process_table()[own][1]
    code = code_fingerprint()
    record = WarmRay("", own, start, cpus, code, idle_minutes, owner, STARTING, log)
    write_record(record_path, record)
    try:
        start_embedded_ray(cpus)
        signal.signal(signal.SIGTERM, _stop)  # again: Ray's start put its own handler in front
        players = start_players(cpus)
        _internal_kv_put(WARM_KEY, json.dumps({"cpus": cpus, "code": code}), namespace=NAMESPACE)
        address = ray.get_runtime_context().gcs_address
        ready = WarmRay(address, own, start, cpus, code, idle_minutes, owner, READY, log)
        write_record(record_path, ready)
        print(f"cardlab ray: ready at {address}, {cpus} shard player(s)", flush=True)
        own_job = ray.get_runtime_context().get_job_id()
        last_run = time.monotonic()
        while not _stopping:
            time.sleep(WATCH_SECONDS)
            current = read_record(record_path)
            if current is None or current.keeper_pid != own:
                print("cardlab ray: the record was removed; stopping", flush=True)
                break
            connected, ended = _other_runs(own_job)
            _stop_orphan_shards(players, ended)
            if connected:
                last_run = time.monotonic()
            elif idle_minutes > 0 and time.monotonic() - last_run >= 60 * idle_minutes:
                # The record goes first, so that no run finds it any more; one that read it just
                # before is given JOIN_GRACE_SECONDS to connect, and keeps the cluster up if it does.
                remove_record(record_path, own)
                time.sleep(JOIN_GRACE_SECONDS)
                if _other_runs(own_job)[0]:
                    write_record(record_path, ready)
                    last_run = time.monotonic()
                    continue
                print(f"cardlab ray: {idle_minutes:g} minutes without a run; stopping", flush=True)
                break
        if _stopping:
            print(f"cardlab ray: stopping ({signal.Signals(_stopping[0]).name})", flush=True)
    finally:
        remove_record(record_path, own)
    return 0


def main(arguments: list[str]) -> int:
    """``python -m workers.keeper``: see the module docstring."""
    parser = argparse.ArgumentParser(prog="python -m workers.keeper")
    parser.add_argument("--record", type=Path, required=True)
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--idle-minutes", type=float, default=0.0)
    parser.add_argument("--owner", default="cardlab ray start")
    parser.add_argument("--log", default="")
    options = parser.parse_args(arguments)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    if hold_keeper_lock(options.record) is None:
        print(f"cardlab ray: another keeper holds {options.record.with_suffix('.lock')}; leaving the cluster to it",
              flush=True)
        return ALREADY_KEPT
    return keep(options.record, max(1, options.cpus), options.idle_minutes, options.owner, options.log)


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    # Not Ray's slow shutdown: the reaper kills every process of the cluster as this one ends.
    os._exit(code)
