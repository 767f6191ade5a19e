// bench/console: what the console's first page costs. Debian's Chromium (the test rig's flags), a new browser profile
// (cold cache) per run, the service in its own process. A new user opens the console, signs in with a token and waits
// for the workspaces table; a returning user (the session cookie kept, the HTTP cache empty, as after a redeploy)
// opens /workspaces. Prints the bytes transferred (compressed, headers included, every request) and the time to the
// table, medians over runs, on loopback and on a throttled link, as shipped and with the files sent uncompressed (as
// before the build precompressed them), next to the budget.
//
// Times are the page's own clock (performance.now(), zero at the navigation's start), each taken when a thing is
// first drawn: the frame after it entered the DOM. The driver's wall clock around the same steps is printed beside
// them; it adds a new tab's process start and the driver's round trips (some 200 ms on a static page).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, ensureConsoleBuilt } from '../../packages/server/test/console/browser.js';

const here = path.dirname(new URL(import.meta.url).pathname);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
// BENCH_QUICK=1: loopback as shipped only (the budget's rows), for trying a change.
const QUICK = process.env.BENCH_QUICK === '1';
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
  /** In the page: to the sign-in form (new user only), then from the click on Sign in to the table; or to the table. */
  ms: number;
  signInMs: number;
  tableMs: number;
  /** The driver's wall clock over the same steps. */
  wallMs: number;
  encodings: string[];
}

/**
 * Runs in the page before its scripts: notes when the sign-in form and the workspaces table are first drawn (the frame
 * after they enter the DOM) and when Sign in is clicked, on the page's clock. A string, so no bundler helper leaks in.
 */
const MARKS = `(() => {
  const t = {};
  window.__benchMarks = t;
  const drawn = (key) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { t[key] ??= performance.now(); };
    channel.port2.postMessage(0);
  });
  const look = () => {
    if (!t.formSeen && [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Sign in')) {
      t.formSeen = true;
      drawn('form');
    }
    if (!t.tableSeen && document.querySelector('table[aria-label="Workspaces"] tbody tr')) {
      t.tableSeen = true;
      drawn('table');
    }
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true });
  document.addEventListener('click', () => { t.click ??= performance.now(); }, true);
})()`;
interface Marks {
  form?: number;
  table?: number;
  click?: number;
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

/** Someone who signed in before: the session cookie and the console's hint that there was a session, nothing cached. */
type Returning = Awaited<ReturnType<import('playwright-core').BrowserContext['storageState']>>;

/** One cold visit: a new profile, then either sign-in and the table (a new user) or the table at once (returning). */
async function visit(
  browser: Browser,
  url: string,
  token: string,
  profile: Profile,
  acceptEncoding: string | undefined,
  returning?: Returning,
): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: url, storageState: returning });
  try {
    await context.addInitScript(MARKS);
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
    // The driver waits on the marks and finds the form by CSS: its role queries run in the page and would be timed too.
    const drawn = (mark: keyof Marks) =>
      page.waitForFunction((key) => (window as unknown as { __benchMarks: Marks }).__benchMarks[key] !== undefined, mark, {
        polling: 10,
      });
    const t0 = performance.now();
    let wallMs: number;
    if (returning) {
      await page.goto('/workspaces', { waitUntil: 'commit' });
      await drawn('table');
      wallMs = performance.now() - t0;
    } else {
      await page.goto('/', { waitUntil: 'commit' });
      await drawn('form');
      const t1 = performance.now();
      await page.locator('input[name="token"]').fill(token);
      const t2 = performance.now();
      await page.locator('button[type="submit"]').click();
      await drawn('table');
      // Typing the token is the user's time, not the console's: it is left out.
      wallMs = t1 - t0 + (performance.now() - t2);
    }
    const marks = await page.evaluate(() => (window as unknown as { __benchMarks: Marks }).__benchMarks);
    // Requests still finishing when the table showed (a late query) count too.
    await page.waitForLoadState('networkidle');
    let bytes = 0;
    let scriptBytes = 0;
    for (const [id, n] of sizes) {
      bytes += n;
      if (scripts.has(id)) scriptBytes += n;
    }
    const signInMs = returning ? 0 : marks.form!;
    const tableMs = returning ? marks.table! : marks.table! - marks.click!;
    return { bytes, scriptBytes, requests: sizes.size, signInMs, tableMs, ms: signInMs + tableMs, wallMs, encodings: [...encodings] };
  } finally {
    await context.close();
  }
}

/** Signs in once and keeps what a browser keeps between visits: the session cookie and local storage. */
async function signedIn(browser: Browser, url: string, token: string): Promise<Returning> {
  const context = await browser.newContext({ baseURL: url });
  try {
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('table', { name: 'Workspaces' }).getByRole('row').nth(1).waitFor();
    return await context.storageState();
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
console.log('new user = open the console, sign in with a token, the workspaces table shows (typing the token left out)');
console.log('returning = open /workspaces with the session cookie kept and nothing cached; the table shows');
console.log("times on the page's clock from the navigation's start, to the frame that draws each; the driver's wall clock beside");
console.log(`budget: <= ${kb(BUDGET_BYTES)} transferred, <= ${BUDGET_MS} ms to the table on loopback, for both\n`);
let overBudget = false;
try {
  const returning = await signedIn(browser, svc.url, svc.token);
  for (const who of ['new user', 'returning'] as const) {
    for (const profile of QUICK ? PROFILES.slice(0, 1) : PROFILES) {
      for (const enc of QUICK ? ENCODINGS.slice(0, 1) : ENCODINGS) {
        const state = who === 'returning' ? returning : undefined;
        await visit(browser, svc.url, svc.token, profile, enc.acceptEncoding, state);
        const runs: Run[] = [];
        for (let i = 0; i < RUNS; i++) runs.push(await visit(browser, svc.url, svc.token, profile, enc.acceptEncoding, state));
        const bytes = median(runs.map((r) => r.bytes));
        const ms = median(runs.map((r) => r.ms));
        const shipped = enc.acceptEncoding === undefined;
        const verdict =
          shipped && profile.link === undefined ? (bytes <= BUDGET_BYTES && ms <= BUDGET_MS ? 'within budget' : 'OVER BUDGET') : '';
        if (verdict === 'OVER BUDGET') overBudget = true;
        const parts =
          who === 'new user'
            ? ` (sign-in form ${median(runs.map((r) => r.signInMs)).toFixed(0)} ms + Sign in to table ${median(runs.map((r) => r.tableMs)).toFixed(0)} ms)`
            : '';
        console.log(
          `${who.padEnd(9)} ${profile.name.padEnd(15)} ${enc.name.padEnd(13)} ${kb(bytes).padStart(9)} in ${String(median(runs.map((r) => r.requests))).padStart(2)} requests` +
            ` (scripts ${kb(median(runs.map((r) => r.scriptBytes)))}, ${runs[0]!.encodings.join('/')})` +
            ` | to the table ${ms.toFixed(0).padStart(5)} ms${parts}; runs ${Math.min(...runs.map((r) => r.ms)).toFixed(0)}–${Math.max(...runs.map((r) => r.ms)).toFixed(0)} ms` +
            `; wall clock ${median(runs.map((r) => r.wallMs)).toFixed(0)} ms` +
            (verdict ? `  ${verdict}` : ''),
        );
      }
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
