/** Wire shapes of the per-configuration tuning resources. */

/** A boolean query topic. */
export interface Query {
  id: string
  name: string
  query: string
  modified: number
}

/** A concept topic (category) defined by sample words. */
export interface Category {
  id: string
  name: string
  weight: number
  samples: string[]
  modified: number
}

/** A user sentiment phrase (up to three words, or a query with operators), weight -2..2. */
export interface SentimentPhrase {
  id: string
  name: string
  weight: number
  modified: number
}

/** A user entity: a literal name, or a boolean query when `name` starts with `+`. */
export interface UserEntity {
  id: string
  name: string
  type: string
  label?: string
  normalized?: string
  modified: number
}

/** A blacklisted term or `*` wildcard pattern. */
export interface BlacklistItem {
  id: string
  name: string
  modified: number
}

/** A reference from a taxonomy node to a query or a category. */
export interface TaxonomyTopic {
  id: string
  type: 'query' | 'concept'
}

/** A node of a taxonomy: nested up to five levels. */
export interface TaxonomyNode {
  id: string
  name: string
  enforce_parent_matching: boolean
  topics: TaxonomyTopic[]
  nodes: TaxonomyNode[]
}

/** The one taxonomy of a configuration (the root is a node without a parent). */
export interface Taxonomy extends TaxonomyNode {
  timestamp: number
}

/** Every tuning resource of one configuration. */
export interface Tuning {
  queries: Query[]
  categories: Category[]
  phrases: SentimentPhrase[]
  entities: UserEntity[]
  blacklist: BlacklistItem[]
  taxonomy: Taxonomy | undefined
}
