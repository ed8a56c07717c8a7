/**
 * A/B of annotation and language identification between this tree and another checkout of the same package (for
 * instance `git archive <commit> src lexicons | tar -x -C /tmp/old`), in one process, on the speed samples:
 *
 *   node --import tsx bench/annotate-ab.ts <data dir> <old root> [rounds] [docs per set]
 *
 * Per text, old and new run alternately (which goes first alternates too) for `rounds` rounds (more for a small set,
 * so that each set gives about `rounds` x 300 runs); a step's figure is the mean over texts of the fastest round
 * (robust to a shared, loaded machine: a text's time counts only from its least disturbed run).
 * Steps: annotate (annotation plus the tag refinement), language (the language analyzer), sentiment (the lexicon
 * scorer and model on the annotated document), entities (entity extraction on it), and the whole `analyzeDocument`
 * with every output on. Also checks that both give the same bytes (each step's result and the whole output).
 * wink-nlp's raw `readDoc` (the ceiling) is timed the same way in the same rounds, and each side's
 * `analyzeDocument` is printed as a ratio to it (readDoc time / analyze time).
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadavg } from 'node:os'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { benchSets } from './samples.ts'

const [dataArg, oldArg, roundsArg, docsArg] = process.argv.slice(2)
if (dataArg === undefined || oldArg === undefined) {
  process.stderr.write('usage: node --import tsx bench/annotate-ab.ts <data dir> <old root> [rounds] [docs per set]\n')
  process.exit(2)
}
const baseRounds = Number(roundsArg ?? 5)
const docs = Number(docsArg ?? 1000)
const here = resolve(new URL('..', import.meta.url).pathname)

interface Side {
  name: string
  annotate(text: string): unknown
  language(doc: unknown): unknown
  sentiment(doc: unknown): unknown
  entities(doc: unknown): unknown
  analyze(text: string): unknown
}

async function side(name: string, root: string): Promise<Side> {
  const imp = (p: string): Promise<any> => import(pathToFileURL(resolve(root, p)).href)
  const { createAnnotator } = await imp('src/nlp/annotate.ts')
  const { refineTags } = await imp('src/pipeline/pos.ts')
  const { createLanguageAnalyzer } = await imp('src/pipeline/analyzers/language.ts')
  const { createLanguageIdentifier, loadCompiledLanguageModel } = await imp('src/langid/index.ts')
  const { lazyBackground } = await imp('src/pipeline/analyzers/themes.ts')
  const { createAnalysisCore } = await imp('src/engine/analysis.ts')
  const { createSentimentScorer } = await imp('src/sentiment/index.ts')
  const { createEntityExtractor } = await imp('src/entities/extract.ts')
  const { builtinAnalyzers } = await imp('src/engine/features.ts')
  const { buildSubscription } = await imp('src/engine/account.ts')
  const { defaultConfigurationSettings } = await imp('src/engine/settings.ts')
  const { emptyTuning } = await imp('src/engine/templates.ts')
  const { EVERY_OUTPUT_ON } = await import(pathToFileURL(resolve(here, 'test/fixtures/golden/golden.ts')).href)
  const annotator = createAnnotator()
  const scorer = createSentimentScorer()
  const extractor = createEntityExtractor()
  const lang = createLanguageAnalyzer(createLanguageIdentifier(loadCompiledLanguageModel()), lazyBackground())
  const ctx = {
    configuration: { language: 'English', document: { detect_language: true } },
    subscription: { feature_settings: { document: { language_detection: true } } },
  }
  const core = createAnalysisCore(builtinAnalyzers())
  const settings = defaultConfigurationSettings('English')
  const stored = {
    configuration: { ...settings, id: 'bench', config_id: 'bench', is_primary: true, modified: 0, document: { ...settings.document, ...EVERY_OUTPUT_ON.document } },
    tuning: emptyTuning(),
    revision: 1,
  }
  const sub = buildSubscription(undefined, 'bench')
  return {
    name,
    annotate(text) {
      const d = annotator.annotate(text)
      refineTags(d)
      return d
    },
    language: (doc) => lang.run(doc, {}, ctx),
    // (The scorer's result holds closures: its plain data is what the byte check compares.)
    sentiment: (doc) => scorer.score(doc),
    entities: (doc) => extractor.extract(doc),
    analyze: (text) => core.analyzeDocument(text, { id: 'b' }, stored, sub, 'bench'),
  }
}

const sides = [await side('old', resolve(oldArg)), await side('new', here)]
const wink = winkNLP(model, ['sbd', 'negation', 'pos', 'ner'])
const steps = ['annotate', 'language', 'sentiment', 'entities', 'analyze'] as const
for (const set of benchSets(dataArg)) {
  const texts = set.texts.slice(0, docs)
  const rounds = Math.max(baseRounds, Math.min(40, Math.ceil((baseRounds * 300) / texts.length)))
  // times[side][step][round][text]
  const times = sides.map(() => steps.map(() => Array.from({ length: rounds }, () => new Float64Array(texts.length))))
  const winkTimes = Array.from({ length: rounds }, () => new Float64Array(texts.length))
  let differ = 0
  for (const t of texts) wink.readDoc(t)
  // Warm up both sides on the set.
  for (const s of sides) for (const t of texts) {
    const d = s.annotate(t)
    s.language(d), s.sentiment(d), s.entities(d), s.analyze(t)
  }
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i]!
      const order = (i + r) % 2 === 0 ? [0, 1] : [1, 0]
      const outs: string[] = []
      const w0 = performance.now()
      wink.readDoc(t)
      winkTimes[r]![i] = performance.now() - w0
      for (const k of order) {
        const s = sides[k]!
        const t0 = performance.now()
        const d = s.annotate(t)
        const t1 = performance.now()
        const l = s.language(d)
        const t2 = performance.now()
        const se = s.sentiment(d)
        const t3 = performance.now()
        const en = s.entities(d)
        const t4 = performance.now()
        const o = s.analyze(t)
        const t5 = performance.now()
        times[k]![0]![r]![i] = t1 - t0
        times[k]![1]![r]![i] = t2 - t1
        times[k]![2]![r]![i] = t3 - t2
        times[k]![3]![r]![i] = t4 - t3
        times[k]![4]![r]![i] = t5 - t4
        if (r === 0) outs[k] = JSON.stringify([d, l, se, en, o])
      }
      if (r === 0 && outs[0] !== outs[1]) differ++
    }
  }
  const fastest = (k: number, j: number): number => {
    let sum = 0
    for (let i = 0; i < texts.length; i++) {
      let m = Infinity
      for (let r = 0; r < rounds; r++) m = Math.min(m, times[k]![j]![r]![i]!)
      sum += m
    }
    return (sum / texts.length) * 1000
  }
  const parts = steps.map((step, j) => {
    const a = fastest(0, j)
    const b = fastest(1, j)
    return `${step} ${a.toFixed(0)} -> ${b.toFixed(0)} us (x${(a / b).toFixed(2)})`
  })
  let winkSum = 0
  for (let i = 0; i < texts.length; i++) {
    let m = Infinity
    for (let r = 0; r < rounds; r++) m = Math.min(m, winkTimes[r]![i]!)
    winkSum += m
  }
  const winkUs = (winkSum / texts.length) * 1000
  const a = steps.indexOf('analyze')
  const ratios = `readDoc ${winkUs.toFixed(0)} us, analyze ratio to readDoc ${(winkUs / fastest(0, a)).toFixed(3)} -> ${(winkUs / fastest(1, a)).toFixed(3)}`
  console.log(`${set.name} (${texts.length} docs, ${rounds} rounds): ${parts.join('; ')}; ${ratios}; outputs differing: ${differ}; load ${loadavg()[0]!.toFixed(1)}`)
}
