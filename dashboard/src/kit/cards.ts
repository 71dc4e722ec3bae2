// Lists that become cards on phones: each body cell gets its column's header as `data-label`,
// which style.css shows before the cell's value below ~600px (table.cards). Screens keep writing
// plain <tr><td> rows.

/** Sets `data-label` on every body cell of `table` from `head`, honouring colspan. */
export function labelCells(table: HTMLTableElement | null, head: readonly string[]): void {
  if (!table) return;
  for (const body of Array.from(table.tBodies)) {
    for (const row of Array.from(body.rows)) {
      let column = 0;
      for (const cell of Array.from(row.cells)) {
        const label = head[column];
        if (label && cell.getAttribute('data-label') !== label) cell.setAttribute('data-label', label);
        column += cell.colSpan || 1;
      }
    }
  }
}
