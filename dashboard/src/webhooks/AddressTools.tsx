// What a developer does with one address besides switching it: rotate its signing secret (with the
// overlap during which the previous one still signs) and send it a test event, seeing the
// receiver's answer. The rules and bounds are the gateway's; this only asks and shows.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { fill, useT } from '../i18n.ts';
import { outcomeOf } from '../ui.tsx';
import { graphql } from '../graphql.ts';
import { CopyButton } from '../kit/CopyButton.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import type { ApiOutcome } from '../kit/field-errors.ts';
import { useDates } from '../kit/dates.ts';

const ROTATE = graphql(`
  mutation RotateWebhookSecret($id: ID!, $overlapHours: Int) {
    rotateWebhookSecret(id: $id, overlapHours: $overlapHours) {
      result { successful message } errors { path message } signingSecret
      webhookAddress { id signingSecretSet secretRotatedAt previousSecretUntil }
    }
  }
`);
const SEND_TEST = graphql(`
  mutation SendTestWebhook($id: ID!, $event: String) {
    sendTestWebhook(id: $id, event: $event) {
      result { successful message } errors { path message }
      test { event httpStatus durationMs responseExcerpt error delivered }
    }
  }
`);

export interface ToolAddress { id: string; url: string }

/** A new signing secret, shown once with a copy button until the reader hides it. */
export function NewSigningSecret({ secret, onHide }: { secret: string; onHide: () => void }) {
  const { t } = useT();
  return (
    <div className="card secret" role="region" aria-label={t.newSigningSecret}>
      <p><strong>{t.signingSecretOnce}</strong></p>
      <dl><dt>{t.signingSecret}</dt><dd><code data-field="newSigningSecret" className="wrap">{secret}</code> <CopyButton text={secret} /></dd></dl>
      <button type="button" onClick={onHide}>{t.secretSaved}</button>
    </div>
  );
}

export function RotateSecret({ address }: { address: ToolAddress }) {
  const { t } = useT();
  const dates = useDates();
  const [hours, setHours] = useState('24');
  const [outcome, setOutcome] = useState<ApiOutcome | null>(null);
  const [done, setDone] = useState<{ secret: string; until: string | null } | null>(null);
  const [, rotate] = useMutation(ROTATE);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const res = await rotate({ id: address.id, overlapHours: hours.trim() === '' ? null : Number(hours) });
    const answer = res.data?.rotateWebhookSecret;
    setOutcome(answer?.signingSecret ? null : (outcomeOf(res, 'rotateWebhookSecret') ?? null));
    if (answer?.signingSecret) setDone({ secret: answer.signingSecret, until: answer.webhookAddress?.previousSecretUntil ?? null });
  };
  return (
    <FieldForm outcome={outcome} onSubmit={submit} className="address-tool">
      <h3>{fill(t.rotateSigningSecretOf, { url: address.url })}</h3>
      <p className="muted">{t.rotateSigningSecretHelp}</p>
      <FormErrors />
      <Field name="overlapHours" label={t.overlapHours}>
        <input type="number" inputMode="numeric" min={0} max={168} step={1} value={hours} onChange={(e) => setHours(e.target.value)} />
      </Field>
      <button type="submit" className="primary">{t.rotateSigningSecret}</button>
      {done && (
        <>
          <p role="status" className="ok" data-field="previousUntil">{done.until ? fill(t.previousSecretUntil, { time: dates.dateTime(done.until) }) : t.previousSecretStopped}</p>
          <NewSigningSecret secret={done.secret} onHide={() => setDone(null)} />
        </>
      )}
    </FieldForm>
  );
}

export function SendTest({ address, kinds }: { address: ToolAddress; kinds: string[] }) {
  const { t } = useT();
  const [event, setEvent] = useState(kinds[0] ?? '');
  const [outcome, setOutcome] = useState<ApiOutcome | undefined>();
  const [answer, setAnswer] = useState<{ event: string; delivered: boolean; line: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [, send] = useMutation(SEND_TEST);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setAnswer(null);
    const res = await send({ id: address.id, event: event || null });
    setSending(false);
    const test = res.data?.sendTestWebhook?.test;
    setOutcome(test ? undefined : outcomeOf(res, 'sendTestWebhook'));
    if (!test) return;
    const status = test.error ?? `HTTP ${test.httpStatus}${test.responseExcerpt ? ` · ${test.responseExcerpt.slice(0, 80)}` : ''}`;
    setAnswer({ event: test.event, delivered: test.delivered, line: fill(t.testAnswer, { status, ms: String(test.durationMs) }) });
  };
  return (
    <form onSubmit={submit} className="address-tool" aria-busy={sending}>
      <h3>{fill(t.sendTestEventTo, { url: address.url })}</h3>
      <p className="muted">{t.sendTestEventHelp}</p>
      <label>{t.event}
        <select name="testEvent" value={event} onChange={(e) => setEvent(e.target.value)}>
          {kinds.map((k) => <option key={k} value={k}>{k}</option>)}
        </select>
      </label>
      <button type="submit" className="primary" disabled={sending || kinds.length === 0}>{t.sendTestEvent}</button>
      <ActionOutcome outcome={outcome} />
      {answer && <p role="status" className={answer.delivered ? 'ok' : 'form-errors'} data-field="testAnswer">{answer.line}</p>}
    </form>
  );
}
