import type { Route } from './routes.ts'

/** Path suffixes every route is served with; `''` means JSON. */
export const ROUTE_SUFFIXES: readonly string[] = ['.json', '.xml', '']

/** An OpenAPI path of a route and suffix: `{id}` becomes `{document_id}` / `{collection_id}` as in the contract. */
export function openApiPath(route: Route, suffix: string, basePath = ''): string {
  const name = route.path.startsWith('/collection/') ? '{collection_id}' : '{document_id}'
  return basePath + route.path.replace('{id}', name) + suffix
}

const STATUS_TEXT: Readonly<Record<string, string>> = {
  '200': 'request correct; data returned',
  '202': 'accepted; no data returned (empty body)',
  '400': 'wrong request format, or an unknown id (message names it)',
  '401': 'authentication failed',
  '402': 'call limit reached, balance exceeded or license expired',
  '403': 'language or feature not allowed by the license',
  '404': 'no document or collection with this id',
  '406': 'batch, collection or configuration limit reached',
  '413': 'request body or document too large',
  '500': 'server-side problem',
}

function successCodes(route: Route): string[] {
  switch (route.answer) {
    case 'value':
      return ['200']
    case 'list':
    case 'submit':
      return ['200', '202']
    case 'accepted':
      return ['202']
    case 'ok-empty':
    case 'file':
      return ['200']
  }
}

/**
 * The OpenAPI 3.1 document of the contract, generated from the routes table: one path per route and suffix
 * (`.json`, `.xml`, none), its query parameters, the `{document_id}`/`{collection_id}` path parameter, the call
 * class (`x-call-class`) and endpoint number (`x-endpoint`), the success and error statuses, and the signature
 * scheme. Deterministic: paths in table order.
 */
export function buildOpenApi(routes: readonly Route[], basePath = ''): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    for (const suffix of ROUTE_SUFFIXES) {
      const path = openApiPath(route, suffix, basePath)
      const entry = (paths[path] ??= {})
      const mediaType = suffix === '.xml' ? 'application/xml' : 'application/json'
      const parameters: Record<string, unknown>[] = route.queryParams.map((name) => ({
        name,
        in: 'query',
        required: false,
        schema: { type: 'string' },
      }))
      if (route.path.endsWith('{id}')) {
        parameters.unshift({
          name: route.path.startsWith('/collection/') ? 'collection_id' : 'document_id',
          in: 'path',
          required: true,
          description: 'percent-decoded, + as space; may contain /',
          schema: { type: 'string' },
        })
      }
      parameters.push({ name: 'x-app-name', in: 'header', required: false, schema: { type: 'string' } })
      const responses: Record<string, unknown> = {}
      for (const code of successCodes(route)) {
        const empty = code === '202' || route.answer === 'ok-empty'
        responses[code] = empty
          ? { description: STATUS_TEXT[code] }
          : route.answer === 'file'
            ? { description: 'the archive', content: Object.fromEntries(['application/zip', 'application/x-tar', 'application/gzip'].map((t) => [t, { schema: { type: 'string', format: 'binary' } }])) }
            : { description: STATUS_TEXT[code], content: { [mediaType]: { schema: {} } } }
      }
      const errors = ['400', '401', '402', '403', '406', '413', '500']
      if (route.method === 'GET' && (route.path.endsWith('{id}') || route.keepsNotFound === true)) errors.splice(2, 0, '404')
      for (const code of errors) {
        responses[code] = { description: STATUS_TEXT[code], content: { [mediaType]: { schema: { $ref: '#/components/schemas/Error' } } } }
      }
      entry[route.method.toLowerCase()] = {
        operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+/g, '_')}`,
        summary: route.summary,
        'x-endpoint': route.endpoint,
        'x-call-class': route.callClass,
        parameters,
        ...(route.hasBody ? { requestBody: { required: route.method !== 'DELETE', content: { [mediaType]: { schema: {} } } } } : {}),
        responses,
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Text analysis API',
      version: '4.2',
      description: 'Every endpoint is served with .json, .xml and no suffix (JSON). Content-Type is ignored.',
    },
    components: {
      securitySchemes: {
        oauthSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'OAuth-style HMAC-SHA1 over the full request URL, keyed by the lower-case hex MD5 of the secret',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['status', 'message'],
          properties: { status: { type: 'integer' }, message: { type: 'string' } },
        },
      },
    },
    security: [{ oauthSignature: [] }],
    paths,
  }
}
