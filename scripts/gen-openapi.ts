// The OpenAPI document of the service, built in-process (no sandbox, no listening socket).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../packages/server/src/config.js';
import { openStore } from '../packages/server/src/store/db.js';
import { buildApp } from '../packages/server/src/app.js';

/** The server URL written into the committed copy: the local default, so the file does not depend on where it was made. */
export const COMMITTED_SERVER = 'http://localhost:8080';

/** Builds the real app on a throw-away store and returns GET /api/openapi.json. */
export async function liveDocument(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-openapi-'));
  const env: Record<string, string | undefined> = { ...process.env, SVC_LOG_LEVEL: 'silent', SVC_DATA_DIR: dataDir };
  delete env.SVC_PUBLIC_URL;
  delete env.DATABASE_URL;
  const config = loadConfig(env);
  const store = await openStore(config.store);
  try {
    const { app } = await buildApp({ config, store, logger: false, worker: false });
    await app.ready();
    const r = await app.inject({ method: 'GET', url: '/api/openapi.json', headers: { host: new URL(COMMITTED_SERVER).host } });
    await app.close();
    if (r.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${r.statusCode}`);
    return r.json();
  } finally {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Recursively sorts object keys so the text is the same for the same document. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** The committed text of a document. */
export function documentText(doc: unknown): string {
  return JSON.stringify(sortKeys(doc), null, 2) + '\n';
}
