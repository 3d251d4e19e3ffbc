// harness.mjs — what the browser tests of the page share: a real memtracer-viewer on the test's
// database (MT_VIEWER_BIN, MT_VIEWER_DB) and a headless Chromium with a fresh profile, console
// errors and off-server requests collected, screenshots under MT_ARTIFACTS; and the small page
// helpers every test uses. Importing it registers the before/after hooks of node:test.
import { before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const env = (k) => { if (!process.env[k]) throw new Error(`set ${k}`); return process.env[k]; };
const require = createRequire(join(env('MT_NODE_MODULES'), 'noop.js'));
const { chromium } = require('playwright-core');
export const artifacts = env('MT_ARTIFACTS');
mkdirSync(artifacts, { recursive: true });

export let server, browser, page, base, profile;
export const consoleErrors = [];

// The viewer's arguments before --port: a test may start it otherwise (live.test.mjs sets this
// in its module body, before the hooks run).
export const setup = { viewerArgs: async () => [env('MT_VIEWER_DB')] };

before(async () => {
  await new Promise((r) => setImmediate(r));  // node runs this hook at once: let the test module's body set `setup` first
  const args = await setup.viewerArgs();
  await new Promise((resolve, reject) => {
    server = spawn(env('MT_VIEWER_BIN'), [...args, '--port', '0', '--threads', '2', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) { base = `http://127.0.0.1:${m[1]}`; resolve(); }
    });
    server.on('exit', (c) => reject(new Error(`viewer exited ${c}: ${out}`)));
  });
  profile = mkdtempSync(join(tmpdir(), 'mt-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 1000 }, acceptDownloads: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = browser.pages()[0] || await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) consoleErrors.push(`off-server request ${r.url()}`); });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

export const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
let loads = 0;
// A full load of the page at this hash (the query string only forces a new document).
export async function open(hash) {
  await page.goto(`${base}/?load=${++loads}#${hash}`);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
}
export const params = (s) => [...new URLSearchParams(s).entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
export const hashNow = () => page.evaluate(() => location.hash.slice(1));
export const topCounts = () => page.$$eval('#top-table tbody tr[data-rank]', (r) => r.map((x) => x.querySelector('.cls').textContent));
