// The audit trail for owners (their workspace) and support staff (every workspace): writes made with
// dashboard tokens, attempts refused by role and support reads, filtered by operation (in words,
// operations.ts), token and days, and downloaded as CSV with the same filter. Times and the
// filter's days are the workspace's zone's, and say so. What an entry was sent shows as a one-line
// preview that opens in a panel (SentPanel), so a large input never makes a row tall on a phone.
import { useMemo, useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { fill, useT } from '../i18n.ts';
import { ListTable, useConnection } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { ErrorState } from '../kit/states.tsx';
import { zonedDayStart } from '../kit/zoned-day.ts';
import { FILTER_OPERATIONS, operationLabel } from './operations.ts';
import { SentPanel, type SentEntry } from './SentPanel.tsx';
import { sentLines, sentPreview } from './sent.ts';

const ENTRIES = graphql(`
  query AuditEntries($first: Int, $after: String, $last: Int, $before: String, $filter: AuditFilter) {
    auditEntries(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
      edges { node { id createdAt operation outcome tokenId tokenName role requestId variables personId address } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);
const CSV = graphql(`query AuditCsv($filter: AuditFilter) { auditCsv(filter: $filter) }`);
const TOKENS = graphql(`query AuditTokens { accessTokens { id name } }`);
const PEOPLE = graphql(`query AuditPeople { members { personId email } }`);

export function AuditPage({ viewer }: { viewer: Viewer }) {
  const { t, lang } = useT();
  const dates = useDates(viewer.timeZone);
  const operations = useMemo(() => FILTER_OPERATIONS.slice().sort((a, b) => operationLabel(a, lang).localeCompare(operationLabel(b, lang), lang)), [lang]);
  const client = useClient();
  const [draft, setDraft] = useState({ operation: '', tokenId: '', personId: '', from: '', to: '' });
  const [applied, setApplied] = useState(draft);
  const [exportError, setExportError] = useState<string | null>(null);
  const [shown, setShown] = useState<SentEntry | null>(null);
  const zone = dates.zone;
  const filter = useMemo(
    () => ({
      operation: applied.operation.trim() || undefined,
      tokenId: applied.tokenId || undefined,
      personId: applied.personId || undefined,
      created: applied.from || applied.to ? { from: applied.from ? zonedDayStart(applied.from, zone) : undefined, to: applied.to ? zonedDayStart(applied.to, zone, 1) : undefined } : undefined,
    }),
    [applied, zone],
  );
  const list = useConnection(ENTRIES, 'auditEntries', filter, viewer, 'AuditEntry');
  const [{ data: tokens }] = useQuery({ query: TOKENS });
  // Support staff act for no workspace: they have no team to pick from.
  const [{ data: people }] = useQuery({ query: PEOPLE, pause: viewer.support });
  const filtered = !!(filter.operation || filter.tokenId || filter.personId || filter.created);
  const apply = (e: FormEvent) => (e.preventDefault(), setApplied(draft));
  const download = async () => {
    setExportError(null);
    const res = await client.query(CSV, { filter }, { requestPolicy: 'network-only' }).toPromise();
    if (res.error || typeof res.data?.auditCsv !== 'string') return setExportError(res.error?.graphQLErrors[0]?.message ?? res.error?.message ?? t.kitErrorTitle);
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
      <form className="filters" role="search" aria-label={t.filter} onSubmit={apply}>
        <label>{t.operation}
          <select name="operation" aria-label={t.operation} value={draft.operation} onChange={(e) => setDraft({ ...draft, operation: e.target.value })}>
            <option value="">{t.any}</option>
            {operations.map((o) => <option key={o} value={o}>{operationLabel(o, lang)}</option>)}
          </select>
        </label>
        <label>{t.accessToken}
          <select name="token" aria-label={t.accessToken} value={draft.tokenId} onChange={(e) => setDraft({ ...draft, tokenId: e.target.value })}>
            <option value="">{t.any}</option>
            {(tokens?.accessTokens ?? []).map((k) => <option key={k.id} value={k.id}>{k.name}</option>)}
          </select>
        </label>
        {!viewer.support && (
          <label>{t.auditPerson}
            <select name="person" aria-label={t.auditPerson} value={draft.personId} onChange={(e) => setDraft({ ...draft, personId: e.target.value })}>
              <option value="">{t.auditAllPeople}</option>
              {(people?.members ?? []).map((p) => <option key={p.personId} value={p.personId}>{p.email}</option>)}
            </select>
          </label>
        )}
        <label>{t.from}<input name="from" type="date" aria-describedby="audit-days-note" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} /></label>
        <label>{t.to}<input name="to" type="date" aria-describedby="audit-days-note" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} /></label>
        <button type="submit" className="primary">{t.filter}</button>
        <button type="button" onClick={download}>{t.auditCsv}</button>
      </form>
      <p className="muted" id="audit-days-note">{fill(t.auditDays, { zone })}</p>
      {exportError && <ErrorState message={exportError} onRetry={download} />}
      <ListTable list={list} head={[t.time, t.operation, t.outcome, t.accessToken, t.role, t.requestId, t.changes]} empty={filtered ? t.kitEmptyFiltered : t.auditNone}>
        {list.rows.map((r) => (
          <tr key={r.id} data-operation={r.operation}>
            <td>{dates.dateTime(r.createdAt)}</td>
            <td data-field="operation">{operationLabel(r.operation, lang)}<div className="muted"><code className="wrap">{r.operation}</code></div></td>
            <td data-field="outcome"><StatusBadge kind="auditOutcome" value={r.outcome} /></td>
            <td className="wrap" data-field="who">{r.tokenName}{r.address && <div className="muted">{r.address}</div>}</td>
            <td data-field="role"><StatusBadge kind="role" value={r.role} /></td>
            <td><code className="wrap">{r.requestId ?? '—'}</code></td>
            <td data-field="sent"><SentCell variables={r.variables} label={`${operationLabel(r.operation, lang)}, ${dates.dateTime(r.createdAt)}`} onShow={() => setShown({ operation: operationLabel(r.operation, lang), when: dates.dateTime(r.createdAt), tokenName: r.tokenName, requestId: r.requestId, variables: r.variables })} /></td>
          </tr>
        ))}
      </ListTable>
      {shown && <SentPanel entry={shown} onClose={() => setShown(null)} />}
      <ZoneNote timeZone={viewer.timeZone} />
    </section>
  );
}

/** A row's sent data: how many values and the first of them on one line, and the button that opens them all. */
function SentCell({ variables, label, onShow }: { variables: unknown; label: string; onShow: () => void }) {
  const { t } = useT();
  const lines = sentLines(variables);
  if (!lines.length) return <>—</>;
  return (
    <div className="sent-cell">
      <span className="sent-preview">{sentPreview(lines)}</span>
      <button type="button" aria-haspopup="dialog" onClick={onShow}>
        {t.auditSentShow} ({fill(t.auditSentFields, { n: String(lines.length) })})<span className="sr-only">: {label}</span>
      </button>
    </div>
  );
}
