import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Engine } from '../../src/engine/types.ts'
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from '../../src/http/handler.ts'
import { toNodeListener } from '../../src/http/node.ts'
import { createPlayground, withPlayground, type PlaygroundOptions } from '../../src/http/playground.ts'

/** The playground in front of the API, as one handler (the standalone server's composition). */
export function composeHandler(engine: Engine, page: PlaygroundOptions, api: HttpHandlerOptions): HttpHandler {
  return withPlayground(createHttpHandler(engine, api), createPlayground(page))
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
