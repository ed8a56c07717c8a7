import fc from 'fast-check'

// Every property test is reproducible: a fixed global seed (FC_SEED overrides it), and a bounded run.
const seed = Number.parseInt(process.env['FC_SEED'] ?? '20261122', 10)
fc.configureGlobal({ seed, numRuns: 100, interruptAfterTimeLimit: 20_000 })
