"""The Streamlit dashboard (``cardlab dashboard``): entry script ``dashboard/app.py``.

Pages stay thin: they pick what to show and call ``analytics`` for every
number; chart construction lives in ``dashboard.charts``.
"""
