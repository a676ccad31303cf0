"""Where results live: a local folder or an S3-compatible object store.

``results_path(text)`` turns what the user gave (``--results``,
``$CARDLAB_RESULTS``, an experiment path) into a ``ResultsPath``: a plain
``pathlib.Path`` for a local folder (``file://`` URIs included), or an
``ObjectPath`` for ``s3://bucket/prefix``. ``ObjectPath`` offers the part of
``pathlib.Path``'s interface the project uses (``/``, ``name``, ``parent``,
``is_file``, ``read_bytes``, ``iterdir``, ``glob``, ``unlink``, ``stat``...)
on top of a ``pyarrow.fs`` filesystem, so storage, runner, catalog, partials
and dashboard handle both kinds alike. The few places where an object store
really differs branch on ``is_remote``: atomic writes (a PUT is atomic, no
temporary file and rename), the run lock (no exclusive create), DuckDB's
reads (pyarrow datasets instead of ``read_parquet``) and the report cache.

S3 settings come from the standard AWS environment variables, read by the
AWS SDK inside pyarrow: ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``,
``AWS_SESSION_TOKEN``, ``AWS_PROFILE``...; ``AWS_ENDPOINT_URL_S3`` or
``AWS_ENDPOINT_URL`` (MinIO, moto, Ceph...), ``AWS_REGION`` or
``AWS_DEFAULT_REGION``. Credentials are never part of an ``ObjectPath``: its
text, its pickled form (what Ray ships to workers) and every message hold only
``s3://bucket/key``; each process reads its own credentials from its
environment.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.fs as pafs

SUPPORTED_SCHEMES = ("s3",)
ENDPOINT_VARIABLES = ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")
REGION_VARIABLES = ("AWS_REGION", "AWS_DEFAULT_REGION")


class ResultsLocationError(ValueError):
    """A results location that cannot be used (one line, shown to the user)."""


@dataclass(frozen=True)
class ObjectStat:
    """What ``ObjectPath.stat`` returns: the two fields of ``os.stat_result`` the project reads."""

    st_size: int
    st_mtime_ns: int

    @property
    def st_mtime(self) -> float:
        """Modification time in seconds (as ``os.stat_result.st_mtime``)."""
        return self.st_mtime_ns / 1e9


def _first_set(names: tuple[str, ...]) -> str | None:
    return next((os.environ[name] for name in names if os.environ.get(name)), None)


def s3_settings() -> dict[str, str]:
    """The non-secret S3 settings from the environment: endpoint and region (credentials stay with the SDK)."""
    settings = {}
    endpoint = _first_set(ENDPOINT_VARIABLES)
    if endpoint:
        settings["endpoint_override"] = endpoint
    region = _first_set(REGION_VARIABLES)
    if region:
        settings["region"] = region
    return settings


@functools.lru_cache(maxsize=8)
def _s3_filesystem(settings: tuple[tuple[str, str], ...], credentials_key: int) -> pafs.FileSystem:
    # ``credentials_key`` (a hash) makes a change of credentials in the
    # environment build a new filesystem; the credentials themselves are read
    # by the AWS SDK's default chain.
    del credentials_key
    return pafs.S3FileSystem(**dict(settings))


def s3_filesystem() -> pafs.FileSystem:
    """A ``pyarrow.fs.S3FileSystem`` configured from the environment (cached per configuration)."""
    credentials = tuple(os.environ.get(name, "") for name in (
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"))
    return _s3_filesystem(tuple(sorted(s3_settings().items())), hash(credentials))


class ObjectPath:
    """A key (or key prefix) in an object store, with a ``pathlib.Path``-like interface.

    ``filesystem`` is a ``pyarrow.fs.FileSystem``; ``key`` is ``bucket/key``
    without a trailing slash. Folders are key prefixes: they exist while some
    object lies under them, and ``mkdir`` does nothing.
    """

    __slots__ = ("filesystem", "key", "scheme")

    def __init__(self, scheme: str, key: str, filesystem: pafs.FileSystem) -> None:
        self.scheme = scheme
        self.key = key.strip("/")
        self.filesystem = filesystem

    def __str__(self) -> str:
        return f"{self.scheme}://{self.key}"

    def __repr__(self) -> str:
        return f"ObjectPath({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObjectPath) and (self.scheme, self.key) == (other.scheme, other.key)

    def __hash__(self) -> int:
        return hash((self.scheme, self.key))

    def __lt__(self, other: ObjectPath) -> bool:
        return str(self) < str(other)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Pickled (e.g. as a Ray task argument) as its URI only: no credentials travel.
        return (results_path, (str(self),))

    def __truediv__(self, part: str | os.PathLike[str]) -> ObjectPath:
        return ObjectPath(self.scheme, f"{self.key}/{os.fspath(part).strip('/')}", self.filesystem)

    @property
    def name(self) -> str:
        """The last part of the key."""
        return self.key.rsplit("/", 1)[-1]

    @property
    def stem(self) -> str:
        """``name`` without its last suffix."""
        return Path(self.name).stem

    @property
    def suffix(self) -> str:
        """The last suffix of ``name`` (``.json``)."""
        return Path(self.name).suffix

    @property
    def parent(self) -> ObjectPath:
        """The enclosing prefix (the bucket is its own parent)."""
        head = self.key.rsplit("/", 1)[0] if "/" in self.key else self.key
        return ObjectPath(self.scheme, head, self.filesystem)

    def with_name(self, name: str) -> ObjectPath:
        """This path with its last part replaced."""
        return self.parent / name

    def absolute(self) -> ObjectPath:
        """Itself: object paths are always absolute."""
        return self

    def resolve(self) -> ObjectPath:
        """Itself (no links in an object store)."""
        return self

    def expanduser(self) -> ObjectPath:
        """Itself."""
        return self

    def _info(self) -> pafs.FileInfo:
        return self.filesystem.get_file_info(self.key)

    def exists(self) -> bool:
        """An object or a non-empty prefix by that name."""
        return bool(self._info().type != pafs.FileType.NotFound)

    def is_file(self) -> bool:
        """An object by that name."""
        return bool(self._info().type == pafs.FileType.File)

    def is_dir(self) -> bool:
        """A prefix with objects under it (or a bucket)."""
        return bool(self._info().type == pafs.FileType.Directory)

    def stat(self) -> ObjectStat:
        """Size and modification time; ``FileNotFoundError`` if there is no such object."""
        info = self._info()
        if info.type == pafs.FileType.NotFound:
            raise FileNotFoundError(f"{self}: no such object")
        return ObjectStat(st_size=int(info.size or 0), st_mtime_ns=int(info.mtime_ns or 0))

    def read_bytes(self) -> bytes:
        """The object's content; ``FileNotFoundError`` if there is none."""
        try:
            with self.filesystem.open_input_stream(self.key) as stream:
                return bytes(stream.read())
        except FileNotFoundError:
            raise FileNotFoundError(f"{self}: no such object") from None

    def read_text(self, encoding: str = "utf-8") -> str:
        """The object's content as text."""
        return self.read_bytes().decode(encoding)

    def write_bytes(self, data: bytes) -> int:
        """Store ``data`` as the object (one PUT: readers see the old or the new object, whole)."""
        with self.filesystem.open_output_stream(self.key) as stream:
            stream.write(data)
        return len(data)

    def write_text(self, text: str, encoding: str = "utf-8") -> int:
        """Store ``text`` as the object."""
        return self.write_bytes(text.encode(encoding))

    def open(self, mode: str = "rb") -> Any:
        """A binary input stream (only reading is supported)."""
        if mode != "rb":
            raise ValueError(f"{self}: ObjectPath.open supports only 'rb', got {mode!r}")
        return self.filesystem.open_input_stream(self.key)

    def unlink(self, missing_ok: bool = False) -> None:
        """Delete the object."""
        try:
            self.filesystem.delete_file(self.key)
        except FileNotFoundError:
            if not missing_ok:
                raise

    def mkdir(self, parents: bool = False, exist_ok: bool = False) -> None:
        """Nothing: an object store has no folders to make."""

    def _children(self, recursive: bool) -> list[pafs.FileInfo]:
        selector = pafs.FileSelector(self.key, allow_not_found=True, recursive=recursive)
        return list(self.filesystem.get_file_info(selector))

    def _from_info(self, info: pafs.FileInfo) -> ObjectPath:
        return ObjectPath(self.scheme, info.path, self.filesystem)

    def iterdir(self) -> Iterator[ObjectPath]:
        """The objects and prefixes directly under this prefix."""
        return (self._from_info(info) for info in self._children(recursive=False))

    def glob(self, pattern: str) -> Iterator[ObjectPath]:
        """Objects and prefixes directly under this prefix whose name matches ``pattern`` (``*.json``)."""
        return (self._from_info(info) for info in self._children(recursive=False)
                if fnmatch.fnmatchcase(info.base_name, pattern))

    def rglob(self, pattern: str) -> Iterator[ObjectPath]:
        """Objects anywhere under this prefix whose name matches ``pattern``."""
        return (self._from_info(info) for info in self._children(recursive=True)
                if info.type == pafs.FileType.File and fnmatch.fnmatchcase(info.base_name, pattern))

    def total_size(self) -> int:
        """Bytes of every object under this prefix."""
        return sum(int(info.size or 0) for info in self._children(recursive=True)
                   if info.type == pafs.FileType.File)

    def remove_tree(self) -> None:
        """Delete every object under this prefix."""
        if self.is_dir():
            self.filesystem.delete_dir_contents(self.key, missing_dir_ok=True)


ResultsPath = Path | ObjectPath
"""Where a results folder or file lives: local (``Path``) or in an object store (``ObjectPath``)."""


def results_path(where: str | os.PathLike[str] | ObjectPath) -> ResultsPath:
    """The ``ResultsPath`` of a local path, a ``file://`` URI or an ``s3://bucket/prefix`` URI.

    Raises ``ResultsLocationError`` (one line) for another scheme or an
    ``s3://`` URI without a bucket.
    """
    if isinstance(where, ObjectPath | Path):
        return where
    text = os.fspath(where)
    if not text.strip():
        # Path("") is the current folder: results would land wherever the command ran.
        raise ResultsLocationError("empty results location; expected a folder path or s3://bucket/prefix")
    scheme, separator, rest = text.partition("://")
    if not separator:
        return Path(text)
    scheme = scheme.lower()
    if scheme == "file":
        return Path(rest or "/")
    if scheme not in SUPPORTED_SCHEMES:
        raise ResultsLocationError(
            f"{_without_secrets(text)}: unsupported results location {scheme}://; "
            "expected a local folder, file:///path or s3://bucket/prefix")
    key = rest.split("?", 1)[0].strip("/")
    if not key or "@" in key.split("/", 1)[0]:
        raise ResultsLocationError(
            f"{_without_secrets(text)}: expected s3://bucket/prefix (credentials belong in AWS_* "
            "environment variables, not in the URI)")
    return ObjectPath(scheme, key, s3_filesystem())


def _without_secrets(text: str) -> str:
    """``text`` with any ``user:password@`` part of a URI masked, for messages."""
    scheme, separator, rest = text.partition("://")
    if separator and "@" in rest.split("/", 1)[0]:
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return text


def is_remote(path: ResultsPath) -> bool:
    """Whether ``path`` lives in an object store (no renames, no exclusive create, no local paths for DuckDB)."""
    return isinstance(path, ObjectPath)


def tree_size(path: ResultsPath) -> int:
    """Bytes of every file under ``path``."""
    if isinstance(path, ObjectPath):
        return path.total_size()
    total = 0
    for directory, _subfolders, files in os.walk(path):
        for name in files:
            try:
                total += (Path(directory) / name).stat().st_size
            except FileNotFoundError:
                continue  # a temporary file renamed away meanwhile
    return total


def remove_tree(path: ResultsPath) -> None:
    """Delete ``path`` and everything under it."""
    if isinstance(path, ObjectPath):
        path.remove_tree()
    else:
        import shutil

        shutil.rmtree(path)


def bucket_problem(path: ResultsPath) -> str | None:
    """Why results cannot be written under ``path`` (a missing bucket), or None."""
    if not isinstance(path, ObjectPath):
        return None
    bucket = path.key.split("/", 1)[0]
    try:
        info = path.filesystem.get_file_info(bucket)
    except OSError as error:
        return f"{path.scheme}://{bucket}: cannot reach the object store ({str(error).splitlines()[0]})"
    if info.type == pafs.FileType.NotFound:
        return f"{path.scheme}://{bucket}: no such bucket; create it first (e.g. `mc mb` or `aws s3 mb`)"
    return None


def writable_folder_problem(path: ResultsPath) -> str | None:
    """Why results cannot be written into the local folder ``path``, or None.

    ``path`` must be a folder (or not exist yet, under a folder) that this
    process can create files in. Checked by creating and removing a probe
    file in the nearest existing folder: permission bits say nothing to root,
    nor about read-only or immutable mounts. Nothing is left behind.
    Object-store prefixes are not checked here (``bucket_problem``).
    """
    if isinstance(path, ObjectPath):
        return None
    existing = path
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        return f"{existing}: is a file; expected a results folder (or a path where one can be created)"
    reason = _cannot_create_files_in(existing)
    if reason is not None:
        return f"{existing}: not writable ({reason}); expected a folder cardlab can write results into"
    return None


def file_to_write_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written as a file (a folder, a missing folder, a folder this
    process cannot create files in), or None; checked by a probe file, as for results folders."""
    if path.is_dir():
        return "is a folder; expected a file to write"
    if not path.parent.is_dir():
        return f"the folder {path.parent} does not exist"
    reason = _cannot_create_files_in(path.parent)
    return None if reason is None else f"cannot write ({reason})"


def _cannot_create_files_in(folder: Path) -> str | None:
    """Why this process cannot create a file in ``folder`` (the error's text), or None. A probe
    file, made and removed: permission bits say nothing to root, nor about read-only or
    immutable mounts or /proc."""
    try:
        descriptor, probe = tempfile.mkstemp(prefix=".cardlab-probe-", dir=folder)
    except OSError as error:
        return error.strerror or str(error)
    os.close(descriptor)
    os.unlink(probe)
    return None


def sorted_glob(folder: ResultsPath, pattern: str) -> list[ResultsPath]:
    """The entries directly in ``folder`` whose name matches ``pattern``, sorted by path."""
    found: list[ResultsPath] = [path for path in folder.glob(pattern)]
    return sorted(found, key=str)


OBJECT_READ_THREADS = 16
"""Object-store reads in flight at once in ``read_many`` (each read is a network round trip)."""


def _read_or_error(path: ResultsPath) -> bytes | OSError:
    try:
        return path.read_bytes()
    except OSError as error:
        return error


def read_many(paths: Sequence[ResultsPath]) -> list[bytes | OSError]:
    """The contents of ``paths`` in order, an ``OSError`` in place of one that cannot be read.

    Object-store reads run concurrently: reading a thousand manifest entries
    one round trip after the other would take many seconds.
    """
    if not any(isinstance(path, ObjectPath) for path in paths):
        return [_read_or_error(path) for path in paths]
    with ThreadPoolExecutor(max_workers=OBJECT_READ_THREADS) as pool:
        return list(pool.map(_read_or_error, paths))
