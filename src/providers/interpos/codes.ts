// InterPOS's answers in the gateway's `error_code` vocabulary (docs/decisions.md). An answer says
// ProcReturnCode: "00" approved, else the issuer's ISO 8583 response code (05, 51, 54...) or one of
// InterPOS's own: "81" (the terminal or its API user is not active or not known: ErrorCode B810002,
// "Terminal Aktif Degil") and "E31"/"E39" (a transaction InterPOS will not make), as
// mewebstudio/pos InterPosResponseDataMapper lists them; its ErrorCode and ErrorMessage say more.
// Fraud, lost and stolen card answers become a plain `card_declined`: a shopper is not told why.
// The bank's own code and message are kept as providerCode / providerMessage for support.
import { CARD_DECLINED, declined, PROVIDER_ERROR, ruleOf, type CodeRule } from '../bank-pos/codes.ts';
import type { Declined, ProviderFailure } from '../types.ts';

export const APPROVED = '00';

const BY_CODE: Readonly<Record<string, CodeRule>> = {
  '01': CARD_DECLINED, // refer to card issuer
  '02': CARD_DECLINED, // refer to card issuer, special condition
  '04': CARD_DECLINED, // pick up card
  '05': CARD_DECLINED, // do not honour
  '07': CARD_DECLINED, // pick up card, special condition
  '12': CARD_DECLINED, // invalid transaction
  '13': declined('invalid_amount'),
  '14': declined('invalid_card_number'),
  '15': declined('invalid_card_number'), // no such issuer
  '33': declined('expired_card'),
  '41': CARD_DECLINED, // lost card
  '43': CARD_DECLINED, // stolen card
  '51': declined('insufficient_funds'),
  '54': declined('expired_card'),
  '57': CARD_DECLINED, // not permitted to the cardholder
  '61': declined('insufficient_funds'), // withdrawal limit exceeded
  '62': CARD_DECLINED, // restricted card
  '65': declined('insufficient_funds'), // activity count limit
  '82': declined('invalid_cvc'),
  // The merchant's terminal, InterPOS itself or our request: the shopper can do nothing about them.
  '03': PROVIDER_ERROR, // invalid merchant
  '58': PROVIDER_ERROR, // not permitted to the terminal
  '81': PROVIDER_ERROR, // terminal or API user not active (B810002)
  '91': PROVIDER_ERROR, // issuer unavailable
  '96': PROVIDER_ERROR, // system malfunction
  '99': PROVIDER_ERROR,
  E31: PROVIDER_ERROR,
  E39: PROVIDER_ERROR,
};

/** What InterPOS said, as it came. */
export interface InterPosSaid {
  code: string;
  /** ErrorCode (B810002...), when it gave one. */
  errorCode?: string;
  message?: string;
}

function text(said: InterPosSaid): { message: string; providerCode: string; providerMessage: string } {
  const message = said.message !== undefined && said.message !== '' ? said.message : `InterPOS code ${said.code}`;
  const providerCode = said.errorCode !== undefined && said.errorCode !== '' && said.errorCode !== said.code ? `${said.code}/${said.errorCode}` : said.code;
  return { message, providerCode, providerMessage: message };
}

/** Whether a code is InterPOS's, the terminal's or our request's failure rather than the card's. */
export function isProviderError(code: string): boolean {
  return ruleOf(BY_CODE, code) === PROVIDER_ERROR;
}

/** A payment InterPOS refused (a sale, a 3D sale, a 3D Pay or 3D Host charge). Unknown codes are card declines. */
export function paymentFailure(said: InterPosSaid): Declined | ProviderFailure {
  const [kind, code] = ruleOf(BY_CODE, said.code);
  return { status: kind === 'declined' ? 'declined' : 'error', code, ...text(said) };
}

/** A refund or void InterPOS refused: its own errors stay provider errors, anything else is `refund_rejected`. */
export function reversalFailure(said: InterPosSaid): Declined | ProviderFailure {
  if (isProviderError(said.code)) return { status: 'error', code: 'provider_error', ...text(said) };
  return { status: 'declined', code: 'refund_rejected', ...text(said) };
}

/**
 * The mdStatus values InterPOS goes on with: 1 (full) and the "half secure" 2, 3 and 4 (card or
 * issuer not enrolled, attempt only), as mewebstudio/pos InterPosResponseDataMapper::is3dAuthSuccess.
 */
const AUTHENTICATED_MD_STATUS = new Set(['1', '2', '3', '4']);

export function isAuthenticated(mdStatus: string): boolean {
  return AUTHENTICATED_MD_STATUS.has(mdStatus);
}

/** The shopper did not pass 3D Secure: the payment fails without a charge. */
export function threeDsFailure(mdStatus: string, message?: string): Declined {
  const providerCode = `mdStatus:${mdStatus === '' ? 'none' : mdStatus}`;
  return {
    status: 'declined',
    code: '3ds_failed',
    message: `3D Secure not completed (${providerCode})`,
    providerCode,
    ...(message !== undefined && message !== '' ? { providerMessage: message } : {}),
  };
}
