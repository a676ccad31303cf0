"""Streamlit entry script: ``streamlit run dashboard/app.py`` (or ``cardlab dashboard``).

Declares the pages with ``st.navigation``; each page is a thin script in
``dashboard/pages/`` that calls ``analytics`` (through the cached loaders of
``dashboard.common``). The sidebar holds the experiment picker shared by every
page. The results folder comes from the environment variable
``CARDLAB_RESULTS`` (default: ``results`` in the current directory).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard.common import experiment_picker

PAGES = Path(__file__).resolve().parent / "pages"

st.set_page_config(page_title="cardlab", page_icon=":material/playing_cards:", layout="wide")

page = st.navigation([
    st.Page(PAGES / "experiments.py", title="Experiments", icon=":material/folder_open:", default=True),
    st.Page(PAGES / "win_rates.py", title="Win rates", icon=":material/leaderboard:"),
    st.Page(PAGES / "cards.py", title="Cards", icon=":material/style:"),
    st.Page(PAGES / "variants.py", title="Variants", icon=":material/compare_arrows:"),
    st.Page(PAGES / "sweeps.py", title="Sweeps", icon=":material/show_chart:"),
    st.Page(PAGES / "tuning.py", title="Tuning", icon=":material/tune:"),
    st.Page(PAGES / "game_length.py", title="Game length", icon=":material/timer:"),
    st.Page(PAGES / "skill.py", title="Skill", icon=":material/stairs:"),
    st.Page(PAGES / "replay.py", title="Replay", icon=":material/replay:"),
    st.Page(PAGES / "sql.py", title="SQL", icon=":material/terminal:"),
])
experiment_picker()
page.run()
