// Express 5: the API mounted at /api, before any body parser.
//   PORT=8080 API_KEY=my-key API_SECRET=my-secret node examples/express.mjs
// Clients (the SDKs) use the base URL http://127.0.0.1:8080/api with that key and secret.
import express from 'express'
import { createEngine } from 'textengine'
import { createHttpHandler, toNodeListener } from 'textengine/http'

const key = process.env.API_KEY ?? 'my-key'
const secret = process.env.API_SECRET ?? 'my-secret'
const engine = createEngine({ accounts: [{ key, secret }] })

const app = express()
// First: the handler reads the raw body itself (size limits, gzip, JSON or XML by suffix) and signs
// req.originalUrl, so it must come before express.json() or any other body parser.
app.use('/api', toNodeListener(createHttpHandler(engine, { basePath: '/api' })))
// Then the application's own middleware and routes.
app.use(express.json())
app.post('/echo', (req, res) => res.json(req.body))
app.get('/', (_req, res) => res.type('text').send('home'))

const server = app.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', (error) => {
  if (error) throw error
  console.log(`listening on http://127.0.0.1:${server.address().port}/api`)
})

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => server.close(() => void engine.close()))
}
