// The recording wrapper on its own: what it keeps of an answer (bounded, card-like digits masked),
// what it records for a call that throws, and that quotes pass through unrecorded. The connector
// here is the simulator's, with one call replaced where a provider's odd answer is needed.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.ts';
import { recordAttempts, PROVIDER_MESSAGE_MAX, type ProviderAttemptRecord } from '../../src/providers/recording.ts';
import { ProviderTimeoutError, type CallbackCheck, type Connector } from '../../src/providers/types.ts';
import { simulatorProvider } from '../../src/providers/simulator.ts';

const account = { id: '6f1c2e0a-6f7b-4a53-9d51-2b8f0c0d4e11', workspaceId: '0d4b7c1e-2a3f-4b5c-8d9e-0f1a2b3c4d5e' };
const payment = '0b9c7a52-3f1e-4c2a-9d8e-5a6b7c8d9e0f';

function recorded(connector: Connector) {
  const clock = new ManualClock('2026-01-01T10:00:00Z');
  const records: ProviderAttemptRecord[] = [];
  return { clock, records, connector: recordAttempts(connector, account, { now: () => clock.now(), record: (a) => records.push(a) }) };
}
const CARD = { holderName: 'AYSE YILMAZ', number: '4111111111111111', securityCode: '739', expiryMonth: '12', expiryYear: '2030' };
const charge = { idempotencyKey: `${payment}:charge`, amount: 100n, currency: 'TRY' as const, installmentNumber: 1, card: CARD };


function simulator(): Connector {
  return simulatorProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1:9', key: () => Buffer.alloc(32), log: () => {} }).connect({ id: account.id, credentials: {}, settings: {} });
}
/** The simulator with `charge` answering as a provider might. */
const answering = (charged: Connector['charge']): Connector => Object.assign(Object.create(simulator()) as Connector, { charge: charged });

describe('recordAttempts', () => {
  it('records a call with its account, key, subject, start and duration by the clock', async () => {
    const r = recorded(Object.assign(Object.create(simulator()) as Connector, {
      charge: async () => {
        r.clock.advance(250);
        return { status: 'succeeded', providerReference: 'ref-1' } as const;
      },
    }));
    await r.connector.charge(charge);
    expect(r.records).toEqual([
      {
        workspaceId: account.workspaceId,
        paymentAccountId: account.id,
        provider: 'simulator',
        operation: 'charge',
        idempotencyKey: `${payment}:charge`,
        paymentId: payment,
        refundId: null,
        startedAt: new Date('2026-01-01T10:00:00Z'),
        durationMs: 250,
        outcome: 'succeeded',
        providerCode: null,
        providerMessage: null,
        errorCode: null,
      },
    ]);
  });

  it("keeps at most 255 characters of the provider's text, with a card-like number in it masked", async () => {
    const text = `Card 4111111111111111 refused. ${'x'.repeat(400)}`;
    const r = recorded(answering(async () => ({ status: 'declined', code: 'do_not_honour', message: 'Reddedildi', providerCode: '05', providerMessage: text })));
    await r.connector.charge(charge);
    expect(r.records[0]).toMatchObject({ outcome: 'declined', providerCode: '05', errorCode: 'do_not_honour' });
    expect(r.records[0]!.providerMessage).toHaveLength(PROVIDER_MESSAGE_MAX);
    expect(r.records[0]!.providerMessage!.startsWith('Card 411111******1111 refused.')).toBe(true);
  });

  it('a timeout is outcome timeout (the payment\'s or the refund\'s code); any other exception is error without codes; both are thrown on', async () => {
    const r = recorded(Object.assign(Object.create(simulator()) as Connector, {
      charge: () => Promise.reject(new ProviderTimeoutError('simulator', 'charge')),
      cancel: () => Promise.reject(new ProviderTimeoutError('simulator', 'cancel')),
      // Thrown before any promise exists, as a connector's own bug would be.
      refund: () => {
        throw new Error('socket hang up 4111111111111111');
      },
    }));
    await expect(r.connector.charge(charge)).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(r.connector.cancel({ idempotencyKey: `cancel:${payment}`, providerReference: 'p' })).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(r.connector.refund({ idempotencyKey: `refund:${payment}:2`, providerReference: 'p', amount: 1n, currency: 'TRY' })).rejects.toThrow('socket hang up');
    expect(r.records.map((a) => [a.operation, a.outcome, a.errorCode, a.providerMessage, a.paymentId, a.refundId])).toEqual([
      ['charge', 'timeout', 'provider_timeout', null, payment, null],
      ['cancel', 'timeout', 'provider_timeout_refund', null, null, payment],
      ['refund', 'error', null, null, null, payment],
    ]);
  });

  it('quotes and the callback check are not recorded; a card deletion is, without a key', async () => {
    const r = recorded(simulator());
    await r.connector.binLookup('41111111');
    await r.connector.installments({ bin: '41111111', amount: 10_000n, currency: 'TRY' });
    expect(r.records).toEqual([]);
    const stored = await r.connector.storeCard({ idempotencyKey: 'save-card:x', card: CARD });
    expect(stored.status).toBe('stored');
    await r.connector.deleteCard({ cardReference: stored.status === 'stored' ? stored.cardReference : '' });
    expect(r.records.map((a) => [a.operation, a.outcome, a.idempotencyKey, a.paymentId])).toEqual([
      ['storeCard', 'succeeded', 'save-card:x', null],
      ['deleteCard', 'succeeded', null, null],
    ]);
    expect(JSON.stringify(r.records, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toMatch(/4111111111111111|739|2030/);
  });

  it("a callback check that asks the bank is recorded as the 3-D completion's first call, under the start's key; one that does not ask is not", async () => {
    const threeDs = { startKey: `${payment}:authorise`, providerReference: 'ref-1', amount: 100n, currency: 'TRY' as const };
    const asking = (check: CallbackCheck): Connector => Object.assign(Object.create(simulator()) as Connector, { callbackCheckAsksBank: true, verifyCallback: async () => check });
    const checks: CallbackCheck[] = [
      { status: 'verified', authenticated: true, data: { a: '1' } },
      { status: 'verified', authenticated: false, failure: { status: 'declined', code: '3ds_failed', message: 'not authenticated', providerCode: 'mdStatus:0' } },
      { status: 'rejected', cause: 'incomplete', reason: 'the bank did not answer the callback check' },
    ];
    for (const check of checks) {
      const r = recorded(asking(check));
      expect(await r.connector.verifyCallback(threeDs, {})).toEqual(check);
      expect(r.records.map((a) => [a.operation, a.outcome, a.idempotencyKey, a.paymentId, a.errorCode, a.providerCode, a.providerMessage])).toEqual([
        [
          'complete3D',
          { verified: check.status === 'verified' && check.authenticated ? 'succeeded' : 'declined', rejected: 'error' }[check.status],
          `${payment}:authorise`,
          payment,
          check.status === 'verified' && !check.authenticated ? '3ds_failed' : null,
          check.status === 'verified' && !check.authenticated ? 'mdStatus:0' : null,
          check.status === 'rejected' ? check.reason : null,
        ],
      ]);
    }
    const own = recorded(simulator());
    await own.connector.verifyCallback(threeDs, {});
    expect(own.records).toEqual([]);
  });
});
