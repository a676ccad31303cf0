"""The drivers: what starts work and decides when it is done.

A run with its early stop (``drivers.run``), the balance search
(``drivers.tuning``) and the dashboard's launcher (``drivers.launcher``).
They sit above both ``workers`` (which plays shards) and ``analytics``
(which reads results): a driver asks analytics whether to stop and hands
the answer to the runner as a function.
"""
