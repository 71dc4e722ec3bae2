// An address's own signing secret and "send test event", over the dashboard's GraphQL with bearer
// tokens of each role, against a real receiver on 127.0.0.1: the secret shown once and stored
// encrypted, X-Webhook-Signature beside the unchanged X-Signature (checked with the verifier code
// block of docs/webhooks.md), rotation with an overlap on the gateway's manual clock, the role
// table and the audit trail, and test events that reach the receiver but are no notification.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { startReceiver, type ReceivedRequest, type Receiver } from '../helpers/receiver.ts';
import { emitEvent, gql } from '../helpers/webhooks.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { signTimestamped } from '../../src/domain/signatures.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NIL = '00000000-0000-0000-0000-000000000000';
const HOUR = 3_600_000;

type Verify = (input: { header: unknown; secret: string; path: string; rawBody: string; now?: Date }) => boolean;

let t: TestGateway;
let acme: Merchant;
let receiver: Receiver;
let verifyDoc: Verify;
let tmp: string;
const tokens: Record<string, string> = {};

const ERRORS = 'errors { kind code message path }';
const ADDRESS = 'id url signingSecretSet secretRotatedAt previousSecretUntil';
const ADD = `mutation ($input: AddWebhookAddressInput!) { addWebhookAddress(input: $input) { signingSecret webhookAddress { ${ADDRESS} } ${ERRORS} } }`;
const ROTATE = `mutation ($id: ID!, $overlapHours: Int) { rotateWebhookSecret(id: $id, overlapHours: $overlapHours) { result { successful } signingSecret webhookAddress { ${ADDRESS} } ${ERRORS} } }`;
const TEST = `mutation ($id: ID!, $event: String) { sendTestWebhook(id: $id, event: $event) { result { successful } test { event url body sentAt httpStatus durationMs responseExcerpt error delivered } ${ERRORS} } }`;

/** The verifier code block of docs/webhooks.md, written to a file and imported as a reader would. */
async function docVerifier(): Promise<Verify> {
  const doc = readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8');
  const code = /```js\n(\/\/ verify-webhook-signature\.mjs[\s\S]*?)```/.exec(doc)?.[1];
  if (!code) throw new Error('docs/webhooks.md: the verifier block is missing');
  tmp = mkdtempSync(path.join(tmpdir(), 'verify-doc-'));
  const file = path.join(tmp, 'verify-webhook-signature.mjs');
  writeFileSync(file, code);
  return ((await import(/* @vite-ignore */ pathToFileURL(file).href)) as { verifyWebhookSignature: Verify }).verifyWebhookSignature;
}

beforeAll(async () => {
  t = await startTestGateway();
  acme = await seedWorkspace(t, { slug: 'acme' });
  for (const role of ['owner', 'developer', 'operator', 'viewer'] as const) {
    tokens[role] = await createAccessToken(t.gateway.services.db, 'acme', `${role} token`, { role });
  }
  receiver = await startReceiver();
  verifyDoc = await docVerifier();
});
afterAll(async () => {
  await receiver?.close();
  await t?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function addAddress(name: string, input: Record<string, unknown> = { allEvents: true }) {
  const res = await gql(t, tokens.developer!, ADD, { input: { url: `${receiver.url}/${name}`, ...input } });
  expect(res.body.data.addWebhookAddress.errors).toEqual([]);
  return res.body.data.addWebhookAddress as { signingSecret: string; webhookAddress: { id: string; url: string } };
}

/** Records one event, moves the clock to its first attempt and returns the request the receiver got. */
async function deliverOne(): Promise<ReceivedRequest> {
  const before = receiver.requests.length;
  await emitEvent(t, acme.workspaceId, 'transaction.successful');
  t.clock.advance(30_000);
  const got = await receiver.waitFor(before + 1, 20_000);
  return got[before]!;
}

/** v1 values of X-Webhook-Signature. */
const v1s = (r: ReceivedRequest) => String(r.headers['x-webhook-signature']).split(',').filter((p) => p.startsWith('v1='));
const verifies = (r: ReceivedRequest, secret: string, now = t.clock.now()) =>
  verifyDoc({ header: r.headers['x-webhook-signature'], secret, path: new URL(r.path, 'http://x').pathname, rawBody: r.body, now });

describe('the signing secret', () => {
  let id: string;
  let first: string;

  it('is made with the address, shown once, and stored encrypted', async () => {
    const added = await addAddress('hooks/one');
    id = added.webhookAddress.id;
    first = added.signingSecret;
    expect(first).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(added.webhookAddress).toMatchObject({ signingSecretSet: true, secretRotatedAt: null, previousSecretUntil: null });
    const list = await gql(t, tokens.developer!, '{ webhookAddresses { id signingSecretSet } }');
    expect(JSON.stringify(list.body)).not.toContain(first);
    const row = await t.gateway.services.db.webhookAddress.findUniqueOrThrow({ where: { id } });
    expect(row.signingSecretEncrypted).toMatch(/^v1:/);
    expect(row.signingSecretEncrypted).not.toContain(first.slice(6));
  });

  it('signs every notification in X-Webhook-Signature; X-Signature stays the API secret’s', async () => {
    const r = await deliverOne();
    const ts = r.headers['x-timestamp'] as string;
    expect(r.headers['x-signature']).toBe(signTimestamped(acme.apiSecret, ts, 'POST', '/hooks/one', r.body));
    expect(r.headers['x-webhook-signature']).toMatch(new RegExp(`^t=${ts},v1=[0-9a-f]{64}$`));
    expect(verifies(r, first)).toBe(true);
    expect(verifies(r, acme.apiSecret)).toBe(false);
    expect(verifyDoc({ header: r.headers['x-webhook-signature'], secret: first, path: '/hooks/other', rawBody: r.body, now: t.clock.now() })).toBe(false);
    expect(verifyDoc({ header: r.headers['x-webhook-signature'], secret: first, path: '/hooks/one', rawBody: `${r.body} `, now: t.clock.now() })).toBe(false);
    expect(verifies(r, first, new Date(t.clock.now().getTime() + 301_000))).toBe(false);
  });

  it('after a rotation both secrets sign during the overlap, and only the new one after it', async () => {
    const res = await gql(t, tokens.developer!, ROTATE, { id, overlapHours: 2 });
    const rotated = res.body.data.rotateWebhookSecret;
    expect(rotated.errors).toEqual([]);
    const second = rotated.signingSecret as string;
    expect(second).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(second).not.toBe(first);
    const now = t.clock.now().getTime();
    expect(new Date(rotated.webhookAddress.secretRotatedAt).getTime()).toBe(now);
    expect(new Date(rotated.webhookAddress.previousSecretUntil).getTime()).toBe(now + 2 * HOUR);

    const during = await deliverOne();
    expect(v1s(during)).toHaveLength(2);
    expect(verifies(during, second)).toBe(true);
    expect(verifies(during, first)).toBe(true);

    t.clock.advance(2 * HOUR);
    const after = await deliverOne();
    expect(v1s(after)).toHaveLength(1);
    expect(verifies(after, second)).toBe(true);
    expect(verifies(after, first)).toBe(false);
  });

  it('overlap 0 stops the previous secret at once; a second rotation keeps only the two newest', async () => {
    const a = (await gql(t, tokens.owner!, ROTATE, { id })).body.data.rotateWebhookSecret.signingSecret as string;
    const b = (await gql(t, tokens.owner!, ROTATE, { id })).body.data.rotateWebhookSecret.signingSecret as string;
    const both = await deliverOne();
    expect([verifies(both, a), verifies(both, b), v1s(both).length]).toEqual([true, true, 2]);
    const c = (await gql(t, tokens.owner!, ROTATE, { id, overlapHours: 0 })).body.data.rotateWebhookSecret;
    expect(c.webhookAddress.previousSecretUntil).toBeNull();
    const only = await deliverOne();
    expect([verifies(only, c.signingSecret), verifies(only, b), v1s(only).length]).toEqual([true, false, 1]);
  });

  it('refuses an overlap out of bounds by its field, changing nothing', async () => {
    const before = await t.gateway.services.db.webhookAddress.findUniqueOrThrow({ where: { id } });
    for (const overlapHours of [-1, 169, 100_000]) {
      const res = await gql(t, tokens.developer!, ROTATE, { id, overlapHours });
      expect(res.body.data.rotateWebhookSecret).toMatchObject({
        signingSecret: null,
        webhookAddress: null,
        errors: [{ kind: 'validation', code: 'webhook_overlap_range', message: 'The overlap must be a whole number of hours from 0 to 168.', path: ['overlapHours'] }],
      });
    }
    const unknown = await gql(t, tokens.developer!, ROTATE, { id: crypto.randomUUID() });
    expect(unknown.body.data.rotateWebhookSecret.errors[0]).toMatchObject({ kind: 'not_found', code: 'webhook_not_found', path: ['id'] });
    const after = await t.gateway.services.db.webhookAddress.findUniqueOrThrow({ where: { id } });
    expect(after.signingSecretEncrypted).toBe(before.signingSecretEncrypted);
  });

  it('gives an address made without a secret its first one', async () => {
    const bare = await t.gateway.services.db.webhookAddress.create({ data: { workspaceId: acme.workspaceId, url: `${receiver.url}/bare`, events: ['order.paid'] } });
    const sent = await gql(t, tokens.developer!, TEST, { id: bare.id });
    const got = receiver.requests.at(-1)!;
    expect(sent.body.data.sendTestWebhook.test.delivered).toBe(true);
    expect(got.headers['x-webhook-signature']).toBeUndefined();
    const res = await gql(t, tokens.developer!, ROTATE, { id: bare.id, overlapHours: 5 });
    expect(res.body.data.rotateWebhookSecret.webhookAddress).toMatchObject({ signingSecretSet: true, previousSecretUntil: null });
  });
});

describe('send test event', () => {
  let id: string;
  let secret: string;

  beforeAll(async () => {
    const added = await addAddress('hooks/test?src=gw', { events: ['order.paid', 'transaction.failed'] });
    id = added.webhookAddress.id;
    secret = added.signingSecret;
  });

  it('POSTs a signed sample of the kind now, with the headers of a real delivery, and shows the answer', async () => {
    const notificationsBefore = await t.gateway.services.db.notification.count();
    receiver.respondWith(202, 40);
    const res = await gql(t, tokens.developer!, TEST, { id, event: 'order.paid' });
    receiver.respondWith(200);
    const test = res.body.data.sendTestWebhook.test;
    expect(res.body.data.sendTestWebhook.errors).toEqual([]);
    expect(test).toMatchObject({ event: 'order.paid', url: `${receiver.url}/hooks/test?src=gw`, httpStatus: 202, responseExcerpt: 'ok', error: null, delivered: true });
    expect(test.durationMs).toBeGreaterThanOrEqual(40);
    const got = receiver.requests.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', path: '/hooks/test?src=gw', body: test.body });
    const body = JSON.parse(got.body);
    expect(Object.keys(body)).toEqual(['id', 'event', 'created_at', 'order', 'transaction']);
    expect(body).toMatchObject({ event: 'order.paid', order: { token: NIL }, transaction: { token: NIL } });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.created_at).getTime()).toBe(t.clock.now().getTime());
    expect(Object.keys(got.headers).filter((h) => h.startsWith('x-') || h === 'content-type' || h === 'user-agent').sort()).toEqual(['content-type', 'user-agent', 'x-signature', 'x-timestamp', 'x-webhook-signature']);
    const ts = got.headers['x-timestamp'] as string;
    expect(ts).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(got.headers['x-signature']).toBe(signTimestamped(acme.apiSecret, ts, 'POST', '/hooks/test', got.body));
    expect(verifies(got, secret)).toBe(true);
    // Not a delivery of an event: no notification was written.
    expect(await t.gateway.services.db.notification.count()).toBe(notificationsBefore);
  });

  it('defaults to the first kind the address gets, in the catalog’s order; a failing receiver is shown as such', async () => {
    receiver.respondWith(500);
    const res = await gql(t, tokens.owner!, TEST, { id });
    receiver.respondWith(200);
    expect(res.body.data.sendTestWebhook.test).toMatchObject({ event: 'order.paid', httpStatus: 500, delivered: false });
    expect(JSON.parse(receiver.requests.at(-1)!.body)).toMatchObject({ event: 'order.paid', order: { token: NIL } });
    const failed = await gql(t, tokens.owner!, TEST, { id, event: 'transaction.failed' });
    expect(JSON.parse(failed.body.data.sendTestWebhook.test.body)).toEqual({ id: expect.any(String), event: 'transaction.failed', created_at: expect.any(String), transaction: { token: NIL } });
  });

  it('refuses a kind the address does not get, by its field, sending nothing', async () => {
    const before = receiver.requests.length;
    for (const event of ['subscription.active', 'nonsense']) {
      const res = await gql(t, tokens.developer!, TEST, { id, event });
      expect(res.body.data.sendTestWebhook).toMatchObject({ test: null, errors: [{ kind: 'validation', code: 'webhook_test_event_invalid', path: ['event'] }] });
    }
    expect(receiver.requests.length).toBe(before);
  });
});

describe('who may rotate and send, and the audit trail', () => {
  let id: string;
  beforeAll(async () => {
    id = (await addAddress('hooks/roles')).webhookAddress.id;
  });

  it.each([
    ['owner', true],
    ['developer', true],
    ['operator', false],
    ['viewer', false],
  ] as const)('%s: allowed %s', async (role, allowed) => {
    const db = t.gateway.services.db;
    const before = await db.webhookAddress.findUniqueOrThrow({ where: { id } });
    const requests = receiver.requests.length;
    const rotate = await gql(t, tokens[role]!, ROTATE, { id, overlapHours: 1 });
    const test = await gql(t, tokens[role]!, TEST, { id, event: 'order.paid' });
    const after = await db.webhookAddress.findUniqueOrThrow({ where: { id } });
    const entries = await db.auditEntry.findMany({ where: { tokenName: `${role} token`, operation: { in: ['rotateWebhookSecret', 'sendTestWebhook'] } }, orderBy: { createdAt: 'asc' } });
    const last = entries.slice(-2);
    if (allowed) {
      expect(rotate.body.data.rotateWebhookSecret.result.successful).toBe(true);
      expect(test.body.data.sendTestWebhook.test.delivered).toBe(true);
      expect(after.signingSecretEncrypted).not.toBe(before.signingSecretEncrypted);
      expect(receiver.requests.length).toBe(requests + 1);
    } else {
      for (const res of [rotate, test]) expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(after.signingSecretEncrypted).toBe(before.signingSecretEncrypted);
      expect(receiver.requests.length).toBe(requests);
    }
    expect(last.map((e) => [e.operation, e.outcome, e.role])).toEqual([
      ['rotateWebhookSecret', allowed ? 'done' : 'forbidden', role],
      ['sendTestWebhook', allowed ? 'done' : 'forbidden', role],
    ]);
    expect(last.map((e) => e.variables)).toEqual([
      { id, overlapHours: 1 },
      { id, event: 'order.paid' },
    ]);
    const secret = rotate.body.data?.rotateWebhookSecret?.signingSecret;
    if (secret) expect(JSON.stringify(await db.auditEntry.findMany())).not.toContain(secret);
  });
});
