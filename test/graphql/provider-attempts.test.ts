// Payment.providerAttempts over /graphql: the payment's calls to its provider in the order they
// started (its refund's too), with the account's name, times in ISO 8601 and durations in ms; seen by
// whoever sees the payment (its workspace's dashboard token, a support token), by nobody else.
import { describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { isoMicro } from '../../src/domain/clock.ts';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, completeThreeDs, paymentBody } from '../helpers/payments.ts';
import { gql } from '../helpers/webhooks.ts';

const { t, merchant: m, merchants } = useGateway({ merchant: true, merchants: { other: {} } });

const QUERY = `query($token: String!) { payment(token: $token) { token providerAttempts {
  operation provider paymentProviderToken paymentAccountName refundToken idempotencyKey startedAt durationMs outcome providerCode providerMessage errorCode } } }`;

async function attemptsSeenBy(token: string, paymentToken: string) {
  await t.gateway.services.attempts.drain();
  const res = await gql(t, token, QUERY, { token: paymentToken });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.payment?.providerAttempts ?? null;
}

describe('Payment.providerAttempts', () => {
  it('a 3D payment refunded: start3D, complete3D, refund, in order, for the workspace and support; not for another workspace', async () => {
    const started = t.clock.now();
    const start = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: 'GQL-ATT-1' } }));
    const token = start.body.transaction.token as string;
    t.clock.advance(1_000);
    await completeThreeDs(start.body.result.redirect_url, 'approve');
    t.clock.advance(1_000);
    expect((await m.call('refund-payment', { transaction: { token }, amount: '10.00' })).body.result.successful).toBe(true);
    const refund = await t.gateway.services.db.refund.findFirstOrThrow({ where: { paymentId: token } });

    const dashboard = await createAccessToken(t.gateway.services.db, m.team, 'dash');
    const attempts = await attemptsSeenBy(dashboard, token);

    const common = { provider: 'simulator', paymentProviderToken: m.accountToken, paymentAccountName: 'Simulator', durationMs: 0, providerCode: null, providerMessage: null, errorCode: null };
    expect(attempts).toEqual([
      { ...common, operation: 'start3D', outcome: 'redirect', refundToken: null, idempotencyKey: `${token}:authorise`, startedAt: isoMicro(started) },
      { ...common, operation: 'complete3D', outcome: 'succeeded', refundToken: null, idempotencyKey: `${token}:complete`, startedAt: isoMicro(new Date(started.getTime() + 1_000)) },
      { ...common, operation: 'refund', outcome: 'succeeded', refundToken: refund.id, idempotencyKey: `refund:${refund.id}`, startedAt: isoMicro(new Date(started.getTime() + 2_000)) },
    ]);
    expect(await attemptsSeenBy(await createAccessToken(t.gateway.services.db, null, 'support'), token)).toEqual(attempts);
    expect(await attemptsSeenBy(await createAccessToken(t.gateway.services.db, merchants.other.team, 'dash'), token)).toBeNull();
  });

  it("a declined payment's attempt carries the provider's code and text and the gateway's error_code", async () => {
    const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'GQL-ATT-2' }, card: { number: CARDS.insufficientFunds } }));
    const token = res.body.transaction.token as string;
    const payment = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });

    const [charge] = await attemptsSeenBy(await createAccessToken(t.gateway.services.db, m.team, 'dash'), token);

    expect(charge).toMatchObject({ operation: 'charge', outcome: 'declined', errorCode: 'insufficient_funds', providerCode: payment.providerErrorCode, providerMessage: payment.providerErrorMessage });
  });
});
