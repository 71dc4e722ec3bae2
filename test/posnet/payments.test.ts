// The gateway moving money through Yapı Kredi PosNet (its emulator on 127.0.0.1), without a
// browser: a 3-D payment (the card goes to the bank server to server, the browser's form carries
// only the bank's sealed data), a regular payment, partial and full refunds, a cancel, callbacks
// that are not the bank's answer for the payment refused with nothing written, and a sale whose
// answer was lost settled by the agreement inquiry.
import { describe, expect, it } from 'vitest';
import { startPosnetEmulator } from '../../emulators/posnet/server.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { bankOrderId } from '../../src/providers/bank-order-id.ts';
import { bankCalls, bankOrder, seedBankMerchant, setBankBehaviour, useBankEmulator } from '../helpers/bank.ts';
import { walkGate } from '../helpers/bank-contract.ts';
import { useGateway } from '../helpers/fixture.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { msg } from '../helpers/messages.ts';
import { autoPostForm, paymentBody, postCallback } from '../helpers/payments.ts';
import { submitCard } from '../helpers/checkout.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { gql } from '../helpers/webhooks.ts';
import { orderBody } from '../helpers/orders.ts';
import { attemptsOf, eventsOf } from '../helpers/rows.ts';
import { POSNET_CARDS, posnetAccount } from './fixtures.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const posnet = useBankEmulator(startPosnetEmulator);
let m: Merchant;
let reference = 7000;

const merchant = async () => (m ??= await seedBankMerchant(t, posnetAccount(posnet.emulator, { timeoutMs: 2_000 })));
const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const stringify = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
const xidOf = (paymentId: string, step: string) => bankOrderId(`${paymentId}:${step}`).slice(0, 20);
const orderAt = async (orderId: string) => {
  const order = await bankOrder<{ orderId: string; lines: Array<{ state: string; amount: number }> }>(posnet.emulator, orderId);
  return order?.lines.map((l) => `${l.state}:${l.amount}`);
};

async function start3D(number: string = POSNET_CARDS.approved) {
  await merchant();
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: '321' }, transaction: { channel_reference: `PN3D-${reference++}`, amount: '100.25', callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  const page = await fetch(res.body.result.redirect_url as string);
  const bank = autoPostForm(await page.text());
  if (!bank) throw new Error('no bank form');
  return { token, bank, orderId: `TDSC${xidOf(token, 'authorise')}` };
}

const toCallback = (token: string) => `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`;

describe('3-D Secure through PosNet', () => {
  it('the card goes to the bank server to server; the browser posts only sealed data; ACS Approve -> one sale', async () => {
    const { token, bank, orderId } = await start3D();
    expect(bank.action).toBe(posnet.emulator.gateUrl);
    expect(Object.keys(bank.fields).sort()).toEqual(['digest', 'lang', 'merchantReturnURL', 'mid', 'posnetData', 'posnetData2', 'posnetID', 'url']);
    expect(stringify(bank)).not.toContain(POSNET_CARDS.approved);
    expect(bank.fields.merchantReturnURL).toBe(toCallback(token));

    const fields = await walkGate({ kind: 'form', action: bank.action, fields: bank.fields });
    const back = await postCallback(toCallback(token), fields);
    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', fields: { transaction_token: token } });
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: orderId });
    expect(await orderAt(orderId)).toEqual(['Sale:10025']);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    const log = t.logLines.join('\n');
    expect(log).not.toContain(POSNET_CARDS.approved);
    expect(log).not.toMatch(/[">:=]321\b/);
    expect(bankCalls(t, 'posnet', 'start3D').length).toBeGreaterThan(0);
    // The callback check asked the bank: recorded like the other calls, as the completion's first.
    const attempts = (await attemptsOf(t, token)).map((a) => [a.operation, a.idempotencyKey, a.outcome]);
    expect(attempts).toHaveLength(3);
    expect(attempts).toEqual(
      expect.arrayContaining([
        ['start3D', `${token}:authorise`, 'redirect'],
        ['complete3D', `${token}:authorise`, 'succeeded'],
        ['complete3D', `${token}:complete`, 'succeeded'],
      ]),
    );
  });

  it('Decline on the ACS: failed 3ds_failed, no sale', async () => {
    const { token, bank, orderId } = await start3D();
    const fields = await walkGate({ kind: 'form', action: bank.action, fields: bank.fields }, 'decline');
    expect((await postCallback(toCallback(token), fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed' });
    expect(await orderAt(orderId)).toBeUndefined();
  });

  it('forged, altered and foreign callbacks: an error page, nothing written, no sale; the real answer still completes it', async () => {
    const mine = await start3D();
    const other = await start3D();
    const fields = await walkGate({ kind: 'form', action: mine.bank.action, fields: mine.bank.fields });
    const othersFields = await walkGate({ kind: 'form', action: other.bank.action, fields: other.bank.fields });
    const before = stringify(await row(mine.token));
    const alter = (v: string) => `${v.slice(0, -4)}${v.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    for (const forged of [{ ...fields, Sign: alter(fields.Sign!) }, { ...fields, BankPacket: alter(fields.BankPacket!) }, { MerchantPacket: 'x', BankPacket: 'y', Sign: 'z' }, {}, othersFields]) {
      const res = await postCallback(toCallback(mine.token), forged);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(stringify(await row(mine.token))).toEqual(before);
    expect(await orderAt(mine.orderId)).toBeUndefined();
    expect(await orderAt(other.orderId)).toBeUndefined();
    expect((await postCallback(toCallback(mine.token), fields)).status).toBe(200);
    expect(await row(mine.token)).toMatchObject({ status: 'successful' });
    // A replay after completion changes nothing and charges nothing more.
    expect((await postCallback(toCallback(mine.token), fields)).status).toBe(409);
    expect(await orderAt(mine.orderId)).toEqual(['Sale:10025']);
  });
});

describe('an order page paid through PosNet', () => {
  it('card form -> 303 -> bank form (no card in it) -> 3-D service -> ACS -> callback: the order is paid', async () => {
    await merchant();
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-PN-1', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };
    const submit = await submitCard(checkoutUrl, { number: POSNET_CARDS.approved, security_code: '987' });
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    const bank = autoPostForm(await (await fetch(new URL(submit.location!, checkoutUrl).href)).text());
    expect(bank?.action).toBe(posnet.emulator.gateUrl);
    expect(stringify(bank)).not.toContain(POSNET_CARDS.approved);
    const fields = await walkGate({ kind: 'form', action: bank!.action, fields: bank!.fields });
    const back = await postCallback(bank!.fields.merchantReturnURL!, fields);
    const order = await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    expect(order.status).toBe('paid');
    expect(autoPostForm(back.html)).toMatchObject({ action: `${shop.url}/success`, fields: { transaction_token: order.payments[0]!.id } });
    expect(stringify(order.payments[0])).not.toContain(POSNET_CARDS.approved);
  });
});

describe('a callback the bank does not open in time', () => {
  it('an error page, nothing written; the same callback once the bank answers completes the payment', async () => {
    const { token, bank, orderId } = await start3D();
    const fields = await walkGate({ kind: 'form', action: bank.action, fields: bank.fields });
    const before = stringify(await row(token));
    await setBankBehaviour(posnet.emulator, { mode: 'timeout', count: 1 });
    const res = await postCallback(toCallback(token), fields);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(stringify(await row(token))).toEqual(before);
    const checks = (await attemptsOf(t, token)).filter((a) => a.operation === 'complete3D');
    expect(checks).toEqual([expect.objectContaining({ idempotencyKey: `${token}:authorise`, outcome: 'error', providerMessage: 'the bank did not answer the callback check' })]);
    expect((await postCallback(toCallback(token), fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'successful' });
    expect(await orderAt(orderId)).toEqual(['Sale:10025']);
  });
});

describe('regular payments, refunds and cancels through PosNet', () => {
  const pay = async (number: string = POSNET_CARDS.approved, amount = '100.00') => {
    await merchant();
    return m.call('regular-payment', paymentBody(m, { card: { number }, transaction: { channel_reference: `PNR-${reference++}`, amount } }));
  };
  const tick = () => t.clock.advance(1000);

  it('a sale, a partial refund, then the rest: PosNet returns on the order, partially_refunded then refunded', async () => {
    const res = await pay();
    expect(res.body.result, res.text).toEqual({ successful: true, message: null });
    const token = res.body.transaction.token as string;
    const orderId = xidOf(token, 'charge').padStart(24, '0');
    tick();
    expect((await m.call('refund-payment', { transaction: { token }, amount: '30.00' })).body.result).toEqual({ successful: true, message: null });
    expect((await row(token)).paymentStatus).toBe('partially_refunded');
    tick();
    expect((await m.call('refund-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    expect((await row(token)).paymentStatus).toBe('refunded');
    expect(await orderAt(orderId)).toEqual(['Sale:10000', 'Return:3000', 'Return:7000']);
  });

  it("instalments from the account's plan: 3 at 4.5 %, PosNet asked for installment 03 on the surcharged total", async () => {
    await merchant();
    const accessToken = await createAccessToken(t.gateway.services.db, m.team, 'posnet installments test');
    const plan = await gql(t, accessToken, 'mutation ($token: String!, $rates: JSON) { setInstallmentPlan(token: $token, rates: $rates) { result { successful } } }', { token: m.accountToken, rates: { '3': '4.5' } });
    expect(plan.body.data?.setInstallmentPlan).toMatchObject({ result: { successful: true } });
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: POSNET_CARDS.approved }, transaction: { channel_reference: `PNR-${reference++}`, amount: '104.50', installment_number: 3 } }));
    expect(res.body.result, res.text).toEqual({ successful: true, message: null });
    const token = res.body.transaction.token as string;
    const state = (await (await fetch(`${posnet.emulator.url}/_emulator/state`)).json()) as { orders: Array<{ orderId: string; installment: string; lines: Array<{ amount: number }> }> };
    expect(state.orders.find((o) => o.orderId === xidOf(token, 'charge').padStart(24, '0'))).toMatchObject({ installment: '03', lines: [{ amount: 10_450 }] });
  });

  it('a cancel reverses the sale', async () => {
    const token = (await pay()).body.transaction.token as string;
    tick();
    expect((await m.call('cancel-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    expect(await orderAt(xidOf(token, 'charge').padStart(24, '0'))).toEqual(['Sale:10000', 'Reverse:10000']);
  });

  it("the issuer's refusal: failed insufficient_funds, PosNet's 0051 kept", async () => {
    const res = await pay(POSNET_CARDS.insufficientFunds);
    expect(res.body.result).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
    expect(await row(res.body.transaction.token as string)).toMatchObject({ providerErrorCode: '0051' });
  });

  it('a sale answered too late: provider_timeout, then the reconcile job asks the agreement inquiry and settles it successful', async () => {
    await merchant();
    await setBankBehaviour(posnet.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await pay();
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved' });
    await expect.poll(() => orderAt(xidOf(token, 'charge').padStart(24, '0')), { timeout: 5_000 }).toEqual(['Sale:10000']);
    t.clock.advance(RECONCILE_TRIES_MS[0]! + 5_000);
    await runJobsDueBy(t);
    expect(await row(token)).toMatchObject({ status: 'successful', paymentStatus: 'paid' });
    expect(bankCalls(t, 'posnet', 'paymentStatus').filter((c) => JSON.stringify(c).includes(xidOf(token, 'charge')))).toHaveLength(1);
  });
});
