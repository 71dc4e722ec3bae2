// Renewals the merchant scheduled are judged as their own source (`renewal`) and never counted or
// stopped by the guard: a workspace whose refusals block shoppers' attempts still renews, while its
// subscription page's first payment is counted like any shopper's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.ts';
import { seedWorkspace, startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { advance, openSubscription, payPeriod, recurringProduct, saveProducts, subscriptionRow } from '../subscriptions/support.ts';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ clock: new ManualClock('2024-01-31T07:15:00.000Z') });
});
afterAll(() => t?.stop());

describe('renewals and the card-testing guard', () => {
  it('the page payment is counted; the renewal is judged as a renewal and goes through while shoppers are blocked', async () => {
    const m = await seedWorkspace(t, { riskGuard: true });
    await saveProducts(m, [recurringProduct(m, 'PLAN-M', { amount: '100.00', period: 'monthly' })]);
    const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M' }] });
    const { started } = await payPeriod(t, token);
    expect(started.kind).toBe('redirect');
    const first = (await subscriptionRow(t, token)).periods[0]!.payments[0]!;
    expect(first.risk).toMatchObject({ outcome: 'allow', source: 'subscription', guarded: true, figures: [{ kind: 'ip' }, { kind: 'target' }, { kind: 'workspace' }] });

    // One refusal in the window blocks the workspace's next shopper attempt.
    await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { riskWorkspaceDeclines: 1 } });
    await t.gateway.admission.synced();
    const declined = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'R-1' }, card: { number: CARDS.insufficientFunds } }));
    expect(declined.body.result.error_code).toBe('insufficient_funds');
    const blocked = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'R-2', ip: '192.0.2.99' } }));
    expect(blocked.body.result.error_code).toBe('blocked');

    const moved = await advance(t, m, '1mo');
    expect(moved.steps.map((s) => s.outcome)).toEqual(['renewed']);
    const renewal = (await subscriptionRow(t, token)).periods[1]!.payments[0]!;
    expect(renewal).toMatchObject({ status: 'successful', securityType: 'non_secure' });
    expect(renewal.risk).toMatchObject({ outcome: 'allow', source: 'renewal', guarded: false, rules: [], figures: [] });
  });
});
