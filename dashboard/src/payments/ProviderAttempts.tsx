// The calls made to providers for one payment (its refunds' too), in the order they started: for
// support reading what the bank was asked and what it said. Codes: the provider's own, then the
// gateway's error_code, with the provider's text under them. On phones each call is a card.
import { useLayoutEffect, useRef } from 'react';
import { useT } from '../i18n.ts';
import { graphql, type ResultOf } from '../graphql.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { useDates } from '../kit/dates.ts';
import { localeOf } from '../kit/money.ts';
import { labelCells } from '../kit/cards.ts';
import { Empty } from '../kit/states.tsx';

/** The fields the table reads, for the payment's query. */
export const PROVIDER_ATTEMPT_FIELDS = graphql(`fragment ProviderAttemptFields on Payment { providerAttempts { operation paymentAccountName startedAt durationMs outcome providerCode providerMessage errorCode } }`);

export type ProviderAttemptRow = NonNullable<ResultOf<typeof PROVIDER_ATTEMPT_FIELDS>['providerAttempts']>[number];

export function ProviderAttempts({ attempts, timeZone }: { attempts: ProviderAttemptRow[]; timeZone?: string | null }) {
  const { t, lang } = useT();
  const dates = useDates(timeZone);
  const table = useRef<HTMLTableElement>(null);
  const head = [t.operation, t.account, t.startedAt, t.duration, t.outcome, t.codes];
  useLayoutEffect(() => labelCells(table.current, head));
  const ms = new Intl.NumberFormat(localeOf(lang), { style: 'unit', unit: 'millisecond', unitDisplay: 'short' });
  return (
    <div className="card">
      <h2 id="provider-attempts">{t.providerAttempts}</h2>
      <div className="table-wrap" tabIndex={0}>
        <table ref={table} className="cards" aria-labelledby="provider-attempts">
          <thead>
            <tr>{head.map((h) => <th scope="col" key={h}>{h}</th>)}</tr>
          </thead>
          <tbody>
            {attempts.map((a, i) => (
              <tr key={i} data-operation={a.operation}>
                <td data-field="operation"><StatusBadge kind="operation" value={a.operation} /></td>
                <td>{a.paymentAccountName ?? '—'}</td>
                <td>{dates.dateTime(a.startedAt)}</td>
                <td>{a.durationMs == null ? '—' : ms.format(a.durationMs)}</td>
                <td data-field="outcome"><StatusBadge kind="attempt" value={a.outcome} /></td>
                <td>
                  <span data-field="codes">{[a.providerCode, a.errorCode].filter(Boolean).join(' · ') || '—'}</span>
                  {a.providerMessage && <span className="muted" data-field="providerMessage"><br />{a.providerMessage}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {attempts.length === 0 && <Empty />}
      </div>
    </div>
  );
}
