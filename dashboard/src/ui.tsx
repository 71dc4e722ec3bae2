// Small pieces every screen shares: in-app links, the outcome of a mutation, a pager, a
// confirmation dialog and the reader's date format.
import { type ReactNode } from 'react';
import type { OperationResult } from 'urql';
import { useT } from './i18n.ts';
import { navigate } from './router.ts';

/** An anchor to a dashboard path that navigates without a reload (and still opens in a new tab). */
export function Link({ to, children, current }: { to: string; children: ReactNode; current?: boolean }) {
  return (
    <a href={`/dashboard/${to}`} onClick={(e) => (e.preventDefault(), navigate(to))} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}

export type Outcome = { result?: { successful: boolean; message?: string | null }; errors?: { path: string[]; message: string }[] } | undefined;

/** The payload of mutation `field` from an urql result, or the transport/GraphQL error as a failed outcome. */
export function outcomeOf(res: OperationResult<any>, field: string): Outcome {
  if (res.error) return { result: { successful: false, message: res.error.graphQLErrors[0]?.message ?? res.error.message } };
  return res.data?.[field] as Outcome;
}

/** "Done." or the spec's message with every field error, announced to screen readers. */
export function OutcomeView({ outcome }: { outcome: Outcome }) {
  const { t } = useT();
  if (!outcome) return null;
  return (
    <div role="status" className={outcome.result?.successful ? 'ok' : 'error'}>
      {outcome.result?.successful ? t.done : outcome.result?.message}
      {outcome.errors?.map((e, i) => <div key={i}>{e.path.join('.')}: {e.message}</div>)}
    </div>
  );
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

export function useDateFormat(): (iso: string | null | undefined) => string {
  const { lang } = useT();
  const fmt = new Intl.DateTimeFormat(lang === 'tr' ? 'tr-TR' : 'en-GB', { dateStyle: 'short', timeStyle: 'medium' });
  return (iso) => (iso ? fmt.format(new Date(iso)) : '—');
}
