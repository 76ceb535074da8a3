// The hand-written interfaces in index.d.ts (from types-header.d.ts) describe the objects the
// addon really returns: every key, optional or not, every string-literal union, every money and
// time encoding. Catches drift between the engine's structs and the TypeScript types.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { parse, score } from '../index.js'
import { REAL_PDFS, filesIn, realSample, syntheticCsv } from './helpers.mjs'

const dts = readFileSync(fileURLToPath(new URL('../index.d.ts', import.meta.url)), 'utf8')

/** `export interface X { a: T; b?: U }` blocks → { X: { a: {type, optional} } }. */
function interfaces(text) {
  const out = {}
  for (const m of text.matchAll(/^export interface (\w+)(?: extends \w+)? \{\n([\s\S]*?)^\}/gm)) {
    const props = {}
    for (const p of m[2].matchAll(/^ {2}(\w+)(\??): (.+)$/gm)) props[p[1]] = { type: p[3].trim(), optional: p[2] === '?' }
    out[m[1]] = props
  }
  return out
}

/** `export type X = …` aliases (single- or multi-line unions) → { X: 'a | b' }. */
function aliases(text) {
  const out = {}
  for (const m of text.matchAll(/^export type (\w+) =((?:.*\n)(?:\s+\|.*\n)*)/gm)) {
    out[m[1]] = m[2].replace(/\s+/g, ' ').trim().replace(/^\| /, '')
  }
  return out
}

const IFACES = interfaces(dts)
const ALIASES = aliases(dts)
const FORMATS = {
  // A decimal string with the scale the statement prints: M-Pesa's two places ("425.00"), MTN
  // MoMo Ghana's fees and E-LEVY as printed ("0", "0.1"); never a number, never an exponent.
  Money: /^-?\d+(\.\d+)?$/,
  IsoDate: /^\d{4}-\d{2}-\d{2}$/,
  LocalDateTime: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/,
}

function splitUnion(type) {
  const parts = []
  let depth = 0
  let cur = ''
  for (const ch of type) {
    if (ch === '(' || ch === '<' || ch === '{') depth++
    if (ch === ')' || ch === '>' || ch === '}') depth--
    if (ch === '|' && depth === 0) {
      parts.push(cur.trim())
      cur = ''
    } else cur += ch
  }
  parts.push(cur.trim())
  return parts.filter(Boolean)
}

/** Returns a list of problems of `value` against the TypeScript type text `type`. */
function check(value, type, path) {
  const members = splitUnion(type)
  if (members.length > 1) {
    const results = members.map((m) => check(value, m, path))
    return results.some((r) => r.length === 0) ? [] : [`${path}: matches none of ${type}`]
  }
  const t = members[0]
  if (t.endsWith('[]')) {
    if (!Array.isArray(value)) return [`${path}: not an array`]
    return value.flatMap((v, i) => check(v, t.slice(0, -2), `${path}[${i}]`))
  }
  if (/^'.*'$/.test(t)) return value === t.slice(1, -1) ? [] : [`${path}: not ${t}`]
  if (t === 'null') return value === null ? [] : [`${path}: not null`]
  if (['string', 'number', 'boolean'].includes(t)) return typeof value === t ? [] : [`${path}: not a ${t}`]
  if (FORMATS[t]) return typeof value === 'string' && FORMATS[t].test(value) ? [] : [`${path}: not ${t}`]
  if (ALIASES[t]) return check(value, ALIASES[t], path)
  if (IFACES[t]) return checkInterface(value, t, path)
  if (t.startsWith('{') && t.endsWith('}')) return checkObject(value, t, path)
  return [`${path}: unknown type ${t} in the test`]
}

/** An inline object type `{ a: T; b?: U }` (members without nested braces). */
function checkObject(value, type, path) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`]
  const props = {}
  for (const m of type.slice(1, -1).matchAll(/(\w+)(\??):\s*([^;]+)/g)) props[m[1]] = { type: m[3].trim(), optional: m[2] === '?' }
  const problems = []
  for (const key of Object.keys(value)) {
    if (!props[key]) problems.push(`${path}.${key}: not declared in ${type}`)
    else problems.push(...check(value[key], props[key].type, `${path}.${key}`))
  }
  for (const [key, p] of Object.entries(props)) {
    if (!p.optional && !(key in value)) problems.push(`${path}.${key}: required by ${type}, missing`)
  }
  return problems
}

function checkInterface(value, name, path) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`]
  const props = IFACES[name]
  const problems = []
  for (const key of Object.keys(value)) {
    if (!props[key]) problems.push(`${path}.${key}: not declared in ${name}`)
    else problems.push(...check(value[key], props[key].type, `${path}.${key}`))
  }
  for (const [key, p] of Object.entries(props)) {
    if (!p.optional && !(key in value)) problems.push(`${path}.${key}: required by ${name}, missing`)
  }
  return problems
}

/** Statements and reports to check: synthetic, examples, vectors, and real ones when present. */
function samples() {
  const out = [{ label: 'synthetic CSV', input: Buffer.from(syntheticCsv({ months: 6, seed: 11 })) }]
  for (const file of filesIn('examples', ['.csv', '.json'])) out.push({ label: file, input: file })
  for (const file of filesIn(join('tests', 'vectors'), ['.json'])) {
    const vector = JSON.parse(readFileSync(file, 'utf8'))
    const input = vector.file ? join(dirname(file), vector.file) : Buffer.from(JSON.stringify(vector.input))
    out.push({ label: file, input })
  }
  for (const truth of Object.values(REAL_PDFS)) {
    const path = realSample(truth.file)
    if (path) out.push({ label: truth.file, input: path, options: { password: truth.password } })
  }
  return out
}

describe('index.d.ts matches the runtime objects', () => {
  test('the declarations were found', () => {
    for (const name of ['Report', 'Statement', 'Transaction', 'Factor', 'Integrity', 'StatementOverview']) {
      assert.ok(IFACES[name] && Object.keys(IFACES[name]).length > 0, name)
    }
    for (const name of ['Money', 'Category', 'Band', 'ErrorCode', 'Provider']) assert.ok(ALIASES[name], name)
    assert.deepEqual(Object.keys(IFACES.Report), [
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
    ])
  })

  for (const { label, input, options } of samples()) {
    test(`Statement and Report of ${label.split('/').pop()}`, () => {
      const statement = parse(input, options)
      // Problems name key paths only, never values (real statements hold personal data).
      assert.deepEqual(checkInterface(statement, 'Statement', 'statement').slice(0, 10), [])
      const report = score(input, options)
      assert.deepEqual(checkInterface(report, 'Report', 'report').slice(0, 10), [])
      // The report's keys come in the declared order, at every level.
      assert.deepEqual(Object.keys(report), Object.keys(IFACES.Report))
      assert.deepEqual(Object.keys(report.statement), Object.keys(IFACES.StatementOverview))
      assert.deepEqual(Object.keys(report.integrity), Object.keys(IFACES.Integrity))
    })
  }

  test('the checker itself catches drift', () => {
    const report = score(Buffer.from(syntheticCsv({ months: 2, seed: 12 })))
    report.extra = 1
    delete report.band
    report.status = 'done'
    report.statement.totalPaidIn = 12.5
    report.factors[0].code = 7
    const problems = checkInterface(report, 'Report', 'report')
    for (const p of [
      'report.extra: not declared in Report',
      'report.band: required by Report, missing',
      "report.status: not 'completed'",
      'report.statement.totalPaidIn: not Money',
      'report.factors[0].code: not a string',
    ]) {
      assert.ok(problems.includes(p), p)
    }
  })

  test('ErrorCode lists exactly the engine codes', async () => {
    const { errorCodes } = await import('../index.js')
    const declared = splitUnion(ALIASES.ErrorCode).map((s) => s.slice(1, -1))
    assert.deepEqual(declared, errorCodes())
  })
})
