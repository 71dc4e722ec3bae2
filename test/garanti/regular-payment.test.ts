// regular-payment through a Garanti BBVA account (the repo's GVP emulator on 127.0.0.1): a non-3D
// XML sale under the payment's own order id; GVP's refusal codes become the gateway's error_code
// and catalog message (GVP's code kept on the payment for support); no card number or CVC is kept
// or logged.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { GARANTI_CARDS, garantiCalls, garantiOrderOf, seedGarantiMerchant, useGarantiEmulator } from '../helpers/garanti.ts';
import { orderOf } from '../helpers/bank-orders.ts';

const { t } = useGateway();
const garanti = useGarantiEmulator();
let m: Merchant;
let reference = 100;

const pay = async (number: string, over: Record<string, unknown> = {}, cvc = '987') => {
  m ??= await seedGarantiMerchant(t, garanti.emulator);
  return m.call('regular-payment', paymentBody(m, { card: { number, security_code: cvc }, transaction: { channel_reference: `GVP-${reference++}`, ...over } }));
};
const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });

describe('regular-payment approved by Garanti', () => {
  it('answers as for the simulator; GVP holds one approved sale of the amount under the payment\u2019s order id', async () => {
    const res = await pay(GARANTI_CARDS.approved, { amount: '150.75' });
    expect(res.status, res.text).toBe(200);
    const token = res.body.transaction.token as string;
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);

    const order = await garantiOrderOf(t, garanti.emulator, token);
    expect(order).toMatchObject({ currency: '949', cardMasked: '428220******2016', charged: 15_075, refunded: 0 });
    expect(order!.txns).toEqual([expect.objectContaining({ type: 'sales', code: '00', amount: 15_075 })]);
    // The order id is the payment's id without dashes; the reference adds the host's RetrefNum (voids name it).
    const p = await row(token);
    expect(p).toMatchObject({ status: 'successful', cardLastFourDigits: '2016' });
    expect(p.providerReference).toBe(`${orderOf(token)}:${order!.txns[0]!.retrefNum}`);
  });
});

describe('regular-payment in other currencies', () => {
  it.each([
    ['USD', '840'],
    ['EUR', '978'],
  ] as const)('%s goes to GVP as currency code %s, in minor units', async (currency, code) => {
    const res = await pay(GARANTI_CARDS.approved, { amount: '12.34', currency });
    expect(res.body.result, res.text).toEqual({ successful: true, message: null });
    expect(await garantiOrderOf(t, garanti.emulator, res.body.transaction.token as string)).toMatchObject({ currency: code, charged: 1_234 });
  });
});

describe('regular-payment refused by Garanti', () => {
  it.each([
    ['insufficient funds (51)', GARANTI_CARDS.insufficientFunds, 'insufficient_funds', '51'],
    ['do not honour (05)', GARANTI_CARDS.doNotHonour, 'card_declined', '05'],
  ] as const)('%s: successful false, %s, GVP\u2019s code kept', async (_name, number, code, providerCode) => {
    const res = await pay(number);
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg(`decline_${code}`), error_code: code });
    const token = res.body.transaction.token as string;
    const english = await m.call('retrieve-payment', { transaction: { token } }, { headers: { 'Accept-Language': 'en' } });
    expect(english.body.result).toEqual({ successful: false, message: msg(`decline_${code}`, {}, 'en'), error_code: code });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: code, providerErrorCode: providerCode });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    // GVP's own message never reaches the merchant.
    const p = await row(token);
    if (p.providerErrorMessage) expect(english.text).not.toContain(p.providerErrorMessage);
  });

  it('keeps no full card number or CVC in the database or the logs', async () => {
    const cvc = '739';
    expect((await pay(GARANTI_CARDS.approvedMastercard, {}, cvc)).body.result.successful).toBe(true);
    expect((await pay(GARANTI_CARDS.insufficientFunds, {}, cvc)).body.result.successful).toBe(false);
    expect(garantiCalls(t, 'charge').length).toBeGreaterThanOrEqual(2);

    const db = t.gateway.services.db;
    const rows = JSON.stringify({ payments: await db.payment.findMany({ where: { workspaceId: m.workspaceId } }) }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    expect(rows).toContain('5403');
    const logs = t.logLines.join('\n');
    for (const secret of [GARANTI_CARDS.approvedMastercard, GARANTI_CARDS.insufficientFunds, GARANTI_CARDS.approved]) {
      expect(rows).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    expect(rows).not.toContain(`"${cvc}"`);
    expect(logs).not.toMatch(new RegExp(`[">:]${cvc}\\b`));
  });
});
