// A subscription whose account is a bank (EST stores no cards): its page's 3D payment is charged
// through EST, and the card is stored at the workspace's card storage account (here the simulator
// account, the oldest that stores cards), which then charges the renewals without 3D. Without such
// an account, subscriptions through the bank are refused before anything is written.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { postCallback } from '../helpers/payments.ts';
import { submitCard } from '../helpers/checkout.ts';
import { eventually } from '../helpers/webhooks.ts';
import { paymentBody } from '../helpers/payments.ts';
import { seedWorkspace, type Merchant } from '../helpers/gateway.ts';
import { recurringProduct, saveProducts, openSubscription, subscriptionBody, subscriptionRowCounts } from '../subscriptions/support.ts';
import { addEstAccount, answerEstAcs, EST_CARDS, estOrderOf, seedEstMerchant, useEstEmulator } from '../helpers/est.ts';
import { message } from '../../src/domain/messages.ts';

const { t, receiver: shop } = useGateway({ receiver: true, now: '2024-01-31T07:15:00.000Z' });
const est = useEstEmulator();
const card = { number: EST_CARDS.approved, security_code: '987' };

/** A workspace charging through EST by default, with its first (simulator) account still live: that one stores cards. */
async function bankAndVault(): Promise<Merchant & { vaultToken: string }> {
  const m = await seedWorkspace(t);
  const accountToken = await addEstAccount(t, m.workspaceId, est.emulator);
  return { ...m, accountToken, vaultToken: m.accountToken };
}

async function payFirstPeriod(checkoutUrl: string) {
  const submit = await submitCard(checkoutUrl, card);
  expect(submit.status, submit.html.slice(0, 300)).toBe(303);
  const answer = await answerEstAcs(new URL(submit.location!, checkoutUrl).href, 'approve');
  expect(answer.bank.action).toBe(est.emulator.gateUrl);
  return postCallback(answer.callbackUrl, answer.fields);
}

describe('a subscription charged through EST, its card stored at the card storage account', () => {
  it('the first period is charged at EST with 3D; the saved card belongs to the simulator account, which charges the renewal', async () => {
    const m = await bankAndVault();
    await saveProducts(m, [recurringProduct(m, 'PLAN-EST', { amount: '80.00' })]);
    const { token, checkoutUrl } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-EST' }], subscription: { channel_reference: 'SUB-EST-1', success_url: `${shop.url}/success` } });
    expect((await payFirstPeriod(checkoutUrl)).status).toBe(200);

    const first = await t.gateway.services.db.subscription.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    expect(first.status).toBe('active');
    const [paid] = first.payments;
    expect(paid).toMatchObject({ status: 'successful', securityType: 'secure', amount: 8_000n, paymentAccountId: m.accountToken, pendingCardReference: null, pendingCardAccountId: null });
    expect(estOrderOf(est.emulator, paid!.id)).toMatchObject({ transactions: [expect.objectContaining({ chargeType: 'S', status: 'A', amountMinor: 8_000 })] });
    const stored = await t.gateway.services.db.savedCard.findUniqueOrThrow({ where: { id: paid!.storedCardId! } });
    expect(stored).toMatchObject({ paymentAccountId: m.vaultToken, isDefault: true, lastFourDigits: EST_CARDS.approved.slice(-4) });
    expect(JSON.stringify(stored)).not.toContain(EST_CARDS.approved);

    // The period ends on 29 February; the renew-subscriptions job renews by the clock, through the card's account.
    t.clock.advance(30 * 24 * 60 * 60 * 1000);
    const renewal = await eventually(async () => {
      const payments = await t.gateway.services.db.payment.findMany({ where: { subscriptionId: token }, orderBy: { createdAt: 'asc' } });
      return payments.length === 2 && payments[1]!.status !== 'started' ? payments[1] : undefined;
    }, 'the renewal payment');
    expect(renewal).toMatchObject({ status: 'successful', securityType: 'non_secure', amount: 8_000n, paidWithCardId: stored.id, paymentAccountId: m.vaultToken });
    expect(estOrderOf(est.emulator, renewal.id)).toBeUndefined();
    expect((await t.gateway.services.db.subscription.findUniqueOrThrow({ where: { id: token } })).status).toBe('active');
    expect((await m.call('cancel-subscription', { subscription: { token } })).status).toBe(200);
  });

  it('a regular payment through EST with should_save: charged at EST, the card saved at the simulator account', async () => {
    const m = await bankAndVault();
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: EST_CARDS.approved, should_save: true }, transaction: { channel_reference: 'EST-SAVE-1' } }));
    expect(res.status, res.text).toBe(200);
    const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: res.body.transaction.token as string } });
    expect(row).toMatchObject({ status: 'successful', paymentAccountId: m.accountToken });
    expect(estOrderOf(est.emulator, row.id)).toMatchObject({ transactions: [expect.objectContaining({ chargeType: 'S', status: 'A' })] });
    const stored = await t.gateway.services.db.savedCard.findUniqueOrThrow({ where: { id: row.storedCardId! } });
    expect(stored.paymentAccountId).toBe(m.vaultToken);
  });
});

describe('subscriptions through EST with no account that stores cards', () => {
  it('subscription-payment is refused with 422 account_no_card_storage at payment_provider_token; nothing written', async () => {
    const m = await seedEstMerchant(t, est.emulator);
    await saveProducts(m, [recurringProduct(m, 'PLAN-EST-ONLY', { amount: '50.00' })]);
    const before = await subscriptionRowCounts(t);
    const res = await m.call('subscription-payment', subscriptionBody(m, { items: [{ channel_reference: 'PLAN-EST-ONLY' }], subscription: { channel_reference: 'SUB-EST-2' } }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'subscription.payment_provider_token': [message('account_no_card_storage')] });
    expect(await subscriptionRowCounts(t)).toEqual(before);
  });

  it('a simulator account whose card storage the merchant switched off does not stand in for the bank', async () => {
    const m = await bankAndVault();
    await t.gateway.services.db.paymentAccount.update({ where: { id: m.vaultToken }, data: { cardStorage: false } });
    await t.gateway.admission.synced();
    await saveProducts(m, [recurringProduct(m, 'PLAN-EST-OFF', { amount: '50.00' })]);
    const before = await subscriptionRowCounts(t);
    const res = await m.call('subscription-payment', subscriptionBody(m, { items: [{ channel_reference: 'PLAN-EST-OFF' }], subscription: { channel_reference: 'SUB-EST-3' } }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'subscription.payment_provider_token': [message('account_no_card_storage')] });
    expect(await subscriptionRowCounts(t)).toEqual(before);
  });
});
