/**
 * Write the compiled form of a language model beside its text: `lexicons/langid/model.tsv` -> `model.bin` (the
 * loader reads it instead of compiling the text, when it was compiled from that very text: about 90 ms less on a cold
 * start; format in src/langid/compiled.ts). `bench/train-langid.ts` writes both; run this after editing or replacing
 * a model.tsv by other means.
 *
 *   npx tsx bench/compile-langid.ts [model.tsv]     (npm run build:langid)
 *
 * Deterministic: the same text gives the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compiledLanguageModelPath, encodeCompiledLanguageModel } from '../src/langid/compiled.ts'

const tsv = resolve(process.argv[2] ?? fileURLToPath(new URL('../lexicons/langid/model.tsv', import.meta.url)))
const out = compiledLanguageModelPath(tsv)
const bytes = encodeCompiledLanguageModel(readFileSync(tsv, 'utf8'), tsv)
writeFileSync(out, bytes)
console.log(`wrote ${out}: ${(bytes.length / 1024).toFixed(0)} KiB, compiled from ${tsv}`)
