import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '/work/main/packages/server/test/console/browser.js';
const child = spawn(process.execPath, ['--import', 'tsx', '/work/main/bench/console/server.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise<string>((r) => createInterface({ input: child.stdout! }).once('line', r));
const { url, token } = JSON.parse(line);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const N = 4;
const phases = ['load', 'click'];
const agg = new Map<string, number>();
for (let i = 0; i < N + 1; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: url });
  const page = await ctx.newPage();
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'v8', 'blink', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
  });
  const marks: number[] = [];
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.getByLabel('API token').fill(token);
  await page.waitForTimeout(400);
  await page.evaluate(() => performance.mark('click'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('table', { name: 'Workspaces' }).getByRole('row').nth(1).waitFor();
  const buf = await browser.stopTracing();
  if (i === 0) {
    await ctx.close();
    continue;
  }
  const events = JSON.parse(buf.toString()).traceEvents as any[];
  const parse = events.find((e) => e.name === 'ParseHTML' && JSON.stringify(e.args).includes('127.0.0.1'));
  const clickMark = events.find((e) => e.name === 'click' && e.cat?.includes('blink.user_timing'));
  const mine = events.filter((e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === 'X' && e.dur);
  mine.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // second level: children of RunTask (events nested directly)
  let task: any;
  let childEnd = -1;
  for (const e of mine) {
    const ph = clickMark && e.ts >= clickMark.ts ? 'click' : 'load';
    if (e.name === 'RunTask') {
      task = e;
      childEnd = -1;
      agg.set(`${ph} =task`, (agg.get(`${ph} =task`) ?? 0) + e.dur / 1000 / N);
      continue;
    }
    if (task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e.ts >= childEnd) {
      agg.set(`${ph} ${e.name}`, (agg.get(`${ph} ${e.name}`) ?? 0) + e.dur / 1000 / N);
      childEnd = e.ts + e.dur;
    }
  }
  if (!clickMark) console.log('no click mark');
  await ctx.close();
}
for (const ph of phases) {
  console.log(`-- ${ph}`);
  for (const [k, v] of [...agg]
    .filter(([k]) => k.startsWith(ph))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 14))
    console.log(v.toFixed(1).padStart(7), k);
}
await browser.close();
child.kill();
