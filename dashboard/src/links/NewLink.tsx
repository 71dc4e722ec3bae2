// Creating a payment link of any amount type: items for `fixed`; one item name, VAT rate and mode
// for the others; offered amounts for the predefined types; a selectable currency; the domain
// checks every rule and its errors are shown by field.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { useT } from '../i18n.ts';
import { navigate } from '../router.ts';
import { Link, OutcomeView, outcomeOf, type Outcome } from '../ui.tsx';
import { graphql } from '../graphql.ts';
import { Currency } from '../schema-enums.ts';

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
  const [outcome, setOutcome] = useState<Outcome>();
  const [, create] = useMutation(CREATE);
  const fixed = amountType === 'fixed';
  const predefined = amountType === 'predefined' || amountType === 'predefined_and_custom';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const paymentLink = {
      currency,
      amountType,
      ...(fixed
        ? { items: items.map((i) => ({ name: i.name, quantity: Number(i.quantity), unitAmount: i.unitAmount, taxRate: i.taxRate || undefined })) }
        : { itemName, taxRate: taxRate || undefined, taxMode }),
      ...(predefined ? { predefinedAmounts: amounts.split('\n').map((a) => a.trim()).filter(Boolean) } : {}),
      ...(selectable.length ? { currencyType: 'selectable', currencies: selectable } : {}),
      reference: reference || undefined,
      description: description || undefined,
      expiresAt: expires || undefined,
      emailsCustomer: emails,
    };
    const res = outcomeOf(await create({ input: { paymentLink } }), 'createPaymentLink');
    setOutcome(res);
    const token = (res as { paymentLink?: { token: string } } | undefined)?.paymentLink?.token;
    if (res?.result?.successful && token) navigate(`links/${token}`);
  };
  const setItem = (n: number, patch: Partial<ItemDraft>) => setItems(items.map((i, k) => (k === n ? { ...i, ...patch } : i)));

  return (
    <section aria-labelledby="new-link-title">
      <Link to="links">← {t.back}</Link>
      <h1 id="new-link-title">{t.newLink}</h1>
      <form className="card stack" onSubmit={submit}>
        <div className="row">
          <label>{t.amountType}
            <select name="amountType" value={amountType} onChange={(e) => setAmountType(e.target.value as typeof amountType)}>
              {AMOUNT_TYPES.map((a) => <option key={a} value={a}>{t[`amountType_${a}`]}</option>)}
            </select>
          </label>
          <label>{t.currency}
            <select name="currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>{Currency.map((c) => <option key={c}>{c}</option>)}</select>
          </label>
        </div>
        <fieldset>
          <legend>{t.payerCurrencies}</legend>
          <div className="row">
            {Currency.filter((c) => c !== currency).map((c) => (
              <label key={c} className="check">
                <input type="checkbox" checked={selectable.includes(c)} onChange={(e) => setSelectable(e.target.checked ? [...selectable, c] : selectable.filter((x) => x !== c))} />{c}
              </label>
            ))}
          </div>
        </fieldset>
        {fixed ? (
          <fieldset>
            <legend>{t.items}</legend>
            {items.map((item, n) => (
              <div className="row" key={n} role="group" aria-label={`${t.item} ${n + 1}`}>
                <label>{t.itemName} {n + 1}<input value={item.name} onChange={(e) => setItem(n, { name: e.target.value })} /></label>
                <label>{t.quantity} {n + 1}<input inputMode="numeric" size={4} value={item.quantity} onChange={(e) => setItem(n, { quantity: e.target.value })} /></label>
                <label>{t.unitAmount} {n + 1}<input inputMode="decimal" size={10} value={item.unitAmount} onChange={(e) => setItem(n, { unitAmount: e.target.value })} /></label>
                <label>{t.taxRate} {n + 1}<input inputMode="decimal" size={5} value={item.taxRate} onChange={(e) => setItem(n, { taxRate: e.target.value })} /></label>
                {items.length > 1 && <button type="button" onClick={() => setItems(items.filter((_, k) => k !== n))}>{t.remove} {n + 1}</button>}
              </div>
            ))}
            <button type="button" onClick={() => setItems([...items, EMPTY_ITEM])}>{t.addItem}</button>
          </fieldset>
        ) : (
          <div className="row">
            <label>{t.itemName}<input name="itemName" value={itemName} onChange={(e) => setItemName(e.target.value)} /></label>
            <label>{t.taxRate}<input name="taxRate" inputMode="decimal" size={5} value={taxRate} onChange={(e) => setTaxRate(e.target.value)} /></label>
            <label>{t.taxMode}
              <select name="taxMode" value={taxMode} onChange={(e) => setTaxMode(e.target.value)}>
                <option value="inclusive">{t.taxInclusive}</option><option value="exclusive">{t.taxExclusive}</option>
              </select>
            </label>
          </div>
        )}
        {predefined && (
          <label>{t.predefinedAmounts}<textarea name="predefinedAmounts" rows={3} value={amounts} onChange={(e) => setAmounts(e.target.value)} aria-describedby="amounts-help" /></label>
        )}
        {predefined && <p id="amounts-help" className="muted">{t.onePerLine}</p>}
        <div className="row">
          <label>{t.reference}<input name="reference" value={reference} onChange={(e) => setReference(e.target.value)} /></label>
          <label>{t.description}<input name="description" value={description} onChange={(e) => setDescription(e.target.value)} /></label>
          <label>{t.expiresOn}<input name="expiresAt" type="date" value={expires} onChange={(e) => setExpires(e.target.value)} /></label>
        </div>
        <label className="check"><input type="checkbox" checked={emails} onChange={(e) => setEmails(e.target.checked)} />{t.emailsCustomer}</label>
        <div><button type="submit" className="primary">{t.create}</button></div>
        <OutcomeView outcome={outcome} />
      </form>
    </section>
  );
}
