// A short table that is read whole (a record's payments, periods): no paging, an empty sentence
// when it has no rows, and below ~600px each row a card labelled by its column (cards.ts), as
// ListTable does for the paged lists.
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { labelCells } from './cards.ts';
import { Empty } from './states.tsx';

export function CardTable({ head, count, labelledBy, empty, children }: { head: string[]; count: number; labelledBy?: string; empty?: ReactNode; children: ReactNode }) {
  const table = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => labelCells(table.current, head));
  if (count === 0) return <Empty>{empty}</Empty>;
  return (
    <div className="table-wrap" tabIndex={0} role={labelledBy ? 'region' : undefined} aria-labelledby={labelledBy}>
      <table ref={table} className="cards" aria-labelledby={labelledBy}>
        <thead><tr>{head.map((h) => <th scope="col" key={h}>{h}</th>)}</tr></thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
