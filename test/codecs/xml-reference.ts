// The XML decoder as it was before src/codecs/xml.ts replaced fast-xml-parser with its own element parser (issue 18:
// fast-xml-parser read text a character at a time). Kept as the reference of the differential test in xml.test.ts.
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { CodecError, lineColumnAt } from '../../src/codecs/errors.ts'
import { encodeJson } from '../../src/codecs/json.ts'

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

// One node of fast-xml-parser's preserveOrder output: `{ name: children }` or `{ '#text': text }`.
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
      text += String(child['#text'] ?? '')
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
  const valid = XMLValidator.validate(text)
  if (valid !== true) {
    const { line, col, msg } = valid.err
    throw new CodecError('ERR_MALFORMED_BODY', `malformed XML: ${msg} at line ${line}, column ${col}`, {
      line,
      column: col,
    })
  }
  const parser = new XMLParser({
    preserveOrder: true,
    // Attributes are read only to honour xsi:nil; data never travels in attributes.
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    processEntities: true,
    htmlEntities: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    maxNestedTags: maxDepth + 2,
  })
  let nodes: OrderedNode[]
  try {
    nodes = parser.parse(text) as OrderedNode[]
  } catch (e) {
    throw malformed(text, e instanceof Error ? e.message : String(e))
  }
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
