// Real M-Pesa statements from ../shared/samples/real/ (personal data: nothing from them is
// printed; assertions compare counts and totals only). Skipped when the folder is absent.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'

import { parse, score, scoreAsync } from '../index.js'
import { REAL_PDFS, assertSameJson, missing, realSample, sumMoney } from './helpers.mjs'

for (const [label, truth] of Object.entries(REAL_PDFS)) {
  const path = realSample(truth.file)
  const options = truth.password ? { password: truth.password } : undefined

  describe(`real statement ${label}`, { skip: !path && missing(truth.file) }, () => {
    // Parsed once per file; the tests below read it.
    let statement
    const statementOnce = () => (statement ??= parse(path, options))

    test(`parses ${truth.rows} rows from ${truth.pages} pages`, () => {
      const s = statementOnce()
      assert.equal(s.transactions.length, truth.rows)
      assert.equal(s.document?.pages, truth.pages)
      assert.equal(s.document?.encrypted, Boolean(truth.password))
      assert.equal(s.unparsed?.length ?? 0, 0, 'no unread rows')
      if (truth.allCompleted) {
        assert.ok(s.transactions.every((t) => t.status === 'completed'), 'every row Completed')
      }
    })

    if (truth.paidIn) {
      test(`rows add up to the SUMMARY total ${truth.paidIn} / ${truth.withdrawn}`, () => {
        const s = statementOnce()
        assert.equal(sumMoney(s.transactions.map((t) => t.paidIn)), truth.paidIn)
        assert.equal(sumMoney(s.transactions.map((t) => t.withdrawn)), truth.withdrawn)
        assert.equal(s.summary?.total.paidIn, truth.paidIn)
        assert.equal(s.summary?.total.paidOut, truth.withdrawn)
      })
    }

    test('scores, with totals and reconciliation as documented', () => {
      const report = score(path, options)
      assert.equal(report.status, 'completed')
      assert.equal(report.statement.transactionCount, truth.rows)
      if (truth.allCompleted) assert.equal(report.statement.completedCount, truth.rows)
      if (truth.paidIn) {
        assert.equal(report.statement.totalPaidIn, truth.paidIn)
        assert.equal(report.statement.totalWithdrawn, truth.withdrawn)
      }
      assert.equal(report.integrity.summaryReconciled, truth.reconciles)
      if (!truth.reconciles) {
        assert.ok(report.integrity.findings.length > 0, 'a truncated statement has findings')
        assert.notEqual(report.integrity.status, 'verified')
      }
    })

    test('bytes, path, Statement object and scoreAsync agree byte for byte', async () => {
      const expected = JSON.stringify(score(path, options))
      assertSameJson(JSON.stringify(score(readFileSync(path), options)), expected, 'bytes')
      assertSameJson(JSON.stringify(score(statementOnce())), expected, 'Statement from parse()')
      assertSameJson(JSON.stringify(await scoreAsync(path, options)), expected, 'scoreAsync(path)')
    })
  })
}

describe('the derived CSV sample', () => {
  const file = 'mpesa_2019-08_to_2021-derived_processed.csv'
  const path = realSample(file)
  test('is read as a CSV export or refused with a stable code', { skip: !path && missing(file) }, () => {
    // The repo author's own columns (CODE, TIME, DETAILS, MONEY IN, MONEY OUT, …): the engine
    // either maps them (3,785 rows) or says which wallet layout it does not know.
    try {
      const s = parse(path)
      assert.equal(s.transactions.length, 3785)
    } catch (e) {
      assert.equal(e.code, 'unsupported_wallet')
    }
  })
})
