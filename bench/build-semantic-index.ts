/**
 * Writes `lexicons/en/iab-nearest.bin`: the nearest node of the built-in taxonomy (by the node's own vector) of
 * every word of `lexicons/en/vectors.bin`, which `auto_categories` looks up for each word of a text (its vote for
 * a tier-1 branch), and every node's own and branch vector. Computing the nearest node at run time costs 661 dot
 * products the first time each word is seen, and the node vectors about 50-100 ms at load; the file makes both
 * reads. Deterministic: the same two input files give the same bytes; the file records the SHA-1
 * of its inputs, and the engine ignores it (computing nodes itself, with the same results) when they changed.
 * Rerun after rebuilding the vectors or the taxonomy:
 *
 *   npx tsx bench/build-semantic-index.ts
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { dataPath } from '../src/resources.ts'
import { decodeWordVectors } from '../src/semantic/vectors.ts'
import { encodeNearestTable, parseTaxonomyModel, semanticIndex, semanticInputsDigest } from '../src/semantic/taxonomy.ts'

const vectorsPath = dataPath(undefined, 'en', 'vectors.bin')
const taxonomyPath = dataPath(undefined, 'en', 'iab-taxonomy.tsv')
const out = dataPath(undefined, 'en', 'iab-nearest.bin')
const bytes = readFileSync(vectorsPath)
const text = readFileSync(taxonomyPath, 'utf8')
const vectors = decodeWordVectors(bytes, vectorsPath)
const taxonomy = parseTaxonomyModel(text, vectors, taxonomyPath)
const t0 = performance.now()
const index = semanticIndex(taxonomy, vectors)
const inputs = semanticInputsDigest(new Uint8Array(createHash('sha1').update(bytes).digest()), text)
const encoded = encodeNearestTable(index, taxonomy.nodes.length, vectors.dims, inputs)
writeFileSync(out, encoded)
console.log(`${out}: nearest node of ${index.nearest.length} words and the vectors of ${taxonomy.nodes.length} nodes in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${encoded.length} bytes; sha1 ${createHash('sha1').update(encoded).digest('hex')}`)
