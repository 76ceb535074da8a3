// A TypeScript user of the package, type-checked (never run) by `tsc --noEmit -p tsconfig.json`
// against the generated index.d.ts. Lines marked @ts-expect-error must stay type errors.
import { readFileSync } from 'node:fs'

import {
  errorCodes,
  engineVersion,
  parse,
  Scorecard,
  score,
  scoreAsync,
  type AlamaError,
  type Band,
  type ErrorCode,
  type Money,
  type ParseOptions,
  type Report,
  type Statement,
  type StatementInput,
} from '../index.js'

// Inputs: Buffer, Uint8Array, path, Statement objects.
const options: ParseOptions = { password: '123456', format: 'pdf' }
const fromBuffer: Statement = parse(readFileSync('statement.pdf'), options)
const fromPath: Statement = parse('statement.csv')
const fromView: Statement = parse(new Uint8Array(8), { format: 'csv' })
const report: Report = score(fromBuffer)
const again: Report = score('statement.csv', {})
const fromStatement: Report = score(fromPath)
void fromView
void again
void fromStatement

// A statement built by hand: only transactions are required, category is optional.
const handBuilt: StatementInput = {
  transactions: [
    {
      receiptNo: 'SEN4AB12CD',
      completedAt: '2024-05-23T14:02:11',
      details: 'Funds received from 2547******456 - SAMPLE',
      status: 'completed',
      paidIn: '1500.00',
      withdrawn: '0.00',
    },
  ],
}
const handReport: Report = score(handBuilt)
void handReport

// Results: money is a string, band a union, integrity typed.
const paidIn: Money = report.statement.totalPaidIn
const cents: bigint = BigInt(paidIn.replace('.', ''))
const band: Band = report.band
const reconciled: boolean | null = report.integrity.summaryReconciled
const firstFactor = report.factors[0]
const points: number = firstFactor ? firstFactor.max - firstFactor.score : 0
const severities = report.integrity.findings.map((f) => f.severity)
const categories = fromPath.transactions.map((t) => t.category)
const period: string | undefined = fromBuffer.period?.start
void [cents, band, reconciled, points, severities, categories, period, engineVersion()]

// Async use in a request handler, with an exhaustive switch over the error codes.
function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'password_required':
    case 'wrong_password':
      return 401
    case 'unsupported_format':
    case 'unsupported_wallet':
      return 415
    case 'malformed_statement':
    case 'empty_statement':
      return 422
    case 'too_large':
      return 413
    case 'io_error':
      return 500
    case 'invalid_scorecard':
    case 'currency_mismatch':
    case 'unsupported_currency':
      return 422
    case 'invalid_terms':
      return 400
    default: {
      const never: never = code
      return never
    }
  }
}

export async function handle(upload: Buffer, password?: string): Promise<{ status: number; body: unknown }> {
  try {
    const r: Report = await scoreAsync(upload, password === undefined ? {} : { password })
    return { status: 200, body: r }
  } catch (e) {
    const err = e as AlamaError
    const limit: number | undefined = err.limit
    void limit
    return { status: statusOf(err.code), body: { code: err.code, message: err.message } }
  }
}

const codes: ErrorCode[] = errorCodes()
void codes

// Mistakes the types catch.
// @ts-expect-error money is a decimal string, never a number
const wrongMoney: number = report.statement.totalPaidIn
// @ts-expect-error parse takes bytes or a path, not a Statement
parse(fromPath)
// @ts-expect-error unknown format name
score('x.csv', { format: 'docx' })
// @ts-expect-error hand-built money must be a string
score({ transactions: [{ receiptNo: 'A', completedAt: 'x', details: '', status: 'completed', paidIn: 1.5, withdrawn: '0.00' }] })
// @ts-expect-error scoreAsync returns a promise
const notAwaited: Report = scoreAsync('statement.csv')
void [wrongMoney, notAwaited]

// Scorecards as data: a lender's own card, passed to score and scoreAsync.
const card: Scorecard = Scorecard.load('card.json')
const cardVersion: string = card.version
const cardSha: string = Scorecard.fromJson(card.toJson()).sha256
const withCard: Report = score('statement.csv', { password: '1234', scorecard: card })
const withCardAsync: Promise<Report> = scoreAsync('statement.csv', { scorecard: Scorecard.builtin() })
// @ts-expect-error a scorecard is a Scorecard, not its JSON
score('statement.csv', { scorecard: '{}' })
void [cardVersion, cardSha, withCard, withCardAsync]
