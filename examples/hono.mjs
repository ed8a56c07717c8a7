// Hono on Node (@hono/node-server): the handler is a web-standard (Request) => Promise<Response>, so Hono
// hands it the request as is; the signed URL keeps its /api prefix.
//   PORT=8080 API_KEY=my-key API_SECRET=my-secret node examples/hono.mjs
// Clients (the SDKs) use the base URL http://127.0.0.1:8080/api with that key and secret.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { createEngine } from 'textengine'
import { createHttpHandler } from 'textengine/http'

const key = process.env.API_KEY ?? 'my-key'
const secret = process.env.API_SECRET ?? 'my-secret'
const engine = createEngine({ accounts: [{ key, secret }] })
const api = createHttpHandler(engine, { basePath: '/api' })

const app = new Hono()
app.get('/', (c) => c.text('home'))
app.all('/api/*', (c) => api(c.req.raw)) // do not read c.req's body before: the handler reads it

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8080), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}/api`)
})

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => server.close(() => void engine.close()))
}
