import { createMemoryStorage } from '../../src/storage/memory.ts'
import { runStorageContract } from '../helpers/storage-contract.ts'

runStorageContract('memory', async (options) => createMemoryStorage(options))
