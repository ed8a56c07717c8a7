import { describe, expect, it } from 'vitest'
import { bodyText, decodeBody, encodeBody, encodeErrorBody, isCodecError } from '../../src/codecs/index.ts'

describe('codecs facade', () => {
  it('decodes either format into the same JSON form', () => {
    const json = decodeBody('[{"id":"1","text":"Good","tag":null}]', 'json', 'documents')
    const xml = decodeBody('<documents><document><id>1</id><text>Good</text></document></documents>', 'xml', 'documents')
    expect(json).toEqual([{ id: '1', text: 'Good', tag: null }])
    expect(xml).toEqual([{ id: '1', text: 'Good' }])
  })

  it('encodes either format, and error bodies that are never empty', () => {
    expect(encodeBody([{ id: '1', tag: null }], 'json', 'documents')).toBe('[{"id":"1"}]')
    expect(encodeBody([{ id: '1', tag: null }], 'xml', 'documents')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><documents><document><id>1</id></document></documents>',
    )
    expect(encodeErrorBody('json', 401, 'the signature does not match')).toBe('{"status":401,"message":"the signature does not match"}')
    expect(encodeErrorBody('xml', 401, 'no')).toBe('<?xml version="1.0" encoding="UTF-8"?><error><status>401</status><message>no</message></error>')
  })

  it('reads bytes as UTF-8 without crashing on invalid sequences', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x22, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0x22])
    const text = bodyText(bytes)
    expect(text).toBe('\uFEFF"😀\uFFFD"')
    expect(decodeBody(text, 'json', 'document')).toBe('😀\uFFFD')
  })

  it('reports malformed bodies of either format as codec errors with status 400', () => {
    for (const [body, format] of [['{', 'json'], ['<documents>', 'xml']] as const) {
      try {
        decodeBody(body, format, 'documents')
        expect.unreachable()
      } catch (e) {
        expect(isCodecError(e) && e.status === 400).toBe(true)
      }
    }
  })
})
