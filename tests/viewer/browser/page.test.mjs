// The page in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core; no
// browser is downloaded): load it from a real memtracer-viewer on loopback, click a frame,
// expand a stack, switch to TopN, Compare and the flame graph, and check what is shown.
// Screenshots land in $MT_ARTIFACTS. Env: MT_VIEWER_BIN, MT_VIEWER_DB, MT_NODE_MODULES.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env = (k) => { if (!process.env[k]) throw new Error(`set ${k}`); return process.env[k]; };
const require = createRequire(join(env('MT_NODE_MODULES'), 'noop.js'));
const { chromium } = require('playwright-core');
const artifacts = env('MT_ARTIFACTS');
mkdirSync(artifacts, { recursive: true });

let server, browser, page, base, profile;
const consoleErrors = [];

function startServer(extra = [], log = null) {
  return new Promise((resolve, reject) => {
    const args = [env('MT_VIEWER_DB'), '--port', '0', '--threads', '2', ...(log ? [] : ['--quiet']), ...extra];
    const p = spawn(env('MT_VIEWER_BIN'), args, { stdio: ['ignore', 'pipe', log ? 'pipe' : 'inherit'] });
    if (log) p.stderr.on('data', (d) => { log.text += d; });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({ p, url: `http://127.0.0.1:${m[1]}` });
    });
    p.on('exit', (c) => reject(new Error(`viewer exited ${c}: ${out}`)));
  });
}

before(async () => {
  const s = await startServer();
  server = s.p;
  base = s.url;
  profile = mkdtempSync(join(tmpdir(), 'mt-chromium-'));
  // A fresh profile each run; playwright passes it to chromium as --user-data-dir.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = browser.pages()[0] || await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  // The page must work with no network: any request off the server fails the test.
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('data:')) consoleErrors.push(`off-server request ${r.url()}`); });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

test('loads the runs and the timeline', async () => {
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  const options = await page.$$eval('#run-select option', (o) => o.map((x) => x.textContent));
  assert.ok(options.length >= 1, 'runs listed');
  assert.ok(await page.$('#timeline canvas'), 'timeline chart drawn');
  assert.match(await page.textContent('#run-facts'), /Frames/);
  await shot('01-loaded');
});

test('clicking a frame in the timeline shows its classes; a stack expands to frames', async () => {
  const box = await page.$eval('#timeline .u-over', (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  const seq = await page.evaluate(() => Math.floor(window.memtracer.state.runs.length ? 29 : 0));
  const x = await page.evaluate((s) => window.memtracer.timeline.frameX(s), seq);
  await page.mouse.click(box.x + x, box.y + box.h / 2);
  await page.waitForSelector('#frame-table tbody tr.expandable', { timeout: 10000 });
  const picked = await page.evaluate(() => window.memtracer.state.frame);
  assert.ok(picked !== null && Math.abs(picked - seq) <= 2, `frame ${picked} near ${seq}`);
  assert.match(await page.textContent('#tab-frame h2'), /Frame/);
  const firstClass = await page.textContent('#frame-table tbody tr.expandable .cls');
  assert.ok(firstClass.length > 0);
  await page.click('#frame-table tbody tr.expandable');
  await page.click('#frame-table tr.detail:not([hidden]) .stack-head');
  await page.waitForSelector('#frame-table tr.detail:not([hidden]) ol.stack li');
  const frames = await page.$$eval('#frame-table tr.detail:not([hidden]) ol.stack li .fn', (l) => l.map((x) => x.textContent));
  assert.ok(frames.length >= 2, 'stack frames listed');
  await shot('02-frame-stack');
});

test('TopN ranks classes, and switches to sites and stacks', async () => {
  await page.click('button.tab[data-tab="top"]');
  await page.waitForSelector('#top-table tbody tr');
  const rows = await page.$$eval('#top-table tbody tr[data-rank]', (r) => r.length);
  assert.ok(rows >= 1);
  await page.click('#tab-top .segmented button[data-value="site"]');
  await page.waitForSelector('#top-table th:has-text("Allocation site")');
  await page.click('#tab-top .segmented button[data-value="count"]');
  await page.waitForSelector('#top-table th:has-text("Share of count")');
  await page.click('#tab-top .segmented button[data-value="stack"]');
  await page.waitForSelector('#top-table tr.expandable');
  await page.click('#top-table tr.expandable');
  await page.waitForSelector('#top-table tr.detail:not([hidden]) ol.stack li');
  await shot('03-topn');
});

test('dragging a range restricts TopN to it', async () => {
  const box = await page.$eval('#timeline .u-over', (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  await page.mouse.move(box.x + box.w * 0.2, box.y + box.h / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.w * 0.5, box.y + box.h / 2, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction(() => window.memtracer.state.range !== null);
  await page.waitForSelector('#tab-top .range-note:has-text("frames")');
  assert.match(await page.textContent('#selection-label'), /Range: frames \d/);
  await shot('04-range');
  await page.click('#clear-range');
});

test('Compare shows two runs with new and vanished entries', async () => {
  await page.click('button.tab[data-tab="compare"]');
  await page.waitForSelector('#compare-table tbody tr');
  const statuses = await page.$$eval('#compare-table tbody tr', (r) => r.map((x) => x.dataset.status));
  assert.ok(statuses.length >= 1);
  const nRuns = await page.evaluate(() => window.memtracer.state.runs.length);
  if (nRuns >= 2 && process.env.MT_EXPECT_FIXTURE) {
    assert.ok(statuses.includes('new') && statuses.includes('vanished'), statuses.join(','));
    assert.match(await page.textContent('#compare-table'), /Enemy/);
  }
  await shot('05-compare');
});

test('the flame graph draws and zooms on click', async () => {
  await page.click('button.tab[data-tab="flame"]');
  await page.waitForSelector('#flame-canvas');
  const h0 = await page.$eval('#flame-canvas', (c) => c.height);
  assert.ok(h0 > 40, 'flame has depth');
  const box = await page.$eval('#flame-canvas', (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width }; });
  await page.mouse.move(box.x + 30, box.y + 30);
  await page.waitForSelector('.flame-tip:not([hidden])');
  await shot('06-flame');
  await page.mouse.click(box.x + 30, box.y + 50);
  await page.waitForFunction(() => document.querySelectorAll('.crumb').length >= 2);
  assert.deepEqual(consoleErrors, []);
});

// Chromium's own headers against the cross-site guard: the page may post to its server; a page
// of another site (http://localhost:P posting to http://127.0.0.1:Q) may not, and nothing of its
// body is stored.
test('uploads: the page itself is let through, another site is refused 403', async () => {
  const data = mkdtempSync(join(tmpdir(), 'mt-upload-'));
  const log = { text: '' };
  const up = await startServer(['--data', data, '--symbolizer', join(data, 'none')], log);
  const other = await browser.newPage();
  try {
    await other.goto(up.url + '/');
    // Not a run.mt: a 400 from the header check shows the request got past the guard.
    const own = await other.evaluate(async () => {
      const r = await fetch('/api/runs', { method: 'POST', body: 'not a capture', headers: { 'Content-Type': 'application/octet-stream' } });
      return { status: r.status, body: await r.text() };
    });
    assert.equal(own.status, 400, own.body);
    assert.match(own.body, /not a run\.mt/);
    // Another site: a plain page (no CSP of ours) from a little server on localhost.
    const site = createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end('<!doctype html><title>elsewhere</title>'); });
    await new Promise((r) => site.listen(0, '127.0.0.1', r));
    const siteUrl = `http://localhost:${site.address().port}`;
    await other.goto(siteUrl + '/');
    site.close();
    const target = up.url + '/api/runs';
    await other.evaluate(async (url) => {
      // no-cors: the answer is opaque to the page, but the request is sent, as a form post would be.
      try { await fetch(url, { method: 'POST', mode: 'no-cors', body: 'MEMTRACE cross-site body' }); } catch { /* opaque */ }
    }, target);
    // The browser did send it (the server logged it), and the server refused it.
    const deadline = Date.now() + 60000;  // a bound against hanging, not a measurement
    while (!/ POST \/api\/runs 403 /.test(log.text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.match(log.text, / POST \/api\/runs 403 /, log.text);
    const res = await fetch(up.url + '/api/jobs');
    const jobs = await res.json();
    assert.equal(jobs.total, 0, JSON.stringify(jobs));
    const direct = await fetch(target, { method: 'POST', body: 'x', headers: { Origin: siteUrl, 'Sec-Fetch-Site': 'cross-site' } });
    assert.equal(direct.status, 403);
  } finally {
    await other.close();
    up.p.kill('SIGTERM');
    rmSync(data, { recursive: true, force: true });
  }
});
