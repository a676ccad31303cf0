"""The compiled core's build cache (``bench/compile_core.py``): a build is reused
only for exactly the sources, levels and tools it was made from."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "compile_core.py"


def load_compile_core() -> ModuleType:
    """bench/ is not a package: load the script as a module."""
    spec = importlib.util.spec_from_file_location("compile_core", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["compile_core"] = module
    spec.loader.exec_module(module)
    return module


compile_core = load_compile_core()


def make_project(root: Path) -> list[str]:
    """A tiny simcore tree: one compiled module, one interpreted module it uses."""
    (root / "simcore").mkdir(parents=True)
    (root / "simcore" / "rules.py").write_text("def score() -> int:\n    return 1\n")
    (root / "simcore" / "parameters.py").write_text("LIMIT = 3\n")
    return ["simcore/rules.py"]


def test_the_fingerprint_is_the_same_for_the_same_sources_and_levels(tmp_path: Path) -> None:
    paths = make_project(tmp_path / "one")
    make_project(tmp_path / "two")
    assert (compile_core.build_fingerprint(tmp_path / "one", paths, "1", "0")
            == compile_core.build_fingerprint(tmp_path / "two", paths, "1", "0"))


@pytest.mark.parametrize("change", ["compiled source", "interpreted source", "opt level", "debug level"])
def test_the_fingerprint_changes_with_anything_the_c_code_depends_on(tmp_path: Path, change: str) -> None:
    paths = make_project(tmp_path)
    before = compile_core.build_fingerprint(tmp_path, paths, "1", "0")
    opt_level, debug_level = "1", "0"
    if change == "compiled source":
        (tmp_path / "simcore" / "rules.py").write_text("def score() -> int:\n    return 2\n")
    elif change == "interpreted source":
        (tmp_path / "simcore" / "parameters.py").write_text("LIMIT = 4\n")
    elif change == "opt level":
        opt_level = "3"
    else:
        debug_level = "1"
    assert compile_core.build_fingerprint(tmp_path, paths, opt_level, debug_level) != before


def test_a_stored_build_is_restored_file_for_file(tmp_path: Path) -> None:
    built = ["simcore/rules.cpython-311-x86_64-linux-gnu.so", "abc__mypyc.cpython-311-x86_64-linux-gnu.so"]
    source, target, entry = tmp_path / "source", tmp_path / "target", tmp_path / "cache" / "fingerprint"
    for root in (source, target):
        (root / "simcore").mkdir(parents=True)
    for number, relative in enumerate(built):
        (source / relative).write_bytes(bytes([number]) * 10)
    compile_core.store_in_cache(entry, source, built)
    assert compile_core.restore_from_cache(entry, target)
    assert [(target / relative).read_bytes() for relative in built] == [bytes([0]) * 10, bytes([1]) * 10]


def test_a_missing_or_half_written_entry_is_not_a_build(tmp_path: Path) -> None:
    entry = tmp_path / "cache" / "fingerprint"
    assert not compile_core.restore_from_cache(entry, tmp_path)
    entry.mkdir(parents=True)  # a folder without its files.txt: an interrupted copy
    assert not compile_core.restore_from_cache(entry, tmp_path)


def test_the_cache_can_be_turned_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDLAB_COMPILE_CACHE", "off")
    assert compile_core.cache_folder() is None
    monkeypatch.setenv("CARDLAB_COMPILE_CACHE", str(tmp_path))
    assert compile_core.cache_folder() == tmp_path
