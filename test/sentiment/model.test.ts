import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CALIBRATION_INPUTS,
  DENSE_FEATURES,
  calibratedScore,
  neutralGated,
  checkModelData,
  createSentimentModel,
  decisionMap,
  defaultModelPath,
  denseNames,
  loadSentimentModel,
  ngramsOf,
  PACKED_MODEL_FORMAT,
  packSentimentModel,
  readModelData,
  vectorFeatures,
  type SentimentModelData,
} from '../../src/sentiment/model.ts'
import { createSemanticModel } from '../../src/semantic/index.ts'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createSentimentScorer } from '../../src/sentiment/scorer.ts'
import { SIGNED_CALIBRATION_INPUTS, chooseDecision, chooseThresholds, fitRidge, trainRegressionWeights, type TrainingExample } from '../../src/sentiment/train.ts'
import { REVIEW_SENTENCE_FILES, SEMEVAL_TWEET_FILES, findReviewSentenceDir, readReviewSentences, readSemEvalTweets, tweetEvalForm, tweetKey } from '../../src/sentiment/corpus.ts'
import type { LexiconFeatures } from '../../src/sentiment/scorer.ts'

// A small valid model; each test damages one part of a copy.
const valid = (): SentimentModelData => ({
  format: 'textengine-sentiment-model/1',
  model_name: 'test',
  trained: {},
  dense: DENSE_FEATURES,
  denseWeights: [0, 0, 0].map(() => [0, ...DENSE_FEATURES.map(() => 0.1)]),
  ngrams: { good: [-1, 0, 1], 'not_good </s>': [1, 0, -1] },
  calibrator: { inputs: CALIBRATION_INPUTS, bias: 0, weights: CALIBRATION_INPUTS.map(() => 0.01) },
})
const damaged = (edit: (d: Record<string, unknown>) => void): unknown => {
  const d = JSON.parse(JSON.stringify(valid())) as Record<string, unknown>
  edit(d)
  return d
}

describe('sentiment model file validation', () => {
  it('accepts the committed model and a well-formed one', () => {
    expect(() => readModelData(JSON.parse(readFileSync(defaultModelPath(), 'utf8')), 'committed')).not.toThrow()
    expect(() => checkModelData(valid(), 'valid')).not.toThrow()
  })

  it('rejects an n-gram weight that is not a finite number, naming the n-gram and the class', () => {
    const bad = damaged((d) => {
      ;(d.ngrams as Record<string, unknown[]>)['not_good </s>'] = [1, 'x', -1]
    })
    expect(() => checkModelData(bad, 'm.json')).toThrow('m.json: ngrams["not_good </s>"][1] should be a finite number, instead found "x"')
  })

  it('rejects an n-gram row of the wrong length', () => {
    const bad = damaged((d) => {
      ;(d.ngrams as Record<string, unknown>).good = [1, 2]
    })
    expect(() => checkModelData(bad, 'm.json')).toThrow('ngrams["good"] should be an array of 3 numbers')
  })

  it('rejects a dense weight row that does not match the dense features', () => {
    const bad = damaged((d) => {
      ;(d.denseWeights as unknown[][])[2] = [0, 1]
    })
    expect(() => checkModelData(bad, 'm.json')).toThrow(`denseWeights[2] should be an array of ${DENSE_FEATURES.length + 1} numbers`)
  })

  it('rejects a calibrator without a finite bias or with a non-numeric weight', () => {
    expect(() => checkModelData(damaged((d) => ((d.calibrator as Record<string, unknown>).bias = null)), 'm.json')).toThrow(
      'calibrator.bias should be a finite number, instead found null',
    )
    const weights = damaged((d) => {
      ;((d.calibrator as Record<string, unknown[]>).weights as unknown[])[3] = '0.5'
    })
    expect(() => checkModelData(weights, 'm.json')).toThrow('calibrator.weights[3] should be a finite number, instead found "0.5"')
  })

  it('names the file when it is not JSON', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'te-model-')), 'broken.json')
    writeFileSync(path, '{"format": ')
    expect(() => loadSentimentModel(path)).toThrow(`${path}: not valid JSON`)
  })
})

describe('decision thresholds of the document score', () => {
  it('maps lo and hi onto -0.05 and +0.05, keeps -1, 0 and 1, and keeps the order of scores', () => {
    const t: [number, number] = [-0.2, 0.12]
    expect(decisionMap(-0.2, t)).toBeCloseTo(-0.05, 12)
    expect(decisionMap(0.12, t)).toBeCloseTo(0.05, 12)
    expect(decisionMap(0, t)).toBe(0)
    expect(decisionMap(1, t)).toBeCloseTo(1, 12)
    expect(decisionMap(-1, t)).toBeCloseTo(-1, 12)
    let prev = -Infinity
    for (let s = -1; s <= 1.0000001; s += 0.01) {
      const m = decisionMap(s, t)
      expect(m).toBeGreaterThan(prev)
      prev = m
    }
    // A score between 0.05 and hi is neutral by the +-0.05 rule once mapped; one above hi is positive.
    expect(decisionMap(0.1, t)).toBeLessThan(0.05)
    expect(decisionMap(0.13, t)).toBeGreaterThan(0.05)
  })

  it('rejects thresholds that do not bracket 0', () => {
    const bad = damaged((d) => ((d.calibrator as Record<string, unknown>).thresholds = [0.1, 0.2]))
    expect(() => checkModelData(bad, 'm.json')).toThrow('calibrator.thresholds should be [lo, hi] with -1 < lo < 0 < hi < 1, instead found [0.1,0.2]')
    const ok = damaged((d) => ((d.calibrator as Record<string, unknown>).thresholds = [-0.1, 0.2]))
    expect(() => checkModelData(ok, 'm.json')).not.toThrow()
  })

  it('chooses the cuts that classify weighted training scores best', () => {
    const lexicon = {} as LexiconFeatures
    const ex = (target: number, weight = 1): TrainingExample => ({ grams: [], dense: [], lexicon, target, weight })
    // Negatives score -0.31 and below, neutrals -0.25..0.2, positives 0.26 and above: the cuts fall in those gaps
    // (score < lo negative, > hi positive).
    const scores = [-0.6, -0.4, -0.31, -0.25, -0.1, 0, 0.1, 0.2, 0.26, 0.5, 0.9]
    const examples = [ex(-0.5), ex(-0.5), ex(-0.5), ex(0), ex(0), ex(0), ex(0), ex(0), ex(0.5), ex(0.5), ex(0.5)]
    const [lo, hi] = chooseThresholds(scores, examples)
    expect(lo).toBeLessThanOrEqual(-0.25)
    expect(lo).toBeGreaterThan(-0.31)
    expect(hi).toBeGreaterThanOrEqual(0.2)
    expect(hi).toBeLessThan(0.26)
    // With the neutral examples weightless, the cuts go back to the rule's +-0.05 wherever ties allow.
    const [lo2, hi2] = chooseThresholds([-0.5, 0.5], [ex(-0.5), ex(0.5)])
    expect([lo2, hi2]).toEqual([-0.05, 0.05])
  })
})

describe('neutral gate of the document score', () => {
  const lexicon = { compound: 0.5, positive: 0.5, negative: 0, positiveCount: 1, negativeCount: 0, negatedCount: 0, lastSentence: 0.5, minSentence: 0, maxSentence: 0.5, exclamations: 0, words: 5, icons: 0, capsWords: 0 }
  const ex = (target: number): TrainingExample => ({ grams: [], dense: [], lexicon, target, weight: 1 })

  it('shrinks the score of a text the regression finds neutral into the neutral band, keeping its sign', () => {
    const cal = { bias: 0.6, weights: CALIBRATION_INPUTS.map(() => 0), thresholds: [-0.05, 0.05] as [number, number], neutral: 0.5 }
    expect(calibratedScore(cal, lexicon, [0.2, 0.3, 0.5])).toBeGreaterThan(0.05)
    const gated = calibratedScore(cal, lexicon, [0.1, 0.6, 0.3])
    expect(gated).toBeGreaterThan(0)
    expect(gated).toBeLessThanOrEqual(0.05)
  })

  it('learns a gate when the neutral likelihood separates neutral texts the scores do not', () => {
    // All polar-looking scores; the neutral texts are those with a high neutral likelihood.
    const scores = [-0.4, -0.3, 0.3, 0.4, 0.35, -0.35, 0.3, -0.3]
    const probs = [[0.8, 0.1, 0.1], [0.7, 0.2, 0.1], [0.1, 0.2, 0.7], [0.1, 0.1, 0.8], [0.1, 0.7, 0.2], [0.2, 0.7, 0.1], [0.2, 0.65, 0.15], [0.15, 0.65, 0.2]]
    const examples = [ex(-0.5), ex(-0.5), ex(0.5), ex(0.5), ex(0), ex(0), ex(0), ex(0)]
    const d = chooseDecision(scores, probs, examples)
    expect(d.neutral).toBeDefined()
    expect(d.neutral).toBeGreaterThan(0.2)
    expect(d.neutral).toBeLessThanOrEqual(0.65)
    // Without neutral texts to find, no gate.
    expect(chooseDecision(scores.slice(0, 4), probs.slice(0, 4), examples.slice(0, 4)).neutral).toBeUndefined()
  })

  it('rejects a gate outside (0, 1] and any word but "likeliest"', () => {
    const bad = damaged((d) => ((d.calibrator as Record<string, unknown>).neutral = 1.5))
    expect(() => checkModelData(bad, 'm.json')).toThrow('calibrator.neutral should be a number in (0, 1] or "likeliest", instead found 1.5')
    const word = damaged((d) => ((d.calibrator as Record<string, unknown>).neutral = 'likely'))
    expect(() => checkModelData(word, 'm.json')).toThrow('calibrator.neutral should be a number in (0, 1] or "likeliest", instead found "likely"')
    expect(() => checkModelData(damaged((d) => ((d.calibrator as Record<string, unknown>).neutral = 'likeliest')), 'm.json')).not.toThrow()
  })

  it('with the gate "likeliest", reads a text neutral when neutral is its likeliest class, whatever its likelihood', () => {
    const cal = { bias: 0.6, weights: CALIBRATION_INPUTS.map(() => 0), thresholds: [-0.05, 0.05] as [number, number], neutral: 'likeliest' as const }
    // Neutral likeliest at 0.4: gated; neutral at 0.45 but positive likelier: not gated; a tie goes to neutral.
    expect(calibratedScore(cal, lexicon, [0.3, 0.4, 0.3])).toBeLessThanOrEqual(0.05)
    expect(calibratedScore(cal, lexicon, [0.05, 0.45, 0.5])).toBeGreaterThan(0.05)
    expect(calibratedScore(cal, lexicon, [0.1, 0.45, 0.45])).toBeLessThanOrEqual(0.05)
    expect(neutralGated('likeliest', [0.1, 0.45, 0.45])).toBe(true)
    expect(neutralGated(0.5, [0.1, 0.45, 0.45])).toBe(false)
    expect(neutralGated(undefined, [0, 1, 0])).toBe(false)
  })

  it('chooses the thresholds under the gate "likeliest" with the texts it leaves polar', () => {
    const scores = [-0.4, -0.3, 0.3, 0.4, 0.35, -0.35, 0.3, -0.3]
    const probs = [[0.8, 0.1, 0.1], [0.7, 0.2, 0.1], [0.1, 0.2, 0.7], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3], [0.3, 0.4, 0.3], [0.2, 0.65, 0.15], [0.15, 0.65, 0.2]]
    const examples = [ex(-0.5), ex(-0.5), ex(0.5), ex(0.5), ex(0), ex(0), ex(0), ex(0)]
    const d = chooseDecision(scores, probs, examples, 0.05, 'likeliest')
    expect(d.neutral).toBe('likeliest')
    // Every neutral text is gated, so the polar cuts stay as near +-0.05 as the polar scores allow.
    expect(d.thresholds).toEqual([-0.05, 0.05])
    // The learned gate needs 0.4 or less for the two texts at 0.4, and takes the highest that does as well.
    expect(chooseDecision(scores, probs, examples).neutral).toBe(0.4)
  })
})

describe('review sentences rated by their aspects (SemEval-2014 aspect-term training sets)', () => {
  it('rates each sentence once from its aspects, leaving out praise and blame together', () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-reviews-'))
    mkdirSync(join(dir, 'aspects'))
    const item = (sentence: string, aspect: string, y: number): string => `${sentence}\n${aspect}\n${y}`
    writeFileSync(
      join(dir, 'aspects', 'Restaurants_Train.xml.seg'),
      [
        item('The $T$ was great and the staff friendly.', 'food', 1),
        item('The food was great and the $T$ friendly.', 'staff', 1),
        item('Great $T$ but awful service.', 'pizza', 1),
        item('Great pizza but awful $T$.', 'service', -1),
        item('We ordered the $T$.', 'soup', 0),
        item('The $T$ was cold, the decor nice enough.', 'soup', -1),
        item('The soup was cold, the $T$ nice enough.', 'decor', 0),
      ].join('\n') + '\n',
    )
    writeFileSync(join(dir, 'aspects', 'Laptops_Train.xml.seg'), item('The $T$ died in a week.', 'battery', -1) + '\r\n')
    expect(findReviewSentenceDir(join(dir, 'sentiment', '..'))).toBe(join(dir, 'aspects'))
    const r = readReviewSentences(join(dir, 'aspects'))
    expect(r.items.map((t) => [t.id, t.set, t.text, t.mean])).toEqual([
      ['semeval14-restaurants-1', 'restaurants', 'The food was great and the staff friendly.', 2],
      ['semeval14-restaurants-3', 'restaurants', 'We ordered the soup.', 0],
      ['semeval14-restaurants-4', 'restaurants', 'The soup was cold, the decor nice enough.', -2],
      ['semeval14-laptops-1', 'laptops', 'The battery died in a week.', -2],
    ])
    expect(r.mixed).toBe(1)
  })

  it('names the file and line of a bad polarity or a short item', () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-reviews-'))
    for (const f of REVIEW_SENTENCE_FILES) writeFileSync(join(dir, f), 'The $T$ was fine.\nfood\n1\n')
    writeFileSync(join(dir, 'Laptops_Train.xml.seg'), 'The $T$ was fine.\nscreen\n1\nThe $T$ hums.\nfan\npositive\n')
    expect(() => readReviewSentences(dir)).toThrow('Laptops_Train.xml.seg:6: expected the polarity -1, 0 or 1, instead found "positive"')
    writeFileSync(join(dir, 'Laptops_Train.xml.seg'), 'The $T$ was fine.\nscreen\n')
    expect(() => readReviewSentences(dir)).toThrow('Laptops_Train.xml.seg: 2 lines, expected three per item (sentence, aspect, polarity)')
    expect(findReviewSentenceDir(join(dir, 'nowhere'))).toBeUndefined()
  })
})

describe('SemEval 2013-2016 tweets reader (TweetEval training data)', () => {
  it('reads tweets in TweetEval form, once each, leaving out excluded and conflicting ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-semeval-'))
    for (const f of SEMEVAL_TWEET_FILES) writeFileSync(join(dir, f), '')
    writeFileSync(
      join(dir, 'twitter-2013train-A.tsv'),
      [
        '1\tpositive\tGas by my house hit $3.39!!!! I\\u2019m going to Chapel Hill on Sat. :)',
        '2\tneutral\t"Ben Smith (concussion) remains out @NHL_Sharks http://t.co/abc #NHL"',
        '3\tnegative\tThis one is in the validation split',
        '4\tpositive\tSame text, two labels',
        '',
      ].join('\n'),
    )
    writeFileSync(join(dir, 'twitter-2016test-A.tsv'), '5\tpositive\tgas by my house hit $3.39 I’m going to chapel hill on sat\n6\tnegative\tSame text, two labels\n')
    const r = readSemEvalTweets(dir, new Set([tweetKey('this one is in the VALIDATION split!')]))
    expect(r.items.map((t) => [t.text, t.mean])).toEqual([
      ['Gas by my house hit $3.39!!!! I’m going to Chapel Hill on Sat. :)', 2],
      ['Ben Smith (concussion) remains out @user #NHL', 0],
    ])
    expect([r.duplicates, r.excluded, r.conflicting]).toEqual([2, 1, 1])
    expect(tweetEvalForm('hi @bob\\nsee https://x.co/1 ')).toBe('hi @user see')
  })

  it('names the file and line of a malformed line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-semeval-'))
    for (const f of SEMEVAL_TWEET_FILES) writeFileSync(join(dir, f), '')
    writeFileSync(join(dir, 'twitter-2015test-A.tsv'), '1\tpositive\tfine\n2\tgreat\ttext\n')
    expect(() => readSemEvalTweets(dir)).toThrow('twitter-2015test-A.tsv:2: expected "id<TAB>positive|neutral|negative<TAB>text"')
  })
})

describe('calibrator fit with weights kept at 0 or above', () => {
  // y = 1 + 2 a - 3 b + noise-free: unbounded, the fit finds b's negative weight; bounded, b's weight stops at 0 and a
  // takes what it can.
  const xs = [[0, 0], [1, 0], [0, 1], [1, 1], [2, 1], [1, 2]]
  const ys = xs.map(([a = 0, b = 0]) => 1 + 2 * a - 3 * b)

  it('solves the same equations as the unbounded fit while no bound binds', () => {
    const ys2 = xs.map(([a = 0, b = 0]) => 1 + 2 * a + 0.5 * b)
    const free = fitRidge(xs, ys2, 0.001)
    const bounded = fitRidge(xs, ys2, 0.001, undefined, [true, true])
    expect(bounded.bias).toBeCloseTo(free.bias, 8)
    bounded.weights.forEach((w, i) => expect(w).toBeCloseTo(free.weights[i]!, 8))
  })

  it('keeps a bounded weight at 0 where the unbounded fit goes negative, and leaves an unmarked one free', () => {
    expect(fitRidge(xs, ys, 0.001).weights[1]).toBeLessThan(-2.9)
    const bounded = fitRidge(xs, ys, 0.001, undefined, [true, true])
    expect(bounded.weights[1]).toBe(0)
    expect(bounded.weights[0]).toBeGreaterThan(0)
    expect(fitRidge(xs, ys, 0.001, undefined, [true, false]).weights[1]).toBeLessThan(-2.9)
  })

  it('gives the committed calibrator no negative weight but the neutral likelihood\'s, so more positive evidence never lowers a score', () => {
    const data = JSON.parse(readFileSync(defaultModelPath(), 'utf8')) as SentimentModelData
    data.calibrator.inputs.forEach((name, i) => {
      if (!SIGNED_CALIBRATION_INPUTS.has(name)) expect(data.calibrator.weights[i], name).toBeGreaterThanOrEqual(0)
    })
    // The tweet an unbounded fit scored negative: lexicon +0.68 and a positive model margin.
    const m = loadSentimentModel()
    const lexicon: LexiconFeatures = { compound: 0.68, positive: 0.9, negative: 0, positiveCount: 1, negativeCount: 0, negatedCount: 0, lastSentence: 0.68, minSentence: 0, maxSentence: 0.68, exclamations: 0, words: 25, icons: 0, capsWords: 0 }
    const p = [0.37, 0.15, 0.47]
    expect(calibratedScore(data.calibrator, lexicon, p)).toBeGreaterThan(0.05)
    const weaker = calibratedScore(data.calibrator, { ...lexicon, compound: 0.3, lastSentence: 0.3 }, p)
    expect(calibratedScore(data.calibrator, lexicon, p)).toBeGreaterThanOrEqual(weaker)
    expect(m.name).toBe(data.model_name)
  })
})

describe('model_sentiment n-grams of names', () => {
  const annotator = createAnnotator()
  const scorer = createSentimentScorer({ model: false })
  const read = (text: string): { grams: string[]; nameWords: readonly number[] } => {
    const doc = annotator.annotate(text)
    const nameWords = scorer.score(doc).features.nameWords ?? []
    return { grams: ngramsOf(doc, nameWords), nameWords }
  }

  it('reads a lexicon word that stands in a name as <name>, not as the word: "Fantastic Four", "Super Bowl", "Miss Marple"', () => {
    const { grams, nameWords } = read('We watched Fantastic Four before the Super Bowl with Miss Marple fans.')
    expect(nameWords.length).toBe(3)
    expect(grams).toContain('<name>')
    for (const word of ['fantastic', 'super', 'miss']) expect(grams.filter((g) => g.split(' ').includes(word))).toEqual([])
    // No bigram with <name>: "<name> bowl" would be "Super Bowl" by another spelling. The other words stay.
    expect(grams.filter((g) => g.includes('<name>'))).toEqual(['<name>'])
    expect(grams).toEqual(expect.arrayContaining(['four', 'bowl', 'marple', 'watched', 'before the', 'marple fans']))
  })

  it('makes no bigram with a negated name word either, nor one that ends a sentence on it', () => {
    const { grams, nameWords } = read('Nobody saw Fantastic Four. They met Chief Justice')
    expect(nameWords).toEqual([2, 8])
    expect(grams.filter((g) => g.includes('<name>'))).toEqual(['<name>', 'not_<name>'])
    expect(grams).toEqual(expect.arrayContaining(['nobody not_saw', 'not_four </s>', 'they met']))
  })

  it('keeps the word where it evaluates, and names without lexicon words as written', () => {
    const { grams, nameWords } = read('The show was fantastic and the staff super. Tim Cook met Roberts.')
    expect(nameWords).toEqual([])
    expect(grams).toContain('fantastic')
    expect(grams).toContain('super')
    expect(grams).toContain('tim cook')
    expect(grams).not.toContain('<name>')
    // Without the scorer's reading, every word is read as written.
    expect(ngramsOf(annotator.annotate('We watched Fantastic Four.'))).toContain('fantastic four')
  })
})

describe('model_sentiment n-grams of modal comparatives', () => {
  const annotator = createAnnotator()
  const lexiconOnly = createSentimentScorer({ model: false })
  const read = (text: string): { grams: string[]; features: LexiconFeatures } => {
    const doc = annotator.annotate(text)
    const features = lexiconOnly.score(doc).features
    return { grams: ngramsOf(doc, features.nameWords, features), features }
  }

  it('reads the negator of "couldn\'t have been friendlier" as <best>, negating nothing, as the scorer does', () => {
    const { grams, features } = read("The staff couldn't have been friendlier.")
    expect(features.modalNegators).toEqual([3])
    expect(grams).toContain('<best>')
    expect(grams).toEqual(expect.arrayContaining(['could <best>', '<best> have', 'have been', 'been friendlier']))
    expect(grams.filter((g) => g.split(' ').some((w) => w === 'not' || w.startsWith('not_')))).toEqual([])
    // Another negator still negates: "not" of "was not clean" is no modal's.
    const plain = read('The room was not clean.')
    expect(plain.features.modalNegators).toBeUndefined()
    expect(plain.grams).toEqual(expect.arrayContaining(['not', 'not_clean']))
  })

  it('reads the negator of a praising phrase ("not bad", "no complaints") as <not_neg>, and of "can\'t recommend it enough" as <best>', () => {
    for (const text of ['Not bad.', 'No complaints, no problems.']) {
      const { grams, features } = read(text)
      expect(features.negativeNegators?.length, text).toBeGreaterThan(0)
      expect(grams, text).toContain('<not_neg>')
      expect(grams.filter((g) => g.split(' ').some((w) => w === 'not' || w === 'no')), text).toEqual([])
    }
    expect(read('The room was not clean.').features.negativeNegators).toBeUndefined()
    // The scope is the phrase's: "not bad" negated; "at all" and "whatsoever" after it say how far it holds, and are
    // read as its words, with no n-grams of their own (a plain "not at all" keeps them).
    const atAll = read('Not bad at all.')
    expect(atAll.features.praiseNegated).toEqual([1])
    expect(atAll.grams).toEqual(['<not_neg>', '<not_neg> not_bad', '<s> <not_neg>', 'not_bad', 'not_bad </s>'])
    expect(read('No problems whatsoever, really.').grams.filter((g) => g.includes('whatsoever'))).toEqual([])
    expect(read('No problems, whatsoever.').grams).toContain('whatsoever')
    expect(read('I did not like it at all.').grams).toEqual(expect.arrayContaining(['not_at', 'not_at all', 'all </s>']))
    expect(read('Not bad at night.').grams).toEqual(expect.arrayContaining(['not_bad at', 'at night']))
    const enough = read("I can't recommend this place enough.")
    expect(enough.grams).toContain('<best>')
    expect(enough.grams).toContain('recommend')
    expect(enough.grams).not.toContain('not_recommend')
  })

  it('negates the comparative of an un-negated modal: "It could have been cleaner." reads not_cleaner', () => {
    const { grams, features } = read('It could have been cleaner, and the staff could be more helpful.')
    expect(features.modalNegated).toEqual([4, 12])
    expect(grams).toEqual(expect.arrayContaining(['not_cleaner', 'been not_cleaner', 'more not_helpful']))
    expect(grams).not.toContain('cleaner')
    expect(grams).not.toContain('helpful')
  })

  it('gives the document score of the shipped model the polarity the scorer reads', () => {
    const scorer = createSentimentScorer()
    for (const text of ["The staff couldn't have been friendlier.", "It couldn't have been nicer.", "I couldn't be happier!", "I couldn't have asked for a better stay.", "They couldn't have done a better job.", "It can't get any better than this.", "Can't fault the staff.", "You won't be disappointed.", "I can't recommend this place enough.", 'Not bad at all.', 'No complaints at all.', 'No problems whatsoever.', 'I have no complaints.', 'Nothing to complain about.', 'No issues at all with the booking.']) {
      expect(scorer.score(annotator.annotate(text)).sentiment_polarity, text).toBe('positive')
    }
    for (const text of ['It could have been cleaner.', 'It could not have been worse.', 'They could have done a better job.', 'The staff was less helpful.']) {
      expect(scorer.score(annotator.annotate(text)).sentiment_polarity, text).toBe('negative')
    }
  })
})

describe('model_sentiment regression penalty', () => {
  // A word only positive texts hold ("great"), one only negative texts hold ("awful"), and one every text holds ("the").
  const lexicon: LexiconFeatures = { compound: 0, positive: 0, negative: 0, positiveCount: 0, negativeCount: 0, negatedCount: 0, lastSentence: 0, minSentence: 0, maxSentence: 0, exclamations: 0, words: 3, icons: 0, capsWords: 0 }
  const examples: TrainingExample[] = []
  for (let i = 0; i < 60; i++) {
    const y = i % 3
    const grams = ['the', ...(y === 2 && i % 2 === 0 ? ['great'] : []), ...(y === 0 && i % 2 === 0 ? ['awful'] : []), `w${i % 7}`].sort()
    examples.push({ grams, dense: DENSE_FEATURES.map(() => 0), lexicon, target: y === 2 ? 0.5 : y === 0 ? -0.5 : 0 })
  }
  const options = { minDf: 1, iterations: 150, l2: 0.05, decimals: 6 }
  const spread = (w: readonly number[] | undefined): number => Math.max(...(w ?? [0])) - Math.min(...(w ?? [0]))

  it('holds back less an n-gram whose counts tell the classes apart, and more one that occurs alike in all', () => {
    const plain = trainRegressionWeights(examples, { ...options, nbPenalty: 0 })
    const scaled = trainRegressionWeights(examples, options)
    expect(spread(scaled.ngrams['great'])).toBeGreaterThan(spread(plain.ngrams['great']))
    expect(spread(scaled.ngrams['awful'])).toBeGreaterThan(spread(plain.ngrams['awful']))
    expect(spread(scaled.ngrams['the'])).toBeLessThan(spread(plain.ngrams['the']) + 1e-9)
    // The same data give the same weights.
    expect(JSON.stringify(trainRegressionWeights(examples, options))).toBe(JSON.stringify(scaled))
  })
})

describe('packed sentiment model file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'te-packed-'))
  const write = (name: string, text: string): string => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }
  const annotator = createAnnotator()
  const scorer = createSentimentScorer({ model: false })

  it('predicts exactly as its data, reads back as its data, and the unpacked form still loads', () => {
    const data = valid()
    const packed = packSentimentModel(data)
    // Whole numbers: written as int32s with no decimal (see encodeWeights in src/packed-table.ts).
    const ints = Buffer.alloc(24)
    ;[-1, 0, 1, 1, 0, -1].forEach((k, i) => ints.writeInt32LE(k, 4 * i))
    expect(JSON.parse(packed)).toMatchObject({ format: PACKED_MODEL_FORMAT, ngrams: 'good\nnot_good </s>\n', ngramWeights: `i32e0:${ints.toString('base64')}` })
    expect(readModelData(JSON.parse(packed), 'p')).toEqual(data)
    expect(packSentimentModel(JSON.parse(JSON.stringify(data)) as SentimentModelData)).toBe(packed)
    const fromPacked = loadSentimentModel(write('packed.json', packed + '\n'))
    const fromTable = loadSentimentModel(write('table.json', JSON.stringify(data)))
    for (const text of ['good', 'This is not good.', 'A good day, a good film!']) {
      const doc = annotator.annotate(text)
      const f = scorer.score(doc).features
      expect(fromPacked.predict(doc, f)).toEqual(fromTable.predict(doc, f))
    }
  })

  it('reads the committed file, packed, into the model it was trained as', () => {
    const json = JSON.parse(readFileSync(defaultModelPath(), 'utf8')) as { format: string }
    expect(json.format).toBe(PACKED_MODEL_FORMAT)
    const data = readModelData(json, 'committed')
    expect(Object.keys(data.ngrams).length).toBeGreaterThan(20_000)
    const shipped = loadSentimentModel()
    const rebuilt = createSentimentModel(data)
    for (const text of ['The staff were friendly, but the room was not clean.', 'meh', 'Worst. Service. Ever!!! 😡']) {
      const doc = annotator.annotate(text)
      const f = scorer.score(doc).features
      expect(shipped.predict(doc, f)).toEqual(rebuilt.predict(doc, f))
    }
  })

  it('refuses a damaged packed file, naming the file and the field', () => {
    const good = JSON.parse(packSentimentModel(valid())) as Record<string, unknown>
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, ngramWeights: [-1, 0, 1, 1, 0] }, 'bad.json: ngramWeights should hold 3 numbers for each of the 2 n-grams, instead found 5'],
      [{ ...good, ngramWeights: [-1, 0, 1, 1, null, -1] }, 'bad.json: ngramWeights[4] (n-gram "not_good </s>") should be a finite number, instead found null'],
      [{ ...good, ngrams: 'good\nnot_good </s>' }, 'bad.json: ngrams should be a string of n-grams, each ended by a line feed'],
      [{ ...good, ngramWeights: 'f64:AAAA' }, 'bad.json: ngramWeights should be an array of numbers or a string "i32e<decimals 0-6>:<base64>", instead found a string starting "f64:AAAA"'],
      [{ ...good, ngramWeights: 'i32e3:AA*A' }, 'bad.json: ngramWeights: the part after "i32e3:" should be base64'],
      [{ ...good, ngramWeights: `i32e3:${Buffer.alloc(20).toString('base64')}` }, 'bad.json: ngramWeights should hold 6 int32s (24 bytes) for the n-grams, instead found 20 bytes'],
      [{ ...good, calibrator: { ...(good['calibrator'] as object), bias: 'x' } }, 'bad.json: calibrator.bias should be a finite number, instead found "x"'],
      [{ ...good, format: 'textengine-sentiment-model/7' }, 'bad.json: format should be "textengine-sentiment-model/2" (or the unpacked "textengine-sentiment-model/1"), instead found "textengine-sentiment-model/7"'],
    ]
    for (const [json, message] of cases) expect(() => loadSentimentModel(write('bad.json', JSON.stringify(json)))).toThrow(message)
    expect(() => packSentimentModel({ ...valid(), ngrams: { 'a\nb': [0, 0, 0] } })).toThrow('holds a line feed')
  })
})

describe('model_sentiment text vector (word vectors beside the n-grams)', () => {
  const annotator = createAnnotator()
  const scorer = createSentimentScorer({ model: false })
  const shipped = createSemanticModel()
  const dims = shipped.vectors.dims
  // A valid model that reads a text vector: one weight on its first component.
  const withVector = (sha1 = shipped.vectorsSha1): SentimentModelData => ({
    ...valid(),
    dense: denseNames({ dims }),
    embedding: { vectors: sha1, dims },
    denseWeights: [0, 0, 0].map((_, c) => [0, ...DENSE_FEATURES.map(() => 0), ...Array.from({ length: dims }, (_v, i) => (i === 0 ? c - 1 : 0))]),
  })

  it('is the unit-length mean of the words\' vectors, leaving out the lexicon words of names', () => {
    const doc = annotator.annotate('We watched Fantastic Four before the Super Bowl.')
    const { nameWords = [] } = scorer.score(doc).features
    expect(nameWords.length).toBe(2)
    const all = vectorFeatures(shipped.vectors, doc)
    const named = vectorFeatures(shipped.vectors, doc, nameWords)
    expect(all).toHaveLength(dims)
    expect(Math.hypot(...all)).toBeCloseTo(1, 5)
    expect(Math.hypot(...named)).toBeCloseTo(1, 5)
    // "fantastic" and "super" are out of it: the text's vector without them equals that of the same text without them.
    expect(named).not.toEqual(all)
    const without = annotator.annotate('We watched Four before the Bowl.')
    named.forEach((x, i) => expect(x).toBeCloseTo(vectorFeatures(shipped.vectors, without)[i]!, 6))
    // So are the words a praising phrase negates ("bad" of "not bad", "complaints" of "no complaints"), with the names'.
    const praise = annotator.annotate('Not bad at all, and no complaints about Fantastic Four.')
    const f = scorer.score(praise).features
    expect(f.praiseNegated?.length).toBe(2)
    const read = vectorFeatures(shipped.vectors, praise, f.nameWords, f.praiseNegated)
    const plain = vectorFeatures(shipped.vectors, annotator.annotate('Not at all, and no about Four.'))
    read.forEach((x, i) => expect(x).toBeCloseTo(plain[i]!, 6))
    expect(vectorFeatures(shipped.vectors, praise, f.nameWords)).not.toEqual(read)
    // A text without a word that has a vector has the zero vector.
    expect(vectorFeatures(shipped.vectors, annotator.annotate('!!! :)'))).toEqual(new Array<number>(dims).fill(0))
  })

  it('predicts with the vector: the same text, with the weights on it or not, reads differently', () => {
    const doc = annotator.annotate('The hotel was quiet.')
    const features = scorer.score(doc).features
    const withIt = createSentimentModel(withVector(), { vectors: shipped }).predict(doc, features).probabilities
    const plain = createSentimentModel(valid()).predict(doc, features).probabilities
    expect(withIt).not.toEqual(plain)
    // Written packed and read back, it predicts the same.
    const dir = mkdtempSync(join(tmpdir(), 'te-vector-model-'))
    const path = join(dir, 'm.json')
    writeFileSync(path, packSentimentModel(withVector()))
    expect(loadSentimentModel(path, { vectors: shipped }).predict(doc, features).probabilities).toEqual(withIt)
    // By default the vectors come from the data folder.
    expect(loadSentimentModel(path).predict(doc, features).probabilities).toEqual(withIt)
  })

  it('refuses vectors other than those it was trained with, naming both', () => {
    const other = 'f'.repeat(40)
    expect(() => createSentimentModel(withVector(other), { vectors: shipped })).toThrow(`trained with the word vectors of SHA-1 ${other} (${dims} dimensions), but the vectors at hand are ${shipped.vectorsSha1}`)
  })

  it('rejects a malformed embedding and dense names that do not match it', () => {
    const bad = (edit: (d: Record<string, unknown>) => void): unknown => {
      const d = JSON.parse(JSON.stringify(withVector())) as Record<string, unknown>
      edit(d)
      return d
    }
    expect(() => checkModelData(bad((d) => ((d.embedding as Record<string, unknown>).vectors = 'abc')), 'm.json')).toThrow('m.json: embedding.vectors should be the SHA-1 (40 hex digits) of the word vectors, instead found "abc"')
    expect(() => checkModelData(bad((d) => ((d.embedding as Record<string, unknown>).dims = 0)), 'm.json')).toThrow('embedding.dims should be an integer within 1..4096, instead found 0')
    expect(() => checkModelData(bad((d) => delete d.embedding), 'm.json')).toThrow(`dense should be ${DENSE_FEATURES.join(',')}`)
    expect(() => checkModelData(bad((d) => ((d.embedding as Record<string, unknown>).dims = dims - 1)), 'm.json')).toThrow(`then vector_0..vector_${dims - 2}`)
  })

  it('trains only on examples whose dense features match the option', () => {
    const lexicon = scorer.score(annotator.annotate('ok')).features
    const examples: TrainingExample[] = [0, 1, 2, 3, 4, 5].map((i) => ({ grams: ['w'], dense: [...DENSE_FEATURES.map(() => 0), 0.5, 0.5], lexicon, target: (i % 3) - 1 }))
    expect(() => trainRegressionWeights(examples)).toThrow(`training example 0: ${DENSE_FEATURES.length + 2} dense features, expected ${DENSE_FEATURES.length} (${DENSE_FEATURES.length} lexicon features; a text vector needs the embedding option)`)
    const data = trainRegressionWeights(examples, { embedding: { vectors: shipped.vectorsSha1, dims: 2 }, minDf: 1, iterations: 5 })
    expect(data.dense).toEqual([...DENSE_FEATURES, 'vector_0', 'vector_1'])
    expect(data.embedding).toEqual({ vectors: shipped.vectorsSha1, dims: 2 })
    expect(data.denseWeights[0]).toHaveLength(DENSE_FEATURES.length + 3)
  })

  it('is read by the committed model, with the shipped vectors', () => {
    const data = readModelData(JSON.parse(readFileSync(defaultModelPath(), 'utf8')), 'committed')
    expect(data.embedding).toEqual({ vectors: shipped.vectorsSha1, dims })
    expect(data.dense).toEqual(denseNames({ dims }))
  })
})
