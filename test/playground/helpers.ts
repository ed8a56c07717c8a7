import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Engine } from '../../src/engine/types.ts'
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from '../../src/http/handler.ts'
import { toNodeListener } from '../../src/http/node.ts'
import { createPlayground, type PlaygroundOptions } from '../../src/http/playground.ts'

/** The playground in front of the API, as one handler: `playground(req) ?? api(req)`. */
export function composeHandler(engine: Engine, page: PlaygroundOptions, api: HttpHandlerOptions): HttpHandler {
  const playground = createPlayground(page)
  const handler = createHttpHandler(engine, api)
  const composed = async (request: Request): Promise<Response> => (await playground(request)) ?? handler(request)
  Object.defineProperty(composed, 'handleRaw', {
    value: async (request: Request, raw: { rawTarget: string; host: string }, passThrough?: boolean) =>
      (await playground(request)) ?? handler.handleRaw(request, raw, passThrough),
  })
  Object.defineProperty(composed, 'routes', { value: handler.routes })
  return composed as HttpHandler
}

/** A node:http server on 127.0.0.1, port 0, serving a handler. */
export async function listen(handler: HttpHandler): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const server = createServer(toNodeListener(handler))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
