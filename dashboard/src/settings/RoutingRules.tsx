// Routing rules in the order they are tried: add one (every condition given must hold) and remove one.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { OutcomeView, outcomeOf, type Outcome } from '../ui.tsx';
import type { Account } from './SettingsPage.tsx';
import type { Viewer } from '../App.tsx';
import { graphql, type ResultOf, type VariablesOf } from '../graphql.ts';
import { Currency } from '../schema-enums.ts';

const RULES = graphql(`
  query RoutingRules($slug: String) { routingRules(workspaceSlug: $slug) { id position paymentProviderToken scheme cardType binPrefix issuerCode currency minAmount maxAmount program weight } }
`);
const ADD = graphql(`mutation AddRoutingRule($input: AddRoutingRuleInput!) { addRoutingRule(input: $input) { result { successful message } errors { path message } routingRule { id } } }`);
const REMOVE = graphql(`mutation RemoveRoutingRule($id: ID!) { removeRoutingRule(id: $id) { result { successful message } errors { path message } routingRule { id } } }`);
const RULE_TYPES = { additionalTypenames: ['RoutingRule'] };
const SCHEMES = ['visa', 'mastercard', 'american_express', 'troy', 'discover', 'diners_club', 'jcb', 'unionpay', 'maestro'];

type Rule = NonNullable<ResultOf<typeof RULES>['routingRules']>[number];
const EMPTY = { paymentProviderToken: '', scheme: '', cardType: '', binPrefix: '', issuerCode: '', currency: '', minAmount: '', maxAmount: '', program: '', weight: '' };

export function RoutingRules({ accounts, viewer }: { accounts: Account[]; viewer: Viewer }) {
  const { t } = useT();
  const [{ data, error }] = useQuery({ query: RULES, variables: { slug: viewer.support ? viewer.slug : undefined }, context: RULE_TYPES });
  const [draft, setDraft] = useState(EMPTY);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, add] = useMutation(ADD);
  const [, remove] = useMutation(REMOVE);
  const rules = data?.routingRules ?? [];
  const name = (token: string | null) => accounts.find((a) => a.token === token)?.name ?? token;
  const describe = (r: Rule) =>
    [r.scheme, r.cardType, r.binPrefix && `BIN ${r.binPrefix}…`, r.issuerCode && `${t.issuer} ${r.issuerCode}`, r.currency, (r.minAmount || r.maxAmount) && `${r.minAmount ?? '0'}–${r.maxAmount ?? '∞'}`, r.program, r.weight !== null && `${t.ruleWeight} ${r.weight}`]
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
  const field = (k: keyof typeof EMPTY) => ({ name: k, value: draft[k], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value }) });
  return (
    <div className="card">
      <h2>{t.routingRules}</h2>
      <p className="muted">{t.routingHelp}</p>
      {error && <p className="error" role="alert">{error.message}</p>}
      <ol>
        {rules.map((r) => (
          <li key={r.id} data-rule={r.id}>
            {describe(r)} → <strong>{name(r.paymentProviderToken)}</strong>{' '}
            {!viewer.support && <button type="button" aria-label={`${t.delete}: ${describe(r)}`} onClick={async () => setOutcome(outcomeOf(await remove({ id: r.id ?? '' }), 'removeRoutingRule'))}>{t.delete}</button>}
          </li>
        ))}
      </ol>
      {rules.length === 0 && <p>{t.none}</p>}
      {!viewer.support && (
        <form className="stack" onSubmit={submit} aria-labelledby="add-rule-title">
          <h3 id="add-rule-title">{t.addRule}</h3>
          <div className="row">
            <label>{t.ruleAccount}<select {...field('paymentProviderToken')}>{accounts.map((a) => <option key={a.token} value={a.token}>{a.name}</option>)}</select></label>
            <label>{t.scheme}<select {...field('scheme')}><option value="">{t.any}</option>{SCHEMES.map((s) => <option key={s}>{s}</option>)}</select></label>
            <label>{t.cardType}<select {...field('cardType')}><option value="">{t.any}</option>{['credit', 'debit', 'prepaid'].map((s) => <option key={s}>{s}</option>)}</select></label>
            <label>{t.binPrefix}<input inputMode="numeric" size={8} {...field('binPrefix')} /></label>
            <label>{t.issuer}<input size={6} {...field('issuerCode')} /></label>
            <label>{t.currency}<select {...field('currency')}><option value="">{t.any}</option>{Currency.map((s) => <option key={s}>{s}</option>)}</select></label>
            <label>{t.minAmount}<input inputMode="decimal" size={10} {...field('minAmount')} /></label>
            <label>{t.maxAmount}<input inputMode="decimal" size={10} {...field('maxAmount')} /></label>
            <label>{t.costProgram}<input size={14} {...field('program')} /></label>
            <label>{t.ruleWeight}<input inputMode="numeric" size={5} {...field('weight')} /></label>
          </div>
          <div><button type="submit" className="primary">{t.addRule}</button></div>
        </form>
      )}
      <OutcomeView outcome={outcome} />
    </div>
  );
}
