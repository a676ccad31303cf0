"""MkDocs hook: the command reference, generated from cardlab's own argparse parser.

The page ``reference/commands.md`` holds the line ``<!-- cli-reference -->``;
at build time this hook replaces it with one section per subcommand of
``cardlab.cli.build_parser()``: its usage line, what it does, and a table of
its arguments with their help texts. Nothing is written by hand, so a command
or option added to the parser appears without editing the docs
(``tests/docs/test_site.py`` checks the built page against the parser).

A subcommand without a help text would get an empty section: the hook logs a
warning for it, which fails ``mkdocs build --strict`` (``make docs``, ``make test``).
"""

from __future__ import annotations

import argparse
import html
import logging
import re
from typing import Any

MARKER = "<!-- cli-reference -->"
"""The line of ``reference/commands.md`` that the generated reference replaces."""
MARKER_LINE = re.compile(rf"^{re.escape(MARKER)}$", re.MULTILINE)
"""The marker alone on its line: quoted in a sentence (as the docs about this hook do) it stays text."""

USAGE_WIDTH = 80
"""Columns of the usage lines: fixed, so that the page does not depend on the terminal of the build."""

log = logging.getLogger("mkdocs.hooks.cli_reference")


def subcommands(parser: argparse.ArgumentParser) -> dict[str, tuple[str, argparse.ArgumentParser]]:
    """Each subcommand of ``parser``: its name -> (its one-line help, its parser), in the parser's order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            return {name: (helps.get(name, ""), sub) for name, sub in action.choices.items()}
    return {}


def documented_arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The arguments a user gives (``--help`` left out), in the parser's order."""
    return [action for action in parser._actions if not isinstance(action, argparse._HelpAction)]


def argument_name(action: argparse.Action) -> str:
    """How the argument is written: ``--games N``, ``--resume``, ``spec``, ``--format {text,json}``."""
    if not action.option_strings:
        return str(action.metavar or action.dest)
    names = ", ".join(action.option_strings)
    if action.nargs == 0:  # a flag: store_true and the like
        return names
    if action.metavar is not None:
        value = str(action.metavar)
    elif action.choices is not None:
        value = "{" + ",".join(str(choice) for choice in action.choices) + "}"
    else:
        value = action.dest.upper()
    return f"{names} {value}"


def argument_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help text as ``--help`` prints it (``%%`` expanded), with the choices and, when the
    help says nothing, the default. Never the value of ``$CARDLAB_RESULTS`` at build time: a
    default that comes from the environment is described by its help text."""
    formatter = parser._get_formatter()
    text = formatter._expand_help(action) if action.help else ""
    if action.choices is not None and action.option_strings:
        text = f"{text} One of: {', '.join(str(choice) for choice in action.choices)}.".strip()
    if not action.help and action.default not in (None, False, argparse.SUPPRESS):
        text = f"{text} Default: {action.default}.".strip()
    return text


def usage(parser: argparse.ArgumentParser) -> str:
    """The usage line(s) of ``parser`` at ``USAGE_WIDTH`` columns."""
    formatter = argparse.HelpFormatter(parser.prog, width=USAGE_WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _cell(text: str) -> str:
    """``text`` safe in a Markdown table cell: no HTML read into it, no column break."""
    return html.escape(text, quote=False).replace("|", "\\|").replace("\n", " ")


def render_reference(parser: argparse.ArgumentParser) -> str:
    """The Markdown of every subcommand of ``parser``, each followed by its own subcommands
    (``cardlab ray start``...)."""
    sections = []
    for name, (summary, sub) in subcommands(parser).items():
        if not summary:
            log.warning("cli_reference: `%s %s` has no help text: say what it does in cardlab/cli.py",
                        parser.prog, name)
        lines = [f"## {parser.prog} {name}", "", _cell(summary[:1].upper() + summary[1:]).rstrip(".") + "."]
        if sub.description:
            lines += ["", _cell(sub.description)]
        lines += ["", "```text", usage(sub), "```", "", "| argument | what it does |", "|---|---|"]
        for action in documented_arguments(sub):
            lines.append(f"| `{argument_name(action)}` | {_cell(argument_help(sub, action))} |")
        sections.append("\n".join(lines))
        if subcommands(sub):
            sections.append(render_reference(sub).rstrip("\n"))
    return "\n\n".join(sections) + "\n"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any, **kwargs: Any) -> str:
    """MkDocs event: replace ``MARKER`` with the generated reference on the page that holds it."""
    if not MARKER_LINE.search(markdown):
        return markdown
    from cardlab.cli import build_parser

    reference = render_reference(build_parser())
    return MARKER_LINE.sub(lambda _: reference, markdown)
