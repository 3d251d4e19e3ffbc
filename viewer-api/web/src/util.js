// util.js — DOM building (text is always set as text, never parsed as HTML: class and function
// names come from the captured game), number formatting and the API client.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'style') el.style.cssText = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren();
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
export function bytes(n) {
  if (n === null || n === undefined) return '–';
  let v = Math.abs(n), u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  const s = u === 0 ? String(v) : v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0);
  return (n < 0 ? '-' : '') + s + ' ' + units[u];
}
export function signedBytes(n) { return (n > 0 ? '+' : '') + bytes(n); }
export function num(n) { return n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US'); }
export function signedNum(n) { return (n > 0 ? '+' : '') + num(n); }
export function pct(x) { return (x * 100).toFixed(x < 0.1 ? 2 : 1) + '%'; }
export function ms(ns) { return (ns / 1e6).toFixed(ns < 1e7 ? 2 : 1) + ' ms'; }
export function duration(ns) {
  if (ns < 1e9) return (ns / 1e6).toFixed(1) + ' ms';
  const s = ns / 1e9;
  return s < 120 ? s.toFixed(1) + ' s' : Math.floor(s / 60) + ' min ' + Math.round(s % 60) + ' s';
}

export class ApiError extends Error {
  constructor(status, message, param) { super(message); this.status = status; this.param = param; }
}

export async function api(path, init) {
  const res = await fetch(path, init);
  const text = await res.text();
  let body;
  try { body = JSON.parse(text); } catch { throw new ApiError(res.status, `bad answer from ${path}`); }
  if (!res.ok) {
    const e = body.error || {};
    throw new ApiError(res.status, e.message || res.statusText, e.param);
  }
  return body;
}

export function qs(params) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, v);
  const s = p.toString();
  return s ? '?' + s : '';
}

// A select element from [value, label] pairs.
export function select(options, value, onchange, label) {
  const s = h('select', { 'aria-label': label, onchange: (e) => onchange(e.target.value) },
    options.map(([v, l]) => h('option', { value: v, selected: String(v) === String(value) }, l)));
  return s;
}

export function segmented(options, value, onchange, label) {
  return h('div', { class: 'segmented', role: 'group', 'aria-label': label },
    options.map(([v, l]) => h('button', {
      class: v === value ? 'active' : '', 'data-value': v, onclick: () => onchange(v),
    }, l)));
}

export function errorBox(e) {
  return h('div', { class: 'error-box' }, h('strong', {}, 'Could not load: '), e.message,
    e.param ? h('span', { class: 'muted' }, ` (parameter ${e.param})`) : null);
}

export function shareBar(share) {
  return h('div', { class: 'share' }, h('div', { class: 'share-fill', style: `width:${Math.max(0.5, share * 100)}%` }),
    h('span', {}, pct(share)));
}
