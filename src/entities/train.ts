/**
 * Training of the entity tagger: an averaged perceptron (Collins 2002) over the features of
 * `features.ts`, trained token by token with the same greedy left-to-right decoder the tagger uses;
 * the history features (previous labels, document memory) see the gold labels during training.
 * Deterministic: documents are shuffled each epoch with a seeded generator.
 */
import {
  LABELS,
  documentContext,
  dynamicFeatures,
  isAllowedTransition,
  recall,
  rememberSentence,
  shortShape,
  staticFeatures,
  type DocumentMemory,
  type Gazetteer,
} from './features.ts'
import type { ConllDocument } from './conll.ts'
import type { PerceptronWeights } from './model.ts'

/** Training switches. */
export interface TrainOptions {
  /** Passes over the data. @defaultValue 20 */
  readonly epochs?: number
  /** Seed of the per-epoch document shuffle. @defaultValue 20030 */
  readonly seed?: number
  /** Static features seen fewer times than this are not used. @defaultValue 2 */
  readonly minCount?: number
  /** Gazetteer whose membership features the model learns. */
  readonly gazetteer?: Gazetteer
  /** Called after each epoch with its training-token accuracy. */
  readonly onEpoch?: (epoch: number, accuracy: number) => void
  /** Extra provenance written into the model. */
  readonly trained?: Readonly<Record<string, string | number>>
}

/** Deterministic 32-bit generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Train an averaged perceptron on BIO-labelled documents. */
export function trainTagger(docs: readonly ConllDocument[], options: TrainOptions = {}): PerceptronWeights {
  const epochs = options.epochs ?? 20
  const minCount = options.minCount ?? 2
  const gazetteer = options.gazetteer
  const L = LABELS.length

  // Pass 1: count static features.
  const counts = new Map<string, number>()
  const contexts = docs.map((d) => documentContext(d.sentences.map((s) => s.tokens)))
  docs.forEach((d, di) => {
    for (const s of d.sentences) {
      for (const fs of staticFeatures(s.tokens, gazetteer, contexts[di])) for (const f of fs) counts.set(f, (counts.get(f) ?? 0) + 1)
    }
  })
  const index = new Map<string, number>()
  // Sorted insertion keeps row numbers independent of Map iteration quirks.
  for (const f of [...counts.keys()].sort()) if ((counts.get(f) ?? 0) >= minCount) index.set(f, index.size)
  counts.clear()

  // Pass 2: static feature ids per sentence, flattened (ids, and per-token offsets).
  const staticIds: Array<{ ids: Int32Array; offsets: Int32Array }>[] = docs.map((d, di) =>
    d.sentences.map((s) => {
      const fs = staticFeatures(s.tokens, gazetteer, contexts[di])
      const ids: number[] = []
      const offsets = new Int32Array(fs.length + 1)
      for (let i = 0; i < fs.length; i++) {
        for (const f of fs[i] ?? []) {
          const id = index.get(f)
          if (id !== undefined) ids.push(id)
        }
        offsets[i + 1] = ids.length
      }
      return { ids: Int32Array.from(ids), offsets }
    }),
  )

  let capacity = Math.max(1024, Math.ceil(index.size * 1.3))
  let w = new Float64Array(capacity * L)
  let u = new Float64Array(capacity * L)
  const ensure = (rows: number): void => {
    if (rows <= capacity) return
    capacity = Math.ceil(rows * 1.5)
    const w2 = new Float64Array(capacity * L)
    w2.set(w)
    w = w2
    const u2 = new Float64Array(capacity * L)
    u2.set(u)
    u = u2
  }
  const idOf = (f: string): number => {
    let id = index.get(f)
    if (id === undefined) {
      id = index.size
      index.set(f, id)
      ensure(index.size)
    }
    return id
  }

  const rand = seededRandom(options.seed ?? 20030)
  const order = docs.map((_, i) => i)
  let c = 1
  const scores = new Float64Array(L)
  const dyn: string[] = []
  const dynIds: number[] = []
  for (let epoch = 1; epoch <= epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      const t = order[i] ?? 0
      order[i] = order[j] ?? 0
      order[j] = t
    }
    let correct = 0
    let total = 0
    for (const di of order) {
      const doc = docs[di]
      const sids = staticIds[di]
      if (doc === undefined || sids === undefined) continue
      const memory: DocumentMemory = new Map()
      for (let si = 0; si < doc.sentences.length; si++) {
        const sent = doc.sentences[si]
        const st = sids[si]
        if (sent === undefined || st === undefined) continue
        const history = new Int32Array(sent.tokens.length)
        let prev1 = 0
        let prev2 = -1
        for (let i = 0; i < sent.tokens.length; i++) {
          const tok = sent.tokens[i] ?? ''
          const lower = tok.toLowerCase()
          dynamicFeatures(
            i === 0 ? '<s>' : (LABELS[prev1] ?? 'O'),
            i < 2 ? '<s>' : (LABELS[prev2] ?? 'O'),
            lower,
            shortShape(tok),
            recall(memory, tok),
            dyn,
          )
          dynIds.length = 0
          for (const f of dyn) dynIds.push(idOf(f))
          scores.fill(0)
          const a = st.offsets[i] ?? 0
          const b = st.offsets[i + 1] ?? 0
          for (let k = a; k < b; k++) {
            const base = (st.ids[k] ?? 0) * L
            for (let y = 0; y < L; y++) scores[y] = (scores[y] ?? 0) + (w[base + y] ?? 0)
          }
          for (const id of dynIds) {
            const base = id * L
            for (let y = 0; y < L; y++) scores[y] = (scores[y] ?? 0) + (w[base + y] ?? 0)
          }
          let best = -1
          for (let y = 0; y < L; y++) {
            if (!isAllowedTransition(i === 0 ? 0 : prev1, y)) continue
            if (best < 0 || (scores[y] ?? 0) > (scores[best] ?? 0)) best = y
          }
          const gold = sent.labels[i] ?? 0
          if (best !== gold) {
            const update = (id: number): void => {
              const base = id * L
              w[base + gold] = (w[base + gold] ?? 0) + 1
              u[base + gold] = (u[base + gold] ?? 0) + c
              w[base + best] = (w[base + best] ?? 0) - 1
              u[base + best] = (u[base + best] ?? 0) - c
            }
            for (let k = a; k < b; k++) update(st.ids[k] ?? 0)
            for (const id of dynIds) update(id)
          } else correct++
          total++
          c++
          // History features (previous labels, document memory) are fed the gold labels while training
          // (teacher forcing): on testa this scored 0.907 F1 against 0.887 with the model's own predictions.
          history[i] = gold
          prev2 = i === 0 ? -1 : prev1
          prev1 = gold
        }
        rememberSentence(memory, sent.tokens, history)
      }
    }
    options.onEpoch?.(epoch, correct / Math.max(1, total))
  }

  const weights = new Float32Array(index.size * L)
  for (let k = 0; k < weights.length; k++) weights[k] = (w[k] ?? 0) - (u[k] ?? 0) / c
  return { labels: [...LABELS], index, weights, trained: { epochs, seed: options.seed ?? 20030, minCount, ...options.trained } }
}
