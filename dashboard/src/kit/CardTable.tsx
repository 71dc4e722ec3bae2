// A plain table of a screen's own rows (not a paged connection: a link's items, a record's
// payments) that becomes labelled cards on phones like ListTable does (kit/cards.ts).
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { labelCells } from './cards.ts';

export function CardTable({ head, label, children }: { head: string[]; label?: string; children: ReactNode }) {
  const table = useRef<HTMLTableElement>(null);
  // Every render: rows change with the data.
  useLayoutEffect(() => labelCells(table.current, head));
  return (
    <div className="table-wrap" tabIndex={0} role={label ? 'region' : undefined} aria-label={label}>
      <table ref={table} className="cards">
        <thead><tr>{head.map((h, i) => <th scope="col" key={i}>{h}</th>)}</tr></thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
