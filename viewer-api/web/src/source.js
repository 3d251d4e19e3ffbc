// source.js — from a row to the allocation site's source: file:line shown, a button that copies
// it, and a link that opens it in the editor (vscode://file/ROOT/FILE:LINE) once the user has
// said where the project's sources are (kept in localStorage; the capture knows only relative
// paths such as Assets/Scripts/Hud.cs).
import { h } from './util.js';

export function sourceRoot() { return localStorage.getItem('mt-source-root') || ''; }

export function editorUrl(location) {
  const root = sourceRoot();
  if (!root || !location) return null;
  const abs = location.startsWith('/') ? location : root.replace(/\/+$/, '') + '/' + location;
  return 'vscode://file' + (abs.startsWith('/') ? '' : '/') + abs;
}

export function sourceLink(location) {
  if (!location) return h('span', { class: 'src muted' }, 'no source location');
  const copy = h('button', { class: 'btn small copy', title: 'Copy file:line', type: 'button' }, 'Copy');
  copy.addEventListener('click', async (e) => {
    e.stopPropagation();
    try { await navigator.clipboard.writeText(location); copy.textContent = 'Copied'; } catch { copy.textContent = 'Select it'; }
  });
  const url = editorUrl(location);
  const open = url
    ? h('a', { class: 'btn small open', href: url, title: 'Open in the editor' }, 'Open')
    : h('button', { class: 'btn small open', type: 'button', title: 'Where are the project\'s sources?' }, 'Open…');
  if (!url) open.addEventListener('click', (e) => {
    e.stopPropagation();
    const root = prompt('Folder that holds the project (Assets/ is under it):', sourceRoot());
    if (root) { localStorage.setItem('mt-source-root', root); const u = editorUrl(location); if (u) window.open(u, '_self'); }
  });
  return h('span', { class: 'src' }, h('code', { class: 'src-loc', title: location }, location), copy, open);
}
