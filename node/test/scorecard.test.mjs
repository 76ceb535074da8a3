// Scorecards as data: every card in tests/scorecard-vectors/ loads, and its golden vectors replay
// byte for byte with `score(x, { scorecard })` (and scoreAsync); invalid cards give
// `invalid_scorecard` with a message naming the problem.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, test } from 'node:test'

import { Scorecard, score, scoreAsync } from '../index.js'
import { REPO, assertSameJson, filesIn, syntheticCsv } from './helpers.mjs'

const files = filesIn(join('tests', 'scorecard-vectors'), ['.json']).map((path) => ({
  path,
  name: basename(path),
  data: JSON.parse(readFileSync(path, 'utf8')),
}))
/** Scorecards: files with characteristics. Vectors: files with an input, a report and the card's file name. */
const cards = files.filter((f) => Array.isArray(f.data.characteristics))
const vectors = files.filter((f) => f.data.input !== undefined && typeof f.data.scorecard === 'string')

describe('scorecard vectors (tests/scorecard-vectors/)', () => {
  test('there are cards, and every vector names one of them', () => {
    assert.ok(cards.length > 0, 'no scorecard in tests/scorecard-vectors/')
    const names = new Set(cards.map((c) => c.name))
    for (const v of vectors) assert.ok(names.has(v.data.scorecard), `${v.name}: unknown card ${v.data.scorecard}`)
  })

  for (const card of cards) {
    describe(card.name, () => {
      const own = vectors.filter((v) => v.data.scorecard === card.name)

      test('loads, round-trips and differs from the built-in card', () => {
        const loaded = Scorecard.load(card.path)
        const parsed = Scorecard.fromJson(readFileSync(card.path, 'utf8'))
        assert.equal(loaded.version, card.data.version)
        assert.equal(loaded.sha256, parsed.sha256)
        assert.match(loaded.sha256, /^[0-9a-f]{64}$/)
        assert.equal(Scorecard.fromJson(loaded.toJson()).sha256, loaded.sha256)
        assert.notEqual(loaded.sha256, Scorecard.builtin().sha256)
        assert.ok(loaded.describe().length > 0)
      })

      test('has golden vectors', () => assert.ok(own.length > 0, `no vector names ${card.name}`))

      for (const v of own) {
        test(`${v.name} replays byte for byte`, async () => {
          const scorecard = Scorecard.load(card.path)
          const expected = JSON.stringify(v.data.report)
          const report = score(v.data.input, { scorecard })
          assert.equal(report.scorecardVersion, scorecard.version)
          assert.equal(report.scorecardSha256, scorecard.sha256)
          assertSameJson(JSON.stringify(report), expected, v.name)
          assertSameJson(JSON.stringify(await scoreAsync(v.data.input, { scorecard })), expected, `${v.name} (async)`)
        })
      }
    })
  }
})

describe('scoring options', () => {
  test('no scorecard and Scorecard.builtin() give the same report', () => {
    const csv = Buffer.from(syntheticCsv())
    const plain = JSON.stringify(score(csv))
    assert.equal(JSON.stringify(score(csv, { scorecard: Scorecard.builtin() })), plain)
    assert.equal(JSON.stringify(score(csv, { scorecard: undefined })), plain)
  })

  test('a scorecard that is not a Scorecard is an InvalidArg', () => {
    const csv = Buffer.from(syntheticCsv())
    for (const bad of ['card.json', {}, 42]) {
      assert.throws(() => score(csv, { scorecard: bad }), (e) => e.code === 'InvalidArg')
    }
  })
})

describe('invalid scorecards', () => {
  const base = cards.find((c) => c.name.startsWith('lender-example')) ?? cards[0]
  /** A copy of the base card with `change` applied to it. */
  const broken = (change) => {
    const card = structuredClone(base.data)
    change(card, card.characteristics[0].attributes[0])
    return JSON.stringify(card)
  }
  const cases = {
    'a gap in the bins': [
      (_, a) => {
        a.bins[0].maxInclusive = false
        a.bins[1].minInclusive = false
      },
      /gap/,
    ],
    'overlapping bins': [
      (_, a) => {
        a.bins[0].maxInclusive = true
        a.bins[1].minInclusive = true
      },
      /overlap/,
    ],
    'an unknown feature': [(_, a) => (a.feature = 'no_such_feature'), /no_such_feature.*feature catalogue/],
    'non-integer points': [(_, a) => (a.bins[1].points = 7.5), /7\.5/],
    'maxima that do not add up to 550': [
      (card, a) => {
        a.bins[a.bins.length - 1].points += 1
        card.characteristics[0].max += 1
      },
      /add up to 551, not maxPoints 550/,
    ],
    'JSON that is not a scorecard': [null, /not a scorecard JSON/],
  }
  for (const [label, [change, message]] of Object.entries(cases)) {
    test(label, () => {
      const json = change ? broken(change) : '{"version": 1}'
      assert.throws(
        () => Scorecard.fromJson(json),
        (e) => {
          assert.equal(e.code, 'invalid_scorecard')
          assert.match(e.message, message)
          return true
        },
      )
    })
  }

  test('an unreadable file is an io_error', () => {
    assert.throws(() => Scorecard.load(join(REPO, 'no', 'such', 'card.json')), (e) => e.code === 'io_error')
  })
})
