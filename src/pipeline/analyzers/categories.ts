import type { AnnotatedDocument } from '../../nlp/types.ts'
import type { AutoCategory } from '../../model/output.ts'
import { dot, spanVector, type TextVector } from '../../semantic/embed.ts'
import { DRIVER_SIMILARITY } from '../../semantic/concepts.ts'
import type { SemanticModel } from '../../semantic/index.ts'
import type { TaxonomyModelNode } from '../../semantic/taxonomy.ts'
import { contextSentiment, round4, type TokenRange } from '../spans.ts'
import { need } from '../pipeline.ts'
import type { Analyzer, SentimentSection } from '../types.ts'

/** Most sub-categories listed under one category. */
const CHILDREN_LIMIT = 3

/**
 * Temperature of the share each category takes among its siblings (in cosine units): a category 0.1 more similar
 * to the text than a sibling takes e^2 = 7.4 times its share.
 */
export const CATEGORY_TEMPERATURE = 0.05

/** Least cosine between a word and its nearest taxonomy node for the word to vote for that node's tier-1 branch. */
export const VOTE_SIMILARITY = 0.3

/**
 * Votes of a text's words for the tier-1 branches: each word's nearest node among all nodes of the tree (by the
 * node's own vector), when the cosine passes {@link VOTE_SIMILARITY}, gives weight x cosine to that node's tier-1
 * root; returned as shares of all votes (0 without votes). Fine-grained nodes catch what a branch's averaged
 * vector blurs ("striker" is nearest to Soccer, hence Sports). Each word's nearest node is cached in the model.
 */
function rootVotes(semantic: SemanticModel, text: TextVector): number[] {
  const { roots } = semantic.taxonomy
  const rootIndex = new Map(roots.map((r, i) => [r, i]))
  const votes = new Array<number>(roots.length).fill(0)
  for (const t of text.terms) {
    const hit = semantic.taxonomy.nearest(t.id)
    if (hit.sim <= VOTE_SIMILARITY) continue
    let root = hit.node
    while (root.parent !== undefined) root = root.parent
    votes[rootIndex.get(root)!]! += t.weight * hit.sim
  }
  const total = votes.reduce((a, x) => a + x, 0)
  return total > 0 ? votes.map((v) => v / total) : votes
}

/** Each node's share among `nodes`: a softmax of their scores (cosine with the text, plus `extra`) at {@link CATEGORY_TEMPERATURE}. */
function shares(text: TextVector, nodes: readonly TaxonomyModelNode[], extra?: readonly number[]): Array<{ node: TaxonomyModelNode; share: number }> {
  const cos = nodes.map((n, i) => dot(text.vector, n.branch) + (extra?.[i] ?? 0))
  const max = Math.max(...cos)
  const e = cos.map((c) => Math.exp((c - max) / CATEGORY_TEMPERATURE))
  const sum = e.reduce((a, x) => a + x, 0)
  return nodes.map((node, i) => ({ node, share: e[i]! / sum }))
}

/** A category of the built-in taxonomy found in a text, with its sub-categories. */
export interface FoundCategory {
  readonly node: TaxonomyModelNode
  readonly strength: number
  readonly sentiment: { readonly score: number; readonly polarity: 'positive' | 'negative' | 'neutral' }
  readonly categories: readonly FoundCategory[]
}

/** The `auto_categories` section: tier-1 categories, best first, before the output limit. */
export type CategoriesSection = readonly FoundCategory[]

/**
 * Rank the tier-1 categories of the built-in taxonomy for a text. A node is scored by the cosine between the
 * text's vector (importance-weighted words, `src/semantic/embed.ts`) and the node's branch vector (its words and
 * its subtree's), plus its share of the words' votes ({@link rootVotes}); its strength is its share among the
 * tier-1 nodes (softmax of those scores), so strengths are
 * comparable across texts whatever their length. Returns every tier-1 node, best first (ties in file order),
 * without thresholds; the evaluation (`bench/eval-categories.ts`) ranks with this same function.
 */
export function rankCategories(semantic: SemanticModel, text: TextVector): Array<{ node: TaxonomyModelNode; strength: number }> {
  return shares(text, semantic.taxonomy.roots, rootVotes(semantic, text))
    .map(({ node, share }) => ({ node, strength: share }))
    .sort((a, b) => b.strength - a.strength)
}

/**
 * `auto_categories`: the text classified into the built-in taxonomy (IAB Tech Lab Content Taxonomy 3.1,
 * `lexicons/en/iab-taxonomy.tsv`). `strength_score` is a share of the text: a tier-1 category's share among
 * the tier-1 categories, a sub-category's share among its siblings times its parent's strength (see
 * {@link rankCategories}). Tier-1 categories whose strength reaches `concept_topics_threshold` (its older name
 * is `categories_threshold`) are reported, best first, up to `auto_categories_limit`; under each, up to three
 * sub-categories that reach it too, recursively. `type` is `node` for a category that has
 * sub-categories in the taxonomy, `leaf` for an end of the tree. Sentiment is that of the sentences holding the
 * words most similar to the category. English only; the vectors load when this first runs.
 */
export function createCategoriesAnalyzer(semantic: SemanticModel): Analyzer {
  return {
    name: 'auto_categories',
    needs: ['sentiment'],
    enabled: (ctx) => {
      const d = ctx.configuration.document
      return (
        ctx.mode !== 'discovery' &&
        ctx.subscription.feature_settings.document.auto_categories &&
        d.auto_categories &&
        d.auto_categories_limit > 0 &&
        ctx.configuration.language.toLowerCase() === 'english'
      )
    },
    run(doc, sections, ctx): CategoriesSection {
      const sentiment = need(sections, 'sentiment')
      const text = spanVector(semantic.vectors, doc)
      if (text.terms.length === 0) return []
      const threshold = ctx.configuration.concept_topics_threshold
      const limit = ctx.configuration.document.auto_categories_limit
      const found = (node: TaxonomyModelNode, strength: number): FoundCategory => ({
        node,
        strength: round4(strength),
        sentiment: nodeSentiment(semantic, doc, text, node, sentiment),
        // A sub-category's strength: its share among its siblings, times its parent's strength.
        categories: shares(text, node.children)
          .map(({ node: c, share }) => ({ c, s: share * strength }))
          .filter((x) => round4(x.s) >= threshold)
          .sort((a, b) => b.s - a.s)
          .slice(0, CHILDREN_LIMIT)
          .map((x) => found(x.c, x.s)),
      })
      return rankCategories(semantic, text)
        .filter((x) => round4(x.strength) >= threshold)
        .slice(0, limit)
        .map((x) => found(x.node, x.strength))
    },
    toWire(value, out) {
      const list = value as CategoriesSection
      if (list.length > 0) out.auto_categories = list.map(categoryWire)
    },
  }
}

/** The sentiment of the sentences holding the text's words nearest the category (its best word at least). */
function nodeSentiment(semantic: SemanticModel, doc: AnnotatedDocument, text: TextVector, node: TaxonomyModelNode, sentiment: SentimentSection): { score: number; polarity: 'positive' | 'negative' | 'neutral' } {
  const spans: TokenRange[] = []
  let best: TokenRange | undefined
  let bestSim = -Infinity
  for (const t of text.terms) {
    const sim = semantic.vectors.dot(t.id, node.branch)
    if (sim >= DRIVER_SIMILARITY) spans.push({ tokenStart: t.token, tokenEnd: t.token + 1 })
    if (sim > bestSim) {
      bestSim = sim
      best = { tokenStart: t.token, tokenEnd: t.token + 1 }
    }
  }
  if (spans.length === 0 && best !== undefined) spans.push(best)
  const { score, polarity } = contextSentiment(doc, spans, sentiment)
  return { score, polarity }
}

function categoryWire(c: FoundCategory): AutoCategory {
  const item: AutoCategory = {
    title: c.node.name,
    type: c.node.children.length > 0 ? 'node' : 'leaf',
    strength_score: c.strength,
    sentiment_score: c.sentiment.score,
    sentiment_polarity: c.sentiment.polarity,
  }
  if (c.categories.length > 0) item.categories = c.categories.map(categoryWire)
  return item
}
