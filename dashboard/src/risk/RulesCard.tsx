// The merchant's rules in the order they are read, each as a sentence with its switch, its place
// and its edit and remove buttons (for the roles that may), and one editor that creates a rule or
// changes the one being edited, shows the sentence as it is typed, and tests the conditions on the
// payments of the last 7, 30 or 90 days before anything is saved.
import { useState, type FormEvent } from 'react';
import { useClient, useMutation } from 'urql';
import { fill, useT } from '../i18n.ts';
import { graphql, type Filled, type ResultOf } from '../graphql.ts';
import { Confirm, Link, outcomeOf } from '../ui.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { Empty } from '../kit/states.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { Field, FieldForm, FieldGroup, FormErrors } from '../kit/Field.tsx';
import type { ApiOutcome } from '../kit/field-errors.ts';
import { useCan } from '../kit/can.ts';
import { useMoney } from '../kit/money.ts';
import { FIELDS, OUTCOMES, operatorsOf, ruleSentence, textFromValue, valueFromText, type Condition } from './sentence.ts';

export const RULE_FIELDS_FRAGMENT = graphql(`fragment RiskRuleFields on RiskRule { id position enabled name outcome conditions { field operator value } }`);
const SAVE = graphql(`
  mutation SaveRiskRule($input: RiskRuleInput!) { saveRiskRule(input: $input) { result { successful message } errors { path message } rule { ...RiskRuleFields } } }
`, [RULE_FIELDS_FRAGMENT]);
const REMOVE = graphql(`mutation RemoveRiskRule($id: String!) { removeRiskRule(id: $id) { result { successful message } errors { path message } } }`);
const TEST = graphql(`
  query RiskRulePast($conditions: [RiskConditionInput!]!, $days: Int) {
    riskRuleTest(conditions: $conditions, days: $days) {
      result { successful message } errors { path message }
      past { days attempts matched succeeded payments { token channelReference amount currency status } }
    }
  }
`);

type Rule = Filled<ResultOf<typeof RULE_FIELDS_FRAGMENT>>;
type Row = { field: string; operator: string; text: string };

const inputOf = (r: Rule, change: { enabled?: boolean; position?: number } = {}) => ({
  id: r.id, name: r.name, outcome: r.outcome, enabled: change.enabled ?? r.enabled, position: change.position ?? r.position,
  conditions: r.conditions.map((c) => ({ field: c.field, operator: c.operator, value: c.value })),
});

export function RulesCard({ rules, onChange }: { rules: readonly Rule[]; onChange: () => void }) {
  const { t, lang } = useT();
  const can = useCan();
  const [, save] = useMutation(SAVE);
  const [, remove] = useMutation(REMOVE);
  const [outcome, setOutcome] = useState<ApiOutcome | undefined>();
  const [editing, setEditing] = useState<Rule | null>(null);
  const [removing, setRemoving] = useState<Rule | null>(null);
  const change = can('saveRiskRule');
  const act = async (run: Promise<ApiOutcome | undefined>) => {
    const res = await run;
    setOutcome(res);
    if (res?.result?.successful) onChange();
  };
  // Swapping two neighbours' places: each is saved with the other's position.
  const move = (i: number, j: number) => act((async () => {
    const [a, b] = [rules[i]!, rules[j]!];
    const first = outcomeOf(await save({ input: inputOf(a, { position: b.position === a.position ? a.position + (j > i ? 1 : -1) : b.position }) }), 'saveRiskRule');
    if (!first?.result?.successful) return first;
    return outcomeOf(await save({ input: inputOf(b, { position: a.position }) }), 'saveRiskRule');
  })());
  const head = [t.riskRuleName, t.riskPreview, t.status, ...(change ? [t.actions] : [])];
  return (
    <section className="card" aria-labelledby="risk-rules">
      <h2 id="risk-rules">{t.riskRules}</h2>
      {rules.length === 0 ? <Empty>{t.riskRulesEmpty}</Empty> : (
        <CardTable head={head}>
          {rules.map((r, i) => (
            <tr key={r.id} data-rule={r.name}>
              <td className="wrap">{r.name}</td>
              <td className="wrap" data-field="sentence">{ruleSentence(t, lang, r)}</td>
              <td data-field="enabled">{r.enabled ? t.riskOn : t.riskOff}</td>
              {change && (
                <td className="row">
                  <button type="button" aria-label={`${r.enabled ? t.riskTurnOff : t.riskTurnOn} ${r.name}`} onClick={() => act(save({ input: inputOf(r, { enabled: !r.enabled }) }).then((res) => outcomeOf(res, 'saveRiskRule')))}>{r.enabled ? t.riskTurnOff : t.riskTurnOn}</button>
                  <button type="button" aria-label={`${t.riskUp} ${r.name}`} disabled={i === 0} onClick={() => move(i, i - 1)}>↑</button>
                  <button type="button" aria-label={`${t.riskDown} ${r.name}`} disabled={i === rules.length - 1} onClick={() => move(i, i + 1)}>↓</button>
                  <button type="button" aria-label={`${t.riskEdit} ${r.name}`} onClick={() => (setOutcome(undefined), setEditing(r))}>{t.riskEdit}</button>
                  {can('removeRiskRule') && <button type="button" className="danger" aria-label={`${t.delete} ${r.name}`} onClick={() => (setOutcome(undefined), setRemoving(r))}>{t.delete}</button>}
                </td>
              )}
            </tr>
          ))}
        </CardTable>
      )}
      {removing && (
        <Confirm
          text={fill(t.confirmDelete, { name: removing.name })}
          onDismiss={() => setRemoving(null)}
          onConfirm={() => (setRemoving(null), act(remove({ id: removing.id }).then((res) => outcomeOf(res, 'removeRiskRule'))))}
        />
      )}
      <ActionOutcome outcome={outcome} />
      <RuleEditor key={editing?.id ?? 'new'} editing={editing} canSave={change} onDone={() => (setEditing(null), onChange())} onCancel={() => setEditing(null)} />
    </section>
  );
}

const emptyRow = (): Row => ({ field: 'amount', operator: 'gte', text: '' });

function RuleEditor({ editing, canSave, onDone, onCancel }: { editing: Rule | null; canSave: boolean; onDone: () => void; onCancel: () => void }) {
  const { t, lang } = useT();
  const [, save] = useMutation(SAVE);
  const [name, setName] = useState(editing?.name ?? '');
  const [ruleOutcome, setRuleOutcome] = useState(editing?.outcome ?? 'block');
  const [rows, setRows] = useState<Row[]>(editing ? editing.conditions.map((c) => ({ field: c.field, operator: c.operator, text: textFromValue(c.field, c.value) })) : [emptyRow()]);
  const [outcome, setOutcome] = useState<ApiOutcome | null>(null);
  const conditions: Condition[] = rows.map((r) => ({ field: r.field, operator: r.operator, value: valueFromText(r.field, r.operator, r.text) }));
  const setRow = (i: number, change: Partial<Row>) => setRows((list) => list.map((r, k) => {
    if (k !== i) return r;
    const next = { ...r, ...change };
    // A field of another kind may not take the operator chosen before.
    if (!operatorsOf(next.field).includes(next.operator as never)) next.operator = operatorsOf(next.field)[0]!;
    return next;
  }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = outcomeOf(await save({ input: { id: editing?.id, name, outcome: ruleOutcome, enabled: editing?.enabled, conditions } }), 'saveRiskRule');
    setOutcome(res ?? null);
    if (!res?.result?.successful) return;
    setName('');
    setRows([emptyRow()]);
    onDone();
  };
  const title = editing ? fill(t.riskEditRule, { name: editing.name }) : t.riskNewRule;
  return (
    <FieldForm outcome={outcome} onSubmit={submit} className="risk-rule-form" aria-labelledby="risk-rule-form-title">
      <h3 id="risk-rule-form-title">{title}</h3>
      <FormErrors />
      {canSave && <Field name="name" label={t.riskRuleName}><input value={name} onChange={(e) => setName(e.target.value)} /></Field>}
      {canSave && (
        <Field name="outcome" label={t.riskOutcome}>
          <select value={ruleOutcome} onChange={(e) => setRuleOutcome(e.target.value)}>
            {OUTCOMES.map((o) => <option key={o} value={o}>{(t as unknown as Record<string, string>)[`risk_outcome_${o}`]}</option>)}
          </select>
        </Field>
      )}
      <FieldGroup name="conditions" legend={t.riskConditions}>
        <p className="muted">{t.riskValueHelp}</p>
        {rows.map((r, i) => (
          <div key={i} className="row field-row" data-condition={i}>
            <Field name={`conditions.${i}.field`} label={t.riskField}>
              <select value={r.field} onChange={(e) => setRow(i, { field: e.target.value })}>
                {Object.keys(FIELDS).map((f) => <option key={f} value={f}>{(t as unknown as Record<string, string>)[`risk_f_${f}`]}</option>)}
              </select>
            </Field>
            <Field name={`conditions.${i}.operator`} label={t.riskOperator}>
              <select value={r.operator} onChange={(e) => setRow(i, { operator: e.target.value })}>
                {operatorsOf(r.field).map((o) => <option key={o} value={o}>{(t as unknown as Record<string, string>)[`risk_opname_${o}`]}</option>)}
              </select>
            </Field>
            <Field name={`conditions.${i}.value`} label={t.riskValue}><input value={r.text} onChange={(e) => setRow(i, { text: e.target.value })} /></Field>
            {rows.length > 1 && <button type="button" aria-label={`${t.remove} ${i + 1}`} onClick={() => setRows((list) => list.filter((_, k) => k !== i))}>{t.remove}</button>}
          </div>
        ))}
        <button type="button" onClick={() => setRows((list) => [...list, emptyRow()])}>{t.riskAddCondition}</button>
      </FieldGroup>
      <p data-field="preview"><strong>{t.riskPreview}:</strong> {ruleSentence(t, lang, { outcome: ruleOutcome, conditions })}</p>
      <div className="row">
        {canSave && <button type="submit" className="primary">{t.riskSaveRule}</button>}
        {editing && <button type="button" onClick={onCancel}>{t.riskCancelEdit}</button>}
      </div>
      <Tester conditions={conditions} />
    </FieldForm>
  );
}

function Tester({ conditions }: { conditions: Condition[] }) {
  const { t } = useT();
  const client = useClient();
  const money = useMoney();
  const [days, setDays] = useState(30);
  const [answer, setAnswer] = useState<ResultOf<typeof TEST>['riskRuleTest'] | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const res = await client.query(TEST, { conditions: conditions.map((c) => ({ field: c.field, operator: c.operator, value: c.value })), days }, { requestPolicy: 'network-only' }).toPromise();
    setBusy(false);
    setAnswer(res.data?.riskRuleTest ?? { result: { successful: false, message: res.error?.message ?? null }, errors: [], past: null });
  };
  const past = answer?.past as Filled<NonNullable<ResultOf<typeof TEST>['riskRuleTest']>['past']> | null | undefined;
  return (
    <div className="risk-tester" aria-live="polite" aria-busy={busy}>
      <div className="row">
        <label>{t.riskTestPeriod}
          <select name="testDays" value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {[7, 30, 90].map((d) => <option key={d} value={d}>{t.overviewDays.replace('{n}', String(d))}</option>)}
          </select>
        </label>
        <button type="button" onClick={run} disabled={busy}>{t.riskTest}</button>
      </div>
      {answer && !past && <ActionOutcome outcome={answer} />}
      {past && (
        <>
          <p data-field="testAnswer">{fill(t.riskTestAnswer, { days: String(past.days), attempts: String(past.attempts), matched: String(past.matched), succeeded: String(past.succeeded) })}</p>
          {past.payments.length > 0 && (
            <ul className="risk-matched">
              {past.payments.map((p) => <li key={p.token}><Link to={`payments/${p.token}`}>{p.channelReference ?? p.token}</Link> · {money(p.amount, p.currency)} · {p.status}</li>)}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
