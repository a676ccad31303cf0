"""The page scripts themselves: Streamlit's "magic" writes every bare expression
of a page script onto the page, so a string meant as an attribute docstring
would show up as text above the page's content."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

DASHBOARD = Path(__file__).resolve().parents[2] / "dashboard"
PAGE_SCRIPTS = sorted([DASHBOARD / "app.py", *(DASHBOARD / "pages").glob("*.py")])


def bare_strings_after_the_docstring(script: Path) -> list[int]:
    """Line numbers of top-level string expressions other than the module docstring."""
    body = ast.parse(script.read_text()).body
    return [node.lineno for index, node in enumerate(body) if index > 0 and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]


def test_there_are_page_scripts_to_check() -> None:
    assert len(PAGE_SCRIPTS) >= 10


@pytest.mark.parametrize("script", PAGE_SCRIPTS, ids=[script.stem for script in PAGE_SCRIPTS])
def test_no_page_script_has_a_bare_string_that_magic_would_print(script: Path) -> None:
    assert bare_strings_after_the_docstring(script) == [], f"{script}: use a comment instead"
