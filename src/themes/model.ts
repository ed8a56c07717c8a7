import type { ThemeModel } from './rank.ts'

/**
 * The theme ranker, written by `bench/train-themes.ts --write`: weights over the features of `candidateFeatures`
 * (src/themes/rank.ts), learned by coordinate ascent on F1 from the hand score alone, on the even-numbered documents
 * of the Inspec, SemEval2017 and 500N-KPCrowd development sets. Do not edit by hand: retrain.
 */
const WEIGHTS: Record<string, number> = {
    "handScore": 1,
    "words1": -0.302806,
    "words2": 0,
    "words3plus": -0.314026,
    "logCount": 0,
    "logCountAlone": 0,
    "firstAt": 0,
    "firstSentence": 0,
    "spread": 0,
    "specMean": 0,
    "specMin": 0,
    "specHead": -0.568637,
    "properShare": 0,
    "partOnly": -3.01798,
    "adjectiveFirst": 0,
    "acronym": 2.6605,
    "digit": 0,
    "hyphen": 0.414225,
    "logWordFreq": 0,
    "logContainers": 0,
    "priorMean": 1.77572,
    "priorHead": -0.288853,
    "priorMin": 0,
    "L*words1": 0.154793,
    "L*logCount": 0,
    "L*firstAt": 0,
    "L*specMean": 0,
    "L*properShare": 0,
    "L*partOnly": -1.69558,
    "L*handScore": 0.16647,
    "L*firstSentence": 0,
    "L*logWordFreq": 0.156964,
    "topRank": 0,
    "logTokenFreq": -0.189957,
    "G*words1": 1.83815,
    "G*words2": -0.672194,
    "G*words3plus": 0,
    "G*partOnly": 0,
    "G*logCount": 0,
    "G*handScore": 0,
    "G*specMean": 0,
    "G*properShare": 0,
    "G*priorMean": 0,
    "G*firstAt": 0,
    "G*logWordFreq": 0,
    "G*topRank": 0,
}

export const THEME_MODEL: ThemeModel | null = {
  features: Object.keys(WEIGHTS),
  weights: Object.values(WEIGHTS),
  bias: 0,
}
