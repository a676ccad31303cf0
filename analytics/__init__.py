"""The read side of cardlab: from an experiment's Parquet files to answers.

- ``analytics.catalog``: find an experiment folder and open an in-memory DuckDB
  connection with the views ``games``, ``players`` and ``cards`` over the files
  of its finished shards (plus the Wilson-interval SQL macros).
- ``analytics.stats``: confidence intervals (Wilson score interval), in Python
  and as DuckDB macros that give the same numbers.
- ``analytics.metrics``: win rates by seat and by agent, game length, the
  per-card table; computed in DuckDB, returned as Polars DataFrames.
- ``analytics.report``: everything above for one experiment, rendered as text,
  Markdown, JSON or CSV (``cardlab report``).
- ``analytics.sql``: ad-hoc SQL on the views (``cardlab sql``), one query or an
  interactive shell.

Every user mistake (unknown experiment, no results yet, bad SQL) raises a
subclass of ``analytics.catalog.AnalyticsError`` whose message is one line.
See ``analytics/README.md`` for the views, the metric definitions and example
queries.
"""
