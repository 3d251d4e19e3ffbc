// stack_view.js — one call stack as a list: innermost first, inlined frames marked, the C#
// name and file:line where the symbolizer found them.
import { h } from './util.js';

export function stackList(frames) {
  if (!frames || frames.length === 0) return h('div', { class: 'muted' }, 'no frames recorded');
  return h('ol', { class: 'stack' }, frames.map((f) => h('li', { class: f.inlined ? 'inlined' : '' },
    h('span', { class: 'fn', title: f.function || f.address }, f.name),
    f.inlined ? h('span', { class: 'badge inline' }, 'inlined') : null,
    f.location ? h('span', { class: 'loc' }, f.location) : h('span', { class: 'loc muted' }, f.module ? `${f.module} ${f.address}` : f.address))));
}

export function siteLabel(site) {
  if (!site || site.site_id === null) return '(no game code)';
  return site.file ? `${site.function}  ·  ${site.file}:${site.line}` : site.function;
}
