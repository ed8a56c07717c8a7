/**
 * Exploration of the theme ranker on the even (training) half of the keyphrase sets: per document, the gold keys,
 * our top 10 and the ten most frequent content words, with hits marked. Annotations are cached under THEMES_CACHE
 * (default /tmp/h14) as JSON so that repeated looks do not re-annotate.
 * Run: `npx tsx bench/themes-explore.ts [data dir] [set] [n docs]`
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { createAnnotator } from '../src/nlp/annotate.ts'
import type { AnnotatedDocument } from '../src/nlp/types.ts'
import { keyThemes, loadBackground, ownSpan, themeTitle } from '../src/themes/index.ts'
import { loadKeyphraseSet, matchForm, joinedForm } from './keyphrase-data.ts'

const [dirArg, setArg, nArg] = process.argv.slice(2)
const cacheDir = process.env['THEMES_CACHE'] ?? '/tmp/h14'
mkdirSync(cacheDir, { recursive: true })
export function annotatedSet(dir: string, name: string): { docs: ReturnType<typeof loadKeyphraseSet>; annotated: AnnotatedDocument[] } {
  const docs = loadKeyphraseSet(dir, name)
  const file = `${cacheDir}/${name}.json`
  if (existsSync(file)) return { docs, annotated: JSON.parse(readFileSync(file, 'utf8')) }
  let annotator = createAnnotator()
  const annotated = docs.map((d) => {
    try {
      return annotator.annotate(d.text)
    } catch {
      annotator = createAnnotator()
      return annotator.annotate('')
    }
  })
  writeFileSync(file, JSON.stringify(annotated))
  return { docs, annotated }
}
if (setArg !== undefined) {
  const { docs, annotated } = annotatedSet(dirArg!, setArg)
  const bg = loadBackground()
  const n = Number(nArg ?? 10)
  for (let i = 0; i < docs.length && i < 2 * n; i += 2) {
    const d = annotated[i]!
    const doc = docs[i]!
    const hit = (p: string): string => (doc.keys.includes(matchForm(p)) || doc.joined.includes(joinedForm(p)) ? `*${p}*` : p)
    const ours = keyThemes(d, bg, 10).map((t) => themeTitle(d, ownSpan(t)))
    const counts = new Map<string, { n: number; first: number; word: string }>()
    for (const t of d.tokens) {
      if (t.kind !== 'word' || t.isStopWord || !/\p{L}/u.test(t.text)) continue
      const e = counts.get(t.stem) ?? { n: 0, first: t.index, word: t.text.toLowerCase() }
      e.n++
      counts.set(t.stem, e)
    }
    const mfw = [...counts.values()].sort((a, b) => b.n - a.n || a.first - b.first).slice(0, 10).map((e) => `${e.word}:${e.n}:${d.tokens[e.first]!.pos}`)
    console.log(`\n# ${doc.name} tokens ${d.tokens.length} keys ${doc.keys.length}`)
    console.log('gold:', doc.keys.join(' | '))
    console.log('ours:', ours.map(hit).join(' | '))
    console.log('mfw :', mfw.map((x) => hit(x.split(':')[0]!) + x.slice(x.indexOf(':'))).join(' | '))
  }
}
