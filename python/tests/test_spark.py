"""alama.spark on a local[2] Spark: the rows carry the engine's reports, byte for byte the CLI's.

Needs pyspark, pyarrow and Java 17: skipped when they are absent, unless ALAMA_REQUIRE_SPARK=1
(the "Spark" step of scripts/test-all.sh), where that fails. The CLI is $ALAMA_CLI or
target/release/alama (see conftest.cli). Real statements hold personal data: their reports are
compared by SHA-256 and nothing from them is printed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest

import alama
from conftest import REAL, real_file
from synthetic import statement_dict

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

SYNTHETIC = 1000
PW183177 = "mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf"


def unavailable() -> str | None:
    """Why Spark cannot run here, or None."""
    try:
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as error:
        return f"pyspark/pyarrow not installed ({error}): pip install pyspark pyarrow 'pandas<3'"
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and Path(java_home, "bin", "java").exists()):
        return "no Java: apt-get install openjdk-17-jre-headless"
    return None


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    """A local[2] session whose Python workers run this interpreter (the one with alama)."""
    reason = unavailable()
    if reason is not None:
        if os.environ.get("ALAMA_REQUIRE_SPARK") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("alama-spark-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


class Outcome(NamedTuple):
    """What `alama score FILE --format json` did: the report's SHA-256, or the error code."""

    report_sha: str | None
    error_code: str | None


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def cli_outcome(cli: Path, path: Path, password: str | None) -> Outcome:
    args = [str(cli), "score", str(path), "--format", "json"]
    if password is not None:
        args += ["--password", password]
    env = {k: v for k, v in os.environ.items() if k != "ALAMA_PASSWORD"}
    run = subprocess.run(args, capture_output=True, check=False, env=env)
    if run.returncode == 0:
        out = run.stdout.decode()
        assert out.endswith("\n") and out.count("\n") == 1, path.name
        return Outcome(sha(out[:-1]), None)
    match = re.search(r"error\[([a-z_]+)\]", run.stderr.decode(errors="replace"))
    assert match is not None, f"{path.name}: exit {run.returncode} without error[code]"
    return Outcome(None, match.group(1))


def row_outcome(row: Any) -> Outcome:
    if row["status"] == "completed":
        assert row["errorCode"] is None and row["errorMessage"] is None
        return Outcome(sha(row["reportJson"]), None)
    assert row["status"] == "failed"
    assert row["reportJson"] is None and row["score"] is None and row["errorMessage"]
    return Outcome(None, row["errorCode"])


def real_password(path: Path) -> str | None:
    """The sample README's passwords are in the file names (`..._pw183177...`)."""
    match = re.search(r"_pw(\d+)", path.name)
    return match.group(1) if match else None


@pytest.fixture(scope="module")
def synthetic_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SYNTHETIC statements written by the engine: canonical JSON, every fourth one as CSV."""
    folder = tmp_path_factory.mktemp("synthetic")
    for seed in range(SYNTHETIC):
        statement = alama.Statement.from_dict(statement_dict(seed, months=3, rows_per_month=30))
        if seed % 4 == 0:
            (folder / f"s{seed:04d}.csv").write_text(statement.to_csv(), encoding="utf-8")
        else:
            (folder / f"s{seed:04d}.json").write_text(statement.to_json(), encoding="utf-8")
    return folder


def local_path(spark_path: str) -> Path:
    assert spark_path.startswith("file:/"), "local files are listed as file:/..."
    return Path(spark_path[len("file:") :])


def test_real_and_synthetic_reports_match_the_cli(
    spark: SparkSession, cli: Path, synthetic_dir: Path
) -> None:
    import alama.spark

    real = sorted(p for p in REAL.glob("*") if p.suffix in (".pdf", ".csv")) if REAL.is_dir() else []
    table = spark.createDataFrame(
        [(str(p), real_password(p)) for p in real if real_password(p)], "path string, password string"
    )
    sources = [str(synthetic_dir), *map(str, real)]
    rows = alama.spark.score_files(spark, sources, passwords=table).collect()

    by_path = {local_path(row["path"]): row for row in rows}
    expected_files = sorted(synthetic_dir.iterdir()) + real
    assert len(rows) == len(by_path) == len(expected_files) == SYNTHETIC + len(real)
    assert set(by_path) == set(expected_files)

    def expected(path: Path) -> Outcome:
        return cli_outcome(cli, path, real_password(path))

    with ThreadPoolExecutor(max_workers=2) as pool:
        cli_results = dict(zip(expected_files, pool.map(expected, expected_files)))
    mismatched = [p.name for p in expected_files if row_outcome(by_path[p]) != cli_results[p]]
    assert mismatched == [], f"{len(mismatched)} rows differ from the CLI: {mismatched[:10]}"

    synthetic_rows = [by_path[p] for p in expected_files[:SYNTHETIC]]
    assert all(r["status"] == "completed" for r in synthetic_rows)
    for row in synthetic_rows[:5]:
        report = alama.Report.from_json(row["reportJson"])
        assert row["reportId"] == report.report_id and row["score"] == report.score
        assert row["band"] == report.band and row["statementPeriod"] == report.statement_period
        assert row["integrityStatus"] == report.integrity.status
        assert row["scorecardVersion"] == alama.SCORECARD_VERSION
    if real:
        # The four PDFs with documented passwords or none, and the ones with a password, score.
        scored_real = [p.name for p in real if by_path[p]["status"] == "completed"]
        assert PW183177 in scored_real and len(scored_real) >= 5
        locked = [p for p in real if "pw_unknown" in p.name]
        assert [by_path[p]["errorCode"] for p in locked] == ["password_required"] * len(locked)


def test_bad_files_yield_their_error_codes_and_the_job_succeeds(
    spark: SparkSession, cli: Path, tmp_path: Path
) -> None:
    import alama.spark

    encrypted = real_file(PW183177)
    good = tmp_path / "good.json"
    good.write_text(alama.Statement.from_dict(statement_dict(7, months=2)).to_json(), encoding="utf-8")
    corrupt = tmp_path / "corrupt.pdf"  # a PDF cut off after its first object
    corrupt.write_bytes(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")
    not_a_statement = tmp_path / "notes.txt"
    not_a_statement.write_text("hello", encoding="utf-8")

    # A mapping: a wrong password by absolute path, which wins over the right one by file name.
    passwords = {str(encrypted): "00000000", encrypted.name: "183177"}
    paths = [good, corrupt, not_a_statement, encrypted]
    rows = alama.spark.score_files(spark, [str(p) for p in paths], passwords=passwords).collect()
    by_name = {local_path(r["path"]).name: r for r in rows}
    assert len(rows) == 4

    assert by_name["good.json"]["status"] == "completed"
    assert by_name[encrypted.name]["errorCode"] == "wrong_password"
    assert by_name["corrupt.pdf"]["errorCode"] == "malformed_statement"
    assert by_name["notes.txt"]["errorCode"] == "unsupported_format"
    for path, password in [(corrupt, None), (not_a_statement, None), (encrypted, "00000000")]:
        assert row_outcome(by_name[path.name]) == cli_outcome(cli, path, password)
    assert "00000000" not in by_name[encrypted.name]["errorMessage"]

    # By file name alone, the right password opens it; one str is every file's password.
    [row] = alama.spark.score_files(spark, str(encrypted), passwords={encrypted.name: "183177"}).collect()
    assert row["status"] == "completed"
    assert row_outcome(row) == cli_outcome(cli, encrypted, "183177")
    [row] = alama.spark.score_files(spark, str(encrypted), passwords="183177").collect()
    assert row["status"] == "completed"
    [row] = alama.spark.score_files(spark, str(encrypted)).collect()
    assert row["errorCode"] == "password_required"


def test_score_column_keeps_other_columns_and_drops_bytes_and_passwords(spark: SparkSession) -> None:
    import alama.spark

    statements = [alama.Statement.from_dict(statement_dict(seed, months=2)) for seed in (11, 12)]
    data = [
        ("a", bytearray(statements[0].to_json().encode()), None),
        ("b", bytearray(statements[1].to_csv().encode()), "unused"),
        ("c", None, None),
        ("d", bytearray(b"%PDF-1.4\n%%EOF\n"), "pw"),
    ]
    df = spark.createDataFrame(data, "id string, pdf binary, pw string")
    out = alama.spark.score_column(df, "pdf", password_column="pw")
    assert out.columns == ["id", *alama.spark.REPORT_SCHEMA.fieldNames()]
    rows = {r["id"]: r for r in out.collect()}
    assert rows["a"]["reportJson"] == alama.score(statements[0]).to_json()
    assert rows["b"]["reportJson"] == alama.score(statements[1].to_csv().encode()).to_json()
    for key, source in [("c", b""), ("d", b"%PDF-1.4\n%%EOF\n")]:
        with pytest.raises(alama.AlamaError) as excinfo:
            alama.score(source, password=None if key == "c" else "pw")
        assert rows[key]["status"] == "failed"
        assert rows[key]["errorCode"] == excinfo.value.code
        assert rows[key]["errorMessage"] == excinfo.value.message


def test_result_schema_and_argument_errors(spark: SparkSession, tmp_path: Path) -> None:
    import alama.spark
    from pyspark.sql.types import IntegerType, StringType

    statement = tmp_path / "one.json"
    statement.write_text(alama.Statement.from_dict(statement_dict(3, months=2)).to_json(), encoding="utf-8")
    df = alama.spark.score_files(spark, statement, scorecard=alama.SCORECARD_VERSION)
    assert df.schema.fieldNames() == alama.spark.RESULT_SCHEMA.fieldNames() == [
        "path", "status", "reportId", "score", "band", "statementPeriod", "scorecardVersion",
        "integrityStatus", "errorCode", "errorMessage", "reportJson",
    ]
    assert [f.dataType for f in df.schema.fields] == [f.dataType for f in alama.spark.RESULT_SCHEMA.fields]
    assert alama.spark.RESULT_SCHEMA["score"].dataType == IntegerType()
    assert alama.spark.RESULT_SCHEMA["reportJson"].dataType == StringType()

    with pytest.raises(ValueError, match="pass an alama.Scorecard"):
        alama.spark.score_files(spark, statement, scorecard="my-own-scorecard")
    with pytest.raises(ValueError, match="no paths"):
        alama.spark.score_files(spark, [])
    with pytest.raises(ValueError, match="lacks"):
        alama.spark.score_files(spark, statement, passwords=spark.createDataFrame([("x",)], "file string"))
    not_str: Any = {"one.json": 1234}
    with pytest.raises(TypeError, match="not a str"):
        alama.spark.score_files(spark, statement, passwords=not_str)
    with pytest.raises(ValueError, match="no column"):
        alama.spark.score_column(spark.createDataFrame([("x",)], "id string"), "pdf")
    clashing = spark.createDataFrame([(b"x", 1)], "pdf binary, score int")
    with pytest.raises(ValueError, match="output column"):
        alama.spark.score_column(clashing, "pdf")


CARDS = Path(__file__).resolve().parents[2] / "tests" / "scorecard-vectors"


def test_a_lenders_own_scorecard_scores_on_the_executors(spark: SparkSession, tmp_path: Path) -> None:
    """score_files(scorecard=card) gives, per file, the report alama.score gives with that card."""
    import alama.spark

    card = alama.Scorecard.load(CARDS / "fitted-synthetic-2027.01.json")
    statements = [alama.Statement.from_dict(statement_dict(seed, months=6)) for seed in (21, 22, 23)]
    for i, statement in enumerate(statements):
        (tmp_path / f"s{i}.json").write_text(statement.to_json(), encoding="utf-8")
    rows = {
        Path(r["path"]).name: r
        for r in alama.spark.score_files(spark, str(tmp_path), scorecard=card).collect()
    }
    assert len(rows) == 3
    for i, statement in enumerate(statements):
        row = rows[f"s{i}.json"]
        expected = alama.score(statement, scorecard=card)
        assert row["status"] == "completed"
        assert row["scorecardVersion"] == card.version != alama.SCORECARD_VERSION
        assert row["reportJson"] == expected.to_json()
        assert row["reportJson"] != alama.score(statement).to_json()


def test_currency_errors_are_rows_with_their_codes(spark: SparkSession, tmp_path: Path) -> None:
    """A card of another currency (currency_mismatch) and a currency without a card
    (unsupported_currency) fail their rows with the engine's codes; the job succeeds."""
    import alama.spark

    statement = alama.Statement.from_dict(statement_dict(41, months=3)).to_json()
    for currency in ("KES", "UGX", "USD"):
        value = json.loads(statement)
        value["currency"] = currency
        (tmp_path / f"{currency}.json").write_text(json.dumps(value), encoding="utf-8")

    def by_currency(**kwargs: Any) -> dict[str, Any]:
        rows = alama.spark.score_files(spark, str(tmp_path), **kwargs).collect()
        return {Path(r["path"]).stem: r for r in rows}

    rows = by_currency()
    assert rows["KES"]["scorecardVersion"] == alama.SCORECARD_VERSION
    assert rows["UGX"]["status"] == "completed"
    assert rows["UGX"]["scorecardVersion"] == "alama-ugx-2027.03"
    assert rows["USD"]["status"] == "failed"
    assert rows["USD"]["errorCode"] == "unsupported_currency"
    assert "UGX" in rows["USD"]["errorMessage"]
    for card in (alama.Scorecard.builtin(), alama.SCORECARD_VERSION):
        rows = by_currency(scorecard=card)
        assert rows["KES"]["status"] == "completed"
        assert rows["UGX"]["status"] == "failed"
        assert rows["UGX"]["errorCode"] == "currency_mismatch"
        assert rows["UGX"]["reportJson"] is None
        assert rows["USD"]["errorCode"] == "currency_mismatch"


def test_features_on_spark_equal_features_frame(spark: SparkSession) -> None:
    """alama.spark.features gives the catalogue figures of features_frame, null for NaN, and an
    unreadable statement its error code with null figures."""
    import math

    import alama.spark

    statements = [alama.Statement.from_dict(statement_dict(seed, months=4)) for seed in (31, 32)]
    data = [
        ("a", bytearray(statements[0].to_json().encode())),
        ("b", bytearray(statements[1].to_csv().encode())),
        ("c", bytearray(b"not a statement")),
    ]
    out = alama.spark.features(spark.createDataFrame(data, "id string, raw binary"), "raw")
    names = [d["name"] for d in alama.feature_catalogue()]
    assert out.columns == ["id", "errorCode", "errorMessage", *names]
    rows = {r["id"]: r for r in out.collect()}
    frame = alama.features_frame([statements[0], statements[1].to_csv().encode()])
    for key, index in [("a", 0), ("b", 1)]:
        assert rows[key]["errorCode"] is None
        for name in names:
            want = frame[name].iloc[index]
            got = rows[key][name]
            assert (got is None) if math.isnan(want) else (got == want), (key, name)
    with pytest.raises(alama.AlamaError) as excinfo:
        alama.features(b"not a statement")
    assert rows["c"]["errorCode"] == excinfo.value.code
    assert all(rows["c"][name] is None for name in names)
    with pytest.raises(ValueError, match="output column"):
        alama.spark.features(spark.createDataFrame([(b"x", 1.0)], "raw binary, statement_days double"), "raw")
