// The API: inputs (Buffer, Uint8Array, path, Statement object), options, result shapes, money
// and time encodings, and that every input route gives the same report.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'

import * as alama from '../index.js'
import { REPO, assertSameJson, syntheticCsv } from './helpers.mjs'

const { parse, score, scoreAsync, errorCodes, engineVersion } = alama

const dir = mkdtempSync(join(tmpdir(), 'alama-node-api-'))
after(() => rmSync(dir, { recursive: true, force: true }))

const csvText = syntheticCsv({ months: 4, seed: 1 })
const csvPath = join(dir, 'statement.csv')
writeFileSync(csvPath, csvText)
const csvBytes = Buffer.from(csvText)

const REPORT_KEYS = [
  'reportId',
  'status',
  'score',
  'band',
  'statementPeriod',
  'factors',
  'insights',
  'reasonCodes',
  'scorecardVersion',
  'scorecardSha256',
  'integrity',
  'statement',
]
const MONEY = /^-?\d+\.\d{2}$/
const DECIMAL = /^-?\d+(\.\d+)?$/
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/

describe('exports', () => {
  test('the documented functions are exported', () => {
    for (const name of ['parse', 'score', 'scoreAsync', 'errorCodes', 'engineVersion']) {
      assert.equal(typeof alama[name], 'function', name)
    }
    assert.match(engineVersion(), /^\d+\.\d+\.\d+/)
  })

  test('errorCodes lists the engine codes in a fixed order', () => {
    assert.deepEqual(errorCodes(), [
      'password_required',
      'wrong_password',
      'unsupported_format',
      'unsupported_wallet',
      'malformed_statement',
      'empty_statement',
      'too_large',
      'io_error',
      'invalid_scorecard',
      'currency_mismatch',
      'unsupported_currency',
      'invalid_terms',
    ])
  })
})

describe('parse', () => {
  const statement = parse(csvBytes)

  test('returns the canonical statement as a plain object', () => {
    assert.equal(Object.getPrototypeOf(statement), Object.prototype)
    assert.equal(statement.provider, 'mpesa')
    assert.equal(statement.currency, 'KES')
    assert.equal(statement.transactions.length, 40)
    assert.deepEqual(Object.keys(statement.transactions[0]), [
      'receiptNo',
      'completedAt',
      'details',
      'status',
      'paidIn',
      'withdrawn',
      'balance',
      'category',
    ])
  })

  test('money is decimal strings and times are ISO 8601 local times', () => {
    for (const t of statement.transactions) {
      assert.match(t.paidIn, MONEY)
      assert.match(t.withdrawn, MONEY)
      assert.match(t.balance, MONEY)
      assert.match(t.completedAt, LOCAL_TIME)
    }
    // Newest first, as M-Pesa lists rows; the first CSV row is the last month's last row.
    assert.equal(statement.transactions[0].completedAt, '2024-04-27T11:11:11')
    assert.equal(statement.transactions[0].paidIn, '2509.00')
    // 1234.5 + 3 withdrawn in April: the cents survive the boundary exactly.
    const shop = statement.transactions.find((t) => t.completedAt === '2024-04-03T12:30:45')
    assert.equal(shop.withdrawn, '1237.50')
  })

  test('the engine categorises every row', () => {
    const categories = new Set(statement.transactions.map((t) => t.category))
    assert.ok(!categories.has('uncategorised'), [...categories].join(','))
    const salary = statement.transactions.find((t) => t.details.startsWith('Salary Payment'))
    assert.equal(salary.category, 'salary_and_business_payments')
  })

  test('Buffer, Uint8Array and path give the same statement', () => {
    const fromPath = parse(csvPath)
    const fromView = parse(new Uint8Array(csvBytes.buffer, csvBytes.byteOffset, csvBytes.byteLength))
    assert.deepEqual(fromPath, statement)
    assert.deepEqual(fromView, statement)
  })

  test('a Uint8Array that is a window on a larger buffer reads only its window', () => {
    const padded = Buffer.concat([Buffer.from('garbage'), csvBytes, Buffer.from('\0\0trailing')])
    const view = padded.subarray(7, 7 + csvBytes.length)
    assert.deepEqual(parse(view), statement)
  })

  test('options.format forces the reader; options may be omitted, undefined or null', () => {
    assert.deepEqual(parse(csvBytes, { format: 'csv' }), statement)
    assert.deepEqual(parse(csvBytes, undefined), statement)
    assert.deepEqual(parse(csvBytes, null), statement)
    assert.deepEqual(parse(csvBytes, {}), statement)
    // A password is ignored for CSV.
    assert.deepEqual(parse(csvBytes, { password: 'unused' }), statement)
  })

  test('the canonical JSON round-trips', () => {
    const json = Buffer.from(JSON.stringify(statement))
    assert.deepEqual(parse(json), statement)
    assert.deepEqual(parse(json, { format: 'json' }), statement)
  })
})

describe('score', () => {
  const report = score(csvBytes)

  test('returns the report with the documented keys, in order', () => {
    assert.deepEqual(Object.keys(report), REPORT_KEYS)
    assert.equal(report.status, 'completed')
    assert.match(report.reportId, /^rpt_[0-9a-f]{24}$/)
    assert.ok(Number.isInteger(report.score) && report.score >= 300 && report.score <= 850)
    assert.equal(report.score, 300 + report.factors.reduce((s, f) => s + f.score, 0))
    assert.equal(report.statementPeriod, 'Jan 2024 - Apr 2024')
  })

  test('asOf is the day of analysis: a statement from after it is failed', () => {
    assert.equal(JSON.stringify(score(csvBytes, { asOf: '2030-01-01' })), JSON.stringify(report))
    const judged = score(csvBytes, { asOf: '2023-06-30' })
    assert.equal(judged.integrity.status, 'failed')
    assert.ok(judged.integrity.findings.some((f) => f.code === 'after_analysis_date'))
    assert.throws(() => score(csvBytes, { asOf: '30/06/2023' }), /asOf/)
  })

  test('money in the report is decimal strings', () => {
    assert.equal(report.statement.transactionCount, 40)
    assert.equal(report.statement.completedCount, 40)
    assert.match(report.statement.totalPaidIn, MONEY)
    assert.match(report.statement.totalWithdrawn, MONEY)
    for (const m of report.statement.monthly) {
      assert.match(m.month, /^\d{4}-\d{2}$/)
      assert.match(m.paidIn, MONEY)
      assert.match(m.withdrawn, MONEY)
    }
    for (const i of report.insights) assert.match(i.value, DECIMAL, i.code)
  })

  // A statement handed over as an object is JSON evidence to the integrity check
  // (`evidenceLevel: "json"`), without the CSV's `csv_unverifiable` note (issue 50: a file
  // export's origin cannot be checked); everything else in the report is byte for byte the CSV's.
  const asCsvEvidence = (r) => {
    const o = JSON.parse(JSON.stringify(r))
    assert.equal(o.integrity.evidenceLevel, 'json')
    o.integrity.evidenceLevel = 'csv'
    const at = report.integrity.findings.findIndex((f) => f.code === 'csv_unverifiable')
    assert.ok(at >= 0, 'the CSV report carries csv_unverifiable')
    o.integrity.findings.splice(at, 0, report.integrity.findings[at])
    return JSON.stringify(o)
  }

  test('every input route gives the same report, byte for byte', () => {
    const expected = JSON.stringify(report)
    assertSameJson(JSON.stringify(score(csvPath)), expected, 'path')
    assertSameJson(JSON.stringify(score(new Uint8Array(csvBytes))), expected, 'Uint8Array')
    const statement = parse(csvBytes)
    assertSameJson(asCsvEvidence(score(statement)), expected, 'Statement from parse()')
    assertSameJson(asCsvEvidence(score(JSON.parse(JSON.stringify(statement)))), expected, 'Statement via JSON')
  })

  test('a hand-built StatementInput is categorised and scored like its CSV', () => {
    const statement = parse(csvBytes)
    const handBuilt = {
      transactions: statement.transactions.map(({ category, ...row }) => row),
    }
    assertSameJson(asCsvEvidence(score(handBuilt)), JSON.stringify(report), 'hand-built')
  })

  test('integer JS numbers are accepted as whole amounts, like integers in the canonical JSON', () => {
    const statement = parse(csvBytes)
    const tx = statement.transactions.map((t) => ({ ...t }))
    const whole = tx.find((t) => t.paidIn === '42100.00')
    assert.ok(whole, 'a salary row of 42100.00')
    whole.paidIn = 42100
    const fromInteger = score({ ...statement, transactions: tx })
    // Same figures; the report id may differ, since the engine keeps the scale it was given
    // ("42100" vs "42100.00") in the canonical statement it hashes.
    assert.equal(fromInteger.score, report.score)
    assertSameJson(JSON.stringify(fromInteger.factors), JSON.stringify(report.factors), 'factors')
    assert.equal(fromInteger.statement.totalPaidIn, report.statement.totalPaidIn)
  })

  test('the report does not depend on row order', () => {
    const statement = parse(csvBytes)
    const shuffled = { ...statement, transactions: [...statement.transactions].reverse() }
    assert.equal(score(shuffled).reportId, report.reportId)
  })

  test('different statements get different reports', () => {
    const other = score(Buffer.from(syntheticCsv({ months: 4, seed: 2 })))
    assert.notEqual(other.reportId, report.reportId)
    assert.notEqual(other.statement.totalPaidIn, report.statement.totalPaidIn)
  })

  test('the example statements score (examples/)', { skip: !existsExample() && 'examples/ not present' }, () => {
    const fromCsv = score(join(REPO, 'examples', 'statement.csv'))
    const fromJson = score(join(REPO, 'examples', 'statement.json'))
    assert.deepEqual(Object.keys(fromCsv), REPORT_KEYS)
    assert.deepEqual(Object.keys(fromJson), REPORT_KEYS)
  })
})

describe('scoreAsync', () => {
  test('resolves to the same report as score', async () => {
    const expected = JSON.stringify(score(csvBytes))
    assertSameJson(JSON.stringify(await scoreAsync(csvBytes)), expected, 'bytes')
    assertSameJson(JSON.stringify(await scoreAsync(csvPath)), expected, 'path')
    assertSameJson(
      JSON.stringify(await scoreAsync(parse(csvBytes))),
      JSON.stringify(score(parse(csvBytes))),
      'Statement',
    )
  })

  test('copies the input at call time: the caller may reuse its buffer at once', async () => {
    const expected = JSON.stringify(score(csvBytes))
    const buffer = Buffer.from(csvBytes)
    const pending = scoreAsync(buffer)
    buffer.fill(0)
    assertSameJson(JSON.stringify(await pending), expected, 'reused buffer')
  })

})

function existsExample() {
  try {
    readFileSync(join(REPO, 'examples', 'statement.csv'))
    readFileSync(join(REPO, 'examples', 'statement.json'))
    return true
  } catch {
    return false
  }
}
