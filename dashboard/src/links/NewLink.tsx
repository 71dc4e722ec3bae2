// Creating a payment link of any amount type: items for `fixed`; one item name, VAT rate and mode
// for the others; offered amounts for the predefined types; a selectable currency. The domain
// checks every rule; each of its errors shows under the field it names (kit Field), once.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { useT } from '../i18n.ts';
import { navigate } from '../router.ts';
import { Link, outcomeOf } from '../ui.tsx';
import { graphql } from '../graphql.ts';
import { Currency } from '../schema-enums.ts';
import { useCan } from '../kit/can.ts';
import { Field, FieldForm, FieldGroup, FormErrors } from '../kit/Field.tsx';
import { statusOf, statusValues } from '../kit/status.ts';
import type { ApiOutcome } from '../kit/field-errors.ts';
import { amountsOnOneField, quantityErrors, quantityOf } from './link-errors.ts';

const CREATE = graphql(`
  mutation CreatePaymentLink($input: CreatePaymentLinkInput!) {
    createPaymentLink(input: $input) { result { successful message } errors { path message } paymentLink { token reference } }
  }
`);

export const AMOUNT_TYPES = ['fixed', 'custom', 'predefined', 'predefined_and_custom'] as const;

interface ItemDraft { name: string; quantity: string; unitAmount: string; taxRate: string }
const EMPTY_ITEM: ItemDraft = { name: '', quantity: '1', unitAmount: '', taxRate: '' };

export function NewLink() {
  const { t } = useT();
  const can = useCan();
  return (
    <section aria-labelledby="new-link-title">
      <Link to="links">← {t.back}</Link>
      <h1 id="new-link-title">{t.newLink}</h1>
      {can('createPaymentLink') ? <NewLinkForm /> : <p className="empty">{t.linksNotAllowed}</p>}
    </section>
  );
}

function NewLinkForm() {
  const { t, lang } = useT();
  const [amountType, setAmountType] = useState<(typeof AMOUNT_TYPES)[number]>('fixed');
  const [currency, setCurrency] = useState('TRY');
  const [selectable, setSelectable] = useState<string[]>([]);
  const [items, setItems] = useState<ItemDraft[]>([EMPTY_ITEM]);
  const [itemName, setItemName] = useState('');
  const [amounts, setAmounts] = useState('');
  const [taxRate, setTaxRate] = useState('');
  const [taxMode, setTaxMode] = useState('inclusive');
  const [reference, setReference] = useState('');
  const [description, setDescription] = useState('');
  const [expires, setExpires] = useState('');
  const [emails, setEmails] = useState(false);
  const [outcome, setOutcome] = useState<ApiOutcome | null>(null);
  const [, create] = useMutation(CREATE);
  const fixed = amountType === 'fixed';
  const predefined = amountType === 'predefined' || amountType === 'predefined_and_custom';
  // The main currency is never also one of the payer's others (it may have been ticked before it became the main one).
  const others = selectable.filter((c) => c !== currency);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const quantities = items.map((i) => quantityOf(i.quantity));
    const refused = fixed ? quantityErrors(quantities, t.wholeNumber) : null;
    if (refused) return setOutcome(refused);
    const paymentLink = {
      currency,
      amountType,
      ...(fixed
        ? { items: items.map((i, n) => ({ name: i.name, quantity: quantities[n] ?? undefined, unitAmount: i.unitAmount, taxRate: i.taxRate || undefined })) }
        : { itemName, taxRate: taxRate || undefined, taxMode }),
      ...(predefined ? { predefinedAmounts: amounts.split('\n').map((a) => a.trim()).filter(Boolean) } : {}),
      ...(others.length ? { currencyType: 'selectable', currencies: others } : {}),
      reference: reference || undefined,
      description: description || undefined,
      expiresAt: expires || undefined,
      emailsCustomer: emails,
    };
    const res = outcomeOf(await create({ input: { paymentLink } }), 'createPaymentLink');
    const token = (res as { paymentLink?: { token: string } } | undefined)?.paymentLink?.token;
    if (res?.result?.successful && token) return navigate(`links/${token}`);
    setOutcome(amountsOnOneField(res, t.amountN) ?? null);
  };
  const setItem = (n: number, patch: Partial<ItemDraft>) => setItems(items.map((i, k) => (k === n ? { ...i, ...patch } : i)));

  return (
    <FieldForm outcome={outcome} className="card stack" onSubmit={submit}>
      <FormErrors />
      <div className="row field-row">
        <Field name="amountType" label={t.amountType}>
          <select value={amountType} onChange={(e) => setAmountType(e.target.value as typeof amountType)}>
            {AMOUNT_TYPES.map((a) => <option key={a} value={a}>{statusOf('linkAmountType', a, lang).label}</option>)}
          </select>
        </Field>
        <Field name="currency" label={t.currency}>
          <select value={currency} onChange={(e) => setCurrency(e.target.value)}>
            {statusValues('currency').filter((c) => (Currency as readonly string[]).includes(c)).map((c) => <option key={c} value={c}>{c} · {statusOf('currency', c, lang).label}</option>)}
          </select>
        </Field>
      </div>
      <FieldGroup name="currencies" legend={t.payerCurrencies}>
        <div className="row field-row">
          {Currency.filter((c) => c !== currency).map((c) => (
            <label key={c} className="check">
              <input type="checkbox" checked={selectable.includes(c)} onChange={(e) => setSelectable(e.target.checked ? [...selectable, c] : selectable.filter((x) => x !== c))} />{c}
            </label>
          ))}
        </div>
      </FieldGroup>
      {fixed ? (
        <FieldGroup name="items" legend={t.items}>
          {items.map((item, n) => (
            <div className="row field-row" key={n} role="group" aria-label={`${t.item} ${n + 1}`}>
              <Field name={`items.${n}.name`} label={`${t.itemName} ${n + 1}`}><input value={item.name} onChange={(e) => setItem(n, { name: e.target.value })} /></Field>
              <Field name={`items.${n}.quantity`} label={`${t.quantity} ${n + 1}`}><input inputMode="numeric" size={4} value={item.quantity} onChange={(e) => setItem(n, { quantity: e.target.value })} /></Field>
              <Field name={`items.${n}.unitAmount`} label={`${t.unitAmount} ${n + 1}`}><input inputMode="decimal" size={10} value={item.unitAmount} onChange={(e) => setItem(n, { unitAmount: e.target.value })} /></Field>
              <Field name={`items.${n}.taxRate`} label={`${t.taxRate} ${n + 1}`}><input inputMode="decimal" size={5} value={item.taxRate} onChange={(e) => setItem(n, { taxRate: e.target.value })} /></Field>
              {items.length > 1 && <button type="button" onClick={() => setItems(items.filter((_, k) => k !== n))}>{t.remove} {n + 1}</button>}
            </div>
          ))}
          <button type="button" onClick={() => setItems([...items, EMPTY_ITEM])}>{t.addItem}</button>
        </FieldGroup>
      ) : (
        <div className="row field-row">
          <Field name="itemName" label={t.itemName}><input value={itemName} onChange={(e) => setItemName(e.target.value)} /></Field>
          <Field name="taxRate" label={t.taxRate}><input inputMode="decimal" size={5} value={taxRate} onChange={(e) => setTaxRate(e.target.value)} /></Field>
          <Field name="taxMode" label={t.taxMode}>
            <select value={taxMode} onChange={(e) => setTaxMode(e.target.value)}>
              <option value="inclusive">{t.taxInclusive}</option><option value="exclusive">{t.taxExclusive}</option>
            </select>
          </Field>
        </div>
      )}
      {predefined && (
        <Field name="predefinedAmounts" label={t.predefinedAmounts} hint={t.onePerLine}>
          <textarea rows={3} value={amounts} onChange={(e) => setAmounts(e.target.value)} />
        </Field>
      )}
      <div className="row field-row">
        <Field name="reference" label={t.reference}><input value={reference} onChange={(e) => setReference(e.target.value)} /></Field>
        <Field name="description" label={t.description}><input value={description} onChange={(e) => setDescription(e.target.value)} /></Field>
        <Field name="expiresAt" label={t.expiresOn}><input type="date" value={expires} onChange={(e) => setExpires(e.target.value)} /></Field>
      </div>
      <label className="check"><input type="checkbox" checked={emails} onChange={(e) => setEmails(e.target.checked)} />{t.emailsCustomer}</label>
      <div><button type="submit" className="primary">{t.create}</button></div>
    </FieldForm>
  );
}
