"""The ``cardlab`` command line (``cardlab.cli``); the work itself lives in
``simcore``, ``workers``, ``analytics``, ``experiments`` and ``dashboard``."""
