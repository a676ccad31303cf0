"""The results dataset contract: where an experiment's files live, how they are
written, what their columns are and how to tell they are whole.

Locations (a local folder or an ``s3://`` prefix), storage (atomic writes,
the manifest of finished shards, the run lock), the Arrow schemas of the
``games``, ``players`` and ``cards`` tables, integrity (hashes, ``cardlab
verify``) and the count views that shard tasks write and readers add up.
``workers`` writes this dataset and ``analytics`` reads it; neither imports
the other for it.
"""
