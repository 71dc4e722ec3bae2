// A refund or void whose answer was lost, asked again with orderhistoryinq: the Garanti connector
// against the repo's GVP emulator (real HTTP on 127.0.0.1). An answer is lost with the emulator's
// controls: `slow` (GVP makes the refund, its answer comes after the client's 1 s deadline) or
// `timeout` (GVP never receives the call). The lost refund is found by counting the order's
// refunds against the payment's other refunds (src/providers/lost-refund.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGarantiEmulator, type GarantiEmulator } from '../../../emulators/garanti/server.ts';
import { orderHistoryOf } from '../../../src/providers/garanti/answers.ts';
import { GarantiConnector } from '../../../src/providers/garanti/connector.ts';
import { garantiSettingsSchema, type GarantiCredentials } from '../../../src/providers/garanti/settings.ts';
import { parseGvpsResponse, type XmlTree } from '../../../src/providers/garanti/xml.ts';
import { judgeLostRefund } from '../../../src/providers/lost-refund.ts';
import type { ConnectorDeps } from '../../../src/providers/registry.ts';
import { ProviderTimeoutError, type OtherRefund } from '../../../src/providers/types.ts';

let emulator: GarantiEmulator;
const requests: unknown[] = [];
const deps: ConnectorDeps = { now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: (_m, fields) => requests.push(fields.request) };
let gvp: GarantiConnector;

beforeAll(async () => {
  emulator = await startGarantiEmulator({ port: 0 });
  const credentials: GarantiCredentials = {
    merchant_id: emulator.merchantId,
    terminal_id: emulator.terminalId,
    provision_user: emulator.provisionUser,
    provision_password: emulator.provisionPassword,
    refund_user: emulator.refundUser,
    refund_password: emulator.refundPassword,
    store_key: emulator.storeKey,
  };
  gvp = new GarantiConnector(credentials, garantiSettingsSchema.parse({ gate_url: emulator.gateUrl, api_url: emulator.apiUrl, timeout_ms: 1_000 }), deps);
});
afterAll(() => emulator?.stop());
beforeEach(() => {
  emulator.behaviour.clear();
  requests.length = 0;
});

const card = { holderName: 'Ayşe Yılmaz', number: '4282209027132016', securityCode: '358', expiryMonth: '05', expiryYear: '2030' };

/** A sale of 100.00 TRY; its provider reference ("<orderid>:<retrefnum>"). */
async function paid(): Promise<string> {
  const res = await gvp.charge({ idempotencyKey: `${randomUUID()}:charge`, amount: 10_000n, currency: 'TRY', installmentNumber: 1, card });
  if (res.status !== 'succeeded') throw new Error(`sale failed: ${JSON.stringify(res)}`);
  return res.providerReference;
}

const refundsOf = (reference: string) => emulator.state.orders.get(reference.split(':')[0]!)!.txns.filter((t) => t.type === 'refund');

/** A refund whose answer is lost: `slow`, GVP makes it anyway; `timeout`, it never gets it. */
async function lostRefund(reference: string, amount: bigint, mode: 'slow' | 'timeout'): Promise<void> {
  const before = refundsOf(reference).length;
  emulator.behaviour.set({ mode, count: 1, delayMs: 1_400 });
  await expect(gvp.refund({ idempotencyKey: `refund:${randomUUID()}`, providerReference: reference, amount, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  if (mode === 'slow') await expect.poll(() => refundsOf(reference).length, { timeout: 5_000 }).toBe(before + 1);
}

const ask = (reference: string, amount: bigint, otherRefunds: OtherRefund[]) =>
  gvp.refundStatus({ idempotencyKey: `refund:${randomUUID()}`, providerReference: reference, amount, currency: 'TRY', otherRefunds });

describe('a lost refund, asked with orderhistoryinq', () => {
  it('found: GVP lists an approved refund of its amount nobody else accounts for -> succeeded with its RetrefNum', async () => {
    const ref = await paid();
    await lostRefund(ref, 2_500n, 'slow');
    const orderId = ref.split(':')[0]!;
    expect(await ask(ref, 2_500n, [])).toEqual({ status: 'succeeded', providerReference: `${orderId}:${refundsOf(ref)[0]!.retrefNum}` });
    // The inquiry is PROVAUT's orderhistoryinq for the order (the emulator checked its HashData).
    expect(requests.at(-1)).toMatchObject({ Terminal: { ProvUserID: 'PROVAUT' }, Order: { OrderID: orderId }, Transaction: { Type: 'orderhistoryinq', Amount: '100', CurrencyCode: '949' } });
  });

  it('not received: every approved refund is accounted for -> unknown', async () => {
    const ref = await paid();
    await lostRefund(ref, 2_500n, 'timeout');
    expect(refundsOf(ref)).toEqual([]);
    expect(await ask(ref, 2_500n, [])).toEqual({ status: 'unknown' });
  });

  it('refused: GVP lists a refused refund of its amount -> declined with its code', async () => {
    const ref = await paid();
    // More than the sale: GVP refuses it (92, its own error) and keeps it in the history (Status 01, ReturnCode 92).
    expect(await gvp.refund({ idempotencyKey: 'refund:x', providerReference: ref, amount: 20_000n, currency: 'TRY' })).toMatchObject({ status: 'error', providerCode: '92/0208' });
    expect(await ask(ref, 20_000n, [])).toMatchObject({ status: 'declined', providerCode: '92' });
    expect(await ask(ref, 20_000n, [{ amount: 20_000n, status: 'declined' }])).toEqual({ status: 'unknown' });
  });

  it('two refunds of one amount, the second lost: counted against the recorded first', async () => {
    const ref = await paid();
    expect(await gvp.refund({ idempotencyKey: 'refund:1', providerReference: ref, amount: 1_000n, currency: 'TRY' })).toMatchObject({ status: 'succeeded' });
    const first: OtherRefund = { amount: 1_000n, status: 'succeeded' };
    await lostRefund(ref, 1_000n, 'timeout');
    expect(await ask(ref, 1_000n, [first])).toEqual({ status: 'unknown' });
    await lostRefund(ref, 1_000n, 'slow');
    expect(await ask(ref, 1_000n, [first])).toMatchObject({ status: 'succeeded' });
  });

  it('two lost refunds of one amount, one made: the earlier takes it, the later waits, then is not received', async () => {
    const ref = await paid();
    await lostRefund(ref, 1_500n, 'slow');
    await lostRefund(ref, 1_500n, 'timeout');
    expect(await ask(ref, 1_500n, [])).toMatchObject({ status: 'succeeded' });
    await expect(ask(ref, 1_500n, [{ amount: 1_500n, status: 'pending' }])).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await ask(ref, 1_500n, [{ amount: 1_500n, status: 'succeeded' }])).toEqual({ status: 'unknown' });
  });

  it('cannot count without the amounts, nor about an order GVP does not list: asked again later', async () => {
    const ref = await paid();
    await expect(gvp.refundStatus({ idempotencyKey: 'refund:r', providerReference: ref })).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(ask('unknownorder1', 100n, [])).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});

describe('a lost void, asked with orderhistoryinq', () => {
  const voidStatus = (reference: string): Promise<unknown> => gvp.refundStatus({ idempotencyKey: 'cancel:c1', providerReference: reference, amount: 10_000n, currency: 'TRY', otherRefunds: [] });

  it('the sale voided -> succeeded; the sale standing -> unknown', async () => {
    const voided = await paid();
    emulator.behaviour.set({ mode: 'slow', count: 1, delayMs: 1_400 });
    await expect(gvp.cancel({ idempotencyKey: 'cancel:c1', providerReference: voided })).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect.poll(() => emulator.state.orders.get(voided.split(':')[0]!)!.txns[0]!.voided, { timeout: 5_000 }).toBe(true);
    expect(await voidStatus(voided)).toEqual({ status: 'succeeded', providerReference: voided.split(':')[0] });

    const standing = await paid();
    emulator.behaviour.set({ mode: 'timeout', count: 1 });
    await expect(gvp.cancel({ idempotencyKey: 'cancel:c2', providerReference: standing })).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await voidStatus(standing)).toEqual({ status: 'unknown' });
  });
});

describe('orderhistoryinq answers read as an order history', () => {
  // The answer of mewebstudio/pos tests/Unit/DataMapper/ResponseDataMapper/GarantiPosResponseDataMapperTest.php
  // (orderHistoryTestDataProvider, 'success_multi_tx'), written as the XML GVP sends: a sale of
  // 1.01, then a refund of 1.01 GVP refused (Status 01, ReturnCode 92).
  const txn = (fields: Record<string, string>) => `<OrderTxn>${Object.entries(fields).map(([k, v]) => `<${k}>${v}</${k}>`).join('')}</OrderTxn>`;
  const common = { PreAuthAmount: '0', PreAuthDate: '', VoidDate: '', BatchNum: '4951', RemainingBNSAmount: '0', UsedFBBAmount: '0', UsedChequeType: '', UsedChequeCount: '0', UsedChequeAmount: '0' };
  const multiTx = `<?xml version="1.0" encoding="UTF-8"?>
<GVPSResponse><Mode></Mode><Terminal><ProvUserID>PROVAUT</ProvUserID><UserID>PROVAUT</UserID><ID>30691298</ID><MerchantID>7000679</MerchantID></Terminal><Customer><IPAddress>172.26.0.1</IPAddress></Customer><Order><OrderID>20221101EB13</OrderID><GroupID></GroupID><OrderHistInqResult><OrderTxnList>${txn({ Type: 'sales', Status: '00', AuthAmount: '101', AuthDate: '20221101', RetrefNum: '230508300896', AuthCode: '304919', ReturnCode: '00', ...common, CurrencyCode: '949', Settlement: 'N' })}${txn({ Type: 'refund', Status: '01', AuthAmount: '101', AuthDate: '', RetrefNum: '230508300913', AuthCode: '', ReturnCode: '92', ...common, CurrencyCode: '0', Settlement: 'N' })}</OrderTxnList></OrderHistInqResult></Order><Transaction><Response><Source>GVPS</Source><Code>00</Code><ReasonCode></ReasonCode><Message>Approved</Message><ErrorMsg></ErrorMsg><SysErrMsg></SysErrMsg></Response><RetrefNum></RetrefNum><AuthCode></AuthCode><BatchNum></BatchNum><SequenceNum></SequenceNum><ProvDate>20221101 16:11:30</ProvDate><CardNumberMasked></CardNumberMasked><CardHolderName></CardHolderName><CardType></CardType><HashData>F7FB1830A48C729CD18DFDB47F2B6E2CB8258F21</HashData><HostMsgList></HostMsgList></Transaction></GVPSResponse>`;
  const parsed = () => parseGvpsResponse(multiTx) as XmlTree;

  it('reads the standing sale and the refused refund (mewebstudio/pos success_multi_tx)', () => {
    expect(orderHistoryOf(parsed(), '20221101EB13')).toEqual({
      credits: [{ amount: 101n, state: 'refused', code: '92', reference: '230508300913' }],
      sale: 'standing',
      complete: true,
    });
    expect(orderHistoryOf(parsed(), 'another')).toBe('retry');
    const history = orderHistoryOf(parsed(), '20221101EB13');
    if (history === 'retry') throw new Error('unread');
    expect(judgeLostRefund({ idempotencyKey: 'refund:r', providerReference: '20221101EB13', amount: 101n, currency: 'TRY', otherRefunds: [] }, history)).toMatchObject({ kind: 'declined' });
  });

  it('an entry it cannot read makes the history incomplete', () => {
    const cut = parseGvpsResponse(multiTx.replace('<AuthAmount>101</AuthAmount>', '<AuthAmount></AuthAmount>')) as XmlTree;
    expect(orderHistoryOf(cut, '20221101EB13')).toMatchObject({ complete: false });
  });
});
