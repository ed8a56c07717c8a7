#!/usr/bin/env node
// The command line runs the TypeScript sources directly through tsx's loader, so there is no build step.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
