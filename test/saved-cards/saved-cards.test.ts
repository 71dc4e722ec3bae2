import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS } from '../helpers/payments.ts';

const { t, merchant: m } = useGateway({ merchant: true });

const save = (number: string = CARDS.approved, customer = 'CUST-SC') => {
  t.clock.advance(1000); // "most recently stored" needs distinct storage times
  return m.call('save-card', {
    saved_card: { channel_token: m.channelToken },
    customer: { channel_reference: customer },
    card: { holder_name: 'AYSE YILMAZ', number, expiry_month: '12', expiry_year: '2030', security_code: '987' },
  });
};
const ref = (token: string, customer = 'CUST-SC') => ({ customer: { channel_token: m.channelToken, channel_reference: customer }, saved_card: { token } });

describe('saved cards', () => {
  it('save-card stores the first card as default with first 8 and last 4 digits', async () => {
    const res = await save();
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.saved_card).toMatchObject({ first_digits: '41111111', last_four_digit: '1111', is_default: true, scheme: 'visa', payment_provider_token: m.accountToken });
    expect(res.body.customer).toEqual({ channel_reference: 'CUST-SC' });
  });

  it('a card the provider refuses to store gives saved_card null and the refusal\'s error_code', async () => {
    const res = await save(CARDS.storageRefused);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: 'Kart saklama isteği banka tarafından reddedildi', error_code: 'card_storage_refused' });
    expect(res.body.saved_card).toBeNull();
  });

  it('lists default first, switches default, deletes and hands the default to the newest', async () => {
    const second = (await save(CARDS.mastercard)).body.saved_card.token;
    const third = (await save(CARDS.troy)).body.saved_card.token;
    let list = await m.call('saved-cards', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-SC' } });
    expect(list.body.saved_cards.map((c: { is_default: boolean }) => c.is_default)).toEqual([true, false, false]);
    const [a, b] = await Promise.all([m.call('default-saved-card', ref(second)), m.call('default-saved-card', ref(third))]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    list = await m.call('saved-cards', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-SC' } });
    expect(list.body.saved_cards.filter((c: { is_default: boolean }) => c.is_default)).toHaveLength(1);
    const def = list.body.saved_cards[0].token;
    const del = await m.call('delete-saved-card', ref(def));
    expect(del.body).toEqual({ result: { successful: true, message: null }, saved_card: { token: def }, customer: { channel_reference: 'CUST-SC' } });
    list = await m.call('saved-cards', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-SC' } });
    expect(list.body.saved_cards).toHaveLength(2);
    const newest = [...list.body.saved_cards].sort((x: { created_at: string }, y: { created_at: string }) => (x.created_at < y.created_at ? 1 : -1))[0];
    expect(newest.is_default).toBe(true);
  });

  it('unknown customer and another customer’s card are 422', async () => {
    const unknown = await m.call('saved-cards', { customer: { channel_token: m.channelToken, channel_reference: 'NOPE' } });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(['customer.channel_reference']);
    const other = (await save(CARDS.approved, 'CUST-OTHER')).body.saved_card.token;
    const res = await m.call('default-saved-card', ref(other));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['saved_card.token']);
  });
});
