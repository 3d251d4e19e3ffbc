// keys.js — keyboard navigation for the page's tables: Up/Down move between rows (focus is
// drawn by CSS :focus-visible), Home/End jump, Enter opens the row (its click), Esc closes an
// open row or leaves the table. Rows opt in with tabindex.
export function keyNav(tbody) {
  const rows = () => [...tbody.querySelectorAll(':scope > tr[tabindex]')].filter((r) => !r.hidden);
  tbody.addEventListener('keydown', (e) => {
    const row = e.target.closest('tr[tabindex]');
    if (!row || row.parentElement !== tbody || e.target !== row) return;
    const list = rows(), i = list.indexOf(row);
    const go = (j) => { const r = list[Math.max(0, Math.min(list.length - 1, j))]; if (r) { r.focus(); r.scrollIntoView({ block: 'nearest' }); } };
    if (e.key === 'ArrowDown') go(i + 1);
    else if (e.key === 'ArrowUp') go(i - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(list.length - 1);
    else if (e.key === 'Enter' || e.key === ' ') row.click();
    else if (e.key === 'Escape') { if (row.classList.contains('open')) row.click(); else row.blur(); }
    else return;
    e.preventDefault();
  });
  return tbody;
}
