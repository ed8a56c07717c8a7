// Fastify 5: the API answered from an onRequest hook with reply.hijack(), so Fastify's body parser never
// reads the body (the handler reads the raw body itself) and Fastify sends nothing of its own.
//   PORT=8080 API_KEY=my-key API_SECRET=my-secret node examples/fastify.mjs
// Clients (the SDKs) use the base URL http://127.0.0.1:8080/api with that key and secret.
import Fastify from 'fastify'
import { createEngine } from 'textengine'
import { createHttpHandler, toNodeListener } from 'textengine/http'

const key = process.env.API_KEY ?? 'my-key'
const secret = process.env.API_SECRET ?? 'my-secret'
const engine = createEngine({ accounts: [{ key, secret }] })
const api = toNodeListener(createHttpHandler(engine, { basePath: '/api' }))

const fastify = Fastify()
// onRequest runs before body parsing, for routed and unrouted paths alike.
fastify.addHook('onRequest', (request, reply, done) => {
  const url = request.raw.url ?? ''
  if (url !== '/api' && !url.startsWith('/api/')) return done()
  reply.hijack()              // Fastify stops here: no body parsing, no hooks, no reply of its own
  api(request.raw, reply.raw) // the raw node:http request (target and Host as received) and response
})
fastify.get('/', async () => 'home')

await fastify.listen({ port: Number(process.env.PORT ?? 8080), host: '127.0.0.1' })
console.log(`listening on http://127.0.0.1:${fastify.server.address().port}/api`)

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void fastify.close().then(() => engine.close()))
}
