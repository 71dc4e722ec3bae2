// Webhook addresses (add with an event selection, disable/enable, delete, rotate the signing secret,
// send a test event: for the roles that may)
// and the workspace's notifications, refreshed on every live event and on demand.
import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { fill, useT } from '../i18n.ts';
import { Confirm, outcomeOf } from '../ui.tsx';
import { NotificationList } from './NotificationList.tsx';
import { NewSigningSecret, RotateSecret, SendTest } from './AddressTools.tsx';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql, type ResultOf } from '../graphql.ts';
import type { NotificationStatus } from '../schema-enums.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { StatusOptions } from '../kit/StatusOptions.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { Field, FieldForm, FieldGroup, FormErrors } from '../kit/Field.tsx';
import type { ApiOutcome } from '../kit/field-errors.ts';
import { useCan } from '../kit/can.ts';

const ADDRESSES = graphql(`
  query WebhookAddresses { webhookAddresses { id url events allEvents enabled createdAt signingSecretSet } eventKinds }
`);
const ADD = graphql(`
  mutation AddWebhookAddress($input: AddWebhookAddressInput!) {
    addWebhookAddress(input: $input) { result { successful message } errors { path message } signingSecret webhookAddress { id url events allEvents enabled } }
  }
`);
const PAYLOAD = graphql(`fragment WebhookAddressOutcome on WebhookAddressPayload { result { successful message } errors { path message } webhookAddress { id url events allEvents enabled } }`);
const DISABLE = graphql(`mutation DisableWebhookAddress($id: ID!) { disableWebhookAddress(id: $id) { ...WebhookAddressOutcome } }`, [PAYLOAD]);
const ENABLE = graphql(`mutation EnableWebhookAddress($id: ID!) { enableWebhookAddress(id: $id) { ...WebhookAddressOutcome } }`, [PAYLOAD]);
const DELETE = graphql(`mutation DeleteWebhookAddress($id: ID!) { deleteWebhookAddress(id: $id) { ...WebhookAddressOutcome } }`, [PAYLOAD]);
const EVENTS = graphql(`subscription WebhookEvents { events { id } }`);

// An empty list names no type, so the document cache would not refetch it after an add.
const ADDRESS_TYPES = { additionalTypenames: ['WebhookAddress'] };

type Address = ResultOf<typeof ADDRESSES>['webhookAddresses'][number];

export function WebhooksPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const [reload, setReload] = useState(0);
  const [status, setStatus] = useState<NotificationStatus | ''>('');
  const [record, setRecord] = useState('');
  // A new event may mean a new notification; attempts change without events, hence the button.
  const bump = useRef(() => setReload((n) => n + 1));
  useSubscription({ query: EVENTS, pause: viewer.support }, (_p, e) => (bump.current(), e));
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">{t.webhooks}</h1>
      {!viewer.support && <Addresses />}
      <h2>{t.notifications}</h2>
      <form className="filters" role="search" onSubmit={(e) => (e.preventDefault(), setReload((n) => n + 1))}>
        <label>{t.status}
          <select name="notificationStatus" value={status} onChange={(e) => setStatus(e.target.value as NotificationStatus | '')}>
            <option value="">{t.any}</option>
            <StatusOptions kind="notification" />
          </select>
        </label>
        <label>{t.recordToken}<input name="recordToken" value={record} onChange={(e) => setRecord(e.target.value.trim())} /></label>
        <button type="submit" className="primary">{t.refresh}</button>
      </form>
      <ExportLink href={exportHref('notifications.csv', { status: status ? [status] : undefined, recordToken: record }, viewer.support ? viewer.slug : undefined)} />
      <NotificationList viewer={viewer} status={status || undefined} recordToken={record} reload={reload} filtered={!!(status || record)} />
    </section>
  );
}

function Addresses() {
  const { t } = useT();
  const can = useCan();
  const [{ data, error, fetching }, reexecute] = useQuery({ query: ADDRESSES, context: ADDRESS_TYPES });
  const [outcome, setOutcome] = useState<ApiOutcome | undefined>();
  const [deleting, setDeleting] = useState<Address | null>(null);
  const [tool, setTool] = useState<{ kind: 'rotate' | 'test'; address: Address } | null>(null);
  const [, disable] = useMutation(DISABLE);
  const [, enable] = useMutation(ENABLE);
  const [, remove] = useMutation(DELETE);
  const addresses = data?.webhookAddresses ?? [];
  const manage = can('disableWebhookAddress') || can('enableWebhookAddress') || can('deleteWebhookAddress') || can('rotateWebhookSecret') || can('sendTestWebhook');
  const kinds = data?.eventKinds ?? [];
  const kindsOf = (a: Address) => (a.allEvents ? kinds : kinds.filter((k) => a.events.includes(k)));
  const pick = (kind: 'rotate' | 'test', address: Address) => (setOutcome(undefined), setTool(tool?.kind === kind && tool.address.id === address.id ? null : { kind, address }));
  const head = [t.url, t.events, t.status, ...(manage ? [t.actions] : [])];
  return (
    <div className="card">
      <h2>{t.webhookAddresses}</h2>
      {error && <ErrorState message={error.networkError ? t.kitServerDown : error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {!data && fetching && <Loading rows={2} />}
      {data && addresses.length === 0 && <Empty>{t.webhookAddressesEmpty}</Empty>}
      {addresses.length > 0 && (
        <CardTable head={head}>
          {addresses.map((a) => (
            <tr key={a.id} data-address={a.url}>
              <td className="wrap">{a.url}{!a.signingSecretSet && <><br /><span className="muted">{t.signingSecretMissing}</span></>}</td>
              <td className="wrap">{a.allEvents ? t.allEvents : a.events.join(', ')}</td>
              <td><StatusBadge kind="webhookAddress" value={a.enabled ? 'enabled' : 'disabled'} /></td>
              {manage && (
                <td className="row">
                  {a.enabled
                    ? can('disableWebhookAddress') && <button type="button" aria-label={`${t.disable} ${a.url}`} onClick={async () => setOutcome(outcomeOf(await disable({ id: a.id }), 'disableWebhookAddress'))}>{t.disable}</button>
                    : can('enableWebhookAddress') && <button type="button" aria-label={`${t.enable} ${a.url}`} onClick={async () => setOutcome(outcomeOf(await enable({ id: a.id }), 'enableWebhookAddress'))}>{t.enable}</button>}
                  {can('sendTestWebhook') && <button type="button" aria-label={`${t.sendTestEvent} ${a.url}`} aria-expanded={tool?.kind === 'test' && tool.address.id === a.id} onClick={() => pick('test', a)}>{t.sendTestEvent}</button>}
                  {can('rotateWebhookSecret') && <button type="button" aria-label={`${t.rotateSigningSecret} ${a.url}`} aria-expanded={tool?.kind === 'rotate' && tool.address.id === a.id} onClick={() => pick('rotate', a)}>{t.rotateSigningSecret}</button>}
                  {can('deleteWebhookAddress') && <button type="button" className="danger" aria-label={`${t.delete} ${a.url}`} onClick={() => (setOutcome(undefined), setDeleting(a))}>{t.delete}</button>}
                </td>
              )}
            </tr>
          ))}
        </CardTable>
      )}
      {deleting && (
        <Confirm
          text={fill(t.confirmDelete, { name: deleting.url })}
          onDismiss={() => setDeleting(null)}
          onConfirm={async () => {
            const res = await remove({ id: deleting.id });
            setDeleting(null);
            setOutcome(outcomeOf(res, 'deleteWebhookAddress'));
          }}
        />
      )}
      <ActionOutcome outcome={outcome} />
      {tool?.kind === 'rotate' && <RotateSecret key={tool.address.id} address={tool.address} />}
      {tool?.kind === 'test' && <SendTest key={tool.address.id} address={tool.address} kinds={kindsOf(tool.address)} />}
      {can('addWebhookAddress') && <AddAddress kinds={kinds} />}
    </div>
  );
}

function AddAddress({ kinds }: { kinds: string[] }) {
  const { t } = useT();
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(false);
  const [events, setEvents] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<ApiOutcome | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [, add] = useMutation(ADD);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSecret(null);
    const answer = await add({ input: { url, events: all ? undefined : events, allEvents: all } });
    const res = outcomeOf(answer, 'addWebhookAddress');
    setOutcome(res?.result?.successful ? null : (res ?? null));
    if (!res?.result?.successful) return;
    setSecret(answer.data?.addWebhookAddress?.signingSecret ?? null);
    setUrl('');
    setEvents([]);
    setAll(false);
  };
  const toggle = (kind: string) => setEvents((list) => (list.includes(kind) ? list.filter((k) => k !== kind) : [...list, kind]));
  return (
    <FieldForm outcome={outcome} onSubmit={submit} className="add-address">
      <h3 id="add-address-title">{t.addAddress}</h3>
      <FormErrors />
      <Field name="url" label={t.url}><input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://" /></Field>
      <FieldGroup name="events" legend={t.events}>
        <label className="check"><input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />{t.allEvents}</label>
        <div className="checks">
          {kinds.map((k) => (
            <label key={k} className="check"><input type="checkbox" disabled={all} checked={events.includes(k)} onChange={() => toggle(k)} />{k}</label>
          ))}
        </div>
      </FieldGroup>
      <button type="submit" className="primary">{t.add}</button>
      {secret && <NewSigningSecret secret={secret} onHide={() => setSecret(null)} />}
    </FieldForm>
  );
}
