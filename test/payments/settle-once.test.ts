// A payment is settled once. A settlement can be written a second time: `untilWritten` and
// `commitAfterBank` write again when the connection is cut, also when it was cut after the COMMIT
// had landed, and a bank's answer can come late, after the sweep of interrupted payments settled
// the payment. The second write must change nothing: no second status, no second event.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { eventsOf, startedPayment as started } from '../helpers/rows.ts';
import { settleAfterBank, settlePayment } from '../../src/domain/payments/settle.ts';

const { t, merchant: m } = useGateway({ merchant: true });
let reference = 1;

const startedPayment = () => started(t, m, `ONCE-${reference++}`);

const status = async (id: string) => (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } })).status;

describe('a settlement written twice', () => {
  it('the same answer again (a retry after its COMMIT landed): one status, one event, the settled row answered', async () => {
    const p = await startedPayment();
    const first = await settleAfterBank(t.gateway.services, p, { status: 'successful', providerReference: 'sim-1' });
    const again = await settleAfterBank(t.gateway.services, p, { status: 'successful', providerReference: 'sim-1' });
    expect(first.status).toBe('successful');
    expect(again).toEqual(first);
    expect(await eventsOf(t, p.id)).toEqual(['transaction.successful']);
  });

  it('a late, different answer does not overwrite the settled payment nor add an event', async () => {
    const p = await startedPayment();
    await settleAfterBank(t.gateway.services, p, { status: 'failed', errorCode: 'payment_not_received', errorMessage: 'not received' });
    const late = await settleAfterBank(t.gateway.services, p, { status: 'successful', providerReference: 'sim-2' });
    expect(late.status).toBe('failed');
    expect(await status(p.id)).toBe('failed');
    expect(await eventsOf(t, p.id)).toEqual(['transaction.failed']);
  });

  it('inside a transaction too (owners with more to do): the second settlePayment runs no owner part', async () => {
    const p = await startedPayment();
    const db = t.gateway.services.db;
    const settle = () => db.$transaction((tx) => settlePayment(tx, t.gateway.services, p.id, { status: 'successful', providerReference: 'sim-3' }, t.clock.now()));
    await settle();
    const again = await settle();
    expect(again.status).toBe('successful');
    expect(await eventsOf(t, p.id)).toEqual(['transaction.successful']);
  });

  it('an unresolved payment is still settled when its bank answers later (reconciliation)', async () => {
    const p = await startedPayment();
    await settleAfterBank(t.gateway.services, p, { status: 'unresolved', errorCode: 'provider_timeout', errorMessage: 'no answer' });
    expect(await status(p.id)).toBe('unresolved');
    await settleAfterBank(t.gateway.services, p, { status: 'successful', providerReference: 'sim-4' });
    expect(await status(p.id)).toBe('successful');
    expect(await eventsOf(t, p.id)).toEqual(['transaction.successful']);
  });
});
