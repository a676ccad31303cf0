"""Streamlit entry script: ``streamlit run dashboard/app.py`` (or ``cardlab dashboard``).

Declares the pages with ``st.navigation``; each page is a script in
``dashboard/pages/``. The results folder comes from the environment variable
``CARDLAB_RESULTS`` (default: ``results`` in the current directory).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

PAGES = Path(__file__).resolve().parent / "pages"

st.set_page_config(page_title="cardlab", page_icon=":material/playing_cards:", layout="wide")

page = st.navigation([
    st.Page(PAGES / "overview.py", title="Overview", icon=":material/leaderboard:", default=True),
])
page.run()
