/**
 * Summaries on the news stories of `<data>/samples/news-articles.txt` (issue 19), ours beside the implementation
 * this replaced (centrality by recurring lemmas with a small first-sentence bonus, over the annotator's sentences as
 * sliced from the raw text; copied below from `git show 1bb81d1:src/pipeline/analyzers/summary.ts`), same texts,
 * same run, summary_size 3:
 * - lead: stories whose summary holds their first sentence (news states the story in its lead);
 * - broken: summary sentences cut inside a web address, after an abbreviation or inside a decimal (a sentence ending
 *   in "www.", "Inc.", "Dr.", or starting with a lower-case word or a digit);
 * and the summaries themselves.
 *
 * Run: `npm run eval:summary -- [data dir]` (default ../shared/data).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createAnnotator } from '../src/nlp/annotate.ts'
import type { AnnotatedDocument } from '../src/nlp/types.ts'
import { summarize, summarySentences } from '../src/pipeline/analyzers/summary.ts'
import { dataDir } from './samples.ts'

/** The previous summarizer, unchanged: returns the chosen sentences. */
function previous(doc: AnnotatedDocument, size: number): string[] {
  const sentences = doc.sentences.filter((s) => s.text.trim() !== '')
  if (size <= 0 || sentences.length === 0) return []
  if (sentences.length <= size) return sentences.map((s) => s.text.trim())
  const freq = new Map<string, number>()
  const content = (i: number): boolean => {
    const t = doc.tokens[i]!
    return t.kind === 'word' && !t.isStopWord && /^(NOUN|PROPN|VERB|ADJ|ADV|NUM)$/.test(t.pos)
  }
  for (const s of sentences) {
    const seen = new Set<string>()
    for (let i = s.tokenStart; i < s.tokenEnd; i++) if (content(i)) seen.add(doc.tokens[i]!.lemma)
    for (const l of seen) freq.set(l, (freq.get(l) ?? 0) + 1)
  }
  const scored = sentences.map((s, rank) => {
    let sum = 0
    let n = 0
    for (let i = s.tokenStart; i < s.tokenEnd; i++) {
      if (!content(i)) continue
      sum += (freq.get(doc.tokens[i]!.lemma) ?? 1) - 1
      n++
    }
    const score = n === 0 ? 0 : (sum / n) * Math.min(1, n / 5) + (rank === 0 ? 0.5 : 0)
    return { s, rank, score }
  })
  const chosen = [...scored].sort((a, b) => b.score - a.score || a.rank - b.rank).slice(0, size)
  chosen.sort((a, b) => a.rank - b.rank)
  return chosen.map((c) => c.s.text.trim())
}

const BROKEN_END = /(\bwww\.|\b(Dr|Mr|Mrs|Ms|Prof|St|Inc|Corp)\.)$/
const BROKEN_START = /^(\p{Ll}|\d)/u
const broken = (sentences: readonly string[]): number => sentences.filter((s) => BROKEN_END.test(s) || BROKEN_START.test(s)).length

const dir = dataDir()
const file = join(dir, 'samples', 'news-articles.txt')
const stories = readFileSync(file, 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '').map((t) => t.slice(0, 8192))
const annotator = createAnnotator()
const tally = { ours: { lead: 0, broken: 0, sentences: 0 }, previous: { lead: 0, broken: 0, sentences: 0 } }
for (const text of stories) {
  const doc = annotator.annotate(text)
  const lead = summarySentences(doc)[0]?.text ?? ''
  const oursText = summarize(doc, 3)
  // Our summary's sentences: the repaired sentences it is made of, in order.
  const ours = summarySentences(doc).map((s) => s.text).filter((s) => oursText.includes(s))
  const prev = previous(doc, 3)
  tally.ours.lead += oursText.startsWith(lead) ? 1 : 0
  tally.previous.lead += prev[0] !== undefined && prev[0] === doc.sentences.find((x) => x.text.trim() !== '')?.text.trim() ? 1 : 0
  tally.ours.broken += broken(ours)
  tally.previous.broken += broken(prev)
  tally.ours.sentences += ours.length
  tally.previous.sentences += prev.length
  if (process.env['SHOW_BROKEN']) for (const b of [...ours, ...prev].filter((x) => BROKEN_END.test(x) || BROKEN_START.test(x))) console.log(`  broken: ${b.slice(0, 120)}`)
  console.log(`- ours:     ${oursText.slice(0, 300)}`)
  console.log(`  previous: ${prev.join(' ').replace(/\s+/g, ' ').slice(0, 300)}`)
}
console.log()
console.log(`News stories: ${stories.length} (${file}), summary_size 3`)
console.log('summarizer   lead kept   broken sentences')
for (const [name, t] of Object.entries(tally)) {
  console.log(`${name.padEnd(12)} ${`${t.lead}/${stories.length}`.padStart(9)}   ${`${t.broken}/${t.sentences}`.padStart(16)}`)
}
