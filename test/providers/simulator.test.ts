import { describe, it, expect } from 'vitest';
import { luhnValid } from '../../src/domain/cards.ts';
import { BOOKS_LIMIT, SimulatorBank, schemeFromNumber } from '../../src/providers/simulator.ts';
import { acsAnswerFields } from '../../src/providers/simulator-acs.ts';
import { ProviderTimeoutError, computeInstallments, type CardData, type ThreeDsPayment } from '../../src/providers/types.ts';

const now = new Date('2026-03-15T12:00:00Z');
const deps = { now: () => now, baseUrl: () => 'http://127.0.0.1:1', key: () => Buffer.alloc(32, 7), log: () => undefined };
const simulator = new SimulatorBank(deps);

const threeDs = (providerReference: string): ThreeDsPayment => ({ startKey: 'start', providerReference, amount: 10000n, currency: 'TRY' });
/** What the simulator's ACS posts back, judged by its connector, then completed when approved. */
const completeWith = (idempotencyKey: string, providerReference: string, outcome: 'approve' | 'decline') => {
  const checked = simulator.verifyCallback(threeDs(providerReference), acsAnswerFields(deps, providerReference, outcome));
  if (checked.status === 'rejected') throw new Error('callback rejected');
  if (!checked.authenticated) return Promise.resolve(checked.failure);
  return simulator.complete3D({ idempotencyKey, payment: threeDs(providerReference), data: checked.data });
};
const start = (p: ReturnType<typeof payment>) => simulator.start3D({ ...p, callbackUrl: 'http://127.0.0.1:2/checkout/3ds/callback/x' });

const card = (number: string, expiryMonth = '12', expiryYear = '2030'): CardData => ({
  holderName: 'Ayşe Yılmaz',
  number,
  securityCode: '123',
  expiryMonth,
  expiryYear,
});

const payment = (number: string, key = `key-${number}`) => ({
  idempotencyKey: key,
  amount: 10000n,
  currency: 'TRY' as const,
  installmentNumber: 1,
  card: card(number),
});

async function payWith3D(number: string, outcome: 'approve' | 'decline' = 'approve') {
  const started = await start(payment(number));
  if (started.status !== 'redirect') throw new Error(`start3D did not start: ${started.status}`);
  return completeWith(`complete-${number}`, started.providerReference, outcome);
}

describe('simulator charge', () => {
  it.each(['4111111111111111', '5555555555554444', '9792030000000018', '4000000000000341', '5105105105105100'])(
    'approves %s',
    async (number) => {
      const result = await simulator.charge(payment(number));
      expect(result.status).toBe('succeeded');
    },
  );

  it.each([
    ['4000000000000002', 'declined', 'insufficient_funds', 'Yetersiz bakiye'],
    ['4000000000000069', 'declined', 'expired_card', 'Kartın süresi dolmuş'],
    ['4000000000000119', 'error', 'provider_error', 'Banka sistem hatası'],
  ])('answers %s with %s %s', async (number, status, code, message) => {
    expect(await simulator.charge(payment(number))).toEqual({ status, code, message });
  });

  it('throws ProviderTimeoutError at once for the card that never answers', async () => {
    await expect(simulator.charge(payment('4000000000009995'))).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('never puts card digits in the reference', async () => {
    const result = await simulator.charge(payment('4111111111111111'));
    if (result.status !== 'succeeded') throw new Error('expected success');
    expect(result.providerReference).toMatch(/^sim_pay_approved_[0-9a-f-]{36}$/);
    expect(result.providerReference).not.toContain('1111');
  });

  it('returns the same reference for a retried idempotency key', async () => {
    const first = await simulator.charge(payment('4111111111111111', 'order-1'));
    const retry = await new SimulatorBank(deps).charge(payment('4111111111111111', 'order-1'));
    expect(retry).toEqual(first);
  });

  it('rejects installments outside TRY', async () => {
    const result = await simulator.charge({ ...payment('4111111111111111'), currency: 'USD', installmentNumber: 3 });
    expect(result).toMatchObject({ status: 'error', code: 'invalid_installment' });
  });
});

describe('simulator Luhn fallback and expiry', () => {
  it('approves an unknown Luhn-valid number and names its scheme', async () => {
    // 378282246310005 is a well-known American Express test number, not in the simulator table.
    const stored = await simulator.storeCard({ idempotencyKey: 'amex', card: card('378282246310005') });
    expect(stored).toMatchObject({ status: 'stored', scheme: 'american_express' });
    expect((await simulator.charge(payment('378282246310005'))).status).toBe('succeeded');
  });

  it('declines a Luhn-invalid number', async () => {
    expect(await simulator.charge(payment('4111111111111112'))).toEqual({
      status: 'declined',
      code: 'invalid_card_number',
      message: 'Geçersiz kart numarası',
    });
  });

  it('declines a card whose expiry month has passed on the injected clock', async () => {
    const result = await simulator.charge({ ...payment('4111111111111111'), card: card('4111111111111111', '02', '2026') });
    expect(result).toMatchObject({ status: 'declined', code: 'expired_card' });
  });

  it('accepts a card during its expiry month, with a two-digit year', async () => {
    const result = await simulator.charge({ ...payment('4111111111111111'), card: card('4111111111111111', '03', '26') });
    expect(result.status).toBe('succeeded');
  });

  it('counts months in Istanbul time', async () => {
    // 22:30 UTC on 28 February is already 1 March in Istanbul (UTC+3).
    const lateFebruary = new SimulatorBank({ ...deps, now: () => new Date('2026-02-28T22:30:00Z') });
    const result = await lateFebruary.charge({ ...payment('4111111111111111'), card: card('4111111111111111', '02', '2026') });
    expect(result).toMatchObject({ status: 'declined', code: 'expired_card' });
  });

  it('turns the month at midnight in Istanbul, whatever it answered a moment before', async () => {
    let now = new Date('2026-02-28T20:59:59Z');
    const turning = new SimulatorBank({ ...deps, now: () => now });
    const february = card('4111111111111111', '02', '2026');
    expect((await turning.charge({ ...payment('4111111111111111', 'turn-1'), card: february })).status).toBe('succeeded');
    now = new Date('2026-02-28T21:00:00Z');
    expect(await turning.charge({ ...payment('4111111111111111', 'turn-2'), card: february })).toMatchObject({ status: 'declined', code: 'expired_card' });
  });

  it.each([
    ['4111111111111111', 'visa'],
    ['2221000000000009', 'mastercard'],
    ['5200000000000007', 'mastercard'],
    ['9792000000000001', 'troy'],
    ['6011111111111117', 'discover'],
    ['36000000000008', 'diners_club'],
    ['3530111333300000', 'jcb'],
    ['6200000000000005', 'unionpay'],
    ['5000000000000009', 'maestro'],
    ['6700000000000000', 'maestro'],
    ['1000000000000000', null],
  ])('schemeFromNumber(%s) is %s', (number, scheme) => {
    expect(schemeFromNumber(number)).toBe(scheme);
  });

  it('approves both troy cards (the documented one fails the Luhn check), and refuses another number whose check digit is off', async () => {
    expect((await simulator.charge(payment('9792030000000018'))).status).toBe('succeeded');
    expect((await simulator.charge(payment('9792030000000004'))).status).toBe('succeeded');
    expect(await simulator.charge(payment('9792030000000005'))).toMatchObject({ status: 'declined', code: 'invalid_card_number' });
  });

  it('checks Luhn digits', () => {
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
  });
});

describe('simulator 3D Secure', () => {
  it('sends the cardholder to its ACS page and holds the payment until the answer', async () => {
    const started = await start(payment('4111111111111111'));
    expect(started).toMatchObject({ status: 'redirect', providerReference: expect.stringMatching(/^sim_pay_/), redirect: { kind: 'url', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:1\/simulator\/acs\//) } });
  });

  it('succeeds on approve with the pending reference', async () => {
    const started = await start(payment('5555555555554444'));
    if (started.status !== 'redirect') throw new Error('expected pending');
    const done = await completeWith('c', started.providerReference, 'approve');
    expect(done).toEqual({ status: 'succeeded', providerReference: started.providerReference });
  });

  it('fails on decline with 3ds_failed, the button kept as its own code', async () => {
    expect(await payWith3D('4111111111111111', 'decline')).toEqual({
      status: 'declined',
      code: '3ds_failed',
      message: '3D doğrulama başarısız',
      providerCode: 'decline',
    });
  });

  it('rejects an ACS answer it did not sign, or signed for another payment', async () => {
    const started = await start(payment('4111111111111111', 'forge'));
    if (started.status !== 'redirect') throw new Error('expected a redirect');
    const ref = started.providerReference;
    const approved = acsAnswerFields(deps, ref, 'approve');
    expect(simulator.verifyCallback(threeDs(ref), { ...approved, signature: '0'.repeat(64) })).toEqual({ status: 'rejected', cause: 'signature', reason: 'signature' });
    // A decline's signature does not carry an approval.
    expect(simulator.verifyCallback(threeDs(ref), { ...acsAnswerFields(deps, ref, 'decline'), outcome: 'approve' })).toMatchObject({ status: 'rejected' });
    // Another gateway's key signs nothing here.
    expect(simulator.verifyCallback(threeDs(ref), acsAnswerFields({ ...deps, key: () => Buffer.alloc(32, 8) }, ref, 'approve'))).toMatchObject({ status: 'rejected' });
    const other = acsAnswerFields(deps, `${ref.slice(0, -1)}0`, 'approve');
    expect(simulator.verifyCallback(threeDs(ref), other)).toEqual({ status: 'rejected', cause: 'order', reason: 'other payment' });
    expect(simulator.verifyCallback(threeDs(ref), approved)).toMatchObject({ status: 'verified', authenticated: true });
  });

  it('applies the card behaviour after approval', async () => {
    expect(await payWith3D('4000000000000002')).toMatchObject({ status: 'declined', code: 'insufficient_funds' });
    expect(await payWith3D('4000000000000119')).toMatchObject({ status: 'error', code: 'provider_error' });
    await expect(payWith3D('4000000000009995')).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('declines an invalid card before the challenge', async () => {
    expect(await start(payment('4111111111111112'))).toMatchObject({ code: 'invalid_card_number' });
  });

  it('reports an unknown reference as a provider error', async () => {
    const done = await completeWith('x', 'pay_123', 'approve');
    expect(done).toMatchObject({ status: 'error', code: 'unknown_reference' });
  });
});

describe('simulator status query (reconciliation)', () => {
  async function startedReference(number: string): Promise<string> {
    const started = await start(payment(number));
    if (started.status !== 'redirect') throw new Error('expected pending');
    return started.providerReference;
  }

  it('reports a timed-out 3D payment as finally approved, under its reference', async () => {
    const providerReference = await startedReference('4000000000009995');
    await expect(completeWith('k:complete', providerReference, 'approve')).rejects.toBeInstanceOf(ProviderTimeoutError);

    expect(await new SimulatorBank(deps).paymentStatus({ idempotencyKey: 'k:complete', providerReference, amount: 10000n, currency: 'TRY' })).toEqual({ status: 'succeeded', providerReference });
  });

  it.each([
    ['4111111111111111', { status: 'succeeded' }],
    ['4000000000000002', { status: 'declined', code: 'insufficient_funds', message: 'Yetersiz bakiye' }],
    ['4000000000000119', { status: 'declined', code: 'provider_error', message: 'Banka sistem hatası' }],
  ])('answers with the card behaviour of the reference (%s)', async (number, expected) => {
    const providerReference = await startedReference(number);
    expect(await simulator.paymentStatus({ idempotencyKey: 'k', providerReference, amount: 10000n, currency: 'TRY' })).toMatchObject(expected);
  });

  it('cannot tell the outcome of a call that handed out no reference', async () => {
    await expect(simulator.charge(payment('4000000000009995', 'lost-charge'))).rejects.toBeInstanceOf(ProviderTimeoutError);

    expect(await simulator.paymentStatus({ idempotencyKey: 'lost-charge', providerReference: null, amount: 10000n, currency: 'TRY' })).toEqual({ status: 'unknown' });
    expect(await simulator.paymentStatus({ idempotencyKey: 'x', providerReference: 'pay_123', amount: 10000n, currency: 'TRY' })).toEqual({ status: 'unknown' });
  });
});

describe('simulator refund and cancel', () => {
  async function paidReference(number: string): Promise<string> {
    const paid = await simulator.charge(payment(number));
    if (paid.status !== 'succeeded') throw new Error('expected success');
    return paid.providerReference;
  }

  it('refunds and cancels an approved payment', async () => {
    const providerReference = await paidReference('4111111111111111');
    const refund = await simulator.refund({ idempotencyKey: 'r1', providerReference, amount: 5000n, currency: 'TRY' });
    expect(refund).toMatchObject({ status: 'succeeded', providerReference: expect.stringMatching(/^sim_refund_/) });
    const cancel = await simulator.cancel({ idempotencyKey: 'c1', providerReference });
    expect(cancel).toMatchObject({ status: 'succeeded', providerReference: expect.stringMatching(/^sim_cancel_/) });
  });

  it('rejects every refund and cancel for 5105105105105100', async () => {
    const providerReference = await paidReference('5105105105105100');
    const rejected = { status: 'declined', code: 'refund_rejected' };
    expect(await simulator.refund({ idempotencyKey: 'r2', providerReference, amount: 100n, currency: 'TRY' })).toMatchObject(rejected);
    expect(await simulator.cancel({ idempotencyKey: 'c2', providerReference })).toMatchObject(rejected);
  });

  it('still rejects after a 3D payment and in a fresh process', async () => {
    const done = await payWith3D('5105105105105100');
    if (done.status !== 'succeeded') throw new Error('expected success');
    const fresh = new SimulatorBank(deps);
    expect(await fresh.cancel({ idempotencyKey: 'c3', providerReference: done.providerReference })).toMatchObject({
      code: 'refund_rejected',
    });
  });
});

describe('simulator card storage', () => {
  it('stores a card and charges it by reference', async () => {
    const stored = await simulator.storeCard({ idempotencyKey: 's1', card: card('9792030000000018') });
    expect(stored).toMatchObject({ status: 'stored', scheme: 'troy' });
    if (stored.status !== 'stored') throw new Error('expected stored');
    expect(stored.cardReference).not.toContain('9792');
    const { card: _card, ...rest } = payment('9792030000000018');
    const paid = await simulator.charge({ ...rest, savedCard: { cardReference: stored.cardReference } });
    expect(paid.status).toBe('succeeded');
  });

  it('refuses to store 4000000000000341', async () => {
    expect(await simulator.storeCard({ idempotencyKey: 's2', card: card('4000000000000341') })).toEqual({
      status: 'declined',
      code: 'card_storage_refused',
      message: 'Kart saklama isteği banka tarafından reddedildi',
    });
  });

  it('keeps a declining card declining when charged by reference', async () => {
    const stored = await simulator.storeCard({ idempotencyKey: 's3', card: card('4000000000000002') });
    if (stored.status !== 'stored') throw new Error('expected stored');
    const { card: _card, ...rest } = payment('4000000000000002');
    const paid = await simulator.charge({ ...rest, savedCard: { cardReference: stored.cardReference } });
    expect(paid).toMatchObject({ status: 'declined', code: 'insufficient_funds' });
  });

  it('deletes a stored card and reports unknown references', async () => {
    const stored = await simulator.storeCard({ idempotencyKey: 's4', card: card('4111111111111111') });
    if (stored.status !== 'stored') throw new Error('expected stored');
    expect(await simulator.deleteCard({ cardReference: stored.cardReference })).toEqual({ status: 'deleted' });
    expect(await simulator.deleteCard({ cardReference: 'card_1' })).toMatchObject({ code: 'unknown_reference' });
  });
});

describe('simulator BIN lookup', () => {
  it('knows the 8-digit BIN', async () => {
    expect(await simulator.binLookup('41111111')).toEqual({
      bin: '41111111',
      issuerName: 'Simülasyon Bank',
      issuerCode: '0001',
      scheme: 'visa',
      type: 'credit',
      program: 'Simülasyon Bonus',
      isCommercial: false,
    });
  });

  it('knows the 6-digit BIN', async () => {
    expect(await simulator.binLookup('979203')).toMatchObject({ bin: '979203', scheme: 'troy', type: 'debit' });
    expect(await simulator.binLookup('510510')).toMatchObject({ scheme: 'mastercard', type: 'debit' });
  });

  it('falls back to 6 digits when the 8-digit BIN is unknown', async () => {
    expect(await simulator.binLookup('55555599')).toMatchObject({ bin: '555555', scheme: 'mastercard', type: 'credit' });
  });

  it('answers visa credit for the shared 400000 BIN', async () => {
    expect(await simulator.binLookup('40000000')).toMatchObject({ scheme: 'visa', type: 'credit', issuerName: 'Simülasyon Bank' });
  });

  it('returns nulls for an unknown BIN', async () => {
    expect(await simulator.binLookup('123456')).toEqual({
      bin: '123456',
      issuerName: null,
      issuerCode: null,
      scheme: null,
      type: null,
      program: null,
      isCommercial: null,
    });
  });
});

describe('installments', () => {
  it('offers 12 options for TRY with the default rates', async () => {
    const options = await simulator.installments({ bin: '411111', amount: 10000n, currency: 'TRY' });
    expect(options.map((o) => o.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(options[0]).toEqual({ number: 1, amount: 10000n, total: 10000n });
    expect(options[1]).toEqual({ number: 2, amount: 5075n, total: 10150n });
    expect(options[2]).toEqual({ number: 3, amount: 3433n, total: 10300n });
    expect(options[11]).toEqual({ number: 12, amount: 971n, total: 11650n });
  });

  it('offers none outside TRY', async () => {
    expect(await simulator.installments({ bin: '411111', amount: 10000n, currency: 'EUR' })).toEqual([]);
  });

  it('rounds half up on totals and on each instalment', () => {
    // 1.00 TRY * 1.015 = 1.015 TRY -> 102 kuruş, / 2 = 51
    expect(computeInstallments(100n, 'TRY')[1]).toEqual({ number: 2, amount: 51n, total: 102n });
    // 2.00 TRY * 1.015 = 2.03 TRY, / 2 = 101.5 -> 102 kuruş
    expect(computeInstallments(200n, 'TRY')[1]).toEqual({ number: 2, amount: 102n, total: 203n });
    // 9.99 TRY * 1.015 = 10.13985 TRY -> 1014 kuruş
    expect(computeInstallments(999n, 'TRY')[1]).toEqual({ number: 2, amount: 507n, total: 1014n });
  });

  it('uses the account rates when given', async () => {
    const rates = [0, 300, 0];
    const options = await simulator.installments({ bin: '411111', amount: 10000n, currency: 'TRY', monthlyRatesBp: rates });
    expect(options[1].total).toBe(10300n);
    expect(options[2].total).toBe(10000n);
    // Entries the account left out keep the default rate.
    expect(options[3].total).toBe(10450n);
  });

  it('rejects a negative rate', () => {
    expect(() => computeInstallments(100n, 'TRY', [-1])).toThrow(RangeError);
  });
});

describe('simulator books (status inquiries about answers that were lost)', () => {
  it('reports the answer it gave to a charge, by its idempotency key, without a reference', async () => {
    const bank = new SimulatorBank(deps);
    const approved = await bank.charge(payment('4111111111111111', 'books-approved'));
    await bank.charge(payment('4000000000000002', 'books-declined'));

    expect(await bank.paymentStatus({ idempotencyKey: 'books-approved', providerReference: null, amount: 10000n, currency: 'TRY' })).toEqual(approved);
    expect(await bank.paymentStatus({ idempotencyKey: 'books-declined', providerReference: null, amount: 10000n, currency: 'TRY' })).toEqual({ status: 'declined', code: 'insufficient_funds', message: 'Yetersiz bakiye' });
    // Another process's bank (the books are per process) never got the call
    expect(await new SimulatorBank(deps).paymentStatus({ idempotencyKey: 'books-approved', providerReference: null, amount: 10000n, currency: 'TRY' })).toEqual({ status: 'unknown' });
  });

  it('reports the answer it gave to a 3D completion', async () => {
    const bank = new SimulatorBank(deps);
    const started = await bank.start3D({ ...payment('4000000000000002', 'books-3d'), callbackUrl: 'http://127.0.0.1:2/cb' });
    if (started.status !== 'redirect') throw new Error('expected a redirect');
    await bank.complete3D({ idempotencyKey: 'books-3d:complete', payment: threeDs(started.providerReference), data: {} });

    expect(await bank.paymentStatus({ idempotencyKey: 'books-3d:complete', providerReference: started.providerReference, amount: 10000n, currency: 'TRY' })).toMatchObject({ status: 'declined', code: 'insufficient_funds' });
  });

  it('reports refunds and cancels it made or refused, and knows nothing of others', async () => {
    const bank = new SimulatorBank(deps);
    const paid = await bank.charge(payment('4111111111111111', 'books-paid'));
    const refused = await bank.charge(payment('5105105105105100', 'books-paid-2'));
    if (paid.status !== 'succeeded' || refused.status !== 'succeeded') throw new Error('expected success');
    const refund = await bank.refund({ idempotencyKey: 'refund:1', providerReference: paid.providerReference, amount: 100n, currency: 'TRY' });
    await bank.cancel({ idempotencyKey: 'cancel:2', providerReference: refused.providerReference });

    expect(await bank.refundStatus({ idempotencyKey: 'refund:1', providerReference: paid.providerReference })).toEqual(refund);
    expect(await bank.refundStatus({ idempotencyKey: 'cancel:2', providerReference: refused.providerReference })).toMatchObject({ status: 'declined', code: 'refund_rejected' });
    expect(await bank.refundStatus({ idempotencyKey: 'refund:3', providerReference: paid.providerReference })).toEqual({ status: 'unknown' });
  });

  it('forgets the oldest answers beyond its limit', async () => {
    const bank = new SimulatorBank(deps);
    await bank.charge(payment('4111111111111111', 'books-first'));
    await bank.charge(payment('4111111111111111', 'books-second'));
    // Each refused refund is an answer in the books too
    for (let i = 0; i < BOOKS_LIMIT - 1; i++) await bank.refund({ idempotencyKey: `filler-${i}`, providerReference: 'r', amount: 0n, currency: 'TRY' });

    expect(await bank.paymentStatus({ idempotencyKey: 'books-first', providerReference: null, amount: 10000n, currency: 'TRY' })).toEqual({ status: 'unknown' });
    expect(await bank.paymentStatus({ idempotencyKey: 'books-second', providerReference: null, amount: 10000n, currency: 'TRY' })).toMatchObject({ status: 'succeeded' });
  });
});

describe('simulator silent card 4000000000000127', () => {
  it('answers neither the charge nor any status inquiry about it', async () => {
    const bank = new SimulatorBank(deps);
    await expect(bank.charge(payment('4000000000000127', 'silent-charge'))).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(bank.paymentStatus({ idempotencyKey: 'silent-charge', providerReference: null, amount: 10000n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('starts 3D, then answers neither the completion nor inquiries under its reference', async () => {
    const started = await start(payment('4000000000000127', 'silent-3d'));
    if (started.status !== 'redirect') throw new Error('expected pending');
    await expect(completeWith('silent-3d:complete', started.providerReference, 'approve')).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(new SimulatorBank(deps).paymentStatus({ idempotencyKey: 'other', providerReference: started.providerReference, amount: 10000n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});

describe('simulator silent-refund card 4000000000000267', () => {
  it('approves, then answers neither its refunds and cancels nor inquiries about them', async () => {
    const bank = new SimulatorBank(deps);
    const paid = await bank.charge(payment('4000000000000267', 'silent-refund-pay'));
    if (paid.status !== 'succeeded') throw new Error('expected success');
    const { providerReference } = paid;
    await expect(bank.refund({ idempotencyKey: 'refund:9', providerReference, amount: 100n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(bank.cancel({ idempotencyKey: 'cancel:9', providerReference })).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(bank.refundStatus({ idempotencyKey: 'refund:9', providerReference })).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(bank.refundStatus({ idempotencyKey: 'cancel:9', providerReference })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});
