// Small pieces every screen shares: in-app links, the outcome of a mutation, a pager, a
// confirmation dialog and the reader's date format.
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery, type OperationResult, type TypedDocumentNode } from 'urql';
import { useT } from './i18n.ts';
import { navigate } from './router.ts';
import type { Viewer } from './viewer.ts';
import { useDates } from './kit/dates.ts';
import { UNREACHABLE } from './kit/field-errors.ts';
import { Empty, ErrorState, Loading } from './kit/states.tsx';
import { labelCells } from './kit/cards.ts';

/** An anchor to a dashboard path that navigates without a reload (and still opens in a new tab). */
export function Link({ to, children, current }: { to: string; children: ReactNode; current?: boolean }) {
  return (
    <a href={`/dashboard/${to}`} onClick={(e) => (e.preventDefault(), navigate(to))} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}

export type Outcome = { result?: { successful: boolean; message?: string | null }; errors?: { path: string[]; message: string }[] } | undefined;

/** The payload of mutation `field` (a field of the document's result) from an urql result, or the transport/GraphQL error as a failed outcome. */
export function outcomeOf<D>(res: OperationResult<D, any>, field: keyof D & string): Outcome {
  // A dropped connection has no message for people (urql's "[Network] …"): the kit words it.
  if (res.error?.networkError && !res.error.graphQLErrors.length) return { result: { successful: false, message: UNREACHABLE } };
  if (res.error) return { result: { successful: false, message: res.error.graphQLErrors[0]?.message ?? res.error.message } };
  return res.data?.[field] as Outcome;
}

export interface PageInfo { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string | null; endCursor?: string | null }
export interface PageArgs { after?: string; before?: string }

/** The connection arguments of one page of `size` rows. */
export const pageVariables = (page: PageArgs, size = 20) => (page.before ? { last: size, before: page.before } : { first: size, after: page.after });

export function Pager({ info, onPage }: { info?: PageInfo; onPage: (p: PageArgs) => void }) {
  const { t } = useT();
  return (
    <div className="row">
      <button type="button" disabled={!info?.hasPreviousPage} onClick={() => onPage({ before: info?.startCursor ?? undefined })}>{t.previous}</button>
      <button type="button" disabled={!info?.hasNextPage} onClick={() => onPage({ after: info?.endCursor ?? undefined })}>{t.next}</button>
    </div>
  );
}

/** Asks before a money-moving or destructive action; the confirm button takes the focus. */
export function Confirm({ text, onConfirm, onDismiss }: { text: string; onConfirm: () => void; onDismiss: () => void }) {
  const { t } = useT();
  return (
    <div role="alertdialog" aria-labelledby="confirm-text" className="card">
      <p id="confirm-text">{text}</p>
      <div className="row">
        <button type="button" className="primary" autoFocus onClick={onConfirm}>{t.confirm}</button>
        <button type="button" onClick={onDismiss}>{t.dismiss}</button>
      </div>
    </div>
  );
}

/** The reader's date and time; kept for existing callers, new code uses useDates() from kit/dates.ts. */
export function useDateFormat(): (iso: string | null | undefined) => string {
  return useDates().dateTime;
}

/**
 * One page of a connection list (`field` of `query`, which takes first/after/last/before, filter
 * and workspaceSlug): its rows, paging, and a reset to the first page when the filter changes.
 * `typename` keeps an empty list fresh after a mutation creating its first row.
 */
/** The node type of a connection field's result. */
type NodeOf<C> = NonNullable<C> extends { edges: readonly { node: infer N }[] } ? N : never;
/** The type of a query's `filter` variable. */
type FilterOf<V> = V extends { filter?: infer X } ? NonNullable<X> : never;

export function useConnection<D, V, F extends keyof D & string>(query: TypedDocumentNode<D, V>, field: F, filter: FilterOf<V>, viewer: Viewer, typename: string) {
  const [paged, setPaged] = useState<{ page: PageArgs; filter: object }>({ page: {}, filter });
  const page = paged.filter === filter ? paged.page : {};
  const context = useMemo(() => ({ additionalTypenames: [typename] }), [typename]);
  const [{ data, error }, reexecute] = useQuery({ query, variables: { ...pageVariables(page), filter, slug: viewer.support ? viewer.slug : undefined }, context });
  const connection = data?.[field] as { edges: { node: NodeOf<D[F]> }[]; pageInfo: PageInfo } | null | undefined;
  const rows = connection?.edges.map((e) => e.node) ?? [];
  return { rows, info: connection?.pageInfo, loaded: !!data, error, onPage: (p: PageArgs) => setPaged({ page: p, filter }), retry: () => reexecute({ requestPolicy: 'network-only' }) };
}

/**
 * A table of rows with the kit's states: skeleton rows while the first page loads, the error with
 * a retry, a helpful sentence when empty (`empty`, else the kit's), and the pager below
 * (`loadingRows` skeleton rows reserve a page's height, so the pager does not jump). Below
 * ~600px each row becomes a card whose cells carry their column's header (kit/cards.ts).
 */
export function ListTable({ head, children, list, empty, loadingRows }: { head: string[]; children: ReactNode; empty?: ReactNode; loadingRows?: number; list: { loaded: boolean; rows: unknown[]; error?: { message: string }; info?: PageInfo; onPage: (p: PageArgs) => void; retry?: () => void } }) {
  const table = useRef<HTMLTableElement>(null);
  // Every render: rows arrive from paging and live updates.
  useLayoutEffect(() => labelCells(table.current, head));
  return (
    <>
      {list.error && <ErrorState message={list.error.message} onRetry={list.retry} />}
      <div className="table-wrap" tabIndex={0}>
        <table ref={table} className="cards">
          <thead><tr>{head.map((h) => <th scope="col" key={h}>{h}</th>)}</tr></thead>
          <tbody>{children}</tbody>
        </table>
        {!list.loaded && !list.error && <Loading rows={loadingRows} />}
        {list.loaded && list.rows.length === 0 && <Empty>{empty}</Empty>}
      </div>
      <Pager info={list.info} onPage={list.onPage} />
    </>
  );
}
