// Conformance: JSON.stringify(score(x)) is byte for byte the CLI's `alama score FILE --format json`
// (which prints Report::to_json() and a newline), and replays the golden vectors.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { after, describe, test } from 'node:test'

import { parse, score, scoreAsync } from '../index.js'
import { REAL_PDFS, assertSameJson, cliPath, filesIn, realSample, syntheticCsv } from './helpers.mjs'

const cli = cliPath()
const noCli = !cli && 'the CLI is not built: run `cargo build --release` at the repo root or set ALAMA_CLI'

const dir = mkdtempSync(join(tmpdir(), 'alama-node-conformance-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/** The CLI's stdout for `alama score FILE --format json [--password PW]`. */
function cliScore(file, password) {
  const args = ['score', file, '--format', 'json']
  if (password) args.push('--password', password)
  const run = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  assert.equal(run.status, 0, `CLI exited ${run.status} on ${basename(file)}: ${run.stderr?.split('\n')[0]}`)
  return run.stdout
}

/** Asserts the Node report of `file` equals the CLI's, sync and async. */
async function assertConforms(file, password) {
  const options = password ? { password } : undefined
  const expected = cliScore(file, password)
  assert.ok(expected.endsWith('\n'), 'the CLI ends its JSON with a newline')
  assertSameJson(JSON.stringify(score(file, options)) + '\n', expected, `score(${basename(file)})`)
  assertSameJson(JSON.stringify(await scoreAsync(file, options)) + '\n', expected, `scoreAsync(${basename(file)})`)
}

describe('conformance with the CLI', { skip: noCli }, () => {
  const examples = filesIn('examples', ['.csv', '.json'])
  test('examples/ are present', { skip: examples.length === 0 && 'no examples/' }, () => {
    assert.ok(examples.length > 0)
  })
  for (const file of examples) {
    test(`examples/${basename(file)}`, () => assertConforms(file))
  }

  test('a statement built by hand (CSV and its canonical JSON)', async () => {
    const csv = join(dir, 'built.csv')
    writeFileSync(csv, syntheticCsv({ months: 5, seed: 7 }))
    await assertConforms(csv)
    const json = join(dir, 'built.json')
    writeFileSync(json, JSON.stringify(parse(csv)))
    await assertConforms(json)
  })

  for (const [label, truth] of Object.entries(REAL_PDFS)) {
    const path = realSample(truth.file)
    test(`real statement ${label}`, { skip: !path && `real sample ${truth.file} absent` }, () =>
      assertConforms(path, truth.password),
    )
  }

  for (const file of filesIn(join('tests', 'vectors'), ['.json'])) {
    test(`tests/vectors/${basename(file)} through the CLI`, async () => {
      const vector = JSON.parse(readFileSync(file, 'utf8'))
      if (vector.file) return assertConforms(join(dirname(file), vector.file))
      const input = join(dir, `vector-${basename(file)}`)
      writeFileSync(input, JSON.stringify(vector.input))
      await assertConforms(input)
    })
  }
})

describe('golden vectors (tests/vectors/)', () => {
  const vectors = filesIn(join('tests', 'vectors'), ['.json'])
  test('vectors are present', { skip: vectors.length === 0 && 'no tests/vectors/' }, () => {
    assert.ok(vectors.length > 0)
  })
  for (const file of vectors) {
    test(basename(file), () => {
      const vector = JSON.parse(readFileSync(file, 'utf8'))
      assert.equal(typeof vector.name, 'string')
      // A vector of another wallet names its own file (PDF or CSV) instead of a canonical input.
      const input = vector.file ? readFileSync(join(dirname(file), vector.file)) : vector.input
      assertSameJson(JSON.stringify(score(input)), JSON.stringify(vector.report), vector.name)
      if (vector.file) assert.deepEqual(parse(input), vector.statement, `${vector.name}: parse`)
    })
  }
  test('one vector per other wallet', () => {
    const wallets = vectors.filter((f) => JSON.parse(readFileSync(f, 'utf8')).file).map((f) => basename(f).split('-')[1])
    assert.deepEqual(wallets, ['airtel', 'mtn', 'vodacom'])
  })
})
