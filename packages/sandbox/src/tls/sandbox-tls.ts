import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testCertificates, type TlsMaterial } from './test-ca.js';

/**
 * The sandbox's TLS material in `<dataDir>/tls` (a temporary directory, removed by dispose, when none is given): a
 * server certificate for every loopback name a client may use, signed by the test certificate authority kept there.
 */
export function sandboxTls(dataDir: string | undefined, host: string): { material: TlsMaterial; dispose(): void } {
  const temporary = dataDir ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sandbox-'));
  const dir = path.join(path.resolve(dataDir ?? temporary!), 'tls');
  const material = testCertificates(dir, ['localhost', '127.0.0.1', '::1', host]);
  return { material, dispose: () => temporary && fs.rmSync(temporary, { recursive: true, force: true }) };
}
