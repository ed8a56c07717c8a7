import { decodeJson, encodeJson } from '../codecs/json.ts'
import { decodeXml, encodeXml, encodeXmlError } from '../codecs/xml.ts'
import type { Route, WireFormat } from './routes.ts'

/**
 * Decode a request body of a route: JSON whatever the `Content-Type` says (client-compat §2), or XML on `.xml`
 * paths with the route's expected root element(s). Malformed input throws the codecs' `ERR_MALFORMED_BODY` (400).
 */
export function decodeBody(format: WireFormat, text: string, route: Route): unknown {
  if (format === 'json') return decodeJson(text)
  return decodeXml(text, route.xmlRequestRoots ?? [route.xmlRoot])
}

/** Encode a response value: ASCII-only JSON without nulls, or XML under `xmlRoot` (lists by the codec's tables). */
export function encodeValue(format: WireFormat, value: unknown, xmlRoot: string): string {
  return format === 'json' ? encodeJson(value) : encodeXml(value, xmlRoot)
}

/** The error body the clients read: `{"status", "message"}` or `<error><status/><message/></error>`; never empty. */
export function encodeError(format: WireFormat, status: number, message: string): string {
  const text = message === '' ? 'error' : message
  return format === 'json' ? encodeJson({ status, message: text }) : encodeXmlError(status, text)
}
