// In-page checks of the console's layout and accessibility, for a11y.test.ts: axe-core, sideways scroll, the brand
// bar's controls, and table cells whose content prints over the next cell.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Violations that come from Fluent UI itself, not from this console, each with its upstream reason; a node is left
 * out only when its own markup matches (the narrowest hold), anything else axe finds counts.
 */
export const LIBRARY_EXCLUSIONS: Array<{ rule: string; html: RegExp; reason: string }> = [
  {
    // Tabster (Fluent's focus manager) puts <i tabindex="0" aria-hidden="true" data-tabster-dummy> at the edges of
    // tab lists, toolbars, menus and dialogs: focusable on purpose, so focus landing there is sent on at once, and
    // aria-hidden so screen readers never announce it. microsoft/tabster#288, microsoft/fluentui#25133; Accessibility
    // Insights suppresses it the same way (microsoft/accessibility-insights-web#7605).
    rule: 'aria-hidden-focus',
    html: /^<i [^>]*\bdata-tabster-dummy=""[^>]*><\/i>$/,
    reason: 'Tabster focus bumpers',
  },
];

/**
 * Runs axe-core on the page as it is and returns its serious and critical violations, library exclusions removed.
 * The source is evaluated by the DevTools protocol, which the page's Content-Security-Policy does not govern (an
 * inline <script> would be refused, and the rig would fail on the report).
 */
export async function axeSerious(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Colours are judged settled: no pointer hovering a control, and no colour transition half way (a theme switch or a
  // hover that just ended fades Fluent's buttons over ~100 ms, and axe would read the colour in between).
  await page.mouse.move(0, 0);
  await page.evaluate(async () => {
    if (!document.getElementById('axe-settled')) {
      const style = document.createElement('style');
      style.id = 'axe-settled';
      style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
      document.head.append(style);
    }
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: any }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return (r.violations as any[]).map((v) => ({
      rule: String(v.id),
      impact: String(v.impact),
      help: String(v.help),
      nodes: (v.nodes as any[]).map((n) => ({
        html: String(n.html),
        text: `${JSON.stringify(n.target)} ${String(n.failureSummary ?? '')
          .split('\n')
          .slice(1)
          .join(' ')}`,
      })),
    }));
  });
  return found
    .filter((f) => f.impact === 'serious' || f.impact === 'critical')
    .map(({ nodes, ...f }) => ({
      ...f,
      targets: nodes.filter((n) => !LIBRARY_EXCLUSIONS.some((x) => x.rule === f.rule && x.html.test(n.html))).map((n) => n.text),
    }))
    .filter((f) => f.targets.length > 0);
}

/** What scrolls sideways: the document, or the main region (the page's own scroll box). */
export async function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth) out.push(`document ${doc.scrollWidth} > ${window.innerWidth}`);
    const main = document.querySelector('main');
    if (main && main.scrollWidth > main.clientWidth + 1) out.push(`main ${main.scrollWidth} > ${main.clientWidth}`);
    return out;
  });
}

/** The brand bar's buttons and links that are cut by the window's edge or have no size (pushed out). */
export async function headerControlsCut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('header button, header a, header [tabindex="0"]')) {
      if (getComputedStyle(el).display === 'none') continue;
      const r = el.getBoundingClientRect();
      const name = el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName;
      if (r.width < 8 || r.left < 0 || r.right > window.innerWidth + 0.5)
        out.push(`${name}: ${Math.round(r.left)}..${Math.round(r.right)}`);
      else if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== 'ellipsis')
        out.push(`${name}: its text is cut (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return out;
  });
}

/**
 * Cells of a table whose visible content reaches outside the cell (printing over its neighbour). A node's box is
 * clipped by every ancestor up to the cell that hides its overflow, so truncated text (an ellipsis) does not count.
 */
export async function overlappingCells(page: Page, tableSelector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    const table = document.querySelector(sel);
    if (!table) return [`no table ${sel}`];
    const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, col) => {
        const cr = cell.getBoundingClientRect();
        if (cr.width === 0) return; // a hidden column
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          let box: DOMRect;
          if (n.nodeType === Node.TEXT_NODE) {
            if (!n.textContent?.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(n);
            box = range.getBoundingClientRect();
          } else box = (n as Element).getBoundingClientRect();
          if (box.width === 0) continue;
          let left = box.left;
          let right = box.right;
          for (let a = n.parentElement; a && a !== cell.parentElement; a = a.parentElement) {
            if (getComputedStyle(a).overflowX === 'visible') continue;
            const ar = a.getBoundingClientRect();
            left = Math.max(left, ar.left);
            right = Math.min(right, ar.right);
          }
          if (right - left > 0 && (left < cr.left - 1 || right > cr.right + 1)) {
            out.push(
              `${headers[col] ?? col}: "${n.textContent?.trim().slice(0, 40)}" spans ${Math.round(left)}..${Math.round(right)}, cell ${Math.round(cr.left)}..${Math.round(cr.right)}`,
            );
            break;
          }
        }
      });
    }
    return out;
  }, tableSelector);
}

/** Rows of the install plan whose first four parts (icon, name, action, where it lives) are not on one line. */
export async function planRowsBroken(page: Page): Promise<string[]> {
  // No named function inside: the test's compiler would wrap it in a helper the page does not have.
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="plan-item"]')].flatMap((row) => {
      const middles = [...row.children].slice(0, 4).map((c) => c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2);
      return middles.some((m) => Math.abs(m - middles[0]!) > 4) ? [`${row.textContent?.slice(0, 40)}: parts on more than one line`] : [];
    }),
  );
}
