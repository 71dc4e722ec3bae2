// The calls made to providers for one payment (its refunds' too), in the order they started: for
// support reading what the bank was asked and what it said. Codes: the provider's own, then the
// gateway's error_code, with the provider's text under them.
import { useT } from '../i18n.ts';
import { graphql, type ResultOf } from '../graphql.ts';
import { useDateFormat } from '../ui.tsx';

/** The fields the table reads, for the payment's query. */
export const PROVIDER_ATTEMPT_FIELDS = graphql(`fragment ProviderAttemptFields on Payment { providerAttempts { operation paymentAccountName startedAt durationMs outcome providerCode providerMessage errorCode } }`);

export type ProviderAttemptRow = NonNullable<ResultOf<typeof PROVIDER_ATTEMPT_FIELDS>['providerAttempts']>[number];

export function ProviderAttempts({ attempts }: { attempts: ProviderAttemptRow[] }) {
  const { t } = useT();
  const date = useDateFormat();
  return (
    <div className="card">
      <h2 id="provider-attempts">{t.providerAttempts}</h2>
      <div className="table-wrap" tabIndex={0}>
        <table aria-labelledby="provider-attempts">
          <thead>
            <tr>
              <th scope="col">{t.operation}</th><th scope="col">{t.account}</th><th scope="col">{t.startedAt}</th>
              <th scope="col">{t.duration}</th><th scope="col">{t.outcome}</th><th scope="col">{t.codes}</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((a, i) => (
              <tr key={i} data-operation={a.operation}>
                <td>{a.operation}</td>
                <td>{a.paymentAccountName}</td>
                <td>{date(a.startedAt)}</td>
                <td>{a.durationMs} ms</td>
                <td data-field="outcome">{a.outcome}</td>
                <td>
                  <span data-field="codes">{[a.providerCode, a.errorCode].filter(Boolean).join(' · ') || '—'}</span>
                  {a.providerMessage && <span className="muted" data-field="providerMessage"><br />{a.providerMessage}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {attempts.length === 0 && <p>{t.none}</p>}
    </div>
  );
}
