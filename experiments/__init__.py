"""Experiment specs (the TOML files in this folder) and the code that reads,
validates and expands them: see ``experiments.spec``."""
