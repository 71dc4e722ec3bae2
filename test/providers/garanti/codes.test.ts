import { describe, expect, it } from 'vitest';
import { paymentFailure, reversalFailure, threeDsFailure } from '../../../src/providers/garanti/codes.ts';

describe('GVP codes', () => {
  it.each([
    ['05', 'declined', 'card_declined'],
    ['51', 'declined', 'insufficient_funds'],
    ['54', 'declined', 'expired_card'],
    ['57', 'declined', 'card_declined'],
    ['12', 'declined', 'card_declined'],
    ['14', 'declined', 'invalid_card_number'],
    ['82', 'declined', 'invalid_cvc'],
    ['92', 'error', 'provider_error'],
    ['99', 'error', 'provider_error'],
    ['Z9', 'declined', 'card_declined'],
  ])('maps payment code %s to %s %s, keeping the bank code and message', (code, status, mapped) => {
    expect(paymentFailure({ code, message: 'bank says' })).toEqual({ status, code: mapped, message: 'bank says', providerCode: code, providerMessage: 'bank says' });
  });

  it("keeps GVP's ReasonCode when it says more", () => {
    expect(paymentFailure({ code: '92', reasonCode: '0002' }).providerCode).toBe('92/0002');
    expect(paymentFailure({ code: '51', reasonCode: '51' }).providerCode).toBe('51');
    expect(paymentFailure({ code: '51' }).message).toBe('GVP code 51');
  });

  it('answers refund_rejected for a refused refund or void, provider_error for GVP errors', () => {
    expect(reversalFailure({ code: '05' })).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '05' });
    expect(reversalFailure({ code: '99' })).toMatchObject({ status: 'error', code: 'provider_error' });
  });

  it('says why 3D Secure failed by mdstatus', () => {
    expect(threeDsFailure('0')).toEqual({ status: 'declined', code: '3ds_failed', message: '3D Secure not completed (mdStatus:0)', providerCode: 'mdStatus:0' });
    expect(threeDsFailure('').providerCode).toBe('mdStatus:none');
  });
});
