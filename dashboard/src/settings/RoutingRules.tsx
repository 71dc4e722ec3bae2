// Routing rules in the order they are tried: add one (every condition given must hold) and remove
// one. Owners change them; everyone else reads them.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { outcomeOf, type Outcome } from '../ui.tsx';
import type { Account } from './Accounts.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql, type ResultOf, type VariablesOf } from '../graphql.ts';
import { Currency } from '../schema-enums.ts';
import { statusOf, statusValues } from '../kit/status.ts';
import { useMoney } from '../kit/money.ts';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { useNumbers } from './numbers.ts';

const RULES = graphql(`
  query RoutingRules($slug: String) { routingRules(workspaceSlug: $slug) { id position paymentProviderToken scheme cardType binPrefix issuerCode currency minAmount maxAmount program weight } }
`);
const ADD = graphql(`mutation AddRoutingRule($input: AddRoutingRuleInput!) { addRoutingRule(input: $input) { result { successful message } errors { path message } routingRule { id } } }`);
const REMOVE = graphql(`mutation RemoveRoutingRule($id: ID!) { removeRoutingRule(id: $id) { result { successful message } errors { path message } routingRule { id } } }`);
const RULE_TYPES = { additionalTypenames: ['RoutingRule'] };
/** Card schemes by the names their owners write. */
const SCHEMES: Record<string, string> = {
  visa: 'Visa', mastercard: 'Mastercard', american_express: 'American Express', troy: 'Troy', discover: 'Discover',
  diners_club: 'Diners Club', jcb: 'JCB', unionpay: 'UnionPay', maestro: 'Maestro',
};

type Rule = NonNullable<ResultOf<typeof RULES>['routingRules']>[number];
const EMPTY = { paymentProviderToken: '', scheme: '', cardType: '', binPrefix: '', issuerCode: '', currency: '', minAmount: '', maxAmount: '', program: '', weight: '' };

export function RoutingRules({ accounts, viewer }: { accounts: Account[]; viewer: Viewer }) {
  const { t, lang } = useT();
  const money = useMoney();
  const [{ data, error }, reexecute] = useQuery({ query: RULES, variables: { slug: viewer.support ? viewer.slug : undefined }, context: RULE_TYPES });
  const [draft, setDraft] = useState(EMPTY);
  const [outcome, setOutcome] = useState<Outcome>();
  const [removed, setRemoved] = useState<Outcome>();
  const [, add] = useMutation(ADD);
  const [, remove] = useMutation(REMOVE);
  const rules = data?.routingRules ?? [];
  const name = (token: string | null) => accounts.find((a) => a.token === token)?.name ?? token;
  const numbers = useNumbers();
  // A rule without a currency bounds the amount in whatever currency the payment has.
  const amount = (v: string | null, currency: string | null) => (v ? (currency ? money(v, currency) : numbers.decimal(v)) : null);
  const describe = (r: Rule) =>
    [
      r.scheme && (SCHEMES[r.scheme] ?? r.scheme),
      r.cardType && statusOf('cardType', r.cardType, lang).label,
      r.binPrefix && `BIN ${r.binPrefix}…`,
      r.issuerCode && `${t.issuer} ${r.issuerCode}`,
      r.currency,
      (r.minAmount || r.maxAmount) && `${amount(r.minAmount, r.currency) ?? '0'}–${amount(r.maxAmount, r.currency) ?? '∞'}`,
      r.program,
      r.weight !== null && `${t.ruleWeight} ${r.weight}`,
    ]
      .filter(Boolean)
      .join(' · ') || t.anyCard;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const given = Object.entries({ ...draft, paymentProviderToken: draft.paymentProviderToken || accounts[0]?.token || '' }).filter(([, v]) => v !== '');
    // The weight is a whole number; the gateway refuses anything else by its path.
    // Built from the filled fields only: the gateway names a missing or wrong one by its path.
    const input = Object.fromEntries(given.map(([k, v]) => [k, k === 'weight' ? Number(v) : v])) as VariablesOf<typeof ADD>['input'];
    const o = outcomeOf(await add({ input }), 'addRoutingRule');
    setOutcome(o);
    if (o?.result?.successful) setDraft(EMPTY);
  };
  const field = (k: keyof typeof EMPTY) => ({ value: draft[k], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value }) });
  return (
    <div className="card">
      <h2>{t.routingRules}</h2>
      <p className="muted">{t.routingHelp}</p>
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {!data && !error && <Loading rows={2} />}
      {rules.length > 0 && (
        <ol>
          {rules.map((r) => (
            <li key={r.id} data-rule={r.id}>
              {describe(r)} → <strong>{name(r.paymentProviderToken)}</strong>{' '}
              {viewer.can('removeRoutingRule') && <button type="button" aria-label={`${t.delete}: ${describe(r)}`} onClick={async () => setRemoved(outcomeOf(await remove({ id: r.id ?? '' }), 'removeRoutingRule'))}>{t.delete}</button>}
            </li>
          ))}
        </ol>
      )}
      {data && rules.length === 0 && <Empty>{t.routingNone}</Empty>}
      <ActionOutcome outcome={removed} />
      {viewer.can('addRoutingRule') && (
        <FieldForm outcome={outcome} className="stack" onSubmit={submit} aria-labelledby="add-rule-title" autoComplete="off">
          <h3 id="add-rule-title">{t.addRule}</h3>
          <FormErrors />
          <div className="row">
            <Field name="paymentProviderToken" label={t.ruleAccount}><select {...field('paymentProviderToken')}>{accounts.map((a) => <option key={a.token} value={a.token}>{a.name}</option>)}</select></Field>
            <Field name="scheme" label={t.scheme}><select {...field('scheme')}><option value="">{t.any}</option>{Object.entries(SCHEMES).map(([v, label]) => <option key={v} value={v}>{label}</option>)}</select></Field>
            <Field name="cardType" label={t.cardType}><select {...field('cardType')}><option value="">{t.any}</option>{statusValues('cardType').map((v) => <option key={v} value={v}>{statusOf('cardType', v, lang).label}</option>)}</select></Field>
            <Field name="binPrefix" label={t.binPrefix}><input inputMode="numeric" size={8} {...field('binPrefix')} /></Field>
            <Field name="issuerCode" label={t.issuer}><input size={6} {...field('issuerCode')} /></Field>
            <Field name="currency" label={t.currency}><select {...field('currency')}><option value="">{t.any}</option>{Currency.map((c) => <option key={c} value={c}>{`${c} · ${statusOf('currency', c, lang).label}`}</option>)}</select></Field>
            <Field name="minAmount" label={t.minAmount}><input inputMode="decimal" size={10} {...field('minAmount')} /></Field>
            <Field name="maxAmount" label={t.maxAmount}><input inputMode="decimal" size={10} {...field('maxAmount')} /></Field>
            <Field name="program" label={t.costProgram}><input size={14} {...field('program')} /></Field>
            <Field name="weight" label={t.ruleWeight}><input inputMode="numeric" size={5} {...field('weight')} /></Field>
          </div>
          <div><button type="submit" className="primary">{t.addRule}</button></div>
          {outcome?.result?.successful && <p role="status" className="ok">{t.done}</p>}
        </FieldForm>
      )}
    </div>
  );
}
