// `gateway webhooks …` as an operator runs it, on the gateway's database (in-process: runCli), while
// a running gateway delivers to the addresses the CLI configured.
import { describe, expect, it } from 'vitest';
import { useGateway } from './helpers/fixture.ts';
import { cliOn } from './helpers/cli.ts';
import { msg, type MessageCode } from './helpers/messages.ts';
import { deliveryRounds, emitEvent, notificationsOf } from './helpers/webhooks.ts';
import type { webhookJson } from '../src/cli/webhooks.ts';
import { signTimestamped, verifyWebhook } from '../src/domain/signatures.ts';

const gw = useGateway({ receiver: true });
const { t, receiver } = gw;
const cli = cliOn(t);
const cliJson = cli.json;
const cliFails = cli.fails;

/** A domain error as the CLI prints it: the Turkish and the English message. */
const both = (code: MessageCode) => `${msg(code)} / ${msg(code, {}, 'en')}`;

type WebhookOut = ReturnType<typeof webhookJson>;

describe('gateway webhooks CLI', { timeout: 120_000 }, () => {
  it('add, list, disable, enable and delete round-trip', async () => {
    await gw.seed({ slug: 'hooks' });
    const added = await cliJson<WebhookOut>('webhooks', 'add', 'hooks', 'https://Shop.Example', '--events', 'transaction.successful, order.paid');
    expect(added).toMatchObject({ url: 'https://shop.example/', enabled: true, all_events: false, events: ['transaction.successful', 'order.paid'] });
    const all = await cliJson<WebhookOut>('webhooks', 'add', 'hooks', 'https://shop.example/all', '--events', 'all');
    expect(all).toMatchObject({ all_events: true, events: [] });

    expect((await cliJson<WebhookOut[]>('webhooks', 'list', 'hooks')).map((a) => a.url)).toEqual(['https://shop.example/', 'https://shop.example/all']);
    const text = await cli.run(['webhooks', 'list', 'hooks']);
    expect(text.stdout).toContain('https://shop.example/  enabled  events=transaction.successful,order.paid');
    expect(text.stdout).toContain('https://shop.example/all  enabled  events=all');

    // Found by the spelling given when it was added, too.
    expect((await cliJson<WebhookOut>('webhooks', 'disable', 'hooks', 'https://Shop.Example')).enabled).toBe(false);
    expect((await cli.run(['webhooks', 'list', 'hooks'])).stdout).toContain('https://shop.example/  disabled');
    expect((await cliJson<WebhookOut>('webhooks', 'enable', 'hooks', 'https://shop.example/')).enabled).toBe(true);

    const deleted = await cli.run(['webhooks', 'delete', 'hooks', 'https://shop.example/all']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain('Webhook https://shop.example/all deleted from "hooks".');
    expect((await cliJson<WebhookOut[]>('webhooks', 'list', 'hooks')).map((a) => a.url)).toEqual(['https://shop.example/']);
    await cliFails(['webhooks', 'delete', 'hooks', 'https://shop.example/all'], both('webhook_not_found'));
    expect((await cli.run(['webhooks', 'list', 'nobody'])).stderr).toContain('No workspace "nobody"');
  });

  it('an address added by the CLI gets signed notifications from the gateway; disabling drops queued ones', async () => {
    const m = await gw.seed({ slug: 'deliver' });
    const url = `${receiver.url}/hooks/gateway?source=cli`;
    await cliJson<WebhookOut>('webhooks', 'add', 'deliver', url, '--events', 'transaction.successful');

    const first = await emitEvent(t, m.workspaceId, 'transaction.successful');
    await emitEvent(t, m.workspaceId, 'transaction.failed'); // not selected: no notification
    t.clock.advance(30_000);
    const [req] = await receiver.waitFor(1, 20_000);
    expect(JSON.parse(req!.body)).toMatchObject({ event: 'transaction.successful', transaction: { token: first.recordToken } });
    const headers = { timestamp: String(req!.headers['x-timestamp']), signature: String(req!.headers['x-signature']) };
    expect(verifyWebhook({ secret: m.apiSecret, ...headers, path: '/hooks/gateway', rawBody: req!.body, now: t.clock.now() })).toBe(true);

    // Queued, then the address is disabled before it is due: it is dropped, never sent.
    const queued = await emitEvent(t, m.workspaceId, 'transaction.successful');
    const disabled = await cli.run(['webhooks', 'disable', 'deliver', url]);
    expect(disabled.stdout).toContain('disabled in "deliver"; notifications queued for it were dropped.');
    t.clock.advance(30_000);
    await deliveryRounds(t, 2);
    expect(receiver.requests).toHaveLength(1);
    const [dropped] = await notificationsOf(t, { recordToken: queued.recordToken });
    expect(dropped!.status).toBe('dropped');
    expect(dropped!.attempts).toHaveLength(0);

    // Enabled again: new events are delivered, the dropped one stays dropped.
    await cliJson<WebhookOut>('webhooks', 'enable', 'deliver', url);
    const later = await emitEvent(t, m.workspaceId, 'transaction.successful');
    t.clock.advance(30_000);
    const [, again] = await receiver.waitFor(2, 20_000);
    expect(JSON.parse(again!.body).transaction).toEqual({ token: later.recordToken });
    expect((await notificationsOf(t, { recordToken: queued.recordToken }))[0]!.status).toBe('dropped');
  });

  it('add prints the signing secret once; rotate-secret signs with both secrets during the overlap; test sends a signed sample now', async () => {
    const m = await gw.seed({ slug: 'secrets' });
    const url = `${receiver.url}/hooks/secrets`;
    const added = await cliJson<WebhookOut & { signing_secret: string }>('webhooks', 'add', 'secrets', url, '--events', 'transaction.successful');
    expect(added).toMatchObject({ signing_secret_set: true, signing_secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/) });
    expect(JSON.stringify(await cliJson('webhooks', 'list', 'secrets'))).not.toContain(added.signing_secret);

    const rotated = await cli.run(['webhooks', 'rotate-secret', 'secrets', url, '--overlap-hours', '1']);
    expect(rotated.code).toBe(0);
    const second = /signing secret: (whsec_[0-9a-f]{64})/.exec(rotated.stdout)?.[1];
    expect(second).toBeDefined();
    expect(rotated.stdout).toContain('the previous secret signs too until');
    expect(rotated.stdout).toContain('it is not shown again');

    const before = receiver.requests.length;
    await emitEvent(t, m.workspaceId, 'transaction.successful');
    t.clock.advance(30_000);
    const req = (await receiver.waitFor(before + 1, 20_000))[before]!;
    const ts = String(req.headers['x-timestamp']);
    const v1 = (secret: string) => `v1=${signTimestamped(secret, ts, 'POST', '/hooks/secrets', req.body)}`;
    expect(req.headers['x-webhook-signature']).toBe(`t=${ts},${v1(second!)},${v1(added.signing_secret)}`);

    const sent = await cli.run(['webhooks', 'test', 'secrets', url]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^Test transaction\.successful sent to .*\/hooks\/secrets: HTTP 200 in \d+ ms/);
    const test = receiver.requests.at(-1)!;
    expect(JSON.parse(test.body)).toMatchObject({ event: 'transaction.successful', transaction: { token: '00000000-0000-0000-0000-000000000000' } });
    expect(test.headers['x-webhook-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);

    receiver.respondWith(503);
    const refused = await cli.run(['webhooks', 'test', 'secrets', url]);
    receiver.respondWith(200);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The receiver did not accept the test: HTTP 503');
    await cliFails(['webhooks', 'test', 'secrets', url, '--event', 'order.paid'], both('webhook_test_event_invalid'));
    await cliFails(['webhooks', 'rotate-secret', 'secrets', url, '--overlap-hours', '169'], both('webhook_overlap_range'));
    await cliFails(['webhooks', 'rotate-secret', 'secrets', url, '--overlap-hours', 'soon'], 'Not a whole number of hours: "soon"');
  });

  it('domain rules print the Turkish and English message and exit 1', async () => {
    await gw.seed({ slug: 'rules', plan: { orders: false, savedCards: true, subscriptions: false, paymentLinks: false, payByLink: false } });
    await cliJson<WebhookOut>('webhooks', 'add', 'rules', 'https://rules.example/hooks', '--events', 'all');
    await cliFails(['webhooks', 'add', 'rules', 'https://rules.example/hooks', '--events', 'transaction.failed'], both('webhook_url_exists'));
    // order.* is a known kind, but the workspace's plan does not cover orders.
    await cliFails(['webhooks', 'add', 'rules', 'https://rules.example/orders', '--events', 'order.paid'], both('webhook_event_unknown'));
    await cliFails(['webhooks', 'add', 'rules', 'ftp://rules.example/x', '--events', 'all'], both('webhook_url_invalid'));
    // Local receivers are for development: with NODE_ENV=production they are refused.
    await cliFails(['webhooks', 'add', 'rules', 'http://127.0.0.1:8080/hooks', '--events', 'all'], both('webhook_url_invalid'), { NODE_ENV: 'production' });
    await cliFails(['webhooks', 'add', 'rules', 'https://127.0.0.1/hooks', '--events', 'all'], both('webhook_url_invalid'), { NODE_ENV: 'production' });
    expect((await cliJson<WebhookOut[]>('webhooks', 'list', 'rules')).map((a) => a.url)).toEqual(['https://rules.example/hooks']);
  });

  it.each([
    ['an unknown event kind', ['webhooks', 'add', 'rules', 'https://x.example/', '--events', 'transaction.succeeded'], 'Unknown event "transaction.succeeded" (expected order.paid,'],
    ['an empty event list', ['webhooks', 'add', 'rules', 'https://x.example/', '--events', ' , '], 'No event given'],
    ['an unknown workspace', ['webhooks', 'add', 'nope', 'https://x.example/', '--events', 'all'], 'No workspace "nope"'],
    ['an unknown address', ['webhooks', 'disable', 'rules', 'https://never.example/'], both('webhook_not_found')],
  ])('%s exits 1 with a one-line message', async (_name, args, message) => {
    await cliFails(args, message);
  });

  it('add without --events is refused before touching the database', async () => {
    const res = await cli.run(['webhooks', 'add', 'rules', 'https://x.example/']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("required option '--events <list>' not specified");
  });
});
