// Kotlin/JVM tests of the Alama mobile bindings (package ke.alama), run against the real
// libalama_mobile.so through JNA. Run by bindings/mobile/ci.sh:
//
//   java -Djna.library.path=<dir of libalama_mobile.so> -cp <jar>:<jna.jar>:<kotlin-stdlib.jar>:<coroutines.jar> \
//       ke.alama.test.AlamaTestKt <repo root>
//
// Environment: ALAMA_CLI (path of the `alama` CLI; default <repo>/target/release/alama),
// ALAMA_SAMPLES (default <repo>/../shared/samples/real). Checks that need a missing file are
// skipped with a message. Prints one line per check and closes with "N passed, N failed, N skipped";
// exits 1 when a check failed.
//
// The real statements hold personal data: nothing read from them (names, numbers, details,
// error details) is printed, only counts, amounts, codes and lengths.
//
// (Over 400 lines: one test program that ci.sh compiles and runs alone, its tiny harness and
// helpers first, then one function per area of the binding.)

package ke.alama.test

import ke.alama.AccountHolder
import ke.alama.AlamaException
import ke.alama.Band
import ke.alama.Category
import ke.alama.Report
import ke.alama.ReportStatus
import ke.alama.Scorecard
import ke.alama.Statement
import ke.alama.Transaction
import ke.alama.LoanTerms
import ke.alama.TransactionStatus
import ke.alama.engineVersion
import ke.alama.errorCode
import ke.alama.parseStatement
import ke.alama.parseStatementAsync
import ke.alama.reportFromJson
import ke.alama.reportToJson
import ke.alama.score
import ke.alama.scoreApplication
import ke.alama.scoreApplicationJson
import ke.alama.scoreStatement
import ke.alama.scoreStatementAsync
import ke.alama.scoreStatementJson
import ke.alama.statementToJson
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import java.io.File
import java.math.BigDecimal
import java.util.concurrent.TimeUnit
import kotlin.system.exitProcess

// ---- a tiny test harness ----------------------------------------------------------------------

object T {
    var passed = 0
    var failed = 0
    var skipped = 0

    fun ok(name: String, condition: Boolean, detail: () -> String = { "" }) {
        if (condition) {
            passed++
            println("ok   $name")
        } else {
            failed++
            println("FAIL $name ${detail()}")
        }
    }

    fun <A> eq(name: String, actual: A, expected: A) =
        ok(name, actual == expected) { "expected <$expected> got <$actual>" }

    /** Equality of values read from real statements: on failure prints nothing of the values. */
    fun <A> eqPrivate(name: String, actual: A, expected: A) = ok(name, actual == expected) { "(values withheld: personal data)" }

    /** Exact money: same number AND same scale (BigDecimal.equals), e.g. 1201133.99 and not 1201133.990. */
    fun money(name: String, actual: BigDecimal?, expected: String) =
        ok(name, actual != null && actual == BigDecimal(expected)) { "expected $expected got ${actual?.toPlainString()}" }

    fun skip(name: String, why: String) {
        skipped++
        println("skip $name: $why")
    }

    /** Runs a block; an unexpected exception fails the check without printing its (maybe personal) detail. */
    fun guard(name: String, private: Boolean = false, block: () -> Unit) {
        try {
            block()
        } catch (e: AlamaException) {
            failed++
            val what = if (private) "" else " ${e.message}"
            println("FAIL $name: unexpected AlamaException.${e::class.simpleName} [${errorCode(e)}]$what")
        } catch (e: Throwable) {
            failed++
            val what = if (private) "" else " ${e.message}"
            println("FAIL $name: unexpected ${e::class.qualifiedName}$what")
        }
    }

    /** Expects the call to throw an AlamaException of class [E] with the engine code [code]. */
    inline fun <reified E : AlamaException> throws(name: String, code: String, block: () -> Any?): E? {
        try {
            block()
            failed++
            println("FAIL $name: no exception, expected ${E::class.simpleName} [$code]")
        } catch (e: AlamaException) {
            if (e is E && errorCode(e) == code) {
                passed++
                println("ok   $name -> ${e::class.simpleName} [$code]")
                return e
            }
            failed++
            println("FAIL $name: got ${e::class.simpleName} [${errorCode(e)}], expected ${E::class.simpleName} [$code]")
        } catch (e: Throwable) {
            failed++
            println("FAIL $name: got ${e::class.qualifiedName}, expected ${E::class.simpleName} [$code]")
        }
        return null
    }
}

// ---- helpers ------------------------------------------------------------------------------------

lateinit var repo: File
var cli: File? = null

/** `alama score FILE --format json [--password PW]`, stdout without its trailing newline; null without a CLI. */
fun cliScore(file: File, password: String? = null): String? {
    val exe = cli ?: return null
    val cmd = mutableListOf(exe.path, "score", file.path, "--format", "json")
    if (password != null) cmd += listOf("--password", password)
    val p = ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start()
    val out = p.inputStream.readBytes().toString(Charsets.UTF_8)
    p.waitFor(300, TimeUnit.SECONDS)
    if (p.exitValue() != 0) throw IllegalStateException("alama score exited ${p.exitValue()}")
    return out.removeSuffix("\n")
}

/** Compares two JSON texts byte for byte; a mismatch prints lengths and the first differing offset only. */
fun sameJson(name: String, actual: String, expected: String) {
    val at = actual.zip(expected).indexOfFirst { (a, b) -> a != b }.let { if (it < 0) minOf(actual.length, expected.length) else it }
    T.ok(name, actual == expected) { "lengths ${actual.length} vs ${expected.length}, first difference at offset $at" }
}

/** The raw text of a top-level key's value in a JSON object (a test helper: strings and nesting aware). */
fun jsonMember(text: String, key: String): String? {
    var depth = 0
    var inString = false
    var stringStart = -1
    var lastString: String? = null
    var currentKey: String? = null
    var valueStart = -1
    var i = 0
    while (i < text.length) {
        val c = text[i]
        if (inString) {
            if (c == '\\') i++
            else if (c == '"') { inString = false; lastString = text.substring(stringStart, i) }
        } else when (c) {
            '"' -> { inString = true; stringStart = i + 1 }
            ':' -> if (depth == 1) { currentKey = lastString; valueStart = i + 1 }
            '{', '[' -> depth++
            ',' -> if (depth == 1) {
                if (currentKey == key) return text.substring(valueStart, i).trim()
                currentKey = null
            }
            '}', ']' -> {
                depth--
                if (depth == 0) return if (currentKey == key) text.substring(valueStart, i).trim() else null
            }
        }
        i++
    }
    return null
}

fun tx(receipt: String, at: String, details: String, paidIn: String, withdrawn: String, balance: String?) =
    Transaction(
        receiptNo = receipt,
        completedAt = at,
        details = details,
        status = TransactionStatus.COMPLETED,
        paidIn = BigDecimal(paidIn),
        withdrawn = BigDecimal(withdrawn),
        balance = balance?.let { BigDecimal(it) },
        category = Category.UNCATEGORISED,
    )

// A small M-Pesa-style CSV written for these tests (no real person).
const val SMALL_CSV = """Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance
SJK1AB2CD3,2024-05-23 14:02:11,Funds received from 0700000001 - JANE EXAMPLE,Completed,1500.00,,2925.00
SJK1AB2CD4,2024-05-22 09:15:00,Customer Transfer to 0700000002 - JOHN EXAMPLE,Completed,,-425.00,1425.00
SJK1AB2CD4,2024-05-22 09:15:00,Customer Transfer of Funds Charge,Completed,,-7.00,1850.00
SJK1AB2CD5,2024-04-30 18:00:00,Business Payment from 123456 - EXAMPLE EMPLOYER LTD via API,Completed,1857.00,,1857.00
SJK1AB2CD6,2024-04-29 10:00:00,Merchant Payment to 500000 - EXAMPLE SHOP,Failed,,-99.00,0.00
"""

// ---- the tests ----------------------------------------------------------------------------------

fun testSmallCsv() {
    val bytes = SMALL_CSV.toByteArray()
    T.guard("small CSV: parseStatement") {
        val s = parseStatement(bytes)
        T.eq("small CSV: 5 rows", s.transactions.size, 5)
        T.eq("small CSV: provider", s.provider, "mpesa")
        T.eq("small CSV: currency", s.currency, "KES")
        val first = s.transactions[0]
        T.eq("small CSV: receiptNo", first.receiptNo, "SJK1AB2CD3")
        T.eq("small CSV: completedAt is ISO 8601 local time", first.completedAt, "2024-05-23T14:02:11")
        T.ok("small CSV: completedAt parses as java.time.LocalDateTime",
            java.time.LocalDateTime.parse(first.completedAt) == java.time.LocalDateTime.of(2024, 5, 23, 14, 2, 11))
        T.eq("small CSV: details", first.details, "Funds received from 0700000001 - JANE EXAMPLE")
        T.eq("small CSV: status", first.status, TransactionStatus.COMPLETED)
        T.money("small CSV: paidIn BigDecimal 1500.00", first.paidIn, "1500.00")
        T.eq("small CSV: paidIn keeps its scale", first.paidIn.scale(), 2)
        T.ok("small CSV: empty Withdrawn is zero", first.withdrawn.signum() == 0) { first.withdrawn.toPlainString() }
        T.money("small CSV: balance", first.balance, "2925.00")
        T.ok("small CSV: rows are categorised", s.transactions.none { it.category == Category.UNCATEGORISED })
        T.money("small CSV: withdrawn is positive", s.transactions[1].withdrawn, "425.00")
        T.eq("small CSV: failed row status", s.transactions[4].status, TransactionStatus.FAILED)
        val sumIn = s.transactions.filter { it.status == TransactionStatus.COMPLETED }.fold(BigDecimal.ZERO) { a, t -> a + t.paidIn }
        T.ok("small CSV: BigDecimal sum of paidIn is exact", sumIn.compareTo(BigDecimal("3357.00")) == 0) { sumIn.toPlainString() }

        val r = score(s)
        val rb = scoreStatement(bytes)
        T.eq("small CSV: score(parse) == scoreStatement", r, rb)
        T.eq("small CSV: asOf after the statement changes nothing", scoreStatement(bytes, asOf = "2030-01-01"), rb)
        val early = scoreStatement(bytes, asOf = "2024-01-01")
        T.ok("small CSV: asOf before the statement is failed", early.integrity.status == "failed" && early.integrity.findings.any { it.code == "after_analysis_date" }) { early.integrity.status }
        T.eq("small CSV: status", r.status, ReportStatus.COMPLETED)
        T.ok("small CSV: score in 300..850", r.score.toInt() in 300..850) { "${r.score}" }
        T.ok("small CSV: band matches score", bandOf(r.score.toInt()) == r.band) { "${r.score} ${r.band}" }
        T.ok("small CSV: reportId shape", Regex("rpt_[0-9a-f]{24}").matches(r.reportId)) { r.reportId }
        T.ok("small CSV: factors present", r.factors.isNotEmpty())
        T.ok("small CSV: factor points within max", r.factors.all { it.score <= it.max })
        val knockout = r.reasonCodes.filter { it.code.startsWith("K") }.sumOf { it.pointsLost.toInt() }
        T.eq("small CSV: score = 300 + sum of factor points - knock-out", r.score.toInt(), 300 + r.factors.sumOf { it.score.toInt() } - knockout)
        T.eq("small CSV: overview transactionCount", r.statement.transactionCount, 5u)
        T.eq("small CSV: overview completedCount", r.statement.completedCount, 4u)
        T.ok("small CSV: overview totalPaidIn", r.statement.totalPaidIn.compareTo(BigDecimal("3357.00")) == 0) { r.statement.totalPaidIn.toPlainString() }
        T.ok("small CSV: overview totalWithdrawn", r.statement.totalWithdrawn.compareTo(BigDecimal("432.00")) == 0) { r.statement.totalWithdrawn.toPlainString() }
        T.eq("small CSV: overview months", r.statement.monthly.map { it.month }, listOf("2024-04", "2024-05"))
        T.eq("small CSV: period", r.statement.periodStart to r.statement.periodEnd, "2024-04-29" to "2024-05-23")
        T.eq("small CSV: statementPeriod", r.statementPeriod, "Apr 2024 - May 2024")

        // JSON: the record converts back to exactly the engine's bytes, and to the CLI's.
        val json = scoreStatementJson(bytes)
        sameJson("small CSV: reportToJson(record) == scoreStatementJson", reportToJson(r), json)
        sameJson("small CSV: reportFromJson round trip", reportToJson(reportFromJson(json)), json)
        T.eq("small CSV: reportFromJson equals the record", reportFromJson(json), r)
        val tmp = File.createTempFile("alama-small", ".csv").apply { writeBytes(bytes); deleteOnExit() }
        val fromCli = cliScore(tmp)
        if (fromCli == null) T.skip("small CSV: JSON equals the CLI's", "no CLI (set ALAMA_CLI or build target/release/alama)")
        else sameJson("small CSV: JSON equals the CLI's", reportToJson(r), fromCli)

        // The statement crosses back and forth unchanged.
        val again = parseStatement(statementToJson(s).toByteArray())
        // `source` records the input format (CSV, then JSON): everything else round-trips.
        T.eq("small CSV: statement JSON round trip", again.copy(source = s.source), s)
        T.eq("small CSV: order does not matter", score(s.copy(transactions = s.transactions.reversed())).reportId, r.reportId)
    }
}

fun bandOf(score: Int): Band = when {
    score < 580 -> Band.POOR
    score < 670 -> Band.FAIR
    score < 740 -> Band.GOOD
    score < 800 -> Band.VERY_GOOD
    else -> Band.EXCELLENT
}

fun testBuiltInKotlin() {
    T.guard("Kotlin-built statement") {
        val s = Statement(
            provider = "mtn-momo",
            holder = AccountHolder(),
            currency = "UGX",
            transactions = listOf(
                tx("AAAAAAAAA1", "2024-03-01T08:00:00", "Salary", "250000.50", "0", "250000.50"),
                tx("AAAAAAAAA2", "2024-03-02T09:30:00", "Shop", "0", "1000.25", null),
            ),
        )
        val r = score(s)
        T.eq("Kotlin-built: currency carried", r.statement.currency, "UGX")
        T.eq("Kotlin-built: provider carried", r.statement.provider, "mtn-momo")
        T.money("Kotlin-built: totalPaidIn exact", r.statement.totalPaidIn, "250000.50")
        T.money("Kotlin-built: totalWithdrawn exact", r.statement.totalWithdrawn, "1000.25")
        val stmtJson = statementToJson(s)
        T.ok("Kotlin-built: statement JSON has money as strings", stmtJson.contains("\"paidIn\":\"250000.50\"")) { stmtJson.take(0) }
        T.ok("Kotlin-built: statement JSON has ISO times", stmtJson.contains("\"completedAt\":\"2024-03-01T08:00:00\""))
        sameJson("Kotlin-built: score == scoreStatementJson of its JSON", reportToJson(r), scoreStatementJson(stmtJson.toByteArray()))
    }
    // A value Kotlin hands in that the engine cannot read is an AlamaException, not a crash.
    val badTime = Statement(provider = "mpesa", holder = AccountHolder(),
        transactions = listOf(tx("AAAAAAAAA1", "yesterday", "x", "1.00", "0", null)))
    T.throws<AlamaException.MalformedStatement>("Kotlin-built: bad completedAt", "malformed_statement") { score(badTime) }
    val hugeAmount = Statement(provider = "mpesa", holder = AccountHolder(),
        transactions = listOf(tx("AAAAAAAAA1", "2024-03-01T08:00:00", "x", "1" + "0".repeat(40), "0", null)))
    T.throws<AlamaException.MalformedStatement>("Kotlin-built: amount beyond 28 digits", "malformed_statement") { score(hugeAmount) }
}

fun testErrors() {
    T.throws<AlamaException.UnsupportedFormat>("error: PNG bytes", "unsupported_format") {
        parseStatement(byteArrayOf(0x89.toByte(), 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0))
    }
    T.throws<AlamaException.UnsupportedFormat>("error: empty input", "unsupported_format") { parseStatement(ByteArray(0)) }
    T.throws<AlamaException.UnsupportedWallet>("error: CSV of another layout", "unsupported_wallet") {
        parseStatement("colour,size,weight\nred,2,3\n".toByteArray())
    }
    val malformed = T.throws<AlamaException.MalformedStatement>("error: broken JSON", "malformed_statement") {
        parseStatement("{\"transactions\": [ {\"receiptNo\": }".toByteArray())
    }
    if (malformed != null) T.ok("error: MalformedStatement has page/line", malformed.page == 0u && malformed.line >= 1u) { "${malformed.page}/${malformed.line}" }
    T.throws<AlamaException.MalformedStatement>("error: JSON money as float", "malformed_statement") {
        parseStatement("""{"transactions":[{"receiptNo":"A","completedAt":"2024-01-01T00:00:00","details":"","status":"completed","paidIn":12.5,"withdrawn":"0"}]}""".toByteArray())
    }
    T.throws<AlamaException.MalformedStatement>("error: broken PDF", "malformed_statement") {
        parseStatement("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF".toByteArray())
    }
    T.throws<AlamaException.EmptyStatement>("error: header-only CSV scores as empty", "empty_statement") {
        scoreStatement(SMALL_CSV.lines().first().plus("\n").toByteArray())
    }
    T.throws<AlamaException.EmptyStatement>("error: no completed rows", "empty_statement") {
        score(Statement(provider = "mpesa", holder = AccountHolder(), transactions = emptyList()))
    }
    val big = T.throws<AlamaException.TooLarge>("error: 33 MiB input", "too_large") { parseStatement(ByteArray(33 * 1024 * 1024) { 'a'.code.toByte() }) }
    if (big != null) T.eq("error: TooLarge names the limit", big.limit, 32uL * 1024uL * 1024uL)
    // Issue 38: a card of another currency, and a currency without a built-in card.
    val example = File(repo, "examples/statement.json")
    if (!example.isFile) {
        T.skip("error: currency_mismatch and unsupported_currency", "examples/statement.json missing")
    } else {
        val labelled = { currency: String ->
            example.readText().replaceFirst(Regex("\"currency\"\\s*:\\s*\"KES\""), "\"currency\": \"$currency\"").toByteArray()
        }
        val mismatch = T.throws<AlamaException.CurrencyMismatch>("error: a KES card on a UGX statement", "currency_mismatch") {
            scoreStatement(labelled("UGX"), scorecard = Scorecard.builtin())
        }
        if (mismatch != null) T.ok("error: CurrencyMismatch names both currencies", mismatch.detail.contains("KES") && mismatch.detail.contains("UGX")) { mismatch.detail }
        val unsupported = T.throws<AlamaException.UnsupportedCurrency>("error: a USD statement without a card", "unsupported_currency") {
            scoreStatement(labelled("USD"))
        }
        if (unsupported != null) {
            T.ok("error: UnsupportedCurrency names the currencies with a card", listOf("USD", "KES", "UGX", "GHS", "LSL").all { unsupported.detail.contains(it) }) { unsupported.detail }
        }
        T.guard("error: a UGX statement scores with the UGX card") {
            T.eq("error: a UGX statement scores with the UGX card", scoreStatement(labelled("UGX")).scorecardVersion, "alama-ugx-2027.03")
        }
    }
    // Every case of the enum crosses the FFI with its stable code (io_error cannot arise from bytes).
    val all = listOf(
        AlamaException.PasswordRequired("d"), AlamaException.WrongPassword("d"), AlamaException.UnsupportedFormat("d"),
        AlamaException.UnsupportedWallet("d"), AlamaException.MalformedStatement(1u, 2u, "d"), AlamaException.EmptyStatement("d"),
        AlamaException.TooLarge(3uL, "d"), AlamaException.Io("d"), AlamaException.InvalidScorecard("d"),
        AlamaException.CurrencyMismatch("d"), AlamaException.UnsupportedCurrency("d"), AlamaException.InvalidTerms("d"),
    )
    T.eq("error: every case has its engine code", all.map { errorCode(it) }, listOf(
        "password_required", "wrong_password", "unsupported_format", "unsupported_wallet",
        "malformed_statement", "empty_statement", "too_large", "io_error", "invalid_scorecard",
        "currency_mismatch", "unsupported_currency", "invalid_terms"))
    T.eq("error: unknown future kinds keep their code", errorCode(AlamaException.Other("new_kind", "d")), "new_kind")
    T.ok("error: engineVersion", engineVersion().isNotEmpty())
}

fun testAsync() {
    val bytes = SMALL_CSV.toByteArray()
    T.guard("async") {
        runBlocking {
            val viaSuspend = scoreStatementAsync(bytes)
            val viaDispatcher = withContext(Dispatchers.Default) { scoreStatement(bytes) }
            T.eq("async: scoreStatementAsync == scoreStatement", viaSuspend, viaDispatcher)
            T.eq("async: parseStatementAsync", parseStatementAsync(bytes).transactions.size, 5)
        }
    }
    T.throws<AlamaException.UnsupportedFormat>("async: errors arrive as AlamaException", "unsupported_format") {
        runBlocking { scoreStatementAsync(byteArrayOf(0, 1, 2, 3)) }
    }
}

fun testVectors() {
    val dir = File(repo, "tests/vectors")
    val files = dir.listFiles { f -> f.name.endsWith(".json") }?.sortedBy { it.name }.orEmpty()
    if (files.isEmpty()) {
        T.skip("golden vectors", "none in ${dir.path}")
        return
    }
    for (f in files) T.guard("vector ${f.name}") {
        val text = f.readText()
        // A vector of another wallet names its own file (PDF or CSV) instead of a canonical input.
        val file = jsonString(text, "file")
        val input = if (file != null) File(dir, file).readBytes() else jsonMember(text, "input")?.toByteArray()
        val expected = jsonMember(text, "report")
        if (input == null || expected == null) {
            T.ok("vector ${f.name}: has input (or file) and report", false)
            return@guard
        }
        val canonical = reportToJson(reportFromJson(expected))
        val report = score(parseStatement(input))
        sameJson("vector ${f.name}: report JSON", reportToJson(report), canonical)
        if (file != null) sameJson("vector ${f.name}: scoreStatementJson", scoreStatementJson(input), canonical)
    }
}

/**
 * Application vectors (tests/vectors/applications/): the statements of one invented applicant and
 * the loan terms; `scoreApplication` (suspend) and `scoreApplicationJson` give the committed
 * application report byte for byte, in any order of the statements.
 */
fun testApplicationVectors() {
    val dir = File(repo, "tests/vectors/applications")
    val files = dir.listFiles { f -> f.name.endsWith(".json") }?.sortedBy { it.name }.orEmpty()
    T.ok("application vectors are present", files.size >= 4)
    for (f in files) T.guard("application vector ${f.name}") {
        val text = f.readText()
        val inputs = jsonElements(jsonMember(text, "inputs") ?: "[]").map { it.toByteArray() }
        val expected = compactJson(jsonMember(text, "application") ?: "")
        val termsText = jsonMember(text, "terms")
        val terms = if (termsText == null || termsText == "null") null else {
            val pricing = jsonMember(termsText, "pricing") ?: "{}"
            LoanTerms(
                principal = BigDecimal(jsonString(termsText, "principal") ?: "0"),
                tenorMonths = (jsonMember(termsText, "tenorMonths") ?: "0").toUInt(),
                monthlyRate = jsonString(pricing, "monthlyRate")?.let { BigDecimal(it) },
                totalCost = jsonString(pricing, "totalCost")?.let { BigDecimal(it) },
                fees = jsonString(termsText, "fees")?.let { BigDecimal(it) },
            )
        }
        sameJson("application ${f.name}", runBlocking { scoreApplication(inputs, null, null, null, terms) }, expected)
        sameJson("application ${f.name}, reversed", scoreApplicationJson(inputs.reversed(), null, null, null, terms), expected)
    }
    files.firstOrNull()?.let { f ->
        val inputs = jsonElements(jsonMember(f.readText(), "inputs") ?: "[]").map { it.toByteArray() }
        val noTenor = LoanTerms(principal = BigDecimal("1000"), tenorMonths = 0u, monthlyRate = null, totalCost = null, fees = null)
        T.throws<AlamaException.InvalidTerms>("application: a tenor of 0 months", "invalid_terms") {
            scoreApplicationJson(inputs, null, null, null, noTenor)
        }
    }
}

/** The elements of a JSON array's text, each as its raw text (test helper). */
fun jsonElements(array: String): List<String> {
    val out = mutableListOf<String>()
    var depth = 0
    var inString = false
    var start = -1
    var i = 0
    while (i < array.length) {
        val c = array[i]
        if (inString) {
            if (c == '\\') i++ else if (c == '"') inString = false
        } else when (c) {
            '"' -> inString = true
            '{', '[' -> { depth++; if (depth == 2 && start < 0) start = i }
            '}', ']' -> { depth--; if (depth == 1 && start >= 0) { out.add(array.substring(start, i + 1)); start = -1 } }
        }
        i++
    }
    return out
}

/** A JSON text without the whitespace outside its strings: the compact form (test helper). */
fun compactJson(text: String): String {
    val out = StringBuilder()
    var inString = false
    var i = 0
    while (i < text.length) {
        val c = text[i]
        if (inString) {
            out.append(c)
            if (c == '\\') { out.append(text[i + 1]); i++ } else if (c == '"') inString = false
        } else if (c == '"') { inString = true; out.append(c) } else if (!c.isWhitespace()) out.append(c)
        i++
    }
    return out.toString()
}

/** A JSON string member's value without its quotes (test helper; no escapes expected). */
fun jsonString(text: String, key: String): String? =
    jsonMember(text, key)?.takeIf { it.startsWith("\"") && it.endsWith("\"") }?.let { it.substring(1, it.length - 1) }

/**
 * Scorecards as data: every card in tests/scorecard-vectors/ (a file with `characteristics`) loads,
 * and the vectors naming it (files with `input`, `report` and `scorecard`: the card's file name)
 * score to the same JSON with that card. Then the invalid cards of issue 14.
 */
fun testScorecards() {
    val dir = File(repo, "tests/scorecard-vectors")
    val files = dir.listFiles { f -> f.name.endsWith(".json") }?.sortedBy { it.name }.orEmpty()
    val texts = files.associate { it.name to it.readText() }
    val cards = texts.filterValues { jsonMember(it, "characteristics") != null }
    val vectors = texts.filterValues { jsonMember(it, "input") != null && jsonString(it, "scorecard") != null }
    T.ok("scorecards: cards present in ${dir.path}", cards.isNotEmpty())
    for ((name, text) in vectors) T.ok("scorecards: $name names a card", jsonString(text, "scorecard") in cards) { "${jsonString(text, "scorecard")}" }
    for ((cardName, cardText) in cards) T.guard("scorecard $cardName") {
        val card = Scorecard.fromJson(cardText)
        T.eq("scorecard $cardName: version", card.version(), jsonString(cardText, "version"))
        T.ok("scorecard $cardName: sha256 is hex", Regex("[0-9a-f]{64}").matches(card.sha256()))
        T.eq("scorecard $cardName: toJson round trip", Scorecard.fromJson(card.toJson()).sha256(), card.sha256())
        T.ok("scorecard $cardName: differs from the built-in", card.sha256() != Scorecard.builtin().sha256())
        val own = vectors.filterValues { jsonString(it, "scorecard") == cardName }
        T.ok("scorecard $cardName: has vectors", own.isNotEmpty())
        for ((name, text) in own) {
            val input = jsonMember(text, "input")!!.toByteArray()
            val expected = reportToJson(reportFromJson(jsonMember(text, "report")!!))
            sameJson("scorecard vector $name: scoreStatementJson", scoreStatementJson(input, scorecard = card), expected)
            val report = scoreStatement(input, scorecard = card)
            sameJson("scorecard vector $name: scoreStatement", reportToJson(report), expected)
            T.eq("scorecard vector $name: scorecardVersion", report.scorecardVersion, card.version())
            T.eq("scorecard vector $name: scorecardSha256", report.scorecardSha256, card.sha256())
            sameJson("scorecard vector $name: score(statement)", reportToJson(score(parseStatement(input), card)), expected)
            sameJson("scorecard vector $name: async", reportToJson(runBlocking { scoreStatementAsync(input, null, card) }), expected)
        }
    }
    // Without a scorecard, and with the built-in one: the same report.
    T.guard("scorecards: built-in") {
        val bytes = SMALL_CSV.toByteArray()
        sameJson("scorecards: no card == Scorecard.builtin()", scoreStatementJson(bytes, scorecard = Scorecard.builtin()), scoreStatementJson(bytes))
    }

    val base = cards.entries.firstOrNull { it.key.startsWith("lender-example") }?.value
    if (base == null) {
        T.skip("invalid scorecards", "no lender-example card")
        return
    }
    val compact = Scorecard.fromJson(base).toJson()
    /** The compact card with each (old, new) replaced once; the check fails when a pattern is absent. */
    fun broken(name: String, vararg edits: Pair<String, String>): String {
        var text = compact
        for ((old, new) in edits) {
            T.ok("invalid card $name: pattern present", old in text) { old }
            text = text.replaceFirst(old, new)
        }
        return text
    }
    val firstBins = "\"max\":\"0.50\",\"maxInclusive\":false,\"points\":0},{\"min\":\"0.50\",\"minInclusive\":true"
    val cases = listOf(
        Triple("gap in bins", broken("gap", firstBins to firstBins.replace("\"minInclusive\":true", "\"minInclusive\":false")), Regex("gap")),
        Triple("overlapping bins", broken("overlap", firstBins to firstBins.replace("\"maxInclusive\":false", "\"maxInclusive\":true")), Regex("overlap")),
        Triple("unknown feature", broken("feature", "\"feature\":\"recent_income_month_share\"" to "\"feature\":\"no_such_feature\""), Regex("no_such_feature.*feature catalogue")),
        Triple("non-integer points", broken("points", "\"points\":7}" to "\"points\":7.5}"), Regex("7\\.5")),
        Triple("maxima not 550", broken("maxima", "\"max\":95," to "\"max\":96,", "\"max\":null,\"maxInclusive\":false,\"points\":30}" to "\"max\":null,\"maxInclusive\":false,\"points\":31}"), Regex("add up to 551, not maxPoints 550")),
        Triple("not a scorecard", "{\"version\": 1}", Regex("not a scorecard JSON")),
    )
    for ((name, json, message) in cases) {
        val e = T.throws<AlamaException.InvalidScorecard>("invalid card: $name", "invalid_scorecard") { Scorecard.fromJson(json) }
        if (e != null) T.ok("invalid card: $name names the problem", message.containsMatchIn(e.detail)) { e.detail }
    }
}

/** The documented truths of ../shared/samples/real/README.md. */
fun testRealSamples() {
    val dir = File(System.getenv("ALAMA_SAMPLES") ?: File(repo, "../shared/samples/real").path)
    if (!dir.isDirectory) {
        T.skip("real statements", "${dir.path} is absent (CI has it)")
        return
    }
    fun sample(name: String): File? = File(dir, name).takeIf { it.isFile } ?: run { T.skip(name, "missing"); null }

    sample("mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf")?.let { f ->
        val bytes = f.readBytes()
        val tag = "2023-24 encrypted PDF"
        T.throws<AlamaException.PasswordRequired>("$tag: no password", "password_required") { parseStatement(bytes) }
        T.throws<AlamaException.WrongPassword>("$tag: wrong password", "wrong_password") { parseStatement(bytes, "000000") }
        T.guard("$tag: parse", private = true) {
            val s = parseStatement(bytes, "183177")
            T.eq("$tag: 4,382 rows", s.transactions.size, 4382)
            T.eq("$tag: all Completed", s.transactions.count { it.status == TransactionStatus.COMPLETED }, 4382)
            T.eq("$tag: 17 rows with empty Details", s.transactions.count { it.details.isEmpty() }, 17)
            val paidIn = s.transactions.fold(BigDecimal.ZERO) { a, t -> a + t.paidIn }
            val withdrawn = s.transactions.fold(BigDecimal.ZERO) { a, t -> a + t.withdrawn }
            T.money("$tag: rows sum to 1,201,133.99 paid in", paidIn, "1201133.99")
            T.money("$tag: rows sum to 1,179,174.99 withdrawn", withdrawn, "1179174.99")
            T.money("$tag: SUMMARY TOTAL paid in", s.summary?.total?.paidIn, "1201133.99")
            T.money("$tag: SUMMARY TOTAL paid out", s.summary?.total?.paidOut, "1179174.99")
            T.eq("$tag: period", s.period?.let { it.start to it.end }, "2023-05-23" to "2024-05-23")
            T.eq("$tag: encrypted", s.document?.encrypted, true)
            T.eq("$tag: 117 pages", s.document?.pages, 117u)
            T.ok("$tag: completedAt ISO 8601", s.transactions.all { Regex("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d").matches(it.completedAt) })
            val r = score(s)
            T.eq("$tag: report transactionCount", r.statement.transactionCount, 4382u)
            T.money("$tag: report totalPaidIn", r.statement.totalPaidIn, "1201133.99")
            T.money("$tag: report totalWithdrawn", r.statement.totalWithdrawn, "1179174.99")
            T.eq("$tag: summary reconciled", r.integrity.summaryReconciled, true)
            T.eq("$tag: statementPeriod", r.statementPeriod, "May 2023 - May 2024")
            val json = scoreStatementJson(bytes, "183177")
            sameJson("$tag: reportToJson(score(parse)) == scoreStatementJson", reportToJson(r), json)
            val fromCli = cliScore(f, "183177")
            if (fromCli == null) T.skip("$tag: JSON equals the CLI's", "no CLI")
            else sameJson("$tag: JSON equals the CLI's", json, fromCli)
        }
    }

    sample("mpesa_2024-04_to_2024-10_unlocked_ilovepdf.pdf")?.let { f ->
        val tag = "2024 iLovePDF PDF"
        T.guard("$tag: score", private = true) {
            val s = parseStatement(f.readBytes())
            T.eq("$tag: 3,437 rows", s.transactions.size, 3437)
            T.money("$tag: rows sum paid in", s.transactions.fold(BigDecimal.ZERO) { a, t -> a + t.paidIn }, "551433.17")
            T.money("$tag: rows sum withdrawn", s.transactions.fold(BigDecimal.ZERO) { a, t -> a + t.withdrawn }, "554936.71")
            T.eq("$tag: period", s.period?.let { it.start to it.end }, "2024-04-14" to "2024-10-14")
            T.eq("$tag: not encrypted", s.document?.encrypted, false)
            T.eq("$tag: 90 pages", s.document?.pages, 90u)
            T.ok("$tag: producer is iLovePDF", s.document?.producer?.contains("iLovePDF") == true)
            val r = score(s)
            val fromCli = cliScore(f)
            if (fromCli == null) T.skip("$tag: JSON equals the CLI's", "no CLI")
            else sameJson("$tag: JSON equals the CLI's", reportToJson(r), fromCli)
        }
    }

    sample("mpesa_2024-04_to_2024-10_encrypted_pw_unknown.pdf")?.let { f ->
        val bytes = f.readBytes()
        T.throws<AlamaException.PasswordRequired>("2024 encrypted PDF: no password", "password_required") { scoreStatement(bytes) }
        T.throws<AlamaException.WrongPassword>("2024 encrypted PDF: wrong password", "wrong_password") { scoreStatement(bytes, "12345678") }
        T.throws<AlamaException.WrongPassword>("2024 encrypted PDF: wrong password (async)", "wrong_password") {
            runBlocking { scoreStatementAsync(bytes, "12345678") }
        }
    }

    sample("mpesa_2021-03_to_2021-09_unencrypted_itext_TRUNCATED.pdf")?.let { f ->
        val tag = "2021 truncated PDF"
        T.guard("$tag: score", private = true) {
            val s = parseStatement(f.readBytes())
            T.eq("$tag: 982 rows", s.transactions.size, 982)
            T.eq("$tag: all Completed", s.transactions.count { it.status == TransactionStatus.COMPLETED }, 982)
            T.money("$tag: SUMMARY TOTAL paid in", s.summary?.total?.paidIn, "849938.05")
            T.money("$tag: SUMMARY TOTAL paid out", s.summary?.total?.paidOut, "852105.39")
            T.eq("$tag: 20 pages", s.document?.pages, 20u)
            T.eq("$tag: footer declares 21 pages", s.document?.declaredPages, 21u)
            val r = score(s)
            T.eq("$tag: summary does not reconcile", r.integrity.summaryReconciled, false)
            T.ok("$tag: integrity not verified", r.integrity.status != "verified")
            val fromCli = cliScore(f)
            if (fromCli == null) T.skip("$tag: JSON equals the CLI's", "no CLI")
            else sameJson("$tag: JSON equals the CLI's", reportToJson(r), fromCli)
        }
    }

    sample("mpesa_2019-08_to_2021-derived_processed.csv")?.let { f ->
        val tag = "2019-21 derived CSV"
        // Not Safaricom's layout: either read (3,785 rows) or refused with an engine error, never a crash.
        try {
            val s = parseStatement(f.readBytes())
            T.eq("$tag: 3,785 rows", s.transactions.size, 3785)
        } catch (e: AlamaException) {
            T.ok("$tag: refused with an engine code", errorCode(e) in listOf("unsupported_wallet", "malformed_statement")) { errorCode(e) }
        } catch (e: Throwable) {
            T.ok("$tag: no crash", false) { e::class.qualifiedName ?: "?" }
        }
    }
}

fun testExamples() {
    for (name in listOf("statement.csv", "statement.json")) {
        val f = File(repo, "examples/$name")
        if (!f.isFile) { T.skip("examples/$name", "missing"); continue }
        T.guard("examples/$name") {
            val r = scoreStatement(f.readBytes())
            T.ok("examples/$name: scored", r.score.toInt() in 300..850)
            val fromCli = cliScore(f)
            if (fromCli == null) T.skip("examples/$name: JSON equals the CLI's", "no CLI")
            else sameJson("examples/$name: JSON equals the CLI's", reportToJson(r), fromCli)
        }
    }
}

fun main(args: Array<String>) {
    repo = File(args.firstOrNull() ?: ".").absoluteFile
    cli = (System.getenv("ALAMA_CLI")?.let { File(it) } ?: File(repo, "target/release/alama")).takeIf { it.canExecute() }
    println("alama-mobile Kotlin tests: engine ${engineVersion()}, CLI ${cli?.path ?: "absent (JSON-vs-CLI checks skipped)"}")
    testSmallCsv()
    testBuiltInKotlin()
    testErrors()
    testAsync()
    testExamples()
    testVectors()
    testApplicationVectors()
    testScorecards()
    testRealSamples()
    println("${T.passed} passed, ${T.failed} failed, ${T.skipped} skipped")
    exitProcess(if (T.failed == 0) 0 else 1)
}
