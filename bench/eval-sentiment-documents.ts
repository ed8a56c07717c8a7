/**
 * Sentiment of whole documents: reviews and editorials rebuilt from the VADER paper's rated snippets, scored by our
 * document score, model_sentiment, our lexicon score, VADER and the `sentiment` package (AFINN), in this process.
 *
 *   npx tsx bench/eval-sentiment-documents.ts DIR      (npm run eval:sentiment-documents -- DIR)
 *
 * DIR is the `hutto_ICWSM_2014/` folder of github.com/cjhutto/vaderSentiment
 * (`additional_resources/hutto_ICWSM_2014.tar.gz`, MIT): the same held-out corpora as `eval:sentiment --held-out`.
 * Their snippet ids are `<document>_<sentence>`: 3,708 sentences of 300 Amazon product reviews and 5,190 sentences of
 * 498 New York Times editorials, each sentence rated by 20 people on -4..+4. A document is its sentences in order,
 * joined by spaces, up to the contract's 2,048 characters; its target is the mean rating of those sentences over 4
 * (-1..1), read with the 3-class rule of `eval:sentiment` (above +0.05 positive, below -0.05 negative). That mean is
 * what the raters said of the document's sentences, not a rating of the document as a whole: a proxy, the only
 * document-level human figure these corpora give. Documents of fewer than two sentences are left out.
 *
 * The sentence-level figures of the same corpora are in `eval:sentiment --held-out`; no model is trained on either.
 * The length rule of model_sentiment (`ngramScale` in src/sentiment/model.ts) was chosen on the Amazon reviews and
 * checked once on the editorials.
 */
import { readFileSync, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseGroundTruth } from '../src/sentiment/corpus.ts'
import { createEngine } from '../src/engine/create-engine.ts'
import { cls, f1Scores, pearson } from './sentiment-data.ts'

const require = createRequire(import.meta.url)
const vader = require('vader-sentiment') as { SentimentIntensityAnalyzer: { polarity_scores(t: string): { compound: number } } }
const SentimentPkg = require('sentiment') as new () => { analyze(t: string): { comparative: number } }

const dir = process.argv[2]
const CORPORA = [
  { name: 'Amazon reviews', file: 'amazonReviewSnippets_GroundTruth.txt' },
  { name: 'NYT editorials', file: 'nytEditorialSnippets_GroundTruth.txt' },
]
if (dir === undefined || !CORPORA.every((c) => existsSync(join(dir, c.file)))) {
  console.error(`usage: eval-sentiment-documents DIR, where DIR holds ${CORPORA.map((c) => c.file).join(' and ')} (the hutto_ICWSM_2014/ folder of github.com/cjhutto/vaderSentiment additional_resources/hutto_ICWSM_2014.tar.gz)`)
  process.exit(2)
}

/** The documents of one ground-truth file, in order of first appearance. */
function documents(file: string): { id: string; text: string; target: number; sentences: number }[] {
  const bySentence = parseGroundTruth(readFileSync(file, 'utf8'), file)
  const groups = new Map<string, { k: number; mean: number; text: string }[]>()
  for (const s of bySentence) {
    const cut = s.id.lastIndexOf('_')
    const k = Number(s.id.slice(cut + 1))
    if (cut < 1 || !Number.isInteger(k)) throw new Error(`${file}: snippet id ${JSON.stringify(s.id)} is not <document>_<sentence>`)
    const doc = s.id.slice(0, cut)
    const list = groups.get(doc) ?? []
    list.push({ k, mean: s.mean, text: s.text.trim() })
    groups.set(doc, list)
  }
  const out: { id: string; text: string; target: number; sentences: number }[] = []
  for (const [id, list] of groups) {
    list.sort((a, b) => a.k - b.k)
    let text = ''
    let sum = 0
    let n = 0
    for (const s of list) {
      const next = text === '' ? s.text : `${text} ${s.text}`
      if (next.length > 2048) break
      text = next
      sum += s.mean
      n++
    }
    if (n >= 2) out.push({ id, text, target: sum / n / 4, sentences: n })
  }
  return out
}

const engine = createEngine({ background: false })
await engine.account(engine.defaultAccount).updateConfigurations({ document: { model_sentiment: true } })
const afinn = new SentimentPkg()
const systems = ['ours (document score)', 'model_sentiment (pos - neg)', 'VADER (vader-sentiment)', 'sentiment (AFINN)'] as const

console.log('Document sentiment: documents rebuilt from the VADER-paper snippets (sentences in order, up to 2,048 characters);')
console.log('target = mean human rating of their sentences / 4; 3 classes at +-0.05. F1w support-weighted, F1m macro.\n')
console.log(`${'corpus'.padEnd(16)} ${'docs'.padStart(5)} ${'chars'.padStart(6)} ${'system'.padEnd(30)} ${'r'.padStart(6)} ${'F1w'.padStart(6)} ${'F1m'.padStart(6)}  predicted neg/neu/pos (gold)`)
for (const c of CORPORA) {
  const docs = documents(join(dir, c.file))
  const scores: number[][] = systems.map(() => [])
  for (const d of docs) {
    const out = await engine.analyze(d.text, { id: d.id })
    const m = out.model_sentiment
    scores[0]!.push(out.sentiment_score ?? 0)
    scores[1]!.push(m === undefined ? 0 : m.positive_score - m.negative_score)
    scores[2]!.push(vader.SentimentIntensityAnalyzer.polarity_scores(d.text).compound)
    scores[3]!.push(afinn.analyze(d.text).comparative)
  }
  const target = docs.map((d) => d.target)
  const gold = target.map(cls)
  const counts = (classes: readonly number[]): string => [0, 1, 2].map((k) => classes.filter((x) => x === k).length).join('/')
  const chars = Math.round(docs.reduce((a, d) => a + d.text.length, 0) / Math.max(1, docs.length))
  systems.forEach((name, s) => {
    const pred = scores[s]!.map(cls)
    const f = f1Scores(pred, gold)
    const lead = s === 0 ? `${c.name.padEnd(16)} ${String(docs.length).padStart(5)} ${String(chars).padStart(6)}` : ' '.repeat(29)
    console.log(`${lead} ${name.padEnd(30)} ${pearson(scores[s]!, target).toFixed(3).padStart(6)} ${f.weighted.toFixed(3).padStart(6)} ${f.macro.toFixed(3).padStart(6)}  ${counts(pred)} (${counts(gold)})`)
  })
}
await engine.close()
