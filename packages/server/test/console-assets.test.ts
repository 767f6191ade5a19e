import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { CONSOLE_DIST } from '../src/web/console.js';
import { ensureConsoleBuilt } from './console/browser.js';
import { build, type TestApp } from './helpers.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const decoders: Record<'br' | 'gzip' | 'identity', (b: Buffer) => Buffer> = {
  br: (b) => zlib.brotliDecompressSync(b),
  gzip: (b) => zlib.gunzipSync(b),
  identity: (b) => b,
};

describe('the console files are sent compressed, cached by their hash', () => {
  let h: TestApp;
  let entry = '';
  let css = '';
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const c of closers) await c();
  });
  before(async () => {
    // The service serves dist only when it exists at start: build it first (a no-op when it is newer than its sources).
    ensureConsoleBuilt();
    h = await build({ after: (fn: () => Promise<void>) => void closers.push(fn) });
    const html = fs.readFileSync(path.join(CONSOLE_DIST, 'index.html'), 'utf8');
    entry = /<script[^>]+src="([^"]+)"/.exec(html)?.[1] ?? '';
    css = /<link[^>]+href="([^"]+\.css)"/.exec(html)?.[1] ?? '';
    assert.match(entry, /^\/assets\/.+\.js$/);
  });

  const get = (url: string, acceptEncoding?: string, accept = '*/*', cookie?: string) =>
    h.app.inject({
      method: 'GET',
      url,
      headers: { accept, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...(cookie ? { cookie } : {}) },
    });

  for (const [acceptEncoding, expected] of [
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', 'identity'],
    ['deflate', 'identity'], // no deflate copies: the file itself
    [undefined, 'identity'],
  ] as const) {
    test(`Accept-Encoding ${acceptEncoding ?? '(none)'}: the script, its CSS and both pages come as ${expected} and decode to the built file`, async () => {
      const files: Array<{ url: string; file?: string; cookie?: string; type: RegExp; cache: string }> = [
        { url: entry, type: /^text\/javascript|^application\/javascript/, cache: IMMUTABLE },
        { url: '/', file: '/sign-in.html', type: /^text\/html/, cache: 'no-cache' },
        { url: '/', file: '/index.html', cookie: 'theme=dark; svc_session=abc', type: /^text\/html/, cache: 'no-cache' },
        ...(css ? [{ url: css, type: /^text\/css/, cache: IMMUTABLE }] : []),
      ];
      for (const f of files) {
        const r = await get(f.url, acceptEncoding, '*/*', f.cookie);
        assert.equal(r.statusCode, 200, f.url);
        assert.equal(r.headers['content-encoding'], expected === 'identity' ? undefined : expected, f.url);
        assert.match(String(r.headers['content-type']), f.type, f.url);
        assert.equal(r.headers['cache-control'], f.cache, f.url);
        assert.match(String(r.headers.vary), /accept-encoding/i, f.url);
        assert.equal(Number(r.headers['content-length']), r.rawPayload.length, f.url);
        const onDisk = fs.readFileSync(path.join(CONSOLE_DIST, f.file ?? f.url));
        assert.deepEqual(decoders[expected](r.rawPayload), onDisk, `${f.url} decodes to the file`);
        // Scripts shrink to about a quarter; the small page less.
        const most = f.url === entry ? onDisk.length / 3 : onDisk.length;
        if (expected !== 'identity') assert.ok(r.rawPayload.length < most, `${f.url}: ${r.rawPayload.length} of ${onDisk.length} bytes`);
      }
    });
  }

  test('every script, stylesheet and page of the build has a brotli and a gzip copy, brotli the smaller', () => {
    const files = fs.readdirSync(CONSOLE_DIST, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(js|css|html)$/.test(f));
    assert.ok(files.length > 5, `${files.length} files`);
    for (const f of files) {
      const size = fs.statSync(path.join(CONSOLE_DIST, f)).size;
      if (size < 200) continue; // too small to gain from compression: sent as is
      const br = fs.statSync(path.join(CONSOLE_DIST, `${f}.br`)).size;
      const gz = fs.statSync(path.join(CONSOLE_DIST, `${f}.gz`)).size;
      assert.ok(br < size && gz < size && br <= gz, `${f}: ${size} bytes, br ${br}, gz ${gz}`);
    }
  });

  test('a deep link still answers the console page (revalidated); the favicon is kept a day; an API path its JSON 404; a missing asset 404', async () => {
    const page = await get('/workspaces/abc', 'br', 'text/html', 'svc_session=abc');
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['content-encoding'], 'br');
    assert.match(zlib.brotliDecompressSync(page.rawPayload).toString('utf8'), /<div id="root"><\/div>/);
    assert.equal(page.headers['cache-control'], 'no-cache');
    // The favicon has no hash in its name but changes rarely; Chromium asks for it at each navigation of the page.
    const icon = await get('/favicon.svg', 'br');
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['cache-control'], 'public, max-age=86400');
    const api = await get('/api/nope', 'br', 'application/json');
    assert.equal(api.statusCode, 404);
    assert.equal(api.json().error.code, 'route_not_found');
    const missing = await get('/assets/missing-0000.js', 'br');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['content-encoding'], undefined);
  });

  test('without a session cookie the page comes with the sign-in form drawn in, its field focused and Sign in disabled; the answer varies by cookie', async () => {
    for (const cookie of [undefined, 'svc_sessionx=1; other=svc_session=1']) {
      const page = await get('/workspaces/abc', 'br', 'text/html', cookie);
      assert.equal(page.statusCode, 200);
      const html = zlib.brotliDecompressSync(page.rawPayload).toString('utf8');
      assert.match(html, /<div id="root" data-prerendered="sign-in">/, String(cookie));
      assert.match(html, /<input[^>]*autofocus=""[^>]*name="token"/);
      assert.match(html, /<button[^>]*type="submit"[^>]*disabled=""[^>]*>Sign in<\/button>/);
      assert.match(html, /<style data-prerendered="" data-make-styles-bucket=/, 'its styles, marked for the script to remove');
      assert.match(String(page.headers.vary), /cookie/i);
    }
    assert.equal((await get('/', 'br', 'text/html')).headers.link, undefined, 'nothing preloaded without a session');
    // With a session cookie: whoami on every page, the workspace list where it shows.
    for (const [url, preloads] of [
      ['/', ['/api/whoami', '/api/workspaces?limit=200']],
      ['/workspaces?q=sales', ['/api/whoami', '/api/workspaces?limit=200']],
      ['/jobs', ['/api/whoami']],
    ] as const) {
      const link = String((await get(url, 'br', 'text/html', 'svc_session=abc')).headers.link);
      assert.deepEqual(
        [...link.matchAll(/<([^>]+)>; rel=preload; as=fetch; crossorigin/g)].map((m) => m[1]),
        preloads,
        url,
      );
    }
    const head = await h.app.inject({ method: 'HEAD', url: '/' });
    assert.equal(head.statusCode, 200);
    assert.match(String(head.headers['content-type']), /^text\/html/);
  });

  test('a HEAD of the script names its encoding and length without a body', async () => {
    const r = await h.app.inject({ method: 'HEAD', url: entry, headers: { 'accept-encoding': 'br' } });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-encoding'], 'br');
    assert.equal(Number(r.headers['content-length']), fs.statSync(path.join(CONSOLE_DIST, `${entry}.br`)).size);
    assert.equal(r.rawPayload.length, 0);
  });
});
