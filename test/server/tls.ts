import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

/** Generate a self-signed certificate for localhost with openssl into `dir` as `<name>-cert.pem` and `<name>-key.pem`. */
export function makeSelfSignedCert(dir: string, name: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, `${name}-cert.pem`)
  const keyFile = join(dir, `${name}-key.pem`)
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' })
  return { certFile, keyFile }
}
