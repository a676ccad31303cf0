"""The import refuses a compiled module built from other sources than the ones
beside it, compared by content (``simcore.stale_compiled_modules``) against
what the build recorded (``bench/compile_core.py``'s ``record_compiled_sources``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from simcore import COMPILED_SOURCES, stale_compiled_modules
from tests.compiling.test_compile_cache import compile_core, make_project

EXTENSION = ".cpython-311-x86_64-linux-gnu.so"


def built_project(root: Path) -> Path:
    """The tiny tree of the cache tests with a stand-in extension beside its
    compiled module, recorded as a finished build records it."""
    paths = make_project(root)
    (root / "simcore" / ("rules" + EXTENSION)).write_bytes(b"stand-in for a compiled module")
    compile_core.record_compiled_sources(root, paths)
    return root / "simcore"


def test_the_build_records_each_compiled_source_under_the_name_the_import_reads(tmp_path: Path) -> None:
    package = built_project(tmp_path)
    assert f"simcore/{COMPILED_SOURCES}" == compile_core.COMPILED_SOURCES
    line = (package / COMPILED_SOURCES).read_text().strip()
    digest, _, name = line.partition("  ")
    assert name == "simcore/rules.py" and len(digest) == 64
    assert stale_compiled_modules(package) == []


def test_an_edited_source_is_stale_even_when_its_file_time_is_older_than_the_build(tmp_path: Path) -> None:
    package = built_project(tmp_path)
    source = package / "rules.py"
    source.write_text("def score() -> int:\n    return 2\n")
    before = (package / ("rules" + EXTENSION)).stat().st_mtime - 3600
    os.utime(source, (before, before))  # as a file restored with its old time
    assert stale_compiled_modules(package) == [str(source)]


def test_the_same_text_checked_out_again_is_not_stale_and_a_missing_record_is(tmp_path: Path) -> None:
    package = built_project(tmp_path)
    source = package / "rules.py"
    source.write_text(source.read_text())  # a checkout: new time, same text
    assert stale_compiled_modules(package) == []
    (package / COMPILED_SOURCES).unlink()  # built by a build that recorded nothing
    assert stale_compiled_modules(package) == [str(source)]


def test_importing_a_stale_compiled_core_fails_in_one_line_naming_the_source_and_the_fix(tmp_path: Path) -> None:
    package = built_project(tmp_path)
    (package / "__init__.py").write_text((Path(__file__).parents[2] / "simcore" / "__init__.py").read_text())
    (package / "rules.py").write_text("def score() -> int:\n    return 3\n")
    result = subprocess.run([sys.executable, "-c", "import simcore"], cwd=tmp_path, capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last == (f"ImportError: compiled rules core was not built from the sources of {package / 'rules.py'} "
                    "(edited since); run `make compile` (or `make clean` to run interpreted)")
