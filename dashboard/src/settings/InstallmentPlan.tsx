// An account's installment plan on the settings screen: the plan in one line, and a form with a
// surcharge (percent) per count 2-12 and the card programs allowed. The rules (counts, two
// decimals, 0-100) live in the gateway; a refusal comes back by field path (`rates.3`) and is shown
// next to its input (kit Field).
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { fill, useT } from '../i18n.ts';
import { outcomeOf, type Outcome } from '../ui.tsx';
import { graphql } from '../graphql.ts';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { atField } from './paths.ts';
import { useNumbers } from './numbers.ts';

export interface InstallmentPlan { counts: number[]; rates: Record<string, string>; programs: string[] }

const SET_PLAN = graphql(`
  mutation SetInstallmentPlan($token: String!, $rates: JSON, $programs: [String!]) {
    setInstallmentPlan(token: $token, rates: $rates, programs: $programs) {
      result { successful message } errors { path message } paymentAccount { token installmentPlan }
    }
  }
`);

const COUNTS = Array.from({ length: 11 }, (_, i) => i + 2);

/** "3 × 4.50%, 6 × 9.00% · Bonus" (in the reader's number format); an empty plan offers every count at the default rates to any card. */
export function PlanText({ plan }: { plan: InstallmentPlan | null }) {
  const { t } = useT();
  const counts = plan?.counts ?? [];
  const programs = plan?.programs ?? [];
  const numbers = useNumbers();
  const rate = (n: number) => plan?.rates[String(n)];
  const offered = counts.length ? counts.map((n) => `${n} × ${rate(n) ? numbers.percent(rate(n)!) : '?'}`).join(', ') : t.planEveryCount;
  return <span data-field="installmentPlan">{`${offered} · ${programs.length ? programs.join(', ') : t.planAnyCard}`}</span>;
}

export function InstallmentPlanForm({ token, name, plan }: { token: string; name: string; plan: InstallmentPlan | null }) {
  const { t } = useT();
  const [rates, setRates] = useState<Record<string, string>>(() => ({ ...plan?.rates }));
  const [programs, setPrograms] = useState(() => (plan?.programs ?? []).join(', '));
  const [outcome, setOutcome] = useState<Outcome>();
  const [, save] = useMutation(SET_PLAN);
  const id = `plan-${token}`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // An empty input is a count not offered; the gateway checks the rest.
    const given = Object.fromEntries(Object.entries(rates).map(([n, v]) => [n, v.trim()]).filter(([, v]) => v !== ''));
    const list = programs.split(',').map((p) => p.trim()).filter((p) => p !== '');
    setOutcome(undefined);
    setOutcome(atField(outcomeOf(await save({ token, rates: given, programs: list }), 'setInstallmentPlan'), ['programs']));
  };
  return (
    <details>
      <summary>{t.installments}</summary>
      <FieldForm outcome={outcome} className="stack" onSubmit={submit} aria-label={`${t.installments}: ${name}`} autoComplete="off">
        <FormErrors />
        <p className="muted" id={`${id}-help`}>{t.installmentsHelp}</p>
        <fieldset aria-describedby={`${id}-help`}>
          <legend>{t.installmentRates}</legend>
          <div className="row">
            {COUNTS.map((n) => (
              <Field key={n} name={`rates.${n}`} label={fill(t.installmentRate, { count: String(n) })}>
                <input inputMode="decimal" size={6} value={rates[String(n)] ?? ''} onChange={(e) => setRates({ ...rates, [String(n)]: e.target.value })} />
              </Field>
            ))}
          </div>
        </fieldset>
        <Field name="programs" label={t.cardPrograms}>
          <input value={programs} onChange={(e) => setPrograms(e.target.value)} />
        </Field>
        <div><button type="submit">{t.save}</button></div>
        {outcome?.result?.successful && <p role="status" className="ok">{t.done}</p>}
      </FieldForm>
    </details>
  );
}
