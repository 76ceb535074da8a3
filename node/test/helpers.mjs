// Shared fixtures of the Node tests: paths, a hand-built statement, and comparisons that never
// print statement content (real statements hold personal data).
import assert from 'node:assert/strict'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** The repository root (node/test/ → ../..). */
export const REPO = resolve(here, '..', '..')

/** Real M-Pesa statements (CI has them beside the clone); override with ALAMA_SAMPLES_DIR. */
export const REAL = process.env.ALAMA_SAMPLES_DIR ?? resolve(REPO, '..', 'shared', 'samples', 'real')

/** Path of a real sample, or `undefined` when the samples folder or the file is absent. */
export function realSample(name) {
  const path = join(REAL, name)
  return existsSync(path) ? path : undefined
}

/** The skip reason for a test that needs a real sample that is not there. */
export function missing(name) {
  return `real sample ${name} not found under ${REAL} (set ALAMA_SAMPLES_DIR); skipped`
}

/** Real statements and the truths ../shared/samples/real/README.md documents for them. */
export const REAL_PDFS = {
  encrypted2023: {
    file: 'mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf',
    password: '183177',
    pages: 117,
    rows: 4382,
    allCompleted: true,
    paidIn: '1201133.99',
    withdrawn: '1179174.99',
    reconciles: true,
  },
  ilovepdf2024: {
    file: 'mpesa_2024-04_to_2024-10_unlocked_ilovepdf.pdf',
    pages: 90,
    rows: 3437,
    paidIn: '551433.17',
    withdrawn: '554936.71',
    reconciles: true,
  },
  truncated2021: {
    file: 'mpesa_2021-03_to_2021-09_unencrypted_itext_TRUNCATED.pdf',
    pages: 20,
    rows: 982,
    allCompleted: true,
    reconciles: false,
  },
}

/** The encrypted statement whose password is not known (error-path tests only). */
export const LOCKED_PDF = 'mpesa_2024-04_to_2024-10_encrypted_pw_unknown.pdf'

/** The Alama CLI (env ALAMA_CLI, else target/release/alama), or `undefined` when not built. */
export function cliPath() {
  const candidate = process.env.ALAMA_CLI ?? join(REPO, 'target', 'release', 'alama')
  return existsSync(candidate) ? candidate : undefined
}

/** `*.json` files of a repository folder (absolute paths, sorted), or `[]` when absent. */
export function filesIn(folder, extensions) {
  const dir = join(REPO, folder)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => extensions.some((e) => f.endsWith(e)))
    .sort()
    .map((f) => join(dir, f))
}

const CSV_HEADER = 'Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance'

/**
 * A small synthetic statement (no real person), as M-Pesa CSV text: `months` months of a salary,
 * rent, shopping, airtime, a Fuliza draw and repayment, with a running balance. Newest row first,
 * as M-Pesa lists them. `seed` varies the amounts so several statements differ.
 */
export function syntheticCsv({ months = 4, seed = 1 } = {}) {
  const rows = []
  let balance = 1500 + seed * 10
  let n = 0
  const receipt = () => `SX${String(seed).padStart(2, '0')}${String(n++).padStart(6, '0')}`
  const push = (date, details, paidIn, withdrawn) => {
    balance += paidIn - withdrawn
    rows.push([receipt(), date, details, 'Completed', paidIn.toFixed(2), withdrawn.toFixed(2), balance.toFixed(2)])
  }
  for (let m = 0; m < months; m++) {
    const month = String(1 + m).padStart(2, '0')
    const day = (d) => `2024-${month}-${String(d).padStart(2, '0')}`
    push(`${day(1)} 08:15:00`, 'Salary Payment from 600554 - SAMPLE DAIRY COOP', 42000 + seed * 100 + m * 7, 0)
    push(`${day(2)} 09:00:00`, 'Pay Bill to 222111 - SAMPLE HOMES Acc. RENT', 0, 15000)
    push(`${day(3)} 12:30:45`, 'Merchant Payment to 501480 - SAMPLE HARDWARE', 0, 1234.5 + m)
    push(`${day(5)} 18:04:08`, 'Buy Bundles Online', 0, 100)
    push(`${day(9)} 07:53:57`, 'Customer Transfer to 2547******123 - SAMPLE PERSON', 0, 3000 + seed)
    push(`${day(12)} 10:00:30`, 'Customer Withdrawal At Agent Till 123456 - SAMPLE AGENT', 0, 5000)
    push(`${day(20)} 13:13:13`, 'OverDraft of Credit Party', 350, 0)
    push(`${day(20)} 13:13:13`, 'Merchant Payment to 700700 - SAMPLE SHOP', 0, 350)
    push(`${day(25)} 16:11:16`, 'OD Loan Repayment to 232323 - M-PESA Overdraw', 0, 353.5)
    push(`${day(27)} 11:11:11`, 'Funds received from 2547******456 - SAMPLE FRIEND', 2500 + m * 3, 0)
  }
  rows.reverse()
  return [CSV_HEADER, ...rows.map((r) => r.join(','))].join('\n') + '\n'
}

/**
 * Asserts two JSON texts are equal without printing them (they may hold personal data): on a
 * mismatch the message gives only the lengths and the offset of the first difference.
 */
export function assertSameJson(actual, expected, label) {
  if (actual === expected) return
  let i = 0
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++
  assert.fail(`${label}: JSON differs at offset ${i} (lengths ${actual.length} vs ${expected.length})`)
}

/** Sums decimal strings exactly (as integer cents) and returns `"123.45"`. */
export function sumMoney(amounts) {
  let cents = 0n
  for (const a of amounts) {
    const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(a)
    assert.ok(m, `not a decimal string with at most 2 places: ${JSON.stringify(a)}`)
    const v = BigInt(m[2]) * 100n + BigInt((m[3] ?? '').padEnd(2, '0'))
    cents += m[1] ? -v : v
  }
  const sign = cents < 0n ? '-' : ''
  const abs = cents < 0n ? -cents : cents
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`
}
