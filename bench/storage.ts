/**
 * Memory storage micro-bench (issues 17/18): the cost of the queue operations a worker and a poller make, with
 * 1k, 10k and 100k items queued (kept at that level while measuring), for the storage as it is (src/storage/memory.ts: heaps, values copied once and
 * frozen) and as it was (bench/storage-baseline.ts: scans and sorts every item, structuredClone in and out),
 * measured in the same run on the same items.
 *
 *   npx tsx bench/storage.ts [--sizes 1000,10000,100000] [--reps 30]
 *
 * Per size: putItems of the backlog (per item), claimQueued(16), completeItem of those 16 (per item, with an
 * output of about 2.5 KB of JSON), takeProcessed(16) by configuration, and a purgeBefore that removes nothing (the
 * engine runs one on every submit, get and take). Times are medians over `reps` repetitions, in microseconds.
 * No data files needed; loopback only; bounded (about a minute at the default sizes).
 */
import { performance } from 'node:perf_hooks'
import { createMemoryStorage } from '../src/storage/memory.ts'
import type { QueueItem } from '../src/storage/types.ts'
import { createBaselineMemoryStorage } from './storage-baseline.ts'
import type { BaselineQueue } from './storage-baseline.ts'

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback
}
const sizes = arg('sizes', '1000,10000,100000').split(',').map(Number)
const reps = Number(arg('reps', '30'))
const BATCH = 16

const text = 'The staff were friendly, but the room was not clean. Tim Cook stayed here! '.repeat(3)
function queued(i: number): QueueItem {
  return {
    account: 'acct0', kind: 'document', configId: 'c1', id: `doc-${i}`, status: 'QUEUED',
    seq: i + 1, submittedAt: 1_700_000_000_000 + i, input: { text, tag: 'bench', metadata: { source: 'bench', n: i } },
  }
}
/** A Detailed output of the usual shape and size (about 2.5 KB as JSON). */
function outputOf(item: QueueItem): NonNullable<QueueItem['output']> {
  return {
    id: item.id, config_id: item.configId, status: 'PROCESSED', language: 'English', language_score: 0.9998,
    sentiment_score: -0.2599, sentiment_polarity: 'negative', summary: text.slice(0, 120),
    entities: [{ type: 'named', title: 'Tim Cook', label: 'Person', entity_type: 'Person', evidence: 1, confident: true, is_about: true, sentiment_score: 0, sentiment_polarity: 'neutral' }],
    themes: Array.from({ length: 5 }, (_, j) => ({ title: `theme ${j}`, evidence: 1, is_about: j === 0, strength_score: 0.5 / (j + 1), sentiment_score: 0.1 * j, sentiment_polarity: 'neutral' })),
    phrases: Array.from({ length: 4 }, (_, j) => ({ title: `phrase ${j}`, sentiment_score: -0.3, sentiment_polarity: 'negative', is_negated: j === 1 })),
    details: [{ sentences: Array.from({ length: 3 }, (_, j) => ({ text: `Sentence ${j}.`, sentiment_score: 0.1, words: Array.from({ length: 8 }, (_, w) => ({ title: `w${w}`, stem: `w${w}`, type: 'Noun', sentiment_score: 0 })) })) }],
  } as unknown as NonNullable<QueueItem['output']>
}

type Store = Pick<BaselineQueue, 'putItems' | 'claimQueued' | 'completeItem' | 'takeProcessed' | 'purgeBefore'>

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

async function measure(make: () => Store, n: number): Promise<Record<string, number>> {
  const s = make()
  const backlog = Array.from({ length: n }, (_, i) => queued(i))
  const t0 = performance.now()
  for (let i = 0; i < n; i += 1000) await s.putItems(backlog.slice(i, i + 1000))
  const putUs = ((performance.now() - t0) * 1000) / n
  const claim: number[] = []
  const complete: number[] = []
  const take: number[] = []
  const purge: number[] = []
  let next = n
  for (let r = 0; r < reps; r++) {
    // Keep the backlog at n: what is claimed is replaced by new submissions (not timed).
    await s.putItems(Array.from({ length: BATCH }, () => queued(next++)))
    let t = performance.now()
    const got = await s.claimQueued(BATCH)
    claim.push((performance.now() - t) * 1000)
    t = performance.now()
    for (const g of got) await s.completeItem({ ...g, status: 'PROCESSED', finishedAt: 1, output: outputOf(g) })
    complete.push(((performance.now() - t) * 1000) / got.length)
    t = performance.now()
    const taken = await s.takeProcessed('acct0', 'document', { configId: 'c1' }, BATCH)
    take.push((performance.now() - t) * 1000)
    if (taken.length === 0) throw new Error('bench: nothing taken')
    t = performance.now()
    await s.purgeBefore(0)
    purge.push((performance.now() - t) * 1000)
  }
  return { put: putUs, claim: median(claim), complete: median(complete), take: median(take), purge: median(purge) }
}

const peers: Array<[string, () => Store]> = [
  ['before (scan + structuredClone)', () => createBaselineMemoryStorage()],
  ['after (indexes, frozen values)', () => createMemoryStorage()],
]
const fmt = (us: number): string => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} us`).padStart(10)
console.log(`memory storage, Node ${process.version}, medians of ${reps} repetitions; claim/take of ${BATCH}, complete and put per item`)
console.log(`${'queued'.padStart(7)}  ${'storage'.padEnd(32)} ${'put/item'.padStart(10)} ${'claim 16'.padStart(10)} ${'complete/it'.padStart(10)} ${'take 16'.padStart(10)} ${'purge (0)'.padStart(10)}`)
for (const n of sizes) {
  const rows: Array<[string, Record<string, number>]> = []
  for (const [name, make] of peers) rows.push([name, await measure(make, n)])
  for (const [name, r] of rows) {
    console.log(`${String(n).padStart(7)}  ${name.padEnd(32)} ${fmt(r['put']!)} ${fmt(r['claim']!)} ${fmt(r['complete']!)} ${fmt(r['take']!)} ${fmt(r['purge']!)}`)
  }
  const [b, a] = [rows[0]![1], rows[1]![1]]
  console.log(`${''.padStart(7)}  ${'speed-up'.padEnd(32)} ${['put', 'claim', 'complete', 'take', 'purge'].map((k) => `${(b[k]! / a[k]!).toFixed(1)}x`.padStart(10)).join(' ')}`)
}
