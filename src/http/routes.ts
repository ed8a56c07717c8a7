import type { AccountApi, CallClass, StatisticsQuery, TuningResource } from '../engine/types.ts'
import { exportUserDirectory, parseArchiveFormat, type ArchiveFormat } from '../engine/salience-export.ts'
import { fail } from '../errors.ts'

/** Wire format of a request and its response, chosen by the path suffix (no suffix means JSON). */
export type WireFormat = 'json' | 'xml'

/** HTTP methods the contract uses. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** What a route needs to call the engine: the account, the decoded body, query parameters and the path id. */
export interface RouteContext {
  readonly account: AccountApi
  /** Decoded request body (JSON value or decoded XML); `undefined` when the route reads none. */
  readonly body: unknown
  /** Query parameters, decoded; repeated names keep every value in order. */
  readonly query: ReadonlyMap<string, readonly string[]>
  /** The `{id}` of the path, percent-decoded with `+` as space (client-compat §2). */
  readonly id: string | undefined
  /** Calling application (`x-app-name`). */
  readonly app: string | undefined
}

/**
 * What a route answers, before encoding: `empty` is a body-less answer (`Content-Length: 0`), `data` a value
 * encoded as JSON or as XML under `xmlRoot`.
 */
export type RouteResult =
  | { readonly kind: 'empty'; readonly status: 200 | 202 }
  | { readonly kind: 'data'; readonly status: 200; readonly value: unknown }

/** How a successful engine answer maps onto a status (client-compat §3). */
export type AnswerRule =
  /** 200 with the value. */
  | 'value'
  /** 200 with a non-empty array, 202 with an empty body for an empty one (settings lists, processed queues). */
  | 'list'
  /** 202 with an empty body (settings deletes). */
  | 'accepted'
  /** 200 with an empty body (cancel by id). */
  | 'ok-empty'
  /** 202 with an empty body, or 200 with the auto-response items when there are any (submits). */
  | 'submit'
  /** 200 with the bytes of a {@link FileAnswer} (the Salience user directory archive). */
  | 'file'

/** What a route with the `file` answer rule returns: a download, sent as `Content-Disposition: attachment`. */
export interface FileAnswer {
  readonly filename: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/** One row of the routes table. */
export interface Route {
  /** Contract endpoint number(s), e.g. `E3`; documentation only. */
  readonly endpoint: string
  readonly method: RouteMethod
  /** Path without suffix; `{id}` stands for the document or collection id (it may contain `/`). */
  readonly path: string
  /** Call class counted and limited by `recordCall`. */
  readonly callClass: CallClass
  /** Whether the route reads a request body. */
  readonly hasBody: boolean
  /** Root element of the XML answer (list roots name their items through the XML codec's tables). */
  readonly xmlRoot: string
  /** Root elements accepted for an XML request body, when the route reads one. */
  readonly xmlRequestRoots?: readonly string[]
  readonly answer: AnswerRule
  /** Short description, used in the OpenAPI document. */
  readonly summary: string
  /** Query parameters the route reads, for the OpenAPI document. */
  readonly queryParams: readonly string[]
  /**
   * Answer ERR_NOT_FOUND as 404 (client-compat §3 turns it into 400 elsewhere); the user directory export's
   * contract (issue 10) is a 404 for an unknown configuration.
   */
  readonly keepsNotFound?: boolean
  /** Call the engine. */
  readonly run: (ctx: RouteContext) => Promise<unknown>
}

/** First value of a query parameter, or undefined. */
export function param(query: ReadonlyMap<string, readonly string[]>, name: string): string | undefined {
  return query.get(name)?.[0]
}

const TUNING: readonly { resource: TuningResource; xmlRoot: string; itemRoot: string; label: string }[] = [
  { resource: 'queries', xmlRoot: 'queries', itemRoot: 'query', label: 'queries' },
  { resource: 'categories', xmlRoot: 'categories', itemRoot: 'category', label: 'categories (concept topics)' },
  { resource: 'phrases', xmlRoot: 'phrases', itemRoot: 'phrase', label: 'sentiment phrases' },
  { resource: 'entities', xmlRoot: 'entities', itemRoot: 'entity', label: 'user entities' },
  { resource: 'blacklist', xmlRoot: 'blacklist', itemRoot: 'item', label: 'blacklist items' },
  { resource: 'taxonomy', xmlRoot: 'taxonomies', itemRoot: 'taxonomy', label: 'the taxonomy' },
]

function tuningRoutes(): Route[] {
  const out: Route[] = []
  // The contract numbers the tuning operations E16-E35 as one table, without a number per row.
  TUNING.forEach(({ resource, xmlRoot, itemRoot, label }) => {
    const e = 'E16-E35'
    const cfg = (ctx: RouteContext): string | undefined => param(ctx.query, 'config_id')
    const common = { callClass: 'settings' as const, xmlRoot, queryParams: ['config_id'] }
    out.push(
      { ...common, endpoint: e, method: 'GET', path: `/${resource}`, hasBody: false, answer: 'list', summary: `List ${label}`,
        run: (ctx) => ctx.account.listTuning(resource, cfg(ctx)) },
      { ...common, endpoint: e, method: 'POST', path: `/${resource}`, hasBody: true, xmlRequestRoots: [xmlRoot, itemRoot], answer: 'value', summary: `Create ${label}`,
        run: (ctx) => ctx.account.createTuning(resource, ctx.body, cfg(ctx)) },
      { ...common, endpoint: e, method: 'PUT', path: `/${resource}`, hasBody: true, xmlRequestRoots: [xmlRoot, itemRoot], answer: 'value', summary: `Update ${label}`,
        run: (ctx) => ctx.account.updateTuning(resource, ctx.body, cfg(ctx)) },
      { ...common, endpoint: e, method: 'DELETE', path: `/${resource}`, hasBody: true, xmlRequestRoots: [xmlRoot, itemRoot], answer: 'accepted', summary: `Delete ${label}`,
        run: (ctx) => ctx.account.deleteTuning(resource, ctx.body, cfg(ctx)) },
    )
  })
  return out
}

function submitOptions(ctx: RouteContext): { configId: string | undefined; jobId: string | undefined; app: string | undefined } {
  return { configId: param(ctx.query, 'config_id'), jobId: param(ctx.query, 'job_id'), app: ctx.app }
}

function takeOptions(ctx: RouteContext, idParam?: string): { configId: string | undefined; jobId: string | undefined; app: string | undefined; id?: string } {
  const id = idParam === undefined ? undefined : param(ctx.query, idParam)
  return { configId: param(ctx.query, 'config_id'), jobId: param(ctx.query, 'job_id'), app: ctx.app, ...(id === undefined ? {} : { id }) }
}

function statisticsQuery(query: ReadonlyMap<string, readonly string[]>): StatisticsQuery {
  const q: Record<string, string> = {}
  for (const name of ['interval', 'from', 'to', 'config_id', 'config_name', 'group', 'app', 'user_id', 'user_email']) {
    const v = param(query, name)
    if (v !== undefined) q[name] = v
  }
  // One listing names the configuration parameter `config` (with an id).
  const config = param(query, 'config')
  if (q['config_id'] === undefined && config !== undefined) q['config_id'] = config
  return q
}

/** The archive format of a user directory request: the path's extension or `format` (both must agree), zip by default. */
function archiveFormat(extension: string | undefined, formatParam: string | undefined): ArchiveFormat {
  const fromPath = extension === undefined ? undefined : parseArchiveFormat(extension, 'path extension')
  const fromQuery = formatParam === undefined ? undefined : parseArchiveFormat(formatParam, 'format')
  if (fromPath !== undefined && fromQuery !== undefined && fromPath !== fromQuery) {
    fail('ERR_INVALID_FIELD', `format: ${fromQuery} contradicts the path extension .${fromPath}`, 'format')
  }
  return fromPath ?? fromQuery ?? 'zip'
}

/**
 * The routes table: every endpoint E1-E39 of the contract, each served with `.json`, `.xml` and no suffix, and the
 * Salience user directory export (also served with an archive extension, `.zip`, `.tar` or `.tar.gz`).
 * `/batch` is the contract's alias of `/document/batch`. Order matters only in that literal paths
 * (`/document/processed`, `/document/batch`) come before the `{id}` patterns.
 */
export function createRoutes(): readonly Route[] {
  const routes: Route[] = [
    { endpoint: 'E1', method: 'POST', path: '/document', callClass: 'data', hasBody: true, xmlRequestRoots: ['document'], xmlRoot: 'documents',
      answer: 'submit', summary: 'Submit one document', queryParams: ['config_id', 'job_id'],
      run: (ctx) => ctx.account.submitDocuments(ctx.body, { ...submitOptions(ctx), batch: false }) },
    { endpoint: 'E2', method: 'POST', path: '/document/batch', callClass: 'data', hasBody: true, xmlRequestRoots: ['documents'], xmlRoot: 'documents',
      answer: 'submit', summary: 'Submit a batch of documents', queryParams: ['config_id', 'job_id'],
      run: (ctx) => ctx.account.submitDocuments(ctx.body, { ...submitOptions(ctx), batch: true }) },
    { endpoint: 'E2', method: 'POST', path: '/batch', callClass: 'data', hasBody: true, xmlRequestRoots: ['documents'], xmlRoot: 'documents',
      answer: 'submit', summary: 'Submit a batch of documents (alias of /document/batch)', queryParams: ['config_id', 'job_id'],
      run: (ctx) => ctx.account.submitDocuments(ctx.body, { ...submitOptions(ctx), batch: true }) },
    { endpoint: 'E4', method: 'GET', path: '/document/processed', callClass: 'polling', hasBody: false, xmlRoot: 'documents',
      answer: 'list', summary: 'Retrieve processed documents (removed as returned)', queryParams: ['config_id', 'job_id'],
      run: (ctx) => ctx.account.takeProcessedDocuments(takeOptions(ctx)) },
    { endpoint: 'E3', method: 'GET', path: '/document/{id}', callClass: 'polling', hasBody: false, xmlRoot: 'document',
      answer: 'value', summary: 'Status or output of one document (not dequeued)', queryParams: ['config_id'],
      run: (ctx) => ctx.account.getDocument(ctx.id ?? '', param(ctx.query, 'config_id')) },
    { endpoint: 'E5', method: 'DELETE', path: '/document/{id}', callClass: 'data', hasBody: false, xmlRoot: 'document',
      answer: 'ok-empty', summary: 'Cancel a queued document', queryParams: ['config_id'],
      run: (ctx) => ctx.account.cancelDocument(ctx.id ?? '', param(ctx.query, 'config_id')) },
    { endpoint: 'E6', method: 'POST', path: '/collection', callClass: 'data', hasBody: true, xmlRequestRoots: ['collection'], xmlRoot: 'collections',
      answer: 'submit', summary: 'Submit a collection (Discovery mode)', queryParams: ['config_id', 'job_id'],
      run: (ctx) => ctx.account.submitCollection(ctx.body, submitOptions(ctx)) },
    { endpoint: 'E7', method: 'GET', path: '/collection/processed', callClass: 'polling', hasBody: false, xmlRoot: 'collections',
      answer: 'list', summary: 'Retrieve processed collections (removed as returned)', queryParams: ['config_id', 'job_id', 'document_id'],
      run: (ctx) => ctx.account.takeProcessedCollections(takeOptions(ctx, 'document_id')) },
    { endpoint: 'E8', method: 'GET', path: '/collection/{id}', callClass: 'polling', hasBody: false, xmlRoot: 'collection',
      answer: 'value', summary: 'Status or output of one collection (not dequeued)', queryParams: ['config_id'],
      run: (ctx) => ctx.account.getCollection(ctx.id ?? '', param(ctx.query, 'config_id')) },
    { endpoint: 'E9', method: 'DELETE', path: '/collection/{id}', callClass: 'data', hasBody: false, xmlRoot: 'collection',
      answer: 'ok-empty', summary: 'Cancel a queued collection', queryParams: ['config_id'],
      run: (ctx) => ctx.account.cancelCollection(ctx.id ?? '', param(ctx.query, 'config_id')) },
    { endpoint: 'E10', method: 'GET', path: '/configurations', callClass: 'settings', hasBody: false, xmlRoot: 'configurations',
      answer: 'list', summary: 'List configurations', queryParams: [],
      run: (ctx) => ctx.account.listConfigurations() },
    { endpoint: 'E11,E13', method: 'POST', path: '/configurations', callClass: 'settings', hasBody: true, xmlRequestRoots: ['configurations', 'configuration'], xmlRoot: 'configurations',
      answer: 'value', summary: 'Create configurations, or clone one ({name, template})', queryParams: [],
      run: (ctx) => ctx.account.createConfigurations(ctx.body) },
    { endpoint: 'E12', method: 'PUT', path: '/configurations', callClass: 'settings', hasBody: true, xmlRequestRoots: ['configurations', 'configuration'], xmlRoot: 'configurations',
      answer: 'value', summary: 'Update configurations (partial merge by id)', queryParams: [],
      run: (ctx) => ctx.account.updateConfigurations(ctx.body) },
    { endpoint: 'E14', method: 'DELETE', path: '/configurations', callClass: 'settings', hasBody: true, xmlRequestRoots: ['configurations', 'configuration'], xmlRoot: 'configurations',
      answer: 'accepted', summary: 'Delete configurations by id', queryParams: [],
      run: (ctx) => ctx.account.deleteConfigurations(ctx.body) },
    { endpoint: 'E15', method: 'GET', path: '/templates', callClass: 'settings', hasBody: false, xmlRoot: 'templates',
      answer: 'list', summary: 'List templates', queryParams: [],
      run: (ctx) => ctx.account.listTemplates() },
    ...tuningRoutes(),
    // Issue 10 item 6, not one of E1-E39: it reads the tuning resources of E16-E35. `.zip`, `.tar` and `.tar.gz`
    // come as the path's extension (matchRoute hands it over as `id`), or as `format` beside `.json` or no suffix.
    { endpoint: 'E16-E35', method: 'GET', path: '/salience/user-directory', callClass: 'settings', hasBody: false, xmlRoot: 'user_directory',
      answer: 'file', keepsNotFound: true, queryParams: ['config_id', 'format'],
      summary: 'Salience user directory of a configuration\'s tuning: GET /salience/user-directory.{zip|tar|tar.gz} (or format=zip|tar|tar.gz; zip by default)',
      run: (ctx) => exportUserDirectory(ctx.account, param(ctx.query, 'config_id'), archiveFormat(ctx.id, param(ctx.query, 'format'))) },
    { endpoint: 'E36', method: 'GET', path: '/subscription', callClass: 'settings', hasBody: false, xmlRoot: 'subscription',
      answer: 'value', summary: 'The subscription: limits and entitlements', queryParams: [],
      run: (ctx) => ctx.account.subscription() },
    { endpoint: 'E37', method: 'GET', path: '/features', callClass: 'settings', hasBody: false, xmlRoot: 'supported_features',
      answer: 'value', summary: 'Supported features per language', queryParams: ['language'],
      run: (ctx) => {
        const langs = ctx.query.get('language')
        return ctx.account.features(langs === undefined ? undefined : langs.length === 1 ? langs[0] : langs)
      } },
    { endpoint: 'E38', method: 'GET', path: '/statistics', callClass: 'settings', hasBody: false, xmlRoot: 'statistics',
      answer: 'value', summary: 'Usage statistics', queryParams: ['interval', 'from', 'to', 'config_id', 'config_name', 'group', 'app', 'user_id', 'user_email'],
      run: (ctx) => ctx.account.statistics(statisticsQuery(ctx.query)) },
    { endpoint: 'E39', method: 'GET', path: '/status', callClass: 'settings', hasBody: false, xmlRoot: 'status',
      answer: 'value', summary: 'Service status', queryParams: [],
      run: (ctx) => ctx.account.status() },
  ]
  return Object.freeze(routes.map((r) => Object.freeze(r)))
}

/** A path matched against the routes table. */
export interface RouteMatch {
  readonly route: Route
  readonly format: WireFormat
  readonly id: string | undefined
}

/**
 * Decode a path id as client-compat §2 says: percent-decoded (bad escapes kept literally), `+` as space.
 */
export function decodePathId(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(spaced)
  } catch {
    // Decode the valid escapes one UTF-8 sequence at a time, leaving malformed ones as sent.
    return spaced.replace(/(?:%[0-9a-fA-F]{2})+/g, (seq) => {
      try {
        return decodeURIComponent(seq)
      } catch {
        return seq
      }
    })
  }
}

/** Split a routed path into its suffix-free part and format: `.json`, `.xml` or none (JSON). */
export function splitFormat(path: string): { path: string; format: WireFormat } {
  if (path.endsWith('.json')) return { path: path.slice(0, -5), format: 'json' }
  if (path.endsWith('.xml')) return { path: path.slice(0, -4), format: 'xml' }
  return { path, format: 'json' }
}

const RESERVED_IDS = new Set(['processed', 'batch'])

/**
 * Find the route of a method and a raw path (the path part of the request target, base path removed, not
 * decoded). `{id}` takes everything between `/document/` (or `/collection/`) and the final suffix, `/`
 * included; `processed` and `batch` are reserved. Answers `undefined` when no route has this path, and the
 * list of allowed methods when the path exists under another method.
 */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  rawPath: string,
): RouteMatch | { readonly allowed: readonly RouteMethod[] } | undefined {
  const { path, format } = splitFormat(rawPath)
  const allowed: RouteMethod[] = []
  for (const route of routes) {
    let id: string | undefined
    if (route.path.endsWith('/{id}')) {
      const prefix = route.path.slice(0, -'{id}'.length)
      if (!path.startsWith(prefix) || path.length === prefix.length) continue
      const rawId = path.slice(prefix.length)
      if (RESERVED_IDS.has(rawId)) continue
      id = decodePathId(rawId)
    } else if (route.path !== path) {
      // A file route also takes any extension (`.zip`, `.tar.gz`, an unknown one for a 400), handed over as `id`.
      if (route.answer !== 'file' || !path.startsWith(route.path + '.') || path.includes('/', route.path.length)) continue
      id = path.slice(route.path.length + 1)
    }
    if (route.method !== method) {
      if (!allowed.includes(route.method)) allowed.push(route.method)
      continue
    }
    return { route, format, id }
  }
  return allowed.length > 0 ? { allowed } : undefined
}
