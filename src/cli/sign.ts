/** `textengine sign METHOD URL`: a ready curl command for a signed request. */
import { randomInt } from 'node:crypto'
import { parseArgs } from 'node:util'
import { signUrl } from '../auth/signature.ts'
import { EXIT, SIGN_USAGE } from './usage.ts'

/** Quote a word for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\-.,/:=@%+]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** The curl command for a signed request (nonce and timestamp given, so the result is testable). */
export function signedCurl(o: {
  method: string
  url: string
  key: string
  secret: string
  nonce: string
  timestamp: number
  data?: string | undefined
  insecure?: boolean | undefined
}): string {
  const signed = signUrl(o.url, o.key, o.secret, o.nonce, o.timestamp)
  const words = ['curl', ...(o.insecure === true ? ['-k'] : []), '-X', o.method, '-H', `Authorization: ${signed.authorization}`]
  if (o.data !== undefined) words.push('-H', 'Content-Type: application/json', '--data-binary', o.data)
  words.push(signed.url)
  return words.map(shellQuote).join(' ')
}

/** Run `textengine sign`; resolves with the exit code. */
export async function runSign(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const usage = (msg: string): number => {
    process.stderr.write(`textengine sign: ${msg}\n${SIGN_USAGE}\n`)
    return EXIT.usage
  }
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        key: { type: 'string' },
        secret: { type: 'string' },
        data: { type: 'string' },
        insecure: { type: 'boolean', short: 'k' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    })
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e))
  }
  const { values, positionals } = parsed
  if (values.help === true) {
    process.stdout.write(SIGN_USAGE + '\n')
    return EXIT.ok
  }
  if (positionals.length !== 2) return usage(`expected METHOD and URL, found ${positionals.length} argument(s)`)
  const method = positionals[0]!.toUpperCase()
  const url = positionals[1]!
  if (!['GET', 'POST', 'PUT', 'DELETE'].includes(method)) return usage(`METHOD ${JSON.stringify(positionals[0])} is not one of GET, POST, PUT, DELETE`)
  let parsedUrl: URL | undefined
  try {
    parsedUrl = new URL(url)
  } catch {
    parsedUrl = undefined
  }
  if (parsedUrl === undefined || (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:')) {
    return usage(`URL ${JSON.stringify(url)} is not an absolute http:// or https:// URL (the signature covers scheme, host and path)`)
  }
  const key = values.key ?? env['API_KEY'] ?? ''
  const secret = values.secret ?? env['API_SECRET'] ?? ''
  if (key === '' || secret === '') return usage('no account: give --key and --secret, or set API_KEY and API_SECRET')
  // A 20-digit nonce like the SDKs send, and the timestamp in seconds.
  const nonce = String(randomInt(1, 10)) + Array.from({ length: 19 }, () => String(randomInt(0, 10))).join('')
  process.stdout.write(
    signedCurl({ method, url, key, secret, nonce, timestamp: Math.floor(Date.now() / 1000), data: values.data, insecure: values.insecure }) + '\n',
  )
  return EXIT.ok
}
