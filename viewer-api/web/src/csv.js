// csv.js — every table of the page downloads as CSV, built from the numbers the API answered
// (not from the formatted cells): RFC 4180 quoting, one header row.
import { h } from './util.js';

export function toCsv(header, rows) {
  const cell = (v) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\r\n]/.test(s) ? '"' + s.replaceAll('"', '""') + '"' : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

// A download link; the file is made when clicked, from what `make` returns then.
export function csvButton(id, filename, make) {
  const a = h('a', { class: 'btn small csv', id, href: '#', download: filename, title: 'Download this table as CSV' }, 'CSV');
  a.addEventListener('click', () => {
    const { header, rows } = make();
    const url = URL.createObjectURL(new Blob([toCsv(header, rows)], { type: 'text/csv' }));
    a.href = url;
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  });
  return a;
}
