import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, completeThreeDs, followReturnPost, paymentBody } from '../helpers/payments.ts';

const { t, merchant: m, receiver: merchant } = useGateway({ merchant: true, receiver: true });

describe('3D payment end to end', () => {
  it('start, approve, return POST, retrieve, refund', async () => {
    const start = await m.call('secure-payment', paymentBody(m, { transaction: { callback_url: `${merchant.url}/cb` } }));
    expect(start.status).toBe(200);
    expect(start.body.result.successful).toBe(true);
    expect(Object.keys(start.body)).toEqual(['result', 'transaction', 'customer', 'conversion']);
    const token = start.body.transaction.token;
    const pending = await m.call('retrieve-payment', { transaction: { token } });
    expect(pending.body.result).toEqual({ successful: false, message: '' });

    const threeDs = await completeThreeDs(start.body.result.redirect_url, 'approve');
    expect(threeDs.pageStatus).toBe(200);
    expect(threeDs.returnToken).toBe(token);
    expect(await followReturnPost(threeDs.returnUrl!, threeDs.returnToken!)).toBe(200);
    expect(merchant.requests[0]!.body).toBe(`transaction_token=${token}`);

    const done = await m.call('retrieve-payment', { transaction: { token } });
    expect(done.body.result).toEqual({ successful: true, message: null });

    const refund = await m.call('refund-payment', { transaction: { token }, amount: '40.00' });
    expect(refund.status).toBe(200);
    expect(refund.body.refund).toEqual({ type: 'refund', amount: '40.00' });
    const cancel = await m.call('cancel-payment', { transaction: { token } });
    expect(cancel.status).toBe(422);
    const rest = await m.call('refund-payment', { transaction: { token } });
    expect(rest.body.refund).toEqual({ type: 'refund', amount: '60.00' });
    const again = await m.call('refund-payment', { transaction: { token } });
    expect(again.status).toBe(422);
    const events = await t.gateway.services.db.outboxEvent.findMany({ orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => e.kind).sort()).toEqual(['transaction.payment_refunded', 'transaction.payment_refunded', 'transaction.successful']);
  });

  it('regular payment declined is 200 with successful false', async () => {
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.insufficientFunds } }));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: 'Yetersiz bakiye', error_code: 'insufficient_funds' });
  });

  it('two parallel requests with one Idempotency-Key make one payment', async () => {
    const body = paymentBody(m, { transaction: { channel_reference: 'IDEM-1' } });
    const headers = { 'Idempotency-Key': 'key-1' };
    const [a, b] = await Promise.all([m.call('regular-payment', body, { headers }), m.call('regular-payment', body, { headers })]);
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(await t.gateway.services.db.payment.count({ where: { channelReference: 'IDEM-1' } })).toBe(1);
    const other = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'IDEM-2' } }), { headers });
    expect(other.status).toBe(422);
  });
});

describe('retrieve-payments', () => {
  it('lists the last 7 days by default and by channel_reference', async () => {
    const all = await m.call('retrieve-payments', {});
    expect(all.status).toBe(200);
    expect(all.body.created_from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(all.body.payments.length).toBeGreaterThan(0);
    const one = await m.call('retrieve-payments', { channel_reference: 'IDEM-1' });
    expect(one.body.payments).toHaveLength(1);
    expect('created_from' in one.body).toBe(false);
    const bad = await m.call('retrieve-payments', { created_from: '2026-01-01', created_to: '2026-01-09' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['created_to']);
  });
});
