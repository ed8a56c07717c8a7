/**
 * Relations between entities: the trained pair classifier and the hand rules (`find.ts`), with their data files
 * `lexicons/en/relations/model.json` (trained by `bench/train-relations.ts` on CoNLL04 train and dev) and
 * `lexicons/en/relations/triggers.tsv`, plus the job titles of `lexicons/en/ner/job-titles.tsv`.
 *
 * ```ts
 * const res = loadRelationResources()          // reads the three files once
 * const found = findRelations(doc, entities, res.model, res.triggers, res.jobTitles)
 * ```
 */
import { readFileSync } from 'node:fs'
import { dataPath, missingDataHint } from '../resources.ts'
import { readTriggers, type TriggerLexicon } from './features.ts'
import { decodeRelationModel, type RelationModel } from './model.ts'
import { readNerFile } from '../entities/tagger.ts'
import { readPhraseLexicon } from '../entities/extract.ts'

export { findRelations, argTypeOf, sentenceViews, RELATION_TYPES, type FoundRelation, type RelationEntity, type SentenceView } from './find.ts'
export { decodeRelationModel, encodeRelationModel, placeClosure, predictRelations, trainRelationModel, type RelationModel } from './model.ts'
export { normWord, pairFeatures, readTriggers, type ArgMention, type ArgType, type PairContext, type TriggerLexicon } from './features.ts'

/** What {@link findRelations} needs besides the document. */
export interface RelationResources {
  readonly model: RelationModel
  readonly triggers: TriggerLexicon
  readonly jobTitles: ReadonlyMap<string, string>
}

function readRelationFile(name: string, dataDir?: string): string {
  const path = dataPath(dataDir, 'en', 'relations', name)
  try {
    return readFileSync(path, 'utf8')
  } catch (e) {
    throw new Error(`cannot read relations data file ${path}: ${(e as Error).message} (${missingDataHint(dataDir)})`)
  }
}

/** Read the committed relation model, trigger lexicon and job titles. */
export function loadRelationResources(dataDir?: string): RelationResources {
  return {
    model: decodeRelationModel(readRelationFile('model.json', dataDir), dataPath(dataDir, 'en', 'relations', 'model.json')),
    triggers: readTriggers(readRelationFile('triggers.tsv', dataDir), dataPath(dataDir, 'en', 'relations', 'triggers.tsv')),
    jobTitles: readPhraseLexicon(readNerFile('job-titles.tsv', dataDir).toString('utf8'), 'job-titles.tsv').phrases,
  }
}
