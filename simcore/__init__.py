"""simcore: the seeded rules core of cardlab.

Pure Python, no I/O and no Ray. Games implement ``simcore.api``;
``simcore.registry`` finds them by id; ``simcore.play`` plays one game with
agents. ``make compile`` compiles the hot modules with mypyc into extension
files beside their sources; the check below refuses to run a compiled module
built from other sources than the ones beside it (compared by content), so an
edit is never silently ignored.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

COMPILED_SOURCES = "compiled-sources.sha256"
"""The file, beside this package, in which ``make compile`` records the SHA-256
of each compiled module's source (``sha256sum``'s format, paths from the
project root)."""


def stale_compiled_modules(package: Path) -> list[str]:
    """Compiled modules of ``package`` whose source is not the one they were
    compiled from: compared by content against ``COMPILED_SOURCES``, so an
    edit is found whatever the files' times say (a file restored with an old
    time, a checkout), and a checkout of the same text is not one."""
    recorded: dict[str, str] = {}
    record = package / COMPILED_SOURCES
    if record.is_file():
        for line in record.read_text().splitlines():
            digest, _, name = line.partition("  ")
            recorded[name] = digest
    stale = []
    for extension in sorted(package.rglob("*.so")):
        source = extension.with_name(extension.name.split(".")[0] + ".py")
        if not source.exists():
            continue
        name = source.relative_to(package.parent).as_posix()
        if recorded.get(name) != hashlib.sha256(source.read_bytes()).hexdigest():
            stale.append(str(source))
    return stale


_STALE = stale_compiled_modules(Path(__file__).parent)
if _STALE:
    raise ImportError(
        f"compiled rules core was not built from the sources of {', '.join(_STALE)} "
        "(edited since); run `make compile` (or `make clean` to run interpreted)"
    )
