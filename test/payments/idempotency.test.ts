// Idempotency-Key on the money-moving operations: requests sharing a key reach the provider once.
// Every provider call is preceded by exactly one new row (a Payment for a charge or 3D start, a
// Refund for a refund or cancel), so counting rows counts provider calls.
import { describe, expect, it } from 'vitest';
import type { Merchant } from '../helpers/gateway.ts';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { rowCounts } from '../helpers/rows.ts';

const { t, merchant: m, seed } = useGateway({ merchant: true });
let reference = 1000;
let key = 0;

const nextKey = () => ({ 'Idempotency-Key': `idem-${Date.now()}-${key++}` });
const db = () => t.gateway.services.db;
const paymentsWith = (channelReference: string) => db().payment.count({ where: { channelReference } });
const refundsOf = (paymentId: string) => db().refund.count({ where: { paymentId } });

function regularBody(channelReference: string, amount = '100.00', merchant: Merchant = m) {
  const body = paymentBody(merchant, { transaction: { channel_reference: channelReference, amount } });
  delete (body.transaction as Record<string, unknown>).callback_url;
  return body;
}

async function paid(): Promise<string> {
  const res = await m.call('regular-payment', regularBody(`IDEM-${reference++}`));
  return res.body.transaction.token;
}

describe('two parallel requests with one key make one provider call', () => {
  it('regular-payment', async () => {
    // Given one request body and one key
    const ref = `IDEM-${reference++}`;
    const headers = nextKey();

    // When it is sent twice at the same time
    const [a, b] = await Promise.all([m.call('regular-payment', regularBody(ref), { headers }), m.call('regular-payment', regularBody(ref), { headers })]);

    // Then both get the same answer, from one payment
    expect(a.status).toBe(200);
    expect(a.body.result.successful).toBe(true);
    expect(b.text).toBe(a.text);
    expect(await paymentsWith(ref)).toBe(1);
  });

  it('secure-payment (one 3D start, one redirect address)', async () => {
    const ref = `IDEM-${reference++}`;
    const headers = nextKey();
    const body = paymentBody(m, { transaction: { channel_reference: ref } });

    const [a, b] = await Promise.all([m.call('secure-payment', body, { headers }), m.call('secure-payment', body, { headers })]);

    expect(a.body.result.redirect_url).toMatch(/\/checkout\/3ds\//);
    expect(b.text).toBe(a.text);
    expect(await paymentsWith(ref)).toBe(1);
  });

  it('refund-payment', async () => {
    const token = await paid();
    const headers = nextKey();

    const answers = await Promise.all(Array.from({ length: 3 }, () => m.call('refund-payment', { transaction: { token }, amount: '30.00' }, { headers })));

    expect(answers.every((r) => r.text === answers[0]!.text)).toBe(true);
    expect(answers[0]!.body.refund).toEqual({ type: 'refund', amount: '30.00' });
    expect(await refundsOf(token)).toBe(1);
    expect((await db().payment.findUniqueOrThrow({ where: { id: token } })).refundedAmount).toBe(3000n);
  });

  it('cancel-payment', async () => {
    const token = await paid();
    const headers = nextKey();

    const [a, b] = await Promise.all([m.call('cancel-payment', { transaction: { token } }, { headers }), m.call('cancel-payment', { transaction: { token } }, { headers })]);

    expect(a.body.result.successful).toBe(true);
    expect(b.text).toBe(a.text);
    expect(await refundsOf(token)).toBe(1);
  });
});

describe('a retry with the same key', () => {
  it('later gets the stored answer byte for byte and writes nothing', async () => {
    const ref = `IDEM-${reference++}`;
    const headers = nextKey();
    const first = await m.call('regular-payment', regularBody(ref), { headers });
    const before = await rowCounts(t);

    const retry = await m.call('regular-payment', regularBody(ref), { headers });

    expect(retry.status).toBe(first.status);
    expect(retry.text).toBe(first.text);
    expect(await rowCounts(t)).toEqual(before);
  });

  it('with another body is refused with 422 and writes nothing', async () => {
    const headers = nextKey();
    await m.call('regular-payment', regularBody(`IDEM-${reference++}`), { headers });
    const before = await rowCounts(t);

    const other = await m.call('regular-payment', regularBody(`IDEM-${reference++}`, '1.00'), { headers });

    expectFieldError(other, 'idempotency_key', 'idempotency_key_reused', { only: true });
    expect(await rowCounts(t)).toEqual(before);
  });
});

describe('the key is scoped', () => {
  it('without a key, two identical requests are two payments', async () => {
    const ref = `IDEM-${reference++}`;

    await Promise.all([m.call('regular-payment', regularBody(ref)), m.call('regular-payment', regularBody(ref))]);

    expect(await paymentsWith(ref)).toBe(2);
  });

  it('to the workspace: another merchant may use the same key', async () => {
    const other = await seed();
    const headers = nextKey();
    const ref = `IDEM-${reference++}`;

    const mine = await m.call('regular-payment', regularBody(ref), { headers });
    const theirs = await other.call('regular-payment', regularBody(ref, '100.00', other), { headers });

    expect(mine.body.result.successful).toBe(true);
    expect(theirs.body.result.successful).toBe(true);
    expect(theirs.body.transaction.token).not.toBe(mine.body.transaction.token);
  });

  it('to the operation: a refund and a cancel with the same key are separate requests', async () => {
    const token = await paid();
    const headers = nextKey();

    const r = await m.call('refund-payment', { transaction: { token }, amount: '10.00' }, { headers });
    const c = await m.call('cancel-payment', { transaction: { token } }, { headers });

    expect(r.body.result.successful).toBe(true);
    // The cancel ran (and was refused on its own merits) rather than replaying the refund.
    expectFieldError(c, 'transaction.token', 'partially_refunded_not_cancellable');
  });
});

it('refuses a key longer than 255 characters, writing nothing', async () => {
  const before = await rowCounts(t);

  const res = await m.call('regular-payment', regularBody(`IDEM-${reference++}`), { headers: { 'Idempotency-Key': 'k'.repeat(256) } });

  expect(res.status).toBe(422);
  expect(Object.keys(res.body.errors)).toEqual(['idempotency_key']);
  expect(await rowCounts(t)).toEqual(before);
});
