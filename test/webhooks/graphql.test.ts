// The dashboard's webhook API over real HTTP with bearer tokens: addresses (add, change events,
// disable, enable, delete, list), event kinds, notifications per record with their attempts,
// undelivered notifications and resend; validation errors as `errors`, isolation between workspaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { paymentBody } from '../helpers/payments.ts';
import { attemptsRecorded, deliveryRounds, emitEvent, gql, notificationsOf, type GqlResult } from '../helpers/webhooks.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { EVENT_KINDS } from '../../src/domain/events.ts';

let t: TestGateway;
let acme: Merchant;
let basic: Merchant;
let acmeToken: string;
let basicToken: string;
let supportToken: string;
let receiver: Receiver;

const ADDRESS = 'id url events allEvents enabled createdAt';
const ERRORS = 'errors { kind code message path }';
const ADD = `mutation ($input: AddWebhookAddressInput!) { addWebhookAddress(input: $input) { result { successful message } webhookAddress { ${ADDRESS} } ${ERRORS} } }`;
const SET_EVENTS = `mutation ($id: ID!, $events: [String!], $allEvents: Boolean) { setWebhookEvents(id: $id, events: $events, allEvents: $allEvents) { webhookAddress { ${ADDRESS} } ${ERRORS} } }`;
const DISABLE = `mutation ($id: ID!) { disableWebhookAddress(id: $id) { webhookAddress { ${ADDRESS} } ${ERRORS} } }`;
const ENABLE = `mutation ($id: ID!) { enableWebhookAddress(id: $id) { webhookAddress { ${ADDRESS} } ${ERRORS} } }`;
const DELETE = `mutation ($id: ID!) { deleteWebhookAddress(id: $id) { webhookAddress { ${ADDRESS} } ${ERRORS} } }`;
const LIST = `{ webhookAddresses { ${ADDRESS} } }`;
const NOTIFICATION = 'id event url recordToken status attemptCount nextAttemptAt deliveredAt createdAt body attempts { number startedAt durationMs httpStatus responseExcerpt error }';
const NOTIFICATIONS = `query ($token: String!) { notifications(filter: { recordToken: $token }) { edges { node { ${NOTIFICATION} } } } }`;
const UNDELIVERED = `{ notifications(filter: { status: [failed, dropped] }) { edges { node { ${NOTIFICATION} } } } }`;
/** The rows of a `notifications` page. */
const listed = (res: GqlResult) => res.body.data.notifications.edges.map((e: { node: unknown }) => e.node);
const RESEND = `mutation ($id: ID!) { resendNotification(id: $id) { result { successful } notification { ${NOTIFICATION} } ${ERRORS} } }`;

beforeAll(async () => {
  t = await startTestGateway();
  acme = await seedWorkspace(t, { slug: 'acme' });
  basic = await seedWorkspace(t, { slug: 'basic', plan: { orders: false, subscriptions: false, paymentLinks: true, payByLink: false } });
  acmeToken = await createAccessToken(t.gateway.services.db, 'acme', 'dashboard');
  basicToken = await createAccessToken(t.gateway.services.db, 'basic', 'dashboard');
  supportToken = await createAccessToken(t.gateway.services.db, null, 'support');
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.stop();
});

async function add(token: string, input: Record<string, unknown>) {
  const res = await gql(t, token, ADD, { input });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.addWebhookAddress;
}

describe('eventKinds', () => {
  it('lists every kind when every module is open', async () => {
    const res = await gql(t, acmeToken, '{ eventKinds }');
    expect(res.body.data.eventKinds).toEqual([...EVENT_KINDS]);
  });

  it('lists only the kinds of open modules (account health and risk source events are every workspace\u2019s)', async () => {
    const res = await gql(t, basicToken, '{ eventKinds }');
    expect(res.body.data.eventKinds).toEqual(EVENT_KINDS.filter((k) => k.startsWith('transaction.') || k.startsWith('payment_account.') || k.startsWith('risk_source.')));
  });
});

describe('addWebhookAddress', () => {
  it('adds an address with selected events', async () => {
    const r = await add(acmeToken, { url: `${receiver.url}/acme`, events: ['transaction.successful', 'order.paid'] });
    expect(r.errors).toEqual([]);
    expect(r.result).toEqual({ successful: true, message: null });
    expect(r.webhookAddress).toMatchObject({ url: `${receiver.url}/acme`, events: ['transaction.successful', 'order.paid'], allEvents: false, enabled: true });
    expect(r.webhookAddress.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.webhookAddress.createdAt).toMatch(/Z$/);
  });

  it('accepts "all events"', async () => {
    const r = await add(acmeToken, { url: `${receiver.url}/all`, allEvents: true });
    expect(r.errors).toEqual([]);
    expect(r.webhookAddress).toMatchObject({ events: [], allEvents: true });
  });

  it('refuses the same URL twice in a workspace, also spelled differently', async () => {
    const again = await add(acmeToken, { url: `${receiver.url}/acme`, events: ['transaction.failed'] });
    expect(again.webhookAddress).toBeNull();
    expect(again.result).toEqual({ successful: false, message: 'This address was already added.' });
    expect(again.errors).toEqual([{ kind: 'validation', code: 'webhook_url_exists', message: 'This address was already added.', path: ['url'] }]);
    const bare = await add(acmeToken, { url: receiver.url, allEvents: true });
    expect(bare.errors).toEqual([]);
    const slash = await add(acmeToken, { url: `${receiver.url}/`, allEvents: true });
    expect(slash.errors.map((e: { code: string }) => e.code)).toEqual(['webhook_url_exists']);
  });

  it('lets another workspace add the same URL', async () => {
    const r = await add(basicToken, { url: `${receiver.url}/acme`, events: ['transaction.successful'] });
    expect(r.errors).toEqual([]);
  });

  it('requires at least one event', async () => {
    for (const input of [{}, { events: [] }, { events: [], allEvents: false }, { events: null }]) {
      const r = await add(acmeToken, { url: `${receiver.url}/none`, ...input });
      expect(r.errors, JSON.stringify(input)).toEqual([{ kind: 'validation', code: 'webhook_events_required', message: 'At least one event must be selected.', path: ['events'] }]);
    }
  });

  it('refuses events of modules not open in the workspace, and unknown events', async () => {
    const r = await add(basicToken, { url: `${receiver.url}/basic`, events: ['transaction.successful', 'order.paid', 'subscription.active', 'payment_link.paid'] });
    expect(r.errors.map((e: { code: string; path: string[] }) => [e.code, e.path.join('.')])).toEqual([
      ['webhook_event_unknown', 'events.1'],
      ['webhook_event_unknown', 'events.2'],
      ['webhook_event_unknown', 'events.3'],
    ]);
    const unknown = await add(acmeToken, { url: `${receiver.url}/x`, events: ['payment.created'] });
    expect(unknown.errors.map((e: { code: string }) => e.code)).toEqual(['webhook_event_unknown']);
    const list = await gql(t, basicToken, LIST);
    expect(list.body.data.webhookAddresses.map((a: { url: string }) => a.url)).toEqual([`${receiver.url}/acme`]);
  });

  it('refuses URLs that are not https (http only to localhost outside production) or not URLs', async () => {
    for (const url of ['http://example.com/hooks', 'ftp://example.com/hooks', 'not a url', 'https://user:pass@example.com/hooks', '', 'x'.repeat(3000)]) {
      const r = await add(acmeToken, { url, allEvents: true });
      expect(r.errors.map((e: { code: string; path: string[] }) => [e.code, e.path.join('.')]), url.slice(0, 40)).toEqual([[url.length > 2048 ? 'too_long' : 'webhook_url_invalid', 'url']]);
    }
  });

  it('reports a bad URL and a bad selection together', async () => {
    const r = await add(basicToken, { url: 'http://merchant.example/hooks', events: ['order.paid'] });
    expect(r.errors.map((e: { code: string; path: string[] }) => [e.code, e.path.join('.')])).toEqual([
      ['webhook_url_invalid', 'url'],
      ['webhook_event_unknown', 'events.0'],
    ]);
  });

  it('is refused for support tokens and without a token', async () => {
    const support = await gql(t, supportToken, ADD, { input: { url: `${receiver.url}/s`, allEvents: true } });
    expect(support.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const anonymous = await gql(t, null, ADD, { input: { url: `${receiver.url}/s`, allEvents: true } });
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('changing addresses', () => {
  let id: string;
  beforeAll(async () => {
    id = (await add(acmeToken, { url: `${receiver.url}/change`, events: ['transaction.successful'] })).webhookAddress.id;
  });

  it('setWebhookEvents replaces the selection, with the same rules as adding', async () => {
    const res = await gql(t, acmeToken, SET_EVENTS, { id, events: ['transaction.failed', 'subscription.past_due'] });
    expect(res.body.data.setWebhookEvents).toMatchObject({ errors: [], webhookAddress: { id, events: ['transaction.failed', 'subscription.past_due'], allEvents: false } });
    const all = await gql(t, acmeToken, SET_EVENTS, { id, allEvents: true });
    expect(all.body.data.setWebhookEvents.webhookAddress).toMatchObject({ events: [], allEvents: true });
    const none = await gql(t, acmeToken, SET_EVENTS, { id, events: [] });
    expect(none.body.data.setWebhookEvents).toMatchObject({ webhookAddress: null, errors: [{ code: 'webhook_events_required', path: ['events'] }] });
    const back = await gql(t, acmeToken, SET_EVENTS, { id, events: ['transaction.successful'], allEvents: false });
    expect(back.body.data.setWebhookEvents.webhookAddress).toMatchObject({ events: ['transaction.successful'], allEvents: false });
  });

  it('disable and enable', async () => {
    const off = await gql(t, acmeToken, DISABLE, { id });
    expect(off.body.data.disableWebhookAddress).toMatchObject({ errors: [], webhookAddress: { id, enabled: false } });
    const on = await gql(t, acmeToken, ENABLE, { id });
    expect(on.body.data.enableWebhookAddress).toMatchObject({ errors: [], webhookAddress: { id, enabled: true } });
  });

  it('another workspace’s address, a malformed id and an unknown id are not found', async () => {
    for (const [token, target] of [
      [basicToken, id],
      [acmeToken, 'nope'],
      [acmeToken, '-'.repeat(36)],
      [acmeToken, crypto.randomUUID()],
    ] as const) {
      for (const doc of [DISABLE, ENABLE, DELETE]) {
        const res = await gql(t, token, doc, { id: target });
        const payload = Object.values(res.body.data)[0] as { webhookAddress: unknown; errors: unknown };
        expect(payload).toEqual({ webhookAddress: null, errors: [{ kind: 'not_found', code: 'webhook_not_found', message: 'Webhook address not found.', path: ['id'] }] });
      }
      const set = await gql(t, token, SET_EVENTS, { id: target, allEvents: true });
      expect(set.body.data.setWebhookEvents.errors[0].code).toBe('webhook_not_found');
    }
    const still = await gql(t, acmeToken, LIST);
    expect(still.body.data.webhookAddresses.find((a: { id: string }) => a.id === id)).toMatchObject({ enabled: true });
  });

  it('delete returns the address and removes it from the list', async () => {
    const del = await gql(t, acmeToken, DELETE, { id });
    expect(del.body.data.deleteWebhookAddress).toMatchObject({ errors: [], webhookAddress: { id, url: `${receiver.url}/change` } });
    const list = await gql(t, acmeToken, LIST);
    expect(list.body.data.webhookAddresses.map((a: { id: string }) => a.id)).not.toContain(id);
    const again = await gql(t, acmeToken, DELETE, { id });
    expect(again.body.data.deleteWebhookAddress.errors[0].code).toBe('webhook_not_found');
  });
});

describe('webhookAddresses', () => {
  it('lists only the caller’s addresses, oldest first; support sees all', async () => {
    const own = await gql(t, acmeToken, LIST);
    const urls = own.body.data.webhookAddresses.map((a: { url: string }) => a.url);
    expect(urls).toEqual([`${receiver.url}/acme`, `${receiver.url}/all`, `${receiver.url}/`]);
    const other = await gql(t, basicToken, LIST);
    expect(other.body.data.webhookAddresses).toHaveLength(1);
    const support = await gql(t, supportToken, LIST);
    expect(support.body.data.webhookAddresses).toHaveLength(4);
  });
});

describe('notifications and resend', () => {
  let token: string;
  let failing: Receiver;

  beforeAll(async () => {
    failing = await startReceiver();
    failing.respondWith(503);
  });
  afterAll(() => failing?.close());

  it('lists a record’s notifications with every attempt', async () => {
    const pay = await acme.call('regular-payment', paymentBody(acme));
    token = pay.body.transaction.token;
    // acme has three addresses; /acme selected transaction.successful, /all and / take all events.
    const before = await gql(t, acmeToken, NOTIFICATIONS, { token });
    expect(listed(before)).toHaveLength(3);
    expect(listed(before).every((n: { status: string; attempts: unknown[] }) => n.status === 'pending' && n.attempts.length === 0)).toBe(true);
    t.clock.advance(30_000);
    const ids = listed(before).map((n: { id: string }) => n.id) as string[];
    for (const id of ids) await attemptsRecorded(t, id, 1);
    const after = await gql(t, acmeToken, NOTIFICATIONS, { token });
    const one = listed(after)[0];
    expect(one).toMatchObject({ event: 'transaction.successful', recordToken: token, status: 'delivered', attemptCount: 1, nextAttemptAt: null });
    expect(JSON.parse(one.body)).toMatchObject({ id: one.id, event: 'transaction.successful', transaction: { token } });
    expect(one.attempts).toHaveLength(1);
    expect(one.attempts[0]).toMatchObject({ number: 1, httpStatus: 200, responseExcerpt: 'ok', error: null });
    expect(one.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(new Date(one.attempts[0].startedAt).getTime()).toBe(new Date(one.createdAt).getTime() + 30_000);
    expect(new Date(one.deliveredAt).getTime()).toBe(new Date(one.createdAt).getTime() + 30_000);
  });

  it('does not show another workspace’s notifications; a malformed token lists none', async () => {
    expect(listed(await gql(t, basicToken, NOTIFICATIONS, { token }))).toEqual([]);
    expect(listed(await gql(t, acmeToken, NOTIFICATIONS, { token: 'abc' }))).toEqual([]);
    expect(listed(await gql(t, acmeToken, NOTIFICATIONS, { token: '-'.repeat(36) }))).toEqual([]);
    expect(listed(await gql(t, supportToken, NOTIFICATIONS, { token }))).toHaveLength(3);
  });

  it('lists failed and dropped notifications newest first, with HTTP code and response; resend delivers one at once', async () => {
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: basic.workspaceId } });
    const added = await add(basicToken, { url: `${failing.url}/down`, events: ['transaction.failed'] });
    const doomed = await emitEvent(t, ws.id, 'transaction.failed');
    const [n] = await notificationsOf(t, { recordToken: doomed.recordToken });
    t.clock.advance(30_000);
    for (const [i, wait] of [60_000, 300_000, 900_000, 1_800_000].entries()) {
      await attemptsRecorded(t, n!.id, i + 1);
      t.clock.advance(wait);
    }
    await attemptsRecorded(t, n!.id, 5);
    t.clock.advance(1_000);
    const dropped = await emitEvent(t, ws.id, 'transaction.failed');
    await gql(t, basicToken, DISABLE, { id: added.webhookAddress.id });

    const res = await gql(t, basicToken, UNDELIVERED);
    const list = listed(res);
    expect(list.map((x: { recordToken: string; status: string }) => [x.recordToken, x.status])).toEqual([
      [dropped.recordToken, 'dropped'],
      [doomed.recordToken, 'failed'],
    ]);
    expect(list[1].attempts.map((a: { httpStatus: number; responseExcerpt: string }) => [a.httpStatus, a.responseExcerpt])).toEqual(Array(5).fill([503, 'ok']));
    expect(listed(await gql(t, acmeToken, UNDELIVERED))).toEqual([]);

    // Still failing: the resend is recorded and the notification stays failed.
    const failedAgain = await gql(t, basicToken, RESEND, { id: n!.id });
    expect(failedAgain.body.data.resendNotification).toMatchObject({ result: { successful: true }, errors: [], notification: { id: n!.id, status: 'failed', attemptCount: 6 } });
    failing.respondWith(200);
    const before = failing.requests.length;
    const ok = await gql(t, basicToken, RESEND, { id: n!.id });
    expect(ok.body.data.resendNotification.notification).toMatchObject({ id: n!.id, status: 'delivered', attemptCount: 7 });
    expect(ok.body.data.resendNotification.notification.attempts.map((a: { httpStatus: number }) => a.httpStatus)).toEqual([503, 503, 503, 503, 503, 503, 200]);
    expect(failing.requests).toHaveLength(before + 1);
    expect(failing.requests.at(-1)!.body).toBe(n!.body);
    // The dropped one goes too, though its address is disabled.
    const droppedId = list[0].id;
    const resent = await gql(t, basicToken, RESEND, { id: droppedId });
    expect(resent.body.data.resendNotification.notification).toMatchObject({ status: 'delivered', attemptCount: 1 });
    expect(JSON.parse(failing.requests.at(-1)!.body).id).toBe(droppedId);
    expect(listed(await gql(t, basicToken, UNDELIVERED))).toEqual([]);
    await deliveryRounds(t);
  });

  it('resend refuses pending, foreign and unknown notifications, and support tokens', async () => {
    const pay = await acme.call('regular-payment', paymentBody(acme));
    const [pending] = await notificationsOf(t, { recordToken: pay.body.transaction.token });
    const still = await gql(t, acmeToken, RESEND, { id: pending!.id });
    expect(still.body.data.resendNotification).toEqual({
      result: { successful: false },
      notification: null,
      errors: [{ kind: 'state', code: 'notification_still_pending', message: 'The notification still has attempts scheduled.', path: ['id'] }],
    });
    for (const [tok, id] of [
      [basicToken, pending!.id],
      [acmeToken, 'x'],
      [acmeToken, '-'.repeat(36)],
      [acmeToken, crypto.randomUUID()],
    ] as const) {
      const res = await gql(t, tok, RESEND, { id });
      expect(res.body.data.resendNotification.errors).toEqual([{ kind: 'not_found', code: 'notification_not_found', message: 'Notification not found.', path: ['id'] }]);
    }
    const support = await gql(t, supportToken, RESEND, { id: pending!.id });
    expect(support.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
