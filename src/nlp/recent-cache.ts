/**
 * Documents a pipeline has in hand at once: the engine analyses up to this many together, one analyzer over all of
 * them before the next (`ANALYSIS_BATCH` of engine/analysis.ts is this number), so a per-document cache read by
 * several analyzers remembers this many documents.
 */
export const BATCH_DOCUMENTS = 8

/**
 * A cache of what was computed for the last few objects it was asked about (documents: the analyzers of one
 * pipeline run ask for the same document's token vectors or aspect features, one document after another). Not a
 * WeakMap keyed by the object: V8 clears a WeakMap's entries only in a full collection, and its scavenger keeps their
 * values (which hold their document) alive until then, so every document's values lived on into the old generation
 * (a 10k-document backlog of `bench/memory.ts` peaked ~30 MiB higher with the aspect features so kept). Theme
 * candidates, theme rankings and the shared entity extraction use it for the same reason: the peak RSS hid their
 * effect in its noise, `npm run bench:old-space` measures it.
 */
export class RecentCache<K extends object, V> {
  private readonly keys: (K | undefined)[]
  private readonly values: (V | undefined)[]
  private next = 0

  /** `size`: how many objects are remembered (the oldest is forgotten first). */
  constructor(size = 1) {
    this.keys = new Array<K | undefined>(Math.max(1, size)).fill(undefined)
    this.values = new Array<V | undefined>(Math.max(1, size)).fill(undefined)
  }

  get(key: K): V | undefined {
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] === key) return this.values[i]
    return undefined
  }

  set(key: K, value: V): void {
    for (let i = 0; i < this.keys.length; i++) {
      if (this.keys[i] === key) {
        this.values[i] = value
        return
      }
    }
    this.keys[this.next] = key
    this.values[this.next] = value
    this.next = (this.next + 1) % this.keys.length
  }
}
