// The cross-run views in headless Chromium against a real memtracer-viewer on the fixture
// database (two runs of two builds): the Trend view draws one point and one row per build with
// the API's numbers, for the total and for a class typed in; the Diff flame view draws the tree
// of /api/fleet/diff-flame with growth red and shrink blue. Env as page.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { consoleErrors, open, page, shot } from './harness.mjs';

const apiJson = (path) => page.evaluate(async (p) => (await (await fetch(p)).json()), path);
const rows = () => page.$$eval('#tab-trend .trend-table tbody tr', (r) => r.map((x) => [...x.querySelectorAll('td')].map((c) => c.textContent)));

test('the Trend view shows one point per build with the API numbers, for the total and a class', async () => {
  await open('run=1&tab=trend');
  await page.waitForSelector('#tab-trend .trend-chart circle', { timeout: 20000 });
  const api = await apiJson('/api/trend');
  assert.equal(api.points.length, 2);
  assert.deepEqual(await page.$$eval('#tab-trend .trend-chart circle', (c) => c.map((x) => x.dataset.key)), api.points.map((p) => p.key));
  let r = await rows();
  assert.deepEqual(r.map((x) => x[0]), api.points.map((p) => p.key));
  assert.deepEqual(r.map((x) => x[2]), api.points.map((p) => String(p.runs)));
  await shot('50-trend-total');
  // A class: the rows change to that class's own numbers.
  await page.click('#tab-trend .segmented[aria-label="What"] button[data-value="class"]');
  await page.waitForSelector('#tab-trend input[aria-label="Name"]');
  await page.fill('#tab-trend input[aria-label="Name"]', 'System.String');
  await page.press('#tab-trend input[aria-label="Name"]', 'Enter');
  const cls = await apiJson('/api/trend?class=System.String');
  assert.ok(cls.points[0].totals.requested_bytes < api.points[0].totals.requested_bytes);
  await page.waitForFunction((v) => {
    const c = document.querySelector('#tab-trend .trend-chart circle title');
    return c && c.textContent.startsWith(v);
  }, cls.points[0].key, { timeout: 20000 });
  await page.waitForFunction((n) => document.querySelectorAll('#tab-trend .trend-table tbody tr').length === n, cls.points.length);
  r = await rows();
  assert.equal(r.length, cls.points.length);
  await shot('51-trend-class');
  assert.deepEqual(consoleErrors, []);
});

test('the Diff flame view draws the differential tree: widths by the new build, growth red, shrink blue', async () => {
  await open('run=1&tab=diff');
  await page.waitForSelector('#tab-diff .diff-node', { timeout: 20000 });
  const builds = (await apiJson('/api/trend')).points.map((p) => p.key);
  const d = await apiJson(`/api/fleet/diff-flame?a=${builds[0]}&b=${builds[1]}`);
  const root = await page.$eval('#tab-diff .diff-node', (e) => ({ name: e.dataset.name, delta: Number(e.dataset.delta), bg: e.style.background }));
  assert.equal(root.name, 'all');
  assert.equal(root.delta, Math.round(d.root.value - d.root.before));
  // Every child of the root drawn, in the API's order; its colour says grew or shrank.
  const kids = d.root.children.filter((c) => c.value > 0);
  const second = await page.$$eval('#tab-diff .diff-row:nth-child(2) .diff-node', (c) => c.filter((x) => x.dataset.name).map((x) => ({
    name: x.dataset.name, delta: Number(x.dataset.delta), bg: getComputedStyle(x).backgroundColor })));
  assert.deepEqual(second.map((x) => x.name), kids.map((c) => c.name));
  for (const x of second) {
    const [r, g, b] = x.bg.match(/\d+/g).map(Number);
    if (x.delta > 0) assert.ok(r > b, `${x.name} grew: red (${x.bg})`);
    if (x.delta < 0) assert.ok(b > r, `${x.name} shrank: blue (${x.bg})`);
  }
  // The downloads point at the collapsed and speedscope forms of the same comparison.
  const links = await page.$$eval('#tab-diff a.button', (a) => a.map((x) => x.getAttribute('href')));
  assert.ok(links.some((l) => l.includes('format=collapsed')));
  assert.ok(links.some((l) => l.includes('format=speedscope')));
  await shot('52-diff-flame');
  assert.deepEqual(consoleErrors, []);
});
