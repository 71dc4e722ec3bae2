// A provider decline in the reader's language: Turkish by default, English with Accept-Language: en,
// on the payment's answer and on retrieve-payment; the machine-readable code is kept on the payment.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';

const { t, merchant: m } = useGateway({ merchant: true });

describe('provider declines follow Accept-Language', () => {
  it.each([
    [CARDS.insufficientFunds, 'insufficient_funds', 'Yetersiz bakiye', 'Insufficient funds'],
    [CARDS.expired, 'expired_card', 'Kartın süresi dolmuş', 'The card has expired'],
    [CARDS.providerError, 'provider_error', 'Banka sistem hatası', 'Bank system error'],
  ])('card %s: %s', async (number, code, tr, en) => {
    const ref = `DECL-${number.slice(-4)}`;
    const english = await m.call('regular-payment', paymentBody(m, { card: { number }, transaction: { channel_reference: ref } }), { headers: { 'Accept-Language': 'en' } });
    expect(english.status, english.text).toBe(200);
    expect(english.body.result).toEqual({ successful: false, message: en, error_code: code });
    const token = english.body.transaction.token as string;

    const turkish = await m.call('retrieve-payment', { transaction: { token } });
    expect(turkish.body.result).toEqual({ successful: false, message: tr, error_code: code });
    const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
    expect(row.errorCode).toBe(code);
  });
});
