// iyzico's merchant notifications from the emulator: one signed JSON POST per payment attempt,
// retried while the merchant does not answer 2xx.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIyzicoEmulator, type IyzicoEmulator } from '../../emulators/iyzico/server.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { iyzipay, paymentRequest, type IyziClient } from './iyzipay-client.ts';

let emulator: IyzicoEmulator;
let merchant: Receiver;
let client: IyziClient;

beforeAll(async () => {
  merchant = await startReceiver();
  emulator = await startIyzicoEmulator({ webhookUrl: `${merchant.url}/iyzico/webhook`, webhookRetryMs: 50, merchantId: '424242' });
  client = iyzipay({ apiKey: emulator.apiKey, secretKey: emulator.secretKey, uri: emulator.url });
});

afterAll(async () => {
  await emulator?.close();
  await merchant?.close();
});

/** The documented Direct-format check, written from iyzico's webhook page. */
const v3 = (body: Record<string, unknown>) =>
  createHmac('sha256', emulator.secretKey)
    .update(emulator.secretKey + String(body.iyziEventType) + String(body.paymentId) + String(body.paymentConversationId) + String(body.status))
    .digest('hex');

it('notifies a successful and a declined payment, signed with X-IYZ-SIGNATURE-V3', async () => {
  const paid = await client.call('payment', 'create', paymentRequest('5528790000000008', { conversationId: 'wh-ok' }));
  const declined = await client.call('payment', 'create', paymentRequest('4111111111111129', { conversationId: 'wh-declined' }));
  expect(paid.status).toBe('success');
  expect(declined.status).toBe('failure');
  const [ok, failed] = await merchant.waitFor(2);
  for (const r of [ok, failed]) {
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/iyzico/webhook');
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.headers['x-iyz-signature-v3']).toBe(v3(JSON.parse(r.body)));
  }
  expect(JSON.parse(ok.body)).toMatchObject({ paymentConversationId: 'wh-ok', paymentId: Number(paid.paymentId), status: 'SUCCESS', iyziEventType: 'API_AUTH', merchantId: 424242 });
  expect(JSON.parse(failed.body)).toMatchObject({ paymentConversationId: 'wh-declined', status: 'FAILURE', iyziEventType: 'API_AUTH' });
});

it('retries while the merchant answers 500, three attempts in all', async () => {
  const before = merchant.requests.length;
  merchant.respondWith(500);
  await client.call('payment', 'create', paymentRequest('5528790000000008', { conversationId: 'wh-retry' }));
  await merchant.waitFor(before + 3);
  await new Promise((r) => setTimeout(r, 300));
  expect(merchant.requests.length).toBe(before + 3);
  const delivery = emulator.webhooks.find((d) => d.status === 'SUCCESS' && d.attempts === 3);
  expect(delivery).toMatchObject({ delivered: false, lastHttpStatus: 500 });
  merchant.respondWith(200);
});
