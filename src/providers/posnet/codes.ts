// PosNet's answers in the gateway's `error_code` vocabulary. An answer says `approved`: "1" done,
// "0" refused, "2" already done (an order id used before); a refusal carries respCode (the
// issuer's ISO 8583 answer written on four digits, "0051", or PosNet's own: "0127" order id used,
// "0148" wrong MID/TID/IP, "E216" wrong MAC) and respText. Codes as mewebstudio/pos
// (PosNetResponseDataMapper) lists them; an unknown code is a card decline.
import type { Declined, ProviderFailure } from '../types.ts';
import { CARD_DECLINED, declined, PROVIDER_ERROR, ruleOf, type CodeRule } from '../bank-pos/codes.ts';

export const APPROVED = '1';

const BY_CODE: Readonly<Record<string, CodeRule>> = {
  '0001': CARD_DECLINED, // call the bank
  '0005': CARD_DECLINED, // do not honour
  '0007': CARD_DECLINED,
  '0012': CARD_DECLINED, // invalid transaction
  '0013': declined('invalid_amount'),
  '0014': declined('invalid_card_number'),
  '0030': CARD_DECLINED,
  '0041': CARD_DECLINED, // lost card
  '0043': CARD_DECLINED, // stolen card
  '0051': declined('insufficient_funds'),
  '0053': CARD_DECLINED,
  '0054': declined('expired_card'),
  '0057': CARD_DECLINED, // not permitted to the cardholder
  '0058': PROVIDER_ERROR, // not permitted to the terminal: the merchant's contract
  '0062': CARD_DECLINED, // restricted card
  '0065': declined('insufficient_funds'), // activity limit
  '0082': declined('invalid_cvc'),
  '0091': PROVIDER_ERROR, // issuer unavailable
  '0123': PROVIDER_ERROR, // no such transaction
  '0127': PROVIDER_ERROR, // order id used before
  '0148': PROVIDER_ERROR, // MID, TID or IP not recognised
  '0444': CARD_DECLINED,
  E216: PROVIDER_ERROR, // MAC does not check
};

/** What PosNet said, as it came. */
export interface PosnetSaid {
  approved: string;
  respCode: string;
  respText: string;
}

function said(text: PosnetSaid): { providerCode: string; providerMessage: string; message: string } {
  const code = text.respCode || `approved:${text.approved}`;
  const message = text.respText || `PosNet answered ${code}`;
  return { providerCode: code, providerMessage: message, message };
}

/** A payment PosNet refused or failed. */
export function paymentFailure(text: PosnetSaid): Declined | ProviderFailure {
  const [kind, code] = ruleOf(BY_CODE, text.respCode);
  return { status: kind, code, ...said(text) };
}

/** A refund or cancel PosNet refused: refund_rejected, unless PosNet itself failed. */
export function reversalFailure(text: PosnetSaid): Declined | ProviderFailure {
  if (BY_CODE[text.respCode] === PROVIDER_ERROR) return { status: 'error', code: 'provider_error', ...said(text) };
  return { status: 'declined', code: 'refund_rejected', ...said(text) };
}

/** mdStatus 1 (full) and the "half secure" 2, 3, 4 authenticate (mewebstudio's is3dAuthSuccess). */
const AUTHENTICATED = new Set(['1', '2', '3', '4']);

export function isAuthenticated(mdStatus: string): boolean {
  return AUTHENTICATED.has(mdStatus);
}

export function threeDsFailure(mdStatus: string, message: string): Declined {
  const providerCode = `mdStatus:${mdStatus === '' ? 'none' : mdStatus}`;
  return { status: 'declined', code: '3ds_failed', message: `3D Secure not completed (${providerCode})`, providerCode, ...(message ? { providerMessage: message } : {}) };
}
