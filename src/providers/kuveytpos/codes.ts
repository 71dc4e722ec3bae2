// KuveytPOS's answers in the gateway's `error_code` vocabulary (docs/decisions.md). ResponseCode is
// "00" when approved; otherwise the issuer's ISO 8583 code (05, 51, 54...) or one of the BOA
// platform's words: MPIAuthenticationStatusN (the ACS did not authenticate), CardNotEnrolled,
// HashDataError (our signature), PosMerchantIPError (the server's address is not registered),
// MetaDataNotFound, EmptyMDException, DbLayerError... mewebstudio/pos src/DataMapper/
// ResponseDataMapper/KuveytPosResponseDataMapper.php and its tests list these; the bank publishes
// no complete table, so an unknown code is a card decline.
import { declined, PROVIDER_ERROR, ruleOf, type CodeRule } from '../bank-pos/codes.ts';
import type { Declined, ProviderFailure } from '../types.ts';

export const APPROVED = '00';

/** Codes of the merchant's account, the bank or our request: the shopper can do nothing about them. */
const BANK_SIDE: ReadonlySet<string> = new Set([
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
]);

/** The issuer's ISO 8583 reasons and the platform's 3-D words, grouped by the gateway's code. */
const GROUPS: ReadonlyArray<readonly [CodeRule, readonly string[]]> = [
  [declined('insufficient_funds'), ['51', '61']],
  [declined('expired_card'), ['33', '54']],
  [declined('invalid_card_number'), ['14']],
  [declined('invalid_cvc'), ['82']],
  [declined('3ds_failed'), ['MPIAuthenticationStatusN', 'CardNotEnrolled']],
  [PROVIDER_ERROR, [...BANK_SIDE, 'DbLayerError']],
];

const BY_CODE: Readonly<Record<string, CodeRule>> = Object.fromEntries(GROUPS.flatMap(([rule, codes]) => codes.map((code) => [code, rule])));

/** What KuveytPOS said, as it came. */
export interface KuveytSaid {
  code: string;
  message?: string;
}

/** The refusal as the contract's result: the gateway's code by `rule`, KuveytPOS's own words kept. */
function refusal(said: KuveytSaid, [kind, code]: CodeRule): Declined | ProviderFailure {
  const message = said.message || `KuveytPOS code ${said.code}`;
  return { status: kind === 'declined' ? 'declined' : 'error', code, message, providerCode: said.code, providerMessage: message };
}

/** A payment KuveytPOS refused (a sale, a provision, an enrollment); an unknown code is a card decline. */
export const paymentFailure = (said: KuveytSaid): Declined | ProviderFailure => refusal(said, ruleOf(BY_CODE, said.code));

/**
 * A refund or cancel KuveytPOS refused. Its failures of its own stay provider errors; a refusal of
 * the request (already cancelled: 21; a cancelled sale cannot be refunded: 28; a cancel after the
 * sale's day; a whole-amount partial refund on the sale's day, under DbLayerError) is
 * `refund_rejected`, with KuveytPOS's words kept for the merchant.
 */
export const reversalFailure = (said: KuveytSaid): Declined | ProviderFailure => refusal(said, BANK_SIDE.has(said.code) ? PROVIDER_ERROR : declined('refund_rejected'));

/** The shopper did not pass 3-D Secure (a signed callback whose ResponseCode is not 00). */
export function threeDsFailure(said: KuveytSaid): Declined {
  return { ...(refusal(said, declined('3ds_failed')) as Declined), message: `3D Secure not completed (${said.code})` };
}
