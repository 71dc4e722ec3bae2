// The workspace's access tokens for owners: name, role, created, expiry and state; a new token is
// shown once after it is created; revoking asks first. Support staff see every token, read-only.
// When a token was last used is not tracked (each request would write), so it is not shown.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT, fill } from '../i18n.ts';
import { Confirm, OutcomeView, outcomeOf, useDateFormat, type Outcome } from '../ui.tsx';
import type { Viewer } from '../App.tsx';
import { graphql, type ResultOf } from '../graphql.ts';
import { AccessTokenRole } from '../schema-enums.ts';

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

export function TokensPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const date = useDateFormat();
  const [{ data, error }] = useQuery({ query: TOKENS, context: TOKEN_TYPES });
  const [asking, setAsking] = useState<TokenRow | null>(null);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, revoke] = useMutation(REVOKE);
  const rows = data?.accessTokens ?? [];
  const state = (r: TokenRow) => (r.revokedAt ? t.tokenRevoked : r.active ? t.tokenActive : t.tokenExpired);
  const confirmRevoke = async () => {
    const row = asking!;
    setAsking(null);
    setOutcome(outcomeOf(await revoke({ id: row.id }), 'revokeAccessToken'));
  };
  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">{t.tokens}</h1>
      <p className="muted">{t.tokensHelp}</p>
      {error && <p className="error" role="alert">{error.graphQLErrors[0]?.message ?? error.message}</p>}
      <div className="table-wrap" tabIndex={0}>
        <table>
          <thead>
            <tr>
              {[t.name, t.role, ...(viewer.support ? [t.workspace] : []), t.created, t.tokenExpires, t.status, ...(viewer.support ? [] : [t.actions])].map((h) => <th scope="col" key={h}>{h}</th>)}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-token={r.name}>
                <td className="wrap">{r.name}</td>
                <td>{t[`role_${r.role}` as 'role_owner'] ?? r.role}</td>
                {viewer.support && <td>{r.workspace ?? '—'}</td>}
                <td>{date(r.createdAt)}</td>
                <td>{r.expiresAt ? date(r.expiresAt) : t.never}</td>
                <td>{state(r)}</td>
                {!viewer.support && (
                  <td>{r.active && <button type="button" className="danger" onClick={() => setAsking(r)}>{t.revoke}<span className="sr-only"> {r.name}</span></button>}</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {data && rows.length === 0 && <p>{t.none}</p>}
      </div>
      {asking && <Confirm text={fill(t.confirmRevoke, { name: asking.name })} onConfirm={confirmRevoke} onDismiss={() => setAsking(null)} />}
      <OutcomeView outcome={outcome} />
      {!viewer.support && <NewToken />}
    </section>
  );
}

function NewToken() {
  const { t } = useT();
  const [form, setForm] = useState<{ name: string; role: AccessTokenRole; days: string }>({ name: '', role: 'viewer', days: '' });
  const [outcome, setOutcome] = useState<Outcome>();
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const [, create] = useMutation(CREATE);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSecret(null);
    const res = await create({ name: form.name, role: form.role, expiresInDays: form.days ? Number(form.days) : null }, TOKEN_TYPES);
    const out = outcomeOf(res, 'createAccessToken');
    const token = res.data?.createAccessToken?.token as string | undefined;
    if (token) {
      setSecret({ name: form.name, token });
      setForm({ name: '', role: 'viewer', days: '' });
      setOutcome(undefined);
    } else setOutcome(out);
  };
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="new-token-title">
      <h2 id="new-token-title">{t.newToken}</h2>
      <div className="row">
        <label>{t.name}<input name="name" required maxLength={64} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} /></label>
        <label>{t.role}
          <select name="role" value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as AccessTokenRole })}>
            {AccessTokenRole.map((r) => <option key={r} value={r}>{t[`role_${r}`]}</option>)}
          </select>
        </label>
        <label>{t.tokenDays}<input name="days" type="number" min={1} max={3650} inputMode="numeric" value={form.days} onChange={(e) => setForm({ ...form, days: e.target.value })} /></label>
        <button type="submit" className="primary">{t.create}</button>
      </div>
      <p className="muted">{t.rolesHelp}</p>
      <OutcomeView outcome={outcome} />
      {secret && (
        <div role="status" className="card new-token">
          <p className="ok">{fill(t.tokenShownOnce, { name: secret.name })}</p>
          <code className="wrap" data-new-token="">{secret.token}</code>
        </div>
      )}
    </form>
  );
}
