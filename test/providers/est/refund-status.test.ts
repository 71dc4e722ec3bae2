// A refund or cancel whose answer was lost, asked again with ORDERHISTORY: the EST connector
// against the repo's EST emulator (real HTTP on 127.0.0.1). An answer is lost with the emulator's
// controls: `slow` (the bank makes the credit, its answer comes after the client's 1 s deadline)
// or `timeout` (the bank never receives the call). The lost refund is found by counting the
// order's credits against the payment's other refunds (src/providers/lost-refund.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEstEmulator, type EstEmulator } from '../../../emulators/est/server.ts';
import { EstConnector } from '../../../src/providers/est/connector.ts';
import { orderHistory } from '../../../src/providers/est/answers.ts';
import { judgeLostRefund } from '../../../src/providers/lost-refund.ts';
import { parseEstSettings } from '../../../src/providers/est/settings.ts';
import type { CC5Response } from '../../../src/providers/est/xml.ts';
import type { ConnectorDeps } from '../../../src/providers/registry.ts';
import { ProviderTimeoutError, type OtherRefund, type RefundStatusInput } from '../../../src/providers/types.ts';

let emulator: EstEmulator;
const deps: ConnectorDeps = { now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} };
let est: EstConnector;

beforeAll(async () => {
  emulator = await startEstEmulator({ port: 0 });
  const credentials = { client_id: emulator.clientId, store_key: emulator.storeKey, api_user: emulator.apiUser, api_password: emulator.apiPassword };
  est = new EstConnector(credentials, parseEstSettings({ bank: 'akbank', environment: 'test', api_url: emulator.apiUrl, gate_url: emulator.gateUrl, timeout_ms: 1_000 }), deps);
});
afterAll(() => emulator?.stop());
beforeEach(() => emulator.behaviour.clear());

const card = { holderName: 'Ahmet Yılmaz', number: '4355084355084358', securityCode: '000', expiryMonth: '12', expiryYear: '2030' };

/** A sale of 100.00 TRY; its order id. */
async function paid(): Promise<string> {
  const res = await est.charge({ idempotencyKey: `${randomUUID()}:charge`, amount: 10_000n, currency: 'TRY', installmentNumber: 1, card });
  if (res.status !== 'succeeded') throw new Error(`sale failed: ${JSON.stringify(res)}`);
  return res.providerReference;
}

const credits = (orderId: string) => emulator.state.orders.get(orderId)!.transactions.filter((t) => t.chargeType === 'C');

/** A refund whose answer is lost: `slow`, the bank makes it anyway; `timeout`, it never gets it. */
async function lostRefund(orderId: string, amount: bigint, mode: 'slow' | 'timeout'): Promise<void> {
  const before = credits(orderId).length;
  emulator.behaviour.set({ mode, count: 1, delayMs: 1_400 });
  await expect(est.refund({ idempotencyKey: `refund:${randomUUID()}`, providerReference: orderId, amount, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  if (mode === 'slow') await expect.poll(() => credits(orderId).length, { timeout: 5_000 }).toBe(before + 1);
}

const ask = (orderId: string, amount: bigint, otherRefunds: OtherRefund[], key = `refund:${randomUUID()}`) =>
  est.refundStatus({ idempotencyKey: key, providerReference: orderId, amount, currency: 'TRY', otherRefunds });

describe('a lost refund, asked with ORDERHISTORY', () => {
  it('found: the bank lists an approved credit of its amount nobody else accounts for -> succeeded with its TransId', async () => {
    const order = await paid();
    await lostRefund(order, 2_500n, 'slow');
    expect(await ask(order, 2_500n, [])).toEqual({ status: 'succeeded', providerReference: credits(order)[0]!.transId });
  });

  it('not received: every approved credit is accounted for -> unknown', async () => {
    const order = await paid();
    await lostRefund(order, 2_500n, 'timeout');
    expect(credits(order)).toEqual([]);
    expect(await ask(order, 2_500n, [])).toEqual({ status: 'unknown' });
  });

  it('refused: the bank lists a refused credit of its amount -> declined with the bank code', async () => {
    const order = await paid();
    // More than the sale: the bank refuses it and keeps it in the history (C, D, 99).
    expect(await est.refund({ idempotencyKey: 'refund:x', providerReference: order, amount: 20_000n, currency: 'TRY' })).toMatchObject({ status: 'declined' });
    expect(await ask(order, 20_000n, [])).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '99' });
    // Once the gateway has that refusal recorded, nothing of that amount is left unexplained: never received.
    expect(await ask(order, 20_000n, [{ amount: 20_000n, status: 'declined' }])).toEqual({ status: 'unknown' });
  });

  it('two refunds of one amount, the second lost: counted against the recorded first', async () => {
    const order = await paid();
    expect(await est.refund({ idempotencyKey: 'refund:1', providerReference: order, amount: 1_000n, currency: 'TRY' })).toMatchObject({ status: 'succeeded' });
    const first: OtherRefund = { amount: 1_000n, status: 'succeeded' };
    // The second never reached the bank: the one credit is the first's.
    await lostRefund(order, 1_000n, 'timeout');
    expect(await ask(order, 1_000n, [first])).toEqual({ status: 'unknown' });
    // Sent again and this time made (answer lost): two credits, one recorded.
    await lostRefund(order, 1_000n, 'slow');
    expect(await ask(order, 1_000n, [first])).toMatchObject({ status: 'succeeded' });
  });

  it('two lost refunds of one amount, one made: the earlier takes it, the later waits, then is not received', async () => {
    const order = await paid();
    await lostRefund(order, 1_500n, 'slow');
    await lostRefund(order, 1_500n, 'timeout');
    expect(await ask(order, 1_500n, [])).toMatchObject({ status: 'succeeded' });
    await expect(ask(order, 1_500n, [{ amount: 1_500n, status: 'pending' }])).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await ask(order, 1_500n, [{ amount: 1_500n, status: 'succeeded' }])).toEqual({ status: 'unknown' });
  });

  it('an approved credit of another amount nobody accounts for: ambiguous, asked again later', async () => {
    const order = await paid();
    await lostRefund(order, 700n, 'slow');
    await expect(ask(order, 300n, [])).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await ask(order, 300n, [{ amount: 700n, status: 'succeeded' }])).toEqual({ status: 'unknown' });
  });

  it('cannot count without the amounts (a caller that gives none): asked again later', async () => {
    const order = await paid();
    await expect(est.refundStatus({ idempotencyKey: 'refund:r', providerReference: order })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('asks ORDERHISTORY by the order id, nothing else', async () => {
    const order = await paid();
    const seen: string[] = [];
    const logging = new EstConnector(
      { client_id: emulator.clientId, store_key: emulator.storeKey, api_user: emulator.apiUser, api_password: emulator.apiPassword },
      parseEstSettings({ bank: 'akbank', environment: 'test', api_url: emulator.apiUrl, gate_url: emulator.gateUrl, timeout_ms: 1_000 }),
      { ...deps, log: (_m, fields) => seen.push(JSON.stringify(fields.request)) },
    );
    await logging.refundStatus({ idempotencyKey: 'refund:r', providerReference: order, amount: 1n, currency: 'TRY', otherRefunds: [] });
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]!)).toEqual({ Name: emulator.apiUser, Password: '[redacted]', ClientId: emulator.clientId, OrderId: order, Extra: { ORDERHISTORY: 'QUERY' } });
  });
});

describe('a lost cancel, asked with ORDERHISTORY', () => {
  const cancelStatus = (order: string): Promise<unknown> => est.refundStatus({ idempotencyKey: 'cancel:c1', providerReference: order, amount: 10_000n, currency: 'TRY', otherRefunds: [] });

  it('the sale voided -> succeeded; the sale standing -> unknown', async () => {
    const voided = await paid();
    emulator.behaviour.set({ mode: 'slow', count: 1, delayMs: 1_400 });
    await expect(est.cancel({ idempotencyKey: 'cancel:c1', providerReference: voided })).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect.poll(() => emulator.state.orders.get(voided)!.transactions[0]!.status, { timeout: 5_000 }).toBe('V');
    expect(await cancelStatus(voided)).toEqual({ status: 'succeeded', providerReference: voided });

    const standing = await paid();
    emulator.behaviour.set({ mode: 'timeout', count: 1 });
    await expect(est.cancel({ idempotencyKey: 'cancel:c2', providerReference: standing })).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await cancelStatus(standing)).toEqual({ status: 'unknown' });
  });
});

describe('ORDERHISTORY answers read as an order history', () => {
  // Vector from mewebstudio/pos tests/Unit/DataMapper/ResponseDataMapper/EstPosResponseDataMapperTest.php
  // (orderHistoryTestDataProvider, 'success_cancel_success_refund_fail'): a voided sale, then a refused credit.
  const voidedThenRefused: CC5Response = {
    fields: { ErrMsg: '', ProcReturnCode: '00', Response: 'Approved', OrderId: '20240102D8F1' },
    extra: {
      TERMINALID: '00655020',
      MERCHANTID: '655000200',
      NUMCODE: '0',
      TRX1: 'C\tD\t100\t100\t2024-01-02 21:53:02.486\t2024-01-02 21:53:02.486\t\t\t\t99\t24002V3CG19993',
      TRX2: 'S\tV\t101\t101\t2024-01-02 21:52:59.261\t2024-01-02 21:52:59.261\t2024-01-02 21:53:01.297\t400200744059\tP78955\t00\t24002V29G19979',
      TRXCOUNT: '2',
    },
  };

  it('reads the sale voided and the credit refused (mewebstudio/pos success_cancel_success_refund_fail)', () => {
    expect(orderHistory(voidedThenRefused, '20240102D8F1')).toEqual({
      credits: [{ amount: 100n, state: 'refused', code: '99', reference: '24002V3CG19993' }],
      sale: 'voided',
      complete: true,
    });
  });

  it('is incomplete when fewer lines came than TRXCOUNT says, and says nothing about another order', () => {
    const { TRX2: _dropped, ...cut } = voidedThenRefused.extra;
    expect(orderHistory({ ...voidedThenRefused, extra: cut }, '20240102D8F1')).toMatchObject({ complete: false });
    expect(orderHistory(voidedThenRefused, 'another')).toBe('retry');
  });

  it('an order the bank does not know is not read (mewebstudio/pos fail1: "No record found", 05)', () => {
    const fail1: CC5Response = { fields: { ErrMsg: 'No record found for 20221030B3FF2', ProcReturnCode: '05', Response: 'Declined', OrderId: '20221030B3FF2' }, extra: { NUMCODE: '0', TRXCOUNT: '0' } };
    expect(orderHistory(fail1, '20221030B3FF2')).toBe('retry');
  });

  it('a refund of the voided order is judged declined from that history', () => {
    const input: RefundStatusInput = { idempotencyKey: 'refund:r', providerReference: '20240102D8F1', amount: 100n, currency: 'TRY', otherRefunds: [] };
    const history = orderHistory(voidedThenRefused, '20240102D8F1');
    if (history === 'retry') throw new Error('unread');
    expect(judgeLostRefund(input, history)).toEqual({ kind: 'declined', credit: expect.objectContaining({ code: '99' }) });
  });
});
