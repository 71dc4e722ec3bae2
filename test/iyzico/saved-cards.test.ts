// Saved cards on an iyzico account (the emulator): card.should_save and save-card store the card
// in iyzico's card storage, a payment with saved_card_token charges that stored card at iyzico
// (regular and 3D), and delete-saved-card deletes it there.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerIyzicoAcs, emulatorState, IYZICO_CARDS, seedIyzicoMerchant, useIyzicoEmulator } from '../helpers/iyzico.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const iyzico = useIyzicoEmulator();
let m: Merchant;
let reference = 6000;

const merchant = async () => (m ??= await seedIyzicoMerchant(t, iyzico.emulator));
const customerRef = (customer: string) => ({ customer: { channel_token: m.channelToken, channel_reference: customer } });

/** iyzico's stored card behind a saved card of the gateway (its reference names iyzico's cardToken). */
async function storedAtIyzico(savedCardToken: string) {
  const row = await t.gateway.services.db.savedCard.findUniqueOrThrow({ where: { id: savedCardToken } });
  const cards = (await emulatorState(iyzico.emulator)).cards.filter((c) => row.providerCardReference.includes(c.cardToken));
  return { row, cards };
}

/** The emulator's payments charged with a stored card (its card facts are the stored card's). */
async function paymentsAtIyzico(token: string) {
  const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
  return (await emulatorState(iyzico.emulator)).payments.filter((p) => p.paymentId === row.providerReference);
}

describe('saved cards at iyzico', () => {
  it('regular-payment with card.should_save stores the card at iyzico; a later payment with saved_card_token charges it there', async () => {
    await merchant();
    const first = await m.call(
      'regular-payment',
      paymentBody(m, { customer: { channel_reference: 'SC-1', email: 'ayse@example.com.tr' }, card: { number: IYZICO_CARDS.approved, should_save: true }, transaction: { channel_reference: `IYZS-${reference++}` } }),
    );
    expect(first.body.result, first.text).toEqual({ successful: true, message: null });
    expect(first.body.saved_card).toMatchObject({ first_digits: '55287900', last_four_digit: '0008', is_default: true, scheme: 'mastercard', payment_provider_token: m.accountToken });
    const savedToken = first.body.saved_card.token as string;
    const stored = await storedAtIyzico(savedToken);
    expect(stored.cards).toHaveLength(1);
    expect(stored.cards[0]).toMatchObject({ email: 'ayse@example.com.tr', card: expect.objectContaining({ binNumber: '552879', lastFourDigits: '0008' }) });

    const again = await m.call(
      'regular-payment',
      paymentBody(m, { customer: { channel_reference: 'SC-1' }, card: null, transaction: { channel_reference: `IYZS-${reference++}`, saved_card_token: savedToken, amount: '42.00' } }),
    );

    expect(again.body.result, again.text).toEqual({ successful: true, message: null });
    const [charged] = await paymentsAtIyzico(again.body.transaction.token);
    expect(charged).toMatchObject({ status: 'SUCCESS', paidPrice: 4_200, conversationId: `${again.body.transaction.token}:charge`, card: expect.objectContaining({ lastFourDigits: '0008' }) });
  });

  it('save-card stores at iyzico; a 3D payment with the saved card charges it there; delete-saved-card deletes it at iyzico', async () => {
    await merchant();
    const saved = await m.call('save-card', {
      saved_card: { channel_token: m.channelToken },
      customer: { channel_reference: 'SC-2', email: 'mehmet@example.com.tr' },
      card: { holder_name: 'MEHMET DEMIR', number: IYZICO_CARDS.approvedVisa, expiry_month: '12', expiry_year: '2030', security_code: '987' },
    });
    expect(saved.body.result, saved.text).toEqual({ successful: true, message: null });
    const savedToken = saved.body.saved_card.token as string;
    expect((await storedAtIyzico(savedToken)).cards).toHaveLength(1);

    const secure = await m.call(
      'secure-payment',
      paymentBody(m, { customer: { channel_reference: 'SC-2' }, card: null, transaction: { channel_reference: `IYZS-${reference++}`, saved_card_token: savedToken, callback_url: `${shop.url}/back` } }),
    );
    expect(secure.body.result.successful, secure.text).toBe(true);
    const answer = await answerIyzicoAcs(await (await fetch(secure.body.result.redirect_url)).text(), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const [charged] = await paymentsAtIyzico(secure.body.transaction.token);
    expect(charged).toMatchObject({ status: 'SUCCESS', threeDS: true, card: expect.objectContaining({ lastFourDigits: '0000' }) });

    const { row } = await storedAtIyzico(savedToken);
    const deleted = await m.call('delete-saved-card', { ...customerRef('SC-2'), saved_card: { token: savedToken } });

    expect(deleted.body.result, deleted.text).toEqual({ successful: true, message: null });
    expect((await emulatorState(iyzico.emulator)).cards.filter((c) => row.providerCardReference.includes(c.cardToken))).toEqual([]);
    expect(await t.gateway.services.db.savedCard.findUnique({ where: { id: savedToken } })).toBeNull();
  });

  it('secure-payment with card.should_save: saved_card null at the start, the card stored at iyzico once 3D completes', async () => {
    await merchant();
    const started = await m.call(
      'secure-payment',
      paymentBody(m, { customer: { channel_reference: 'SC-4', email: 'zeynep@example.com.tr' }, card: { number: IYZICO_CARDS.approvedVisa, should_save: true }, transaction: { channel_reference: `IYZS-${reference++}`, callback_url: `${shop.url}/back` } }),
    );
    expect(started.body.result.successful, started.text).toBe(true);
    expect(started.body.saved_card).toBeNull();
    const token = started.body.transaction.token as string;

    const answer = await answerIyzicoAcs(await (await fetch(started.body.result.redirect_url)).text(), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);

    const done = await m.call('retrieve-payment', { transaction: { token } });
    expect(done.body.result).toEqual({ successful: true, message: null });
    expect(done.body.saved_card).toMatchObject({ first_digits: '46034500', last_four_digit: '0000', scheme: 'visa', is_default: true });
    const { cards } = await storedAtIyzico(done.body.saved_card.token);
    expect(cards).toEqual([expect.objectContaining({ email: 'zeynep@example.com.tr', card: expect.objectContaining({ lastFourDigits: '0000' }) })]);
  });

  it('a card iyzico will not store: save-card answers successful false, saved_card null, nothing kept', async () => {
    await merchant();
    const res = await m.call(
      'save-card',
      { saved_card: { channel_token: m.channelToken }, customer: { channel_reference: 'SC-3', email: 'x@example.com' }, card: { holder_name: 'X Y', number: '4000000000000002', expiry_month: '12', expiry_year: '2030' } },
    );
    expect(res.body.result.successful).toBe(false);
    expect(res.body.saved_card).toBeNull();
    expect(await t.gateway.services.db.savedCard.count({ where: { customer: { channelReference: 'SC-3' } } })).toBe(0);
  });
});
