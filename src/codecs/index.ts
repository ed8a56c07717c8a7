import { decodeJson, encodeJson } from './json.ts'
import type { JsonDecodeOptions } from './json.ts'
import { decodeXml, encodeXml, encodeXmlError } from './xml.ts'
import type { XmlDecodeOptions } from './xml.ts'

export { CodecError, isCodecError, CODEC_ERROR_STATUS } from './errors.ts'
export type { CodecErrorCode, CodecErrorLocation } from './errors.ts'
export { decodeJson, encodeJson, quoteJsonString, withoutNulls } from './json.ts'
export type { JsonDecodeOptions, JsonValue } from './json.ts'
export { decodeXml, encodeXml, encodeXmlError, escapeXmlText, XML_LIST_ITEMS, XML_ROOTS } from './xml.ts'
export type { XmlDecodeOptions, XmlEncodeOptions, XmlValue } from './xml.ts'
export {
  chooseResponseEncoding,
  decodeRequestBody,
  encodeResponseBody,
  parseContentEncoding,
} from './compression.ts'
export type { ContentCoding, DecodeBodyOptions } from './compression.ts'

/** The wire format of a request, chosen by the path suffix: `.xml` is XML, `.json` or none is JSON. */
export type WireFormat = 'json' | 'xml'

/** Media type to send with a body of each format. */
export const WIRE_CONTENT_TYPES: Readonly<Record<WireFormat, string>> = Object.freeze({
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
})

/**
 * Bytes of a request body as text: UTF-8, invalid sequences replaced by U+FFFD (client-compat §2: mangled text must
 * not crash anything), a byte-order mark kept for the decoders to skip.
 */
export function bodyText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes)
}

/**
 * Decode a request body of either format into its JSON form. `rootKind` is the XML root element(s) expected and
 * is not used for JSON. Throws {@link CodecError} (`ERR_MALFORMED_BODY`, `ERR_BODY_TOO_LARGE`).
 */
export function decodeBody(
  text: string,
  format: WireFormat,
  rootKind: string | readonly string[],
  options: JsonDecodeOptions & XmlDecodeOptions = {},
): unknown {
  return format === 'xml' ? decodeXml(text, rootKind, options) : decodeJson(text, options)
}

/** Encode a response value in either format; `rootName` is the XML root (see `XML_ROOTS`), unused for JSON. */
export function encodeBody(value: unknown, format: WireFormat, rootName: string): string {
  return format === 'xml' ? encodeXml(value, rootName) : encodeJson(value)
}

/** The error body of either format: `{"status":…,"message":…}` or `<error><status/><message/></error>`. */
export function encodeErrorBody(format: WireFormat, status: number, message: string): string {
  return format === 'xml' ? encodeXmlError(status, message) : encodeJson({ status, message })
}
