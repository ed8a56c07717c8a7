import { isCodecError } from '../codecs/errors.ts'
import { decodeJson, encodeJson, encodeJsonBytes } from '../codecs/json.ts'
import { assertWritable, toWritable, type PathStyle } from '../codecs/writable.ts'
import { decodeXml, encodeXml, encodeXmlError, XML_LIST_ITEMS } from '../codecs/xml.ts'
import type { Route, WireFormat } from './routes.ts'

/**
 * Decode a request body of a route: JSON whatever the `Content-Type` says (client-compat §2), or XML on `.xml`
 * paths with the route's expected root element(s). Malformed input throws the codecs' `ERR_MALFORMED_BODY` (400),
 * as does a value that could not be written back (a number out of range such as `1e400`, a lone surrogate),
 * naming its path (`$.metadata`, `/document/metadata`): stored, it would fail every answer that includes it.
 */
export function decodeBody(format: WireFormat, text: string, route: Route): { value: unknown; paths: PathStyle } {
  if (format === 'json') {
    const value = decodeJson(text)
    const paths: PathStyle = { style: 'json' }
    assertWritable(value, paths)
    return { value, paths }
  }
  const value = decodeXml(text, route.xmlRequestRoots ?? [route.xmlRoot])
  const paths: PathStyle = { style: 'xml', root: xmlRootName(text) ?? route.xmlRoot, listItems: XML_LIST_ITEMS }
  assertWritable(value, paths)
  return { value, paths }
}

/** Name of the root element of a well-formed XML text (declaration, comments and processing instructions skipped). */
function xmlRootName(text: string): string | undefined {
  const tag = /<([A-Za-z_][\w.:-]*)/g
  for (let m = tag.exec(text); m !== null; m = tag.exec(text)) {
    const before = text.lastIndexOf('<!--', m.index)
    if (before >= 0 && text.indexOf('-->', before) > m.index) continue
    return m[1]
  }
  return undefined
}

/**
 * Encode a response value: ASCII-only JSON without nulls, as its bytes (`encodeJsonBytes`: the bytes of `encodeJson`'s
 * text, converted once), or XML under `xmlRoot` (lists by the codec's tables) as text.
 */
export function encodeValue(format: WireFormat, value: unknown, xmlRoot: string): string | Uint8Array {
  return format === 'json' ? encodeJsonBytes(value) : encodeXml(value, xmlRoot)
}

/**
 * {@link encodeValue} for an answer that must not fail as a whole because of one item (processed documents are
 * removed from the queue as they are returned): when the value cannot be encoded, each item of a list that cannot is
 * replaced by its writable copy (`toWritable`: non-finite numbers left out, lone surrogates as U+FFFD), and the others
 * are sent as they are. `repaired` counts the items replaced.
 */
export function encodeAnswer(format: WireFormat, value: unknown, xmlRoot: string): { body: string | Uint8Array; repaired: number } {
  try {
    return { body: encodeValue(format, value, xmlRoot), repaired: 0 }
  } catch (e) {
    if (!isCodecError(e) || e.code !== 'ERR_UNENCODABLE') throw e
  }
  if (!Array.isArray(value)) return { body: encodeValue(format, toWritable(value), xmlRoot), repaired: 1 }
  const itemRoot = XML_LIST_ITEMS[xmlRoot] ?? 'item'
  let repaired = 0
  const items = value.map((item: unknown) => {
    try {
      encodeValue(format, item, itemRoot)
      return item
    } catch {
      repaired++
      return toWritable(item)
    }
  })
  return { body: encodeValue(format, items, xmlRoot), repaired }
}

/** The error body the clients read: `{"status", "message"}` or `<error><status/><message/></error>`; never empty. */
export function encodeError(format: WireFormat, status: number, message: string): string {
  const text = message === '' ? 'error' : message
  return format === 'json' ? encodeJson({ status, message: text }) : encodeXmlError(status, text)
}
