import type { TestContext } from 'node:test';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/index.js';

/** A fresh sandbox for a test, stopped when the test ends. */
export async function sandbox(t: TestContext, options: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox(options);
  t.after(() => sb.stop());
  return sb;
}

/** fetch with a bearer token and JSON body; answers status, headers and the parsed body (text when not JSON). */
export async function call(
  url: string,
  opts: { method?: string; token?: string; json?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: opts.method ?? (opts.json !== undefined ? 'POST' : 'GET'),
    headers,
    body: opts.json !== undefined ? JSON.stringify(opts.json) : undefined,
    signal: opts.signal,
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** The header every OneLake (DFS) request carries: the storage API version it speaks. */
export const DFS_VERSION = { 'x-ms-version': '2025-01-05' };

/** A definition part from text. */
export const part = (path: string, text: string) => ({ path, payload: Buffer.from(text).toString('base64'), payloadType: 'InlineBase64' });

/** Decodes a JWT's payload (no verification). */
export const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
