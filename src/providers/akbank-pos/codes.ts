// Akbank's answers in the gateway's `error_code` vocabulary (docs/decisions.md). `responseCode` is
// "VPS-0000" when approved; otherwise one of the virtual POS's own VPS codes. VPS-1005 ("Provizyon
// Hatası") means the issuer refused, and then `hostResponseCode` carries the issuer's ISO 8583
// reason (05, 51, 54...), which decides. The codes below are the ones mewebstudio/pos's tests show
// from Akbank's "pre" platform (src/DataMapper/ResponseDataMapper/AkbankPosResponseDataMapper.php
// and its test); the bank publishes no complete table, so an unknown code is a card decline.
import { CARD_DECLINED, declined, PROVIDER_ERROR, ruleOf, type CodeRule } from '../bank-pos/codes.ts';
import type { Declined, ProviderFailure } from '../types.ts';

export const APPROVED = 'VPS-0000';
/** The issuer refused; hostResponseCode says why. */
export const ISSUER_REFUSED = 'VPS-1005';
/** "İşlem bulunamadı": the order history knows no such order. */
export const NOT_FOUND = 'VPS-1123';
/** "Orjinal İşlem bulunamadı": a refund or cancel of an order the bank does not have. */
export const ORIGINAL_NOT_FOUND = 'VPS-1007';
/** "BKM 3DS Server Doğrulama Başarısız": 3-D Secure failed. */
export const THREE_DS_FAILED = 'VPS-1279';

/** The issuer's ISO 8583 reasons (hostResponseCode under VPS-1005). */
const BY_HOST_CODE: Readonly<Record<string, CodeRule>> = {
  '05': CARD_DECLINED, // do not honour
  '12': CARD_DECLINED, // invalid transaction
  '14': declined('invalid_card_number'),
  '33': declined('expired_card'),
  '51': declined('insufficient_funds'),
  '54': declined('expired_card'),
  '57': CARD_DECLINED, // not permitted to the cardholder
  '61': declined('insufficient_funds'), // withdrawal limit exceeded
  '82': declined('invalid_cvc'),
  '83': CARD_DECLINED, // "TAKSIT TUTAR HAT": the instalment amount is refused
  '91': PROVIDER_ERROR, // issuer unavailable
  '96': PROVIDER_ERROR,
};

/** The virtual POS's own codes. */
const BY_VPS_CODE: Readonly<Record<string, CodeRule>> = {
  [THREE_DS_FAILED]: declined('3ds_failed'),
  'VPS-1044': CARD_DECLINED, // not-on-us card: instalments refused
  'VPS-1066': CARD_DECLINED, // card scheme not supported
  // The merchant's account, Akbank itself or our request: the shopper can do nothing about them.
  'VPS-1013': PROVIDER_ERROR, // order id already used
  'VPS-1073': PROVIDER_ERROR, // request time not valid
  'VPS-1001': PROVIDER_ERROR,
  'VPS-1002': PROVIDER_ERROR,
  'VPS-2235': PROVIDER_ERROR,
  'VPS-9999': PROVIDER_ERROR,
};

/** What Akbank said, as it came. */
export interface AkbankSaid {
  code: string;
  hostCode?: string;
  message?: string;
}

/** The code the merchant sees: "VPS-1005:51" when the issuer refused, else the VPS code. */
const providerCodeOf = (said: AkbankSaid): string => (said.code === ISSUER_REFUSED && said.hostCode ? `${said.code}:${said.hostCode}` : said.code);

function ruleFor(said: AkbankSaid): CodeRule {
  return said.code === ISSUER_REFUSED && said.hostCode ? ruleOf(BY_HOST_CODE, said.hostCode) : ruleOf(BY_VPS_CODE, said.code);
}

const messageOf = (said: AkbankSaid): string => (said.message !== undefined && said.message !== '' ? said.message : `Akbank code ${providerCodeOf(said)}`);

/** A payment Akbank refused (a sale, a 3D sale, a 3D Pay or 3D Host charge). */
export function paymentFailure(said: AkbankSaid): Declined | ProviderFailure {
  const [kind, code] = ruleFor(said);
  const message = messageOf(said);
  return { status: kind === 'declined' ? 'declined' : 'error', code, message, providerCode: providerCodeOf(said), providerMessage: message };
}

/**
 * A refund or cancel Akbank refused. The bank's own errors stay provider errors; anything else
 * (VPS-1007 no such order, VPS-1008 already cancelled, an amount above what is left) is
 * `refund_rejected`, with Akbank's words kept for the merchant.
 */
export function reversalFailure(said: AkbankSaid): Declined | ProviderFailure {
  const message = messageOf(said);
  const providerCode = providerCodeOf(said);
  if (ruleFor(said) === PROVIDER_ERROR) return { status: 'error', code: 'provider_error', message, providerCode, providerMessage: message };
  return { status: 'declined', code: 'refund_rejected', message, providerCode, providerMessage: message };
}

/** The shopper did not pass 3-D Secure (the callback's responseCode says how). */
export function threeDsFailure(code: string, message?: string): Declined {
  return {
    status: 'declined',
    code: '3ds_failed',
    message: `3D Secure not completed (${code === '' ? 'no code' : code})`,
    providerCode: code === '' ? 'none' : code,
    ...(message !== undefined && message !== '' ? { providerMessage: message } : {}),
  };
}
