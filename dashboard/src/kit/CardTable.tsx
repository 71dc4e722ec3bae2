// A table of rows the screen already has (not a paged connection): the same look as ListTable,
// each row a card below ~600px (kit/cards.ts), its scrolling region focusable.
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { labelCells } from './cards.ts';

export function CardTable({ head, label, children }: { head: string[]; label?: string; children: ReactNode }) {
  const table = useRef<HTMLTableElement>(null);
  // Every render: rows change with mutations and refetches.
  useLayoutEffect(() => labelCells(table.current, head));
  return (
    <div className="table-wrap" tabIndex={0} role={label ? 'region' : undefined} aria-label={label}>
      <table ref={table} className="cards">
        <thead><tr>{head.map((h) => <th scope="col" key={h}>{h}</th>)}</tr></thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
