"""Batch scoring on Apache Spark: statements in, one row of results per statement out.

>>> import alama.spark                                                  # doctest: +SKIP
>>> df = alama.spark.score_files(spark, "s3a://bucket/statements/*.pdf",
...                              passwords=spark.read.csv("pw.csv", header=True))  # doctest: +SKIP
>>> df.where("status = 'failed'").groupBy("errorCode").count().show()  # doctest: +SKIP

Nothing is scored in Python: each Spark task hands its statements' bytes to the native engine
(``alama._alama.score_many``: Rust threads, one per CPU of the task, the GIL released), and each
row carries what that engine returned: the report's headline fields and, in ``reportJson``, the
report's canonical JSON, byte for byte what ``alama score FILE --format json`` prints. A file
the engine cannot score gives a row with ``status = "failed"`` and the engine's stable error
code and message; it never fails the job.

Needs ``pyspark`` (3.5 or newer) and ``pyarrow`` on the driver, and the ``alama`` wheel plus
``pyarrow`` on every executor (``pip install "alama[spark]"``; python/README.md, "Spark", shows
how to ship the wheel with ``spark.archives``). Importing this module without pyspark raises
``ImportError``; ``import alama`` alone never imports Spark.

The result schema (:data:`RESULT_SCHEMA`) is stable within a major version of the package:
columns are only ever appended, never renamed, retyped or reordered.

Over 400 lines: the three entry points (``score_files``, ``score_column``, ``features``) share
the schemas, the password join and the per-task batching below them, and are read together.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

from alama import _alama

try:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql.types import DoubleType, IntegerType, StringType, StructField, StructType
except ImportError as error:  # pragma: no cover - exercised only without pyspark
    raise ImportError(
        "alama.spark needs pyspark and pyarrow: pip install 'alama[spark]' "
        "(or: pip install 'pyspark>=3.5' pyarrow 'pandas<3')"
    ) from error

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "FEATURE_SCHEMA",
    "REPORT_SCHEMA",
    "RESULT_SCHEMA",
    "features",
    "score_column",
    "score_files",
]

#: The columns :func:`score_column` adds (and :func:`score_files` returns after ``path``), in
#: order. Every one is nullable except ``status``:
#:
#: ``status`` (string)
#:     ``"completed"`` (the engine's report status: scored) or ``"failed"`` (the engine
#:     returned an error for this input).
#: ``reportId`` (string)
#:     ``rpt_`` + 24 hex digits, the same for the same statement and scorecard.
#: ``score`` (int)
#:     300–850.
#: ``band`` (string)
#:     The band of ``score`` (e.g. ``"Good"``).
#: ``statementPeriod`` (string)
#:     ``"<Mon YYYY> - <Mon YYYY>"``.
#: ``scorecardVersion`` (string)
#:     The scorecard that produced the points (``alama.SCORECARD_VERSION``, or the version of
#:     the :class:`alama.Scorecard` passed as ``scorecard``).
#: ``integrityStatus`` (string)
#:     ``"verified"``, ``"warnings"`` or ``"failed"`` (the report's ``integrity.status``).
#: ``errorCode`` (string)
#:     The engine's stable error code for a failed row (``"wrong_password"``,
#:     ``"password_required"``, ``"unsupported_format"``, ``"malformed_statement"``, …).
#: ``errorMessage`` (string)
#:     The engine's one-sentence description of that error (never contains the password).
#: ``reportJson`` (string)
#:     The canonical report JSON (money as decimal numbers in the statement's currency, major
#:     units), identical to ``alama score FILE --format json`` without its trailing newline.
#:
#: The report columns are null on a failed row, the error columns null on a completed one.
REPORT_SCHEMA = StructType(
    [
        StructField("status", StringType(), nullable=False),
        StructField("reportId", StringType(), nullable=True),
        StructField("score", IntegerType(), nullable=True),
        StructField("band", StringType(), nullable=True),
        StructField("statementPeriod", StringType(), nullable=True),
        StructField("scorecardVersion", StringType(), nullable=True),
        StructField("integrityStatus", StringType(), nullable=True),
        StructField("errorCode", StringType(), nullable=True),
        StructField("errorMessage", StringType(), nullable=True),
        StructField("reportJson", StringType(), nullable=True),
    ]
)

#: The schema of :func:`score_files`: ``path`` (string, the file's URI as Spark lists it, e.g.
#: ``file:/data/a.pdf`` or ``s3a://bucket/a.pdf``) followed by :data:`REPORT_SCHEMA`.
RESULT_SCHEMA = StructType(
    [StructField("path", StringType(), nullable=False), *REPORT_SCHEMA.fields]
)

#: The columns :func:`features` adds: ``errorCode`` and ``errorMessage`` (strings, null unless
#: the engine could not read the statement), then one ``double`` column per feature of the
#: catalogue (``alama.feature_catalogue()``, docs/features.md), named as there
#: (``typical_monthly_income``, …), in catalogue order: money in the statement's currency,
#: major units, ratios as fractions, counts and days as numbers; null when the figure is not
#: measurable on the statement (or
#: the statement failed). New catalogue features are appended, never renamed or reordered.
FEATURE_SCHEMA = StructType(
    [
        StructField("errorCode", StringType(), nullable=True),
        StructField("errorMessage", StringType(), nullable=True),
        *[StructField(d["name"], DoubleType(), nullable=True) for d in _alama.feature_catalogue()],
    ]
)

_PASSWORD = "_alama_password"
#: Rows handed to the engine at once (bounded so that a task's memory stays bounded too).
_CHUNK_ROWS = 256

PasswordsArg = Union[str, Mapping[str, str], DataFrame, None]
ScorecardArg = Union[_alama.Scorecard, str, None]


def score_files(
    spark: SparkSession,
    paths_or_glob: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    passwords: PasswordsArg = None,
    scorecard: ScorecardArg = None,
) -> DataFrame:
    """Scores statement files (M-Pesa PDFs, CSV exports, canonical JSON) with Spark.

    ``paths_or_glob`` is a path, folder or glob (``"s3a://bucket/2024/*.pdf"``), or a sequence
    of them, read with Spark's ``binaryFile`` source (any file system Spark can read; a folder
    gives the files in it, by Spark's rules for folders, which skip names starting with ``.`` or
    ``_``). Each file is one row; a file that is not a statement gives a failed row.

    ``passwords`` opens encrypted PDFs:

    * a ``str``: the password of every file;
    * a mapping ``{key: password}``; or
    * a DataFrame with string columns ``path`` and ``password`` (other columns are ignored),
      joined to the files (a broadcast join when it is small, as Spark decides).

    A key names a file by its full path as Spark lists it (``file:/data/a.pdf``,
    ``s3a://bucket/a.pdf``), by an absolute local path (``/data/a.pdf``), or by its file name
    alone (``a.pdf``, no ``/``); a full-path key wins over a file-name key. With several rows for
    one key, one of them is used. Files that no key names are read without a password (an
    encrypted one fails with ``password_required``). Passwords never reach the result.

    ``scorecard`` is an :class:`alama.Scorecard` (a lender's own card:
    ``alama.Scorecard.load("card.json")``, or one fitted with ``alama.modelling``), shipped to
    the executors as its canonical JSON; ``None`` means the built-in card of each statement's
    currency (KES, UGX, GHS, LSL; another currency fails its row with ``unsupported_currency``),
    the string ``alama.SCORECARD_VERSION`` the built-in KES card. A card of another currency
    than a statement's fails that row with ``currency_mismatch``; amounts are never converted.
    The reports are byte for byte ``alama score FILE --scorecard card.json --format json``.

    Returns a lazy DataFrame with :data:`RESULT_SCHEMA`: one row per file, ``path`` first.
    Nothing runs until an action (``write``, ``count``, ``collect``). Raises
    ``ValueError`` for a ``scorecard`` string other than the built-in version, for no paths or a
    password DataFrame without ``path``/``password`` columns, ``TypeError`` for a password
    mapping with a non-string value, and Spark's ``AnalysisException`` for a path that does not
    exist. A file that cannot be read from storage fails its task as in any Spark job (see
    ``spark.sql.files.ignoreCorruptFiles``); a file that the engine cannot score never does.
    """
    _scorecard_json(scorecard)
    if isinstance(paths_or_glob, (str, os.PathLike)):
        paths = [os.fspath(paths_or_glob)]
    else:
        paths = [os.fspath(p) for p in paths_or_glob]
    if not paths:
        raise ValueError("score_files: no paths given")
    files = spark.read.format("binaryFile").load(paths).select("path", "content")
    with_passwords = _attach_passwords(spark, files, passwords)
    scored = score_column(with_passwords, "content", password_column=_PASSWORD, scorecard=scorecard)
    return scored.select(*RESULT_SCHEMA.fieldNames())


def score_column(
    df: DataFrame,
    column: str,
    *,
    password_column: str | None = None,
    scorecard: ScorecardArg = None,
) -> DataFrame:
    """Scores statements held in a binary (or string) column of ``df``.

    ``column`` holds each statement's bytes: a PDF, a CSV export or canonical JSON (a string
    column is scored as its UTF-8 bytes; a null is scored as empty input and fails with the
    engine's error). ``password_column`` names a string column with each row's password (null:
    none). ``scorecard`` as for :func:`score_files`.

    Returns a lazy DataFrame with ``df``'s columns, in order, except ``column`` and
    ``password_column`` (statement bytes and passwords do not travel on), followed by the
    :data:`REPORT_SCHEMA` columns; one output row per input row. Scoring runs in
    ``mapInArrow`` on the executors, ``spark.task.cpus`` engine threads per task. Raises
    ``ValueError`` when a named column is missing or when ``df`` already has a column named
    like a report column, or for a ``scorecard`` string other than the built-in version.
    """
    card = _scorecard_json(scorecard)
    kept = _kept_fields(df, column, password_column, REPORT_SCHEMA, "score_column")
    out_schema = StructType([*kept, *REPORT_SCHEMA.fields])
    large = df.sparkSession.conf.get("spark.sql.execution.arrow.useLargeVarTypes", "false")
    worker = functools.partial(
        _score_batches,
        content=column,
        password=password_column,
        kept=tuple(field.name for field in kept),
        large_strings=str(large).lower() == "true",
        scorecard=card,
    )
    return df.mapInArrow(worker, out_schema)


def features(df: DataFrame, column: str, *, password_column: str | None = None) -> DataFrame:
    """The feature catalogue of statements held in a binary (or string) column of ``df``: the
    figures a modeller bins (``alama.features_frame`` on Spark), for fitting a scorecard on a
    lender's own outcomes with ``alama.modelling``.

    ``column`` and ``password_column`` as for :func:`score_column`. Returns a lazy DataFrame
    with ``df``'s columns except those two, followed by :data:`FEATURE_SCHEMA` (the error
    columns, then one nullable double per catalogue feature); one output row per input row, the
    figures computed by the engine on the executors (``alama._alama.features_many``), equal to
    ``alama.features_frame`` of the same statements (null where that has NaN). A statement the
    engine cannot read gives its error code and message and null figures; it never fails the
    job. Raises ``ValueError`` when a named column is missing or already a feature column.
    """
    kept = _kept_fields(df, column, password_column, FEATURE_SCHEMA, "features")
    worker = functools.partial(
        _feature_batches,
        content=column,
        password=password_column,
        kept=tuple(field.name for field in kept),
    )
    return df.mapInArrow(worker, StructType([*kept, *FEATURE_SCHEMA.fields]))


def _kept_fields(
    df: DataFrame, column: str, password_column: str | None, added: StructType, caller: str
) -> list[StructField]:
    """``df``'s fields that travel on (not the statement or password column), after checking
    that the named columns exist and that none of ``added``'s names is taken."""
    names = df.columns
    for name in (column, password_column):
        if name is not None and name not in names:
            raise ValueError(f"{caller}: no column {name!r} in {names}")
    clash = sorted(set(names) & set(added.fieldNames()))
    if clash:
        raise ValueError(f"{caller}: the input already has the output column(s) {clash}")
    dropped = {column, password_column} - {None}
    return [field for field in df.schema.fields if field.name not in dropped]


def _scorecard_json(scorecard: ScorecardArg) -> str | None:
    """The canonical JSON to ship to the executors, or None for the built-in card of each
    statement's currency. The string ``SCORECARD_VERSION`` names the built-in KES card itself,
    so a statement in another currency fails with ``currency_mismatch`` (as a card named on the
    service does), never scored by another card."""
    if scorecard is None:
        return None
    if scorecard == _alama.SCORECARD_VERSION:
        return _alama.Scorecard.builtin().to_json()
    if isinstance(scorecard, _alama.Scorecard):
        return scorecard.to_json()
    raise ValueError(
        f"scorecard={scorecard!r}: pass an alama.Scorecard (alama.Scorecard.load('card.json')); "
        f"a string may only name the built-in {_alama.SCORECARD_VERSION}"
    )


def _normalised_key(column: Any) -> Any:
    """``file:///x`` and ``/x`` as Spark lists local files (``file:/x``); other keys as given."""
    once = F.regexp_replace(column, "^file://(?=/)", "file:")
    return F.regexp_replace(once, "^/", "file:/")


def _attach_passwords(spark: SparkSession, files: DataFrame, passwords: PasswordsArg) -> DataFrame:
    """``files`` (path, content) with a ``_alama_password`` column, per score_files' rules."""
    if passwords is None or isinstance(passwords, str):
        return files.withColumn(_PASSWORD, F.lit(passwords).cast(StringType()))
    if isinstance(passwords, Mapping):
        rows = []
        for key, value in passwords.items():
            if not isinstance(value, str):
                raise TypeError(f"score_files: the password for {key!r} is not a str")
            rows.append((os.fspath(key), value))
        table = F.broadcast(spark.createDataFrame(rows, "path string, password string"))
    else:
        missing = {"path", "password"} - set(passwords.columns)
        if missing:
            raise ValueError(f"score_files: the passwords DataFrame lacks {sorted(missing)}")
        table = passwords
    keys = table.select(
        F.col("path").cast(StringType()).alias("_k"),
        F.col("password").cast(StringType()).alias("_p"),
    ).where(F.col("_k").isNotNull())
    by_path = (
        keys.where(F.col("_k").contains("/"))
        .select(_normalised_key(F.col("_k")).alias("_alama_pkey"), F.col("_p"))
        .groupBy("_alama_pkey")
        .agg(F.min("_p").alias("_alama_ppw"))
    )
    by_name = (
        keys.where(~F.col("_k").contains("/"))
        .groupBy(F.col("_k").alias("_alama_nkey"))
        .agg(F.min("_p").alias("_alama_npw"))
    )
    name = F.element_at(F.split(F.col("path"), "/"), -1)
    joined = files.join(by_path, files["path"] == by_path["_alama_pkey"], "left").join(
        by_name, name == by_name["_alama_nkey"], "left"
    )
    return joined.select(
        "path",
        "content",
        F.coalesce(F.col("_alama_ppw"), F.col("_alama_npw")).alias(_PASSWORD),
    )


def _score_batches(
    batches: Iterator[pa.RecordBatch],
    *,
    content: str,
    password: str | None,
    kept: tuple[str, ...],
    large_strings: bool,
    scorecard: str | None,
) -> Iterator[pa.RecordBatch]:
    """The mapInArrow function (runs on the executors): each batch's statements through the
    engine, in chunks of at most _CHUNK_ROWS rows, one output row per input row."""
    import pyarrow as pa

    workers = _task_workers()
    card = _alama.Scorecard.from_json(scorecard) if scorecard is not None else None
    text = pa.large_string() if large_strings else pa.string()
    types = [pa.int32() if f.name == "score" else text for f in REPORT_SCHEMA.fields]
    for part, sources, secrets in _chunks(batches, content, password):
        slots = _alama.score_many(sources, password=secrets, workers=workers, scorecard=card)
        columns = _report_columns(slots)
        arrays = [part.column(name) for name in kept]
        arrays += [pa.array(values, type=t) for values, t in zip(columns, types)]
        yield pa.RecordBatch.from_arrays(arrays, names=[*kept, *REPORT_SCHEMA.fieldNames()])


def _feature_batches(
    batches: Iterator[pa.RecordBatch],
    *,
    content: str,
    password: str | None,
    kept: tuple[str, ...],
) -> Iterator[pa.RecordBatch]:
    """The mapInArrow function of :func:`features` (runs on the executors)."""
    import math

    import pyarrow as pa

    workers = _task_workers()
    width = len(FEATURE_SCHEMA.fields) - 2
    for part, sources, secrets in _chunks(batches, content, password):
        slots = _alama.features_many(sources, password=secrets, workers=workers)
        codes: list[str | None] = []
        messages: list[str | None] = []
        figures: list[list[float | None]] = [[] for _ in range(width)]
        for slot in slots:
            if isinstance(slot, _alama.AlamaError):
                codes.append(slot.code)
                messages.append(slot.message)
                values: list[float | None] = [None] * width
            else:
                codes.append(None)
                messages.append(None)
                values = [None if math.isnan(v) else v for v in slot]
            for out, value in zip(figures, values):
                out.append(value)
        arrays = [part.column(name) for name in kept]
        arrays += [pa.array(codes, type=pa.string()), pa.array(messages, type=pa.string())]
        arrays += [pa.array(values, type=pa.float64()) for values in figures]
        yield pa.RecordBatch.from_arrays(arrays, names=[*kept, *FEATURE_SCHEMA.fieldNames()])


def _chunks(
    batches: Iterator[pa.RecordBatch], content: str, password: str | None
) -> Iterator[tuple[pa.RecordBatch, list[bytes], list[str | None] | None]]:
    """Each Arrow batch in slices of at most _CHUNK_ROWS rows (so a task's memory stays
    bounded): the slice, its statements' bytes and its passwords (None: no password column)."""
    for batch in batches:
        for start in range(0, batch.num_rows, _CHUNK_ROWS):
            part = batch.slice(start, _CHUNK_ROWS)
            sources = [_as_bytes(v) for v in part.column(content).to_pylist()]
            secrets = part.column(password).to_pylist() if password is not None else None
            yield part, sources, secrets


def _task_workers() -> int:
    """Engine threads for this task: ``spark.task.cpus`` (1 outside a task)."""
    from pyspark import TaskContext

    context = TaskContext.get()
    return max(1, context.cpus()) if context is not None else 1


def _as_bytes(value: bytes | str | None) -> bytes:
    if value is None:
        return b""
    if isinstance(value, str):
        return value.encode("utf-8")
    return value


def _report_columns(slots: Sequence[_alama.Report | _alama.AlamaError]) -> list[list[Any]]:
    """The REPORT_SCHEMA columns of the engine's results, read from the Report objects."""
    columns: list[list[Any]] = [[] for _ in REPORT_SCHEMA.fields]
    for slot in slots:
        if isinstance(slot, _alama.AlamaError):
            row: tuple[Any, ...] = ("failed", None, None, None, None, None, None)
            row += (slot.code, slot.message, None)
        else:
            row = (
                slot.status,
                slot.report_id,
                slot.score,
                slot.band,
                slot.statement_period,
                slot.scorecard_version,
                slot.integrity.status,
                None,
                None,
                slot.to_json(),
            )
        for values, value in zip(columns, row):
            values.append(value)
    return columns
