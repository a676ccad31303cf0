"""The ``cardlab`` command line (``cardlab.cli``); the work itself lives in
``simcore``, ``workers``, ``analytics``, ``experiments`` and ``dashboard``."""

import time

STARTED = time.perf_counter()
"""When the command started (before its imports), so that ``cardlab run``'s
summary reports the whole run's wall time."""
