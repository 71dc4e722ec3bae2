// An account's installment plan on the settings screen: the plan in one line, and a form with a
// surcharge (percent) per count 2-12 and the card programs allowed. The rules (counts, two
// decimals, 0-100) live in the gateway; a refusal comes back by field path (`rates.3`) and is shown
// next to its input.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { fill, useT } from '../i18n.ts';
import { OutcomeView, outcomeOf, type Outcome } from '../ui.tsx';
import { graphql } from '../graphql.ts';

export interface InstallmentPlan { counts: number[]; rates: Record<string, string>; programs: string[] }

const SET_PLAN = graphql(`
  mutation SetInstallmentPlan($token: String!, $rates: JSON, $programs: [String!]) {
    setInstallmentPlan(token: $token, rates: $rates, programs: $programs) {
      result { successful message } errors { path message } paymentAccount { token installmentPlan }
    }
  }
`);

const COUNTS = Array.from({ length: 11 }, (_, i) => i + 2);

/** "3 × 4.50 %, 6 × 9.00 % · Bonus"; an empty plan offers every count at the default rates to any card. */
export function PlanText({ plan }: { plan: InstallmentPlan | null }) {
  const { t } = useT();
  const counts = plan?.counts ?? [];
  const programs = plan?.programs ?? [];
  const offered = counts.length ? counts.map((n) => `${n} × ${plan?.rates[String(n)] ?? '?'} %`).join(', ') : t.planEveryCount;
  return <span data-field="installmentPlan">{`${offered} · ${programs.length ? programs.join(', ') : t.planAnyCard}`}</span>;
}

type Errors = NonNullable<NonNullable<Outcome>['errors']>;

/** Whether an error's path is `field` or lies under it (`programs.0` under `programs`). */
const isUnder = (e: Errors[number], field: string) => e.path.join('.') === field || e.path.join('.').startsWith(`${field}.`);
const messagesFor = (errors: Errors, field: string) => errors.filter((e) => isUnder(e, field)).map((e) => e.message);
/** Errors that have an input of their own to stand by. */
const FIELDS = [...COUNTS.map((n) => `rates.${n}`), 'programs'];

function RateInput({ id, count, value, errors, onChange }: { id: string; count: number; value: string; errors: string[]; onChange: (v: string) => void }) {
  const { t } = useT();
  const errorId = `${id}-rates-${count}-error`;
  return (
    <div>
      <label>
        {fill(t.installmentRate, { count: String(count) })}
        <input
          name={`rates.${count}`}
          inputMode="decimal"
          size={6}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={errors.length ? errorId : undefined}
        />
      </label>
      {errors.length > 0 && <span id={errorId} className="error">{errors.join(' ')}</span>}
    </div>
  );
}

export function InstallmentPlanForm({ token, name, plan }: { token: string; name: string; plan: InstallmentPlan | null }) {
  const { t } = useT();
  const [rates, setRates] = useState<Record<string, string>>(() => ({ ...plan?.rates }));
  const [programs, setPrograms] = useState(() => (plan?.programs ?? []).join(', '));
  const [outcome, setOutcome] = useState<Outcome>();
  const [, save] = useMutation(SET_PLAN);
  const id = `plan-${token}`;
  const errors = outcome?.errors ?? [];
  const programErrors = messagesFor(errors, 'programs');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // An empty input is a count not offered; the gateway checks the rest.
    const given = Object.fromEntries(Object.entries(rates).map(([n, v]) => [n, v.trim()]).filter(([, v]) => v !== ''));
    const list = programs.split(',').map((p) => p.trim()).filter((p) => p !== '');
    setOutcome(undefined);
    setOutcome(outcomeOf(await save({ token, rates: given, programs: list }), 'setInstallmentPlan'));
  };
  return (
    <details>
      <summary>{t.installments}</summary>
      <form className="stack" onSubmit={submit} aria-label={`${t.installments}: ${name}`} autoComplete="off">
        <p className="muted" id={`${id}-help`}>{t.installmentsHelp}</p>
        <fieldset aria-describedby={`${id}-help`}>
          <legend>{t.installmentRates}</legend>
          <div className="row">
            {COUNTS.map((n) => (
              <RateInput key={n} id={id} count={n} value={rates[String(n)] ?? ''} errors={messagesFor(errors, `rates.${n}`)} onChange={(v) => setRates({ ...rates, [String(n)]: v })} />
            ))}
          </div>
        </fieldset>
        <div>
          <label>
            {t.cardPrograms}
            <input
              name="programs"
              value={programs}
              onChange={(e) => setPrograms(e.target.value)}
              aria-invalid={programErrors.length > 0 || undefined}
              aria-describedby={programErrors.length ? `${id}-programs-error` : undefined}
            />
          </label>
          {programErrors.length > 0 && <span id={`${id}-programs-error`} className="error">{programErrors.join(' ')}</span>}
        </div>
        <div><button type="submit">{t.save}</button></div>
        {/* Field errors stand by their inputs; the status line keeps the message and any other error. */}
        <OutcomeView outcome={outcome && { ...outcome, errors: outcome.errors?.filter((e) => !FIELDS.some((f) => isUnder(e, f))) }} />
      </form>
    </details>
  );
}
