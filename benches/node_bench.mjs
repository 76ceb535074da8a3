#!/usr/bin/env node
// Throughput of the Node package's `score` (sync, main thread) and `scoreAsync` (libuv pool)
// against the Rust CLI (`alama score FILE --format json`, one process per statement) on the same
// statements. Prints a Markdown table and the machine it ran on.
//
//   cd node && npm ci && npm run build && cd .. && cargo build --release --bin alama
//   node benches/node_bench.mjs [--runs N] [--concurrency C]
//
// Statements: examples/, the largest golden vector, a synthetic 24-month CSV, and the real
// M-Pesa PDFs of ../shared/samples/real/ when present (override with ALAMA_SAMPLES_DIR).
// ALAMA_CLI points at another CLI binary. Figures are wall-clock; nothing here is asserted.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: String(Number(process.env.UV_THREADPOOL_SIZE ?? 4)) },
  },
})
const RUNS = Number(flags.runs)
const CONCURRENCY = Number(flags.concurrency)

const { score, scoreAsync, parse, engineVersion } = await import(join(REPO, 'node', 'index.js'))
const CLI = process.env.ALAMA_CLI ?? join(REPO, 'target', 'release', 'alama')
const REAL = process.env.ALAMA_SAMPLES_DIR ?? resolve(REPO, '..', 'shared', 'samples', 'real')
const tmp = mkdtempSync(join(os.tmpdir(), 'alama-node-bench-'))

function statements() {
  const out = []
  for (const f of ['statement.csv', 'statement.json']) {
    const path = join(REPO, 'examples', f)
    if (existsSync(path)) out.push({ label: `examples/${f}`, path })
  }
  const vectors = join(REPO, 'tests', 'vectors')
  if (existsSync(vectors)) {
    const largest = readdirSync(vectors)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(vectors, f))
      // Only the canonical-JSON vectors (the other wallets' vectors name their own PDF or CSV).
      .filter((f) => JSON.parse(readFileSync(f, 'utf8')).input !== undefined)
      .sort((a, b) => statSync(b).size - statSync(a).size)[0]
    if (largest) {
      const path = join(tmp, `vector-${basename(largest)}`)
      writeFileSync(path, JSON.stringify(JSON.parse(readFileSync(largest, 'utf8')).input))
      out.push({ label: `vector ${basename(largest)}`, path })
    }
  }
  const pdfs = [
    ['mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf', '183177', 'real PDF, 117 pages, RC4'],
    ['mpesa_2024-04_to_2024-10_unlocked_ilovepdf.pdf', undefined, 'real PDF, 90 pages'],
  ]
  for (const [file, password, label] of pdfs) {
    const path = join(REAL, file)
    if (existsSync(path)) out.push({ label, path, password })
  }
  return out
}

const ms = (ns) => Number(ns) / 1e6
const now = () => process.hrtime.bigint()

function benchSync(s) {
  const bytes = readFileSync(s.path)
  const options = s.password ? { password: s.password } : undefined
  score(bytes, options) // warm-up
  const t0 = now()
  for (let i = 0; i < RUNS; i++) score(bytes, options)
  return ms(now() - t0) / RUNS
}

async function benchAsync(s) {
  const bytes = readFileSync(s.path)
  const options = s.password ? { password: s.password } : undefined
  await scoreAsync(bytes, options) // warm-up
  let next = 0
  const worker = async () => {
    while (next++ < RUNS) await scoreAsync(bytes, options)
  }
  const t0 = now()
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return ms(now() - t0) / RUNS
}

function benchCli(s) {
  if (!existsSync(CLI)) return undefined
  const args = ['score', s.path, '--format', 'json']
  if (s.password) args.push('--password', s.password)
  const once = () => {
    const r = spawnSync(CLI, args, { maxBuffer: 64 << 20 })
    if (r.status !== 0) throw new Error(`CLI failed on ${s.label}: ${String(r.stderr).split('\n')[0]}`)
    return r.stdout
  }
  once()
  const t0 = now()
  for (let i = 0; i < RUNS; i++) once()
  return ms(now() - t0) / RUNS
}

const fmt = (perCallMs) => (perCallMs === undefined ? 'n/a' : `${perCallMs.toFixed(2)} ms (${(1000 / perCallMs).toFixed(1)}/s)`)

const rows = []
for (const s of statements()) {
  const n = parse(s.path, s.password ? { password: s.password } : undefined).transactions.length
  const sync = benchSync(s)
  const async_ = await benchAsync(s)
  const cli = benchCli(s)
  rows.push(`| ${s.label} | ${n} | ${fmt(sync)} | ${fmt(async_)} | ${fmt(cli)} |`)
  process.stderr.write(`done: ${s.label}\n`)
}
rmSync(tmp, { recursive: true, force: true })

const cpu = os.cpus()
console.log(`Alama engine ${engineVersion()}; ${RUNS} runs per cell after one warm-up; scoreAsync with ${CONCURRENCY} calls in flight.`)
console.log(`Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}.`)
console.log(`Command: node benches/node_bench.mjs --runs ${RUNS} --concurrency ${CONCURRENCY}`)
console.log('')
console.log('Time per statement (statements per second), wall clock, bytes already in memory for Node; the CLI is one process per statement (spawn + read + parse + score + print).')
console.log('')
console.log('| statement | rows | score (sync) | scoreAsync (pool) | CLI process |')
console.log('|---|---:|---:|---:|---:|')
for (const r of rows) console.log(r)
