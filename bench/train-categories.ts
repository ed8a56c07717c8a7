/**
 * Train `lexicons/en/category-model.json`, the learned head of `auto_categories` (src/semantic/head.ts):
 * multinomial logistic regression from a text's vector (the engine's own `categoryText`: SIF-weighted mean of
 * the word vectors of `lexicons/en/vectors.bin`, unit length) to IAB 3.1 tier-1 categories, on the HuffPost News
 * Category Dataset (Misra 2022, CC BY 4.0; one JSON object a line with `category`, `headline`,
 * `short_description`; each story is read as "headline. short_description"). Sections map to tier-1 nodes by
 * {@link SECTION_TO_TIER1}: the nodes of `bench/huffpost-sections.ts` (written from the section and node names
 * alone, as `bench/build-taxonomy.ts` uses them), lifted to tier 1; sections about a readership or a format rather than a subject are
 * left out. Each node of the taxonomy is an example too (its own vector, labelled with its tier-1 ancestor), so
 * that every tier-1 category is learned, those the corpus lacks from their descriptions alone. Only the weights
 * ship (101 numbers per category), never the stories.
 *
 *   npx tsx bench/train-categories.ts <News_Category_Dataset_v3.json> [more files]   (npm run train:categories -- <path>...)
 *
 * Several files may be given (samples of the same dataset: the committed head was trained on, in this order, the
 * 10k-story sample `News_Category_Dataset_v3.json` of github.com/Limpery/MGO (commit 6229ca6e), the 4.8k-story
 * sample `News_Category_Dataset_v2.json` of github.com/ongraphpythondev/elastic_search (commit 0b1ff29a), and the
 * 36,900 headlines (900 per section, headline only, lower-cased and tokenised) of `data/huffpost.json` of
 * github.com/ws-jiang/MetaPrompter_public (commit dea17d57), the HuffPost set of Bao et al. 2020 drawn from
 * News_Category_Dataset_v2 (see {@link BAO_SECTIONS}); all CC BY 4.0 as the dataset); a story met twice counts once.
 *
 *   npx tsx bench/train-categories.ts News_Category_Dataset_v3.json News_Category_Dataset_v2.json huffpost.json --kpcrowd ../shared/data
 *
 * `--kpcrowd DIR` adds in-domain examples: the 250 long news stories of the development half of 500N-KPCrowd
 * under the data folder DIR (not the half that judges auto_categories, which is not in the data folder), each
 * labelled with every tier-1 category its class maps to ({@link CLASS_TO_IAB}, learned as a set: -log of their
 * summed probability) and weighing {@link KPCROWD_WEIGHT} headlines (`--kpcrowd-weight`); `--kpcrowd-half design`
 * takes only the design half of the fixed split, to measure on the held-back half. The committed head was
 * trained with all 250 (command above), so `npm run eval:categories` on the development half no longer measures
 * held-out stories. Measured (ranking top-1/top-3, `bench/eval-categories.ts --head`, head x2.4): without them,
 * held back 0.675/0.892 (x1.6, as shipped before); trained with the 130 design stories at 100, held back
 * 0.758/0.908; at 300, 0.800/0.908. The weight was chosen by two-fold cross-validation inside the design half
 * (60 or 70 stories trained, the others ranked; mean of the folds, head x1.6 / head x2.4): 0 0.685/0.827 /
 * 0.677/0.827, 30 0.699/0.827, 100 0.699/0.850 / 0.685/0.859, 300 0.692/0.861 / 0.724/0.860, that is about
 * 20,000 headlines' weight of stories beside the 32,000 of HuffPost; the 250 stories of the committed head weigh
 * 100 each (25,000 in all). At 300 each (75,000) the head outweighed the headlines and filed reviews by their
 * adjectives: of the golden texts, a pizza review lost Food & Drink and two hotel reviews got Style & Fashion
 * or nothing. At 100 the hotel reviews keep their categories; the pizza review keeps Food & Drink first, at
 * strength 0.41 (0.84 before), under the default threshold.
 *
 * Training is deterministic: full-batch gradient descent from zero weights, a fixed number of steps, stories in
 * file order, every HuffPost story and node weighing the same (the categories' prior is the corpus's: a class-balanced loss, each
 * category weighing the same, gave the node descriptions of categories without stories as much weight as 4,649
 * political stories; on the design half of 500N-KPCrowd, ranking top-1/top-3 with the head x0.8, 0.662/0.800
 * balanced against 0.669/0.823 plain, and 0.685/0.831 plain with the head x1.6), L2 penalty;
 * weights written with 6 decimals. The same inputs give the same bytes.
 *
 * Tried and left out (issue 13; scratch harness over the same stories and the engine's own ranking function,
 * chosen on the design half of 500N-KPCrowd, ranking top-1/top-3, the head as committed 0.685/0.831):
 * - a word model beside the head: multinomial logistic regression over the text's words themselves (the terms of
 *   its category vector, SIF x headline x part-of-speech weights summed per word, unit length; 11,686 words met in
 *   3 or more stories; full-batch AdaGrad, 300 steps), its probability x w added to the score as the head's is.
 *   Alone 0.52 to 0.63 top-1 (L2 1e-4, 1e-6, 1e-5, 1e-5 with each category weighing the same); beside the head,
 *   x0.4 to x3.2, 0.623 to 0.677 top-1 (top-3 up to 0.862 at the cost of top-1): the words of HuffPost headlines
 *   and descriptions carry the corpus's section habits more than the subject of a full news story (alone it
 *   filed many business, health and crime stories under Politics, the corpus's largest section). Held back once at the end, balanced, x0.4: 0.675/0.892,
 *   as without it. Trained jointly with the vector (one logistic regression over both): alone 0.600/0.854 against
 *   the head's 0.646/0.831, beside the similarity 0.677/0.823 at best;
 * - the head (or the word model) applied to runs of sentences of at least 2, 4 or 8 units of word weight and
 *   averaged (a story's parts look more like the headlines it was trained on): 0.685/0.846 at best, top-1 unchanged;
 * - examples made of 5 consecutive stories of a category (long-text-like vectors), node descriptions weighing
 *   4 or 12 times a story, stories annotated with the engine's part-of-speech refinements: 0.685/0.831 at best.
 * The errors left on the design half are mostly stories whose file-name class is not their subject (a rugby
 * match report filed under fashion, a budget-shutdown story under health). No larger copy of the dataset could be
 * had through the fetch tool (the copies found are samples of at most 10,000 stories, or Git LFS pointers).
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { createSemanticModel } from '../src/semantic/index.ts'
import { trainHead, type CategoryModelFile, type HeadExample } from '../src/semantic/head.ts'
import { categoryText } from '../src/pipeline/analyzers/categories.ts'
import { refineTags } from '../src/pipeline/pos.ts'
import { CLASS_TO_IAB, readKpcrowd, SECTION_TO_IAB } from './huffpost-sections.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
/** Weight of a 500N-KPCrowd story against a HuffPost story (`--kpcrowd-weight`). */
const KPCROWD_WEIGHT = 100
/** Options that take a value. */
const VALUED = new Set(['--out', '--kpcrowd', '--kpcrowd-half', '--kpcrowd-weight'])
const option = (name: string): string | undefined => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined)
const inputs = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !VALUED.has(all[i - 1] ?? ''))
if (inputs.length === 0) {
  console.error('usage: npx tsx bench/train-categories.ts <News_Category_Dataset_v3.json> [more copies or samples of the dataset...]')
  process.exit(1)
}
const out = resolve(option('--out') ?? join(repo, 'lexicons/en/category-model.json'))
/**
 * In-domain examples: the development half of 500N-KPCrowd under this data folder (long news stories, labelled
 * by {@link CLASS_TO_IAB}; the other half of the corpus, which judges auto_categories, is not in the data folder).
 * `--kpcrowd-half design` takes only the design half of the fixed split (to measure on the held-back half),
 * `all` (the default) every story; each story weighs `--kpcrowd-weight` headlines.
 */
const kpcrowdDir = option('--kpcrowd')
const kpcrowdHalf = option('--kpcrowd-half') ?? 'all'
const kpcrowdWeight = Number(option('--kpcrowd-weight') ?? KPCROWD_WEIGHT)
if (kpcrowdHalf !== 'all' && kpcrowdHalf !== 'design') throw new Error(`--kpcrowd-half ${kpcrowdHalf}: expected all or design`)
if (!(kpcrowdWeight > 0)) throw new Error(`--kpcrowd-weight ${option('--kpcrowd-weight')}: expected a positive number`)

/**
 * The sections of the headline-only form of the dataset (`{"raw": ..., "label": k}`, 900 headlines per section,
 * 36,900 in all: the HuffPost set of Bao, Wu, Chang and Barzilay 2020, "Few-shot text classification with
 * distributional signatures", copied in github.com/ws-jiang/MetaPrompter_public `data/huffpost.json`): label k is
 * the k-th section of News_Category_Dataset_v2.json by number of stories (pandas value_counts order: POLITICS
 * 32,739, WELLNESS 17,827, ...). Checked at each run against the full records given before it (the two samples
 * meet 19 of the 41 labels): a headline found in both must have the same section, or training stops.
 */
const BAO_SECTIONS: readonly string[] = [
  'POLITICS', 'WELLNESS', 'ENTERTAINMENT', 'TRAVEL', 'STYLE & BEAUTY', 'PARENTING', 'HEALTHY LIVING', 'QUEER VOICES',
  'FOOD & DRINK', 'BUSINESS', 'COMEDY', 'SPORTS', 'BLACK VOICES', 'HOME & LIVING', 'PARENTS', 'THE WORLDPOST',
  'WEDDINGS', 'WOMEN', 'IMPACT', 'DIVORCE', 'CRIME', 'MEDIA', 'WEIRD NEWS', 'GREEN', 'WORLDPOST', 'RELIGION', 'STYLE',
  'SCIENCE', 'WORLD NEWS', 'TASTE', 'TECH', 'MONEY', 'ARTS', 'FIFTY', 'GOOD NEWS', 'ARTS & CULTURE', 'ENVIRONMENT',
  'COLLEGE', 'LATINO VOICES', 'CULTURE & ARTS', 'EDUCATION',
]
/** A tokenised headline of the headline-only form written back as text ("trump 's plan , again" -> "trump's plan, again"). */
const detokenize = (raw: string): string =>
  raw.replace(/ (n't|'s|'re|'ll|'ve|'d|'m)\b/g, '$1').replace(/ ([,.:;?!%)])/g, '$1').replace(/([($]) /g, '$1').replace(/\s+/g, ' ').trim()

/** Gradient steps, step size, L2 penalty. */
const STEPS = 300
const RATE = 20
const L2 = 1e-3

const semantic = createSemanticModel()
const vectors = semantic.vectors
const roots = semantic.taxonomy.roots
/** HuffPost sections -> IAB 3.1 tier-1 node id: each section's node ({@link SECTION_TO_IAB}) lifted to its tier-1 ancestor. */
const SECTION_TO_TIER1: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SECTION_TO_IAB).map(([section, id]) => {
    const node = semantic.taxonomy.nodes.find((n) => n.id === id)
    if (node === undefined) throw new Error(`section ${section} maps to ${id}, not a node of lexicons/en/iab-taxonomy.tsv`)
    return [section, roots[node.root]!.id]
  }),
)
const dims = vectors.dims
const annotator = createAnnotator()
/** The examples: HuffPost stories and nodes weigh 1 each, a 500N-KPCrowd story `--kpcrowd-weight` with its class's set of categories. */
const examples: HeadExample[] = []
const rootOf = new Map(roots.map((r) => [r.id, r]))
const texts: Array<{ id: string; text: string }> = []
// Several files (samples of the same dataset) are read in the order given; a story met again (same link, or same
// headline and description when it has no link) counts once.
const seenStories = new Set<string>()
// Headlines seen so far (letters and digits only, lower case): a headline-only record (the 36,900-headline
// form, below) whose headline was met in a full record or before counts once.
const seenHeadlines = new Set<string>()
/** Section of each headline of a full record, to check the headline-only form's labels against ({@link BAO_SECTIONS}). */
const sectionOf = new Map<string, string>()
const check = { met: 0, same: 0 }
const headlineKey = (h: string): string => h.toLowerCase().replace(/[^a-z0-9]+/g, '')
for (const line of inputs.flatMap((input) => readFileSync(resolve(input), 'utf8').split('\n'))) {
  if (line.trim() === '') continue
  const r = JSON.parse(line) as { category?: string; headline?: string; short_description?: string; link?: string; raw?: string; label?: number }
  if (r.raw !== undefined && r.label !== undefined) {
    // The headline-only form: {"raw": lower-cased tokenised headline, "label": section index}.
    const section = BAO_SECTIONS[r.label]
    if (section === undefined) throw new Error(`headline-only record with label ${r.label}: expected 0..${BAO_SECTIONS.length - 1}`)
    const id = SECTION_TO_TIER1[section]
    const key = headlineKey(r.raw)
    const known = sectionOf.get(key)
    if (known !== undefined) {
      check.met++
      if (known === section) check.same++
    }
    if (id === undefined || seenHeadlines.has(key)) continue
    seenHeadlines.add(key)
    texts.push({ id, text: detokenize(r.raw) })
    continue
  }
  sectionOf.set(headlineKey(r.headline ?? ''), r.category ?? '')
  const id = SECTION_TO_TIER1[r.category ?? '']
  if (id === undefined) continue
  seenHeadlines.add(headlineKey(r.headline ?? ''))
  const key = r.link ?? `${r.headline ?? ''}\t${r.short_description ?? ''}`
  if (seenStories.has(key)) continue
  seenStories.add(key)
  if (!rootOf.has(id)) throw new Error(`section ${r.category} maps to ${id}, not a tier-1 node of lexicons/en/iab-taxonomy.tsv`)
  texts.push({ id, text: `${r.headline ?? ''}. ${r.short_description ?? ''}` })
}
if (check.met > 0) console.log(`headline-only records whose headline a full record has: ${check.met}, with the same section: ${check.same}`)
if (check.same < check.met) throw new Error('the headline-only labels disagree with the full records: BAO_SECTIONS is not their order')
// Classes: every tier-1 node, in taxonomy order.
const classes = roots
const classIndex = new Map(classes.map((r, k) => [r.id, k]))
for (const t of texts) {
  const k = classIndex.get(t.id)
  if (k === undefined) continue
  const tv = categoryText(vectors, annotator.annotate(t.text))
  if (tv.terms.length > 0) examples.push({ k, v: tv.vector, w: 1 })
}
// The taxonomy's own descriptions as examples too: every node's vector (its name, neighbour and corpus words,
// see src/semantic/taxonomy.ts) labelled with its tier-1 ancestor, so that the head covers every tier-1
// category, also those no section of the corpus maps to (they are learned from their subtree's descriptions).
const stories = examples.length
for (const node of semantic.taxonomy.nodes) examples.push({ k: classIndex.get(roots[node.root]!.id)!, v: node.vector, w: 1 })
const nodeExamples = examples.length - stories
// Long news stories of 500N-KPCrowd's development half, annotated as the engine annotates (part-of-speech
// refinements included), each labelled with every tier-1 category its class maps to.
let kpcrowd = 0
if (kpcrowdDir !== undefined) {
  const read = readKpcrowd(resolve(kpcrowdDir))
  if (read === undefined) throw new Error(`--kpcrowd ${kpcrowdDir}: no keyphrase/500N-KPCrowd-dev/docsutf8 there`)
  const byName = new Map(classes.map((r, k) => [r.name, k]))
  for (const story of read) {
    if (kpcrowdHalf === 'design' && story.heldBack) continue
    const set = CLASS_TO_IAB[story.cls]!.map((name) => {
      const k = byName.get(name)
      if (k === undefined) throw new Error(`class ${story.cls} maps to ${name}, not a tier-1 node of lexicons/en/iab-taxonomy.tsv`)
      return k
    })
    const doc = annotator.annotate(story.text)
    refineTags(doc)
    const tv = categoryText(vectors, doc)
    if (tv.terms.length === 0) continue
    examples.push({ k: set[0]!, set, v: tv.vector, w: kpcrowdWeight })
    kpcrowd++
  }
}
const K = classes.length
const n = new Array<number>(K).fill(0)
for (const e of examples) n[e.k]!++
const W = trainHead(examples, K, dims, {
  steps: STEPS,
  rate: RATE,
  l2: L2,
  onStep: (step, loss) => {
    if (step % 50 === 0 || step === STEPS - 1) console.log(`step ${step}: loss ${loss.toFixed(4)}`)
  },
})
const vectorsSha1 = createHash('sha1').update(readFileSync(join(repo, 'lexicons/en/vectors.bin'))).digest('hex')
const model: CategoryModelFile = {
  about: `Learned head of auto_categories (bench/train-categories.ts): logistic regression from the text vector to IAB Tech Lab Content Taxonomy 3.1 tier-1 categories (CC BY 3.0), trained on ${stories} stories of the HuffPost News Category Dataset (Rishabh Misra, 2022, CC BY 4.0)${kpcrowd > 0 ? `, ${kpcrowd} news stories of the development half of 500N-KPCrowd (${kpcrowdHalf === 'design' ? 'its design half only' : 'both halves of it'}; Marujo et al. 2012) weighing ${kpcrowdWeight} each` : ''} and the ${nodeExamples} node descriptions of the taxonomy; ${STEPS} steps, rate ${RATE}, L2 ${L2}`,
  vectors_sha1: vectorsSha1,
  dims,
  classes: classes.map((r, k) => ({ id: r.id, name: r.name, examples: n[k]!, weights: Array.from(W[k]!, (x) => Number(x.toFixed(6))) })),
}
writeFileSync(out, JSON.stringify(model) + '\n')
console.log(`${out}: ${K} categories (examples: ${classes.map((r, k) => `${r.name} ${n[k]}`).join(', ')}), ${stories} stories, ${kpcrowd} 500N-KPCrowd stories and ${nodeExamples} nodes`)
