// The workspace's access tokens for owners: name, role, created, expiry and state; a new token is
// shown once after it is created, with a copy button; revoking asks first. Support staff see every
// token, read-only. When a token was last used is not tracked (each request would write), so it is
// not shown. Times are in the workspace's zone, and say so.
import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { useT, fill } from '../i18n.ts';
import { Confirm, outcomeOf, type Outcome } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql, type ResultOf } from '../graphql.ts';
import { AccessTokenRole } from '../schema-enums.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { statusOf } from '../kit/status.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { CopyButton } from '../kit/CopyButton.tsx';
import { useStepUpMutation } from '../people/StepUp.tsx';

const TOKENS = graphql(`
  query AccessTokens { accessTokens { id name role workspace createdAt expiresAt revokedAt active } }
`);
const CREATE = graphql(`
  mutation CreateAccessToken($name: String!, $role: AccessTokenRole!, $expiresInDays: Int) {
    createAccessToken(name: $name, role: $role, expiresInDays: $expiresInDays) {
      result { successful message } errors { path message } token accessToken { id name role }
    }
  }
`);
const REVOKE = graphql(`
  mutation RevokeAccessToken($id: ID!) { revokeAccessToken(id: $id) { result { successful message } errors { path message } accessToken { id active revokedAt } } }
`);

// One object for every render: urql runs the query again when its context changes.
const TOKEN_TYPES = { additionalTypenames: ['AccessToken'] };

type TokenRow = NonNullable<ResultOf<typeof TOKENS>['accessTokens']>[number];

/** The token's state, as the token badge names it. */
const stateOf = (r: TokenRow) => (r.revokedAt ? 'revoked' : r.active ? 'active' : 'expired');

export function TokensPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const dates = useDates(viewer.timeZone);
  const [{ data, error }, reexecute] = useQuery({ query: TOKENS, context: TOKEN_TYPES });
  const [asking, setAsking] = useState<TokenRow | null>(null);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, revoke] = useStepUpMutation(REVOKE);
  const rows = data?.accessTokens ?? [];
  const canRevoke = viewer.can('revokeAccessToken');
  const confirmRevoke = async () => {
    const row = asking!;
    setAsking(null);
    setOutcome(outcomeOf(await revoke({ id: row.id }), 'revokeAccessToken'));
  };
  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">{t.tokens}</h1>
      <p className="muted">{t.tokensHelp}</p>
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {!data && !error && <Loading />}
      {data && rows.length === 0 && <Empty />}
      {rows.length > 0 && (
        <>
          <CardTable label={t.tokens} head={[t.name, t.role, ...(viewer.support ? [t.workspace] : []), t.created, t.tokenExpires, t.status, ...(canRevoke ? [t.actions] : [])]}>
            {rows.map((r) => (
              <tr key={r.id} data-token={r.name}>
                <td className="wrap">{r.name}</td>
                <td data-field="role"><StatusBadge kind="role" value={r.role} /></td>
                {viewer.support && <td>{r.workspace ?? '—'}</td>}
                <td>{dates.dateTime(r.createdAt)}</td>
                <td>{r.expiresAt ? dates.dateTime(r.expiresAt) : t.never}</td>
                <td data-field="state"><StatusBadge kind="token" value={stateOf(r)} /></td>
                {canRevoke && (
                  <td>{r.active && <button type="button" className="danger" onClick={() => setAsking(r)}>{t.revoke}<span className="sr-only"> {r.name}</span></button>}</td>
                )}
              </tr>
            ))}
          </CardTable>
          <ZoneNote timeZone={viewer.timeZone} />
        </>
      )}
      {asking && <Confirm text={fill(t.confirmRevoke, { name: asking.name })} onConfirm={confirmRevoke} onDismiss={() => setAsking(null)} />}
      <ActionOutcome outcome={outcome} />
      {/* Beside the list it belongs to: a role that may not list tokens makes them over GraphQL (within its role). */}
      {data && viewer.can('createAccessToken') && <NewToken own={viewer.support ? null : viewer.role} />}
    </section>
  );
}

/** `own`: the creator's role (a person or token makes tokens within it: its own role or viewer). */
function NewToken({ own }: { own: string | null }) {
  const { t, lang } = useT();
  const [form, setForm] = useState<{ name: string; role: AccessTokenRole; days: string }>({ name: '', role: 'viewer', days: '' });
  const [outcome, setOutcome] = useState<Outcome>();
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const [, create] = useStepUpMutation(CREATE);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSecret(null);
    const days = form.days.trim();
    // A lifetime that is no whole number goes as -1: the gateway refuses it by its field, nothing is rounded here.
    const res = await create({ name: form.name, role: form.role, expiresInDays: days ? (/^\d+$/.test(days) ? Number(days) : -1) : null }, TOKEN_TYPES);
    const out = outcomeOf(res, 'createAccessToken');
    const token = res.data?.createAccessToken?.token;
    if (token) {
      setSecret({ name: form.name, token });
      setForm({ name: '', role: 'viewer', days: '' });
      setOutcome(undefined);
    } else setOutcome(out);
  };
  // The roles a token may have, in the badge table's order (most rights first).
  const roles = AccessTokenRole.slice()
    .filter((r) => !own || own === 'owner' || r === own || r === 'viewer')
    .sort((a, b) => ROLE_ORDER.indexOf(a) - ROLE_ORDER.indexOf(b));
  return (
    <FieldForm outcome={outcome} className="card stack" onSubmit={submit} aria-labelledby="new-token-title" autoComplete="off">
      <h2 id="new-token-title">{t.newToken}</h2>
      <FormErrors />
      <div className="row">
        <Field name="name" label={t.name}><input maxLength={64} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} /></Field>
        <Field name="role" label={t.role}>
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as AccessTokenRole })}>
            {roles.map((r) => <option key={r} value={r}>{statusOf('role', r, lang).label}</option>)}
          </select>
        </Field>
        <Field name="expiresInDays" label={t.tokenDays}><input name="days" inputMode="numeric" value={form.days} onChange={(e) => setForm({ ...form, days: e.target.value })} /></Field>
        <div><button type="submit" className="primary">{t.create}</button></div>
      </div>
      <p className="muted">{t.rolesHelp}</p>
      {secret && (
        <div role="status" className="card new-token">
          <p className="ok">{fill(t.tokenShownOnce, { name: secret.name })}</p>
          <code className="wrap" data-new-token="">{secret.token}</code> <CopyButton text={secret.token} />
        </div>
      )}
    </FieldForm>
  );
}

const ROLE_ORDER: readonly string[] = ['owner', 'developer', 'operator', 'viewer'];
