/**
 * Cost of one aspect-sentiment call (`aspectMentionScore` of src/sentiment/aspect.ts with the committed model), timed
 * on the SemEval-2014 aspect-term training sentences (their evidence computed once, outside the timing), against
 * another copy of the module and its model in the same process when given: rounds alternate the two (which goes
 * first alternates too), and the
 * fastest round of each is reported (robust on a shared machine).
 *
 *   npx tsx bench/aspect-micro.ts [dataDir] [--against OTHER_aspect.ts OTHER_model.json] [--rounds N]
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { aspectMentionScore, loadAspectModel } from '../src/sentiment/aspect.ts'
import { ASPECT_SETS, aspectDirOrExit, readAspectSet } from './aspect-data.ts'

const args = process.argv.slice(2)
const at = args.indexOf('--against')
const rAt = args.indexOf('--rounds')
const rounds = rAt >= 0 ? Number(args[rAt + 1]) : 15
const positional = args.filter((a, i) => !a.startsWith('--') && (at < 0 || (i !== at + 1 && i !== at + 2)) && (rAt < 0 || i !== rAt + 1))
const dir = aspectDirOrExit(positional[0])
const items = ASPECT_SETS.flatMap((s) => readAspectSet(join(dir, s.file), s.name))

type Score = (ev: (typeof items)[number]['evidence'], span: (typeof items)[number]['span']) => number
const contenders: { name: string; score: Score }[] = []
const model = loadAspectModel()
contenders.push({ name: 'this tree', score: (ev, sp) => aspectMentionScore(model, ev, sp) })
if (at >= 0) {
  const mod = (await import(pathToFileURL(resolve(args[at + 1] as string)).href)) as typeof import('../src/sentiment/aspect.ts')
  const other = mod.createAspectModel(JSON.parse(readFileSync(resolve(args[at + 2] as string), 'utf8')))
  contenders.push({ name: `other (${args[at + 1]})`, score: (ev, sp) => mod.aspectMentionScore(other, ev, sp) })
}
const best = contenders.map(() => Infinity)
let sink = 0
for (let r = 0; r < rounds; r++) {
  // Which goes first alternates from round to round.
  const order = r % 2 === 0 ? contenders.map((_, k) => k) : contenders.map((_, k) => contenders.length - 1 - k)
  order.forEach((k) => {
    const c = contenders[k] as (typeof contenders)[number]
    const t = process.cpuUsage()
    for (const it of items) sink += c.score(it.evidence, it.span)
    const u = process.cpuUsage(t)
    best[k] = Math.min(best[k] as number, (u.user + u.system) / items.length)
  })
}
console.log(`${items.length} mentions, fastest of ${rounds} rounds, CPU microseconds per call (checksum ${sink.toFixed(3)}):`)
contenders.forEach((c, k) => console.log(`  ${c.name}: ${(best[k] as number).toFixed(2)} us`))
