"""Damage done to result files by the integrity tests, as a disk or a careless hand would."""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow.parquet as pq


def flip_game_index_bytes(path: Path, count: int = 8) -> None:
    """Flip ``count`` bytes inside the file's ``game_index`` column chunk, keeping its size and
    modification time (the damage of issue 14)."""
    row_group = pq.ParquetFile(path).metadata.row_group(0)
    column = next(row_group.column(index) for index in range(row_group.num_columns)
                  if row_group.column(index).path_in_schema == "game_index")
    stat = path.stat()
    data = bytearray(path.read_bytes())
    start = column.data_page_offset + column.total_compressed_size // 2
    data[start:start + count] = bytes(byte ^ 0xA5 for byte in data[start:start + count])
    with path.open("r+b") as handle:  # in place: same inode, size kept
        handle.write(data)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns


def as_written_before_task_counts(folder: Path) -> None:
    """Make an experiment folder look as a cardlab before shard tasks counted their rows
    left it: no count files, and manifest entries that record none."""
    import json
    import shutil

    shutil.rmtree(folder / "counts")
    for marker in (folder / "_manifest").glob("*.json"):
        entry = json.loads(marker.read_text())
        entry.pop("counts")
        entry.pop("count_seconds")
        marker.write_text(json.dumps(entry, indent=2, sort_keys=True) + "\n")


def make_a_loser_win(path: Path) -> None:
    """Rewrite a ``players`` file as valid Parquet in which one seat that lost has won, in place
    (same inode), its modification time kept: an edit every reader must refuse."""
    import pyarrow as pa

    from dataset.schemas import encode_parquet, parquet_options

    stat = path.stat()
    table = pq.read_table(path)
    won = table.column("won").to_pylist()
    won[won.index(False)] = True
    column = table.schema.get_field_index("won")
    table = table.set_column(column, table.schema.field(column), pa.array(won, type=pa.bool_()))
    data = encode_parquet(table, parquet_options("players", table.schema))
    with path.open("r+b") as handle:
        handle.write(data)
        handle.truncate()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
