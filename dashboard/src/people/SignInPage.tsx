// The screens before a sign-in: e-mail and password (with a password-reset request), the
// invitation's accept screen (set a password), the reset link's screen (a new password), and,
// folded away, the access-token sign-in support staff and scripts' owners still use.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { fill, useT } from '../i18n.ts';
import { statusOf } from '../kit/status.ts';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { anonymous, signIn, type PersonSession } from '../people.ts';
import type { Outcome } from '../ui.tsx';

export type Refusal = 'invalid' | 'expired';

const ACCEPT = `mutation Accept($t: String!, $p: String!) { acceptInvitation(invitationToken: $t, password: $p) { result { successful message } errors { path message } } }`;
const PREVIEW = `query Preview($t: String!) { invitation(invitationToken: $t) { email role workspaceName } }`;
const ASK_RESET = `mutation AskReset($e: String!) { requestPasswordReset(email: $e) { result { successful message } errors { path message } } }`;
const RESET = `mutation Reset($t: String!, $p: String!) { resetPassword(resetToken: $t, password: $p) { result { successful message } errors { path message } } }`;

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="signin">
      <h1>{title}</h1>
      {children}
    </main>
  );
}

export function SignInPage({ onPerson, onToken, refusal, tokenOpen, notice }: { onPerson: (s: PersonSession) => void; onToken: (token: string) => void; refusal: Refusal | null; tokenOpen: boolean; notice?: string | null }) {
  const { t, lang } = useT();
  const [form, setForm] = useState({ email: '', password: '', code: '' });
  const [failure, setFailure] = useState<string | null>(null);
  /** The password was right and the person has two-factor on: the code field shows. */
  const [askCode, setAskCode] = useState(false);
  const [resetAsked, setResetAsked] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await signIn(form.email.trim(), form.password, lang, askCode ? form.code.trim() : undefined);
    if (res.ok) return onPerson(res.session);
    // Asked for the first time: the field's own words say what to do, no error yet.
    setFailure(res.secondFactor && !askCode ? null : res.message);
    if (res.secondFactor) setAskCode(true);
  };
  const askReset = async () => {
    if (!form.email.trim()) return;
    await anonymous(ASK_RESET, { e: form.email.trim() }, 'requestPasswordReset', lang);
    setResetAsked(true);
  };
  return (
    <Frame title={t.title}>
      <form onSubmit={submit} className="card stack" aria-label={t.signIn}>
        {notice && <p className="ok" role="status">{notice}</p>}
        <div className="field">
          <label htmlFor="signin-email">{t.email}</label>
          <input id="signin-email" name="email" type="email" autoComplete="username" required autoFocus value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="signin-password">{t.password}</label>
          <input id="signin-password" name="password" type="password" autoComplete="current-password" required value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
        </div>
        {askCode && (
          <div className="field">
            <label htmlFor="signin-code">{t.signInCode}</label>
            <input id="signin-code" name="code" autoComplete="one-time-code" required autoFocus aria-describedby="signin-code-hint" value={form.code} onChange={(e) => setForm({ ...form, code: e.target.value })} />
            <p id="signin-code-hint" className="muted">{t.stepUpHelp}</p>
          </div>
        )}
        {failure && <p className="error" role="alert">{failure}</p>}
        <div className="row">
          <button className="primary" type="submit">{t.signIn}</button>
          <button type="button" onClick={askReset}>{t.forgotPassword}</button>
        </div>
        {resetAsked && <p role="status">{t.resetSent}</p>}
      </form>
      <TokenSignIn onToken={onToken} refusal={refusal} open={tokenOpen || refusal !== null || new URLSearchParams(location.search).has('invalid')} />
    </Frame>
  );
}

/** Open when the tab last used a token (signed out, or the token was refused), with the refusal's reason. */
function TokenSignIn({ onToken, refusal, open }: { onToken: (token: string) => void; refusal: Refusal | null; open: boolean }) {
  const { t } = useT();
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) onToken(value.trim());
  };
  return (
    <details className="card" open={open}>
      <summary>{t.tokenSignIn}</summary>
      <form onSubmit={submit} className="stack">
        <label>
          {t.token}
          <input name="token" type="password" autoComplete="off" required value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
        <p>{t.signInHelp}</p>
        {refusal && <p className="error" role="alert" data-refusal={refusal}>{refusal === 'expired' ? t.kitTokenExpired : t.kitTokenInvalid}</p>}
        {!refusal && new URLSearchParams(location.search).has('invalid') && <p className="error" role="alert">{t.badToken}</p>}
        <button type="submit">{t.signIn}</button>
      </form>
    </details>
  );
}

/** Sets a password from a link (invitation or reset), then goes back to sign-in with a notice. */
function PasswordFromLink({ title, intro, mutation, field, token, submitLabel, done }: { title: string; intro: ReactNode; mutation: string; field: string; token: string; submitLabel: string; done: () => void }) {
  const { t, lang } = useT();
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const answer = (await anonymous(mutation, { t: token, p: password }, field, lang)) as Outcome | null;
    // The domain names the link's token `token`: its errors belong to no field here.
    const out = answer ? { ...answer, errors: answer.errors?.map((x) => (x.path[0] === 'token' ? { ...x, path: [] } : x)) } : { result: { successful: false, message: t.kitServerDown } };
    if (out.result?.successful) done();
    else setOutcome(out);
  };
  return (
    <Frame title={title}>
      <FieldForm outcome={outcome} onSubmit={submit} className="card stack" aria-label={title}>
        {intro}
        <FormErrors />
        <Field name="password" label={t.newPassword} hint={t.passwordHelp}>
          <input type="password" autoComplete="new-password" required minLength={10} value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <button className="primary" type="submit">{submitLabel}</button>
      </FieldForm>
    </Frame>
  );
}

export function AcceptInvitationPage({ token, done }: { token: string; done: (notice: string) => void }) {
  const { t, lang } = useT();
  const [preview, setPreview] = useState<{ email: string; role: string; workspaceName: string } | null | undefined>(undefined);
  useEffect(() => {
    void anonymous<{ email: string; role: string; workspaceName: string } | null>(PREVIEW, { t: token }, 'invitation', lang).then(setPreview);
  }, [token, lang]);
  if (preview === undefined) return <Frame title={t.invitationTitle}><p>{t.loading}</p></Frame>;
  if (preview === null) return <Frame title={t.invitationTitle}><p className="error card" role="alert">{t.invitationInvalid}</p></Frame>;
  const intro = <p>{fill(t.invitationFor, { workspace: preview.workspaceName, email: preview.email, role: statusOf('role', preview.role, lang).label })}</p>;
  return <PasswordFromLink title={t.invitationTitle} intro={intro} mutation={ACCEPT} field="acceptInvitation" token={token} submitLabel={t.acceptInvitation} done={() => done(t.invitationAccepted)} />;
}

export function ResetPasswordPage({ token, done }: { token: string; done: (notice: string) => void }) {
  const { t } = useT();
  return <PasswordFromLink title={t.resetTitle} intro={null} mutation={RESET} field="resetPassword" token={token} submitLabel={t.resetTitle} done={() => done(t.resetDone)} />;
}
