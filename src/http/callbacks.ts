import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { BlockList, isIP } from 'node:net'
import { encodeJson } from '../codecs/json.ts'
import type { ProcessedEvent } from '../engine/options.ts'

/** One delivery attempt's outcome, for logging. */
export interface DeliveryLogEntry {
  readonly url: string
  readonly items: number
  readonly attempt: number
  /** HTTP status answered, when there was an answer. */
  readonly status: number | undefined
  readonly outcome: 'delivered' | 'retrying' | 'gave-up'
  readonly error: string | undefined
}

/**
 * Address ranges a callback may not reach unless allowed: unspecified (0.0.0.0/8, ::), loopback (127/8, ::1),
 * private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10, where cloud metadata
 * services answer), shared address space (100.64/10), multicast and broadcast. IPv4-mapped IPv6 addresses
 * (`::ffff:10.0.0.1`) are checked as the IPv4 address they hold.
 */
export const DEFAULT_DENIED_RANGES: readonly string[] = Object.freeze([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '224.0.0.0/4',
  '255.255.255.255/32',
  '::/128',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
])

/** Most bytes of a callback's answer read before the connection is closed (only the status matters). */
export const CALLBACK_RESPONSE_LIMIT = 64 * 1024

/**
 * Which callback destinations may be reached. Entries are IP addresses, CIDR ranges (`10.1.0.0/16`, `fd00::/8`)
 * or host names (exact, case-insensitive; `*.example.com` for its subdomains).
 */
export interface CallbackAddressPolicy {
  /**
   * Destinations allowed even inside {@link DEFAULT_DENIED_RANGES} (local development: `["127.0.0.1/32"]` or
   * `["localhost"]`). A host name listed here may resolve to any address.
   * @defaultValue none
   */
  readonly allow?: readonly string[]
  /** Destinations refused besides the default ranges. @defaultValue none */
  readonly deny?: readonly string[]
}

/** A policy checked: why an address or host is refused, or undefined when it may be reached. */
export interface CallbackAddressCheck {
  /** Refusal of a host name before resolution (deny list), or undefined. */
  host(hostname: string): string | undefined
  /** Refusal of one resolved address of `hostname`, or undefined. */
  address(hostname: string, address: string): string | undefined
}

function hostPattern(entry: string): ((host: string) => boolean) | undefined {
  const e = entry.trim().toLowerCase().replace(/^\[|\]$/g, '')
  if (e === '' || isIP(e) !== 0 || e.includes('/')) return undefined
  if (e.startsWith('*.')) return (h) => h.endsWith(e.slice(1))
  return (h) => h === e
}

function addTo(list: BlockList, entry: string, where: string): boolean {
  const e = entry.trim().replace(/^\[|\]$/g, '')
  const slash = e.indexOf('/')
  const ip = slash < 0 ? e : e.slice(0, slash)
  const family = isIP(ip)
  if (family === 0) return false
  const type = family === 4 ? 'ipv4' : 'ipv6'
  if (slash < 0) {
    list.addAddress(ip, type)
    return true
  }
  const bits = Number(e.slice(slash + 1))
  if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128) || !/^\d+$/.test(e.slice(slash + 1))) {
    throw new TypeError(`${where}: ${JSON.stringify(entry)} is not a CIDR range (prefix length 0-${family === 4 ? 32 : 128})`)
  }
  list.addSubnet(ip, bits, type)
  return true
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` or `::ffff:XXXX:XXXX`), else the address. */
function unmapped(address: string): string {
  const a = address.toLowerCase()
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a)
  if (dotted !== null) return dotted[1]!
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a)
  if (hex !== null) {
    const hi = Number.parseInt(hex[1]!, 16)
    const lo = Number.parseInt(hex[2]!, 16)
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  }
  return address
}

/**
 * Check a {@link CallbackAddressPolicy} once (throws a TypeError naming a bad entry) into the function that
 * decides each destination: a host name on the deny list is refused; a host name or address on the allow list
 * is reached; an address on the deny list or in {@link DEFAULT_DENIED_RANGES} is refused; any other is reached.
 */
export function callbackAddressCheck(policy: CallbackAddressPolicy = {}, where = 'callback address policy'): CallbackAddressCheck {
  const allowAddresses = new BlockList()
  const denyAddresses = new BlockList()
  const defaults = new BlockList()
  const allowHosts: Array<(h: string) => boolean> = []
  const denyHosts: Array<(h: string) => boolean> = []
  for (const r of DEFAULT_DENIED_RANGES) addTo(defaults, r, 'DEFAULT_DENIED_RANGES')
  for (const [entries, list, hosts, name] of [
    [policy.allow ?? [], allowAddresses, allowHosts, 'allow'],
    [policy.deny ?? [], denyAddresses, denyHosts, 'deny'],
  ] as const) {
    if (!Array.isArray(entries)) throw new TypeError(`${where}.${name} must be an array of addresses, CIDR ranges or host names`)
    for (const entry of entries as unknown[]) {
      if (typeof entry !== 'string' || entry.trim() === '') throw new TypeError(`${where}.${name}: ${JSON.stringify(entry)} is not an address, CIDR range or host name`)
      if (addTo(list, entry, `${where}.${name}`)) continue
      const pattern = hostPattern(entry)
      if (pattern === undefined || !/^(\*\.)?[a-z0-9.-]+$/i.test(entry.trim())) {
        throw new TypeError(`${where}.${name}: ${JSON.stringify(entry)} is not an address, CIDR range or host name`)
      }
      hosts.push(pattern)
    }
  }
  const normal = (h: string): string => h.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')
  const listed = (hosts: ReadonlyArray<(h: string) => boolean>, h: string): boolean => hosts.some((p) => p(h))
  const contains = (list: BlockList, address: string): boolean => {
    const a = unmapped(address)
    const family = isIP(a)
    return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6')
  }
  return {
    host(hostname) {
      const h = normal(hostname)
      return listed(denyHosts, h) ? `host ${h} is on the callback deny list` : undefined
    },
    address(hostname, address) {
      const h = normal(hostname)
      if (listed(denyHosts, h)) return `host ${h} is on the callback deny list`
      if (listed(allowHosts, h) || contains(allowAddresses, address)) return undefined
      if (contains(denyAddresses, address)) return `address ${address} of ${h} is on the callback deny list`
      if (contains(defaults, address) || isIP(unmapped(address)) === 0) {
        return (
          `address ${address} of ${h} is private, loopback, link-local or otherwise internal; callbacks may not reach it ` +
          'unless the server allows it (setting callback_allow, e.g. ["127.0.0.1/32"] for local development)'
        )
      }
      return undefined
    },
  }
}

/** Refusal of a callback destination by the address policy: not retried. */
class CallbackRefused extends Error {
  override readonly name = 'CallbackRefused'
}

/**
 * POST `body` to `url` through node:http(s), connecting only to an address the policy allows: the host name is
 * resolved once, every address checked, and the connection made to a checked address (a second DNS answer
 * cannot swap in an internal one). Redirects are not followed (a 3xx is a failed delivery); at most
 * {@link CALLBACK_RESPONSE_LIMIT} bytes of the answer are read, then the connection is closed.
 */
function postChecked(url: URL, body: string, check: CallbackAddressCheck, timeoutMs: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(new CallbackRefused(`callback URL ${url.protocol}//… is not http or https`))
      return
    }
    const hostname = url.hostname.replace(/^\[|\]$/g, '')
    const refusedHost = check.host(hostname)
    if (refusedHost !== undefined) {
      reject(new CallbackRefused(refusedHost))
      return
    }
    let refusal: string | undefined
    if (isIP(hostname) !== 0) {
      refusal = check.address(hostname, hostname)
      if (refusal !== undefined) {
        reject(new CallbackRefused(refusal))
        return
      }
    }
    const lookup = (
      host: string,
      options: { all?: boolean; family?: number },
      callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
    ): void => {
      dnsLookup(host, { all: true, ...(options.family === 4 || options.family === 6 ? { family: options.family } : {}) }, (error, addresses) => {
        if (error !== null) {
          callback(error, [])
          return
        }
        for (const a of addresses) {
          const why = check.address(host, a.address)
          if (why !== undefined) {
            refusal = why
            callback(Object.assign(new Error(why), { code: 'ECALLBACKREFUSED' }), [])
            return
          }
        }
        const first = addresses[0]
        if (first === undefined) callback(Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' }), [])
        else if (options.all === true) callback(null, addresses)
        else callback(null, first.address, first.family)
      })
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) },
        lookup: lookup as never,
        signal: AbortSignal.timeout(timeoutMs),
        agent: false,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0
        let read = 0
        const done = (): void => resolve(status)
        res.on('data', (chunk: Buffer) => {
          read += chunk.length
          if (read > CALLBACK_RESPONSE_LIMIT) {
            res.destroy()
            done()
          }
        })
        res.on('end', done)
        res.on('error', done)
        res.on('close', done)
      },
    )
    req.on('error', (e) => reject(refusal !== undefined ? new CallbackRefused(refusal) : e))
    req.end(body)
  })
}

/** The policy checks of {@link postChecked} for a custom `fetch`: the host and every address it resolves to. */
async function checkBeforeFetch(url: URL, check: CallbackAddressCheck): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CallbackRefused(`callback URL ${url.protocol}//… is not http or https`)
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  const refusedHost = check.host(hostname)
  if (refusedHost !== undefined) throw new CallbackRefused(refusedHost)
  const addresses = isIP(hostname) !== 0 ? [{ address: hostname }] : await new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(hostname, { all: true }, (e, a) => (e === null ? resolve(a) : reject(e))))
  for (const a of addresses) {
    const why = check.address(hostname, a.address)
    if (why !== undefined) throw new CallbackRefused(why)
  }
}

/** Options of {@link createCallbackDelivery}. Every field is optional. */
export interface CallbackDeliveryOptions {
  /**
   * HTTP client used to POST instead of the built-in one. The address policy is then checked on the URL's host
   * and its addresses before each POST, but the client connects on its own (a DNS answer that changes in between
   * is not caught), and it is asked not to follow redirects (`redirect: 'manual'`).
   * @defaultValue the built-in node:http(s) client: pinned checked address, no redirects, 64 KiB answer cap
   */
  readonly fetch?: typeof fetch
  /**
   * Destinations callbacks may reach: private, loopback and link-local addresses are refused unless allowed here.
   * @defaultValue {@link DEFAULT_DENIED_RANGES} refused, everything else allowed
   */
  readonly addresses?: CallbackAddressPolicy
  /**
   * Items per POST for an account (the subscription's `callback_batch_limit`).
   * @defaultValue 100 for every account
   */
  readonly batchLimitOf?: (account: string) => number | Promise<number>
  /** Attempts per batch before it is dropped. @defaultValue 5 */
  readonly maxAttempts?: number
  /** Delay before the first retry; doubled each time. @defaultValue 500 ms */
  readonly baseDelayMs?: number
  /** Longest delay between retries. @defaultValue 30000 ms */
  readonly maxDelayMs?: number
  /** Time allowed for one POST. @defaultValue 10000 ms */
  readonly timeoutMs?: number
  /** Called after every attempt. @defaultValue none */
  readonly log?: (entry: DeliveryLogEntry) => void
}

/** The delivery queue of processed items to configurations' callback URLs. */
export interface CallbackDelivery {
  /** Queue one processed item (pass as the engine's `onCallback`); never blocks, never throws. */
  push(event: ProcessedEvent): void
  /** Resolves once every queued item has been delivered or given up on, retries included. */
  flush(): Promise<void>
  /** Items queued or in flight. */
  pending(): number
  /** Items given up on after `maxAttempts` since creation. */
  dropped(): number
  /** Stop retrying: waiting retries are dropped at once and `flush` resolves. */
  close(): void
}

interface Batch {
  readonly url: string
  readonly account: string
  readonly items: unknown[]
  attempt: number
}

/**
 * Create the callback delivery queue: processed items (engine `onCallback` events) are grouped by account,
 * configuration, kind and URL, and POSTed as a JSON array of at most `callback_batch_limit` items
 * (`Content-Type: application/json`). A failed POST (network error, timeout, or a status other than 2xx) is retried
 * with exponential backoff up to `maxAttempts`, then dropped and counted. Destinations are checked against the
 * address policy (`addresses`: private, loopback and link-local refused by default; such a refusal is not
 * retried), redirects are not followed and at most 64 KiB of an answer is read. All work runs off the request path on
 * timers; `flush()` lets tests and shutdown wait for it.
 */
export function createCallbackDelivery(options: CallbackDeliveryOptions = {}): CallbackDelivery {
  const customFetch = options.fetch
  const check = callbackAddressCheck(options.addresses ?? {}, 'createCallbackDelivery: options.addresses')
  const maxAttempts = options.maxAttempts ?? 5
  const baseDelayMs = options.baseDelayMs ?? 500
  const maxDelayMs = options.maxDelayMs ?? 30_000
  const timeoutMs = options.timeoutMs ?? 10_000
  for (const [name, v] of [['maxAttempts', maxAttempts], ['baseDelayMs', baseDelayMs], ['maxDelayMs', maxDelayMs], ['timeoutMs', timeoutMs]] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < (name === 'maxAttempts' ? 1 : 0)) {
      throw new TypeError(`createCallbackDelivery: options.${name} must be a number >= ${name === 'maxAttempts' ? 1 : 0}, found ${String(v)}`)
    }
  }
  // Items not yet grouped into a batch, in arrival order, keyed by account/config/kind/url.
  const waiting = new Map<string, { url: string; account: string; items: unknown[] }>()
  // Timers pending (dispatch or retry), with the number of items a retry timer holds.
  const timers = new Map<ReturnType<typeof setTimeout>, number>()
  let inFlight = 0
  let inFlightItems = 0
  let queued = 0
  let droppedCount = 0
  let scheduled = false
  let closed = false
  let idleWaiters: Array<() => void> = []

  const settleIfIdle = (): void => {
    if (queued === 0 && inFlight === 0 && timers.size === 0 && !scheduled) {
      const w = idleWaiters
      idleWaiters = []
      for (const f of w) f()
    }
  }

  async function attempt(batch: Batch): Promise<void> {
    batch.attempt++
    let status: number | undefined
    let error: string | undefined
    let refused = false
    try {
      const url = new URL(batch.url)
      const body = encodeJson(batch.items)
      if (customFetch === undefined) status = await postChecked(url, body, check, timeoutMs)
      else {
        await checkBeforeFetch(url, check)
        const response = await customFetch(batch.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        })
        status = response.status
        await response.body?.cancel().catch(() => undefined)
      }
      if (status >= 200 && status < 300) {
        options.log?.({ url: batch.url, items: batch.items.length, attempt: batch.attempt, status, outcome: 'delivered', error: undefined })
        return
      }
      error = status >= 300 && status < 400 ? `callback answered ${status}; redirects are not followed` : `callback answered ${status}`
    } catch (e) {
      refused = e instanceof CallbackRefused || (e instanceof TypeError && /Invalid URL/i.test(e.message))
      error = e instanceof Error ? e.message : String(e)
    }
    // A destination the policy refuses (or no URL at all) will not become reachable by retrying.
    if (batch.attempt >= maxAttempts || closed || refused) {
      droppedCount += batch.items.length
      options.log?.({ url: batch.url, items: batch.items.length, attempt: batch.attempt, status, outcome: 'gave-up', error })
      return
    }
    options.log?.({ url: batch.url, items: batch.items.length, attempt: batch.attempt, status, outcome: 'retrying', error })
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (batch.attempt - 1))
    const timer = setTimeout(() => {
      timers.delete(timer)
      send(batch)
    }, delay)
    timer.unref?.()
    timers.set(timer, batch.items.length)
  }

  function send(batch: Batch): void {
    inFlight++
    inFlightItems += batch.items.length
    void attempt(batch).finally(() => {
      inFlight--
      inFlightItems -= batch.items.length
      settleIfIdle()
    })
  }

  async function dispatch(): Promise<void> {
    scheduled = false
    const groups = [...waiting.values()]
    waiting.clear()
    for (const g of groups) {
      queued -= g.items.length
      let limit = 100
      try {
        const l = await (options.batchLimitOf?.(g.account) ?? 100)
        if (Number.isInteger(l) && l >= 1) limit = l
      } catch {
        // keep the default batch size when the limit cannot be read
      }
      for (let i = 0; i < g.items.length; i += limit) send({ url: g.url, account: g.account, items: g.items.slice(i, i + limit), attempt: 0 })
    }
    settleIfIdle()
  }

  return {
    push(event) {
      if (closed) {
        droppedCount++
        return
      }
      const key = `${event.account}\u0000${event.configId}\u0000${event.kind}\u0000${event.callback}`
      let group = waiting.get(key)
      if (group === undefined) {
        group = { url: event.callback, account: event.account, items: [] }
        waiting.set(key, group)
      }
      group.items.push(event.output)
      queued++
      if (!scheduled) {
        scheduled = true
        // Items processed in one worker pass arrive within a few turns of the event loop: group them.
        const timer = setTimeout(() => {
          timers.delete(timer)
          void dispatch()
        }, 10)
        timer.unref?.()
        timers.set(timer, 0)
      }
    },
    flush() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve)
        settleIfIdle()
      })
    },
    pending: () => queued + inFlightItems + [...timers.values()].reduce((a, b) => a + b, 0),
    dropped: () => droppedCount,
    close() {
      closed = true
      for (const [t, items] of timers) {
        clearTimeout(t)
        droppedCount += items
      }
      timers.clear()
      scheduled = false
      droppedCount += queued
      queued = 0
      waiting.clear()
      settleIfIdle()
    },
  }
}
