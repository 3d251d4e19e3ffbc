// filter_bar.js — one filter for every view (class contains, stack contains function, allocating
// thread: ids or exact names, comma-separated, offered from the run's thread list), and the
// search box that finds a class or function in the run and jumps to it: a class opens TopN
// filtered to it, a function opens the flame graph filtered to stacks through it. Keys in the
// result list: Up/Down, Enter picks, Esc closes.
import { api, bytes, clear, h, qs } from './util.js';

export function filterQuery(f) { return { class: f.class || undefined, function: f.function || undefined, thread: f.thread || undefined, kind: f.kind || undefined }; }

export class FilterBar {
  constructor(root, { getRun, onChange, onJump }) {
    this.getRun = getRun;
    this.onChange = onChange;
    this.onJump = onJump;
    this.cls = h('input', { id: 'f-class', type: 'text', placeholder: 'Class contains…', 'aria-label': 'Class contains', spellcheck: 'false' });
    this.fn = h('input', { id: 'f-function', type: 'text', placeholder: 'Stack contains function…', 'aria-label': 'Stack contains function', spellcheck: 'false' });
    this.thread = h('input', { id: 'f-thread', type: 'text', placeholder: 'Thread…', 'aria-label': 'Allocating thread (id or name, comma-separated)', spellcheck: 'false', list: 'f-thread-list', size: 14 });
    this.threadList = h('datalist', { id: 'f-thread-list' });
    // Native heaps (ITT heap functions, docs/itt.md) against managed (C#) classes.
    this.kind = h('select', { id: 'f-kind', 'aria-label': 'Native or managed' },
      h('option', { value: '' }, 'Native + managed'), h('option', { value: 'managed' }, 'Managed (C#)'), h('option', { value: 'native' }, 'Native heaps'));
    this.clearBtn = h('button', { id: 'f-clear', class: 'btn small', type: 'button' }, 'Clear filters');
    this.search = h('input', { id: 'search', type: 'search', placeholder: 'Search class or function…', 'aria-label': 'Search', autocomplete: 'off', spellcheck: 'false' });
    this.results = h('ul', { id: 'search-results', class: 'search-results', role: 'listbox', hidden: true });
    clear(root, h('span', { class: 'filter-label' }, 'Filter'), this.cls, this.fn, this.thread, this.threadList, this.kind, this.clearBtn, h('div', { class: 'spacer' }),
      h('div', { class: 'search-box' }, this.search, this.results));
    const apply = () => this.onChange(this.value());
    for (const i of [this.cls, this.fn, this.thread]) {
      i.addEventListener('keydown', (e) => { if (e.key === 'Enter') apply(); if (e.key === 'Escape') { i.value = ''; apply(); } });
      i.addEventListener('change', apply);
    }
    this.kind.addEventListener('change', apply);
    this.clearBtn.addEventListener('click', () => { this.cls.value = ''; this.fn.value = ''; this.thread.value = ''; this.kind.value = ''; apply(); });
    let timer = null, seq = 0;
    this.search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.find(++seq, () => seq), 120);
    });
    this.search.addEventListener('keydown', (e) => this.keys(e));
    this.results.addEventListener('keydown', (e) => this.keys(e));
    this.search.addEventListener('blur', () => setTimeout(() => { if (!this.results.contains(document.activeElement)) this.results.hidden = true; }, 150));
  }

  set(f) { this.cls.value = f.class || ''; this.fn.value = f.function || ''; this.thread.value = f.thread || ''; this.kind.value = f.kind || ''; }

  value() { return { class: this.cls.value.trim(), function: this.fn.value.trim(), thread: this.thread.value.trim(), kind: this.kind.value }; }

  // The run's threads (GET /api/runs/{run}/threads) as the thread input's choices; a run not split
  // per thread disables the input, saying why.
  setThreads(d) {
    clear(this.threadList, (d?.threads || []).map((t) => h('option', { value: t.name || String(t.thread_id) },
      `#${t.thread_id}${t.count !== null ? ' · ' + bytes(t.requested_bytes) : ''}`)));
    this.thread.disabled = !!d && !d.split && !this.thread.value;
    this.thread.title = d && !d.split ? 'This run has no per-thread data (symbolized with --no-threads, before schema 2, or an aggregate capture)' : '';
  }

  async find(mine, latest) {
    const q = this.search.value.trim();
    if (!q || this.getRun() === null) { this.results.hidden = true; return; }
    let d;
    try { d = await api(`/api/runs/${this.getRun()}/search` + qs({ q, limit: 8 })); } catch (e) { return; }
    if (mine !== latest()) return;  // a newer keystroke's answer is coming
    const item = (kind, name, sub, pick) => {
      const li = h('li', { role: 'option', tabindex: -1, class: 'search-item', 'data-kind': kind, 'data-name': name },
        h('span', { class: `badge ${kind}` }, kind), h('span', { class: 'search-name' }, name), h('span', { class: 'muted' }, sub));
      li.addEventListener('mousedown', (e) => { e.preventDefault(); pick(); });
      li.pick = pick;
      return li;
    };
    const items = [
      ...d.classes.map((c) => item('class', c.full_name, bytes(c.requested_bytes), () => this.jump('class', c.full_name))),
      ...d.functions.map((f) => item('function', f.name, `${bytes(f.requested_bytes)}${f.file ? ' · ' + f.file + ':' + f.line : ''}`,
        () => this.jump('function', f.name))),
    ];
    clear(this.results, items.length ? items : [h('li', { class: 'muted search-none' }, `nothing matches "${q}"`)]);
    this.results.hidden = false;
  }

  jump(kind, name) {
    this.results.hidden = true;
    this.search.value = '';
    if (kind === 'class') this.cls.value = name; else this.fn.value = name;
    this.onJump(kind, this.value());
  }

  keys(e) {
    const items = [...this.results.querySelectorAll('li.search-item')];
    const i = items.indexOf(document.activeElement);
    if (e.key === 'ArrowDown' && items.length) { items[Math.min(items.length - 1, i + 1)].focus(); e.preventDefault(); }
    else if (e.key === 'ArrowUp' && items.length) { (i <= 0 ? this.search : items[i - 1]).focus(); e.preventDefault(); }
    else if (e.key === 'Enter') { const it = i >= 0 ? items[i] : items[0]; if (it && !this.results.hidden) { it.pick(); e.preventDefault(); } }
    else if (e.key === 'Escape') { this.results.hidden = true; this.search.focus(); e.preventDefault(); }
  }
}
