"""The examples of the README and the guides, read with Sybil and run as written.

Three kinds of fenced block are examples (docs/development/docs.md says how to
write them):

- ``console``: a terminal session. Each ``$ `` line is a command (a line ending
  in ``\\`` goes on on the next), run by ``bash`` in the examples' workspace; the
  lines under it are its expected output, stdout and stderr together, where
  ``...`` stands for any text and runs of spaces and line breaks count as one.
  The command must exit with code 0, unless ``<!-- docs-test: exit N -->``
  stands right before the block. With ``<!-- docs-test: server -->`` the
  command is a server: it is started, its output is read until it shows the
  expected lines, then it is stopped.
- ``python``: code, run; or a doctest session (``>>>``), whose printed output is
  compared with the text (``...`` and whitespace as above).
- ``toml`` after ``<!-- docs-test: write FILE -->``: the block is written to FILE;
  after ``<!-- docs-test: edit FILE -->``: FILE (copied by an earlier example)
  is edited as the text tells a reader to: each ``key = value`` of the block
  replaces that key's line, and the block's tables replace every table of FILE
  under the same first name (``[variants.x]`` replaces all ``[variants.*]``).

``<!-- skip: next "reason" -->`` (Sybil's own) leaves the next example out, with
the reason in the test report. Every example of a document shares one
workspace (a temporary folder with ``experiments/`` linked in and its own
``results/``, also ``$CARDLAB_RESULTS``), in document order, so a guide can use
the experiment the README played.
"""

from __future__ import annotations

import doctest
import os
import re
import selectors
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sybil import Document, Example, Region, Sybil
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser
from sybil.parsers.markdown.lexers import FencedCodeBlockLexer

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = (REPO / "README.md", REPO / "docs" / "guides" / "designer.md",
             REPO / "docs" / "guides" / "balance-team.md", REPO / "docs" / "guides" / "analyst.md")
"""The documents whose every shell and Python example runs, in the order they run."""

WORKSPACE = "__docs_workspace__"
"""The key of the ``Workspace`` in each document's namespace."""

MATCHING = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
COMMAND_TIMEOUT = 600.0
SERVER_TIMEOUT = 60.0
DIRECTIVE = re.compile(r"<!-- docs-test: (?P<words>[^>]*?) -->\s*\Z")
TOP_LEVEL_KEY = re.compile(r'^(?P<key>[A-Za-z0-9_-]+|"[^"]+")\s*=')
TABLE_HEADER = re.compile(r"^\[\[?\s*(?P<name>[^\].]+)")


@dataclass(frozen=True)
class Workspace:
    """Where the examples run: ``folder`` is their working folder, ``env`` their environment."""

    folder: Path
    env: dict[str, str]


def make_workspace(folder: Path) -> Workspace:
    """A working folder with the repository's ``experiments/`` linked in, and an environment in which
    ``cardlab`` is this checkout's and results go to ``folder/results`` (never a cluster)."""
    (folder / "experiments").symlink_to(REPO / "experiments", target_is_directory=True)
    env = {name: value for name, value in os.environ.items() if name not in ("RAY_ADDRESS", "CARDLAB_RESULTS")}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
               CARDLAB_RESULTS=str(folder / "results"), PYTHONUNBUFFERED="1", COLUMNS="100")
    return Workspace(folder, env)


@dataclass(frozen=True)
class Command:
    """One ``$`` line of a console block (continuations joined) and the output the text shows under it."""

    text: str
    expected: str


@dataclass(frozen=True)
class Session:
    """A console block: its commands, the exit code they must end with, whether it is a server."""

    commands: tuple[Command, ...]
    exit_code: int = 0
    server: bool = False


def directive_before(document: Document, start: int) -> list[str]:
    """The words of a ``<!-- docs-test: ... -->`` comment right before the block at ``start``, else []."""
    found = DIRECTIVE.search(document.text[max(0, start - 300):start])
    return found.group("words").split() if found else []


def parse_session(source: str, words: list[str]) -> Session:
    """A console block's text as commands and their expected output."""
    commands: list[Command] = []
    command: list[str] = []
    output: list[str] = []
    for line in source.splitlines():
        if line.startswith("$ ") and not (command and command[-1].endswith("\\")):
            if command:
                commands.append(Command("\n".join(command), "\n".join(output)))
            command, output = [line[2:]], []
        elif command and command[-1].endswith("\\") and not output:
            command.append(line)
        else:
            output.append(line)
    if command:
        commands.append(Command("\n".join(command), "\n".join(output)))
    if not commands:
        raise ValueError(f"a console block without a `$ ` command: {source!r}")
    exit_code = int(words[1]) if words[:1] == ["exit"] else 0
    return Session(tuple(commands), exit_code=exit_code, server=words[:1] == ["server"])


def output_differs(expected: str, got: str) -> str | None:
    """None when ``got`` matches ``expected`` (``...``, whitespace), else what differs."""
    checker = doctest.OutputChecker()
    want = expected + "\n" if expected else ""
    if checker.check_output(want, got, MATCHING):
        return None
    return checker.output_difference(doctest.Example("", want), got, MATCHING)


def run_command(command: Command, workspace: Workspace) -> tuple[int, str]:
    """Run ``command`` to its end; its exit code and output (stdout and stderr, as a terminal shows them)."""
    done = subprocess.run(["bash", "-c", command.text], cwd=workspace.folder, env=workspace.env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT,
                          stdin=subprocess.DEVNULL, check=False)
    return done.returncode, done.stdout


def run_server(command: Command, workspace: Workspace) -> str:
    """Start ``command``, read its output until it shows the expected lines (or it ends, or
    ``SERVER_TIMEOUT``), stop it and what it started; the output read."""
    server = subprocess.Popen(["bash", "-c", command.text], cwd=workspace.folder, env=workspace.env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                              start_new_session=True)
    assert server.stdout is not None
    shown = b""
    deadline = time.monotonic() + SERVER_TIMEOUT
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(server.stdout, selectors.EVENT_READ)
            while time.monotonic() < deadline:
                if not selector.select(timeout=0.2):
                    continue
                chunk = os.read(server.stdout.fileno(), 65536)
                if not chunk:
                    break
                shown += chunk
                if output_differs(command.expected.rstrip() + "...", shown.decode(errors="replace")) is None:
                    break
    finally:
        try:
            os.killpg(server.pid, signal.SIGTERM)  # the session this command started, and only it
            server.wait(timeout=20)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        server.stdout.close()
    return shown.decode(errors="replace")


def evaluate_session(example: Example) -> str | None:
    """Run each command of a console block; what went wrong, or None."""
    session: Session = example.parsed
    workspace: Workspace = example.namespace[WORKSPACE]
    for command in session.commands:
        if session.server:
            code, output = session.exit_code, run_server(command, workspace)
            expected = command.expected.rstrip() + "..."
        else:
            code, output = run_command(command, workspace)
            expected = command.expected
        if code != session.exit_code:
            return f"$ {command.text}\nexited with code {code}, the text expects {session.exit_code}:\n{output}"
        difference = output_differs(expected, output)
        if difference is not None:
            return f"$ {command.text}\nprinted what the text does not show:\n{difference}"
    return None


def parse_console(document: Document) -> Iterable[Region]:
    """The ``console`` blocks of ``document`` as sessions to run."""
    for lexed in FencedCodeBlockLexer("console")(document):
        session = parse_session(str(lexed.lexemes["source"]), directive_before(document, lexed.start))
        yield Region(lexed.start, lexed.end, session, evaluate_session)


def edit_toml(text: str, fragment: str) -> str:
    """``text`` with ``fragment``'s top-level keys replacing the same keys' lines and ``fragment``'s
    tables replacing every table of ``text`` under the same first name (see the module docstring)."""
    fragment_lines = fragment.splitlines()
    first_table = next((index for index, line in enumerate(fragment_lines) if TABLE_HEADER.match(line)),
                       len(fragment_lines))
    lines = text.splitlines()
    for line in fragment_lines[:first_table]:
        key = TOP_LEVEL_KEY.match(line)
        if key is None:
            continue
        matching = [index for index, old in enumerate(lines) if (found := TOP_LEVEL_KEY.match(old))
                    and found.group("key") == key.group("key")]
        if not matching:
            raise ValueError(f"the text changes {key.group('key')!r}, which the file does not have")
        lines[matching[0]] = line
    replaced = {found.group("name").strip() for line in fragment_lines[first_table:]
                if (found := TABLE_HEADER.match(line))}
    kept: list[str] = []
    dropping = False
    for line in lines:
        header = TABLE_HEADER.match(line)
        if header:
            dropping = header.group("name").strip() in replaced
        if not dropping:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    edited = "\n".join([*kept, "", *fragment_lines[first_table:]]) + "\n"
    tomllib.loads(edited)  # what the reader ends up with is a TOML file
    return edited


def evaluate_file_block(example: Example) -> None:
    """Write or edit the file a ``toml`` block names."""
    action, name, source = example.parsed
    workspace: Workspace = example.namespace[WORKSPACE]
    target = workspace.folder / name
    if action == "write":
        tomllib.loads(source)
        target.write_text(source)
    else:
        target.write_text(edit_toml(target.read_text(), source))


def parse_file_blocks(document: Document) -> Iterable[Region]:
    """The ``toml`` blocks of ``document`` that a directive says to write to, or edit into, a file."""
    for lexed in FencedCodeBlockLexer("toml")(document):
        words = directive_before(document, lexed.start)
        if words[:1] in (["write"], ["edit"]) and len(words) == 2:
            yield Region(lexed.start, lexed.end, (words[0], words[1], str(lexed.lexemes["source"])),
                         evaluate_file_block)


SYBIL = Sybil(parsers=[SkipParser(), parse_console, parse_file_blocks,
                       PythonCodeBlockParser(doctest_optionflags=MATCHING)])


def documents() -> list[Document]:
    """Every document of ``DOCUMENTS``, parsed."""
    return [SYBIL.parse(path) for path in DOCUMENTS]
