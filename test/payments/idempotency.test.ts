// Idempotency-Key on the money-moving operations: requests sharing a key reach the provider once,
// also when the request that claimed the key died without an answer (after a 30-second lease).
// Every provider call is preceded by exactly one new row (a Payment for a charge or 3D start, a
// Refund for a refund or cancel), so counting rows counts provider calls.
import { describe, expect, it } from 'vitest';
import type { Merchant } from '../helpers/gateway.ts';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { CARDS, completeThreeDs, paymentBody } from '../helpers/payments.ts';
import { rowCounts } from '../helpers/rows.ts';
import { requestHash } from '../../src/domain/idempotency.ts';

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

describe('a key whose request died without an answer', () => {
  const LEASE = 30_000;
  const raw = (body: unknown) => Buffer.from(JSON.stringify(body));
  /** The key row as a request killed mid-way leaves it: claimed now, no answer stored. */
  const crashedKey = (operation: string, body: unknown, headers: Record<string, string>) =>
    db().idempotencyRecord.create({ data: { workspaceId: m.workspaceId, operation, key: headers['Idempotency-Key']!, requestHash: requestHash(raw(body)), createdAt: t.clock.now() } });

  it('runs again after the 30-second lease when nothing was written, once for parallel retries', async () => {
    // Given a key claimed by a request that died before writing its payment
    const ref = `IDEM-${reference++}`;
    const headers = nextKey();
    await crashedKey('regular-payment', regularBody(ref), headers);

    // When the lease has passed and the merchant retries twice at once
    t.clock.advance(LEASE + 1000);
    const [a, b] = await Promise.all([m.call('regular-payment', regularBody(ref), { headers }), m.call('regular-payment', regularBody(ref), { headers })]);

    // Then one payment was made and both retries got its answer, which is kept for later ones
    expect(a.status).toBe(200);
    expect(a.body.result).toEqual({ successful: true, message: null });
    expect(b.text).toBe(a.text);
    expect(await paymentsWith(ref)).toBe(1);
    expect((await m.call('regular-payment', regularBody(ref), { headers })).text).toBe(a.text);
  });

  it.each([
    ['approved', CARDS.approved],
    ['declined', CARDS.insufficientFunds],
    ['left unresolved by a silent bank', CARDS.timeout],
  ])('answers with its payment (%s) as the operation did, writing nothing', async (_name, number) => {
    // Given a request that settled its payment and died before storing the answer
    const ref = `IDEM-${reference++}`;
    const headers = nextKey();
    const body = regularBody(ref);
    (body.card as Record<string, unknown>).number = number;
    await crashedKey('regular-payment', body, headers);
    const original = await m.call('regular-payment', body);
    t.clock.advance(LEASE + 1000);
    const before = await rowCounts(t);

    const retry = await m.call('regular-payment', body, { headers });

    expect(retry.status).toBe(200);
    expect(retry.text).toBe(original.text);
    expect(await rowCounts(t)).toEqual(before);
  });

  it('answers secure-payment with its 3D page while the payment waits on it, and with its outcome once settled', async () => {
    const ref = `IDEM-${reference++}`;
    const body = paymentBody(m, { transaction: { channel_reference: ref } });
    const waiting = nextKey();
    await crashedKey('secure-payment', body, waiting);
    const original = await m.call('secure-payment', body);
    t.clock.advance(LEASE + 1000);

    expect((await m.call('secure-payment', body, { headers: waiting })).text).toBe(original.text);

    const settled = nextKey();
    const ref2 = `IDEM-${reference++}`;
    const body2 = paymentBody(m, { transaction: { channel_reference: ref2 } });
    await crashedKey('secure-payment', body2, settled);
    const started = await m.call('secure-payment', body2);
    await completeThreeDs(started.body.result.redirect_url, 'approve');
    t.clock.advance(LEASE + 1000);

    const retry = await m.call('secure-payment', body2, { headers: settled });

    expect(retry.body.result).toEqual({ successful: true, message: null, redirect_url: null });
    expect(retry.body.transaction).toEqual(started.body.transaction);
    expect(await paymentsWith(ref2)).toBe(1);
  });

  it('runs a refund again when the request died before reserving it', async () => {
    const token = await paid();
    const headers = nextKey();
    const body = { transaction: { token }, amount: '25.00' };
    await crashedKey('refund-payment', body, headers);
    t.clock.advance(LEASE + 1000);

    const retry = await m.call('refund-payment', body, { headers });

    expect(retry.body.refund).toEqual({ type: 'refund', amount: '25.00' });
    expect(await refundsOf(token)).toBe(1);
  });

  it('keeps answering "in progress" while its payment may be at the bank, and never charges again', async () => {
    // Given a request that wrote its payment and died while the bank had the charge
    const ref = `IDEM-${reference++}`;
    const headers = nextKey();
    await crashedKey('regular-payment', regularBody(ref), headers);
    const original = await m.call('regular-payment', regularBody(ref));
    await db().payment.update({ where: { id: original.body.transaction.token }, data: { status: 'started', paymentStatus: null, providerReference: null, completedAt: null } });
    t.clock.advance(LEASE + 1000);

    const retry = await m.call('regular-payment', regularBody(ref), { headers });

    expect(retry.status).toBe(409);
    expect(retry.body.result.message).toBe('Bu Idempotency-Key ile gönderilen istek hâlâ işleniyor.');
    expect(await paymentsWith(ref)).toBe(1);
  });
});
