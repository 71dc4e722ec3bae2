import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, completeThreeDs, paymentBody } from '../helpers/payments.ts';

const { t, merchant: m, seed } = useGateway({ merchant: true });

describe('card.should_save and paying with a saved card', () => {
  it('regular-payment stores the card after success and returns it; without should_save the key is absent', async () => {
    const saved = await m.call('regular-payment', paymentBody(m, { customer: { channel_reference: 'SS-1' }, card: { should_save: true } }));
    expect(saved.status).toBe(200);
    expect(saved.body.saved_card).toMatchObject({ first_digits: '41111111', last_four_digit: '1111', expiry_month: '12', expiry_year: '2030', is_default: true });
    const plain = await m.call('regular-payment', paymentBody(m, { customer: { channel_reference: 'SS-1' } }));
    expect('saved_card' in plain.body).toBe(false);
  });

  it('secure-payment answers saved_card null at the start and retrieve-payment shows the card after 3D', async () => {
    const start = await m.call('secure-payment', paymentBody(m, { customer: { channel_reference: 'SS-2' }, card: { number: CARDS.mastercard, should_save: true } }));
    expect(start.body.saved_card).toBeNull();
    await completeThreeDs(start.body.result.redirect_url, 'approve');
    const done = await m.call('retrieve-payment', { transaction: { token: start.body.transaction.token } });
    expect(done.body.result.successful).toBe(true);
    expect(done.body.saved_card).toMatchObject({ first_digits: '55555555', last_four_digit: '4444', scheme: 'mastercard' });
  });

  it('a declined 3D payment saves nothing; a card the provider will not store gives saved_card null', async () => {
    const start = await m.call('secure-payment', paymentBody(m, { customer: { channel_reference: 'SS-3' }, card: { should_save: true } }));
    await completeThreeDs(start.body.result.redirect_url, 'decline');
    const declined = await m.call('retrieve-payment', { transaction: { token: start.body.transaction.token } });
    expect(declined.body.saved_card).toBeNull();
    const refused = await m.call('regular-payment', paymentBody(m, { customer: { channel_reference: 'SS-3' }, card: { number: CARDS.storageRefused, should_save: true } }));
    expect(refused.body.result.successful).toBe(true);
    expect(refused.body.saved_card).toBeNull();
    expect(await t.gateway.services.db.savedCard.count({ where: { customer: { channelReference: 'SS-3' } } })).toBe(0);
  });

  it('a saved card pays through regular-payment and secure-payment', async () => {
    const first = await m.call('regular-payment', paymentBody(m, { customer: { channel_reference: 'SS-4' }, card: { should_save: true } }));
    const token = first.body.saved_card.token;
    const body = paymentBody(m, { customer: { channel_reference: 'SS-4' }, transaction: { saved_card_token: token }, card: null });
    const regular = await m.call('regular-payment', body);
    expect(regular.body.result).toEqual({ successful: true, message: null });
    const secure = await m.call('secure-payment', body);
    expect(secure.body.result.successful).toBe(true);
    const threeDs = await completeThreeDs(secure.body.result.redirect_url, 'approve');
    expect(threeDs.returnToken).toBe(secure.body.transaction.token);
    const other = await m.call('regular-payment', { ...body, customer: { channel_reference: 'SS-OTHER' } });
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.errors)).toEqual(['transaction.saved_card_token']);
  });

  it('should_save is refused when the plan does not cover saved cards', async () => {
    const noCards = await seed({ plan: { orders: true } });
    const res = await noCards.call('regular-payment', paymentBody(noCards, { card: { should_save: true } }));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['card.should_save']);
    const save = await noCards.call('save-card', { saved_card: { channel_token: noCards.channelToken }, customer: { channel_reference: 'X' }, card: { holder_name: 'A', number: CARDS.approved, expiry_month: '12', expiry_year: '2030' } });
    expect(save.status).toBe(403);
  });
});
