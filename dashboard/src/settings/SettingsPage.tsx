// Workspace settings: API key and secret rotation (the secret shown once), test/live mode, what
// REST calls do with unknown keys, the hosted pages' look and framing (CheckoutLook.tsx), channels,
// payment accounts (Accounts.tsx), the BIN source, routing rules.
// Each control shows only to a role that may use it (viewer.can, from the gateway's role table):
// developers the key, channels and unknown keys; owners everything; support staff, operators and viewers read.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Confirm, outcomeOf, type Outcome } from '../ui.tsx';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { CopyButton } from '../kit/CopyButton.tsx';
import { RoutingRules } from './RoutingRules.tsx';
import { RoutePreview } from './RoutePreview.tsx';
import { CheckoutLook } from './CheckoutLook.tsx';
import { ACCOUNT_FIELDS, Accounts, AddAccount, BinSource, PROVIDER_FIELDS, type Account, type Provider } from './Accounts.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { useStepUpMutation } from '../people/StepUp.tsx';

const SETTINGS = graphql(`
  query Settings($slug: String) {
    workspace(slug: $slug) {
      id slug mode apiKey unknownKeys logoUrl brandColor embedOrigins
      defaultPaymentAccount { token }
      binSourceAccount { token }
      channels { token name createdAt }
      paymentAccounts { ...AccountFields }
    }
    ...ProviderFields
  }
`, [ACCOUNT_FIELDS, PROVIDER_FIELDS]);
const ROTATE = graphql(`mutation Rotate { rotateApiCredentials { result { successful message } errors { path message } credentials { apiKey apiSecret } } }`);
const MODE = graphql(`mutation SetMode($mode: String!) { setWorkspaceMode(mode: $mode) { result { successful message } errors { path message } workspace { id mode } } }`);
const UNKNOWN_KEYS = graphql(`mutation SetUnknownKeys($policy: String!) { setUnknownKeys(policy: $policy) { result { successful message } errors { path message } workspace { id unknownKeys } } }`);
const CHANNEL = graphql(`mutation CreateChannel($name: String!) { createChannel(name: $name) { result { successful message } errors { path message } channel { token name } } }`);
// A new channel, account or key is not in the cached workspace yet: refetch it after those mutations.
const SETTINGS_TYPES = { additionalTypenames: ['Channel', 'PaymentAccount', 'ApiCredentials'] };

export function SettingsPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const [{ data, error }, reexecute] = useQuery({ query: SETTINGS, variables: { slug: viewer.slug }, context: SETTINGS_TYPES });
  const w = data?.workspace;
  const accounts = (w?.paymentAccounts ?? []) as Account[];
  const providers = (data?.providers ?? []) as Provider[];
  const { can } = viewer;
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">{t.settings}</h1>
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {!data && !error && <Loading rows={8} />}
      {w && (
        <>
          {/* The key is the integration's: roles below developer read it as null and get no card. */}
          {w.apiKey !== null && (
            <div className="card">
              <h2>{t.apiKeys}</h2>
              <dl><dt>X-Api-Key</dt><dd><code data-field="apiKey" className="wrap">{w.apiKey}</code> <CopyButton text={w.apiKey} /></dd></dl>
              {can('rotateApiCredentials') && <Rotate />}
            </div>
          )}
          <div className="card">
            <h2>{t.mode}</h2>
            <p data-field="mode"><StatusBadge kind="mode" value={w.mode} /></p>
            {can('setWorkspaceMode') && <ModeSwitch mode={w.mode} />}
          </div>
          <div className="card">
            <h2>{t.unknownKeys}</h2>
            <p data-field="unknownKeys">{w.unknownKeys === 'ignore' ? t.unknownKeysIgnore : t.unknownKeysReject}</p>
            {can('setUnknownKeys') && <UnknownKeysSwitch policy={w.unknownKeys} />}
          </div>
          <CheckoutLook settings={{ logoUrl: w.logoUrl ?? null, brandColor: w.brandColor ?? null, embedOrigins: w.embedOrigins ?? [] }} edit={can('setCheckoutSettings')} />
          <div className="card">
            <h2>{t.channels}</h2>
            {(w.channels ?? []).length === 0 ? <Empty /> : <ul>{(w.channels ?? []).map((c) => <li key={c.token} data-channel={c.name}>{c.name} · <code className="wrap">{c.token}</code></li>)}</ul>}
            {can('createChannel') && <AddChannel />}
          </div>
          <div className="card">
            <h2>{t.paymentAccounts}</h2>
            {accounts.length === 0 ? <Empty /> : <Accounts accounts={accounts} providers={providers} defaultToken={w.defaultPaymentAccount?.token ?? null} viewer={viewer} />}
            {can('createPaymentAccount') && <AddAccount providers={providers} />}
          </div>
          <BinSource accounts={accounts} current={w.binSourceAccount?.token ?? null} edit={can('setBinSource')} />
          <RoutingRules accounts={accounts} viewer={viewer} />
          {/* A preview reads the signed-in workspace's accounts: support staff have none of their own. */}
          {!viewer.support && <RoutePreview />}
        </>
      )}
    </section>
  );
}

function Rotate() {
  const { t } = useT();
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [secret, setSecret] = useState<{ apiKey: string; apiSecret: string } | null>(null);
  const [, rotate] = useStepUpMutation(ROTATE);
  return (
    <>
      <button type="button" className="danger" onClick={() => (setOutcome(undefined), setSecret(null), setAsking(true))}>{t.rotateKeys}</button>
      {asking && (
        <Confirm
          text={t.confirmRotate}
          onDismiss={() => setAsking(false)}
          onConfirm={async () => {
            const res = await rotate({});
            setAsking(false);
            const o = outcomeOf(res, 'rotateApiCredentials');
            const credentials = res.data?.rotateApiCredentials?.credentials;
            // The new pair itself says it worked; only a failure needs a line of its own.
            setOutcome(credentials ? undefined : o);
            setSecret(credentials?.apiKey && credentials.apiSecret ? { apiKey: credentials.apiKey, apiSecret: credentials.apiSecret } : null);
          }}
        />
      )}
      <ActionOutcome outcome={outcome} />
      {secret && (
        <div className="card secret" role="region" aria-label={t.newSecret}>
          <p><strong>{t.secretOnce}</strong></p>
          <dl>
            <dt>X-Api-Key</dt><dd><code data-field="newApiKey" className="wrap">{secret.apiKey}</code> <CopyButton text={secret.apiKey} /></dd>
            <dt>{t.apiSecret}</dt><dd><code data-field="newApiSecret" className="wrap">{secret.apiSecret}</code> <CopyButton text={secret.apiSecret} /></dd>
          </dl>
          <button type="button" onClick={() => setSecret(null)}>{t.secretSaved}</button>
        </div>
      )}
    </>
  );
}

/** Refusing unknown keys is the safe default; ignoring them is for clients that send extra fields. */
function UnknownKeysSwitch({ policy }: { policy: string | null }) {
  const { t } = useT();
  const [outcome, setOutcome] = useState<Outcome>();
  const [, setPolicy] = useMutation(UNKNOWN_KEYS);
  const next = policy === 'ignore' ? 'reject' : 'ignore';
  return (
    <>
      <button
        type="button"
        onClick={async () => {
          setOutcome(undefined);
          setOutcome(outcomeOf(await setPolicy({ policy: next }), 'setUnknownKeys'));
        }}
      >
        {next === 'ignore' ? t.unknownKeysToIgnore : t.unknownKeysToReject}
      </button>
      <ActionOutcome outcome={outcome} />
    </>
  );
}

function ModeSwitch({ mode }: { mode: string | null }) {
  const { t } = useT();
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, setMode] = useMutation(MODE);
  const next = mode === 'live' ? 'test' : 'live';
  return (
    <>
      <button type="button" onClick={() => (setOutcome(undefined), setAsking(true))}>{next === 'live' ? t.switchToLive : t.switchToTest}</button>
      {asking && (
        <Confirm
          text={next === 'live' ? t.confirmLive : t.confirmTest}
          onDismiss={() => setAsking(false)}
          onConfirm={async () => {
            const res = await setMode({ mode: next });
            setAsking(false);
            setOutcome(outcomeOf(res, 'setWorkspaceMode'));
          }}
        />
      )}
      <ActionOutcome outcome={outcome} />
    </>
  );
}

function AddChannel() {
  const { t } = useT();
  const [name, setName] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const [, create] = useMutation(CHANNEL);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const o = outcomeOf(await create({ name }), 'createChannel');
    setOutcome(o);
    if (o?.result?.successful) setName('');
  };
  return (
    <FieldForm outcome={outcome} onSubmit={submit} className="stack" aria-label={t.addChannel}>
      <FormErrors />
      <div className="row">
        <Field name="name" label={t.channelName}><input name="channelName" value={name} onChange={(e) => setName(e.target.value)} /></Field>
        <div><button type="submit">{t.addChannel}</button></div>
      </div>
    </FieldForm>
  );
}
