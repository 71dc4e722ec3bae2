// retrieve-bin with an iyzico account as the workspace's default: the card facts are iyzico's
// payment/bin/check answer for a sandbox card, and the TRY installment options are iyzico's own
// quote (payment/iyzipos/installment), not the gateway's monthly rates; other currencies have none.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { iyzicoCalls, seedIyzicoMerchant, useIyzicoEmulator } from '../helpers/iyzico.ts';

const { t } = useGateway();
const iyzico = useIyzicoEmulator();
let m: Merchant;
const merchant = async () => (m ??= await seedIyzicoMerchant(t, iyzico.emulator));
const binRequest = (bin: string, transaction: Record<string, unknown> = { amount: '100.00' }) => ({ card: { bin }, transaction });

describe('retrieve-bin through iyzico', () => {
  it('answers iyzico\u2019s facts for a sandbox credit card and iyzico\u2019s installment quote for TRY', async () => {
    await merchant();
    const res = await m.call('retrieve-bin', binRequest('55287900'));

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    // The emulator's Halkbank Paraf MasterCard credit card (emulators/iyzico/cards.ts).
    expect(res.body.card).toEqual({ bin: '55287900', issuer_name: 'Halkbank', issuer_code: '12', scheme: 'mastercard', type: 'credit', program: 'Paraf', is_commercial: false });
    // iyzico's quote for 100.00 (the emulator's rates: 3.03 % for 2, 4.54 % for 3, 8.33 % for 6, 11.92 % for 9, 15.51 % for 12).
    expect(res.body.installments).toEqual([
      { number: 1, amount: '100.00', total: '100.00' },
      { number: 2, amount: '51.52', total: '103.03' },
      { number: 3, amount: '34.85', total: '104.54' },
      { number: 6, amount: '18.06', total: '108.33' },
      { number: 9, amount: '12.44', total: '111.92' },
      { number: 12, amount: '9.63', total: '115.51' },
    ]);
    expect(iyzicoCalls(t, 'binLookup').map((c) => c.request.binNumber)).toContain('55287900');
    expect(iyzicoCalls(t, 'installments').at(-1)?.request).toMatchObject({ binNumber: '55287900', price: '100.0' });
  });

  it('a sandbox debit card: iyzico quotes one installment only', async () => {
    await merchant();
    const res = await m.call('retrieve-bin', binRequest('589004', { amount: '250.50' }));

    expect(res.body.card).toEqual({ bin: '589004', issuer_name: 'Akbank', issuer_code: '46', scheme: 'mastercard', type: 'debit', program: 'Axess', is_commercial: false });
    expect(res.body.installments).toEqual([{ number: 1, amount: '250.50', total: '250.50' }]);
  });

  it('no installments outside TRY, and iyzico is not asked for a quote', async () => {
    await merchant();
    const before = iyzicoCalls(t, 'installments').length;
    const res = await m.call('retrieve-bin', binRequest('460345', { amount: '100.00', currency: 'EUR' }));

    expect(res.body.card).toMatchObject({ bin: '460345', issuer_name: 'Denizbank', scheme: 'visa', type: 'credit' });
    expect(res.body.installments).toEqual([]);
    expect(iyzicoCalls(t, 'installments')).toHaveLength(before);
  });

  it('a BIN iyzico does not know: unknown facts, no installments, still 200', async () => {
    await merchant();
    const res = await m.call('retrieve-bin', binRequest('123456'));

    expect(res.status).toBe(200);
    expect(res.body.card).toEqual({ bin: '123456', issuer_name: null, issuer_code: null, scheme: null, type: null, program: null, is_commercial: null });
    expect(res.body.installments).toEqual([]);
  });
});
