// The block and allow lists: every entry with its list, kind, value (a card's fingerprint, never
// its number) and note; an add form and remove buttons for the roles that may.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { fill, useT } from '../i18n.ts';
import { graphql } from '../graphql.ts';
import { Confirm, outcomeOf } from '../ui.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { Empty } from '../kit/states.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import type { ApiOutcome } from '../kit/field-errors.ts';
import { useCan } from '../kit/can.ts';

export const ADD_ENTRY = graphql(`mutation AddRiskListEntry($input: RiskListEntryInput!) { addRiskListEntry(input: $input) { result { successful message } errors { path message } entry { id } } }`);
const REMOVE_ENTRY = graphql(`mutation RemoveRiskListEntry($id: String!) { removeRiskListEntry(id: $id) { result { successful message } errors { path message } } }`);

const LISTS = ['block', 'allow'] as const;
const KINDS = ['bin', 'card', 'ip', 'email', 'domain', 'country'] as const;

interface Entry { id: string; list: string; kind: string; value: string; note?: string | null }

export function ListsCard({ entries, onChange }: { entries: readonly Entry[]; onChange: () => void }) {
  const { t } = useT();
  const can = useCan();
  const [, remove] = useMutation(REMOVE_ENTRY);
  const [outcome, setOutcome] = useState<ApiOutcome | undefined>();
  const [removing, setRemoving] = useState<Entry | null>(null);
  const word = (key: string) => (t as unknown as Record<string, string>)[key] ?? key;
  const removes = can('removeRiskListEntry');
  return (
    <section className="card" aria-labelledby="risk-lists">
      <h2 id="risk-lists">{t.riskLists}</h2>
      {entries.length === 0 ? <Empty>{t.riskListsEmpty}</Empty> : (
        <CardTable head={[t.riskList, t.riskKind, t.riskValue, t.riskNote, ...(removes ? [t.actions] : [])]}>
          {entries.map((e) => (
            <tr key={e.id} data-entry={e.value}>
              <td>{word(`risk_list_${e.list}`)}</td>
              <td>{word(`risk_kind_${e.kind}`)}</td>
              <td className="wrap"><code>{e.value}</code></td>
              <td className="wrap">{e.note ?? '—'}</td>
              {removes && <td><button type="button" className="danger" aria-label={`${t.remove} ${e.value}`} onClick={() => (setOutcome(undefined), setRemoving(e))}>{t.remove}</button></td>}
            </tr>
          ))}
        </CardTable>
      )}
      {removing && (
        <Confirm
          text={fill(t.confirmDelete, { name: removing.value })}
          onDismiss={() => setRemoving(null)}
          onConfirm={async () => {
            const res = outcomeOf(await remove({ id: removing.id }), 'removeRiskListEntry');
            setRemoving(null);
            setOutcome(res);
            if (res?.result?.successful) onChange();
          }}
        />
      )}
      <ActionOutcome outcome={outcome} />
      {can('addRiskListEntry') && <AddEntry onDone={onChange} />}
    </section>
  );
}

function AddEntry({ onDone }: { onDone: () => void }) {
  const { t } = useT();
  const [, add] = useMutation(ADD_ENTRY);
  const [list, setList] = useState<string>('block');
  const [kind, setKind] = useState<string>('ip');
  const [value, setValue] = useState('');
  const [note, setNote] = useState('');
  const [outcome, setOutcome] = useState<ApiOutcome | null>(null);
  const word = (key: string) => (t as unknown as Record<string, string>)[key] ?? key;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = outcomeOf(await add({ input: { list, kind, value, note: note || undefined } }), 'addRiskListEntry');
    setOutcome(res ?? null);
    if (!res?.result?.successful) return;
    setValue('');
    setNote('');
    onDone();
  };
  return (
    <FieldForm outcome={outcome} onSubmit={submit} className="risk-entry-form" aria-labelledby="risk-entry-title">
      <h3 id="risk-entry-title">{t.riskAddEntry}</h3>
      <FormErrors />
      <div className="row field-row">
        <Field name="list" label={t.riskList}><select value={list} onChange={(e) => setList(e.target.value)}>{LISTS.map((l) => <option key={l} value={l}>{word(`risk_list_${l}`)}</option>)}</select></Field>
        <Field name="kind" label={t.riskKind}><select value={kind} onChange={(e) => setKind(e.target.value)}>{KINDS.map((k) => <option key={k} value={k}>{word(`risk_kind_${k}`)}</option>)}</select></Field>
        <Field name="value" label={t.riskValue} hint={kind === 'card' ? t.riskListValueHelp : undefined}><input value={value} onChange={(e) => setValue(e.target.value)} /></Field>
        <Field name="note" label={t.riskNote}><input value={note} onChange={(e) => setNote(e.target.value)} /></Field>
      </div>
      <button type="submit" className="primary">{t.add}</button>
    </FieldForm>
  );
}
