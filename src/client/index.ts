/**
 * `textengine/client`: request signing and a small typed client of the HTTP API (E1-E39), for Node and browsers.
 *
 * Nothing here imports Node code: the signer uses `@noble/hashes`, the client the global `fetch` (or one passed
 * in), and the wire types come in with `import type` only.
 */
import type { Configuration, Template } from '../model/configuration.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { BlacklistItem, Category, Query, SentimentPhrase, Taxonomy, UserEntity } from '../model/tuning.ts'
import type { FeatureRecord, ServiceStatus, StatisticsRecord, Subscription } from '../model/account.ts'
import { escapeRfc3986, signUrl } from './sign.ts'

export { signUrl, computeSignature, signingKey, escapeRfc3986, randomNonce } from './sign.ts'
export type { SignOptions, SignedRequest } from './sign.ts'
export type * from '../model/output.ts'
export type * from '../model/configuration.ts'
export type * from '../model/tuning.ts'
export type * from '../model/account.ts'

/** The `fetch` the client calls: the global one, or any function of the same shape (a handler, a mock server). */
export type FetchLike = (input: Request) => Promise<Response>

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Base URL of the API, e.g. `https://api.example.com` or `http://127.0.0.1:8080/api` (relative in a browser page). */
  readonly baseUrl: string
  /** Consumer key. Without `key` and `secret` requests go unsigned (a server in development mode). */
  readonly key?: string
  /** Consumer secret. */
  readonly secret?: string
  /** @defaultValue the global `fetch` */
  readonly fetch?: FetchLike
  /**
   * Path suffix: `json` sends `/status.json`, `bare` sends `/status` (JSON as well). XML is not offered.
   * @defaultValue 'json'
   */
  readonly format?: 'json' | 'bare'
  /** `x-app-name` header (counted as the app in statistics). @defaultValue 'textengine-client/js/1.0/json' */
  readonly appName?: string
}

/** An answer of 400 and above: the HTTP status and the server's `message`. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The server's `message` (or the body text when it is not a JSON error object). */
    readonly serverMessage: string,
    /** `GET /status.json` and the like, without the query. */
    readonly request: string,
  ) {
    super(`${request} answered ${status}: ${serverMessage}`)
  }
}

/** Whether a value is an {@link ApiError} (also across bundles, where `instanceof` fails). */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError || (value instanceof Error && value.name === 'ApiError' && typeof (value as ApiError).status === 'number')
}

/** A document to submit. */
export interface DocumentInput {
  readonly id?: string
  readonly text: string
  readonly tag?: string
  readonly metadata?: unknown
  readonly job_id?: string
}

/** A collection to submit (Discovery mode). */
export interface CollectionInput {
  readonly id?: string
  readonly tag?: string
  readonly documents: readonly string[]
  readonly metadata?: unknown
}

/** Where a submission goes: a configuration (the primary when absent) and a job stream. */
export interface SubmitParams {
  readonly configId?: string
  readonly jobId?: string
}

/** Retrieval of processed items: by configuration or by job id (never both, as the contract says). */
export interface ProcessedParams {
  readonly configId?: string
  readonly jobId?: string
}

/** Query of `GET /statistics`; `interval` or `from`/`to`. */
export interface StatisticsParams {
  readonly interval?: string
  readonly from?: string
  readonly to?: string
  readonly configId?: string
  readonly configName?: string
  readonly group?: string
  readonly app?: string
  readonly userId?: string
  readonly userEmail?: string
}

/** A configuration to create: name and language at least; any other setting, document and collection blocks partial. */
export type ConfigurationInput = { readonly name: string; readonly language?: string } & Partial<
  Omit<Configuration, 'id' | 'config_id' | 'modified' | 'name' | 'language' | 'document' | 'collection'>
> & { readonly document?: Partial<Configuration['document']>; readonly collection?: Partial<Configuration['collection']> }

/** A partial update of a configuration: its id and the values to change. */
export type ConfigurationUpdate = { readonly config_id: string } & Partial<Omit<ConfigurationInput, 'language'>>

/** Operations on one tuning resource of a configuration (`configId` absent: the primary configuration). */
export interface TuningApi<Item, Create, Update = Create & { readonly id: string }> {
  /** The stored items; `[]` when there are none (the server answers 202 with no body). */
  list(configId?: string): Promise<Item[]>
  /** Create items; answers the stored items with their ids. */
  add(items: readonly Create[], configId?: string): Promise<Item[]>
  /** Partial update of items by id; answers the stored items. */
  update(items: readonly Update[], configId?: string): Promise<Item[]>
  /** Delete items by id (blacklist: ids or names). */
  remove(ids: readonly string[], configId?: string): Promise<void>
}

/** A taxonomy node as created: name, optional parent matching, topics and child nodes. */
export interface TaxonomyNodeInput {
  readonly id?: string
  readonly name?: string
  readonly enforce_parent_matching?: boolean
  readonly topics?: readonly { readonly id: string; readonly type: string }[]
  readonly nodes?: readonly TaxonomyNodeInput[]
}

/** The typed client of {@link createClient}: one method per endpoint. */
export interface Client {
  readonly documents: {
    /** E1: queue one document; answers the already processed items of an `auto_response` configuration, else `[]`. */
    queue(document: DocumentInput, params?: SubmitParams): Promise<DocumentOutput[]>
    /** E2: queue a batch; answers as {@link Client.documents.queue}. */
    queueBatch(documents: readonly DocumentInput[], params?: SubmitParams): Promise<DocumentOutput[]>
    /** E3: status or output of one document (`QUEUED` while waiting); not removed from the processed queue. */
    get(id: string, configId?: string): Promise<DocumentOutput>
    /** E4: processed documents, removed as they are returned; `[]` when none. */
    processed(params?: ProcessedParams): Promise<DocumentOutput[]>
    /** E5: cancel a queued document. */
    cancel(id: string, configId?: string): Promise<void>
  }
  readonly collections: {
    /** E6: queue a collection; answers the processed collections of an `auto_response` configuration, else `[]`. */
    queue(collection: CollectionInput, params?: SubmitParams): Promise<CollectionOutput[]>
    /** E8: status or output of one collection. */
    get(id: string, configId?: string): Promise<CollectionOutput>
    /** E7: processed collections, removed as returned; `documentId` picks one. */
    processed(params?: ProcessedParams & { readonly documentId?: string }): Promise<CollectionOutput[]>
    /** E9: cancel a queued collection. */
    cancel(id: string, configId?: string): Promise<void>
  }
  readonly configurations: {
    /** E10: every configuration (never empty: a primary configuration always exists). */
    list(): Promise<Configuration[]>
    /** E11: create; answers the stored configurations. */
    create(items: readonly ConfigurationInput[]): Promise<Configuration[]>
    /** E12: partial update by `config_id`; answers the stored configurations. */
    update(items: readonly ConfigurationUpdate[]): Promise<Configuration[]>
    /** E13: clone a configuration or a template (settings and tuning) under a new name. */
    clone(templateId: string, name: string): Promise<Configuration>
    /** E14: delete by ids (the primary cannot be deleted). */
    remove(ids: readonly string[]): Promise<void>
  }
  readonly templates: {
    /** E15: the read-only templates. */
    list(): Promise<Template[]>
  }
  readonly queries: TuningApi<Query, { readonly name: string; readonly query: string }>
  readonly categories: TuningApi<Category, { readonly name: string; readonly weight?: number; readonly samples: readonly string[] }>
  readonly phrases: TuningApi<SentimentPhrase, { readonly name: string; readonly weight: number }>
  readonly entities: TuningApi<UserEntity, { readonly name: string; readonly type: string; readonly label?: string; readonly normalized?: string }>
  readonly blacklist: TuningApi<BlacklistItem, string | { readonly name: string }, { readonly id: string; readonly name: string }>
  readonly taxonomy: {
    list(configId?: string): Promise<Taxonomy[]>
    add(nodes: readonly TaxonomyNodeInput[], configId?: string): Promise<Taxonomy[]>
    update(nodes: readonly TaxonomyNodeInput[], configId?: string): Promise<Taxonomy[]>
    /** Delete the configuration's taxonomy (no body). */
    remove(configId?: string): Promise<void>
  }
  /** E36: the subscription (limits and entitlements). */
  subscription(): Promise<Subscription>
  /** E37: supported features per language (all languages when absent). */
  features(language?: string): Promise<FeatureRecord[]>
  /** E38: usage statistics. */
  statistics(params: StatisticsParams): Promise<StatisticsRecord[]>
  /** E39: service status. */
  status(): Promise<ServiceStatus>
  /**
   * Any request: `path` without suffix (`/status`), query values escaped for you, `body` sent as JSON. Answers
   * the parsed JSON body, or `undefined` for an empty body (202).
   */
  request(method: string, path: string, query?: Readonly<Record<string, string | undefined>>, body?: unknown): Promise<unknown>
}

type Query_ = Readonly<Record<string, string | undefined>>

function resolveBase(baseUrl: string): string {
  const location = (globalThis as { location?: { href: string } }).location
  let url: URL
  try {
    url = location === undefined ? new URL(baseUrl) : new URL(baseUrl, location.href)
  } catch {
    throw new TypeError(`createClient: baseUrl must be an absolute URL, found ${JSON.stringify(baseUrl)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`createClient: baseUrl must be http: or https:, found ${JSON.stringify(baseUrl)}`)
  }
  if (url.search !== '' || url.hash !== '') throw new TypeError(`createClient: baseUrl must not carry a query or a fragment, found ${JSON.stringify(baseUrl)}`)
  return url.href.replace(/\/+$/, '')
}

/**
 * A typed client of the HTTP API. Each method sends one request, signed as client-compat §1 when `key` and
 * `secret` are given, with a JSON body; a 202 with an empty body answers `[]` (lists) or `undefined`; compressed
 * answers are undone by `fetch`; 4xx/5xx answers throw an {@link ApiError} with the status and the server's message.
 */
export function createClient(options: ClientOptions): Client {
  const base = resolveBase(options.baseUrl)
  const { key, secret } = options
  if ((key === undefined) !== (secret === undefined)) {
    throw new TypeError('createClient: give both key and secret (signed requests) or neither (a server in development mode)')
  }
  const doFetch: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request))
  const suffix = (options.format ?? 'json') === 'json' ? '.json' : ''
  const appName = options.appName ?? 'textengine-client/js/1.0/json'

  async function request(method: string, path: string, query: Query_ = {}, body?: unknown): Promise<unknown> {
    const pairs = Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)
    const search = pairs.map(([n, v]) => `${escapeRfc3986(n)}=${escapeRfc3986(v)}`).join('&')
    // Only unreserved characters and %XX escapes: the URL parser of fetch leaves it as signed.
    let url = base + path + suffix + (search === '' ? '' : '?' + search)
    const headers: Record<string, string> = { accept: 'application/json', 'x-api-version': '4.2', 'x-app-name': appName }
    if (key !== undefined && secret !== undefined) {
      const signed = signUrl(url, key, secret)
      url = signed.url
      headers['authorization'] = signed.authorization
    }
    const init: RequestInit = { method, headers }
    if (body !== undefined) {
      headers['content-type'] = 'application/json'
      init.body = JSON.stringify(body)
    }
    const response = await doFetch(new Request(url, init))
    const text = await response.text()
    if (response.status >= 400) {
      let message = text
      try {
        const parsed: unknown = JSON.parse(text)
        if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { message?: unknown }).message === 'string') {
          message = (parsed as { message: string }).message
        }
      } catch {
        // not JSON: the text is the message
      }
      throw new ApiError(response.status, message === '' ? response.statusText : message, `${method} ${path}${suffix}`)
    }
    if (text === '') return undefined
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw new ApiError(response.status, `the answer is not JSON: ${text.slice(0, 200)}`, `${method} ${path}${suffix}`)
    }
  }

  const list = async <T>(method: string, path: string, query?: Query_, body?: unknown): Promise<T[]> => {
    const value = await request(method, path, query, body)
    return value === undefined ? [] : (value as T[])
  }
  const one = async <T>(method: string, path: string, query?: Query_, body?: unknown): Promise<T> => {
    const value = await request(method, path, query, body)
    if (value === undefined) throw new ApiError(204, 'the answer has no body', `${method} ${path}${suffix}`)
    return value as T
  }
  const none = async (method: string, path: string, query?: Query_, body?: unknown): Promise<void> => {
    await request(method, path, query, body)
  }
  const submitQuery = (p: SubmitParams | undefined): Query_ => ({ config_id: p?.configId, job_id: p?.jobId })
  const id = (value: string): string => escapeRfc3986(value)

  function tuning<Item, Create, Update>(resource: string): TuningApi<Item, Create, Update> {
    const path = `/${resource}`
    return {
      list: (configId) => list<Item>('GET', path, { config_id: configId }),
      add: (items, configId) => list<Item>('POST', path, { config_id: configId }, items),
      update: (items, configId) => list<Item>('PUT', path, { config_id: configId }, items),
      remove: (ids, configId) => none('DELETE', path, { config_id: configId }, ids),
    }
  }

  return {
    documents: {
      queue: (document, params) => list<DocumentOutput>('POST', '/document', submitQuery(params), document),
      queueBatch: (documents, params) => list<DocumentOutput>('POST', '/document/batch', submitQuery(params), documents),
      get: (docId, configId) => one<DocumentOutput>('GET', `/document/${id(docId)}`, { config_id: configId }),
      processed: (params) => list<DocumentOutput>('GET', '/document/processed', { config_id: params?.configId, job_id: params?.jobId }),
      cancel: (docId, configId) => none('DELETE', `/document/${id(docId)}`, { config_id: configId }),
    },
    collections: {
      queue: (collection, params) => list<CollectionOutput>('POST', '/collection', submitQuery(params), collection),
      get: (colId, configId) => one<CollectionOutput>('GET', `/collection/${id(colId)}`, { config_id: configId }),
      processed: (params) =>
        list<CollectionOutput>('GET', '/collection/processed', { config_id: params?.configId, job_id: params?.jobId, document_id: params?.documentId }),
      cancel: (colId, configId) => none('DELETE', `/collection/${id(colId)}`, { config_id: configId }),
    },
    configurations: {
      list: () => list<Configuration>('GET', '/configurations'),
      create: (items) => list<Configuration>('POST', '/configurations', {}, items),
      update: (items) => list<Configuration>('PUT', '/configurations', {}, items),
      clone: async (templateId, name) => {
        const [made] = await list<Configuration>('POST', '/configurations', {}, [{ template: templateId, name }])
        if (made === undefined) throw new ApiError(200, 'the clone answered no configuration', 'POST /configurations' + suffix)
        return made
      },
      remove: (ids) => none('DELETE', '/configurations', {}, ids),
    },
    templates: { list: () => list<Template>('GET', '/templates') },
    queries: tuning('queries'),
    categories: tuning('categories'),
    phrases: tuning('phrases'),
    entities: tuning('entities'),
    blacklist: tuning('blacklist'),
    taxonomy: {
      list: (configId) => list<Taxonomy>('GET', '/taxonomy', { config_id: configId }),
      add: (nodes, configId) => list<Taxonomy>('POST', '/taxonomy', { config_id: configId }, nodes),
      update: (nodes, configId) => list<Taxonomy>('PUT', '/taxonomy', { config_id: configId }, nodes),
      remove: (configId) => none('DELETE', '/taxonomy', { config_id: configId }),
    },
    subscription: () => one<Subscription>('GET', '/subscription'),
    features: (language) => list<FeatureRecord>('GET', '/features', { language }),
    statistics: (p) =>
      list<StatisticsRecord>('GET', '/statistics', {
        interval: p.interval, from: p.from, to: p.to, config_id: p.configId, config_name: p.configName,
        group: p.group, app: p.app, user_id: p.userId, user_email: p.userEmail,
      }),
    status: async () => {
      // E39 answers an array with one status record; some servers answer the record itself.
      const value = await one<ServiceStatus | ServiceStatus[]>('GET', '/status')
      const record = Array.isArray(value) ? value[0] : value
      if (record === undefined) throw new ApiError(200, 'the status answer is an empty array', 'GET /status' + suffix)
      return record
    },
    request,
  }
}
