// scoreAsync runs on the libuv thread pool: several at once, and the event loop stays free.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'

import { parse, score, scoreAsync } from '../index.js'
import { REAL_PDFS, assertSameJson, missing, realSample, syntheticCsv } from './helpers.mjs'

const big = REAL_PDFS.encrypted2023
const bigPath = realSample(big.file)

/**
 * Counts event-loop turns while `promise` is pending: a chain of setImmediate callbacks, each
 * of which can only run when the loop is free. No timing thresholds: a call that blocked the
 * loop until it settled would let none of them run.
 */
async function loopTurnsWhile(promise) {
  let turns = 0
  let pending = true
  const spin = () => {
    if (!pending) return
    turns++
    setImmediate(spin)
  }
  setImmediate(spin)
  try {
    return { value: await promise, turns }
  } finally {
    pending = false
  }
}

describe('scoreAsync', () => {
  test('several statements scored at once each get their own report', async () => {
    const inputs = []
    for (let seed = 1; seed <= 8; seed++) {
      const bytes = Buffer.from(syntheticCsv({ months: 3 + (seed % 4), seed }))
      // Mix the input kinds: bytes, Uint8Array, Statement objects.
      if (seed % 3 === 0) inputs.push(parse(bytes))
      else if (seed % 3 === 1) inputs.push(new Uint8Array(bytes))
      else inputs.push(bytes)
    }
    const expected = inputs.map((i) => JSON.stringify(score(i)))
    const reports = await Promise.all(inputs.map((i) => scoreAsync(i)))
    reports.forEach((r, k) => assertSameJson(JSON.stringify(r), expected[k], `statement ${k + 1}`))
    assert.equal(new Set(reports.map((r) => r.reportId)).size, inputs.length, 'distinct reports')
  })

  test('failures and successes at once settle independently', async () => {
    const ok = Buffer.from(syntheticCsv({ seed: 4 }))
    const results = await Promise.allSettled([
      scoreAsync(ok),
      scoreAsync(Buffer.from('not a statement')),
      scoreAsync({ transactions: [] }),
      scoreAsync(ok),
    ])
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
    )
    assert.equal(results[1].reason.code, 'unsupported_format')
    assert.equal(results[2].reason.code, 'empty_statement')
    assert.equal(results[0].value.reportId, results[3].value.reportId)
  })

  test(
    'the event loop keeps turning while the 117-page PDF is parsed and scored',
    { skip: !bigPath && missing(big.file) },
    async (t) => {
      const bytes = readFileSync(bigPath)
      let ticks = 0
      const ticker = setInterval(() => ticks++, 1)
      try {
        const { value, turns } = await loopTurnsWhile(scoreAsync(bytes, { password: big.password }))
        t.diagnostic(`event-loop turns: ${turns}, 1 ms interval ticks: ${ticks}`)
        assert.equal(value.statement.transactionCount, big.rows)
        assert.ok(turns > 0, 'setImmediate ran while the PDF was scored')
      } finally {
        clearInterval(ticker)
      }
    },
  )

  test('more calls than pool threads all complete', async () => {
    const bytes = Buffer.from(syntheticCsv({ months: 6, seed: 5 }))
    const expected = score(bytes).reportId
    const reports = await Promise.all(Array.from({ length: 16 }, () => scoreAsync(bytes)))
    assert.ok(reports.every((r) => r.reportId === expected))
  })
})
