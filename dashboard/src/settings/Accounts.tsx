// Payment accounts on the settings screen: the list (provider, settings, credentials masked, the
// default), a new account with its provider's credential and setting fields (from the providers
// query, so a new provider needs no change here), replacing an account's credentials, which
// account answers BIN lookups, and each account's installment plan (InstallmentPlan.tsx). A bank's
// virtual POS (EST, Garanti) picks its bank from a list and shows the bank's name and the 3D
// callback address the bank may ask the merchant to allow.
// Credentials typed here are sent once and cleared from the form; the gateway never sends them back.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { useT } from '../i18n.ts';
import { CallbackFlag } from './CallbackFlag.tsx';
import { outcomeOf, type Outcome } from '../ui.tsx';
import { Currency } from '../schema-enums.ts';
import type { Viewer } from '../viewer.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { statusOf } from '../kit/status.ts';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { useDates } from '../kit/dates.ts';
import { InstallmentPlanForm, PlanText, type InstallmentPlan } from './InstallmentPlan.tsx';
import { AccountCostsForm, CostsText, type CostTable } from './AccountCosts.tsx';
import { graphql, type Filled, type ResultOf } from '../graphql.ts';

/** The provider catalog the account forms read. */
export const PROVIDER_FIELDS = graphql(`fragment ProviderFields on Query { providers { id label capabilities credentialFields { name required defaultValue } settingFields { name required defaultValue } banks { id name } threeDsCallbackPattern } }`);
/** What the account list shows of one account. */
export const ACCOUNT_FIELDS = graphql(`fragment AccountFields on PaymentAccount { token name provider providerLabel bankName mode currencies capabilities settings credentialHints { name hint } installmentPlan issuerCode costs { program cards rates fixedFee } health healthChangedAt callbackVerification { recentRejections lastRejectedAt lastCause lastReason storeKeySuspect } }`);

const ACCOUNT = graphql(`
  mutation CreateAccount($input: CreatePaymentAccountInput!) {
    createPaymentAccount(input: $input) { result { successful message } errors { path message } paymentAccount { token name } }
  }
`);
const DEFAULT = graphql(`
  mutation SetDefault($token: String!) {
    setDefaultPaymentAccount(token: $token) { result { successful message } errors { path message } workspace { id defaultPaymentAccount { token } } }
  }
`);
const REPLACE = graphql(`
  mutation ReplaceConnection($token: String!, $credentials: JSON, $settings: JSON) {
    updatePaymentAccountConnection(token: $token, credentials: $credentials, settings: $settings) {
      result { successful message } errors { path message } paymentAccount { ...AccountFields }
    }
  }
`, [ACCOUNT_FIELDS]);
const BIN_SOURCE = graphql(`
  mutation SetBinSource($token: String) {
    setBinSource(token: $token) { result { successful message } errors { path message } workspace { id binSourceAccount { token } } }
  }
`);

// The provider catalog and the accounts are filled by the server throughout (see Filled); an
// account's JSON fields are read as the gateway writes them.
export type Provider = Filled<NonNullable<ResultOf<typeof PROVIDER_FIELDS>['providers']>[number]>;
export type ProviderField = Provider['credentialFields'][number];
export type Bank = Provider['banks'][number];
type AccountFields = Filled<ResultOf<typeof ACCOUNT_FIELDS>>;
// Credential hints are integration work: roles below developer read them as null.
export type Account = Omit<AccountFields, 'settings' | 'installmentPlan' | 'costs' | 'credentialHints'> & { settings: Record<string, unknown>; installmentPlan: InstallmentPlan | null; costs: CostTable[]; credentialHints: AccountFields['credentialHints'] | null };

type Values = Record<string, string>;

/** The non-empty values only: an empty field is "not given", so a required one is reported by its path. */
const given = (values: Values): Values => Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));

/** The `bank` setting of a bank's virtual POS that serves several banks: a list of them, by name. */
function BankSelect({ banks, value, onChange, ...field }: { banks: Bank[]; value: string; onChange: (v: string) => void; id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) {
  const { t } = useT();
  return (
    <select {...field} name="setting.bank" value={value} onChange={(e) => onChange(e.target.value)} required>
      <option value="">{t.bank}…</option>
      {banks.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
    </select>
  );
}

/** Inputs for a provider's credential fields (never autofilled, never shown) or setting fields; errors come back as `credentials.<name>` / `settings.<name>`. */
function ProviderInputs({ fields, values, onChange, secret, legend, banks = [] }: { fields: ProviderField[]; values: Values; onChange: (v: Values) => void; secret: boolean; legend: string; banks?: Bank[] }) {
  if (fields.length === 0) return null;
  const listed = banks.filter((b) => b.id !== '');
  return (
    <fieldset>
      <legend>{legend}</legend>
      {fields.map((f) => (
        <Field key={f.name} name={`${secret ? 'credentials' : 'settings'}.${f.name}`} label={f.name}>
          {!secret && f.name === 'bank' && listed.length > 0 ? <BankSelect banks={listed} value={values.bank ?? ''} onChange={(bank) => onChange({ ...values, bank })} /> : <input
            name={`${secret ? 'credential' : 'setting'}.${f.name}`}
            type={secret ? 'password' : 'text'}
            autoComplete={secret ? 'off' : undefined}
            required={f.required}
            placeholder={f.defaultValue ?? undefined}
            value={values[f.name] ?? ''}
            onChange={(e) => onChange({ ...values, [f.name]: e.target.value })}
          />}
        </Field>
      ))}
    </fieldset>
  );
}

export function Accounts({ accounts, providers, defaultToken, viewer }: { accounts: Account[]; providers: Provider[]; defaultToken: string | null; viewer: Viewer }) {
  const { t } = useT();
  const [outcome, setOutcome] = useState<Outcome>();
  const [, setDefault] = useMutation(DEFAULT);
  const { can } = viewer;
  return (
    <>
      <CardTable label={t.paymentAccounts} head={[t.name, t.provider, t.mode, t.currency, t.capabilities, t.installments, t.defaultAccount]}>
        {accounts.map((a) => (
          <tr key={a.token} data-account={a.name}>
            <td>{a.name} <HealthBadge health={a.health} since={a.healthChangedAt} timeZone={viewer.timeZone} /><div className="muted"><code className="wrap">{a.token}</code></div></td>
            <td className="wrap stacked">
              <span data-field="provider">{a.providerLabel ?? a.provider}</span>
              <BankFacts bankName={a.bankName} pattern={providers.find((p) => p.id === a.provider)?.threeDsCallbackPattern ?? null} />
              <Connection account={a} />
              <CallbackFlag verification={a.callbackVerification} timeZone={viewer.timeZone} />
              {can('updatePaymentAccountConnection') && <ReplaceConnection account={a} provider={providers.find((p) => p.id === a.provider)} />}
            </td>
            <td><StatusBadge kind="mode" value={a.mode} /></td>
            <td className="wrap" data-field="currencies"><span className="badges">{a.currencies.map((c) => <StatusBadge key={c} kind="currency" value={c} />)}</span></td>
            <td className="wrap" data-field="capabilities"><span className="badges">{a.capabilities.map((c) => <StatusBadge key={c} kind="capability" value={c} />)}</span></td>
            <td className="wrap stacked" data-field="plans">
              <PlanText plan={a.installmentPlan} />
              {can('setInstallmentPlan') && <InstallmentPlanForm token={a.token} name={a.name} plan={a.installmentPlan} />}
              <div><CostsText costs={a.costs} /></div>
              {can('setAccountCosts') && <AccountCostsForm token={a.token} name={a.name} issuerCode={a.issuerCode} />}
            </td>
            <td>
              {a.token === defaultToken
                ? <span data-field="isDefault">✓ {t.defaultAccount}</span>
                : can('setDefaultPaymentAccount') && <button type="button" aria-label={`${t.makeDefault}: ${a.name}`} onClick={async () => setOutcome(outcomeOf(await setDefault({ token: a.token }), 'setDefaultPaymentAccount'))}>{t.makeDefault}</button>}
            </td>
          </tr>
        ))}
      </CardTable>
      <ActionOutcome outcome={outcome} />
    </>
  );
}

/** Routing health as a badge (degraded accounts take no payments until their cool-down ends); out of health, since when, in the workspace's zone. */
function HealthBadge({ health, since, timeZone }: { health: Account['health']; since: string | null; timeZone: string | null }) {
  const { t } = useT();
  const dates = useDates(timeZone);
  return (
    <span data-health={health}>
      <StatusBadge kind="health" value={health} />
      {health !== 'healthy' && since && <span className="muted" data-field="healthSince"> {t.healthSince} {dates.dateTime(since)} ({dates.zone})</span>}
    </span>
  );
}

/** A bank's virtual POS: the bank chosen, by name, and the 3D callback address the bank may ask to allow. */
function BankFacts({ bankName, pattern }: { bankName: string | null; pattern: string | null }) {
  const { t } = useT();
  if (pattern === null) return null;
  return (
    <>
      {bankName !== null && <div>{t.bank}: <strong data-field="bankName">{bankName}</strong></div>}
      <details data-field="callbackPattern">
        <summary>{t.callbackPattern}</summary>
        <code className="wrap">{pattern}</code>
        <p className="muted">{t.callbackPatternHelp}</p>
      </details>
    </>
  );
}

/** Settings as stored, credentials masked (the gateway sends nothing more of them). */
function Connection({ account }: { account: Account }) {
  const { t } = useT();
  const settings = Object.entries(account.settings ?? {});
  const hints = account.credentialHints ?? [];
  if (settings.length === 0 && hints.length === 0) return null;
  return (
    <dl className="compact" aria-label={t.connection}>
      {settings.map(([k, v]) => <div key={k} data-setting={k}><dt>{k}</dt><dd>{String(v)}</dd></div>)}
      {hints.map((h) => <div key={h.name} data-credential={h.name}><dt>{h.name}</dt><dd><code>{h.hint}</code></dd></div>)}
    </dl>
  );
}

function ReplaceConnection({ account, provider }: { account: Account; provider: Provider | undefined }) {
  const { t } = useT();
  const [credentials, setCredentials] = useState<Values>({});
  const [settings, setSettings] = useState<Values>(() => Object.fromEntries(Object.entries(account.settings ?? {}).map(([k, v]) => [k, String(v)])));
  const [outcome, setOutcome] = useState<Outcome>();
  const [, replace] = useMutation(REPLACE);
  if (!provider || (provider.credentialFields.length === 0 && provider.settingFields.length === 0)) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = given(credentials);
    const o = outcomeOf(
      await replace({
        token: account.token,
        credentials: Object.keys(typed).length ? typed : null,
        settings: provider.settingFields.length ? given(settings) : null,
      }),
      'updatePaymentAccountConnection',
    );
    setOutcome(o);
    if (o?.result?.successful) setCredentials({});
  };
  return (
    <details>
      <summary>{t.replaceCredentials}</summary>
      <FieldForm outcome={outcome} className="stack" onSubmit={submit} aria-label={`${t.replaceCredentials}: ${account.name}`} autoComplete="off">
        <FormErrors />
        <p className="muted">{t.replaceHelp}</p>
        <ProviderInputs fields={provider.credentialFields.map((f) => ({ ...f, required: false }))} values={credentials} onChange={setCredentials} secret legend={t.credentials} />
        <ProviderInputs fields={provider.settingFields} values={settings} onChange={setSettings} secret={false} legend={t.providerSettings} banks={provider.banks} />
        <div><button type="submit">{t.replace}</button></div>
        {outcome?.result?.successful && <p role="status" className="ok">{t.done}</p>}
      </FieldForm>
    </details>
  );
}

/** The bank the form's `bank` setting names (or the provider's only bank), by name. */
function chosenBank(provider: Provider, bank: string | undefined): string | null {
  return provider.banks.find((b) => b.id === (bank ?? ''))?.name ?? null;
}

export function AddAccount({ providers }: { providers: Provider[] }) {
  const { t, lang } = useT();
  const [name, setName] = useState('');
  const [providerId, setProviderId] = useState('simulator');
  const [currencies, setCurrencies] = useState<string[]>(['TRY']);
  const [capabilities, setCapabilities] = useState<string[] | null>(null);
  const [credentials, setCredentials] = useState<Values>({});
  const [settings, setSettings] = useState<Values>({});
  const [isDefault, setIsDefault] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, create] = useMutation(ACCOUNT);
  const provider = providers.find((p) => p.id === providerId);
  const offered = provider?.capabilities ?? [];
  // Until the merchant changes them: everything the provider offers but conversion.
  const chosen = capabilities ?? offered.filter((c) => c !== 'conversion');
  const toggle = (list: string[], set: (l: string[]) => void, v: string) => set(list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  const pickProvider = (id: string) => {
    setProviderId(id);
    setCapabilities(null);
    setCredentials({});
    setSettings({});
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = { name, provider: providerId, currencies, capabilities: chosen, isDefault, credentials: given(credentials), settings: given(settings) };
    const o = outcomeOf(await create({ input }), 'createPaymentAccount');
    setOutcome(o);
    if (o?.result?.successful) {
      setName('');
      setCredentials({});
      setSettings({});
    }
  };
  return (
    <FieldForm outcome={outcome} className="stack" onSubmit={submit} aria-labelledby="add-account-title" autoComplete="off">
      <h3 id="add-account-title">{t.addAccount}</h3>
      <FormErrors />
      <Field name="name" label={t.accountName}><input name="accountName" autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} /></Field>
      <Field name="provider" label={t.provider}>
        <select name="provider" value={providerId} onChange={(e) => pickProvider(e.target.value)}>
          {providers.map((p) => <option key={p.id} value={p.id}>{p.label}</option>)}
        </select>
      </Field>
      {provider && provider.credentialFields.length > 0 && <p className="muted">{t.credentialsHelp}</p>}
      <ProviderInputs fields={provider?.credentialFields ?? []} values={credentials} onChange={setCredentials} secret legend={t.credentials} />
      <ProviderInputs fields={provider?.settingFields ?? []} values={settings} onChange={setSettings} secret={false} legend={t.providerSettings} banks={provider?.banks} />
      {provider?.threeDsCallbackPattern && (
        <div data-field="newAccountBank">
          <BankFacts bankName={chosenBank(provider, settings.bank)} pattern={provider.threeDsCallbackPattern} />
        </div>
      )}
      <fieldset>
        <legend>{t.currency}</legend>
        <div className="row">{Currency.map((c) => <label key={c} className="check"><input type="checkbox" checked={currencies.includes(c)} onChange={() => toggle(currencies, setCurrencies, c)} />{c} <span className="muted">{statusOf('currency', c, lang).label}</span></label>)}</div>
      </fieldset>
      <fieldset>
        <legend>{t.capabilities}</legend>
        <div className="checks">{offered.map((c) => <label key={c} className="check"><input type="checkbox" value={c} checked={chosen.includes(c)} onChange={() => toggle(chosen, setCapabilities, c)} />{statusOf('capability', c, lang).label}</label>)}</div>
      </fieldset>
      <label className="check"><input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} />{t.makeDefault}</label>
      <div><button type="submit" className="primary">{t.addAccount}</button></div>
      {outcome?.result?.successful && <p role="status" className="ok">{t.done}</p>}
    </FieldForm>
  );
}

/** Which account's provider answers BIN lookups; empty: the default account's. */
export function BinSource({ accounts, current, edit }: { accounts: Account[]; current: string | null; edit: boolean }) {
  const { t } = useT();
  const [outcome, setOutcome] = useState<Outcome>();
  const [, set] = useMutation(BIN_SOURCE);
  return (
    <div className="card">
      <h2>{t.binSource}</h2>
      <p className="muted">{t.binSourceHelp}</p>
      <label>
        {t.binSourceAccount}
        <select
          name="binSource"
          value={current ?? ''}
          disabled={!edit}
          onChange={async (e) => {
            setOutcome(undefined);
            setOutcome(outcomeOf(await set({ token: e.target.value || null }), 'setBinSource'));
          }}
        >
          <option value="">{t.binSourceDefault}</option>
          {accounts.map((a) => <option key={a.token} value={a.token}>{a.name}</option>)}
        </select>
      </label>
      <ActionOutcome outcome={outcome} />
    </div>
  );
}
