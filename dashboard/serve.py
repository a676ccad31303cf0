"""``python -m dashboard.serve run dashboard/app.py [streamlit options]``: Streamlit's own
command line, with the pages folder declared by ``st.navigation`` from the first request on.

Streamlit treats a folder named ``pages`` beside the entry script as an old-style
multipage app until the entry script first calls ``st.navigation``; a server whose
first request is a page's address (``/cards?experiment=...``, a shared link) would
run that page alone, without ``app.py``'s sidebar, and keep doing so. ``app.py``
declares every page with ``st.navigation``, so the folder-based mode is switched
off before the server starts. (Renaming ``dashboard/pages`` would do the same
without this module; it stays while other branches add pages there.)
"""

from __future__ import annotations

import sys

from streamlit import net_util
from streamlit.runtime.pages_manager import PagesManager
from streamlit.web import cli


def no_external_address() -> None:
    """What the dashboard answers when Streamlit asks for this machine's address on the internet.

    Bound to every interface (``--host 0.0.0.0``), Streamlit asks checkip.amazonaws.com to print
    an "External URL"; the dashboard contacts nothing beyond the machine it serves (an operator
    who wants a public address names it with Streamlit's ``browser.serverAddress``)."""
    return None


def main() -> int:
    """Run Streamlit's command line with the folder-based multipage mode off and no lookup of
    this machine's address on the internet (``no_external_address``)."""
    PagesManager.uses_pages_directory = False
    net_util.get_external_ip = no_external_address
    try:
        cli.main()
    except SystemExit as done:
        return int(done.code or 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
