// scoreApplication: the application vectors (tests/vectors/applications/) replay byte for byte,
// in any order of their statements; an application of one statement is that statement.
import { strict as assert } from 'node:assert'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'

import { filesIn } from './helpers.mjs'
import * as alama from '../index.js'

function termsOf(vector) {
  const t = vector.terms
  if (t === null) return undefined
  return { principal: t.principal, tenorMonths: t.tenorMonths, fees: t.fees, ...t.pricing }
}

describe('application vectors (tests/vectors/applications/)', () => {
  const vectors = filesIn(join('tests', 'vectors', 'applications'), ['.json'])
  test('vectors are present', () => assert.ok(vectors.length >= 4))
  for (const file of vectors) {
    test(file, async () => {
      const vector = JSON.parse(readFileSync(file, 'utf8'))
      const inputs = vector.inputs.map((i) => Buffer.from(JSON.stringify(i)))
      const expected = JSON.stringify(vector.application)
      const app = await alama.scoreApplication(inputs, { terms: termsOf(vector) })
      assert.equal(JSON.stringify(app), expected)
      const reversed = await alama.scoreApplication([...vector.inputs].reverse(), { terms: termsOf(vector) })
      assert.equal(JSON.stringify(reversed), expected)
    })
  }
})

test('an application of one statement is that statement', async () => {
  const vector = JSON.parse(readFileSync(join(filesIn(join('tests', 'vectors'), ['.json'])[0]), 'utf8'))
  const report = alama.score(vector.input)
  const app = await alama.scoreApplication([vector.input])
  assert.equal(app.score, report.score)
  assert.deepEqual(app.factors, report.factors)
  assert.equal(app.statements[0].reportId, report.reportId)
  assert.equal(app.affordability, null)
})

test('bad terms reject with a typed error; a float throws InvalidArg', async () => {
  const vector = JSON.parse(readFileSync(filesIn(join('tests', 'vectors'), ['.json'])[0], 'utf8'))
  await assert.rejects(alama.scoreApplication([vector.input], { terms: { principal: '100' } }), {
    code: 'invalid_terms',
  })
  assert.throws(() => alama.scoreApplication([vector.input], { terms: { principal: 1.5, tenorMonths: 3 } }), {
    code: 'InvalidArg',
  })
  await assert.rejects(alama.scoreApplication([]), { code: 'empty_statement' })
})
