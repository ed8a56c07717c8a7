import { gzipSync, deflateSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { computeSignature } from '../../src/auth/signature.ts'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine, TuningResource } from '../../src/engine/types.ts'
import { createHttpHandler, type HttpHandler } from '../../src/http/handler.ts'
import { ACCOUNTS, call, read } from './helpers.ts'

const UNLIMITED = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }

function makeEngine(): Engine {
  return createEngine({ accounts: ACCOUNTS.map((a) => ({ ...a, subscription: UNLIMITED })) })
}

let engine: Engine
let handler: HttpHandler

beforeAll(() => {
  engine = makeEngine()
  handler = createHttpHandler(engine)
})
afterAll(async () => {
  await engine.close()
})

/** A new empty configuration of the first account, so tuning tests start from empty lists. */
async function freshConfiguration(): Promise<string> {
  const r = await call(handler, 'POST', '/configurations.json', { body: JSON.stringify([{ name: `c${Math.random()}`.slice(0, 20), is_primary: false, language: 'English' }]) })
  return (r.json as { id: string }[])[0]!.id
}

/** Everything a request could change: configurations and every tuning list of every configuration. */
async function snapshot(e: Engine, key: string = ACCOUNTS[0].key): Promise<string> {
  const acct = e.account(key)
  const configs = await acct.listConfigurations()
  const tuning: Record<string, unknown> = {}
  for (const c of configs) {
    for (const r of ['queries', 'categories', 'phrases', 'entities', 'blacklist', 'taxonomy'] as TuningResource[]) {
      tuning[`${c.config_id}/${r}`] = await acct.listTuning(r, c.config_id)
    }
  }
  return JSON.stringify({ configs, tuning })
}

describe('signing', () => {
  it('accepts the client-compat test vectors as the request URL and refuses a wrong signature with a body', async () => {
    const target = '/status.json?oauth_consumer_key=consumer-key&oauth_nonce=45095438949668051540&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1551274346&oauth_version=1.0'
    const ok = await read(await handler(new Request('http://127.0.0.1:8080' + target, {
      headers: { authorization: 'OAuth,oauth_consumer_key="consumer-key",oauth_signature="P8ItwaUKWNvniHrd7xWj6GCSuiM%3D"' },
    })))
    expect(ok.status).toBe(200)
    const https = await read(await handler(new Request('https://api.semantria.com' + target, {
      headers: { authorization: 'OAuth realm="",oauth_consumer_key="consumer-key",oauth_signature="NSwpaxPSOXNCS6spVRxBiDDN%2bHs%3d"' },
    })))
    expect(https.status).toBe(200)
    const bad = await read(await handler(new Request('http://127.0.0.1:8080' + target, {
      headers: { authorization: 'OAuth,oauth_consumer_key="consumer-key",oauth_signature="NSwpaxPSOXNCS6spVRxBiDDN%2BHs%3D"' },
    })))
    expect(bad.status).toBe(401)
    expect(bad.json).toMatchObject({ status: 401 })
    expect(bad.text).toContain('signature')
  })

  it('signs the oauth_verifier forms, milliseconds timestamps and every header shape', async () => {
    for (const options of [
      { form: 'verifier' as const, header: 'minimal' as const },
      { form: 'verifier-escaped' as const, header: 'unquoted' as const },
      { form: 'query' as const, header: 'full' as const, timestamp: 1551274346000, family: 'uri-component' as const },
      { form: 'query' as const, header: 'full' as const, family: 'java' as const },
    ]) {
      const r = await call(handler, 'GET', '/status.json', options)
      expect(r.status, JSON.stringify(options)).toBe(200)
    }
  })

  it('answers 401 with a body for no header, an unknown key, and a signature of another URL', async () => {
    const none = await read(await handler(new Request('http://127.0.0.1:8080/status.json')))
    expect(none.status).toBe(401)
    expect(none.text.length).toBeGreaterThan(0)
    const unknown = await call(handler, 'GET', '/status.xml', { account: { key: 'nobody', secret: 'x' } })
    expect(unknown.status).toBe(401)
    expect(unknown.text).toMatch(/^<\?xml.*<error><status>401<\/status><message>.+<\/message><\/error>$/)
    const sig = encodeURIComponent(computeSignature('http://127.0.0.1:8080/subscription.json?oauth_consumer_key=consumer-key', 'consumer-secret'))
    const moved = await read(await handler(new Request('http://127.0.0.1:8080/status.json?oauth_consumer_key=consumer-key', {
      headers: { authorization: `OAuth,oauth_consumer_key="consumer-key",oauth_signature="${sig}"` },
    })))
    expect(moved.status).toBe(401)
  })

  it('lets each account see only its own configurations, documents and statistics', async () => {
    const other = { key: ACCOUNTS[1].key, secret: ACCOUNTS[1].secret }
    const created = await call(handler, 'POST', '/configurations.json', { body: JSON.stringify([{ name: 'mine', is_primary: false, language: 'English' }]) })
    expect(created.status).toBe(200)
    const id = (created.json as { id: string }[])[0]!.id
    const theirs = await call(handler, 'GET', '/configurations.json', { account: other })
    expect((theirs.json as { id: string }[]).map((c) => c.id)).not.toContain(id)
    expect((await call(handler, 'GET', `/queries.json?config_id=${id}`, { account: other })).status).toBe(400)
    expect((await call(handler, 'POST', '/document.json', { body: '{"id":"private-1","text":"secret text here"}' })).status).toBe(202)
    expect((await call(handler, 'GET', '/document/private-1.json', { account: other })).status).toBe(404)
    expect((await call(handler, 'DELETE', '/configurations.json', { body: JSON.stringify([id]) })).status).toBe(202)
  })
})

describe('documents (E1-E5) in JSON and XML', () => {
  it('submits one document and a batch (202, empty body), reads by id (200 even queued), polls (200 then 202)', async () => {
    const one = await call(handler, 'POST', '/document.json', { body: '{"id":"d/1 x","text":"The hotel staff were wonderful and the room was clean.","tag":"t","metadata":{"k":[1,"\u00e9"]}}' })
    expect(one.status).toBe(202)
    expect(one.text).toBe('')
    expect(one.headers.get('content-length')).toBe('0')
    const queued = await call(handler, 'GET', '/document/d%2F1+x.json')
    expect(queued.status).toBe(200)
    expect(['QUEUED', 'PROCESSED']).toContain((queued.json as { status: string }).status)
    const batch = await call(handler, 'POST', '/document/batch', {
      body: JSON.stringify([{ id: 'b1', text: 'Terrible service, cold food.' }, { id: 'b2', text: 'Great value \u{1F600} for money.', job_id: null }]),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(batch.status).toBe(202)
    const xml = await call(handler, 'POST', '/batch.xml', {
      body: '<?xml version="1.0"?><documents xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><document><id>x1</id><text>Lovely breakfast but slow wifi.</text></document></documents>',
    })
    expect(xml.status).toBe(202)
    const single = await call(handler, 'POST', '/document.xml', { body: '<document><id>x2</id><text>Nice pool.</text><tag>tg</tag></document>' })
    expect(single.status).toBe(202)
    await engine.drain()
    // Path ids keep "/", decode %XX and "+" as space, whatever the escaping.
    const byId = await call(handler, 'GET', '/document/d/1%20x.json')
    expect(byId.status).toBe(200)
    expect(byId.json).toMatchObject({ id: 'd/1 x', status: 'PROCESSED', tag: 't', metadata: { k: [1, '\u00e9'] } })
    expect(byId.text).toMatch(/^[\x00-\x7f]*$/)
    expect(byId.text).not.toContain('null')
    const byIdXml = await call(handler, 'GET', '/document/x2.xml')
    expect(byIdXml.status).toBe(200)
    expect(byIdXml.text).toMatch(/^<\?xml[^>]*\?><document><id>x2<\/id>/)
    expect(byIdXml.text).not.toContain('<modified>')
    const xmlPoll = await call(handler, 'GET', '/document/processed.xml')
    expect(xmlPoll.status).toBe(200)
    expect(xmlPoll.text).toContain('<documents><document>')
    const jsonPoll = await call(handler, 'GET', '/document/processed')
    // Reading by id did not dequeue; the XML poll took some, the JSON poll takes the rest.
    const ids = [...xmlPoll.text.matchAll(/<document><id>([^<]+)<\/id>/g)].map((m) => m[1])
    const rest = jsonPoll.status === 200 ? (jsonPoll.json as { id: string }[]).map((d) => d.id) : []
    expect([...ids, ...rest].sort()).toEqual(['b1', 'b2', 'd/1 x', 'private-1', 'x1', 'x2'].sort())
    const empty = await call(handler, 'GET', '/document/processed.json')
    expect(empty.status).toBe(202)
    expect(empty.text).toBe('')
  })

  it('cancels a queued document with 200, answers 400 for cancelling an unknown id and 404 for reading one', async () => {
    const paused = createEngine({ accounts: [{ ...ACCOUNTS[0], subscription: UNLIMITED }], background: false })
    const h = createHttpHandler(paused)
    expect((await call(h, 'POST', '/document.json', { body: '{"id":"c1","text":"queued text"}' })).status).toBe(202)
    const queued = await call(h, 'GET', '/document/c1.xml')
    expect(queued.status).toBe(200)
    expect(queued.text).toContain('<status>QUEUED</status>')
    const cancelled = await call(h, 'DELETE', '/document/c1.json')
    expect(cancelled.status).toBe(200)
    const unknown = await call(h, 'DELETE', '/document/c1.json')
    expect(unknown.status).toBe(400)
    expect(unknown.text).toContain('c1')
    const missing = await call(h, 'GET', '/document/never.json')
    expect(missing.status).toBe(404)
    expect(missing.json).toMatchObject({ status: 404 })
    await paused.close()
  })

  it('answers an auto_response configuration with 200 and the processed items', async () => {
    const created = await call(handler, 'POST', '/configurations.json', {
      body: JSON.stringify({ name: 'auto', is_primary: false, language: 'English', auto_response: true }),
    })
    expect(created.status).toBe(200)
    const id = (created.json as { config_id: string }[])[0]!.config_id
    expect((await call(handler, 'POST', `/document.json?config_id=${id}`, { body: '{"id":"a1","text":"Good food."}' })).status).toBe(202)
    await engine.drain()
    const second = await call(handler, 'POST', `/document.json?config_id=${id}`, { body: '{"id":"a2","text":"Bad food."}' })
    expect(second.status).toBe(200)
    expect((second.json as { id: string }[]).map((d) => d.id)).toContain('a1')
    await engine.drain()
    await call(handler, 'GET', `/document/processed.json?config_id=${id}`)
    await call(handler, 'DELETE', '/configurations.json', { body: JSON.stringify([id]) })
  })
})

describe('collections (E6-E9) in JSON and XML', () => {
  it('submits, reads by id, polls with document_id, and cancels', async () => {
    const texts = ['The pool was great and the staff friendly.', 'Great pool, rude staff.', 'The staff were friendly; the pool was cold.']
    expect((await call(handler, 'POST', '/collection.json', { body: JSON.stringify({ id: 'col-1', tag: 'x', documents: texts }) })).status).toBe(202)
    const xml = '<collection><id>col-2</id><documents>' + texts.map((t) => `<document>${t}</document>`).join('') + '</documents></collection>'
    expect((await call(handler, 'POST', '/collection.xml', { body: xml })).status).toBe(202)
    await engine.drain()
    const one = await call(handler, 'GET', '/collection/col-1.json')
    expect(one.status).toBe(200)
    expect(one.json).toMatchObject({ id: 'col-1', status: 'PROCESSED', tag: 'x' })
    const oneXml = await call(handler, 'GET', '/collection/col-2.xml')
    expect(oneXml.text).toMatch(/^<\?xml[^>]*\?><collection><id>col-2<\/id>/)
    const only = await call(handler, 'GET', '/collection/processed.xml?document_id=col-2')
    expect(only.status).toBe(200)
    expect(only.text).toContain('<collections><collection><id>col-2</id>')
    const rest = await call(handler, 'GET', '/collection/processed.json')
    expect((rest.json as { id: string }[]).map((c) => c.id)).toEqual(['col-1'])
    expect((await call(handler, 'GET', '/collection/processed.json')).status).toBe(202)
    expect((await call(handler, 'GET', '/collection/nope.json')).status).toBe(404)
    expect((await call(handler, 'DELETE', '/collection/nope.xml')).status).toBe(400)
  })
})

describe('configurations, templates and tuning (E10-E35)', () => {
  it('creates (200 array), updates by partial merge, clones, lists and deletes (202) configurations in JSON and XML', async () => {
    const list = await call(handler, 'GET', '/configurations.json')
    expect(list.status).toBe(200)
    const primary = (list.json as { id: string; config_id: string; is_primary: boolean }[]).find((c) => c.is_primary)!
    expect(primary.id).toBe(primary.config_id)
    const xmlCreate = await call(handler, 'POST', '/configurations.xml', {
      body: '<configurations><configuration><name>from xml</name><is_primary>false</is_primary><language>English</language><document><themes_limit>4</themes_limit></document></configuration></configurations>',
    })
    expect(xmlCreate.status).toBe(200)
    const id = /<config_id>([^<]+)<\/config_id>/.exec(xmlCreate.text)![1]!
    const updated = await call(handler, 'PUT', '/configurations.json', { body: JSON.stringify([{ config_id: id, name: 'renamed', auto_response: null }]) })
    expect(updated.status).toBe(200)
    expect((updated.json as { name: string; document: { themes_limit: number } }[])[0]).toMatchObject({ name: 'renamed', document: { themes_limit: 4 } })
    const clone = await call(handler, 'POST', '/configurations', { body: JSON.stringify({ name: 'copy', template: id }) })
    expect(clone.status).toBe(200)
    const cloneId = (clone.json as { id: string }[])[0]!.id
    const listXml = await call(handler, 'GET', '/configurations.xml')
    expect(listXml.text).toContain('<configurations><configuration>')
    expect(listXml.text).not.toContain('<modified>')
    const del = await call(handler, 'DELETE', '/configurations.xml', { body: `<configurations><id>${id}</id><id>${cloneId}</id></configurations>` })
    expect(del.status).toBe(202)
    const badDelete = await call(handler, 'DELETE', '/configurations.json', { body: JSON.stringify(['no-such-config']) })
    expect(badDelete.status).toBe(400)
    expect(badDelete.text).toContain('no-such-config')
    const templates = await call(handler, 'GET', '/templates.json')
    expect([200, 202]).toContain(templates.status)
    expect((await call(handler, 'GET', '/templates.xml')).status).toBe(templates.status)
  })

  const bodies: Record<TuningResource, { create: unknown; xml: string; update: (id: string) => unknown }> = {
    queries: {
      create: [{ name: 'q1', query: 'pool AND staff' }],
      xml: '<queries><query><name>q2</name><query>food OR breakfast</query></query></queries>',
      update: (id) => [{ id, query: 'pool NEAR/3 staff' }],
    },
    categories: {
      create: [{ name: 'Amenities', weight: '0.5', samples: ['pool', 'gym'] }],
      xml: '<categories><category><name>Dining</name><weight>0.3</weight><samples><sample>food</sample></samples></category></categories>',
      update: (id) => [{ id, samples: ['pool', 'spa'] }],
    },
    phrases: {
      create: [{ name: 'gorgeous', weight: 1.5 }],
      xml: '<phrases><phrase><name>awful view</name><weight>-1</weight></phrase></phrases>',
      update: (id) => [{ id, weight: 1 }],
    },
    entities: {
      create: { name: 'Acme', type: 'Company', label: 'Client' },
      xml: '<entities><entity><name>Globex</name><type>Company</type></entity></entities>',
      update: (id) => [{ id, label: 'Vendor' }],
    },
    blacklist: {
      create: ['spam*'],
      xml: '<blacklist><item>junk</item></blacklist>',
      update: () => ['spam*', 'ads'],
    },
    taxonomy: { create: [], xml: '', update: () => [] },
  }

  for (const resource of ['queries', 'categories', 'phrases', 'entities', 'blacklist'] as const) {
    it(`serves ${resource}: 202 empty list, 200 create/update arrays in JSON and XML, 202 delete`, async () => {
      const b = bodies[resource]
      const h = handler
      const cfg = await freshConfiguration()
      const q = `?config_id=${cfg}`
      const empty = await call(h, 'GET', `/${resource}.json${q}`)
      expect(empty.status).toBe(202)
      expect(empty.text).toBe('')
      const created = await call(h, 'POST', `/${resource}.json${q}`, { body: JSON.stringify(b.create) })
      expect(created.status, created.text).toBe(200)
      const item = (created.json as { id: string }[])[0]!
      expect(typeof item.id).toBe('string')
      const viaXml = await call(h, 'POST', `/${resource}.xml${q}`, { body: b.xml })
      expect(viaXml.status, viaXml.text).toBe(200)
      expect(viaXml.text).not.toContain('<modified>')
      const updated = await call(h, 'PUT', `/${resource}.json${q}`, { body: JSON.stringify(b.update(item.id)) })
      expect(updated.status, updated.text).toBe(200)
      const listed = await call(h, 'GET', `/${resource}.xml${q}`)
      expect(listed.status).toBe(200)
      expect(listed.text).toContain(`<${resource}>`)
      const listedJson = await call(h, 'GET', `/${resource}${q}`)
      const ids = (listedJson.json as { id: string; name: string }[]).map((i) => (resource === 'blacklist' ? i.name : i.id))
      const deleted = await call(h, 'DELETE', `/${resource}.json${q}`, { body: JSON.stringify(ids) })
      expect(deleted.status, deleted.text).toBe(202)
      expect((await call(h, 'GET', `/${resource}.json${q}`)).status).toBe(202)
    })
  }

  it('serves the taxonomy: create over existing queries, list, update, delete without a body', async () => {
    const h = handler
    const c = `?config_id=${await freshConfiguration()}`
    const unknownTopic = await call(h, 'POST', `/taxonomy.json${c}`, { body: '[{"name":"T2","topics":[{"id":"nope","type":"query"}]}]' })
    expect(unknownTopic.status).toBe(400)
    const q = await call(h, 'POST', `/queries.json${c}`, { body: '[{"name":"pool","query":"pool"},{"name":"staff","query":"staff"}]' })
    const [q1, q2] = (q.json as { id: string }[]).map((i) => i.id)
    const created = await call(h, 'POST', `/taxonomy.json${c}`, {
      body: JSON.stringify([{ name: 'Hotel', nodes: [{ name: 'Stay', enforce_parent_matching: true, topics: [{ id: q1, type: 'query' }] }] }]),
    })
    expect(created.status, created.text).toBe(200)
    const listed = await call(h, 'GET', `/taxonomy.xml${c}`)
    expect(listed.status).toBe(200)
    expect(listed.text).toContain('<taxonomies><taxonomy>')
    const node = (created.json as { nodes: { id: string }[] }[])[0]!.nodes[0]!.id
    const updated = await call(h, 'PUT', `/taxonomy.json${c}`, { body: JSON.stringify([{ id: node, topics: [{ id: q2, type: 'QUERY' }] }]) })
    expect(updated.status, updated.text).toBe(200)
    const second = await call(h, 'POST', `/taxonomy.json${c}`, { body: '[{"name":"T3"}]' })
    expect(second.status).toBe(406)
    expect((await call(h, 'DELETE', `/taxonomy.json${c}`)).status).toBe(202)
    expect((await call(h, 'GET', `/taxonomy.json${c}`)).status).toBe(202)
  })
})

describe('account endpoints (E36-E39)', () => {
  it('answers subscription, features, statistics and status in JSON and XML', async () => {
    const sub = await call(handler, 'GET', '/subscription.json')
    expect(sub.json).toMatchObject({ name: 'first', status: 'active' })
    expect((await call(handler, 'GET', '/subscription.xml')).text).toMatch(/<subscription><name>first<\/name>/)
    const features = await call(handler, 'GET', '/features.json?language=English')
    expect(Array.isArray(features.json)).toBe(true)
    expect((features.json as { language: string }[])[0]!.language).toBe('English')
    expect((await call(handler, 'GET', '/features.xml')).text).toContain('<supported_features><features>')
    const stats = await call(handler, 'GET', '/statistics.json?interval=Month')
    expect(stats.status).toBe(200)
    const totals = (stats.json as { total_api_calls: number; latest_used_app: string }[])[0]!
    expect(totals.total_api_calls).toBeGreaterThan(0)
    expect(totals.latest_used_app).toBe('tests/node/1.0/json')
    const grouped = await call(handler, 'GET', '/statistics.xml?interval=day&group=app')
    expect(grouped.text).toContain('<statistics><statistics>')
    const status = await call(handler, 'GET', '/status')
    expect(status.json).toMatchObject({ service_status: 'available', api_version: '4.2', supported_compression: 'gzip,deflate' })
    expect((await call(handler, 'GET', '/status.xml')).text).toContain('<supported_languages><language>English</language></supported_languages>')
  })

  it('counts every call by class, app and configuration', async () => {
    const e = makeEngine()
    const h = createHttpHandler(e)
    await call(h, 'POST', '/document.json', { body: '{"text":"counted"}' })
    await call(h, 'GET', '/document/processed.json')
    await call(h, 'GET', '/document/processed.json', { headers: { 'x-app-name': 'other-app' } })
    await call(h, 'GET', '/queries.json')
    const stats = await call(h, 'GET', '/statistics.json?interval=day')
    expect((stats.json as Record<string, unknown>[])[0]).toMatchObject({ calls_data: 1, calls_polling: 2, calls_settings: 2, total_api_calls: 5 })
    const byApp = await call(h, 'GET', '/statistics.json?interval=day&group=app')
    expect((byApp.json as { app_group: string }[]).map((g) => g.app_group)).toEqual(expect.arrayContaining(['other-app', 'tests/node/1.0/json']))
    await e.close()
  })

  it('answers 402 past the call limit and after expiry', async () => {
    const limited = createEngine({ accounts: [{ ...ACCOUNTS[0], subscription: { billing_settings: { settings_calls_limit: 2, settings_calls_interval: 60 } } }] })
    const h = createHttpHandler(limited)
    expect((await call(h, 'GET', '/status.json')).status).toBe(200)
    expect((await call(h, 'GET', '/status.json')).status).toBe(200)
    const over = await call(h, 'GET', '/status.json')
    expect(over.status).toBe(402)
    expect(over.json).toMatchObject({ status: 402 })
    await limited.close()
    const expired = createEngine({ accounts: [{ ...ACCOUNTS[0], subscription: { billing_settings: { expiration_date: 1000 } } }] })
    const he = createHttpHandler(expired)
    const r = await call(he, 'GET', '/configurations.xml')
    expect(r.status).toBe(402)
    expect(r.text).toContain('<status>402</status>')
    await expired.close()
  })
})

describe('bad input: right code, a body, nothing stored changed', () => {
  const cases: { name: string; method: string; path: string; body: string | Uint8Array; status: number; headers?: Record<string, string> }[] = [
    { name: 'malformed JSON', method: 'POST', path: '/queries.json', body: '[{"name": "x", "query": ', status: 400 },
    { name: 'malformed XML', method: 'POST', path: '/queries.xml', body: '<queries><query><name>x</name></queries>', status: 400 },
    { name: 'XML with the wrong root', method: 'POST', path: '/configurations.xml', body: '<documents><document/></documents>', status: 400 },
    { name: 'wrong types', method: 'POST', path: '/phrases.json', body: '[{"name": ["a"], "weight": {"x": 1}}]', status: 400 },
    { name: 'a weight out of range', method: 'POST', path: '/phrases.json', body: '[{"name": "nice", "weight": 9}]', status: 400 },
    { name: 'an empty configuration name', method: 'POST', path: '/configurations.json', body: '[{"name": "", "is_primary": false, "language": "English"}]', status: 400 },
    { name: 'an unknown configuration id', method: 'POST', path: '/queries.json?config_id=nope', body: '[{"name":"q","query":"a"}]', status: 400 },
    { name: 'an update of an unknown id', method: 'PUT', path: '/queries.json', body: '[{"id":"nope","query":"a"}]', status: 400 },
    { name: 'a document over 2048 characters', method: 'POST', path: '/document.json', body: JSON.stringify({ id: 'long', text: 'word '.repeat(500) }), status: 413 },
    { name: 'a batch of 101 documents', method: 'POST', path: '/document/batch.json', body: JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ id: `n${i}`, text: 'hi there' }))), status: 406 },
    { name: 'a body over maxBodyBytes', method: 'POST', path: '/document/batch.json', body: JSON.stringify([{ id: 'x', text: 'y'.repeat(300_000) }]), status: 413 },
    {
      name: 'hostile XML (external entity)', method: 'POST', path: '/queries.xml', status: 400,
      body: '<?xml version="1.0"?><!DOCTYPE q [<!ENTITY x SYSTEM "file:///etc/passwd">]><queries><query><name>&x;</name><query>a</query></query></queries>',
    },
    {
      name: 'hostile XML (billion laughs)', method: 'POST', path: '/blacklist.xml', status: 400,
      body: '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><blacklist><item>&b;</item></blacklist>',
    },
    { name: 'deeply nested JSON', method: 'POST', path: '/entities.json', body: '['.repeat(5000) + ']'.repeat(5000), status: 400 },
    { name: 'a gzip bomb', method: 'POST', path: '/queries.json', body: gzipSync(Buffer.alloc(64 * 1024 * 1024, 32)), status: 413, headers: { 'content-encoding': 'gzip' } },
    { name: 'corrupt gzip', method: 'POST', path: '/queries.json', body: new Uint8Array([31, 139, 8, 0, 1, 2, 3]), status: 400, headers: { 'content-encoding': 'gzip' } },
    { name: 'an unknown content coding', method: 'POST', path: '/queries.json', body: '[]', status: 400, headers: { 'content-encoding': 'br' } },
    { name: 'invalid UTF-8', method: 'POST', path: '/queries.json', body: new Uint8Array([0x5b, 0xff, 0xfe, 0x5d]), status: 400 },
    { name: 'an empty body', method: 'POST', path: '/document.json', body: '', status: 400 },
    { name: 'job_id with config_id on a poll', method: 'GET', path: '/document/processed.json?job_id=j&config_id=x', body: '', status: 400 },
  ]

  for (const c of cases) {
    it(`answers ${c.status} for ${c.name}`, async () => {
      const e = engine
      const h = createHttpHandler(e, { maxBodyBytes: 256 * 1024, maxDecompressedBytes: 1024 * 1024 })
      await e.drain()
      await e.account(ACCOUNTS[0].key).takeProcessedDocuments({})
      const before = await snapshot(e)
      const r = await call(h, c.method, c.path, { ...(c.method === 'GET' ? {} : { body: c.body }), ...(c.headers ? { headers: c.headers } : {}) })
      expect(r.status, r.text).toBe(c.status)
      expect(r.text.length).toBeGreaterThan(0)
      if (c.path.includes('.xml')) expect(r.text).toMatch(new RegExp(`<error><status>${c.status}</status><message>.+</message></error>`))
      else expect(r.json).toMatchObject({ status: c.status, message: expect.any(String) })
      await e.drain()
      expect(await snapshot(e)).toBe(before)
      expect(await e.account(ACCOUNTS[0].key).takeProcessedDocuments({})).toEqual([])
    })
  }

  it('refuses an oversize Content-Length before reading, and an unknown route or method with a body', async () => {
    const h = createHttpHandler(engine, { maxBodyBytes: 100 })
    const r = await call(h, 'POST', '/queries.json', { body: '[' + '"x",'.repeat(40) + '"x"]' })
    expect(r.status).toBe(413)
    const nowhere = await call(handler, 'GET', '/nowhere.json')
    expect(nowhere.status).toBe(404)
    expect(nowhere.text.length).toBeGreaterThan(0)
    const method = await call(handler, 'PATCH', '/queries.json')
    expect(method.status).toBe(405)
    expect(method.headers.get('allow')).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS')
  })
})

describe('compression and mounting', () => {
  it('gzips or deflates answers only when Accept-Encoding asks, and reads compressed requests', async () => {
    const gz = await call(handler, 'GET', '/status.json', { headers: { 'accept-encoding': 'gzip, deflate' } })
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gz.json).toMatchObject({ service_status: 'available' })
    const df = await call(handler, 'GET', '/status.json', { headers: { 'accept-encoding': 'deflate' } })
    expect(df.headers.get('content-encoding')).toBe('deflate')
    expect(df.json).toMatchObject({ service_status: 'available' })
    const plain = await call(handler, 'GET', '/status.json')
    expect(plain.headers.get('content-encoding')).toBeNull()
    const q = `?config_id=${await freshConfiguration()}`
    const body = JSON.stringify([{ name: 'zipped', query: 'a AND b' }])
    expect((await call(handler, 'POST', `/queries.json${q}`, { body: gzipSync(body), headers: { 'content-encoding': 'gzip' } })).status).toBe(200)
    expect((await call(handler, 'POST', `/queries.json${q}`, { body: deflateSync(body.replace('zipped', 'deflated')), headers: { 'content-encoding': 'deflate' } })).status).toBe(200)
    expect(((await call(handler, 'GET', `/queries.json${q}`)).json as unknown[]).length).toBe(2)
  })

  it('serves under a base path and signs the full URL', async () => {
    const h = createHttpHandler(engine, { basePath: '/api/v4' })
    expect((await call(h, 'GET', '/api/v4/status.json')).status).toBe(200)
    expect((await call(h, 'GET', '/status.json')).status).toBe(404)
    const doc = await call(h, 'GET', '/api/v4/openapi.json')
    expect(Object.keys((doc.json as { paths: object }).paths)).toContain('/api/v4/document/{document_id}.xml')
  })

  it('accepts a signature over X-Forwarded-Host only with trustProxy', async () => {
    // The request reaches the server under another Host, as behind a proxy.
    const signed = await import('../../src/auth/signature.ts').then((m) => m.signUrl('https://public.example.com/status.json', ACCOUNTS[0].key, ACCOUNTS[0].secret, '1', 1551274346))
    const internal = signed.url.replace('https://public.example.com', 'http://10.0.0.7:8080')
    const req = (): Request => new Request(internal, { headers: { authorization: signed.authorization, 'x-forwarded-host': 'public.example.com' } })
    expect((await handler(req())).status).toBe(401)
    expect((await createHttpHandler(engine, { trustProxy: true })(req())).status).toBe(200)
  })

  it('rejects bad handler options at creation', () => {
    expect(() => createHttpHandler(engine, { basePath: 'api/' })).toThrow(/basePath/)
    expect(() => createHttpHandler(engine, { maxBodyBytes: -1 })).toThrow(/maxBodyBytes/)
  })
})
