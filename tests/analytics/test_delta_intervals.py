"""``explore.with_delta_intervals`` (Polars, on a report's ``variant_deltas``) gives the
intervals of the same formula written in DuckDB SQL over the view."""

from __future__ import annotations

import polars as pl
from polars.testing import assert_frame_equal

from analytics.catalog import open_catalog
from analytics.explore import with_delta_intervals
from analytics.report import build_report
from tests.conftest import SmallExperiment


def test_the_polars_intervals_equal_the_sql_formula_on_every_variant_delta(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        in_sql = con.sql("""
            WITH d AS (
                SELECT *,
                       CASE WHEN test = 'welch' THEN abs(delta / nullif(statistic, 0))
                            ELSE sqrt(baseline_value * (1 - baseline_value) / nullif(baseline_n, 0)
                                      + value * (1 - value) / nullif(n, 0)) END AS se
                FROM variant_deltas
            )
            SELECT * EXCLUDE (se), delta - 1.959963984540054 * se AS delta_low,
                   delta + 1.959963984540054 * se AS delta_high
            FROM d
        """).pl()
    finally:
        con.close()
    from_report = with_delta_intervals(build_report(small_experiment.folder).metrics["variant_deltas"])
    assert in_sql.height > 20 and "welch" in set(in_sql["test"])  # rates and means both covered
    assert from_report["delta_low"].null_count() < from_report.height
    assert_frame_equal(from_report, in_sql, check_dtypes=False, rel_tol=1e-9)
    welch = from_report.filter(pl.col("test") == "welch")
    assert ((welch["delta_high"] - welch["delta_low"]) >= 0).all()
