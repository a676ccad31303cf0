"""``cardlab sql --read-only`` has the SQL page's confinement; ``cardlab sql`` without
it stays the analyst's full DuckDB (and says so in its help)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.cli import main
from tests.security.conftest import Confined, attempts, fingerprint, nothing_written

CLI_ROUTES = ("read_text of the process environment", "read_parquet of another experiment",
              "COPY over a shard without a temporary file", "EXPLAIN ANALYZE of a CREATE TABLE", "LOAD an extension",
              "SET file access back on", "a SELECT then a COPY")
"""A sample of the routes for the command line (each opens a catalog); the page takes them all."""


def test_cardlab_sql_read_only_refuses_what_the_page_refuses(
        confined: Confined, capsys: pytest.CaptureFixture[str]) -> None:
    before = fingerprint(confined.root)
    for name, query, refusal in [attempt for attempt in attempts(confined) if attempt[0] in CLI_ROUTES]:
        code = main(["sql", "chosen", query, "--read-only", "--results", str(confined.root)])
        error = capsys.readouterr().err.strip()
        assert code == 2, name
        assert error.startswith("cardlab: error: ") and refusal in error and "\n" not in error, f"{name}: {error}"
    nothing_written(confined, before)
    assert main(["sql", "chosen", "SELECT count(*) AS n FROM games", "--read-only", "--format", "csv",
                 "--results", str(confined.root)]) == 0
    assert capsys.readouterr().out == "n\n40\n"


def test_cardlab_sql_without_read_only_is_the_analysts_full_duckdb(
        confined: Confined, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exported = tmp_path / "games.csv"
    assert main(["sql", "chosen", f"COPY (SELECT game_index FROM games ORDER BY 1) TO '{exported}' (HEADER)",
                 "--results", str(confined.root)]) == 0
    assert exported.read_text().splitlines()[:3] == ["game_index", "0", "1"]
    assert main(["sql", "chosen", f"SELECT count(*) AS n FROM read_parquet('{confined.other}/games/*/*.parquet')",
                 "--format", "csv", "--results", str(confined.root)]) == 0
    assert capsys.readouterr().out.endswith("n\n60\n")
    assert main(["sql", "--help"]) == 0
    assert "--read-only" in capsys.readouterr().out


def test_the_interactive_read_only_shell_refuses_a_write_and_goes_on(confined: Confined) -> None:
    import io

    from analytics.sql import interactive_shell

    stdin = io.StringIO(f"COPY (SELECT 1) TO '{confined.target}';\nSELECT count(*) AS n FROM games;\n")
    stdout = io.StringIO()
    interactive_shell(confined.chosen, stdin, stdout, read_only=True)
    text = stdout.getvalue()
    assert "Error: COPY refused: this box is read-only" in text
    assert "40" in text
    assert not confined.target.exists()
