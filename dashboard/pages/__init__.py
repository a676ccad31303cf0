"""The dashboard's pages, one script each, run by ``dashboard/app.py``'s navigation."""
