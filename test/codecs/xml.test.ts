import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isCodecError } from '../../src/codecs/errors.ts'
import type { CodecError } from '../../src/codecs/errors.ts'
import { decodeXml, encodeXml, encodeXmlError, XML_LIST_ITEMS, XML_ROOTS } from '../../src/codecs/xml.ts'
import type { XmlValue } from '../../src/codecs/xml.ts'

function refused(body: string, root: string | readonly string[], options = {}): CodecError {
  try {
    decodeXml(body, root, options)
  } catch (e) {
    if (isCodecError(e)) return e
    throw e
  }
  throw new Error(`expected ${body.slice(0, 80)} to be refused`)
}

const ASCII = /^[\x00-\x7f]*$/

describe('decodeXml: request bodies in their JSON form', () => {
  it('reads a configuration with declaration, xmlns attributes and typed values', () => {
    const body = `<?xml version="1.0" encoding="utf-8"?>
<configurations xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <configuration>
    <config_id>c-1</config_id>
    <name>Caf&#xE9; &amp; bar</name>
    <is_primary>false</is_primary>
    <auto_response>True</auto_response>
    <alphanumeric_threshold>80</alphanumeric_threshold>
    <concept_topics_threshold>0.45</concept_topics_threshold>
    <callback/>
    <document>
      <themes>true</themes>
      <themes_limit>0</themes_limit>
      <pos_types>Noun,Verb</pos_types>
    </document>
    <collection><facets>false</facets><facets_limit>15</facets_limit></collection>
  </configuration>
</configurations>`
    expect(decodeXml(body, 'configurations')).toEqual([
      {
        config_id: 'c-1',
        name: 'Café & bar',
        is_primary: false,
        auto_response: true,
        alphanumeric_threshold: 80,
        concept_topics_threshold: 0.45,
        callback: '',
        document: { themes: true, themes_limit: 0, pos_types: 'Noun,Verb' },
        collection: { facets: false, facets_limit: 15 },
      },
    ])
  })

  it('omits members marked xsi:nil and ignores other attributes', () => {
    const body =
      '<configurations xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><configuration><name lang="en">n</name>' +
      '<callback xsi:nil="true" /><document><themes xsi:nil="true"/><themes_limit>2</themes_limit></document></configuration></configurations>'
    expect(decodeXml(body, 'configurations')).toEqual([{ name: 'n', document: { themes_limit: 2 } }])
  })

  it('keeps ids and names strings even when they look like numbers or booleans', () => {
    expect(decodeXml('<queries><query><id>42</id><name>true</name><query>"a" AND b</query></query></queries>', 'queries')).toEqual([
      { id: '42', name: 'true', query: '"a" AND b' },
    ])
  })

  it('leaves untyped text in a typed field for the engine to reject, and omits an empty typed field', () => {
    expect(decodeXml('<phrases><phrase><name>bad</name><weight>heavy</weight></phrase><phrase><name>x</name><weight/></phrase></phrases>', 'phrases')).toEqual([
      { name: 'bad', weight: 'heavy' },
      { name: 'x' },
    ])
  })

  it.each(['configurations', 'queries', 'categories', 'phrases', 'entities', 'taxonomies', 'blacklist'])(
    'reads the DELETE body of %s as an array of ids',
    (root) => {
      expect(decodeXml(`<${root}><id>a</id><id>b c</id></${root}>`, root)).toEqual(['a', 'b c'])
      expect(decodeXml(`<${root}><id>only</id></${root}>`, root)).toEqual(['only'])
    },
  )

  it('reads blacklist items and category samples as strings', () => {
    expect(decodeXml('<blacklist><item>spam*</item><item>ads</item></blacklist>', 'blacklist')).toEqual(['spam*', 'ads'])
    expect(
      decodeXml('<categories><category><name>Food</name><weight>0.3</weight><samples><sample>pizza</sample><sample>pasta</sample></samples></category></categories>', 'categories'),
    ).toEqual([{ name: 'Food', weight: 0.3, samples: ['pizza', 'pasta'] }])
  })

  it('reads a batch, a single document and a collection whose documents are text', () => {
    expect(
      decodeXml('<documents><document><id>1</id><text>Good  food </text><tag>t</tag></document><document><id>2</id><text>Bad</text></document></documents>', 'documents'),
    ).toEqual([
      { id: '1', text: 'Good  food ', tag: 't' },
      { id: '2', text: 'Bad' },
    ])
    expect(decodeXml('<document><id>1</id><text><![CDATA[a <b> & c]]></text></document>', ['document', 'documents'])).toEqual({
      id: '1',
      text: 'a <b> & c',
    })
    expect(decodeXml('<collection><id>c</id><documents><document>one</document><document>two</document></documents></collection>', 'collection')).toEqual({
      id: 'c',
      documents: ['one', 'two'],
    })
    expect(decodeXml('<documents/>', 'documents')).toEqual([])
  })

  it('reads a taxonomy with nested nodes and topics', () => {
    const body =
      '<taxonomies><taxonomy><name>T</name><nodes><node><name>A</name><enforce_parent_matching>true</enforce_parent_matching>' +
      '<topics><topic><id>q1</id><type>query</type></topic></topics><nodes><node><name>A1</name></node></nodes></node></nodes></taxonomy></taxonomies>'
    expect(decodeXml(body, 'taxonomies')).toEqual([
      {
        name: 'T',
        nodes: [{ name: 'A', enforce_parent_matching: true, topics: [{ id: 'q1', type: 'query' }], nodes: [{ name: 'A1' }] }],
      },
    ])
  })

  it('decodes non-ASCII, character references and a byte-order mark', () => {
    expect(decodeXml('\uFEFF<document><text>😀 &#x1F600; &#128512; &lt;ok&gt;</text></document>', 'document')).toEqual({
      text: '😀 😀 😀 <ok>',
    })
  })

  it('keeps an element named __proto__ from touching prototypes', () => {
    try {
      const value = decodeXml('<document><__proto__><polluted>yes</polluted></__proto__></document>', 'document')
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    } catch (e) {
      expect(isCodecError(e)).toBe(true)
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })
})

describe('decodeXml: hostile and malformed input', () => {
  it('refuses billion laughs before any expansion', () => {
    const lol = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<documents><document><text>&lol3;</text></document></documents>`
    const error = refused(lol, 'documents')
    expect(error.code).toBe('ERR_MALFORMED_BODY')
    expect(error.message).toMatch(/a DOCTYPE is not allowed .* at line 2, column 1/)
  })

  it('refuses an external entity', () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><document><text>&xxe;</text></document>'
    expect(refused(xxe, 'document').message).toMatch(/DOCTYPE is not allowed/)
    expect(refused('<document><text>x</text></document><!ENTITY e "x">', 'document').message).toMatch(/ENTITY declaration is not allowed/)
  })

  it('leaves an undeclared entity reference as text (nothing is expanded)', () => {
    expect(decodeXml('<document><text>&xxe; &nbsp;</text></document>', 'document')).toMatchObject({ text: expect.stringContaining('&xxe;') as unknown })
  })

  it('does not mistake markup inside CDATA or comments for a DOCTYPE', () => {
    expect(decodeXml('<document><!-- <!DOCTYPE x> --><text><![CDATA[<!DOCTYPE y>]]></text></document>', 'document')).toEqual({
      text: '<!DOCTYPE y>',
    })
  })

  it('refuses deep nesting and too many elements, naming the limit', () => {
    const deep = '<document>' + '<a>'.repeat(100_000) + '</a>'.repeat(100_000) + '</document>'
    expect(refused(deep, 'document').message).toMatch(/nested deeper than 48 levels at line 1, column \d+/)
    const wide = '<documents>' + '<document><text>x</text></document>'.repeat(600) + '</documents>'
    expect(refused(wide, 'documents', { maxElements: 1000 }).message).toMatch(/more than 1000 elements/)
    expect(decodeXml(wide, 'documents')).toHaveLength(600)
  })

  it('refuses a body over the length limit as too large', () => {
    const error = refused('<document><text>' + 'x'.repeat(2000) + '</text></document>', 'document', { maxLength: 1000 })
    expect(error.code).toBe('ERR_BODY_TOO_LARGE')
    expect(error.status).toBe(413)
  })

  it.each([
    ['', 'document', /empty body/],
    ['   ', 'document', /empty body/],
    ['not xml', 'document', /no root element|malformed XML/],
    ['<documents><document><text>a</text></documents>', 'documents', /Expected closing tag 'document'.* at line 1, column \d+/],
    ['<documents>\n<document>\n<text>a</text>\n</document>', 'documents', /Unclosed tag 'documents'/],
    ['<queries><query><name>a</name></query></queries>', 'phrases', /expected root element <phrases>, found <queries>/],
    ['<document><text>a</text></document><document/>', 'document', /more than one root element/],
    ['<document><text>x<b>y</b></text></document>', 'document', /element <text> at \/document\/text mixes text "x" with child elements/],
    ['<document><text>a</text', 'document', /unterminated tag/],
    ['<document><!-- open', 'document', /unterminated comment/],
  ])('refuses %j naming the problem', (body, root, message) => {
    const error = refused(body, root)
    expect(error.code).toBe('ERR_MALFORMED_BODY')
    expect(error.status).toBe(400)
    expect(error.message).toMatch(message)
  })
})

describe('decodeXml: references decoded in one pass (issue 18: a 2.2 MB body took 3.1 s)', () => {
  it('decodes the five XML entities and decimal and hex character references, leaves others as text', () => {
    expect(decodeXml('<document><text>&amp;&lt;&gt;&quot;&apos; &#233;&#xE9;&#x1F600; &nbsp; &amp;amp;</text></document>', 'document')).toEqual({
      text: '&<>"\' \u00e9\u00e9\u{1F600} &nbsp; &amp;',
    })
  })

  it('keeps CDATA literal, references included, and joins it with the text around it', () => {
    expect(decodeXml('<document><text>a &amp; <![CDATA[x &amp; <y>]]> b</text></document>', 'document')).toEqual({ text: 'a & x &amp; <y> b' })
  })

  it('refuses character references XML cannot carry, naming the element', () => {
    for (const ref of ['&#0;', '&#x1;', '&#xD800;', '&#xFFFE;', '&#x110000;']) {
      const error = refused(`<documents><document><text>a${ref}</text></document></documents>`, 'documents')
      expect(error.message, ref).toMatch(/is not a character XML can carry/)
      expect(error.location.path).toBe('/documents/document[1]/text')
    }
  })

  it('decodes a 2.2 MB body of references to the same text as before', () => {
    const body = '<documents><document><id>1</id><text>' + 'a &amp; b &#233; '.repeat(130_000) + '</text></document></documents>'
    expect(body.length).toBeGreaterThan(2_200_000)
    const [doc] = decodeXml(body, 'documents') as Array<{ text: string }>
    expect(doc?.text).toBe('a & b \u00e9 '.repeat(130_000))
  })
})

describe('decodeXml: the element parser on truncated and shuffled input', () => {
  const doc =
    '<?xml version="1.0"?><!-- c --><documents xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><document><id>1</id>' +
    '<text>a &amp; b &#233; <![CDATA[<raw> &amp;]]></text><tag xsi:nil="true"/></document><document><id>2</id><text>x</text></document></documents>'

  it('decodes the whole document', () => {
    expect(decodeXml(doc, 'documents')).toEqual([{ id: '1', text: 'a & b \u00e9 <raw> &amp;' }, { id: '2', text: 'x' }])
  })

  it('should refuse every truncation with a located ERR_MALFORMED_BODY', () => {
    for (let cut = 1; cut < doc.length; cut++) {
      const error = refused(doc.slice(0, cut), 'documents')
      expect(error.code, doc.slice(0, cut)).toBe('ERR_MALFORMED_BODY')
    }
  })

  it.each([
    ['<documents><document a="1" a="2"><id>1</id></document></documents>', /attribute a repeated/],
    ['<documents><document a=1><id>1</id></document></documents>', /malformed attributes/],
    ['<documents><document><id>1 & 2</id></document></documents>', /char '&' is not expected/],
    ['<documents></document></documents>', /Expected closing tag 'documents'/],
    ['</documents>', /closing tag 'documents' has no opening tag/],
    ['<documents><1bad/></documents>', /invalid tag name/],
    ['text<documents/>', /outside the root element/],
  ])('refuses %j', (body, message) => {
    expect(refused(body, 'documents').message).toMatch(message)
  })
})

describe('encodeXml: responses', () => {
  it('writes lists as plural wrappers of singular items, booleans as true/false, without modified or nulls', () => {
    const doc = {
      id: '1',
      status: 'PROCESSED',
      modified: 1551274346,
      tag: null,
      sentiment_score: 0.5,
      details: [{ is_imperative: false, is_polar: true, words: [{ title: 'Good', tag: 'ADJ', sentiment_score: 0.6 }] }],
      themes: [{ title: 'food', evidence: 2, mentions: [{ label: 'food', locations: [{ offset: 5, length: 4 }] }] }],
      auto_categories: [{ title: 'Food', categories: [{ title: 'Pizza', type: 'leaf' }] }],
      taxonomy: [{ title: 'Node', topics: [{ title: 'Leaf' }] }],
    }
    expect(encodeXml([doc], XML_ROOTS.documents)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><documents><document><id>1</id><status>PROCESSED</status><sentiment_score>0.5</sentiment_score>' +
        '<details><sentence><is_imperative>false</is_imperative><is_polar>true</is_polar><words><word><title>Good</title><tag>ADJ</tag><sentiment_score>0.6</sentiment_score></word></words></sentence></details>' +
        '<themes><theme><title>food</title><evidence>2</evidence><mentions><mention><label>food</label><locations><location><offset>5</offset><length>4</length></location></locations></mention></mentions></theme></themes>' +
        '<auto_categories><category><title>Food</title><categories><category><title>Pizza</title><type>leaf</type></category></categories></category></auto_categories>' +
        '<taxonomy><topic><title>Node</title><topics><topic><title>Leaf</title></topic></topics></topic></taxonomy>' +
        '</document></documents>',
    )
  })

  it.each([
    ['configurations', [{ id: 'c', config_id: 'c', name: 'n' }], '<configurations><configuration><id>c</id>'],
    ['blacklist', [{ id: 'b', name: 'spam' }], '<blacklist><item><id>b</id><name>spam</name></item></blacklist>'],
    ['categories', [{ name: 'F', samples: ['a'] }], '<categories><category><name>F</name><samples><sample>a</sample></samples>'],
    ['queries', [{ name: 'q', query: 'a AND b' }], '<queries><query><name>q</name>'],
    ['phrases', [{ name: 'p', weight: -1.5 }], '<phrases><phrase><name>p</name><weight>-1.5</weight>'],
    ['entities', [{ name: 'e', type: 'Company' }], '<entities><entity><name>e</name>'],
    ['taxonomies', [{ name: 't', nodes: [{ name: 'n' }] }], '<taxonomies><taxonomy><name>t</name><nodes><node><name>n</name></node></nodes>'],
    ['collections', [{ id: 'x', facets: [{ label: 'f', attributes: [{ label: 'a', count: 2 }] }] }], '<collections><collection><id>x</id><facets><facet><label>f</label><attributes><attribute><label>a</label><count>2</count>'],
    ['status', { api_version: '4.2', supported_languages: ['English', 'French'] }, '<status><api_version>4.2</api_version><supported_languages><language>English</language><language>French</language></supported_languages></status>'],
    ['supported_features', [{ id: 'en', language: 'English' }], '<supported_features><features><id>en</id>'],
    ['statistics', [{ calls_data: 3, values: [{ time: 0 }] }], '<statistics><statistics><calls_data>3</calls_data><values><value><time>0</time></value></values>'],
  ])('writes the %s root as the clients read it', (root, value, expected) => {
    expect(encodeXml(value, root)).toContain(expected)
  })

  it('writes the error body', () => {
    expect(encodeXmlError(400, 'text is missing at documents[0] & <more>')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><error><status>400</status><message>text is missing at documents[0] &amp; &lt;more&gt;</message></error>',
    )
  })

  it('writes ASCII only, replacing characters XML cannot carry', () => {
    const out = encodeXml({ text: 'é😀\u0001\r\n\t', lone: '\uD800' }, 'document')
    expect(ASCII.test(out)).toBe(true)
    expect(out).toContain('<text>&#xE9;&#x1F600;&#xFFFD;&#xD;\n\t</text><lone>&#xFFFD;</lone>')
    expect(decodeXml(out, 'document')).toEqual({ text: 'é😀\uFFFD\r\n\t', lone: '\uFFFD' })
  })

  it('writes metadata that is not a string as its JSON text', () => {
    expect(encodeXml({ metadata: { a: [1, null], 'not a name': 'é' } }, 'document')).toContain(
      '<metadata>{"a":[1,null],"not a name":"\\u00E9"}</metadata>',
    )
  })

  it('refuses keys that are not XML names and non-finite numbers, naming the path', () => {
    expect(() => encodeXml({ themes: [{ 'bad key': 1 }] }, 'document')).toThrow(/"bad key" is not a usable XML element name at document\/themes\/theme\[1\]\/bad key/)
    expect(() => encodeXml({ score: Number.POSITIVE_INFINITY }, 'document')).toThrow(/Infinity as XML at document\/score/)
  })
})

describe('XML round trip', () => {
  // Text XML can carry (no C0 controls but tab/LF/CR, no U+FFFE/U+FFFF), lone surrogates excluded by 'grapheme'.
  const text = fc
    .string({ unit: 'grapheme', maxLength: 12 })
    .filter((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s))
  const itemText = text.filter((s) => s.length > 0)
  const score = fc.double({ min: -2, max: 2, noNaN: true }).map((d) => (Object.is(d, -0) ? 0 : d))
  const listNames = Object.keys(XML_LIST_ITEMS)

  function node(depth: number): fc.Arbitrary<Record<string, XmlValue>> {
    const leaves = fc.record(
      {
        id: itemText,
        title: text,
        label: text,
        is_negated: fc.boolean(),
        is_about: fc.boolean(),
        offset: fc.nat(),
        evidence: fc.integer({ min: -5, max: 50 }),
        sentiment_score: score,
      },
      { requiredKeys: ['id'] },
    )
    if (depth === 0) return leaves as fc.Arbitrary<Record<string, XmlValue>>
    const list: fc.Arbitrary<XmlValue[]> = fc.oneof(
      fc.array(itemText, { maxLength: 3 }),
      fc.array(node(depth - 1), { maxLength: 3 }),
    )
    return fc
      .tuple(leaves, fc.dictionary(fc.constantFrom(...listNames), list, { maxKeys: 3 }))
      .map(([l, lists]) => ({ ...(l as Record<string, XmlValue>), ...lists }))
  }

  it('should decode what it encodes, for every list of the table', () => {
    fc.assert(
      fc.property(fc.constantFrom(...listNames), fc.array(node(2), { maxLength: 3 }), (root, items) => {
        const xml = encodeXml(items, root)
        expect(ASCII.test(xml)).toBe(true)
        expect(decodeXml(xml, root)).toEqual(items)
      }),
      { seed: 11, numRuns: 150 },
    )
  })

  it('should decode a single object root it encodes', () => {
    fc.assert(
      fc.property(node(2), (doc) => {
        expect(decodeXml(encodeXml(doc, 'document'), 'document')).toEqual(doc)
      }),
      { seed: 12, numRuns: 150 },
    )
  })
})
