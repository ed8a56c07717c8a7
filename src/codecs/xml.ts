import { CodecError, lineColumnAt } from './errors.ts'
import { encodeJson } from './json.ts'

/**
 * Lists in XML (spec §Conventions, client-compat §5): the plural wrapper element and the name of its items.
 * Encoding writes every array under one of these names with that item name (`item` for any other array); decoding
 * turns a wrapper whose children all carry the item name into an array.
 */
export const XML_LIST_ITEMS: Readonly<Record<string, string>> = Object.freeze({
  documents: 'document',
  collections: 'collection',
  phrases: 'phrase',
  themes: 'theme',
  mentions: 'mention',
  locations: 'location',
  words: 'word',
  categories: 'category',
  auto_categories: 'category',
  entities: 'entity',
  topics: 'topic',
  taxonomy: 'topic',
  facets: 'facet',
  attributes: 'attribute',
  details: 'sentence',
  relations: 'relation',
  opinions: 'opinion',
  intentions: 'intention',
  configurations: 'configuration',
  templates: 'template',
  rights: 'right',
  blacklist: 'item',
  samples: 'sample',
  queries: 'query',
  taxonomies: 'taxonomy',
  nodes: 'node',
  supported_languages: 'language',
  supported_features: 'features',
  statistics: 'statistics',
  values: 'value',
})

/**
 * Root element of each response kind (client-compat §5), for the handler to pass to {@link encodeXml}: lists use
 * the plural wrapper, single objects their own name. Errors use {@link encodeXmlError}.
 */
export const XML_ROOTS = Object.freeze({
  configurations: 'configurations',
  blacklist: 'blacklist',
  categories: 'categories',
  queries: 'queries',
  phrases: 'phrases',
  entities: 'entities',
  taxonomies: 'taxonomies',
  documents: 'documents',
  document: 'document',
  collections: 'collections',
  collection: 'collection',
  status: 'status',
  subscription: 'subscription',
  features: 'supported_features',
  statistics: 'statistics',
  templates: 'templates',
} as const)

/** Roots whose DELETE body may list bare ids: `<configurations><id>a</id><id>b</id></configurations>`. */
const ID_LIST_ROOTS: ReadonlySet<string> = new Set([
  'configurations',
  'queries',
  'categories',
  'phrases',
  'entities',
  'blacklist',
  'taxonomies',
  'documents',
  'collections',
])

/**
 * Elements whose text `true`/`false` (any case) is read as a boolean on input. Other text is left as a string
 * for the engine to reject with its own message.
 */
export const XML_BOOLEAN_FIELDS: ReadonlySet<string> = new Set([
  'is_primary',
  'auto_response',
  'auto_responding',
  'one_sentence_mode',
  'one_sentence',
  'process_html',
  'enforce_parent_matching',
  'is_imperative',
  'is_polar',
  'is_negated',
  'is_intensified',
  'is_about',
  'is_free',
  'confident',
  'return_source_text',
  'html_processing',
  // document and collection switches of a configuration (also list names in output: a wrapper with items stays a list)
  'detect_language',
  'auto_categories',
  'sentiment_phrases',
  'themes',
  'mentions',
  'named_entities',
  'user_entities',
  'opinions',
  'relations',
  'query_topics',
  'concept_topics',
  'model_sentiment',
  'intentions',
  'facets',
  'attributes',
])

/** Elements whose numeric text is read as a number on input, besides names ending in {@link NUMBER_SUFFIXES}. */
export const XML_NUMBER_FIELDS: ReadonlySet<string> = new Set([
  'weight',
  'modified',
  'timestamp',
  'time',
  'offset',
  'length',
  'index',
  'evidence',
  'hitcount',
  'count',
  'summary_size',
  'status',
  'api_version',
  'docs_balance',
  'expiration_date',
])

const NUMBER_SUFFIXES = ['_limit', '_threshold', '_score', '_count', '_balance', '_interval'] as const

const NUMERIC_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

function isNumberField(name: string): boolean {
  return XML_NUMBER_FIELDS.has(name) || NUMBER_SUFFIXES.some((s) => name.endsWith(s))
}

/** Options of {@link decodeXml}. */
export interface XmlDecodeOptions {
  /**
   * Deepest element nesting accepted.
   * @defaultValue 48
   */
  readonly maxDepth?: number
  /**
   * Most elements accepted in one body.
   * @defaultValue 100000
   */
  readonly maxElements?: number
  /**
   * Longest body accepted, in UTF-16 units.
   * @defaultValue 8388608
   */
  readonly maxLength?: number
}

/** A value {@link decodeXml} returns: the JSON form of the body. */
export type XmlValue = string | number | boolean | XmlValue[] | { [key: string]: XmlValue }

const DEFAULT_MAX_DEPTH = 48
const DEFAULT_MAX_ELEMENTS = 100_000
const DEFAULT_MAX_LENGTH = 8 * 1024 * 1024

function malformed(text: string, message: string, offset?: number, path?: string): CodecError {
  if (offset === undefined) {
    return new CodecError('ERR_MALFORMED_BODY', `malformed XML: ${message}`, path === undefined ? {} : { path })
  }
  const { line, column } = lineColumnAt(text, offset)
  return new CodecError('ERR_MALFORMED_BODY', `malformed XML: ${message} at line ${line}, column ${column}`, {
    line,
    column,
    offset,
  })
}

/**
 * One pass over the markup before any parser sees it: refuses DOCTYPE and ENTITY declarations (so no external
 * entity is ever resolved and no entity is expanded), and counts nesting and elements against the limits.
 * Comments, CDATA sections, processing instructions and quoted attribute values are skipped as such.
 */
function prescan(text: string, maxDepth: number, maxElements: number): void {
  let depth = 0
  let elements = 0
  let i = text.indexOf('<')
  while (i !== -1) {
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4)
      if (end < 0) throw malformed(text, 'unterminated comment', i)
      i = text.indexOf('<', end + 3)
      continue
    }
    if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9)
      if (end < 0) throw malformed(text, 'unterminated CDATA section', i)
      i = text.indexOf('<', end + 3)
      continue
    }
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2)
      if (end < 0) throw malformed(text, 'unterminated processing instruction', i)
      i = text.indexOf('<', end + 2)
      continue
    }
    if (text.startsWith('<!', i)) {
      const word = /^<!([A-Za-z]*)/.exec(text.slice(i, i + 12))?.[1] ?? ''
      const what = word.toUpperCase() === 'DOCTYPE' ? 'a DOCTYPE' : word.toUpperCase() === 'ENTITY' ? 'an ENTITY declaration' : `"<!${word}"`
      throw malformed(text, `${what} is not allowed (document type declarations and entities are refused)`, i)
    }
    // A tag: find its end, skipping quoted attribute values that may hold '>'.
    let j = i + 1
    let quote = 0
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j)
      if (quote !== 0) {
        if (c === quote) quote = 0
      } else if (c === 0x22 || c === 0x27) quote = c
      else if (c === 0x3e) break
    }
    if (j >= text.length) throw malformed(text, 'unterminated tag', i)
    if (text.charCodeAt(i + 1) === 0x2f) depth--
    else {
      elements++
      if (elements > maxElements) throw malformed(text, `more than ${maxElements} elements`, i)
      if (text.charCodeAt(j - 1) !== 0x2f) {
        depth++
        if (depth > maxDepth) throw malformed(text, `elements nested deeper than ${maxDepth} levels`, i)
      } else if (depth + 1 > maxDepth) {
        throw malformed(text, `elements nested deeper than ${maxDepth} levels`, i)
      }
    }
    i = text.indexOf('<', j + 1)
  }
}

// One node of the ordered form parseOrdered writes (the shape of fast-xml-parser's preserveOrder output, which it replaced):
// `{ name: children, ':@': attributes }`, `{ '#text': text }` or `{ '#cdata': [{ '#text': text }] }`.
type OrderedNode = Record<string, unknown>

function nodeName(node: OrderedNode): string | undefined {
  for (const key of Object.keys(node)) if (key !== ':@') return key
  return undefined
}

function setMember(obj: { [key: string]: XmlValue }, key: string, value: XmlValue): void {
  // defineProperty keeps an element named "__proto__" an ordinary member.
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true })
}

function typedScalar(name: string, text: string): XmlValue {
  const trimmed = text.trim()
  if (XML_BOOLEAN_FIELDS.has(name)) {
    const lower = trimmed.toLowerCase()
    if (lower === 'true') return true
    if (lower === 'false') return false
  }
  if (isNumberField(name) && NUMERIC_TEXT.test(trimmed)) return Number(trimmed)
  return text
}

/** `xsi:nil="true"` (any prefix), the way .NET clients write a member with no value: read as not given. */
function isNilElement(node: OrderedNode): boolean {
  const attributes = node[':@']
  if (typeof attributes !== 'object' || attributes === null) return false
  for (const [name, value] of Object.entries(attributes)) {
    if ((name === 'nil' || name.endsWith(':nil')) && String(value).trim() === 'true') return true
  }
  return false
}

interface DecodeContext {
  readonly text: string
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const NUMERIC_REFERENCE = /&#(?:(\d{1,8})|[xX]([0-9a-fA-F]{1,6}));/g

/**
 * Decode the five XML entities and character references in one regex pass (the parser is told to leave them, as
 * its general entity decoder costs about a microsecond per reference on large bodies). Any other `&name;` is kept
 * as text: nothing is expanded. A character reference to a code point XML cannot carry (`&#0;`, `&#xD800;`,
 * beyond U+10FFFF) is refused, naming the element.
 */
function decodeReferences(text: string, path: string, ctx: DecodeContext): string {
  if (!text.includes('&')) return text
  let out = text
  if (out.includes('&#')) {
    out = out.replace(NUMERIC_REFERENCE, (whole, dec: string | undefined, hex: string | undefined) => {
      const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16)
      const allowed = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
      if (!allowed) throw malformed(ctx.text, `character reference ${whole} in <${path.slice(path.lastIndexOf('/') + 1).replace(/\[\d+\]$/, '')}> at ${path} is not a character XML can carry`, undefined, path)
      return String.fromCodePoint(cp)
    })
  }
  // Native passes without a callback; &amp; last, so that "&amp;lt;" stays "&lt;" and "&amp;#233;" stays "&#233;".
  if (out.includes('&lt;')) out = out.replaceAll('&lt;', '<')
  if (out.includes('&gt;')) out = out.replaceAll('&gt;', '>')
  if (out.includes('&quot;')) out = out.replaceAll('&quot;', '"')
  if (out.includes('&apos;')) out = out.replaceAll('&apos;', "'")
  if (out.includes('&amp;')) out = out.replaceAll('&amp;', '&')
  return out
}

/** Decode one element; `undefined` means "omit" (an empty typed scalar, read as not given). */
function decodeElement(
  name: string,
  children: readonly OrderedNode[],
  path: string,
  ctx: DecodeContext,
  isRoot: boolean,
): XmlValue | undefined {
  const elements: { name: string; children: OrderedNode[]; isNil: boolean }[] = []
  let text = ''
  for (const child of children) {
    const childName = nodeName(child)
    if (childName === undefined || childName.startsWith('?')) continue
    if (childName === '#text') {
      text += decodeReferences(String(child['#text'] ?? ''), path, ctx)
      continue
    }
    if (childName === '#cdata') {
      // CDATA content is literal: no reference in it is decoded.
      const parts = child['#cdata']
      if (Array.isArray(parts)) for (const part of parts as OrderedNode[]) text += String(part['#text'] ?? '')
      continue
    }
    const grand = child[childName]
    elements.push({ name: childName, children: Array.isArray(grand) ? (grand as OrderedNode[]) : [], isNil: isNilElement(child) })
  }
  if (elements.length === 0) {
    if (text.length > 0) return typedScalar(name, text)
    if (name in XML_LIST_ITEMS) return []
    if (XML_BOOLEAN_FIELDS.has(name) || isNumberField(name)) return undefined
    return ''
  }
  if (text.trim().length > 0) {
    throw malformed(ctx.text, `element <${name}> at ${path} mixes text ${JSON.stringify(text.trim().slice(0, 40))} with child elements`, undefined, path)
  }
  const itemName = XML_LIST_ITEMS[name]
  const first = elements[0]?.name
  const sameName = first !== undefined && elements.every((e) => e.name === first)
  const isList =
    itemName !== undefined && sameName && (first === itemName || (isRoot && first === 'id' && ID_LIST_ROOTS.has(name)))
  if (isList) {
    const items: XmlValue[] = []
    elements.forEach((e, i) => {
      if (e.isNil) return
      const item = decodeElement(e.name, e.children, `${path}/${e.name}[${i + 1}]`, ctx, false)
      if (item !== undefined) items.push(item)
    })
    return items
  }
  const obj: { [key: string]: XmlValue } = {}
  const seen = new Map<string, number>()
  for (const e of elements) {
    if (e.isNil) continue
    const count = (seen.get(e.name) ?? 0) + 1
    seen.set(e.name, count)
    const childPath = `${path}/${e.name}`
    const value = decodeElement(e.name, e.children, childPath, ctx, false)
    if (value === undefined) continue
    if (count === 1) {
      setMember(obj, e.name, value)
      continue
    }
    // An element repeated outside a known wrapper: collect the repeats into an array under its name.
    const existing = obj[e.name]
    if (count === 2 && existing !== undefined) setMember(obj, e.name, [existing, value])
    else if (Array.isArray(existing)) existing.push(value)
    else setMember(obj, e.name, value)
  }
  return obj
}

const XML_NAME_IN = /^[A-Za-z_:\u00C0-\uFFFF][\w.:\-\u00B7\u00C0-\uFFFF]*$/
const ATTRIBUTE = /\s+([^\s=/>]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y
const BAD_AMPERSAND = /&(?!(?:[A-Za-z_:][\w.:-]*|#\d+|#x[0-9a-fA-F]+);)/

/**
 * Parse well-formed XML into the ordered node form {@link decodeElement} reads (`{ name: children, ':@': attributes }`,
 * `{ '#text': text }` with references left for {@link decodeReferences}, `{ '#cdata': [{ '#text': text }] }`). It
 * checks what the decoder relies on: tags balanced and properly nested, names and attributes well formed (no
 * duplicate), `&` only as the start of a reference, no text outside the root element. The XML declaration,
 * processing instructions and comments are skipped; {@link prescan} has already refused DOCTYPE and ENTITY
 * declarations and bounded depth and element count. Each step jumps to the next `<` with indexOf, so a body is
 * read in time linear in its size, with text taken as slices.
 */
function parseOrdered(text: string): OrderedNode[] {
  const root: OrderedNode[] = []
  const stack: Array<{ name: string; children: OrderedNode[]; at: number }> = []
  let children = root
  let i = 0
  const n = text.length
  const textRun = (from: number, to: number): void => {
    const run = text.slice(from, to)
    const bad = BAD_AMPERSAND.exec(run)
    if (bad !== null) throw malformed(text, "char '&' is not expected (write &amp; for a literal ampersand)", from + bad.index)
    if (stack.length === 0) {
      if (run.trim() !== '') throw malformed(text, `text ${JSON.stringify(run.trim().slice(0, 20))} outside the root element`, from)
      return
    }
    children.push({ '#text': run })
  }
  while (i < n) {
    const lt = text.indexOf('<', i)
    const end = lt < 0 ? n : lt
    if (end > i) textRun(i, end)
    if (lt < 0) break
    if (text.startsWith('<!--', lt)) {
      const e = text.indexOf('-->', lt + 4)
      if (e < 0) throw malformed(text, 'unterminated comment', lt)
      i = e + 3
      continue
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const e = text.indexOf(']]>', lt + 9)
      if (e < 0) throw malformed(text, 'unterminated CDATA section', lt)
      if (stack.length === 0) throw malformed(text, 'a CDATA section outside the root element', lt)
      children.push({ '#cdata': [{ '#text': text.slice(lt + 9, e) }] })
      i = e + 3
      continue
    }
    if (text.startsWith('<?', lt)) {
      const e = text.indexOf('?>', lt + 2)
      if (e < 0) throw malformed(text, 'unterminated processing instruction', lt)
      i = e + 2
      continue
    }
    if (text.startsWith('<!', lt)) throw malformed(text, `"${text.slice(lt, lt + 9)}" is not allowed`, lt)
    // The end of the tag, skipping quoted attribute values that may hold '>'.
    let j = lt + 1
    let quote = 0
    for (; j < n; j++) {
      const c = text.charCodeAt(j)
      if (quote !== 0) {
        if (c === quote) quote = 0
      } else if (c === 0x22 || c === 0x27) quote = c
      else if (c === 0x3e) break
    }
    if (j >= n) throw malformed(text, 'unterminated tag', lt)
    const inner = text.slice(lt + 1, j)
    i = j + 1
    if (inner.startsWith('/')) {
      const name = inner.slice(1).trimEnd()
      const open = stack.pop()
      if (open === undefined) throw malformed(text, `closing tag '${name}' has no opening tag`, lt)
      if (open.name !== name) {
        const o = lineColumnAt(text, open.at)
        throw malformed(text, `Expected closing tag '${open.name}' (opened in line ${o.line}, col ${o.column}) instead of closing tag '${name}'.`, lt)
      }
      children = stack[stack.length - 1]?.children ?? root
      continue
    }
    const selfClosing = inner.endsWith('/')
    const body = selfClosing ? inner.slice(0, -1) : inner
    const name = /^[^\s/>]*/.exec(body)?.[0] ?? ''
    if (!XML_NAME_IN.test(name)) throw malformed(text, `invalid tag name ${JSON.stringify(name)}`, lt)
    const attributes: Record<string, string> = Object.create(null) as Record<string, string>
    let at = name.length
    let count = 0
    ATTRIBUTE.lastIndex = at
    for (let m = ATTRIBUTE.exec(body); m !== null; m = ATTRIBUTE.exec(body)) {
      const key = m[1]!
      if (!XML_NAME_IN.test(key)) throw malformed(text, `invalid attribute name ${JSON.stringify(key)} in <${name}>`, lt)
      if (key in attributes) throw malformed(text, `attribute ${key} repeated in <${name}>`, lt)
      const raw = m[2] ?? m[3] ?? ''
      if (BAD_AMPERSAND.test(raw)) throw malformed(text, `char '&' is not expected in attribute ${key} of <${name}>`, lt)
      attributes[key] = raw.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => XML_ENTITIES[e] ?? '')
      count++
      at = ATTRIBUTE.lastIndex
    }
    if (body.slice(at).trim() !== '') throw malformed(text, `malformed attributes ${JSON.stringify(body.slice(at).trim().slice(0, 30))} in <${name}>`, lt)
    const childList: OrderedNode[] = []
    const node: OrderedNode = { [name]: childList }
    if (count > 0) node[':@'] = attributes
    children.push(node)
    if (!selfClosing) {
      stack.push({ name, children: childList, at: lt })
      children = childList
    }
  }
  const open = stack[stack.length - 1]
  if (open !== undefined) throw malformed(text, `Unclosed tag '${open.name}'`, open.at)
  return root
}

/**
 * Parse a request body in XML into the plain value its JSON form would give, so the handler treats both formats
 * alike. Lists are read by {@link XML_LIST_ITEMS} (`<documents><document>…</document></documents>` -> array;
 * items that are text only become strings, as the `documents` of a collection); a DELETE body
 * `<configurations><id>a</id><id>b</id></configurations>` becomes `["a", "b"]`; elements of
 * {@link XML_BOOLEAN_FIELDS} and number fields get their JSON type back; an empty typed element is omitted (not
 * given), an empty list wrapper is `[]`, an element with `xsi:nil="true"` is omitted. Other attributes (`xmlns:xsi`,
 * …) and the XML declaration are ignored.
 *
 * `rootKind` names the root element(s) expected. Security: DOCTYPE and ENTITY declarations are refused before
 * parsing (no external entity is resolved, no entity expanded; only the five XML entities and character references
 * are decoded); depth, element count and length are limited. Every problem throws {@link CodecError}
 * `ERR_MALFORMED_BODY` naming it with a line and column or an element path (`ERR_BODY_TOO_LARGE` for length).
 */
export function decodeXml(body: string, rootKind: string | readonly string[], options: XmlDecodeOptions = {}): XmlValue {
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH
  if (body.length > maxLength) {
    throw new CodecError('ERR_BODY_TOO_LARGE', `XML body of ${body.length} characters is over the limit of ${maxLength}`)
  }
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body
  if (text.trim() === '') throw malformed(text, 'empty body: expected a root element')
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH
  prescan(text, maxDepth, options.maxElements ?? DEFAULT_MAX_ELEMENTS)
  // Our own element parser (below): fast-xml-parser's validator and parser read text a character at a time and held
  // the event loop for seconds on a 2.2 MB body; this one moves from markup to markup with indexOf.
  const nodes = parseOrdered(text)
  const roots = nodes.filter((n) => {
    const name = nodeName(n)
    return name !== undefined && name !== '#text' && !name.startsWith('?')
  })
  const root = roots[0]
  const rootName = root === undefined ? undefined : nodeName(root)
  if (root === undefined || rootName === undefined) throw malformed(text, 'no root element')
  if (roots.length > 1) throw malformed(text, `more than one root element (<${rootName}> and <${String(nodeName(roots[1] ?? {}))}>)`)
  const expected = typeof rootKind === 'string' ? [rootKind] : rootKind
  if (!expected.includes(rootName)) {
    throw malformed(text, `expected root element ${expected.map((n) => `<${n}>`).join(' or ')}, found <${rootName}>`)
  }
  const rootChildren = root[rootName]
  const value = decodeElement(rootName, Array.isArray(rootChildren) ? (rootChildren as OrderedNode[]) : [], `/${rootName}`, { text }, true)
  return value ?? ''
}

/** Options of {@link encodeXml}. */
export interface XmlEncodeOptions {
  /**
   * Write the `<?xml version="1.0" encoding="UTF-8"?>` declaration first.
   * @defaultValue true
   */
  readonly declaration?: boolean
  /**
   * Deepest nesting written before giving up (guards against cycles).
   * @defaultValue 256
   */
  readonly maxDepth?: number
}

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/

// Markup characters, CR (kept through parsers' line-end normalisation), and everything outside printable ASCII.
const TEXT_ESCAPES = /[&<>\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u{10ffff}]/gu

function escapeTextChar(ch: string): string {
  if (ch === '&') return '&amp;'
  if (ch === '<') return '&lt;'
  if (ch === '>') return '&gt;'
  const cp = ch.codePointAt(0) ?? 0xfffd
  // Characters XML 1.0 cannot carry (C0 controls, lone surrogates, U+FFFE/U+FFFF) become U+FFFD.
  const allowed =
    cp === 0x0d || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
  return `&#x${(allowed ? cp : 0xfffd).toString(16).toUpperCase()};`
}

/**
 * Escape text for element content: ASCII-only output (non-ASCII as character references, which every XML parser
 * reads), markup characters escaped, characters XML cannot carry replaced by U+FFFD.
 */
export function escapeXmlText(text: string): string {
  return text.replace(TEXT_ESCAPES, escapeTextChar)
}

/**
 * Write a response value as XML under `rootName` (client-compat §5): elements only, arrays as a plural wrapper
 * with singular items ({@link XML_LIST_ITEMS}, `item` otherwise), booleans `true`/`false`, integers without
 * decimals, `null`/`undefined` members and every `modified` element omitted, a non-string `metadata` written as
 * its JSON text. Output is ASCII. Throws {@link CodecError} `ERR_UNENCODABLE` naming the path for a key that is
 * not an XML name, a non-finite number or a value with no XML form.
 */
export function encodeXml(value: unknown, rootName: string, options: XmlEncodeOptions = {}): string {
  const out: string[] = []
  if (options.declaration ?? true) out.push('<?xml version="1.0" encoding="UTF-8"?>')
  writeElement(rootName, value, rootName, 0, options.maxDepth ?? 256, out)
  return out.join('')
}

function unencodable(message: string, path: string): CodecError {
  return new CodecError('ERR_UNENCODABLE', `${message} at ${path}`, { path })
}

function writeElement(name: string, value: unknown, path: string, depth: number, maxDepth: number, out: string[]): void {
  if (value === null || value === undefined || name === 'modified') return
  if (!XML_NAME.test(name) || name.toLowerCase().startsWith('xml')) {
    throw unencodable(`${JSON.stringify(name)} is not a usable XML element name`, path)
  }
  switch (typeof value) {
    case 'string':
      out.push(value === '' ? `<${name}/>` : `<${name}>${escapeXmlText(value)}</${name}>`)
      return
    case 'boolean':
      out.push(`<${name}>${value ? 'true' : 'false'}</${name}>`)
      return
    case 'number':
      if (!Number.isFinite(value)) throw unencodable(`cannot write ${String(value)} as XML`, path)
      out.push(`<${name}>${String(value)}</${name}>`)
      return
    case 'object':
      break
    default:
      throw unencodable(`cannot write a ${typeof value} as XML`, path)
  }
  if (name === 'metadata') {
    // Metadata is JSON-only in the contract: an object or array travels as its (ASCII) JSON text.
    out.push(`<${name}>${escapeXmlText(encodeJson(value))}</${name}>`)
    return
  }
  const withToJson = value as { toJSON?: unknown }
  if (typeof withToJson.toJSON === 'function') {
    writeElement(name, (withToJson.toJSON as () => unknown).call(value), path, depth, maxDepth, out)
    return
  }
  if (depth >= maxDepth) throw unencodable(`value nested deeper than ${maxDepth} levels (a cycle?)`, path)
  if (Array.isArray(value)) {
    const itemName = XML_LIST_ITEMS[name] ?? 'item'
    if (value.length === 0) {
      out.push(`<${name}/>`)
      return
    }
    out.push(`<${name}>`)
    value.forEach((item, i) => writeElement(itemName, item, `${path}/${itemName}[${i + 1}]`, depth + 1, maxDepth, out))
    out.push(`</${name}>`)
    return
  }
  const keys = Object.keys(value).filter((k) => {
    const v = (value as Record<string, unknown>)[k]
    return v !== null && v !== undefined && k !== 'modified'
  })
  if (keys.length === 0) {
    out.push(`<${name}/>`)
    return
  }
  out.push(`<${name}>`)
  for (const key of keys) {
    writeElement(key, (value as Record<string, unknown>)[key], `${path}/${key}`, depth + 1, maxDepth, out)
  }
  out.push(`</${name}>`)
}

/** The XML error body the clients read: `<error><status>400</status><message>…</message></error>`. */
export function encodeXmlError(status: number, message: string): string {
  return encodeXml({ status, message }, 'error')
}
