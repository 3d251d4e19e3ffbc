// The filter bar, search, the inverted flame graph, the callers view, keyboard navigation,
// source links and CSV downloads, in headless Chromium against a real memtracer-viewer on the
// fixture database (exact numbers: tests/viewer/fixture_shape.cpp). Env as page.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { base, consoleErrors, hashNow, open, page, params, shot, topCounts } from './harness.mjs';

test('the filter bar filters TopN and the timeline, and writes the URL', async () => {
  await open('run=1&tab=top');
  await page.waitForSelector('#top-table tbody tr');
  await page.fill('#f-class', 'node');
  await page.press('#f-class', 'Enter');
  await page.waitForFunction(() => location.hash.includes('class=node'));
  await page.waitForFunction(() => document.querySelectorAll('#top-table tbody tr[data-rank]').length === 2);
  assert.deepEqual(await topCounts(), ['Node', 'Node[]']);
  assert.match(await page.textContent('#tab-top p.muted'), /2,087 allocations/);
  await page.fill('#f-function', 'Graph.Link');
  await page.press('#f-function', 'Enter');
  await page.waitForFunction(() => location.hash.includes('function=Graph.Link'));
  await page.waitForSelector('#tab-top p.muted:has-text("1,937")', { state: 'detached' }).catch(() => {});
  // Node + Node[] through Graph.Link over the whole run: the API's own number.
  const want = await page.evaluate(async () => (await (await fetch('/api/runs/1/top?class=node&function=Graph.Link')).json()).totals.count);
  await page.waitForSelector(`#tab-top p.muted:has-text("${want.toLocaleString('en-US')} allocations")`);
  // The downloads carry the filter too.
  assert.match(await page.getAttribute('#dl-collapsed', 'href'), /class=node&function=Graph.Link/);
  await shot('10-filter-bar');
  await page.click('#f-clear');
  await page.waitForFunction(() => !location.hash.includes('class='));
  const all = await page.evaluate(async () => (await (await fetch('/api/runs/1/top')).json()).total);
  assert.equal(all, 5);  // run 1's classes that allocated anything (docs/api.md: total 5)
  await page.waitForFunction((n) => document.querySelectorAll('#top-table tbody tr[data-rank]').length === n, all);
});

test('the thread input filters TopN by allocating thread, offers the run\'s threads, and writes the URL', async () => {
  await open('run=1&tab=top');
  await page.waitForSelector('#top-table tbody tr');
  await page.waitForFunction(() => document.querySelectorAll('#f-thread-list option').length === 4);
  assert.deepEqual(await page.$$eval('#f-thread-list option', (l) => l.map((o) => o.value)),
    ['main', 'Job.Worker 0', 'Loading.Worker', 'Loading.Worker']);
  await page.fill('#f-thread', 'Job.Worker 0');
  await page.press('#f-thread', 'Enter');
  await page.waitForFunction(() => location.hash.includes('thread=Job.Worker+0'));
  // The job worker's allocations (fixture_shape.cpp's thread_split; test_query_threads.cpp).
  await page.waitForSelector('#tab-top p.muted:has-text("774 allocations")');
  assert.match(await page.getAttribute('#dl-collapsed', 'href'), /thread=Job.Worker/);
  await page.click('#f-clear');
  await page.waitForFunction(() => !location.hash.includes('thread='));
  assert.equal(await page.inputValue('#f-thread'), '');
});

test('every filter and view combination round-trips through the URL', async () => {
  const filters = [{}, { class: 'node' }, { function: 'Graph.Link' }, { class: 'string', function: 'Hud' },
    { thread: 'Loading.Worker' }, { class: 'node', thread: '1' }];
  const ranges = [{}, { from: '0', to: '99' }];
  const views = [
    { tab: 'frame', frame: '29' }, { tab: 'top' }, { tab: 'top', top_group: 'site', top_by: 'count' },
    { tab: 'flame' }, { tab: 'flame', invert: '1', frames: 'csharp', flame_by: 'count' },
    { tab: 'callers' }, { tab: 'callers', callers_frames: 'all', callers_by: 'count' },
    { tab: 'compare', a: '1', b: '2' }, { tab: 'compare', a: '2', b: '1', cmp_group: 'site', cmp_by: 'count', cmp_normalize: 'per_frame' },
  ];
  let n = 0;
  for (const f of filters) for (const r of ranges) for (const v of views) {
    const want = new URLSearchParams({ run: '1', ...v, ...r, ...f }).toString();
    await open(want);
    await page.waitForSelector(`#tab-${v.tab} :is(table, canvas, .empty, .error-box)`, { timeout: 20000 });
    assert.deepEqual(params(await hashNow()), params(want), `URL kept: ${want}`);
    assert.equal(await page.inputValue('#f-class'), f.class || '');
    assert.equal(await page.inputValue('#f-function'), f.function || '');
    assert.equal(await page.inputValue('#f-thread'), f.thread || '');
    assert.equal(await page.getAttribute('button.tab.active', 'data-tab'), v.tab);
    assert.equal(await page.$(`#tab-${v.tab} .error-box`), null, `no error for ${want}`);
    n++;
  }
  assert.equal(n, 108);
  // And through the UI: a state made by clicking comes back from its link.
  await open('run=1&tab=flame');
  await page.waitForSelector('#flame-canvas');
  await page.click('#flame-invert button[data-value="1"]');
  await page.click('#flame-frames button[data-value="csharp"]');
  await page.fill('#f-class', 'String');
  await page.press('#f-class', 'Enter');
  await page.waitForFunction(() => location.hash.includes('class=String'));
  const made = await hashNow();
  assert.deepEqual(params(made), params('run=1&tab=flame&invert=1&frames=csharp&class=String'));
  await open(made);
  await page.waitForSelector('#flame-canvas');
  assert.equal(await page.getAttribute('#flame-invert button.active', 'data-value'), '1');
  assert.equal(await page.getAttribute('#flame-frames button.active', 'data-value'), 'csharp');
  assert.equal(await page.inputValue('#f-class'), 'String');
});

test('search finds a class and a function and jumps to them', async () => {
  await open('run=1&tab=frame');
  await page.fill('#search', 'node');
  await page.waitForSelector('#search-results li.search-item');
  const first = await page.$$eval('#search-results li.search-item', (l) => l.map((x) => `${x.dataset.kind}:${x.dataset.name}`));
  assert.deepEqual(first.slice(0, 2), ['class:Node', 'class:Node[]']);
  assert.ok(first.includes('function:Node..ctor'), first.join());
  await shot('11-search');
  await page.press('#search', 'Enter');  // the first hit: the class Node
  await page.waitForFunction(() => document.querySelector('button.tab.active').dataset.tab === 'top');
  assert.equal(await page.inputValue('#f-class'), 'Node');
  await page.waitForFunction(() => document.querySelectorAll('#top-table tbody tr[data-rank]').length === 2);
  // A function, picked with the keys: it opens the flame graph filtered to stacks through it.
  await page.click('#f-clear');
  await page.fill('#search', 'graph.li');
  await page.waitForSelector('#search-results li.search-item[data-name="Graph.Link"]');
  await page.press('#search', 'ArrowDown');
  const focused = await page.evaluate(() => document.activeElement.dataset.name);
  assert.equal(focused, 'Graph.Link');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('button.tab.active').dataset.tab === 'flame');
  assert.equal(await page.inputValue('#f-function'), 'Graph.Link');
  assert.match(await hashNow(), /function=Graph.Link/);
  await page.waitForSelector('#flame-canvas');
  // Esc closes the list.
  await page.fill('#search', 'hud');
  await page.waitForSelector('#search-results:not([hidden])');
  await page.press('#search', 'Escape');
  await page.waitForSelector('#search-results', { state: 'hidden' });
});

test('the game\'s markers are on the timeline, and one click selects a marker\'s range', async () => {
  await open('run=1&tab=top');
  // The fixture's run 1 (fixture_shape.cpp): "level loaded" at 0, "boss spawned" at 120 and 239.
  await page.waitForFunction(() => document.querySelectorAll('#timeline-marks button.marker').length === 3, null, { timeout: 20000 });
  const labels = await page.$$eval('#timeline-marks button.marker', (b) => b.map((x) => x.textContent));
  assert.deepEqual(labels, ['level loaded @0', 'boss spawned @120', 'boss spawned @239']);
  await page.click('#timeline-marks button.marker[data-seq="120"]');
  await page.waitForFunction(() => /(^|&)from=120(&|$)/.test(location.hash) && /(^|&)to=238(&|$)/.test(location.hash), null, { timeout: 20000 });
  assert.match(await page.textContent('#selection-label'), /frames 120–238/);
  await page.waitForSelector('#top-table tbody tr');
  await shot('markers');
  assert.deepEqual(consoleErrors, []);
});

test('the flame graph inverts, and keys select, zoom and zoom out', async () => {
  await open('run=1&tab=flame');
  await page.waitForSelector('#flame-canvas');
  await page.focus('#flame-canvas');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.textContent('#flame-detail .flame-sel'), 'main');  // outermost frame
  await page.click('#flame-invert button[data-value="1"]');
  await page.waitForSelector('#flame-canvas');
  await page.waitForFunction(() => document.querySelector('#flame-detail .flame-sel')?.textContent === 'all');
  await page.focus('#flame-canvas');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.textContent('#flame-detail .flame-sel'), 'System.String');  // the class allocated most
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.textContent('#flame-detail .flame-sel'), 'GC_malloc_kind');  // who allocated it
  await page.keyboard.press('ArrowRight');  // no sibling: stays
  assert.equal(await page.textContent('#flame-detail .flame-sel'), 'GC_malloc_kind');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent('#flame-detail .flame-sel'), 'Node');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('.crumb').length === 2);
  await shot('12-flame-inverted');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.querySelectorAll('.crumb').length === 1);
  // C# methods: the source location of a method is shown, with copy and open.
  await page.click('#flame-frames button[data-value="csharp"]');
  await page.waitForSelector('#flame-canvas');
  await page.waitForFunction(() => document.querySelector('#flame-detail .flame-sel')?.textContent === 'all');
  await page.focus('#flame-canvas');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.textContent('#flame-detail .flame-sel'), 'System.String');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.textContent('#flame-detail .flame-sel'), 'String.Concat');  // IL2CPP and GC frames folded
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.textContent('#flame-detail .flame-sel'), 'Hud.UpdateText');
  assert.equal(await page.textContent('#flame-detail .src-loc'), 'Assets/Scripts/Hud.cs:31');
});

test('callers view and tables: arrows move, Enter and Right open, Left and Esc close', async () => {
  await open('run=1&tab=callers');
  await page.waitForSelector('#callers-table tbody tr');
  const rows = () => page.$$eval('#callers-table tbody tr', (r) => r.map((x) => `${x.dataset.depth}:${x.dataset.name}`));
  assert.deepEqual((await rows()).slice(0, 2), ['0:String.Concat', '0:Node..ctor']);
  await page.focus('#callers-table tbody tr');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual((await rows()).slice(0, 4), ['0:String.Concat', '1:Hud.UpdateText', '1:Cache.Put', '0:Node..ctor']);
  await page.keyboard.press('ArrowRight');  // into the first caller
  assert.equal(await page.evaluate(() => document.activeElement.dataset.name), 'Hud.UpdateText');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.name), 'Cache.Put');
  await page.keyboard.press('ArrowLeft');  // closed row: to its caller's row
  assert.equal(await page.evaluate(() => document.activeElement.dataset.name), 'String.Concat');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual((await rows()).slice(0, 2), ['0:String.Concat', '0:Node..ctor']);
  const focusStyle = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.equal(focusStyle, 'solid', 'focus is visible');
  assert.equal(await page.textContent('#callers-table tbody tr[data-name="Node..ctor"] .src-loc'), 'Assets/Scripts/Node.cs:12');
  await shot('13-callers');
  // TopN by stack: Down moves, Enter opens the stack, Esc closes it.
  await open('run=1&tab=top&top_group=stack');
  await page.waitForSelector('#top-table tbody tr[data-rank]');
  await page.focus('#top-table tbody tr[data-rank="1"]');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.rank), '2');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#top-table tr.detail:not([hidden]) ol.stack li');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#top-table tr.detail:not([hidden])', { state: 'detached' });
  // Sites point at code: file:line on the row.
  await open('run=1&tab=top&top_group=site');
  await page.waitForSelector('#top-table tbody tr[data-rank]');
  assert.equal(await page.getAttribute('#top-table tbody tr[data-rank="1"]', 'data-location'), 'Assets/Scripts/Hud.cs:31');
  assert.equal(await page.textContent('#top-table tbody tr[data-rank="1"] .src-loc'), 'Assets/Scripts/Hud.cs:31');
  // Once the project's folder is known, Open is a link into the editor at that line.
  await page.evaluate(() => localStorage.setItem('mt-source-root', '/home/dev/game'));
  await open('run=1&tab=top&top_group=site');
  await page.waitForSelector('#top-table tbody tr[data-rank]');
  assert.equal(await page.getAttribute('#top-table tbody tr[data-rank="1"] a.open', 'href'),
    'vscode://file/home/dev/game/Assets/Scripts/Hud.cs:31');
  await page.evaluate(() => localStorage.removeItem('mt-source-root'));
});

test('tables download as CSV with the API numbers; flame data as speedscope', async () => {
  const csvOf = async (sel) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
    return { name: dl.suggestedFilename(), text: readFileSync(await dl.path(), 'utf8') };
  };
  await open('run=1&tab=top&class=node');
  await page.waitForSelector('#top-table tbody tr[data-rank]');
  const top = await csvOf('#top-csv');
  assert.equal(top.name, 'run-1-top-class.csv');
  const lines = top.text.trim().split('\r\n');
  assert.equal(lines[0], 'rank,class,file,line,count,requested_bytes,gc_bytes,share');
  assert.equal(lines.length, 3);
  assert.match(lines[1], /^1,Node,,,1937,92976,92976,/);
  await open('run=1&tab=compare&a=1&b=2');
  await page.waitForSelector('#compare-table tbody tr');
  const cmp = await csvOf('#compare-csv');
  const cl = cmp.text.trim().split('\r\n');
  assert.ok(cl[0].startsWith('status,class,file,line,a_count'));
  assert.ok(cl.some((l) => l.startsWith('new,Enemy,')), cl.join('\n'));
  await open('run=1&tab=frame&frame=29');
  await page.waitForSelector('#frame-table tbody tr');
  const fr = await csvOf('#frame-csv');
  assert.equal(fr.text.split('\r\n')[0], 'class,class_id,count,requested_bytes,gc_bytes,stacks');
  await open('run=1&tab=callers');
  await page.waitForSelector('#callers-table tbody tr');
  const cal = await csvOf('#callers-csv');
  assert.match(cal.text.split('\r\n')[1], /^String\.Concat,il2cppOutput\/mscorlib\.cpp:20411,144704,/);
  // Names with commas, quotes or line breaks are quoted (RFC 4180): the page's own function.
  const { toCsv } = await import(new URL('../../../viewer-api/web/src/csv.js', import.meta.url));
  assert.equal(toCsv(['name', 'n'], [['Dictionary`2<int, "x">', 1], ['a\nb', null]]),
    'name,n\r\n"Dictionary`2<int, ""x"">",1\r\n"a\nb",\r\n');
  const href = await page.getAttribute('#dl-speedscope', 'href');
  const s = await (await fetch(base + href)).json();
  assert.equal(s.$schema, 'https://www.speedscope.app/file-format-schema.json');
  assert.equal(s.profiles[0].type, 'sampled');
  assert.equal(s.profiles[0].samples.length, s.profiles[0].weights.length);
  assert.ok(s.shared.frames.every((f) => typeof f.name === 'string'));
  assert.deepEqual(consoleErrors, []);
});
