// Every engine error kind, thrown by score/parse and rejected by scoreAsync as an Error with the
// stable `code`; and the InvalidArg errors of wrong argument types.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, describe, test } from 'node:test'

import { Scorecard, errorCodes, parse, score, scoreAsync } from '../index.js'
import { LOCKED_PDF, REAL_PDFS, missing, realSample, syntheticCsv } from './helpers.mjs'

const dir = mkdtempSync(join(tmpdir(), 'alama-node-errors-'))
after(() => rmSync(dir, { recursive: true, force: true }))

const locked = realSample(LOCKED_PDF)
const known = realSample(REAL_PDFS.encrypted2023.file)
const good = parse(Buffer.from(syntheticCsv({ months: 2 })))

/** The repository's example statement (canonical JSON, KES) labelled `currency`: the same numbers. */
function statementIn(currency) {
  const path = fileURLToPath(new URL('../../examples/statement.json', import.meta.url))
  const value = JSON.parse(readFileSync(path, 'utf8'))
  return Buffer.from(JSON.stringify({ ...value, currency }))
}

/** One case per failure: the arguments of score/scoreAsync and the expected code. */
const CASES = [
  {
    name: 'an encrypted PDF without a password',
    code: 'password_required',
    args: () => [readFileSync(locked)],
    skip: !locked && missing(LOCKED_PDF),
  },
  {
    name: 'an encrypted PDF with a wrong password',
    code: 'wrong_password',
    args: () => [readFileSync(locked), { password: '000000' }],
    skip: !locked && missing(LOCKED_PDF),
  },
  {
    name: 'a known statement with a wrong password',
    code: 'wrong_password',
    args: () => [known, { password: '183178' }],
    skip: !known && missing(REAL_PDFS.encrypted2023.file),
  },
  {
    name: 'a known encrypted statement without a password',
    code: 'password_required',
    args: () => [known],
    skip: !known && missing(REAL_PDFS.encrypted2023.file),
  },
  {
    name: 'a PNG image',
    code: 'unsupported_format',
    args: () => [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])],
  },
  {
    name: 'empty bytes',
    code: 'unsupported_format',
    args: () => [Buffer.alloc(0)],
  },
  {
    name: 'an unknown format name',
    code: 'unsupported_format',
    args: () => [Buffer.from(syntheticCsv()), { format: 'docx' }],
  },
  {
    name: 'a CSV of an unknown wallet',
    code: 'unsupported_wallet',
    args: () => [Buffer.from('Date,Amount,Note\n2024-01-01,100,hello\n')],
  },
  {
    name: 'broken canonical JSON',
    code: 'malformed_statement',
    args: () => [Buffer.from('{\n  "transactions": [\n    {"receiptNo": 1\n')],
    check: (e) => {
      assert.equal(e.page, 0)
      assert.ok(Number.isInteger(e.line) && e.line >= 1, `line ${e.line}`)
    },
  },
  {
    name: 'money given as a JS float in a Statement object',
    code: 'malformed_statement',
    args: () => [{ ...good, transactions: good.transactions.map((t, i) => (i === 0 ? { ...t, paidIn: 10.5 } : t)) }],
    check: (e) => assert.match(e.message, /decimal string/),
  },
  {
    name: 'a Statement object holding a function',
    code: 'malformed_statement',
    args: () => [{ ...good, provider: () => 'mpesa' }],
  },
  {
    name: 'a Statement object without transactions',
    code: 'malformed_statement',
    args: () => [{ provider: 'mpesa' }],
  },
  {
    name: 'a statement with no transactions',
    code: 'empty_statement',
    args: () => [{ transactions: [] }],
  },
  {
    name: 'a statement whose rows all failed',
    code: 'empty_statement',
    args: () => [{ ...good, transactions: good.transactions.map((t) => ({ ...t, status: 'failed' })) }],
  },
  {
    name: 'bytes beyond the 32 MiB limit',
    code: 'too_large',
    args: () => [Buffer.alloc(32 * 1024 * 1024 + 1, 0x20)],
    check: (e) => assert.equal(e.limit, 32 * 1024 * 1024),
  },
  {
    name: 'a KES scorecard on a UGX statement',
    code: 'currency_mismatch',
    args: () => [statementIn('UGX'), { scorecard: Scorecard.builtin() }],
    check: (e) => assert.ok(e.message.includes('KES') && e.message.includes('UGX'), e.message),
  },
  {
    name: 'a USD statement (no built-in card) without a scorecard',
    code: 'unsupported_currency',
    args: () => [statementIn('USD')],
    check: (e) => {
      for (const code of ['USD', 'KES', 'UGX', 'GHS', 'LSL']) assert.ok(e.message.includes(code), e.message)
    },
  },
  {
    name: 'a path that does not exist',
    code: 'io_error',
    args: () => [join(dir, 'no-such-statement.pdf')],
  },
  {
    name: 'a path that is a directory',
    code: 'io_error',
    args: () => [dir],
  },
]

function checkError(e, c) {
  assert.ok(e instanceof Error, 'an Error object')
  assert.equal(e.code, c.code)
  assert.ok(!e.message.includes(c.code), `the message does not repeat the code: ${e.message}`)
  assert.ok(e.message.length > 10, 'message has a sentence')
  c.check?.(e)
  return true
}

describe('engine errors carry a stable code', () => {
  for (const c of CASES) {
    test(`score: ${c.name} → ${c.code}`, { skip: c.skip }, () => {
      assert.throws(() => score(...c.args()), (e) => checkError(e, c))
    })
    test(`scoreAsync: ${c.name} → ${c.code} (rejects)`, { skip: c.skip }, async () => {
      await assert.rejects(scoreAsync(...c.args()), (e) => checkError(e, c))
    })
  }

  test('a UGX statement without a scorecard scores with the built-in UGX card', () => {
    assert.equal(score(statementIn('UGX')).scorecardVersion, 'alama-ugx-2027.03')
    assert.equal(score(statementIn('KES'), { scorecard: Scorecard.builtin() }).statement.currency, 'KES')
  })

  test('parse throws the parse errors, and parses an empty statement', () => {
    assert.throws(() => parse(join(dir, 'missing.csv')), { code: 'io_error' })
    assert.throws(() => parse(Buffer.from('{"transactions": 1}')), { code: 'malformed_statement' })
    const empty = parse(Buffer.from('{"transactions": []}'))
    assert.deepEqual(empty.transactions, [])
  })

  test('the cases above cover every code the engine lists', (t) => {
    const covered = new Set(CASES.filter((c) => !c.skip).map((c) => c.code))
    // invalid_scorecard is Scorecard.fromJson's and load's (test/scorecard.test.mjs),
    // invalid_terms scoreApplication's (test/application.test.mjs).
    const all = errorCodes().filter((c) => c !== 'invalid_scorecard' && c !== 'invalid_terms')
    const uncovered = all.filter((c) => !covered.has(c))
    if (!locked && !known) {
      t.diagnostic(`real samples absent: ${uncovered.join(', ')} not exercised`)
      assert.deepEqual(uncovered, ['password_required', 'wrong_password'])
    } else {
      assert.deepEqual(uncovered, [])
    }
    for (const c of CASES) assert.ok(all.includes(c.code), c.code)
  })
})

describe('wrong argument types are InvalidArg errors', () => {
  const notInputs = [42, null, undefined, true, Symbol('x'), 10n, new ArrayBuffer(8)]
  for (const value of notInputs) {
    test(`score(${typeof value === 'symbol' ? 'Symbol' : String(value)})`, () => {
      assert.throws(() => score(value), (e) => e instanceof Error && e.code === 'InvalidArg')
      assert.throws(() => scoreAsync(value), (e) => e instanceof Error && e.code === 'InvalidArg')
    })
  }

  test('parse does not take a Statement object', () => {
    assert.throws(() => parse(good), { code: 'InvalidArg' })
  })

  test('options of the wrong shape', () => {
    const csv = Buffer.from(syntheticCsv())
    assert.throws(() => score(csv, 'pdf'), { code: 'InvalidArg' })
    assert.throws(() => score(csv, { password: 183177 }), { code: 'InvalidArg' })
    assert.throws(() => parse(csv, { format: 1 }), { code: 'InvalidArg' })
  })

  test('the bytes are read at each call, never cached', () => {
    const csv = Buffer.from(syntheticCsv({ seed: 3 }))
    const first = score(csv).reportId
    csv.write('X', csv.indexOf('SX03') + 2)
    assert.notEqual(score(csv).reportId, first)
  })
})
