// KuveytPOS's answers in the gateway's `error_code` vocabulary (docs/decisions.md). ResponseCode is
// "00" when approved; otherwise the issuer's ISO 8583 code (05, 51, 54...) or one of the BOA
// platform's words: MPIAuthenticationStatusN (the ACS did not authenticate), CardNotEnrolled,
// HashDataError (our signature), PosMerchantIPError (the server's address is not registered),
// MetaDataNotFound, EmptyMDException, DbLayerError... mewebstudio/pos src/DataMapper/
// ResponseDataMapper/KuveytPosResponseDataMapper.php and its tests list these; the bank publishes
// no complete table, so an unknown code is a card decline.
import { CARD_DECLINED, declined, PROVIDER_ERROR, ruleOf, type CodeRule } from '../bank-pos/codes.ts';
import type { Declined, ProviderFailure } from '../types.ts';

export const APPROVED = '00';

/** Codes of the merchant's account, the bank or our request: the shopper can do nothing about them. */
const BANK_SIDE = [
  'HashDataError',
  'ApiUserNotDefined',
  'MerchantNotDefined',
  'PosMerchantIPError',
  'InvalidTransactionSecurity',
  'EmptyMDException',
  'MetaDataNotFound',
  'ServiceUnavailable',
  'IntegrationFatalException',
  'OrderDataNotFound',
  '91',
  '96',
] as const;

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
  MPIAuthenticationStatusN: declined('3ds_failed'),
  CardNotEnrolled: declined('3ds_failed'),
  DbLayerError: PROVIDER_ERROR,
  ...Object.fromEntries(BANK_SIDE.map((code) => [code, PROVIDER_ERROR])),
};

/** What KuveytPOS said, as it came. */
export interface KuveytSaid {
  code: string;
  message?: string;
}

const messageOf = (said: KuveytSaid): string => (said.message !== undefined && said.message !== '' ? said.message : `KuveytPOS code ${said.code}`);

/** A payment KuveytPOS refused (a sale, a provision, an enrollment). */
export function paymentFailure(said: KuveytSaid): Declined | ProviderFailure {
  const [kind, code] = ruleOf(BY_CODE, said.code);
  const message = messageOf(said);
  return { status: kind === 'declined' ? 'declined' : 'error', code, message, providerCode: said.code, providerMessage: message };
}

/**
 * A refund or cancel KuveytPOS refused. Its failures of its own stay provider errors; a refusal of
 * the request (already cancelled: 21; a cancelled sale cannot be refunded: 28; a cancel after the
 * sale's day; a whole-amount partial refund the same day, under DbLayerError) is `refund_rejected`,
 * with KuveytPOS's words kept for the merchant.
 */
export function reversalFailure(said: KuveytSaid): Declined | ProviderFailure {
  const message = messageOf(said);
  if ((BANK_SIDE as readonly string[]).includes(said.code)) return { status: 'error', code: 'provider_error', message, providerCode: said.code, providerMessage: message };
  return { status: 'declined', code: 'refund_rejected', message, providerCode: said.code, providerMessage: message };
}

/** The shopper did not pass 3-D Secure (a signed callback whose ResponseCode is not 00). */
export function threeDsFailure(said: KuveytSaid): Declined {
  const message = messageOf(said);
  return { status: 'declined', code: '3ds_failed', message: `3D Secure not completed (${said.code})`, providerCode: said.code, providerMessage: message };
}
