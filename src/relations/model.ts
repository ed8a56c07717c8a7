/**
 * The relation classifier: an averaged multi-class perceptron over the pair features of `features.ts`,
 * its training and its file `lexicons/en/relations/model.json`. Training may average several perceptrons, each
 * trained on its own shuffle (`runs`); the result is one linear model of the same form.
 *
 * Labels are CoNLL04's (Work_For, Live_In, Located_In, OrgBased_In, Kill) plus N (no relation). Which labels
 * an ordered pair may take depends on its argument types and is learned from the training data (`allowed`:
 * type signature -> labels seen at least twice with it); a pair whose signature allows nothing is never scored.
 * Before the decision, `nBias` is taken off the score of N and `labelBias[label]` added to each relation label's
 * score (both chosen by cross-validation on train). Confidence is the logistic of the margin between the best
 * label and the runner-up (N included).
 *
 * File layout (JSON): `{ format: "TEREL001", labels, allowed: {"Peop>Org": ["Work_For"], ...}, nBias,
 * labelBias: {"Live_In": 8, ...}, trained,
 * weights: {feature: [w per label]} }`, weights rounded to 2 decimals, features in sorted order, so the same
 * data gives the same bytes.
 */
import { pairFeatures, type ArgMention, type PairContext, type TriggerLexicon } from './features.ts'
import { seededRandom } from '../entities/train.ts'

/** One training sentence: words, mentions and gold relations between mention indices. */
export interface RelationSentence {
  readonly words: readonly string[]
  /** Lemmas and POS tags of the words, when known (the engine's annotation). */
  readonly lemmas?: readonly string[]
  readonly tags?: readonly string[]
  readonly mentions: readonly ArgMention[]
  readonly relations: readonly { readonly a: number; readonly b: number; readonly label: string }[]
}

/** A trained classifier in memory. */
export interface RelationModel {
  readonly labels: readonly string[]
  /** Type signature "Peop>Org" -> label indices (N excluded) it may take. */
  readonly allowed: ReadonlyMap<string, readonly number[]>
  readonly weights: ReadonlyMap<string, Float64Array>
  readonly trained: Readonly<Record<string, string | number>>
  /** Subtracted from the score of N (no relation) before the decision: above 0 favours recall. @defaultValue 0 */
  readonly nBias?: number
  /**
   * Per relation label (by label name), a bias added to that label's score before the decision, on top of
   * `nBias`: the per-type threshold, chosen by cross-validation on train. @defaultValue none
   */
  readonly labelBias?: Readonly<Record<string, number>>
}

/** A scored ordered pair. */
export interface PairPrediction {
  readonly a: number
  readonly b: number
  readonly label: string
  /** 0..1. */
  readonly confidence: number
}

export const RELATION_LABELS = ['N', 'Work_For', 'Live_In', 'Located_In', 'OrgBased_In', 'Kill'] as const

const FORMAT = 'TEREL001'

function signature(a: ArgMention, b: ArgMention): string {
  return `${a.type}>${b.type}`
}

function scoreInto(weights: ReadonlyMap<string, ArrayLike<number>>, feats: readonly string[], out: Float64Array): void {
  out.fill(0)
  for (const f of feats) {
    const w = weights.get(f)
    if (w === undefined) continue
    for (let k = 0; k < out.length; k++) out[k]! += w[k]!
  }
}


/** Training switches. */
export interface RelationTrainOptions {
  /** @defaultValue 12 */
  readonly epochs?: number
  /** @defaultValue 1204 */
  readonly seed?: number
  /** Features seen fewer times are dropped. @defaultValue 2 */
  readonly minCount?: number
  /** Perceptrons trained, each on its own shuffle (seeds seed, seed + 1, ...), whose averaged weights are averaged. @defaultValue 1 */
  readonly runs?: number
  readonly trained?: Readonly<Record<string, string | number>>
}

/** Train the averaged perceptron on every ordered mention pair of the sentences. Deterministic. */
export function trainRelationModel(sentences: readonly RelationSentence[], triggers: TriggerLexicon, options: RelationTrainOptions = {}): RelationModel {
  const epochs = options.epochs ?? 12
  const minCount = options.minCount ?? 2
  const labels = [...RELATION_LABELS] as string[]
  const K = labels.length
  // Allowed labels per type signature, from the gold relations.
  const seen = new Map<string, Map<number, number>>()
  for (const s of sentences) {
    for (const r of s.relations) {
      const sig = signature(s.mentions[r.a]!, s.mentions[r.b]!)
      const m = seen.get(sig) ?? new Map<number, number>()
      const k = labels.indexOf(r.label)
      if (k > 0) m.set(k, (m.get(k) ?? 0) + 1)
      seen.set(sig, m)
    }
  }
  const allowed = new Map<string, number[]>()
  for (const [sig, m] of [...seen].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    const ks = [...m].filter(([, c]) => c >= 2).map(([k]) => k).sort((x, y) => x - y)
    if (ks.length > 0) allowed.set(sig, ks)
  }
  // Examples: every ordered pair whose signature allows a label.
  interface Example { feats: string[]; gold: number; cands: number[] }
  const examples: Example[] = []
  const counts = new Map<string, number>()
  for (const s of sentences) {
    const gold = new Map(s.relations.map((r) => [`${r.a},${r.b}`, labels.indexOf(r.label)]))
    s.mentions.forEach((a, i) =>
      s.mentions.forEach((b, j) => {
        if (i === j) return
        const cands = allowed.get(signature(a, b))
        if (cands === undefined) return
        const feats = pairFeatures(s, a, b, triggers)
        for (const f of feats) counts.set(f, (counts.get(f) ?? 0) + 1)
        const g = gold.get(`${i},${j}`) ?? 0
        examples.push({ feats, gold: cands.includes(g) ? g : 0, cands: [0, ...cands] })
      }),
    )
  }
  for (const e of examples) e.feats = [...new Set(e.feats.filter((f) => (counts.get(f) ?? 0) >= minCount))]
  const runs = Math.max(1, options.runs ?? 1)
  const seed = options.seed ?? 1204
  // The averaged weights of each run (w - acc / c), summed over the runs.
  const sum = new Map<string, Float64Array>()
  for (let run = 0; run < runs; run++) {
    const w = new Map<string, Float64Array>()
    const acc = new Map<string, Float64Array>() // sum of c * update, for averaging
    const row = (m: Map<string, Float64Array>, f: string): Float64Array => {
      let r = m.get(f)
      if (r === undefined) {
        r = new Float64Array(K)
        m.set(f, r)
      }
      return r
    }
    const rand = seededRandom(seed + run)
    const order = examples.map((_, i) => i)
    const scores = new Float64Array(K)
    let c = 1
    for (let epoch = 0; epoch < epochs; epoch++) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1))
        ;[order[i], order[j]] = [order[j]!, order[i]!]
      }
      for (const idx of order) {
        const e = examples[idx]!
        scoreInto(w, e.feats, scores)
        let best = e.cands[0]!
        for (const k of e.cands) if (scores[k]! > scores[best]!) best = k
        if (best !== e.gold) {
          for (const f of e.feats) {
            const r = row(w, f)
            const a = row(acc, f)
            r[e.gold]! += 1
            r[best]! -= 1
            a[e.gold]! += c
            a[best]! -= c
          }
        }
        c++
      }
    }
    for (const [f, r] of w) {
      const a = acc.get(f)!
      const s = row(sum, f)
      for (let k = 0; k < K; k++) s[k]! += r[k]! - a[k]! / c
    }
  }
  const averaged = new Map<string, Float64Array>()
  for (const f of [...sum.keys()].sort()) {
    const r = sum.get(f)!
    const out = new Float64Array(K)
    // Rows whose averaged weights all stay below 0.5 in size barely move a decision: left out, the file halves.
    let big = false
    for (let k = 0; k < K; k++) {
      out[k] = Math.round((r[k]! / runs) * 100) / 100
      if (Math.abs(out[k]!) >= 0.5) big = true
    }
    if (big) averaged.set(f, out)
  }
  return { labels, allowed, weights: averaged, trained: { ...(options.trained ?? {}), epochs, ...(runs > 1 ? { runs } : {}), examples: examples.length } }
}

/**
 * Whether a semicolon stands between the two mentions: they sit in two independent clauses ("Hillary's speech in
 * Philadelphia drew 20,000 people; Trump's rally in Ohio drew fewer"). On CoNLL04 train 5 of 1,271 gold relations
 * cross one (all in two run-on sentences), against 52 mention pairs; dev has none.
 */
function acrossClauses(words: readonly string[], a: ArgMention, b: ArgMention): boolean {
  for (let i = Math.min(a.end, b.end); i < Math.max(a.start, b.start); i++) if (words[i] === ';') return true
  return false
}

/**
 * Classify every ordered pair of the sentence's mentions (not those a semicolon parts: {@link acrossClauses}); only pairs whose best label is a relation are returned,
 * in pair order (a, then b).
 */
export function predictRelations(model: RelationModel, ctx: PairContext, triggers: TriggerLexicon): PairPrediction[] {
  const mentions = ctx.mentions
  const out: PairPrediction[] = []
  const scores = new Float64Array(model.labels.length)
  const nBias = model.nBias ?? 0
  const labelBias = model.labels.map((l) => model.labelBias?.[l] ?? 0)
  mentions.forEach((a, i) =>
    mentions.forEach((b, j) => {
      if (i === j) return
      const cands = model.allowed.get(signature(a, b))
      if (cands === undefined || acrossClauses(ctx.words, a, b)) return
      scoreInto(model.weights, pairFeatures(ctx, a, b, triggers), scores)
      scores[0]! -= nBias
      for (const k of cands) scores[k]! += labelBias[k]!
      let best = 0
      let second = Number.NEGATIVE_INFINITY
      for (const k of cands) if (scores[k]! > scores[best]!) best = k
      for (const k of [0, ...cands]) if (k !== best && scores[k]! > second) second = scores[k]!
      if (best === 0) return
      const margin = scores[best]! - second
      out.push({ a: i, b: j, label: model.labels[best]!, confidence: 1 / (1 + Math.exp(-margin / 4)) })
    }),
  )
  return out
}

/** The model as its JSON file's text. */
export function encodeRelationModel(model: RelationModel): string {
  const weights: Record<string, number[]> = {}
  for (const f of [...model.weights.keys()].sort()) weights[f] = [...model.weights.get(f)!]
  const allowed: Record<string, string[]> = {}
  for (const [sig, ks] of model.allowed) allowed[sig] = ks.map((k) => model.labels[k]!)
  const labelBias: Record<string, number> = {}
  for (const l of model.labels) if ((model.labelBias?.[l] ?? 0) !== 0) labelBias[l] = model.labelBias![l]!
  return JSON.stringify({ format: FORMAT, labels: model.labels, allowed, nBias: model.nBias ?? 0, labelBias, trained: model.trained, weights }) + '\n'
}

/** Parse the JSON file; throws naming the source when it is not a relation model. */
export function decodeRelationModel(text: string, source = 'relation model'): RelationModel {
  const j = JSON.parse(text) as { format?: string; nBias?: number; labelBias?: Record<string, number>; labels?: string[]; allowed?: Record<string, string[]>; trained?: Record<string, string | number>; weights?: Record<string, number[]> }
  if (j.format !== FORMAT || !Array.isArray(j.labels) || j.allowed === undefined || j.weights === undefined) {
    throw new Error(`${source}: should be a relation model (format ${FORMAT}), instead found format "${String(j.format)}"`)
  }
  const labels = j.labels
  const allowed = new Map<string, number[]>()
  for (const [sig, ls] of Object.entries(j.allowed)) allowed.set(sig, ls.map((l) => labels.indexOf(l)).filter((k) => k > 0))
  // Every feature's weights are a view into one buffer: a typed array of its own per feature (about 28k) held about
  // 5 MB of heap and off-heap buffers more, each tracked by the collector.
  const entries = Object.entries(j.weights)
  let size = 0
  for (const [, ws] of entries) size += ws.length
  const flat = new Float64Array(size)
  const weights = new Map<string, Float64Array>()
  let at = 0
  for (const [f, ws] of entries) {
    flat.set(ws, at)
    weights.set(f, flat.subarray(at, at + ws.length))
    at += ws.length
  }
  return { labels, allowed, weights, trained: j.trained ?? {}, nBias: typeof j.nBias === 'number' ? j.nBias : 0, labelBias: j.labelBias ?? {} }
}

/** A relation between two mentions of one sentence, as the closure below reads and adds them. */
export interface MentionRelation {
  readonly a: number
  readonly b: number
  readonly label: string
  readonly confidence: number
}

/** Labels that pass along a place-within-place relation: who lives, or what is based, in a place is also in the place it lies in. */
const THROUGH_PLACE = new Set(['Live_In', 'OrgBased_In'])

/**
 * The relations implied by place within place: X Live_In (or OrgBased_In) P and P Located_In Q give X Live_In
 * (OrgBased_In) Q ("lives in Austin, Texas" -> lives in Texas), with the lower of the two confidences. One step,
 * over the relations given; a pair that already has a relation is left alone. On CoNLL04 train the gold relations
 * follow this in 47 of 48 cases (Live_In 26 of 27, OrgBased_In 21 of 21). Deterministic: in the order of `rels`.
 */
export function placeClosure(rels: readonly MentionRelation[]): MentionRelation[] {
  const taken = new Set(rels.map((r) => `${r.a},${r.b}`))
  const out: MentionRelation[] = []
  for (const r of rels) {
    if (!THROUGH_PLACE.has(r.label)) continue
    for (const q of rels) {
      if (q.label !== 'Located_In' || q.a !== r.b || q.b === r.a) continue
      const key = `${r.a},${q.b}`
      if (taken.has(key)) continue
      taken.add(key)
      out.push({ a: r.a, b: q.b, label: r.label, confidence: Math.min(r.confidence, q.confidence) })
    }
  }
  return out
}
