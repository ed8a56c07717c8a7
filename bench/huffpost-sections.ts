import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The labelled news of `auto_categories`: the HuffPost News Category Dataset's sections (Misra 2022, CC BY 4.0)
 * mapped to IAB Content Taxonomy 3.1 nodes, one table for `bench/build-taxonomy.ts` (corpus words of a node) and
 * `bench/train-categories.ts` (the learned head's tier-1 labels, each node lifted to its tier-1 ancestor); and
 * the development half of 500N-KPCrowd with its classes' IAB tier-1 categories, read by
 * `bench/eval-categories.ts` (to measure) and `bench/train-categories.ts --kpcrowd` (to learn from).
 */
/**
 * HuffPost news sections -> the IAB 3.1 node (by id) whose name says the same thing. Sections about a readership
 * or a format rather than a subject (U.S. NEWS, WORLD NEWS, WEIRD NEWS, COMEDY, MEDIA, IMPACT, BLACK VOICES,
 * WOMEN, QUEER VOICES, LATINO VOICES, GOOD NEWS, FIFTY) are left out.
 */
export const SECTION_TO_IAB: Readonly<Record<string, string>> = {
  POLITICS: '386', // Politics
  ENTERTAINMENT: 'JLBCU7', // Entertainment
  SPORTS: '483', // Sports
  CRIME: '380', // Crime
  'STYLE & BEAUTY': '552', // Style & Fashion
  STYLE: '552',
  'HOME & LIVING': '274', // Home & Garden
  WELLNESS: '232', // Healthy Living > Wellness
  'HEALTHY LIVING': '223', // Healthy Living
  PARENTING: '192', // Family and Relationships > Parenting
  PARENTS: '192',
  'FOOD & DRINK': '210', // Food & Drink
  TASTE: '210',
  BUSINESS: '52', // Business and Finance
  MONEY: '391', // Personal Finance
  'CULTURE & ARTS': '201', // Fine Art
  'ARTS & CULTURE': '201',
  ARTS: '201',
  TECH: '596', // Technology & Computing
  SCIENCE: '464', // Science
  ENVIRONMENT: '467', // Science > Environment
  GREEN: '467',
  RELIGION: '453', // Religion & Spirituality
  TRAVEL: '653', // Travel
  EDUCATION: '132', // Education
  COLLEGE: '137', // Education > College Education
  WEDDINGS: '165', // Personal Celebrations & Life Events > Wedding
  DIVORCE: '186', // Family and Relationships
}

/**
 * 500N-KPCrowd's classes (the file-name prefix of each story) -> the IAB 3.1 tier-1 categories (by name) a person
 * would file such a story under: what `bench/eval-categories.ts` counts as right, and the labels of the
 * development stories when `bench/train-categories.ts` learns from them (`--kpcrowd`).
 */
export const CLASS_TO_IAB: Readonly<Record<string, readonly string[]>> = {
  art_and_culture: ['Fine Art', 'Books and Literature', 'Entertainment', 'Pop Culture'],
  business: ['Business and Finance', 'Personal Finance'],
  crime: ['Crime', 'Law'],
  fashion: ['Style & Fashion'],
  health: ['Medical Health', 'Healthy Living'],
  politics_us: ['Politics'],
  politics_world: ['Politics', 'War and Conflicts'],
  science: ['Science'],
  sports: ['Sports'],
  tech: ['Technology & Computing'],
}

/** A story of the development half of 500N-KPCrowd. */
export interface KpcrowdStory {
  readonly file: string
  /** Its class: the file-name prefix. */
  readonly cls: string
  readonly text: string
  /**
   * Whether it is in the held-back half of the fixed split (within each class, in file-name order, the 1st, 3rd,
   * 5th... story is design, the others held back).
   */
  readonly heldBack: boolean
}

/**
 * The development half of 500N-KPCrowd under a data folder (`keyphrase/500N-KPCrowd-dev/docsutf8`, or `docsutf8`
 * itself), in file-name order, with the fixed design / held-back split; undefined when the folder has none. A
 * class without a {@link CLASS_TO_IAB} row is an error.
 */
export function readKpcrowd(dataDir: string): KpcrowdStory[] | undefined {
  const dir = [join(dataDir, 'keyphrase/500N-KPCrowd-dev/docsutf8'), join(dataDir, 'docsutf8')].find((p) => existsSync(p))
  if (dir === undefined) return undefined
  const seen = new Map<string, number>()
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((file) => {
      const cls = file.replace(/-.*/, '')
      if (CLASS_TO_IAB[cls] === undefined) throw new Error(`${join(dir, file)}: no IAB mapping for class ${cls}`)
      const k = seen.get(cls) ?? 0
      seen.set(cls, k + 1)
      return { file: join(dir, file), cls, text: readFileSync(join(dir, file), 'utf8'), heldBack: k % 2 === 1 }
    })
}
