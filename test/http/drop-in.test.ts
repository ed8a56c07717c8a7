import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'
import { createHttpHandler, type HttpHandler } from '../../src/http/handler.ts'
import { ACCOUNTS, call } from './helpers.ts'

// Issue 10: request shapes the official client libraries send (client-compat §9), in JSON and in XML where the
// client uses XML. Each block names the behaviour it covers; src/http/README.md lists them.

let engine: Engine
let handler: HttpHandler

beforeEach(() => {
  // The engine's default subscription: no call-rate limits (issue 10 item 1), so these run like a client's test program.
  engine = createEngine({ accounts: [{ ...ACCOUNTS[0] }] })
  handler = createHttpHandler(engine)
})
afterEach(async () => {
  await engine.close()
})

const json = (v: unknown): { body: string } => ({ body: JSON.stringify(v) })

async function newConfiguration(): Promise<string> {
  const r = await call(handler, 'POST', '/configurations.json', json([{ name: 'TEST_CONFIG', language: 'English' }]))
  expect(r.status, r.text).toBe(200)
  return (r.json as { id: string }[])[0]!.id
}

describe('configurations created with only name and language (item 2)', () => {
  it('should create a non-primary configuration from {name, language} and answer the stored item (JSON)', async () => {
    const r = await call(handler, 'POST', '/configurations.json', json([{ name: 'NODEJS_TEST_CONFIG', language: 'English' }]))
    expect(r.status, r.text).toBe(200)
    const [created] = r.json as Record<string, unknown>[]
    expect(created).toMatchObject({ name: 'NODEJS_TEST_CONFIG', language: 'English', is_primary: false })
    expect(created!['id']).toBe(created!['config_id'])
    const list = (await call(handler, 'GET', '/configurations.json')).json as Record<string, unknown>[]
    expect(list.filter((c) => c['is_primary'] === true)).toHaveLength(1)
    expect(list.find((c) => c['id'] === created!['id'])).toMatchObject({ is_primary: false })
  })

  it('should create one from XML without <is_primary>', async () => {
    const body = '<?xml version="1.0"?><configurations><configuration><name>XML_CONFIG</name><language>English</language></configuration></configurations>'
    const r = await call(handler, 'POST', '/configurations.xml', { body })
    expect(r.status, r.text).toBe(200)
    expect(r.text).toContain('<name>XML_CONFIG</name>')
    expect(r.text).toContain('<is_primary>false</is_primary>')
  })

  it('should clone from {template, name} and answer the stored clone', async () => {
    const source = await newConfiguration()
    await call(handler, 'POST', `/queries.json?config_id=${source}`, json([{ name: 'q', query: 'Amazon AND (EC2 OR AWS)' }]))
    const r = await call(handler, 'POST', '/configurations.json', json([{ template: source, name: 'CLONE' }]))
    expect(r.status, r.text).toBe(200)
    const [clone] = r.json as Record<string, unknown>[]
    expect(clone).toMatchObject({ name: 'CLONE', is_primary: false, language: 'English' })
    const queries = await call(handler, 'GET', `/queries.json?config_id=${String(clone!['id'])}`)
    expect(queries.json).toMatchObject([{ name: 'q', query: 'Amazon AND (EC2 OR AWS)' }])
  })
})

describe('unquoted query terms with digits and inner punctuation (item 3)', () => {
  it('should store `Amazon AND (EC2 OR AWS)` and find it in text', async () => {
    const config = await newConfiguration()
    const added = await call(handler, 'POST', `/queries.json?config_id=${config}`, json([{ name: 'Query Test', query: 'Amazon AND (EC2 OR AWS)' }]))
    expect(added.status, added.text).toBe(200)
    const updated = await call(handler, 'PUT', `/queries.json?config_id=${config}`, json([{ id: (added.json as { id: string }[])[0]!.id, name: 'Query Test', query: 'Amazon AND EC2 AND "AT&T" OR COVID-19' }]))
    expect(updated.status, updated.text).toBe(200)
    const out = await engine.analyze("Amazon's EC2 instances are cheap, says AT&T.", { configId: config, id: 'd1' })
    expect(out.topics?.filter((t) => t.type === 'query').map((t) => t.title)).toEqual(['Query Test'])
  })

  it('should accept such terms in XML', async () => {
    const config = await newConfiguration()
    const body = '<queries><query><name>xml</name><query>iPhone 15 OR @united OR #travel OR e-mail OR 3.5mm</query></query></queries>'
    const r = await call(handler, 'POST', `/queries.xml?config_id=${config}`, { body })
    expect(r.status, r.text).toBe(200)
    expect(r.text).toContain('<query>iPhone 15 OR @united OR #travel OR e-mail OR 3.5mm</query>')
  })

  it('should still refuse an invalid query with 400 naming line and column, storing nothing', async () => {
    const config = await newConfiguration()
    const r = await call(handler, 'POST', `/queries.json?config_id=${config}`, json([{ name: 'bad', query: 'EC2 AND - AWS' }]))
    expect(r.status).toBe(400)
    expect(r.text).toMatch(/line 1, column 9/)
    expect((await call(handler, 'GET', `/queries.json?config_id=${config}`)).status).toBe(202)
  })
})

describe('blacklist items sent as objects or strings (item 4)', () => {
  it('should create with [{name}], rename with [{id, name}] and delete by id, leaving exactly the expected items (JSON)', async () => {
    const config = await newConfiguration()
    const q = `?config_id=${config}`
    const added = await call(handler, 'POST', `/blacklist.json${q}`, json([{ name: 'test blacklist' }]))
    expect(added.status, added.text).toBe(200)
    const [item] = added.json as { id: string; name: string }[]
    expect(item!.name).toBe('test blacklist')
    const renamed = await call(handler, 'PUT', `/blacklist.json${q}`, json([{ id: item!.id, name: 'test blacklist - renamed' }]))
    expect(renamed.status, renamed.text).toBe(200)
    expect(renamed.json).toMatchObject([{ id: item!.id, name: 'test blacklist - renamed' }])
    const listed = await call(handler, 'GET', `/blacklist.json${q}`)
    expect((listed.json as unknown[]).map((b) => ({ ...(b as object), modified: 0 }))).toEqual([{ id: item!.id, name: 'test blacklist - renamed', modified: 0 }])
    expect((await call(handler, 'DELETE', `/blacklist.json${q}`, json([item!.id]))).status).toBe(202)
    expect((await call(handler, 'GET', `/blacklist.json${q}`)).status).toBe(202)
  })

  it('should accept a single object, plain strings, and delete by name', async () => {
    const config = await newConfiguration()
    const q = `?config_id=${config}`
    expect((await call(handler, 'POST', `/blacklist.json${q}`, json({ name: 'python3*' }))).json).toMatchObject([{ name: 'python3*' }])
    expect((await call(handler, 'POST', `/blacklist.json${q}`, json(['spam', 'ads']))).json).toMatchObject([{ name: 'spam' }, { name: 'ads' }])
    expect((await call(handler, 'DELETE', `/blacklist.json${q}`, json(['spam']))).status).toBe(202)
    const names = ((await call(handler, 'GET', `/blacklist.json${q}`)).json as { name: string }[]).map((b) => b.name)
    expect(names).toEqual(['python3*', 'ads'])
  })

  it('should drop an item whose name a rename takes over, so no duplicate is left', async () => {
    const config = await newConfiguration()
    const q = `?config_id=${config}`
    const [a, b] = (await call(handler, 'POST', `/blacklist.json${q}`, json(['alpha', 'beta']))).json as { id: string }[]
    await call(handler, 'PUT', `/blacklist.json${q}`, json([{ id: a!.id, name: 'Beta' }]))
    const listed = (await call(handler, 'GET', `/blacklist.json${q}`)).json as { id: string; name: string }[]
    expect(listed.map((x) => [x.id, x.name])).toEqual([[a!.id, 'Beta']])
    expect(b!.id).not.toBe(a!.id)
  })

  it('should refuse a rename of an unknown id with 400 and change nothing', async () => {
    const config = await newConfiguration()
    const q = `?config_id=${config}`
    await call(handler, 'POST', `/blacklist.json${q}`, json(['keep']))
    const r = await call(handler, 'PUT', `/blacklist.json${q}`, json([{ name: 'new one' }, { id: 'nope', name: 'x' }]))
    expect(r.status).toBe(400)
    expect(r.text).toContain('nope')
    expect(((await call(handler, 'GET', `/blacklist.json${q}`)).json as { name: string }[]).map((b) => b.name)).toEqual(['keep'])
  })

  it('should do the same in XML: <item><id/><name/></item> objects and <item>text</item> strings', async () => {
    const config = await newConfiguration()
    const q = `?config_id=${config}`
    const added = await call(handler, 'POST', `/blacklist.xml${q}`, { body: '<blacklist><item><name>ruby*</name></item><item>plain</item></blacklist>' })
    expect(added.status, added.text).toBe(200)
    const id = /<item><id>([^<]+)<\/id><name>ruby\*<\/name>/.exec(added.text)?.[1]
    expect(id, added.text).toBeDefined()
    const renamed = await call(handler, 'PUT', `/blacklist.xml${q}`, { body: `<blacklist><item><id>${id!}</id><name>ruby - renamed</name></item></blacklist>` })
    expect(renamed.status, renamed.text).toBe(200)
    const listed = await call(handler, 'GET', `/blacklist.json${q}`)
    expect((listed.json as { name: string }[]).map((b) => b.name)).toEqual(['ruby - renamed', 'plain'])
    expect((await call(handler, 'DELETE', `/blacklist.xml${q}`, { body: `<blacklist><id>${id!}</id></blacklist>` })).status).toBe(202)
    expect(((await call(handler, 'GET', `/blacklist.json${q}`)).json as { name: string }[]).map((b) => b.name)).toEqual(['plain'])
  })
})

describe('sentiment phrase names count words, not punctuation (item 5)', () => {
  it('should accept `test phrase - renamed` as three words on create and update (JSON)', async () => {
    const config = await newConfiguration()
    const q = `?config_id=${config}`
    const added = await call(handler, 'POST', `/phrases.json${q}`, json([{ name: 'test phrase', weight: 0.3 }]))
    expect(added.status, added.text).toBe(200)
    const id = (added.json as { id: string }[])[0]!.id
    const r = await call(handler, 'PUT', `/phrases.json${q}`, json([{ id, name: 'test phrase - renamed', weight: '0.5' }]))
    expect(r.status, r.text).toBe(200)
    expect(r.json).toMatchObject([{ id, name: 'test phrase - renamed', weight: 0.5 }])
    expect((await call(handler, 'POST', `/phrases.json${q}`, json([{ name: 'this & that / other', weight: 1 }]))).status).toBe(200)
  })

  it('should accept it in XML, and still refuse four real words', async () => {
    const config = await newConfiguration()
    const q = `?config_id=${config}`
    const ok = await call(handler, 'POST', `/phrases.xml${q}`, { body: '<phrases><phrase><name>test phrase - renamed</name><weight>0.3</weight></phrase></phrases>' })
    expect(ok.status, ok.text).toBe(200)
    const bad = await call(handler, 'POST', `/phrases.json${q}`, json([{ name: 'one two three four', weight: 1 }]))
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('found 4')
  })
})
