/**
 * Lemmas of the verbs that link a subject to a predicative adjective ("the room was clean", "staff seemed friendly",
 * "the soup tasted cold"): what Discovery's facet predicates and the lexicon engine's predicate words follow.
 */
export const LINKING_VERBS: ReadonlySet<string> = new Set(['be', 'seem', 'look', 'feel', 'remain', 'become', 'get', 'appear', 'stay', 'taste', 'smell', 'sound', 'prove'])
