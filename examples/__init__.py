"""Worked examples of extending cardlab from outside its packages (see the README)."""
