// What an account costs per payment, on the settings screen: its cost tables in one line each,
// and a form for one table (a commission in percent per count 1-12, the card program and on-us /
// not-on-us cards it prices, a fixed fee) plus the bank's own issuer code. The gateway checks
// every value and answers refusals by field path (`rates.3`), shown next to their inputs.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { fill, useT } from '../i18n.ts';
import { outcomeOf, type Outcome } from '../ui.tsx';
import { graphql } from '../graphql.ts';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { useNumbers } from './numbers.ts';

export interface CostTable { program: string | null; cards: string; rates: Record<string, string>; fixedFee: string }

const SET_COSTS = graphql(`
  mutation SetAccountCosts($token: String!, $rates: JSON, $program: String, $cards: String, $fixedFee: AmountInput) {
    setAccountCosts(token: $token, rates: $rates, program: $program, cards: $cards, fixedFee: $fixedFee) {
      result { successful message } errors { path message } paymentAccount { token issuerCode costs { program cards rates fixedFee } }
    }
  }
`);
const SET_ISSUER = graphql(`
  mutation SetAccountIssuerCode($token: String!, $issuerCode: String) {
    setAccountIssuerCode(token: $token, issuerCode: $issuerCode) { result { successful message } errors { path message } paymentAccount { token issuerCode } }
  }
`);

const COUNTS = Array.from({ length: 12 }, (_, i) => i + 1);
const CARDS = ['any', 'on_us', 'not_on_us'] as const;

/** "any card: 1 × 1.79%, 3 × 2.49% + 0.25" (the fee in the payment's currency); none: unknown cost. */
export function CostsText({ costs }: { costs: CostTable[] }) {
  const { t } = useT();
  const numbers = useNumbers();
  if (costs.length === 0) return <span data-field="costs" className="muted">{t.costsNone}</span>;
  return (
    <span data-field="costs">
      {costs
        .map((c) => `${[c.program, c.cards === 'any' ? null : t[`costCards_${c.cards}` as 'costCards_on_us']].filter(Boolean).join(', ') || t.planAnyCard}: ${Object.entries(c.rates).map(([n, r]) => `${n} × ${numbers.percent(r)}`).join(', ')} + ${numbers.decimal(c.fixedFee)}`)
        .join(' · ')}
    </span>
  );
}

export function AccountCostsForm({ token, name, issuerCode }: { token: string; name: string; issuerCode: string | null }) {
  const { t } = useT();
  const [rates, setRates] = useState<Record<string, string>>({});
  const [program, setProgram] = useState('');
  const [cards, setCards] = useState<string>('any');
  const [fixedFee, setFixedFee] = useState('');
  const [issuer, setIssuer] = useState(issuerCode ?? '');
  const [outcome, setOutcome] = useState<Outcome>();
  const [issuerOutcome, setIssuerOutcome] = useState<Outcome>();
  const [, save] = useMutation(SET_COSTS);
  const [, saveIssuer] = useMutation(SET_ISSUER);
  const id = `costs-${token}`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // An empty input is a count not priced; none at all removes this table.
    const given = Object.fromEntries(Object.entries(rates).map(([n, v]) => [n, v.trim()]).filter(([, v]) => v !== ''));
    setOutcome(undefined);
    setOutcome(outcomeOf(await save({ token, rates: given, program: program.trim() || null, cards, fixedFee: fixedFee.trim() || null }), 'setAccountCosts'));
  };
  const submitIssuer = async (e: FormEvent) => {
    e.preventDefault();
    setIssuerOutcome(undefined);
    setIssuerOutcome(outcomeOf(await saveIssuer({ token, issuerCode: issuer.trim() || null }), 'setAccountIssuerCode'));
  };
  return (
    <details>
      <summary>{t.costs}</summary>
      <FieldForm outcome={outcome} className="stack" onSubmit={submit} aria-label={`${t.costs}: ${name}`} autoComplete="off">
        <FormErrors />
        <p className="muted" id={`${id}-help`}>{t.costsHelp}</p>
        <fieldset aria-describedby={`${id}-help`}>
          <legend>{t.commissionRates}</legend>
          <div className="row">
            {COUNTS.map((n) => (
              <Field key={n} name={`rates.${n}`} label={fill(t.installmentRate, { count: String(n) })}>
                <input inputMode="decimal" size={6} value={rates[String(n)] ?? ''} onChange={(e) => setRates({ ...rates, [String(n)]: e.target.value })} />
              </Field>
            ))}
          </div>
        </fieldset>
        <div className="row">
          <Field name="program" label={t.costProgram}><input size={14} value={program} onChange={(e) => setProgram(e.target.value)} /></Field>
          <Field name="cards" label={t.costCards}>
            <select value={cards} onChange={(e) => setCards(e.target.value)}>
              {CARDS.map((c) => <option key={c} value={c}>{t[`costCards_${c}`]}</option>)}
            </select>
          </Field>
          <Field name="fixedFee" label={t.fixedFee}><input inputMode="decimal" size={6} value={fixedFee} onChange={(e) => setFixedFee(e.target.value)} /></Field>
        </div>
        <div><button type="submit">{t.save}</button></div>
        {outcome?.result?.successful && <p role="status" className="ok">{t.done}</p>}
      </FieldForm>
      <FieldForm outcome={issuerOutcome} className="stack" onSubmit={submitIssuer} aria-label={`${t.accountIssuer}: ${name}`} autoComplete="off">
        <FormErrors />
        <div className="row">
          <Field name="issuerCode" label={t.accountIssuer}><input size={6} value={issuer} onChange={(e) => setIssuer(e.target.value)} /></Field>
          <div><button type="submit">{t.save}</button></div>
        </div>
        {issuerOutcome?.result?.successful && <p role="status" className="ok">{t.done}</p>}
      </FieldForm>
    </details>
  );
}
