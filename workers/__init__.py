"""Ray fan-out: shard tasks that play games and write Parquet, the run driver,
storage helpers and the Arrow schemas of the results dataset."""
