// bench/console: what the console's first page costs a new user. Debian's Chromium (the test rig's flags), a new
// browser profile (cold cache) per run: open the console, sign in with a token, wait for the workspaces table. Prints
// the bytes transferred (compressed, headers included, every request) and the time to the table, medians over runs,
// on loopback and on a throttled link, as shipped and with the files sent uncompressed (as before the build
// precompressed them), next to the budget.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, ensureConsoleBuilt } from '../../packages/server/test/console/browser.js';

const here = path.dirname(new URL(import.meta.url).pathname);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BUDGET_BYTES = 200 * 1024;
const BUDGET_MS = 400;

interface Profile {
  name: string;
  /** CDP Network.emulateNetworkConditions; none on loopback. */
  link?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}
const MBPS = 1_000_000 / 8;
const PROFILES: Profile[] = [
  { name: 'loopback' },
  { name: '10 Mbps, 40 ms', link: { latency: 40, downloadThroughput: 10 * MBPS, uploadThroughput: 10 * MBPS } },
];
const ENCODINGS = [
  { name: 'as shipped', acceptEncoding: undefined },
  { name: 'uncompressed', acceptEncoding: 'identity' },
] as const;

interface Run {
  bytes: number;
  scriptBytes: number;
  requests: number;
  ms: number;
  signInMs: number;
  tableMs: number;
  encodings: string[];
}

async function startService(): Promise<{ child: ChildProcess; url: string; token: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as { url: string; token: string }) };
}

/** One cold visit: a new profile, the sign-in page, the token, the workspaces table. */
async function visit(browser: Browser, url: string, token: string, profile: Profile, acceptEncoding?: string): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: url });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (profile.link) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.link });
    if (acceptEncoding) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': acceptEncoding } });
    const scripts = new Set<string>();
    const encodings = new Set<string>();
    const sizes = new Map<string, number>();
    cdp.on('Network.responseReceived', (e) => {
      if (e.type === 'Script') scripts.add(e.requestId);
      const enc = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
      if (e.type === 'Script') encodings.add(String(enc ?? 'identity'));
    });
    cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
    const t0 = performance.now();
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const t1 = performance.now();
    await page.getByLabel('API token').fill(token);
    const t2 = performance.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('table', { name: 'Workspaces' }).getByRole('row').nth(1).waitFor();
    const t3 = performance.now();
    // Requests still finishing when the table showed (a late query) count too.
    await page.waitForLoadState('networkidle');
    let bytes = 0;
    let scriptBytes = 0;
    for (const [id, n] of sizes) {
      bytes += n;
      if (scripts.has(id)) scriptBytes += n;
    }
    // Typing the token is the user's time, not the console's: it is left out.
    return {
      bytes,
      scriptBytes,
      requests: sizes.size,
      signInMs: t1 - t0,
      tableMs: t3 - t2,
      ms: t1 - t0 + (t3 - t2),
      encodings: [...encodings],
    };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

// The service serves the console's dist as it finds it at start: build it when its sources are newer.
if (!process.env.BENCH_NO_BUILD) ensureConsoleBuilt();
const svc = await startService();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores (the times grow with it; the bytes do not)`,
);
console.log(`bench/console: ${RUNS} cold runs each (a new browser profile per run; the first, warming the service, not counted)`);
console.log('first page = open the console, sign in with a token, the workspaces table shows; time leaves out typing the token');
console.log(`budget: <= ${kb(BUDGET_BYTES)} transferred, <= ${BUDGET_MS} ms to the table on loopback\n`);
let overBudget = false;
try {
  for (const profile of PROFILES) {
    for (const enc of ENCODINGS) {
      await visit(browser, svc.url, svc.token, profile, enc.acceptEncoding);
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await visit(browser, svc.url, svc.token, profile, enc.acceptEncoding));
      const bytes = median(runs.map((r) => r.bytes));
      const ms = median(runs.map((r) => r.ms));
      const shipped = enc.acceptEncoding === undefined;
      const verdict =
        shipped && profile.link === undefined ? (bytes <= BUDGET_BYTES && ms <= BUDGET_MS ? 'within budget' : 'OVER BUDGET') : '';
      if (verdict === 'OVER BUDGET') overBudget = true;
      console.log(
        `${profile.name.padEnd(15)} ${enc.name.padEnd(16)} ${kb(bytes).padStart(9)} in ${String(median(runs.map((r) => r.requests))).padStart(2)} requests` +
          ` (scripts ${kb(median(runs.map((r) => r.scriptBytes)))}, ${runs[0]!.encodings.join('/')})` +
          ` | to the table ${ms.toFixed(0).padStart(5)} ms (sign-in page ${median(runs.map((r) => r.signInMs)).toFixed(0)} ms` +
          ` + sign-in to table ${median(runs.map((r) => r.tableMs)).toFixed(0)} ms; runs ${Math.min(...runs.map((r) => r.ms)).toFixed(0)}–${Math.max(...runs.map((r) => r.ms)).toFixed(0)} ms)` +
          (verdict ? `  ${verdict}` : ''),
      );
    }
  }
} finally {
  await browser.close();
  await new Promise((r) => {
    svc.child.once('exit', r);
    svc.child.kill('SIGTERM');
  });
}
if (overBudget) process.exitCode = 1;
