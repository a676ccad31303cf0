"""An experiment's results as folders: find them by name or path, read their
stored spec and manifest, list the files of their finished shards.

An experiment folder (written by ``cardlab run``, see ``dataset.storage``)::

    <experiment>/spec.json                                  the resolved spec
    <experiment>/_manifest/<shard>.json                     one per finished shard
    <experiment>/<table>/variant=<v>/part-<shard>.parquet   table in games, players, cards

The folder is a ``dataset.location.ResultsPath``: local, or an ``s3://``
prefix. Every problem a reader meets (no such experiment, no finished shard,
a damaged shard) is an ``AnalyticsError`` whose message is one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dataset.integrity import check_shards, damage_message, repair_command
from dataset.location import ObjectPath, ResultsLocationError, ResultsPath, results_path, sorted_glob
from dataset.schemas import TABLES
from dataset.storage import MANIFEST_FOLDER, SPEC_FILE, finished_shards, table_path
from experiments.spec import NAME_PATTERN
from simcore.api import GameInfo
from simcore.registry import GAMES


class AnalyticsError(Exception):
    """A user-facing problem on the read side; ``str()`` is one line that says it all."""


class ExperimentNotFoundError(AnalyticsError, LookupError):
    """No experiment results folder (one holding ``spec.json``) by that name or path."""

    def __str__(self) -> str:
        # LookupError subclasses such as KeyError quote their message; keep it plain.
        return str(self.args[0]) if self.args else "experiment not found"


class NoResultsError(AnalyticsError, LookupError):
    """The experiment folder exists but holds no usable finished shards."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no results"


class DamagedResultsError(NoResultsError):
    """A finished shard's file is missing, unreadable or differs from its manifest entry."""


def require_intact(experiment_dir: ResultsPath, manifest: dict[str, dict[str, Any]]) -> None:
    """Raise ``DamagedResultsError`` (one line naming the shard and the repair) unless every
    finished shard's files match the manifest (``dataset.integrity.check_shards``)."""
    findings, _hashed = check_shards(experiment_dir, manifest)
    if findings:
        raise DamagedResultsError(damage_message(experiment_dir, findings))


def list_experiments(results_root: ResultsPath | str) -> list[ResultsPath]:
    """Experiment folders directly under ``results_root`` (those holding ``spec.json``), by name."""
    results_root = results_path(results_root)
    if not results_root.is_dir():
        return []
    return sorted(
        (path for path in results_root.iterdir()
         if path.is_dir() and not path.name.startswith(".") and (path / SPEC_FILE).is_file()),
        key=lambda path: path.name,
    )


def _looks_like_path(text: str) -> bool:
    return ("://" in text or "/" in text or "\\" in text or text in (".", "..") or Path(text).is_absolute()
            or text.startswith("~"))


def resolve_experiment(name_or_path: str, results_root: ResultsPath | str) -> ResultsPath:
    """The results folder of an experiment given by name or by path.

    A bare name (no slash) is looked up under ``results_root`` and must be a
    valid experiment name, so it cannot escape that folder; anything with a
    slash (``./x``, ``results/x``, ``/data/x``, ``s3://bucket/results/x``) is taken as a path as given.
    Either way the folder must contain ``spec.json``. Raises
    ``ExperimentNotFoundError`` with a one-line message otherwise.
    """
    results_root = results_path(results_root)
    text = name_or_path.strip()
    if not text:
        raise ExperimentNotFoundError("experiment: empty name; expected an experiment name or a results folder path")
    folder: ResultsPath
    if _looks_like_path(text):
        try:
            folder = results_path(text).expanduser()
        except ResultsLocationError as error:
            raise ExperimentNotFoundError(str(error)) from None
    else:
        # Experiment names (``experiments.spec``): no slash, no leading dot, so a name
        # can never climb out of the results folder.
        if not NAME_PATTERN.fullmatch(text):
            raise ExperimentNotFoundError(
                f"{text}: not a valid experiment name; expected letters, digits, '_', '-' or '.' "
                f"(or a folder path containing {SPEC_FILE})")
        folder = results_root / text
    if not folder.is_dir():
        known = [path.name for path in list_experiments(results_root)]
        hint = f"experiments in {results_root}: {', '.join(known)}" if known else (
            f"no experiments in {results_root} yet; run `cardlab run experiments/<file>.toml`")
        raise ExperimentNotFoundError(
            f"{folder}: no such folder; expected an experiment results folder containing {SPEC_FILE} ({hint})")
    if not (folder / SPEC_FILE).is_file():
        raise ExperimentNotFoundError(
            f"{folder}: no {SPEC_FILE}; expected an experiment results folder written by `cardlab run`")
    return folder


def read_spec(experiment_dir: ResultsPath) -> dict[str, Any]:
    """The resolved spec stored beside the results (``spec.json``), as plain data."""
    path = experiment_dir / SPEC_FILE
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ExperimentNotFoundError(f"{path}: not found; expected the spec written by `cardlab run`") from None
    except (OSError, ValueError) as error:
        raise NoResultsError(f"{path}: unreadable ({error}); expected the JSON spec written by `cardlab run`") from None
    if not isinstance(data, dict):
        raise NoResultsError(f"{path}: expected a JSON object")
    return data


def read_manifest(experiment_dir: ResultsPath) -> dict[str, dict[str, Any]]:
    """Manifest entries of the finished shards, by shard id (empty if none).

    Raises ``DamagedResultsError`` (one line, with the repair) for an entry
    that cannot be read or is not one written by ``cardlab run``.
    """
    def refuse(path: ResultsPath, reason: str) -> None:
        raise DamagedResultsError(f"{path}: unreadable manifest entry ({reason}); expected the JSON marker written "
                                  f"by `cardlab run`; nothing is read until `{repair_command(experiment_dir)}` "
                                  "repairs it")

    return finished_shards(experiment_dir, refuse)


def experiment_version(experiment_dir: ResultsPath) -> int:
    """A number that changes whenever results are added or removed: the newest
    modification time (ns) of the manifest files, the manifest folder (which
    changes when an entry is deleted) and ``spec.json``. Used as a cache key.
    An object store has no folder times, so there the number of manifest
    entries is added (a deletion changes the number)."""
    candidates = [experiment_dir / SPEC_FILE, experiment_dir / MANIFEST_FOLDER]
    folder = experiment_dir / MANIFEST_FOLDER
    entries = sorted_glob(folder, "*.json") if folder.is_dir() else []
    candidates.extend(entries)
    newest = 0
    for path in candidates:
        try:
            newest = max(newest, path.stat().st_mtime_ns)
        except FileNotFoundError:
            continue  # deleted between listing and stat: the folder's mtime has it
    return newest + len(entries) if isinstance(experiment_dir, ObjectPath) else newest


def shard_files(experiment_dir: ResultsPath, table: str,
                manifest: dict[str, dict[str, Any]] | None = None) -> list[ResultsPath]:
    """The Parquet files of ``table`` that belong to finished shards, in shard order.

    ``manifest`` is ``read_manifest(experiment_dir)``, read here if not given.
    Raises ``NoResultsError`` if there are no finished shards, or if the
    manifest lists a shard whose file is missing.
    """
    if manifest is None:
        manifest = read_manifest(experiment_dir)
    if not manifest:
        raise NoResultsError(
            f"{experiment_dir}: no finished shards yet; expected {MANIFEST_FOLDER}/*.json written by `cardlab run`")
    # One listing instead of a lookup per file (in an object store, one request per page, not per shard).
    present = {str(path) for path in (experiment_dir / table).rglob("*.parquet")}
    files = []
    for shard_id, entry in manifest.items():
        path = table_path(experiment_dir, table, entry["variant"], shard_id)
        if str(path) not in present:
            raise NoResultsError(
                f"{path}: missing, though {MANIFEST_FOLDER}/{shard_id}.json marks the shard finished; "
                "expected its Parquet file (rerun the experiment with --resume)")
        files.append(path)
    return files


def experiment_files(experiment_dirs: list[ResultsPath]) -> dict[str, list[ResultsPath]]:
    """The finished-shard files of every table, over several experiments.

    Raises ``NoResultsError`` if one of them has no finished shards, and its
    ``DamagedResultsError`` if a finished shard's file does not match the manifest."""
    files: dict[str, list[ResultsPath]] = {table: [] for table in TABLES}
    for folder in experiment_dirs:
        manifest = read_manifest(folder)
        if manifest:
            require_intact(folder, manifest)  # a damaged shard is never counted
        for table in TABLES:
            files[table].extend(shard_files(folder, table, manifest))
    return files


def game_infos(experiment_dirs: list[ResultsPath]) -> list[GameInfo]:
    """The games the experiments in ``experiment_dirs`` played (from their specs), whose
    declarations describe their own columns; every registered game where a spec cannot
    say (a folder without one, a game not registered here)."""
    infos: list[GameInfo] = []
    for folder in experiment_dirs:
        try:
            game = GAMES.get(str(read_spec(folder).get("game")))
        except AnalyticsError:
            game = None
        if game is None:
            return [*infos, *(other.info for other in GAMES.values() if other.info not in infos)]
        if game.info not in infos:
            infos.append(game.info)
    return infos
