// What an account costs per payment, on the settings screen: its cost tables in one line each,
// and a form for one table (a commission in percent per count 1-12, the card program and on-us /
// not-on-us cards it prices, a fixed fee) plus the bank's own issuer code. The gateway checks
// every value and answers refusals by field path (`rates.3`), shown next to their inputs.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { fill, useT } from '../i18n.ts';
import { OutcomeView, outcomeOf, type Outcome } from '../ui.tsx';
import { graphql } from '../graphql.ts';

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

/** "any card: 1 × 1.79 %, 3 × 2.49 % + 0.25"; none: unknown cost. */
export function CostsText({ costs }: { costs: CostTable[] }) {
  const { t } = useT();
  if (costs.length === 0) return <span data-field="costs" className="muted">{t.costsNone}</span>;
  return (
    <span data-field="costs">
      {costs
        .map((c) => `${[c.program, c.cards === 'any' ? null : t[`costCards_${c.cards}` as 'costCards_on_us']].filter(Boolean).join(', ') || t.planAnyCard}: ${Object.entries(c.rates).map(([n, r]) => `${n} × ${r} %`).join(', ')} + ${c.fixedFee}`)
        .join(' · ')}
    </span>
  );
}

type Errors = NonNullable<NonNullable<Outcome>['errors']>;
const isUnder = (e: Errors[number], field: string) => e.path.join('.') === field || e.path.join('.').startsWith(`${field}.`);
const messagesFor = (errors: Errors, field: string) => errors.filter((e) => isUnder(e, field)).map((e) => e.message);
const FIELDS = [...COUNTS.map((n) => `rates.${n}`), 'program', 'cards', 'fixedFee'];

function Field({ id, name, label, value, errors, onChange, size = 6 }: { id: string; name: string; label: string; value: string; errors: string[]; onChange: (v: string) => void; size?: number }) {
  const errorId = `${id}-${name.replace('.', '-')}-error`;
  return (
    <div>
      <label>
        {label}
        <input name={name} size={size} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={errors.length > 0 || undefined} aria-describedby={errors.length ? errorId : undefined} />
      </label>
      {errors.length > 0 && <span id={errorId} className="error">{errors.join(' ')}</span>}
    </div>
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
  const [, save] = useMutation(SET_COSTS);
  const [, saveIssuer] = useMutation(SET_ISSUER);
  const id = `costs-${token}`;
  const errors = outcome?.errors ?? [];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // An empty input is a count not priced; none at all removes this table.
    const given = Object.fromEntries(Object.entries(rates).map(([n, v]) => [n, v.trim()]).filter(([, v]) => v !== ''));
    setOutcome(undefined);
    setOutcome(outcomeOf(await save({ token, rates: given, program: program.trim() || null, cards, fixedFee: fixedFee.trim() || null }), 'setAccountCosts'));
  };
  const submitIssuer = async (e: FormEvent) => {
    e.preventDefault();
    setOutcome(outcomeOf(await saveIssuer({ token, issuerCode: issuer.trim() || null }), 'setAccountIssuerCode'));
  };
  return (
    <details>
      <summary>{t.costs}</summary>
      <form className="stack" onSubmit={submit} aria-label={`${t.costs}: ${name}`} autoComplete="off">
        <p className="muted" id={`${id}-help`}>{t.costsHelp}</p>
        <fieldset aria-describedby={`${id}-help`}>
          <legend>{t.commissionRates}</legend>
          <div className="row">
            {COUNTS.map((n) => (
              <Field key={n} id={id} name={`rates.${n}`} label={fill(t.installmentRate, { count: String(n) })} value={rates[String(n)] ?? ''} errors={messagesFor(errors, `rates.${n}`)} onChange={(v) => setRates({ ...rates, [String(n)]: v })} />
            ))}
          </div>
        </fieldset>
        <div className="row">
          <Field id={id} name="program" label={t.costProgram} value={program} errors={messagesFor(errors, 'program')} onChange={setProgram} size={14} />
          <div>
            <label>
              {t.costCards}
              <select name="cards" value={cards} onChange={(e) => setCards(e.target.value)}>
                {CARDS.map((c) => <option key={c} value={c}>{t[`costCards_${c}`]}</option>)}
              </select>
            </label>
          </div>
          <Field id={id} name="fixedFee" label={t.fixedFee} value={fixedFee} errors={messagesFor(errors, 'fixedFee')} onChange={setFixedFee} />
        </div>
        <div><button type="submit">{t.save}</button></div>
      </form>
      <form className="row" onSubmit={submitIssuer} aria-label={`${t.accountIssuer}: ${name}`} autoComplete="off">
        <Field id={id} name="issuerCode" label={t.accountIssuer} value={issuer} errors={messagesFor(errors, 'issuerCode')} onChange={setIssuer} />
        <div><button type="submit">{t.save}</button></div>
      </form>
      <OutcomeView outcome={outcome && { ...outcome, errors: outcome.errors?.filter((e) => ![...FIELDS, 'issuerCode'].some((f) => isUnder(e, f))) }} />
    </details>
  );
}
