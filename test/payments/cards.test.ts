// Each simulator card (docs/decisions.md, "Provider declines … and `error_code`") through regular-payment and through
// secure-payment with an approved 3D step: the answer, retrieve-payment, the stored status and
// the outbox event (none for a provider that did not answer).
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, msg } from '../helpers/messages.ts';
import { CARDS, completeThreeDs, followReturnPost, paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';

const { t, merchant: m, receiver: shop } = useGateway({ merchant: true, receiver: true });
let reference = 7000;

const TIMEOUT_MESSAGE = msg('provider_timeout');

interface CardCase {
  name: string;
  number: string;
  scheme: string;
  successful: boolean;
  /** result.error_code of a failed answer (absent from a successful one). */
  code?: string;
  message: string | null;
  status: 'successful' | 'failed' | 'unresolved';
  events: string[];
}

const cases: CardCase[] = [
  { name: 'visa approved', number: CARDS.approved, scheme: 'visa', successful: true, message: null, status: 'successful', events: ['transaction.successful'] },
  { name: 'mastercard approved', number: CARDS.mastercard, scheme: 'mastercard', successful: true, message: null, status: 'successful', events: ['transaction.successful'] },
  { name: 'troy approved', number: CARDS.troy, scheme: 'troy', successful: true, message: null, status: 'successful', events: ['transaction.successful'] },
  { name: 'insufficient funds', number: CARDS.insufficientFunds, scheme: 'visa', successful: false, code: 'insufficient_funds', message: 'Yetersiz bakiye', status: 'failed', events: ['transaction.failed'] },
  { name: 'expired card', number: CARDS.expired, scheme: 'visa', successful: false, code: 'expired_card', message: 'Kartın süresi dolmuş', status: 'failed', events: ['transaction.failed'] },
  { name: 'provider error', number: CARDS.providerError, scheme: 'visa', successful: false, code: 'provider_error', message: 'Banka sistem hatası', status: 'failed', events: ['transaction.failed'] },
  { name: 'provider timeout', number: CARDS.timeout, scheme: 'visa', successful: false, code: 'provider_timeout', message: TIMEOUT_MESSAGE, status: 'unresolved', events: [] },
  { name: 'storage refused (approved)', number: CARDS.storageRefused, scheme: 'visa', successful: true, message: null, status: 'successful', events: ['transaction.successful'] },
  { name: 'refunds rejected (approved)', number: CARDS.refundRejected, scheme: 'mastercard', successful: true, message: null, status: 'successful', events: ['transaction.successful'] },
];

const resultOf = (c: CardCase) => ({ successful: c.successful, message: c.message, ...(c.code ? { error_code: c.code } : {}) });

function regularBody(number: string, card: Record<string, unknown> = {}) {
  const body = paymentBody(m, { transaction: { channel_reference: `CARD-${reference++}` }, card: { number, ...card } });
  delete (body.transaction as Record<string, unknown>).callback_url;
  return body;
}

async function payByThreeDs(number: string, card: Record<string, unknown> = {}) {
  const start = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: `CARD-${reference++}`, callback_url: `${shop.url}/back` }, card: { number, ...card } }));
  expect(start.body.result.successful).toBe(true);
  const threeDs = await completeThreeDs(start.body.result.redirect_url, 'approve');
  expect(threeDs.returnToken).toBe(start.body.transaction.token);
  expect(await followReturnPost(threeDs.returnUrl!, threeDs.returnToken!)).toBe(200);
  return start.body.transaction.token as string;
}

const retrieve = (token: string) => m.call('retrieve-payment', { transaction: { token } });
const stored = (token: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });

describe('regular-payment with each simulator card', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const res = await m.call('regular-payment', regularBody(c.number));

    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(resultOf(c));
    const token = res.body.transaction.token;
    expect((await retrieve(token)).body.result).toEqual(resultOf(c));
    const payment = await stored(token);
    expect(payment.status).toBe(c.status);
    expect(payment.paymentStatus).toBe(c.successful ? 'paid' : null);
    expect(payment.cardScheme).toBe(c.scheme);
    expect(payment.cardFirstDigits).toBe(c.number.slice(0, 8));
    expect(payment.cardLastFourDigits).toBe(c.number.slice(-4));
    expect(await eventsOf(t, token)).toEqual(c.events);
  });
});

describe('secure-payment with each simulator card, 3D approved', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const token = await payByThreeDs(c.number);

    expect((await retrieve(token)).body.result).toEqual(resultOf(c));
    expect((await stored(token)).status).toBe(c.status);
    expect(await eventsOf(t, token)).toEqual(c.events);
  });
});

describe('card 4000000000009995 (the provider does not answer)', () => {
  it('leaves the payment unresolved, not refundable and without an event', async () => {
    const res = await m.call('regular-payment', regularBody(CARDS.timeout));
    const token = res.body.transaction.token;

    const refund = await m.call('refund-payment', { transaction: { token } });

    expectFieldError(refund, 'transaction.token', 'only_successful_refundable');
    expect((await stored(token)).status).toBe('unresolved');
    expect(await eventsOf(t, token)).toEqual([]);
  });
});

describe('card 4000000000000341 (storing refused)', () => {
  it('takes the payment but stores no card when should_save is sent', async () => {
    const res = await m.call('regular-payment', regularBody(CARDS.storageRefused, { should_save: true }));

    expect(res.body.result).toEqual({ successful: true, message: null });
    // contract: saved_card is present when should_save was sent, null when the card was not stored
    expect(res.body.saved_card).toBeNull();
    expect((await retrieve(res.body.transaction.token)).body.saved_card).toBeNull();
    expect(await t.gateway.services.db.savedCard.count()).toBe(0);
  });

  it('shows no saved_card key when should_save was not sent', async () => {
    const res = await m.call('regular-payment', regularBody(CARDS.storageRefused));

    expect(Object.keys(res.body)).toEqual(['result', 'transaction', 'customer', 'conversion']);
    expect(Object.keys((await retrieve(res.body.transaction.token)).body)).toEqual(['result', 'transaction', 'customer', 'conversion']);
  });
});

describe('card 5105105105105100 (refunds and cancels rejected by the provider)', () => {
  it.each([
    ['refund-payment', 'refund', '40.00', { amount: '40.00' }],
    ['cancel-payment', 'cancel', '100.00', {}],
  ] as const)('%s answers 200 with successful false and the provider message; nothing moves', async (operation, type, amount, extra) => {
    // Given a successful payment with the card
    const paid = await m.call('regular-payment', regularBody(CARDS.refundRejected));
    const token = paid.body.transaction.token;

    // When the merchant refunds or cancels it
    const res = await m.call(operation, { transaction: { token }, ...extra });

    // Then the provider's rejection is reported and the payment stays paid and whole
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: 'İade veya iptal isteği banka tarafından reddedildi', error_code: 'refund_rejected' });
    expect(res.body.refund).toEqual({ type, amount });
    const payment = await stored(token);
    expect(payment.paymentStatus).toBe('paid');
    expect(payment.refundedAmount).toBe(0n);
    const refunds = await t.gateway.services.db.refund.findMany({ where: { paymentId: token } });
    expect(refunds.map((r) => [r.type, r.status])).toEqual([[type, 'failed']]);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect((await retrieve(token)).body.result).toEqual({ successful: true, message: null });
  });

  it('can be tried again after a rejection: the rejected amount is free again', async () => {
    const paid = await m.call('regular-payment', regularBody(CARDS.refundRejected));
    const token = paid.body.transaction.token;
    await m.call('refund-payment', { transaction: { token } });

    const again = await m.call('refund-payment', { transaction: { token } });

    expect(again.status).toBe(200);
    expect(again.body.refund).toEqual({ type: 'refund', amount: '100.00' });
  });
});
