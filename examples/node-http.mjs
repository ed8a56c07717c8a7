// Plain node:http: the API under /api next to the application's own pages.
//   PORT=8080 API_KEY=my-key API_SECRET=my-secret node examples/node-http.mjs
// Clients (the SDKs) use the base URL http://127.0.0.1:8080/api with that key and secret.
import { createServer } from 'node:http'
import { createEngine } from 'textengine'
import { createHttpHandler, toNodeListener } from 'textengine/http'

const key = process.env.API_KEY ?? 'my-key'
const secret = process.env.API_SECRET ?? 'my-secret'
const engine = createEngine({ accounts: [{ key, secret }] })
const api = toNodeListener(createHttpHandler(engine, { basePath: '/api' }))

const server = createServer((req, res) => {
  // The listener reads the request body itself: hand it the request untouched (no 'data' listener before it).
  if (req.url === '/api' || req.url?.startsWith('/api/')) return api(req, res)
  res.writeHead(200, { 'content-type': 'text/plain' }).end('home')
})

server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/api`)
})

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => server.close(() => void engine.close()))
}
