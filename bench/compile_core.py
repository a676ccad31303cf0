"""Compile the rules core with mypyc, its C files in parallel (``make compile``).

``mypyc FILES`` (what the Makefile ran before) writes one C file for every
module and hands it to one C compiler process: on a 2-core machine one core
waits for minutes. Here mypyc writes one C file per module
(``multi_file=True``) and the C compiler runs on all of them at once, one
process per core (``CARDLAB_BUILD_JOBS``, default: all cores). The
optimisation and debug levels come from ``MYPYC_OPT_LEVEL`` and
``MYPYC_DEBUG_LEVEL`` as for ``mypyc`` itself; the README's development
section has the measured build times and engine rates of each choice.

Usage: python bench/compile_core.py simcore/api.py simcore/rng.py ...
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any


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


def main(paths: list[str]) -> int:
    """Compile ``paths`` in place (the ``.so`` files land beside the sources)."""
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[attr-defined]

    jobs = int(os.environ.get("CARDLAB_BUILD_JOBS") or os.cpu_count() or 1)
    _compile_in_parallel(jobs)
    extensions = mypycify(paths, opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
                          debug_level=os.environ.get("MYPYC_DEBUG_LEVEL", "1"), multi_file=True)
    setup(name="cardlab_compiled_core", ext_modules=extensions, script_args=["build_ext", "--inplace"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
