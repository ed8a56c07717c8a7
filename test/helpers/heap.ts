import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** The engine's `gc()` (the flag exposes it to contexts created afterwards). */
const collect: () => void = (() => {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
})()

/** Heap in use after a full collection (two, so that what the first freed is swept). */
export function heapAfterGc(): number {
  collect()
  collect()
  return process.memoryUsage().heapUsed
}
