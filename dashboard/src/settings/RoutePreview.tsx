// "Which account would take this card?": a BIN, amount, currency and installment count, answered
// by the gateway's routePreview with the accounts in the order a payment would try them, why each
// is there, what it costs and what it quotes (amounts in the asked currency). Nothing is charged.
import { useState, type FormEvent } from 'react';
import { useClient } from 'urql';
import { fill, useT } from '../i18n.ts';
import { outcomeOf, type Outcome } from '../ui.tsx';
import { graphql, type ResultOf } from '../graphql.ts';
import { Currency } from '../schema-enums.ts';
import { statusOf } from '../kit/status.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { useMoney } from '../kit/money.ts';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { useNumbers } from './numbers.ts';

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
  const { t, lang } = useT();
  const money = useMoney();
  const numbers = useNumbers();
  const client = useClient();
  const [draft, setDraft] = useState({ bin: '', amount: '100.00', currency: 'TRY', installmentCount: '1' });
  const [answer, setAnswer] = useState<{ preview: Preview; currency: string }>();
  const [outcome, setOutcome] = useState<Outcome>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await client.query(PREVIEW, { ...draft, installmentCount: Number(draft.installmentCount) }, { requestPolicy: 'network-only' }).toPromise();
    const preview = res.data?.routePreview ?? undefined;
    setOutcome(preview?.result?.successful ? undefined : outcomeOf(res, 'routePreview'));
    setAnswer(preview?.result?.successful ? { preview, currency: draft.currency } : undefined);
  };
  const field = (k: keyof typeof draft) => ({ value: draft[k], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value }) });
  const cur = answer?.currency ?? null;
  return (
    <div className="card">
      <h2 id="route-preview-title">{t.routePreview}</h2>
      <FieldForm outcome={outcome} className="stack" onSubmit={submit} aria-labelledby="route-preview-title" autoComplete="off">
        <FormErrors />
        <div className="row">
          <Field name="bin" label={t.previewBin}><input inputMode="numeric" size={8} {...field('bin')} /></Field>
          <Field name="amount" label={t.amount}><input inputMode="decimal" size={10} {...field('amount')} /></Field>
          <Field name="currency" label={t.currency}><select {...field('currency')}>{Currency.map((c) => <option key={c} value={c}>{`${c} · ${statusOf('currency', c, lang).label}`}</option>)}</select></Field>
          <Field name="installmentCount" label={t.installments}><select {...field('installmentCount')}>{Array.from({ length: 12 }, (_, i) => <option key={i + 1}>{i + 1}</option>)}</select></Field>
          <div><button type="submit" className="primary">{t.routePreviewAsk}</button></div>
        </div>
      </FieldForm>
      {answer && (
        <>
          <p className="muted" data-field="previewCard">{[answer.preview.card?.issuerName, answer.preview.card?.program].filter(Boolean).join(' · ')}</p>
          <CardTable label={t.routePreview} head={['#', t.ruleAccount, t.routeReason, t.cost, t.installments]}>
            {(answer.preview.candidates ?? []).map((c, i) => (
              <tr key={c.paymentAccount?.token ?? i} data-candidate={c.paymentAccount?.name}>
                <td>{i + 1}</td>
                <td>{c.paymentAccount?.name}</td>
                <td data-field="reason"><StatusBadge kind="routeReason" value={c.reason} /></td>
                <td data-field="cost">{c.cost ? `${money(c.cost, cur)} (${c.commissionRate ? numbers.percent(c.commissionRate) : '—'} + ${money(c.fixedFee, cur)})` : t.costUnknown}</td>
                <td data-field="installment">{c.installment ? `${fill(t.installmentRate, { count: String(c.installment.number) })}: ${money(c.installment.total, cur)}` : '—'}</td>
              </tr>
            ))}
          </CardTable>
        </>
      )}
    </div>
  );
}
