"""Bulk reads and writes of the snapshot at the speed of the database, without model instances.

A national simultaneous has a quarter of a million hand scores: building a Django model
instance per row costs more than the whole comparison. So the recompute reads integer columns
straight into NumPy and writes rows as one buffer:

- :func:`read_int_columns` runs a ``SELECT`` whose every column is an integer (booleans, codes
  and NULLs turned into integers by the query) and returns an ``(rows, columns)`` int64 array.
  On PostgreSQL it reads ``COPY (query) TO STDOUT (FORMAT BINARY)``: fixed-width rows parsed by
  NumPy in one call; elsewhere (the embedded SQLite) a plain ``fetchall``;
- :func:`consistent_read` opens the read-only snapshot both read in;
- :func:`write_rows` inserts rows given as columns of text (``None`` for NULL): one
  ``COPY ... FROM STDIN`` on PostgreSQL, ``executemany`` elsewhere.

Queries passed here are built by the caller from integers and constant SQL only (COPY takes no
bound parameters).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import numpy.typing as npt
from django.db import connection, transaction

IntMatrix = npt.NDArray[np.int64]

_BINARY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"
_HEADER = len(_BINARY_SIGNATURE) + 8  # signature, flags (int32), extension length (int32)


def is_postgresql() -> bool:
    return connection.vendor == "postgresql"


@contextmanager
def consistent_read() -> Iterator[None]:
    """A transaction whose reads all see one snapshot of the database (PostgreSQL: REPEATABLE
    READ, read only), so rows written meanwhile never give a half-old picture (the recompute,
    an event's archive). Inside an outer transaction (tests) the outer one already is.

    On SQLite it is a deferred transaction even where writes begin IMMEDIATE (a club's
    instance): in WAL mode a read transaction sees one snapshot and takes no lock, where an
    immediate one would hold the database's only write lock for the whole read and keep every
    phone's save waiting meanwhile. Nothing is written inside it."""
    db = transaction.get_connection()
    outer = not db.in_atomic_block
    mode = getattr(db, "transaction_mode", None)
    deferred = outer and db.vendor == "sqlite" and mode not in (None, "DEFERRED")
    if deferred:
        db.transaction_mode = "DEFERRED"  # only this block's BEGIN; restored below
    try:
        with transaction.atomic():
            if outer and is_postgresql():
                with db.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
    finally:
        if deferred:
            db.transaction_mode = mode


def read_int_columns(query: str, columns: int) -> IntMatrix:
    """The rows of ``query`` (``columns`` integer columns, none NULL) as an int64 matrix."""
    if not is_postgresql():
        with connection.cursor() as cursor:
            cursor.execute(query)
            rows = cursor.fetchall()
        if not rows:
            return np.zeros((0, columns), dtype=np.int64)
        return np.array(rows, dtype=np.int64).reshape(len(rows), columns)
    cast = ", ".join(f"CAST(c{index} AS BIGINT)" for index in range(columns))
    names = ", ".join(f"c{index}" for index in range(columns))
    statement = f"COPY (SELECT {cast} FROM ({query}) AS q ({names})) TO STDOUT (FORMAT BINARY)"
    chunks: list[bytes] = []
    with connection.cursor() as cursor, cursor.copy(statement) as copy:
        for block in copy:
            chunks.append(bytes(block))
    data = b"".join(chunks)
    if not data.startswith(_BINARY_SIGNATURE):
        raise RuntimeError("unexpected COPY BINARY header")
    extension = int.from_bytes(data[_HEADER - 4 : _HEADER], "big")
    body = data[_HEADER + extension : -2]  # the trailer is a field count of -1
    row = np.dtype(
        [("fields", ">i2")] + [item for i in range(columns) for item in _bigint_field(i)]
    )
    if len(body) % row.itemsize:
        raise RuntimeError("COPY BINARY rows are not all of the expected width")
    records = np.frombuffer(body, dtype=row)
    if records.size and (
        np.any(records["fields"] != columns)
        or any(np.any(records[f"l{i}"] != 8) for i in range(columns))
    ):
        raise RuntimeError("COPY BINARY: a NULL or a non-bigint column was read")
    out = np.empty((records.size, columns), dtype=np.int64)
    for index in range(columns):
        out[:, index] = records[f"v{index}"]
    return out


def _bigint_field(index: int) -> list[tuple[str, str]]:
    return [(f"l{index}", ">i4"), (f"v{index}", ">i8")]


def write_rows(table: str, names: Sequence[str], columns: Sequence[Sequence[str | None]]) -> int:
    """Insert rows given column by column as text (``None`` is NULL); returns the row count.

    Text values must be valid input for the column type and contain no tab, newline or
    backslash (the callers write numbers, single letters, ``t``/``f`` and decimals).
    """
    count = len(columns[0]) if columns else 0
    if not count:
        return 0
    if not is_postgresql():
        placeholders = ", ".join(["%s"] * len(names))
        quoted = ", ".join(connection.ops.quote_name(name) for name in names)
        sql = f"INSERT INTO {connection.ops.quote_name(table)} ({quoted}) VALUES ({placeholders})"
        with connection.cursor() as cursor:
            cursor.executemany(sql, list(zip(*columns, strict=True)))
        return count
    text_columns = [
        [r"\N" if value is None else value for value in column] if None in column else column
        for column in columns
    ]
    buffer = "\n".join(map("\t".join, zip(*text_columns, strict=True))) + "\n"
    quoted = ", ".join(connection.ops.quote_name(name) for name in names)
    statement = f"COPY {connection.ops.quote_name(table)} ({quoted}) FROM STDIN"
    with connection.cursor() as cursor, cursor.copy(statement) as copy:
        copy.write(buffer.encode())
    return count
