"""simcore: the seeded rules core of cardlab.

Pure Python, no I/O and no Ray. Games implement ``simcore.api``;
``simcore.registry`` finds them by id; ``simcore.play`` plays one game with
agents. ``make compile`` compiles the hot modules with mypyc into extension
files beside their sources; the check below refuses to run a compiled module
older than its source, so an edit is never silently ignored.
"""

from __future__ import annotations

from pathlib import Path


def _stale_compiled_modules() -> list[str]:
    """Sources edited after their compiled extension was built."""
    stale = []
    for extension in Path(__file__).parent.rglob("*.so"):
        source = extension.with_name(extension.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > extension.stat().st_mtime:
            stale.append(str(source))
    return stale


_STALE = _stale_compiled_modules()
if _STALE:
    raise ImportError(
        f"compiled rules core is older than {', '.join(_STALE)}; run `make compile` "
        "(or `make clean` to run interpreted)"
    )
