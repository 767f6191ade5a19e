import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '/work/main/packages/server/test/console/browser.js';
const child = spawn(process.execPath, ['--import', 'tsx', '/work/main/bench/console/server.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise<string>((r) => createInterface({ input: child.stdout! }).once('line', r));
const { url, token } = JSON.parse(line);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const agg = new Map<string, number>();
const phase = process.env.PHASE ?? 'click';
for (let i = 0; i < 5; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: url });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  if (phase === 'load') await cdp.send('Profiler.start');
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  if (phase === 'load') {
    const { profile } = await cdp.send('Profiler.stop');
    add(profile);
  }
  await page.getByLabel('API token').fill(token);
  await page.waitForTimeout(300);
  if (phase === 'click') await cdp.send('Profiler.start');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('table', { name: 'Workspaces' }).getByRole('row').nth(1).waitFor();
  if (phase === 'click') {
    const { profile } = await cdp.send('Profiler.stop');
    add(profile);
  }
  await ctx.close();
}
function add(profile: any) {
  const dt = profile.timeDeltas as number[];
  const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  profile.samples.forEach((id: number, k: number) => {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = (byId.get(cur) as any).callFrame;
      const key = `${f.functionName || '(anon)'} ${f.url.replace(url, '').replace(/-[A-Za-z0-9_]{8}\.js/, '.js')}:${f.lineNumber}`;
      if (seen.has(key)) continue;
      seen.add(key);
      agg.set(key, (agg.get(key) ?? 0) + (dt[k] ?? 0) / 1000 / 5);
    }
  });
}
const total = [...agg.values()].reduce((a, b) => a + b, 0);
console.log('total sampled ms per run', total.toFixed(0));
for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 70)) console.log(v.toFixed(1).padStart(7), k);
await browser.close();
child.kill();
