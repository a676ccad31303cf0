"""Compile the rules core with mypyc, its C files in parallel (``make compile``).

``mypyc FILES`` (what the Makefile ran before) writes one C file for every
module and hands it to one C compiler process: on a 2-core machine one core
waits for minutes. Here mypyc writes one C file per module
(``multi_file=True``) and the C compiler runs on all of them at once, one
process per core (``CARDLAB_BUILD_JOBS``, default: all cores). The
optimisation and debug levels come from ``MYPYC_OPT_LEVEL`` and
``MYPYC_DEBUG_LEVEL`` as for ``mypyc`` itself; the README's development
section has the measured build times and engine rates of each choice.

A finished build is kept in a cache folder outside the checkout
(``CARDLAB_COMPILE_CACHE``, default ``$XDG_CACHE_HOME/cardlab/compiled``, that is
``~/.cache/cardlab/compiled`` when it is not set), under a
fingerprint of everything the C code depends on: every ``.py`` file of
``simcore/`` (the compiled modules and the interpreted ones whose types they
use), this script, the levels, the Python and mypyc versions. A second clone
or a ``git checkout`` back to the same sources copies the ``.so`` files from
there in a second instead of compiling for a minute or more;
``CARDLAB_COMPILE_CACHE=off`` always compiles.

Usage: python bench/compile_core.py simcore/api.py simcore/rng.py ...
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import sys
import sysconfig
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _compile_in_parallel(jobs: int) -> None:
    """Make setuptools' C compiler build the object files of an extension side by side
    (it compiles them one after another, even with ``build_ext --parallel``)."""
    from setuptools._distutils import ccompiler

    def compile_objects(self: Any, sources: list[str], output_dir: str | None = None, macros: Any = None,
                        include_dirs: Any = None, debug: bool = False, extra_preargs: Any = None,
                        extra_postargs: Any = None, depends: Any = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def compile_one(obj: str) -> None:
            source, extension = build[obj]
            self._compile(obj, source, extension, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(compile_one, objects))  # list(): raise the first compiler error
        return list(objects)

    ccompiler.CCompiler.compile = compile_objects  # type: ignore[method-assign,assignment]


def build_fingerprint(root: Path, paths: list[str], opt_level: str, debug_level: str) -> str:
    """A hash of everything the compiled core's C code depends on (see the module docstring)."""
    import mypy.version

    digest = hashlib.sha256()
    sources = sorted({*(root / path for path in paths), *(root / "simcore").rglob("*.py")})
    for source in sources:
        digest.update(str(source.relative_to(root)).encode() + b"\0" + source.read_bytes() + b"\0")
    digest.update(Path(__file__).read_bytes())
    digest.update(f"{paths}|{opt_level}|{debug_level}|{sys.version}|{platform.machine()}|"
                  f"{mypy.version.__version__}".encode())
    return digest.hexdigest()[:32]


def cache_folder() -> Path | None:
    """Where finished builds are kept, or None when ``CARDLAB_COMPILE_CACHE=off``."""
    setting = os.environ.get("CARDLAB_COMPILE_CACHE", "")
    if setting == "off":
        return None
    if setting:
        return Path(setting).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardlab" / "compiled"


def restore_from_cache(entry: Path, root: Path) -> bool:
    """Copy a cached build's ``.so`` files into the checkout at ``root``; False when there is none."""
    listing = entry / "files.txt"
    if not listing.is_file():
        return False
    for relative in listing.read_text().split():
        shutil.copy2(entry / relative, root / relative)
    return True


def store_in_cache(entry: Path, root: Path, built: list[str]) -> None:
    """Keep this build's ``.so`` files under ``entry``, written whole or not at all."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=entry.parent))
    for relative in built:
        (staging / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / relative, staging / relative)
    (staging / "files.txt").write_text("\n".join(built) + "\n")
    try:
        staging.rename(entry)
    except OSError:  # another build stored the same fingerprint first
        shutil.rmtree(staging, ignore_errors=True)


COMPILED_SOURCES = "simcore/compiled-sources.sha256"
"""Where a finished build records each compiled source's SHA-256 (the file
``simcore.COMPILED_SOURCES`` names; simcore's import compares the sources
beside the ``.so`` files with it). Named here too: importing simcore to read
the name would run that very check."""


def record_compiled_sources(root: Path, paths: list[str]) -> None:
    """Write ``COMPILED_SOURCES`` for the sources at ``paths`` (``sha256sum``'s format)."""
    lines = [f"{hashlib.sha256((root / path).read_bytes()).hexdigest()}  {Path(path).as_posix()}"
             for path in sorted(paths)]
    (root / COMPILED_SOURCES).write_text("\n".join(lines) + "\n")


def main(paths: list[str]) -> int:
    """Compile ``paths`` in place (the ``.so`` files land beside the sources), or copy the cached build."""
    opt_level = os.environ.get("MYPYC_OPT_LEVEL", "3")
    debug_level = os.environ.get("MYPYC_DEBUG_LEVEL", "1")
    cache = cache_folder()
    entry = cache / build_fingerprint(PROJECT_ROOT, paths, opt_level, debug_level) if cache else None
    if entry is not None and restore_from_cache(entry, PROJECT_ROOT):
        record_compiled_sources(PROJECT_ROOT, paths)
        print(f"compiled core restored from the build cache {entry}")
        return 0

    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[attr-defined]

    jobs = int(os.environ.get("CARDLAB_BUILD_JOBS") or os.cpu_count() or 1)
    _compile_in_parallel(jobs)
    # mypyc's type check keeps its own cache: `make test` runs this build beside
    # `mypy` (make -j2), and both writing one .mypy_cache made mypy crash with an
    # INTERNAL ERROR once in a fresh-clone rehearsal.
    mypy_cache = ["--cache-dir", str(PROJECT_ROOT / "build" / "mypyc-cache")]
    extensions = mypycify([*mypy_cache, *paths], opt_level=opt_level, debug_level=debug_level, multi_file=True)
    setup(name="cardlab_compiled_core", ext_modules=extensions, script_args=["build_ext", "--inplace"])
    record_compiled_sources(PROJECT_ROOT, paths)
    if entry is not None:
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        store_in_cache(entry, PROJECT_ROOT, [extension.name.replace(".", "/") + suffix for extension in extensions])
        print(f"compiled core built and kept in the build cache {entry}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
