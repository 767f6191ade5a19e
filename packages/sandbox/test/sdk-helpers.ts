import { execFile } from 'node:child_process';
import https from 'node:https';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Sandbox } from '../src/index.js';

/** A request over https trusting only the given CA (GET unless `json`); answers status and the parsed body (a TLS failure rejects). */
export function httpsJson(
  url: string,
  ca: string | undefined,
  opts: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const payload = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  const headers = {
    ...opts.headers,
    ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: opts.method ?? (payload ? 'POST' : 'GET'), ca, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: text });
        }
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** What an SDK script reports for one scenario: its result, or the error the SDK threw. */
export type Outcome<T = any> = { ok: T } | { error: { name: string; message: string; [k: string]: unknown } };

/**
 * Runs a script of test/sdk/ in a new Node process with the sandbox's environment (NODE_EXTRA_CA_CERTS is read only at
 * process start, so the SDKs trust the sandbox's https as they would a real service's) and answers what it printed.
 */
export async function runSdkScript(sb: Sandbox, script: string, env: Record<string, string> = {}): Promise<Record<string, Outcome>> {
  const file = fileURLToPath(new URL(`./sdk/${script}`, import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
    env: { ...process.env, ...sb.env, SANDBOX_URLS: JSON.stringify(sb.urls), SANDBOX_IDS: JSON.stringify(sb.ids), ...env },
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}
