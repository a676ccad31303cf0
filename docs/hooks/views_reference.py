"""MkDocs hook: the views reference, generated from the views' own column contracts.

The page ``reference/views.md`` holds the line ``<!-- views-reference -->``; at
build time this hook replaces it with ``analytics.views.reference_markdown()``:
every view and column of ``cardlab sql`` with the description DuckDB stores as
its comment. Nothing is written by hand, so a view or column added to a contract
appears without editing the docs, and one without a description fails the
contract tests (``tests/analytics/test_view_contracts.py``) before it gets here.
"""

from __future__ import annotations

import re
from typing import Any

MARKER = "<!-- views-reference -->"
"""The line of ``reference/views.md`` that the generated reference replaces."""
MARKER_LINE = re.compile(rf"^{re.escape(MARKER)}$", re.MULTILINE)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any, **kwargs: Any) -> str:
    """MkDocs event: replace ``MARKER`` with the generated reference on the page that holds it."""
    if not MARKER_LINE.search(markdown):
        return markdown
    from analytics.views import reference_markdown  # the build imports the project only for this page

    reference = reference_markdown().split("\n", 1)[1]  # the page has its own title
    return MARKER_LINE.sub(lambda _: reference, markdown)
