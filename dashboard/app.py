"""Streamlit entry script: ``streamlit run dashboard/app.py`` (or ``cardlab dashboard``).

Declares the pages with ``st.navigation``, the Findings page (``home.py``) first and the
one a new visit opens on; each page is a thin script in
``dashboard/pages/`` that calls ``analytics`` (through the cached loaders of
``dashboard.common``). The sidebar holds the experiment picker shared by every
page (kept in the address as ``?experiment=NAME``). The results folder comes
from the environment variable ``CARDLAB_RESULTS`` (default: ``results`` in the
current directory). Streamlit's developer toolbar (its Deploy button) is
hidden: this is a viewer's app.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard.common import experiment_picker, refresh_while_running, require_experiment_if_any

PAGES = Path(__file__).resolve().parent / "pages"

# (file, title, icon) in menu order. A page that another part of cardlab adds
# later ("New run": launching runs from the browser) appears in OPTIONAL_PAGES'
# place as soon as its file exists.
MAIN_PAGES = [
    ("home.py", "Findings", ":material/lightbulb:"),
    ("experiments.py", "Experiments", ":material/folder_open:"),
    ("win_rates.py", "Win rates", ":material/leaderboard:"),
    ("cards.py", "Cards", ":material/style:"),
    ("card.py", "Card detail", ":material/search:"),
    ("impact.py", "Card impact", ":material/balance:"),
    ("variants.py", "Variants", ":material/compare_arrows:"),
    ("compare.py", "Compare experiments", ":material/difference:"),
    ("sweeps.py", "Sweeps", ":material/show_chart:"),
    ("tuning.py", "Tuning", ":material/tune:"),
    ("game_length.py", "Game length", ":material/timer:"),
    ("design.py", "Game design", ":material/balance:"),
    ("skill.py", "Skill", ":material/stairs:"),
    ("replay.py", "Replay", ":material/replay:"),
    ("sql.py", "SQL", ":material/terminal:"),
]
OPTIONAL_PAGES = [
    ("new_run.py", "New run", ":material/play_circle:"),
    ("whatif.py", "What-if result", ":material/science:"),
]

st.set_page_config(page_title="cardlab", page_icon=":material/playing_cards:", layout="wide")

pages = [st.Page(PAGES / file, title=title, icon=icon, default=file == "home.py")
         for file, title, icon in MAIN_PAGES + [page for page in OPTIONAL_PAGES if (PAGES / page[0]).is_file()]]
page = st.navigation(pages)
experiment_picker()
folder = require_experiment_if_any()
if folder is not None:
    with st.sidebar:
        refresh_while_running(folder)
page.run()
