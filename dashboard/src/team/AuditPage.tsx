// The audit trail for owners (their workspace) and support staff (every workspace): writes made with
// dashboard tokens, attempts refused by role and support reads, filtered by operation, token and
// days, and downloaded as CSV with the same filter.
import { useMemo, useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { ListTable, useConnection, useDateFormat } from '../ui.tsx';
import type { Viewer } from '../App.tsx';
import { graphql } from '../graphql.ts';

const ENTRIES = graphql(`
  query AuditEntries($first: Int, $after: String, $last: Int, $before: String, $filter: AuditFilter) {
    auditEntries(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
      edges { node { id createdAt operation outcome tokenId tokenName role requestId variables } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);
const CSV = graphql(`query AuditCsv($filter: AuditFilter) { auditCsv(filter: $filter) }`);
const TOKENS = graphql(`query AuditTokens { accessTokens { id name } }`);

/** A YYYY-MM-DD day of the reader's calendar as the instant it starts (`plus` days later). */
const dayStart = (day: string, plus = 0) => {
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + plus);
  return d.toISOString();
};

export function AuditPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const date = useDateFormat();
  const client = useClient();
  const [draft, setDraft] = useState({ operation: '', tokenId: '', from: '', to: '' });
  const [applied, setApplied] = useState(draft);
  const [exportError, setExportError] = useState<string | null>(null);
  const filter = useMemo(
    () => ({
      operation: applied.operation.trim() || undefined,
      tokenId: applied.tokenId || undefined,
      created: applied.from || applied.to ? { from: applied.from ? dayStart(applied.from) : undefined, to: applied.to ? dayStart(applied.to, 1) : undefined } : undefined,
    }),
    [applied],
  );
  const list = useConnection(ENTRIES, 'auditEntries', filter, viewer, 'AuditEntry');
  const [{ data: tokens }] = useQuery({ query: TOKENS });
  const apply = (e: FormEvent) => (e.preventDefault(), setApplied(draft));
  const download = async () => {
    setExportError(null);
    const res = await client.query(CSV, { filter }, { requestPolicy: 'network-only' }).toPromise();
    if (res.error || typeof res.data?.auditCsv !== 'string') return setExportError(res.error?.message ?? t.error);
    const url = URL.createObjectURL(new Blob([res.data.auditCsv], { type: 'text/csv;charset=utf-8' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: 'audit.csv' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t.audit}</h1>
      <p className="muted">{t.auditHelp}</p>
      <form className="filters" role="search" onSubmit={apply}>
        <label>{t.operation}<input name="operation" value={draft.operation} onChange={(e) => setDraft({ ...draft, operation: e.target.value })} /></label>
        <label>{t.accessToken}
          <select name="token" value={draft.tokenId} onChange={(e) => setDraft({ ...draft, tokenId: e.target.value })}>
            <option value="">{t.any}</option>
            {(tokens?.accessTokens ?? []).map((k: { id: string; name: string }) => <option key={k.id} value={k.id}>{k.name}</option>)}
          </select>
        </label>
        <label>{t.from}<input name="from" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} /></label>
        <label>{t.to}<input name="to" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} /></label>
        <button type="submit" className="primary">{t.filter}</button>
        <button type="button" onClick={download}>{t.auditCsv}</button>
      </form>
      {exportError && <p className="error" role="alert">{exportError}</p>}
      <ListTable list={list} head={[t.time, t.operation, t.outcome, t.accessToken, t.role, t.requestId, t.changes]}>
        {list.rows.map((r) => (
          <tr key={r.id} data-operation={r.operation}>
            <td>{date(r.createdAt)}</td>
            <td>{r.operation}</td>
            <td>{t[`outcome_${r.outcome}` as 'outcome_done'] ?? r.outcome}</td>
            <td>{r.tokenName}</td>
            <td>{t[`role_${r.role}` as 'role_owner'] ?? r.role}</td>
            <td><code className="wrap">{r.requestId ?? '—'}</code></td>
            <td className="wrap"><code className="wrap audit-variables">{JSON.stringify(r.variables)}</code></td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
