"""Ray fan-out: shard tasks that play games and write the results dataset
(``dataset``), the runner that keeps them in flight, the dry run's estimate
and ``cardlab bench``."""
