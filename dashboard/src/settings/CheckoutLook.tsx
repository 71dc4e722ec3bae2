// The hosted pages' settings: the logo and colour shoppers see, and the origins whose pages may
// frame them (embedded checkout). The gateway checks every value (an https logo, #rrggbb, each
// origin) and names the field, or the line of an origin, it refuses; nothing is saved then.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { fill, useT } from '../i18n.ts';
import { outcomeOf, type Outcome } from '../ui.tsx';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { graphql } from '../graphql.ts';

const SET = graphql(`
  mutation SetCheckoutSettings($input: CheckoutSettingsInput!) {
    setCheckoutSettings(input: $input) { result { successful message } errors { path message } workspace { id logoUrl brandColor embedOrigins } }
  }
`);

export interface CheckoutSettings { logoUrl: string | null; brandColor: string | null; embedOrigins: readonly string[] }

export function CheckoutLook({ settings, edit }: { settings: CheckoutSettings; edit: boolean }) {
  const { t } = useT();
  return (
    <div className="card" data-section="checkout-look">
      <h2>{t.checkoutLook}</h2>
      <dl>
        <dt>{t.checkoutLogo}</dt><dd data-field="logoUrl" className="wrap">{settings.logoUrl ?? t.checkoutNone}</dd>
        <dt>{t.checkoutColor}</dt>
        <dd data-field="brandColor">{settings.brandColor ? <><span className="swatch" style={{ background: settings.brandColor }} aria-hidden="true" /> <code>{settings.brandColor}</code></> : t.checkoutDefaultColor}</dd>
        <dt>{t.checkoutOrigins}</dt>
        <dd data-field="embedOrigins">{settings.embedOrigins.length ? <ul>{settings.embedOrigins.map((o) => <li key={o}><code>{o}</code></li>)}</ul> : t.checkoutNoOrigins}</dd>
      </dl>
      {edit && <CheckoutForm settings={settings} />}
    </div>
  );
}

function CheckoutForm({ settings }: { settings: CheckoutSettings }) {
  const { t } = useT();
  const [logoUrl, setLogoUrl] = useState(settings.logoUrl ?? '');
  const [brandColor, setBrandColor] = useState(settings.brandColor ?? '');
  const [origins, setOrigins] = useState(settings.embedOrigins.join('\n'));
  const [outcome, setOutcome] = useState<Outcome>();
  const [, save] = useMutation(SET);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const lines = origins.split('\n').map((l) => l.trim()).filter(Boolean);
    const o = outcomeOf(await save({ input: { logoUrl: logoUrl.trim(), brandColor: brandColor.trim(), embedOrigins: lines } }), 'setCheckoutSettings');
    setOutcome(onOriginLines(o, (n, message) => fill(t.checkoutLine, { n: String(n), message })));
  };
  return (
    <FieldForm outcome={outcome} onSubmit={submit} className="stack" aria-label={t.checkoutSave}>
      <FormErrors />
      <Field name="logoUrl" label={t.checkoutLogo} hint={t.checkoutLogoHint}><input type="url" inputMode="url" value={logoUrl} onChange={(e) => setLogoUrl(e.target.value)} placeholder="https://" /></Field>
      <Field name="brandColor" label={t.checkoutColor} hint={t.checkoutColorHint}><input value={brandColor} onChange={(e) => setBrandColor(e.target.value)} placeholder="#1f6feb" maxLength={7} /></Field>
      <Field name="embedOrigins" label={t.checkoutOrigins} hint={t.checkoutOriginsHint}><textarea rows={3} value={origins} onChange={(e) => setOrigins(e.target.value)} spellCheck={false} /></Field>
      <div><button type="submit">{t.checkoutSave}</button></div>
      <ActionOutcome outcome={outcome} />
    </FieldForm>
  );
}

/** An origin refused at ["embedOrigins", i] shows under the list as "Line i+1: …", so the reader finds it. */
function onOriginLines(o: Outcome, line: (n: number, message: string) => string): Outcome {
  if (!o?.errors) return o;
  return { ...o, errors: o.errors.map((e) => (e.path[0] === 'embedOrigins' && e.path.length === 2 ? { path: ['embedOrigins'], message: line(Number(e.path[1]) + 1, e.message) } : e)) };
}
