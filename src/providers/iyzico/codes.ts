// iyzico's failure answers in the gateway's `error_code` vocabulary (docs/decisions.md, "Provider
// declines ... and `error_code`"). iyzico sends errorCode, errorMessage and errorGroup; bank
// refusals are 10000 + the bank's ISO code (10051 = 51, insufficient funds) with a group name
// iyzico recommends mapping by, card storage codes are in the 3000s, and small numbers are
// iyzico's own request checks. Each mapping says whether it is a decline (the card or the bank
// said no: the same request will be refused again) or a failure of the provider or of our request.
// Fraud, lost and stolen card answers become a plain `card_declined`: iyzico advises not to tell
// the shopper why. The provider's own code, message and group are kept for support.

export type FailureKind = 'declined' | 'error';

export interface MappedFailure {
  kind: FailureKind;
  /** The gateway's error_code. */
  code: string;
  /** iyzico's errorCode, errorMessage and errorGroup, as they came. */
  providerCode: string;
  providerMessage: string;
  providerGroup: string | null;
}

/** Which kind of call failed: the fallback for an unknown code depends on it. */
export type CallFamily = 'payment' | 'refund' | 'card_storage' | 'lookup';

type Rule = readonly [FailureKind, string];
const declined = (code: string): Rule => ['declined', code];
const PROVIDER_ERROR: Rule = ['error', 'provider_error'];
const CARD_DECLINED = declined('card_declined');

/** Bank answers by iyzico's errorGroup (the stable name; iyzico's bank error table), then by code where the group is missing. */
const BY_GROUP: Readonly<Record<string, Rule>> = {
  NOT_SUFFICIENT_FUNDS: declined('insufficient_funds'),
  EXPIRED_CARD: declined('expired_card'),
  DO_NOT_HONOUR: CARD_DECLINED,
  INVALID_TRANSACTION: CARD_DECLINED,
  FRAUD_SUSPECT: CARD_DECLINED,
  PICKUP_CARD: CARD_DECLINED,
  LOST_CARD: CARD_DECLINED,
  STOLEN_CARD: CARD_DECLINED,
  NOT_PERMITTED_TO_CARDHOLDER: CARD_DECLINED,
  RESTRICTED_BY_LAW: CARD_DECLINED,
  CARD_NOT_PERMITTED: CARD_DECLINED,
  REFER_TO_CARD_ISSUER: CARD_DECLINED,
  BLOCKED_CARD: CARD_DECLINED,
  INVALID_CVC2: declined('invalid_cvc'),
  INVALID_CVC2_LENGTH: declined('invalid_cvc'),
  INVALID_CARD_NUMBER: declined('invalid_card_number'),
  BIN_NOT_FOUND: declined('invalid_card_number'),
  NO_SUCH_ISSUER: declined('invalid_card_number'),
  INVALID_CAVV: declined('3ds_failed'),
  INVALID_ECI: declined('3ds_failed'),
  DEBIT_CARDS_REQUIRES_3DS: declined('3ds_required'),
  // The merchant's terminal or contract, not the card: the merchant must act, the shopper cannot.
  NOT_PERMITTED_TO_TERMINAL: PROVIDER_ERROR,
  INVALID_MERCHANT_OR_SP: PROVIDER_ERROR,
  COMMUNICATION_OR_SYSTEM_ERROR: PROVIDER_ERROR,
  REQUEST_TIMEOUT: PROVIDER_ERROR,
  UNKNOWN: PROVIDER_ERROR,
};

const BY_CODE: Readonly<Record<string, Rule>> = {
  // Bank answers (10000 + ISO code), for answers without a group.
  '10051': BY_GROUP.NOT_SUFFICIENT_FUNDS!,
  '10054': BY_GROUP.EXPIRED_CARD!,
  '10005': CARD_DECLINED,
  '10012': CARD_DECLINED,
  '10034': CARD_DECLINED,
  '10041': CARD_DECLINED,
  '10043': CARD_DECLINED,
  '10057': CARD_DECLINED,
  '10093': CARD_DECLINED,
  '10201': CARD_DECLINED,
  '10207': CARD_DECLINED,
  '10209': CARD_DECLINED,
  '10084': declined('invalid_cvc'),
  '10206': declined('invalid_cvc'),
  '10213': declined('invalid_card_number'),
  '10215': declined('invalid_card_number'),
  '10216': declined('invalid_card_number'),
  '10210': declined('3ds_failed'),
  '10211': declined('3ds_failed'),
  '10217': declined('3ds_required'),
  '10058': PROVIDER_ERROR,
  '10204': PROVIDER_ERROR,
  '10208': PROVIDER_ERROR,
  '10214': PROVIDER_ERROR,
  '10219': PROVIDER_ERROR,
  // iyzico's own checks of the card fields: the shopper typed something wrong.
  '12': declined('invalid_card_number'),
  '13': declined('invalid_expiry'),
  '14': declined('invalid_expiry'),
  '15': declined('invalid_cvc'),
  '17': declined('invalid_expiry'),
  // Credentials or signature refused: the account is misconfigured.
  '1000': PROVIDER_ERROR,
  '1001': PROVIDER_ERROR,
};

/** What an unknown code becomes: a bank's refusal or a storage refusal is a decline, anything else the provider's failure. */
function fallback(providerCode: string, family: CallFamily): Rule {
  const numeric = /^\d+$/.test(providerCode) ? Number(providerCode) : NaN;
  if (family === 'refund') return declined('refund_rejected');
  if (family === 'card_storage' && numeric >= 3000 && numeric < 4000) return declined('card_storage_refused');
  if (numeric >= 10000 && numeric < 11000) return family === 'card_storage' ? declined('card_storage_refused') : CARD_DECLINED;
  return PROVIDER_ERROR;
}

/** Maps one failure answer; unknown codes fall back by call family (see `fallback`). */
export function mapFailure(
  answer: { errorCode?: unknown; errorMessage?: unknown; errorGroup?: unknown },
  family: CallFamily,
): MappedFailure {
  const providerCode = answer.errorCode === undefined || answer.errorCode === null ? '' : String(answer.errorCode);
  const providerGroup = typeof answer.errorGroup === 'string' && answer.errorGroup !== '' ? answer.errorGroup : null;
  const providerMessage = typeof answer.errorMessage === 'string' ? answer.errorMessage : '';
  const rule = (providerGroup !== null ? BY_GROUP[providerGroup] : undefined) ?? BY_CODE[providerCode] ?? fallback(providerCode, family);
  // A refund or cancel the bank refused is the gateway's refund_rejected whatever the card-level reason.
  const [kind, code] = family === 'refund' && rule[0] === 'declined' ? declined('refund_rejected') : rule;
  return { kind, code, providerCode, providerMessage, providerGroup };
}

/** Every gateway code this map can give, fallbacks included: each needs a message in the catalog. */
export const GATEWAY_CODES: ReadonlySet<string> = new Set([
  ...[...Object.values(BY_GROUP), ...Object.values(BY_CODE)].map(([, code]) => code),
  'refund_rejected',
  'card_storage_refused',
  'card_declined',
  'provider_error',
]);

/**
 * payment/detail's "no such payment" answers: the payment never reached iyzico, so a status
 * inquiry can say 'unknown'. iyzico's public docs do not number this answer; 5003 is the
 * emulator's choice (emulators/README.md) and must be confirmed on iyzico's sandbox. Any other
 * failure of an inquiry means "ask again later", so a wrong guess here keeps a payment pending
 * rather than releasing it.
 */
export const PAYMENT_NOT_FOUND_CODES: ReadonlySet<string> = new Set(['5003']);
