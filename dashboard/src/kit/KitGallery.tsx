// /dashboard/kit: every piece of the kit on one page, for whoever applies it to a screen (and for
// the browser test that checks them). Not in the navigation; it reads and writes nothing.
import { useState, type FormEvent } from 'react';
import { useT } from '../i18n.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { STATUS_KINDS, statusValues } from './status.ts';
import { useMoney } from './money.ts';
import { useDates } from './dates.ts';
import { ZoneNote } from './ZoneNote.tsx';
import { Empty, ErrorState, Loading } from './states.tsx';
import { Field, FieldForm, FieldGroup, FormErrors } from './Field.tsx';
import { ActionOutcome } from './ActionOutcome.tsx';
import { CardTable } from './CardTable.tsx';
import { CopyButton } from './CopyButton.tsx';
import { QrCode } from './QrCode.tsx';
import type { ApiOutcome } from './field-errors.ts';

/** The shape createPaymentLink answers with for an item without a name and a bad tax rate. */
const SAMPLE_FAILURE: ApiOutcome = {
  result: { successful: false, message: 'sample: name is required' },
  errors: [
    { path: ['paymentLink', 'items', '0', 'name'], message: 'sample: name is required' },
    { path: ['paymentLink', 'items', '0', 'taxRate'], message: 'sample: tax rate is 0-100' },
    { path: ['paymentLink', 'currencies'], message: 'sample: choose another currency' },
    { path: [], message: 'sample: the workspace plan has no payment links' },
  ],
};

export function KitGallery() {
  const { t } = useT();
  const money = useMoney();
  const dates = useDates('Europe/Istanbul');
  const [outcome, setOutcome] = useState<ApiOutcome | null>(null);
  const [retried, setRetried] = useState(0);
  return (
    <section aria-labelledby="kit-title" className="kit-gallery">
      <h1 id="kit-title">Kit</h1>
      <h2>StatusBadge</h2>
      {STATUS_KINDS.map((kind) => (
        <p key={kind} data-kind={kind} className="row">{statusValues(kind).map((v) => <StatusBadge key={v} kind={kind} value={v} />)}</p>
      ))}
      <h2>useMoney, useDates</h2>
      <p data-sample="money">{money('12345678901234.56', 'TRY')}</p>
      <p data-sample="dateTime">{dates.dateTime('2026-03-04T21:30:00Z')}</p>
      <ZoneNote timeZone="Europe/Istanbul" />
      <h2>Loading, Empty, ErrorState</h2>
      <Loading />
      <Empty />
      <ErrorState message={`sample (${retried})`} onRetry={() => setRetried((n) => n + 1)} />
      <h2>Field</h2>
      <FieldForm outcome={outcome} className="card" onSubmit={(e: FormEvent) => (e.preventDefault(), setOutcome(SAMPLE_FAILURE))}>
        <FormErrors />
        <Field name="items.0.name" label={t.itemName}><input /></Field>
        <Field name="items.0.taxRate" label={t.taxRate} hint={t.onePerLine}><input inputMode="decimal" /></Field>
        <Field name="reference" label={t.reference}><input /></Field>
        <FieldGroup name="currencies" legend={t.payerCurrencies}><label className="check"><input type="checkbox" />USD</label></FieldGroup>
        <button type="submit" className="primary">{t.save}</button>
      </FieldForm>
      <h2>ActionOutcome, CardTable</h2>
      <ActionOutcome outcome={SAMPLE_FAILURE} />
      <CardTable head={[t.itemName, t.amount]}><tr><td>Kupa</td><td>{money('30.00', 'TRY')}</td></tr></CardTable>
      <h2>CopyButton, QrCode</h2>
      <CopyButton text="https://example.com/pay/sample" />
      <QrCode value="https://example.com/pay/sample" />
    </section>
  );
}
