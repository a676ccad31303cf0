"""The documentation site and the README stay in step with the code: the site builds in strict
mode with every command of the CLI's parser on its reference page, the README's command table
lists every command, every shell and Python block of the README and the guides is run by
``test_examples.py`` (or says why not), and every TOML block is TOML, a whole experiment file
one that cardlab reads."""

from __future__ import annotations

import argparse
import html
import importlib.util
import logging
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from analytics.views import METRIC_VIEW_CONTRACTS
from cardlab.cli import build_parser
from dataset.count_views import COUNT_VIEW_CONTRACTS
from experiments.spec import parse_spec
from experiments.tuning import parse_tuning_spec
from tests.docs.examples import DIRECTIVE, DOCUMENTS, REPO, SYBIL

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+)(?P<language>[\w-]*)[^\n]*\n"
                   r"(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)
SHELL_OR_PYTHON = {"console", "sh", "bash", "shell", "zsh", "shell-session", "python", "py", "pycon", "python3"}
RUN = {"console", "python"}
"""The languages ``tests/docs/examples.py`` runs; other shell or Python blocks would be examples nobody runs."""


def load_hook() -> ModuleType:
    """``docs/hooks/cli_reference.py``, the MkDocs hook (not a package: loaded from its path)."""
    spec = importlib.util.spec_from_file_location("cli_reference", REPO / "docs" / "hooks" / "cli_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parser_commands() -> dict[str, argparse.ArgumentParser]:
    """The CLI's subcommands and their parsers, read from argparse here, not through the hook under test."""
    found = [action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction)]
    assert len(found) == 1
    return dict(found[0].choices)


def fenced_blocks(path: Path) -> list[tuple[str, int, int, str]]:
    """Each fenced block of ``path``: its language, where it starts and ends (characters), its text."""
    text = path.read_text()
    return [(found.group("language"), found.start(), found.end(), found.group("body"))
            for found in FENCE.finditer(text)]


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built with ``mkdocs build --strict`` into a temporary folder (its result checked here)."""
    site = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=REPO, capture_output=True, text=True, check=False,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    return site


def test_the_site_builds_in_strict_mode(built_site: Path) -> None:
    assert (built_site / "index.html").is_file()
    assert (built_site / "guides" / "analyst" / "index.html").is_file()


def test_the_command_reference_lists_every_command_and_option_of_the_parser(built_site: Path) -> None:
    page = (built_site / "reference" / "commands" / "index.html").read_text()
    code = {html.unescape(re.sub(r"<[^>]+>", "", text)) for text in re.findall(r"<code>(.*?)</code>", page, re.S)}
    missing = []
    for name, sub in parser_commands().items():
        if f'id="cardlab-{name}"' not in page:
            missing.append(f"the section of `cardlab {name}`")
        for action in sub._actions:
            if "--help" in action.option_strings:
                continue
            written = action.option_strings[0] if action.option_strings else str(action.metavar or action.dest)
            if not any(text == written or text.startswith(written + " ") or text.startswith(written + ",")
                       for text in code):
                missing.append(f"`cardlab {name}` {written}")
    assert missing == []
    assert "cli-reference" not in page  # the marker was replaced


def test_the_views_reference_lists_every_view_and_column(built_site: Path) -> None:
    page = (built_site / "reference" / "views" / "index.html").read_text()
    code = {html.unescape(re.sub(r"<[^>]+>", "", text)) for text in re.findall(r"<code>(.*?)</code>", page, re.S)}
    contracts = {**COUNT_VIEW_CONTRACTS, **METRIC_VIEW_CONTRACTS}
    missing = [f"{name}.{column.name}" for name, contract in contracts.items()
               for column in contract.columns if column.name not in code]
    missing += [name for name in contracts if name not in code]
    assert not missing, f"not on the views reference page: {', '.join(missing[:20])}"


def test_a_command_without_a_help_text_fails_the_strict_build(caplog: pytest.LogCaptureFixture) -> None:
    parser = argparse.ArgumentParser(prog="cardlab")
    commands = parser.add_subparsers()
    commands.add_parser("run", help="play an experiment")
    commands.add_parser("mystery")
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        reference = load_hook().render_reference(parser)
    assert "## cardlab mystery" in reference
    assert [record.getMessage() for record in caplog.records] == [
        "cli_reference: `cardlab mystery` has no help text: say what it does in cardlab/cli.py"]


def test_the_reference_shows_choices_and_defaults_but_never_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDLAB_RESULTS", "/somewhere/private")
    reference = load_hook().render_reference(build_parser())
    assert "/somewhere/private" not in reference
    assert "| `--format {table,csv,json}` | One of: table, csv, json. Default: table. |" in reference
    assert "| `--port PORT` | Default: 8501. |" in reference


def test_the_readme_command_table_lists_every_command() -> None:
    readme = (REPO / "README.md").read_text()
    listed = re.findall(r"^\| `cardlab ([\w-]+)", readme, re.MULTILINE)
    assert sorted(listed) == sorted(parser_commands())


@pytest.mark.parametrize("path", DOCUMENTS, ids=[str(path.relative_to(REPO)) for path in DOCUMENTS])
def test_every_shell_and_python_block_is_run_or_says_why_not(path: Path) -> None:
    starts = [example.start for example in SYBIL.parse(path)]
    unrun = [f"line {path.read_text().count(chr(10), 0, start) + 1}: ```{language}"
             for language, start, end, _ in fenced_blocks(path)
             if language in SHELL_OR_PYTHON and (language not in RUN or not any(start <= s < end for s in starts))]
    assert unrun == []


def markdown_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


@pytest.mark.parametrize("path", markdown_files(), ids=lambda path: str(path.relative_to(REPO)))
def test_every_toml_block_is_toml_and_every_whole_file_is_read_by_cardlab(path: Path) -> None:
    text = path.read_text()
    for language, start, _, body in fenced_blocks(path):
        if language != "toml":
            continue
        raw = tomllib.loads(body)
        written_by_an_example = DIRECTIVE.search(text[max(0, start - 300):start]) is not None  # run there
        if {"name", "game"} <= raw.keys() and not written_by_an_example:
            if "space" in raw:
                parse_tuning_spec(raw, str(path))
            else:
                parse_spec(raw, str(path))
