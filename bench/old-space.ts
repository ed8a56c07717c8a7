/**
 * `npx tsx bench/old-space.ts [data dir] [--docs N]`: how fast analysis fills V8's old space, in KiB per document, in
 * steady state: the sample texts through `engine.analyze` one after another (3,000 untimed first), the growth of the
 * old space's used size summed over the next N documents (default 6,000; a drop, a full collection, is not counted).
 *
 * Why this and not only the peak RSS of `bench/memory.ts`: the peak follows when V8 runs its full collections (it lets
 * the old space grow to up to about four times the live heap before one), so it moves by up to 100 MiB between runs of
 * the same code. What fills the old space between two full collections is what makes that peak: objects that outlive
 * two scavenges (promoted) and objects allocated there directly (pretenured). Nearly all of it is garbage by the next
 * full collection (the live heap stays at about 76 MiB): per-document objects kept alive past their document by a dead
 * old object that still points at them, which the scavenger counts as a root until the next full collection. Found
 * this way (2026-12-06): the accessor pairs of object literals with getters (V8 allocates them in the old space; they
 * hold the getters' closures, hence the document), WeakMaps keyed by the document (the scavenger keeps their values),
 * and allocation sites V8 chose to pretenure (wink-nlp's token arrays among them; the rows without pretenuring show
 * what is left without them). Pretenuring decisions differ from process to process, so rows with it move by a few KiB.
 *
 * Each row runs in a fresh process (plain `node` with tsx, the same sources): the default configuration, every output
 * off, every output on, and each with V8's allocation-site pretenuring off (`--no-allocation-site-pretenuring`).
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'
import { dataDir, loadSamples } from './samples.ts'

const argv = process.argv.slice(2)
const docsArg = argv.indexOf('--docs')
const DOCS = docsArg >= 0 ? Math.max(100, Number(argv[docsArg + 1])) : 6000
const WARM = 3000
const child = process.env['OLD_SPACE_CHILD']

/** Every section off (the document settings that turn analyzers on). */
const ALL_OFF = {
  intentions: false, concept_topics: false, query_topics: false, detect_language: false, themes: false,
  named_entities: false, sentiment_phrases: false, user_entities: false, relations: false, mentions: false,
  opinions: false, auto_categories: false, model_sentiment: false, summary_size: 0,
}

if (child !== undefined) {
  const { createEngine } = await import('../src/engine/create-engine.ts')
  const { EVERY_OUTPUT_ON } = await import('../test/fixtures/golden/golden.ts')
  const texts = loadSamples(dataDir(argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--docs'))).flatMap((s) => s.texts)
  const engine = createEngine({ background: false })
  if (child === 'off') await engine.account(engine.defaultAccount).updateConfigurations({ document: ALL_OFF })
  if (child === 'all') await engine.account(engine.defaultAccount).updateConfigurations(EVERY_OUTPUT_ON)
  const oldSpace = (): number => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0
  for (let i = 0; i < WARM; i++) await engine.analyze(texts[i % texts.length]!)
  let grown = 0
  let fulls = 0
  let prev = oldSpace()
  for (let i = WARM; i < WARM + DOCS; i++) {
    await engine.analyze(texts[i % texts.length]!)
    const now = oldSpace()
    if (now >= prev) grown += now - prev
    else fulls++
    prev = now
  }
  await engine.close()
  process.stdout.write(JSON.stringify({ kibPerDoc: grown / DOCS / 1024, fulls }))
} else {
  const rows: Array<[string, string, string[]]> = []
  for (const [name, config] of [['default configuration', 'default'], ['every output off', 'off'], ['every output on', 'all']] as const) {
    rows.push([name, config, []], [`${name}, --no-allocation-site-pretenuring`, config, ['--no-allocation-site-pretenuring']])
  }
  console.log(`old-space growth in steady state: ${DOCS} sample texts through engine.analyze after ${WARM} untimed, each row a fresh process\n`)
  console.log('| configuration | KiB per document | full collections |')
  console.log('| --- | ---: | ---: |')
  for (const [name, config, flags] of rows) {
    const r = spawnSync(process.execPath, [...flags, '--import', 'tsx', fileURLToPath(import.meta.url), ...argv], {
      encoding: 'utf8',
      env: { ...process.env, OLD_SPACE_CHILD: config },
      maxBuffer: 1 << 24,
    })
    if (r.status !== 0) throw new Error(`${name}: exited with ${String(r.status)}\n${r.stderr}`)
    const m = JSON.parse(r.stdout) as { kibPerDoc: number; fulls: number }
    console.log(`| ${name} | ${m.kibPerDoc.toFixed(2)} | ${m.fulls} |`)
  }
}
