// The Leaks and Temporaries views and the live-heap line of the timeline, in headless Chromium
// against a real memtracer-viewer on a real sample-game database (make_leak_db.sh: run 1 with
// lifetimes and a deliberate leak, LeakyCache.Remember keeping one System.Single[] a frame; run 2
// without lifetimes). The test names no class or site to the page: it asserts what the page
// ranks first. Numbers are the API's own answers. Env as page.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { consoleErrors, hashNow, open, page, params, shot } from './harness.mjs';


// The API's answer, fetched from the page's origin (the numbers the view must show).
const apiJson = (path) => page.evaluate(async (p) => (await (await fetch(p)).json()), path);
const firstRow = (table) => page.evaluate((t) => {
  const r = document.querySelector(`#${t} tbody tr[data-rank="1"]`);
  return r ? r.querySelector('.cls').textContent : null;
}, table);
// Waits (bounded) until the table's first row names `want`, then returns it.
async function waitFirst(table, want) {
  await page.waitForFunction(([t, w]) => {
    const r = document.querySelector(`#${t} tbody tr[data-rank="1"] .cls`);
    return r && r.textContent.includes(w);
  }, [table, want], { timeout: 20000 });
  return firstRow(table);
}

test('the Leaks view ranks the deliberate leak first, by class and by site', async () => {
  await open('run=1');
  await page.click('button.tab[data-tab="leaks"]');
  await page.waitForFunction(() => location.hash.includes('tab=leaks'));
  await page.waitForSelector('#leaks-table tbody tr[data-rank="1"]', { timeout: 20000 });
  // Whatever the page ranks first must be the leak (no hint given): Single[] by class.
  const api = await apiJson('/api/runs/1/leaks?limit=5');
  assert.equal(api.by, 'frames');
  assert.equal(await firstRow('leaks-table'), api.entries[0].full_name);
  assert.equal(api.entries[0].full_name, 'System.Single[]');
  const cells = await page.$$eval('#leaks-table tbody tr[data-rank="1"] td', (t) => t.map((c) => c.textContent));
  const e = api.entries[0];
  // #, class, alive, GC bytes, oldest frame, age, frames kept, share.
  assert.equal(cells[2], e.count.toLocaleString('en-US'));
  assert.equal(cells[4], e.oldest_seq.toLocaleString('en-US'));
  assert.equal(cells[5], e.age_frames.toLocaleString('en-US'));
  assert.equal(cells[6], e.frames.toLocaleString('en-US'));
  assert.ok(e.count >= 100, `the leak keeps one array a frame: ${e.count}`);
  // By site: LeakyCache.Remember, with its source file:line and a flame link.
  await page.click('#tab-leaks .segmented[aria-label="Group"] button[data-value="site"]');
  await page.waitForFunction(() => location.hash.includes('leak_group=site'));
  assert.match(await waitFirst('leaks-table', 'LeakyCache.Remember'), /^LeakyCache\.Remember/);
  const site = (await apiJson('/api/runs/1/leaks?group=site&limit=1')).entries[0];
  assert.equal(site.function, 'LeakyCache.Remember');
  if (site.file) assert.equal(await page.getAttribute('#leaks-table tbody tr[data-rank="1"]', 'data-location'), `${site.file}:${site.line}`);
  await page.waitForSelector('#leaks-table tbody tr[data-rank="1"] .src');
  await shot('30-leaks-by-site');
  // Keyboard: Down moves to the second row, Up back.
  await page.focus('#leaks-table tbody tr[data-rank="1"]');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.rank), '2');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.rank), '1');
  // CSV: the API's numbers, the leak's row first.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#leaks-csv')]);
  assert.equal(dl.suggestedFilename(), 'run-1-leaks-site.csv');
  const lines = readFileSync(await dl.path(), 'utf8').split('\r\n');
  assert.match(lines[0], /^rank,function,file,line,class_main,alive_count,alive_gc_bytes,allocated,oldest_seq,age_frames,frames_kept,share$/);
  assert.ok(lines[1].startsWith(`1,LeakyCache.Remember,${site.file},${site.line},System.Single[],${site.count},${site.gc_bytes},${site.allocated},${site.oldest_seq},`), lines[1]);
  // The row's flame link: the flame graph filtered to the site's function.
  await page.click('#leaks-table tbody tr[data-rank="1"] .flame-link');
  await page.waitForFunction(() => location.hash.includes('tab=flame') && location.hash.includes('function=LeakyCache.Remember'));
  assert.deepEqual(consoleErrors, []);
});

test('the timeline shows the live heap and marks its peak frame', async () => {
  await open('run=1&tab=leaks');
  const series = await apiJson('/api/runs/1/frames');
  assert.ok(Array.isArray(series.live_bytes));
  assert.ok(series.live_peak);
  await page.waitForFunction((seq) => document.getElementById('timeline-peaks').textContent.includes(`at frame ${seq.toLocaleString('en-US')}`),
    series.live_peak.seq, { timeout: 20000 });
  assert.match(await page.textContent('#timeline-peaks'), /^Live heap peak /);
  const legend = await page.$$eval('#timeline .u-legend .u-series th', (t) => t.map((x) => x.textContent.trim()));
  assert.ok(legend.includes('Live (traced)'), JSON.stringify(legend));
  await shot('31-timeline-live');
});

test('the Temporaries control, and the URL keeps the view and its controls', async () => {
  await open('run=1&tab=temps');
  await page.waitForSelector('#temps-table tbody tr[data-rank="1"]', { timeout: 20000 });
  assert.equal(await page.inputValue('#temps-within'), '1');
  const t1 = await apiJson('/api/runs/1/temporaries?limit=1');
  await page.waitForSelector(`#temps-summary:has-text("${t1.totals.count.toLocaleString('en-US')} of ")`);
  assert.equal(await firstRow('temps-table'), t1.entries[0].full_name);
  // Within 5 frames: the API's within=5 totals, and the URL says so.
  await page.fill('#temps-within', '5');
  await page.press('#temps-within', 'Enter');
  await page.waitForFunction(() => location.hash.includes('within=5'));
  const t5 = await apiJson('/api/runs/1/temporaries?within=5&by=count&group=site&limit=1');
  assert.ok(t5.totals.count >= t1.totals.count);
  await page.click('#tab-temps .segmented[aria-label="Group"] button[data-value="site"]');
  await page.click('#tab-temps .segmented[aria-label="Rank by"] button[data-value="count"]');
  await page.waitForFunction(() => location.hash.includes('temp_group=site') && location.hash.includes('temp_by=count'));
  await page.waitForSelector(`#temps-summary:has-text("${t5.totals.count.toLocaleString('en-US')} of ${t5.totals.allocated.toLocaleString('en-US')} objects died within 5 frames")`);
  assert.match(await waitFirst('temps-table', t5.entries[0].function), new RegExp('^' + t5.entries[0].function.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // A bad value is refused by the control, the view unchanged.
  await page.fill('#temps-within', '-3');
  await page.press('#temps-within', 'Enter');
  assert.equal(await page.inputValue('#temps-within'), '5');
  // Round trip: the URL alone reproduces the view and every control.
  const hash = await hashNow();
  await open(hash);
  assert.deepEqual(params(await hashNow()), params(hash));
  await page.waitForSelector(`#temps-summary:has-text("died within 5 frames")`, { timeout: 20000 });
  assert.equal(await page.inputValue('#temps-within'), '5');
  assert.equal(await page.getAttribute('#tab-temps .segmented[aria-label="Group"] button.active', 'data-value'), 'site');
  assert.equal(await page.getAttribute('#tab-temps .segmented[aria-label="Rank by"] button.active', 'data-value'), 'count');
  // And the Leaks view's controls, with a frame range and a class filter.
  await open('run=1&tab=leaks&leak_group=stack&leak_by=gc_bytes&from=10&to=150&class=single');
  await page.waitForSelector('#leaks-table tbody tr[data-rank="1"]', { timeout: 20000 });
  const want = await apiJson('/api/runs/1/leaks?group=stack&by=gc_bytes&from=10&to=150&class=single&limit=1');
  assert.equal(await page.getAttribute('#leaks-table tbody tr[data-rank="1"]', 'data-rank'), '1');
  assert.match(await page.textContent('#tab-leaks p.muted'), new RegExp(`${want.totals.count.toLocaleString('en-US')} objects .* end of frame 150`));
  assert.equal(await page.getAttribute('#tab-leaks .segmented[aria-label="Group"] button.active', 'data-value'), 'stack');
  assert.deepEqual(params(await hashNow()), params('run=1&tab=leaks&leak_group=stack&leak_by=gc_bytes&from=10&to=150&class=single'));
  await shot('32-temporaries');
  assert.deepEqual(consoleErrors, []);
});

test('a run without lifetimes shows the endpoint\'s plain note', async () => {
  await open('run=2&tab=leaks');
  const api = await apiJson('/api/runs/2/leaks');
  assert.equal(api.lifetimes, false);
  await page.waitForSelector('#leaks-note', { timeout: 20000 });
  assert.equal(await page.textContent('#leaks-note'), api.note);
  await page.click('button.tab[data-tab="temps"]');
  await page.waitForSelector('#temps-note', { timeout: 20000 });
  assert.match(await page.textContent('#temps-note'), /run 2 recorded no lifetimes/);
  assert.equal(await page.textContent('#timeline-peaks').then((t) => /Live heap/.test(t)), false);
  assert.deepEqual(consoleErrors, []);
});
