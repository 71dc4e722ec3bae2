// regular-payment through an EST account (the repo's EST emulator on 127.0.0.1): an approved card
// is charged at the bank under the payment's order id; a refusal (51) becomes the gateway's
// insufficient_funds with the catalog message, EST's code kept on the payment for support; no
// card number or CVV is kept in the gateway's rows or logs, nor in what the emulator holds.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { EST_CARDS, estCalls, estOrderOf, estState, seedEstMerchant, setEstBehaviour, useEstEmulator } from '../helpers/est.ts';
import { orderOf } from '../helpers/bank-orders.ts';

const { t } = useGateway();
const est = useEstEmulator();
let m: Merchant;
let reference = 100;

const merchant = async () => (m ??= await seedEstMerchant(t, est.emulator));
const pay = (number: string, cvc = '987', headers: Record<string, string> = {}) =>
  m.call('regular-payment', paymentBody(m, { card: { number, security_code: cvc }, transaction: { channel_reference: `EST-${reference++}`, amount: '150.75' } }), { headers });
const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });

describe('regular-payment approved by the bank', () => {
  it('answers successful; the emulator holds one approved sale of 150.75 TRY under the payment\u2019s order id', async () => {
    await merchant();
    const res = await pay(EST_CARDS.approved);

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    const token = res.body.transaction.token as string;
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);

    const order = estOrderOf(est.emulator, token)!;
    expect(order).toMatchObject({ oid: orderOf(token), currency: '949', mdStatus: '' });
    expect(order.transactions).toEqual([expect.objectContaining({ chargeType: 'S', status: 'A', amountMinor: 15_075, procReturnCode: '00' })]);
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: order.oid, cardLastFourDigits: '4358' });
    expect(estCalls(t, 'charge').filter((c) => c.request.OrderId === order.oid)).toHaveLength(1);
  });
});

describe('regular-payment refused by the bank', () => {
  it('51: successful false with insufficient_funds and the catalog message; EST\u2019s code kept on the payment', async () => {
    await merchant();
    const res = await pay(EST_CARDS.insufficientFunds);

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
    const token = res.body.transaction.token as string;
    const english = await m.call('retrieve-payment', { transaction: { token } }, { headers: { 'Accept-Language': 'en' } });
    expect(english.body.result).toEqual({ successful: false, message: msg('decline_insufficient_funds', {}, 'en'), error_code: 'insufficient_funds' });
    const failed = await row(token);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: '51:ISO8583-51', providerErrorMessage: 'Yetersiz bakiye.' }); // ProcReturnCode:Extra.ERRORCODE, ErrMsg
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(estOrderOf(est.emulator, token)!.transactions).toEqual([expect.objectContaining({ chargeType: 'S', status: 'D', procReturnCode: '51' })]);
  });
});

describe('the bank\u2019s other answers', () => {
  it('a refusal without a card reason (emulator decline mode, 05) is card_declined', async () => {
    await merchant();
    await setEstBehaviour(est.emulator, { mode: 'decline' });
    const res = await pay(EST_CARDS.approved);
    expect(res.body.result).toEqual({ successful: false, message: msg('decline_card_declined'), error_code: 'card_declined' });
    expect((await row(res.body.transaction.token as string)).providerErrorCode).toMatch(/^05\b/);
  });

  it('an unreadable answer (emulator fail mode, HTTP 500 page) leaves the outcome unknown: provider_timeout, unresolved, no event', async () => {
    await merchant();
    await setEstBehaviour(est.emulator, { mode: 'fail' });
    const res = await pay(EST_CARDS.approved);
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);
    expect(estCalls(t, 'charge').at(-1)).toMatchObject({ outcome: 'unreadable', httpStatus: 500 });
  });
});

describe('card data', () => {
  it('no full card number or CVV in the database rows, the logs, or the emulator\u2019s state', async () => {
    await merchant();
    const cvc = '739';
    expect((await pay(EST_CARDS.approvedMastercard, cvc)).body.result.successful).toBe(true);
    expect((await pay(EST_CARDS.insufficientFunds, cvc)).body.result.successful).toBe(false);

    const db = t.gateway.services.db;
    const rows = JSON.stringify(
      { payments: await db.payment.findMany({ where: { workspaceId: m.workspaceId } }), events: await db.outboxEvent.findMany({}) },
      (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
    );
    expect(rows).toContain('5403'); // the last four digits are kept
    const logs = t.logLines.join('\n');
    const emulator = JSON.stringify(await estState(est.emulator));
    expect(logs).toContain('est exchange');
    for (const secret of [EST_CARDS.approvedMastercard, EST_CARDS.insufficientFunds]) {
      expect(rows).not.toContain(secret);
      expect(logs).not.toContain(secret);
      expect(emulator).not.toContain(secret);
    }
    // The CVV as a value anywhere (the exchange is logged with Cvv2Val and Expires scrubbed).
    for (const text of [rows, logs, emulator]) expect(text).not.toMatch(new RegExp(`[":>]${cvc}\\b`));
  });
});
