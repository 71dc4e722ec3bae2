// PayFor's answers in the gateway's `error_code` vocabulary (docs/decisions.md). ProcReturnCode is
// "00" when approved; otherwise the issuer's ISO 8583 code (05, 51, 54...) or one of PayFor's own:
// V-codes from its virtual POS (V001/V004 wrong user, V013 no such order, V014 "cannot be refunded,
// cancel the sale instead", V033/V034 3-D Secure passed/failed), M-codes from its MPI (M041 invalid
// card number, MR15 3-D Secure authorise error), and long numeric ones (101310: order id already
// used). mewebstudio/pos src/DataMapper/ResponseDataMapper/PayForPosResponseDataMapper.php lists
// the same codes; the bank publishes no complete table, so an unknown code is a card decline.
import { CARD_DECLINED, declined, PROVIDER_ERROR, ruleOf, type CodeRule } from '../bank-pos/codes.ts';
import type { Declined, ProviderFailure } from '../types.ts';

export const APPROVED = '00';
/** "Seçili İşlem Bulunamadı!": the bank has no such order (or no such transaction on it). */
export const NOT_FOUND = 'V013';
/** 3-D Secure authentication passed, in the 3D model's callback (the sale is still to come). */
export const THREE_D_PASSED = 'V033';

const BY_CODE: Readonly<Record<string, CodeRule>> = {
  '05': CARD_DECLINED, // do not honour
  '12': CARD_DECLINED, // invalid transaction
  '14': declined('invalid_card_number'),
  '33': declined('expired_card'),
  '51': declined('insufficient_funds'),
  '54': declined('expired_card'),
  '57': CARD_DECLINED, // not permitted to the cardholder
  '61': declined('insufficient_funds'), // withdrawal limit exceeded
  '82': declined('invalid_cvc'),
  M041: declined('invalid_card_number'),
  M002: CARD_DECLINED, // invalid transaction
  M012: CARD_DECLINED, // invalid transaction
  V034: declined('3ds_failed'),
  MR15: declined('3ds_failed'),
  // The merchant's account, PayFor itself or our request: the shopper can do nothing about them.
  '91': PROVIDER_ERROR, // issuer unavailable
  '96': PROVIDER_ERROR,
  V001: PROVIDER_ERROR, // wrong user or password
  V004: PROVIDER_ERROR,
  M049: PROVIDER_ERROR,
  V111: PROVIDER_ERROR,
  V025: PROVIDER_ERROR,
  V029: PROVIDER_ERROR,
  V036: PROVIDER_ERROR,
  M025: PROVIDER_ERROR,
  M042: PROVIDER_ERROR,
  '101310': PROVIDER_ERROR, // order id already used
};

/** What PayFor said, as it came. */
export interface PayforSaid {
  code: string;
  message?: string;
}

const messageOf = (said: PayforSaid): string => (said.message !== undefined && said.message !== '' ? said.message : `PayFor code ${said.code}`);

/** A payment PayFor refused (a sale, a 3D sale, a 3D Pay charge). */
export function paymentFailure(said: PayforSaid): Declined | ProviderFailure {
  const [kind, code] = ruleOf(BY_CODE, said.code);
  const message = messageOf(said);
  return { status: kind === 'declined' ? 'declined' : 'error', code, message, providerCode: said.code, providerMessage: message };
}

/**
 * A refund or void PayFor refused. The bank's errors stay provider errors; anything else (a sale
 * still in the day's batch, V014: "cancel it instead", an order already voided, an amount above
 * what is left) is `refund_rejected`, with PayFor's words kept for the merchant.
 */
export function reversalFailure(said: PayforSaid): Declined | ProviderFailure {
  const message = messageOf(said);
  if (ruleOf(BY_CODE, said.code) === PROVIDER_ERROR) return { status: 'error', code: 'provider_error', message, providerCode: said.code, providerMessage: message };
  return { status: 'declined', code: 'refund_rejected', message, providerCode: said.code, providerMessage: message };
}

/**
 * The shopper did not pass 3-D Secure. PayFor's 3DStatus: 1 authenticated; 2, 3, 4 "half 3D
 * secure" (not enrolled, attempt); 0 and -1 failed. The 3D model goes on with 1 only, as
 * mewebstudio's is3dAuthSuccess does.
 */
export function threeDsFailure(threeDStatus: string, message?: string): Declined {
  const providerCode = `3DStatus:${threeDStatus === '' ? 'none' : threeDStatus}`;
  return {
    status: 'declined',
    code: '3ds_failed',
    message: `3D Secure not completed (${providerCode})`,
    providerCode,
    ...(message !== undefined && message !== '' ? { providerMessage: message } : {}),
  };
}
