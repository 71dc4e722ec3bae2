// A signed-in person's own security: two-factor authentication (scan the QR code or type the
// secret, confirm one code, keep the recovery codes shown once; turn it off with a code), the
// workspace's requirement for owners, and a password change that ends the person's other sessions.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { fill, useT } from '../i18n.ts';
import { outcomeOf, type Outcome } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { ErrorState, Loading } from '../kit/states.tsx';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { QrCode } from '../kit/QrCode.tsx';
import { CopyButton } from '../kit/CopyButton.tsx';
import { useStepUpMutation } from './StepUp.tsx';

const STATUS = graphql(`query MyTwoFactor { myTwoFactor { enabled required recoveryCodesLeft } }`);
const START = graphql(`mutation StartTwoFactor { startTwoFactor { result { successful message } errors { path message } secret uri } }`);
const CONFIRM = graphql(`mutation ConfirmTwoFactor($code: String!) { confirmTwoFactor(code: $code) { result { successful message } errors { path message } recoveryCodes } }`);
const DISABLE = graphql(`mutation DisableTwoFactor($code: String!) { disableTwoFactor(code: $code) { result { successful message } errors { path message } } }`);
const REQUIRE = graphql(`mutation SetTwoFactorRequired($required: Boolean!) { setTwoFactorRequired(required: $required) { result { successful message } errors { path message } } }`);
const CHANGE_PASSWORD = graphql(`mutation ChangePassword($currentPassword: String!, $newPassword: String!) { changePassword(currentPassword: $currentPassword, newPassword: $newPassword) { result { successful message } errors { path message } } }`);

const STATUS_TYPES = { additionalTypenames: ['TwoFactorStatus'] };

export function SecurityPage({ viewer, onEnrolled }: { viewer: Viewer; onEnrolled?: () => void }) {
  const { t } = useT();
  const [{ data, error }, reexecute] = useQuery({ query: STATUS, context: STATUS_TYPES, requestPolicy: 'network-only' });
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  const status = data?.myTwoFactor;
  return (
    <section aria-labelledby="security-title" className="stack">
      <h1 id="security-title">{t.security}</h1>
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={refresh} />}
      {!data && !error && <Loading />}
      {status && status.required && !status.enabled && <p className="error card" role="alert">{t.twoFactorRequiredHere}</p>}
      {status && (
        <div className="card stack">
          <h2>{t.twoFactor}</h2>
          <p className="muted">{t.twoFactorHelp}</p>
          {status.enabled
            ? <TwoFactorOn codesLeft={status.recoveryCodesLeft} required={status.required} onOff={refresh} />
            : <Enrolment onDone={() => (refresh(), onEnrolled?.())} />}
        </div>
      )}
      {status && viewer.can('setTwoFactorRequired') && <RequireForAll required={status.required} onChange={refresh} />}
      <PasswordChange />
    </section>
  );
}

function Enrolment({ onDone }: { onDone: () => void }) {
  const { t } = useT();
  const [started, setStarted] = useState<{ secret: string; uri: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const [, start] = useMutation(START);
  const [, confirm] = useMutation(CONFIRM);
  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  if (!started) {
    const begin = async () => {
      const res = await start({});
      const s = res.data?.startTwoFactor;
      if (s?.secret && s.uri) setStarted({ secret: s.secret, uri: s.uri });
      else setOutcome(outcomeOf(res, 'startTwoFactor'));
    };
    return (
      <>
        <div><button type="button" className="primary" onClick={() => void begin()}>{t.twoFactorSetUp}</button></div>
        <ActionOutcome outcome={outcome} />
      </>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await confirm({ code: code.trim() });
    const recovery = res.data?.confirmTwoFactor?.recoveryCodes;
    if (recovery) setCodes(recovery);
    else setOutcome(outcomeOf(res, 'confirmTwoFactor'));
  };
  return (
    <FieldForm outcome={outcome} onSubmit={submit} className="stack" aria-label={t.twoFactorSetUp}>
      <p>{t.twoFactorScan}</p>
      <QrCode value={started.uri} />
      <p>{t.twoFactorTypeSecret} <code data-field="totp-secret" className="wrap">{started.secret}</code></p>
      <CopyButton text={started.secret} />
      <FormErrors />
      <Field name="code" label={t.authCode} hint={t.authCodeHint}>
        <input inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <div><button type="submit" className="primary">{t.twoFactorTurnOn}</button></div>
    </FieldForm>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useT();
  return (
    <div className="stack">
      <p className="ok" role="status">{t.twoFactorOnNow}</p>
      <p>{t.recoveryCodesHelp}</p>
      <ul className="recovery-codes" aria-label={t.recoveryCodes}>{codes.map((c) => <li key={c}><code>{c}</code></li>)}</ul>
      <div className="row">
        <CopyButton text={codes.join('\n')} label={t.recoveryCodesCopy} />
        <button type="button" onClick={onDone}>{t.recoveryCodesSaved}</button>
      </div>
    </div>
  );
}

function TwoFactorOn({ codesLeft, required, onOff }: { codesLeft: number; required: boolean; onOff: () => void }) {
  const { t } = useT();
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const [, disable] = useMutation(DISABLE);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const out = outcomeOf(await disable({ code: code.trim() }), 'disableTwoFactor');
    setOutcome(out);
    if (out?.result?.successful) onOff();
  };
  return (
    <>
      <p className="ok" data-field="two-factor">{fill(t.twoFactorIsOn, { count: String(codesLeft) })}</p>
      {required ? <p className="muted">{t.twoFactorCannotTurnOff}</p> : (
        <FieldForm outcome={outcome} onSubmit={submit} className="stack" aria-label={t.twoFactorTurnOff}>
          <FormErrors />
          <Field name="code" label={t.authCode} hint={t.authCodeOrRecovery}>
            <input autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
          </Field>
          <div><button type="submit" className="danger">{t.twoFactorTurnOff}</button></div>
        </FieldForm>
      )}
    </>
  );
}

function RequireForAll({ required, onChange }: { required: boolean; onChange: () => void }) {
  const { t } = useT();
  const [outcome, setOutcome] = useState<Outcome>();
  const [, set] = useStepUpMutation(REQUIRE);
  const toggle = async (next: boolean) => {
    setOutcome(outcomeOf(await set({ required: next }), 'setTwoFactorRequired'));
    onChange();
  };
  return (
    <div className="card stack">
      <label className="check">
        <input type="checkbox" name="require-two-factor" checked={required} onChange={(e) => void toggle(e.target.checked)} />
        {t.twoFactorRequireAll}
      </label>
      <p className="muted">{t.twoFactorRequireHelp}</p>
      <ActionOutcome outcome={outcome} />
    </div>
  );
}

function PasswordChange() {
  const { t } = useT();
  const [form, setForm] = useState({ currentPassword: '', newPassword: '' });
  const [outcome, setOutcome] = useState<Outcome>();
  const [done, setDone] = useState(false);
  const [, change] = useMutation(CHANGE_PASSWORD);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const out = outcomeOf(await change(form), 'changePassword');
    setDone(!!out?.result?.successful);
    setOutcome(out?.result?.successful ? undefined : out);
    if (out?.result?.successful) setForm({ currentPassword: '', newPassword: '' });
  };
  return (
    <FieldForm outcome={outcome} onSubmit={submit} className="card stack" aria-labelledby="password-title">
      <h2 id="password-title">{t.changePassword}</h2>
      <FormErrors />
      <Field name="currentPassword" label={t.currentPassword}>
        <input type="password" autoComplete="current-password" required value={form.currentPassword} onChange={(e) => setForm({ ...form, currentPassword: e.target.value })} />
      </Field>
      <Field name="newPassword" label={t.newPassword} hint={t.passwordHelp}>
        <input type="password" autoComplete="new-password" required minLength={10} value={form.newPassword} onChange={(e) => setForm({ ...form, newPassword: e.target.value })} />
      </Field>
      <div><button type="submit" className="primary">{t.changePassword}</button></div>
      {done && <p className="ok" role="status">{t.passwordChanged}</p>}
    </FieldForm>
  );
}
