"""The base views ``games``, ``players`` and ``cards`` over the files of finished shards.

Each view lists the files of the *finished* shards explicitly (``analytics.folders``).
It does not glob: DuckDB's ``*`` also matches dot-files (the temporary names of
files being written), and a shard whose ``games`` file is written but whose
``cards`` file is not yet would make the tables disagree. So a reader running
beside a live ``cardlab run`` sees a consistent set of whole shards.

Local files are read by DuckDB's ``read_parquet``. Files in an object store
are read through pyarrow (DuckDB's ``httpfs`` extension is not assumed to be
installable): the view is over a ``pyarrow.dataset`` registered on the
connection, which DuckDB scans lazily, batch by batch, with column projection
and filters pushed down, so a query over millions of rows streams.
"""

from __future__ import annotations

from typing import Any

import duckdb

from analytics.folders import NoResultsError
from dataset.location import ObjectPath, ResultsPath
from dataset.quoting import sql_string


def create_base_views(con: duckdb.DuckDBPyConnection, files: dict[str, list[ResultsPath]], *,
                      datasets: bool = False) -> None:
    """Create the views ``games``, ``players``, ``cards`` over the given files
    (local ones by path, those in an object store through a registered pyarrow dataset).

    With ``datasets``, local files are read through a registered pyarrow
    dataset too, so that the connection itself never opens a file: what the
    confined SQL of ``analytics.sql`` needs (DuckDB's file access turned off).
    """
    for table, paths in files.items():
        remote = [path for path in paths if isinstance(path, ObjectPath)]
        if remote and len(remote) != len(paths):
            raise NoResultsError(f"{remote[0]}: cannot mix object-store and local results in one catalog")
        if remote or datasets:
            source = f"_{table}_dataset"
            con.register(source, parquet_dataset(paths))
            con.execute(f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM {source}")
            continue
        listing = ", ".join(sql_string(str(path.absolute())) for path in paths)
        # union_by_name: shards written by different cardlab versions (or
        # experiments of different games) may order or add columns
        # differently; match them by name.
        con.execute(
            f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM read_parquet([{listing}], "
            "hive_partitioning = false, union_by_name = true)")


def parquet_dataset(paths: list[ResultsPath]) -> Any:
    """A lazy ``pyarrow.dataset`` over Parquet files (local or objects), columns matched by name.

    One child dataset per folder (an experiment's variant: its shards share a
    schema, read from one file's footer), unified like DuckDB's
    ``union_by_name``: a column missing from a folder reads as NULL.
    """
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.fs as pafs

    by_folder: dict[str, list[str]] = {}
    for path in paths:
        if isinstance(path, ObjectPath):
            by_folder.setdefault(path.parent.key, []).append(path.key)
        else:
            by_folder.setdefault(str(path.parent.absolute()), []).append(str(path.absolute()))
    filesystem = paths[0].filesystem if isinstance(paths[0], ObjectPath) else pafs.LocalFileSystem()
    children = [_dictionary_strings(ds.dataset(keys, filesystem=filesystem, format="parquet"), keys, filesystem)
                for keys in by_folder.values()]
    if len(children) == 1:
        return children[0]
    schema = pa.unify_schemas([child.schema for child in children], promote_options="permissive")
    return ds.dataset(children, schema=schema)


def _dictionary_strings(dataset: Any, keys: list[str], filesystem: Any) -> Any:
    """``dataset`` again, reading its text columns as dictionaries (DuckDB still sees VARCHAR).

    The text columns (experiment, variant, agent, card...) are dictionary-encoded
    in the files; decoding them into plain strings was most of the cost of a
    scan through pyarrow (about half, measured on 10,000,000 games).
    """
    import pyarrow as pa
    import pyarrow.dataset as ds

    text = [field.name for field in dataset.schema if pa.types.is_string(field.type)]
    if not text:
        return dataset
    schema = pa.schema([field.with_type(pa.dictionary(pa.int32(), pa.string())) if field.name in text else field
                        for field in dataset.schema], metadata=dataset.schema.metadata)
    read_options = ds.ParquetReadOptions(dictionary_columns=text)
    return ds.dataset(keys, filesystem=filesystem, schema=schema,
                      format=ds.ParquetFileFormat(read_options=read_options))
