// The catalog: products with on/off-sale and reference filters, and a form that saves one (a new
// reference creates it, an existing one replaces it, as save-product does) for the roles that may;
// the domain's errors show under their fields.
import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { ListTable, outcomeOf, useConnection } from '../ui.tsx';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import { Currency } from '../schema-enums.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { statusOf } from '../kit/status.ts';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import type { ApiOutcome } from '../kit/field-errors.ts';
import { useRate } from '../links/format.ts';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';

const PRODUCTS = graphql(`
  query Products($first: Int, $after: String, $last: Int, $before: String, $filter: ProductFilter, $slug: String) {
    products(first: $first, after: $after, last: $last, before: $before, filter: $filter, workspaceSlug: $slug) {
      edges { node { channelToken channelReference name type amount currency taxRate period isActive updatedAt } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);
const CHANNELS = graphql(`query Channels { workspace { slug channels { token name } } }`);
const SAVE = graphql(`
  mutation SaveProduct($input: SaveProductInput!) {
    saveProduct(input: $input) { result { successful message } errors { path message } product { channelToken channelReference name } }
  }
`);

export function ProductsPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const rate = useRate();
  const { dateTime } = useDates(viewer.timeZone);
  const [draft, setDraft] = useState({ active: '', reference: '' });
  const [applied, setApplied] = useState(draft);
  const filter = useMemo(() => ({ isActive: applied.active ? applied.active === 'on' : undefined, channelReference: applied.reference || undefined }), [applied]);
  const list = useConnection(PRODUCTS, 'products', filter, viewer, 'Product');
  const apply = (e: FormEvent) => (e.preventDefault(), setApplied(draft));
  return (
    <section aria-labelledby="products-title">
      <h1 id="products-title">{t.products}</h1>
      <form className="filters" role="search" onSubmit={apply}>
        <label>{t.status}
          <select name="onSale" value={draft.active} onChange={(e) => setDraft({ ...draft, active: e.target.value })}>
            <option value="">{t.any}</option><option value="on">{t.onSale}</option><option value="off">{t.offSale}</option>
          </select>
        </label>
        <label>{t.reference}<input name="reference" value={draft.reference} onChange={(e) => setDraft({ ...draft, reference: e.target.value })} /></label>
        <button type="submit" className="primary">{t.filter}</button>
      </form>
      <ExportLink href={exportHref('products.csv', filter, viewer.support ? viewer.slug : undefined)} />
      <ListTable list={list} head={[t.reference, t.name, t.productType, t.amount, t.taxRate, t.status, t.updated]} empty={applied.active || applied.reference ? t.kitEmptyFiltered : t.productsEmpty}>
        {list.rows.map((p) => (
          <tr key={`${p.channelToken}:${p.channelReference}`} data-reference={p.channelReference}>
            <td>{p.channelReference}</td>
            <td>{p.name}</td>
            <td>{p.type === 'recurring' ? `${t.recurring} (${p.period === 'yearly' ? t.yearly : t.monthly})` : t.simple}</td>
            <td data-field="productAmount">{money(p.amount, p.currency)}</td>
            <td>{rate(p.taxRate)}</td>
            <td><StatusBadge kind="product" value={p.isActive ? 'on_sale' : 'off_sale'} /></td>
            <td>{dateTime(p.updatedAt)}</td>
          </tr>
        ))}
      </ListTable>
      <ZoneNote timeZone={viewer.timeZone} />
      {viewer.can('saveProduct') && <SaveProduct />}
    </section>
  );
}

function SaveProduct() {
  const { t, lang } = useT();
  const [{ data }] = useQuery({ query: CHANNELS });
  const channels = data?.workspace?.channels ?? [];
  const [form, setForm] = useState({ channelToken: '', channelReference: '', name: '', type: 'simple', amount: '', taxRate: '20', currency: 'TRY', period: 'monthly', isActive: true });
  const [outcome, setOutcome] = useState<ApiOutcome | null>(null);
  const [, save] = useMutation(SAVE);
  const field = (k: 'channelReference' | 'name' | 'amount' | 'taxRate') => ({ value: form[k], onChange: (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value }) });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { period, ...rest } = form;
    const product = { ...rest, channelToken: form.channelToken || channels[0]?.token, ...(form.type === 'recurring' ? { period } : {}) };
    setOutcome(outcomeOf(await save({ input: { product } }), 'saveProduct') ?? null);
  };
  return (
    <FieldForm outcome={outcome?.result?.successful ? null : outcome} className="card stack" onSubmit={submit}>
      <h2 id="save-product-title">{t.saveProduct}</h2>
      <FormErrors />
      <div className="row field-row">
        <Field name="channelToken" label={t.channel}>
          <select value={form.channelToken || channels[0]?.token || ''} onChange={(e) => setForm({ ...form, channelToken: e.target.value })}>
            {channels.map((c) => <option key={c.token} value={c.token ?? ''}>{c.name}</option>)}
          </select>
        </Field>
        <Field name="channelReference" label={t.productReference}><input {...field('channelReference')} /></Field>
        <Field name="name" label={t.name}><input {...field('name')} /></Field>
      </div>
      <div className="row field-row">
        <Field name="type" label={t.productType}>
          <select value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value })}>
            <option value="simple">{t.simple}</option><option value="recurring">{t.recurring}</option>
          </select>
        </Field>
        {form.type === 'recurring' && (
          <Field name="period" label={t.period}>
            <select value={form.period} onChange={(e) => setForm({ ...form, period: e.target.value })}>
              <option value="monthly">{t.monthly}</option><option value="yearly">{t.yearly}</option>
            </select>
          </Field>
        )}
        <Field name="amount" label={t.unitAmount}><input inputMode="decimal" size={10} {...field('amount')} /></Field>
        <Field name="currency" label={t.currency}>
          <select value={form.currency} onChange={(e) => setForm({ ...form, currency: e.target.value })}>{Currency.map((c) => <option key={c} value={c}>{c} · {statusOf('currency', c, lang).label}</option>)}</select>
        </Field>
        <Field name="taxRate" label={t.taxRate}><input inputMode="decimal" size={5} {...field('taxRate')} /></Field>
      </div>
      <label className="check"><input type="checkbox" checked={form.isActive} onChange={(e) => setForm({ ...form, isActive: e.target.checked })} />{t.onSale}</label>
      <div><button type="submit" className="primary">{t.save}</button></div>
      {outcome?.result?.successful && <ActionOutcome outcome={outcome} />}
    </FieldForm>
  );
}
