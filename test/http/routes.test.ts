import { describe, expect, it } from 'vitest'
import { buildOpenApi, openApiPath, ROUTE_SUFFIXES } from '../../src/http/openapi.ts'
import { createRoutes, decodePathId, matchRoute, type RouteMatch } from '../../src/http/routes.ts'
import { parseRawQuery } from '../../src/http/handler.ts'

const routes = createRoutes()

function found(method: string, path: string): RouteMatch {
  const m = matchRoute(routes, method, path)
  if (m === undefined || 'allowed' in m) throw new Error(`no route for ${method} ${path}`)
  return m
}

describe('routes table', () => {
  it('covers every endpoint E1-E39 of the contract', () => {
    const numbers = new Set<number>()
    for (const r of routes) {
      for (const part of r.endpoint.split(',')) {
        const range = /^E(\d+)(?:-E(\d+))?$/.exec(part)
        expect(range, r.endpoint).not.toBeNull()
        const from = Number(range![1])
        for (let n = from; n <= Number(range![2] ?? from); n++) numbers.add(n)
      }
    }
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 39 }, (_, i) => i + 1))
  })

  it('matches each path with .json, .xml and no suffix, and classes calls', () => {
    expect(found('POST', '/document.json').route.endpoint).toBe('E1')
    expect(found('POST', '/document/batch.xml')).toMatchObject({ format: 'xml', id: undefined })
    expect(found('POST', '/batch').route.callClass).toBe('data')
    expect(found('GET', '/document/processed').route.callClass).toBe('polling')
    expect(found('GET', '/configurations.xml').route.callClass).toBe('settings')
    expect(found('DELETE', '/taxonomy.json').route.endpoint).toBe('E16-E35')
  })

  it('takes everything between /document/ and the final suffix as the id, decoded with + as space', () => {
    expect(found('GET', '/document/a/b.c.json')).toMatchObject({ id: 'a/b.c', format: 'json' })
    expect(found('GET', '/document/a%2Fb+c%20d.xml')).toMatchObject({ id: 'a/b c d', format: 'xml' })
    expect(found('DELETE', '/collection/%E2%82%AC1')).toMatchObject({ id: '\u20ac1', format: 'json' })
    expect(found('GET', '/document/processed.json').route.endpoint).toBe('E4')
    expect(matchRoute(routes, 'DELETE', '/document/processed.json')).toEqual({ allowed: ['GET'] })
    expect(matchRoute(routes, 'GET', '/document/batch.json')).toEqual({ allowed: ['POST'] })
    expect(matchRoute(routes, 'GET', '/documents.json')).toBeUndefined()
    expect(matchRoute(routes, 'GET', '/document/.json')).toBeUndefined()
  })

  it('keeps malformed escapes of an id literally', () => {
    expect(decodePathId('100%+sure%E2%82%AC')).toBe('100% sure\u20ac')
    expect(decodePathId('%F0%9F%98')).toBe('%F0%9F%98')
  })

  it('parses raw queries leniently, including the oauth_verifier form', () => {
    const q = parseRawQuery('config_id=a+b%2Fc&oauth_verifier=oauth_consumer_key=K&oauth_nonce=1&language=English&language=French&bad=%zz')
    expect(q.get('config_id')).toEqual(['a b/c'])
    expect(q.get('oauth_verifier')).toEqual(['oauth_consumer_key=K'])
    expect(q.get('language')).toEqual(['English', 'French'])
    expect(q.get('bad')).toEqual(['%zz'])
  })
})

describe('OpenAPI document', () => {
  const doc = buildOpenApi(routes) as { openapi: string; paths: Record<string, Record<string, { 'x-endpoint': string }>> }

  it('documents every route with every suffix', () => {
    expect(doc.openapi).toBe('3.1.0')
    for (const r of routes) {
      for (const suffix of ROUTE_SUFFIXES) {
        const op = doc.paths[openApiPath(r, suffix)]?.[r.method.toLowerCase()]
        expect(op, `${r.method} ${r.path}${suffix}`).toBeDefined()
        expect(op!['x-endpoint']).toBe(r.endpoint)
      }
    }
  })

  it('documents nothing that is not routed', () => {
    let operations = 0
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        operations++
        const concrete = path.replace('{document_id}', 'some-id').replace('{collection_id}', 'some-id')
        const m = matchRoute(routes, method.toUpperCase(), concrete)
        expect(m !== undefined && !('allowed' in m), `${method} ${path}`).toBe(true)
      }
    }
    expect(operations).toBe(routes.length * ROUTE_SUFFIXES.length)
  })
})
