// "Which account would take this card?": a BIN, amount, currency and installment count, answered
// by the gateway's routePreview with the accounts in the order a payment would try them, why each
// is there, what it costs and what it quotes. Nothing is charged.
import { useState, type FormEvent } from 'react';
import { useClient } from 'urql';
import { useT } from '../i18n.ts';
import { OutcomeView, outcomeOf, type Outcome } from '../ui.tsx';
import { graphql, type ResultOf } from '../graphql.ts';
import { Currency } from '../schema-enums.ts';

const PREVIEW = graphql(`
  query RoutePreview($bin: String!, $amount: AmountInput!, $currency: String, $installmentCount: Int) {
    routePreview(bin: $bin, amount: $amount, currency: $currency, installmentCount: $installmentCount) {
      result { successful message } errors { path message }
      card { issuerName program }
      candidates { paymentAccount { token name } reason cost commissionRate fixedFee installment { number total } }
    }
  }
`);

type Preview = NonNullable<ResultOf<typeof PREVIEW>['routePreview']>;

export function RoutePreview() {
  const { t } = useT();
  const client = useClient();
  const [draft, setDraft] = useState({ bin: '', amount: '100.00', currency: 'TRY', installmentCount: '1' });
  const [answer, setAnswer] = useState<Preview>();
  const [outcome, setOutcome] = useState<Outcome>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await client.query(PREVIEW, { ...draft, installmentCount: Number(draft.installmentCount) }, { requestPolicy: 'network-only' }).toPromise();
    const preview = res.data?.routePreview ?? undefined;
    setOutcome(preview?.result?.successful ? undefined : outcomeOf(res, 'routePreview'));
    setAnswer(preview?.result?.successful ? preview : undefined);
  };
  const field = (k: keyof typeof draft) => ({ name: k, value: draft[k], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value }) });
  return (
    <div className="card">
      <h2 id="route-preview-title">{t.routePreview}</h2>
      <form className="row" onSubmit={submit} aria-labelledby="route-preview-title" autoComplete="off">
        <label>{t.previewBin}<input inputMode="numeric" size={8} required {...field('bin')} /></label>
        <label>{t.amount}<input inputMode="decimal" size={10} required {...field('amount')} /></label>
        <label>{t.currency}<select {...field('currency')}>{Currency.map((c) => <option key={c}>{c}</option>)}</select></label>
        <label>{t.installments}<select {...field('installmentCount')}>{Array.from({ length: 12 }, (_, i) => <option key={i + 1}>{i + 1}</option>)}</select></label>
        <div><button type="submit" className="primary">{t.routePreviewAsk}</button></div>
      </form>
      <OutcomeView outcome={outcome} />
      {answer && (
        <>
          <p className="muted" data-field="previewCard">{[answer.card?.issuerName, answer.card?.program].filter(Boolean).join(' · ')}</p>
          <table aria-label={t.routePreview}>
            <thead>
              <tr><th scope="col">#</th><th scope="col">{t.ruleAccount}</th><th scope="col">{t.routeReason}</th><th scope="col">{t.cost}</th><th scope="col">{t.installments}</th></tr>
            </thead>
            <tbody>
              {(answer.candidates ?? []).map((c, i) => (
                <tr key={c.paymentAccount?.token ?? i} data-candidate={c.paymentAccount?.name}>
                  <td>{i + 1}</td>
                  <td>{c.paymentAccount?.name}</td>
                  <td data-field="reason">{t[`routeReason_${c.reason}` as 'routeReason_cost'] ?? c.reason}</td>
                  <td data-field="cost">{c.cost ? `${c.cost} (${c.commissionRate} % + ${c.fixedFee})` : t.costUnknown}</td>
                  <td data-field="installment">{c.installment ? `${c.installment.number} → ${c.installment.total}` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
