"""Every shell and Python example of the README and the guides runs, and prints what the text
shows (``tests/docs/examples.py`` says how the blocks are read; ``docs/development/docs.md`` how
to write them).

The examples run in document order in one workspace, the README's first: the guides read the
experiment the README's first card change played, as their text says. Run this file whole
(``pytest tests/docs/test_examples.py``): one example picked alone may lack what an earlier one made.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sybil import Document, Example

from tests.docs.examples import REPO, WORKSPACE, Workspace, documents, make_workspace

DOCUMENTS = documents()
EXAMPLES = [(document, example) for document in DOCUMENTS for example in document]


def example_id(pair: tuple[Document, Example]) -> str:
    """``README.md:42``: the document and the line an example starts at."""
    document, example = pair
    return f"{Path(document.path).relative_to(REPO)}:{example.line}"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The examples' one working folder, shared in document order (see the module docstring)."""
    return make_workspace(tmp_path_factory.mktemp("docs-examples"))


@pytest.mark.parametrize("pair", EXAMPLES, ids=[example_id(pair) for pair in EXAMPLES])
def test_the_example_runs_as_the_text_says(pair: tuple[Document, Example], workspace: Workspace,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    document, example = pair
    document.namespace[WORKSPACE] = workspace
    monkeypatch.chdir(workspace.folder)  # the Python examples open results/ as a reader's session would
    for name, value in workspace.env.items():
        monkeypatch.setenv(name, value)
    example.evaluate()
