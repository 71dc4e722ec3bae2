// GVP's answers in the gateway's `error_code` vocabulary (docs/decisions.md). An XML answer says
// Transaction/Response/Code: "00" approved, else the issuer's ISO 8583 response code (05, 51, 54...)
// or one of GVP's own ("92" with ReasonCode "0002": the request itself is wrong; "99": GVP's error).
// Each mapping says whether it is a decline (the card or the bank said no: the same request will be
// refused again) or a failure of the provider or of our request. Fraud, lost and stolen card answers
// become a plain `card_declined`: a shopper is not told why. The bank's own code and message are
// kept as providerCode / providerMessage for support.
import type { Declined, ProviderFailure } from '../types.ts';
import { CARD_DECLINED, declined, PROVIDER_ERROR, type CodeRule as Rule } from '../bank-pos/codes.ts';

export const APPROVED = '00';


const BY_CODE: Readonly<Record<string, Rule>> = {
  '01': CARD_DECLINED, // refer to card issuer
  '02': CARD_DECLINED, // refer to card issuer, special condition
  '04': CARD_DECLINED, // pick up card
  '05': CARD_DECLINED, // do not honour
  '07': CARD_DECLINED, // pick up card, special condition
  '12': CARD_DECLINED, // invalid transaction
  '13': CARD_DECLINED, // invalid amount
  '14': declined('invalid_card_number'),
  '15': declined('invalid_card_number'), // no such issuer
  '28': CARD_DECLINED,
  '33': declined('expired_card'),
  '41': CARD_DECLINED, // lost card
  '43': CARD_DECLINED, // stolen card
  '51': declined('insufficient_funds'),
  '54': declined('expired_card'),
  '55': CARD_DECLINED, // wrong PIN
  '57': CARD_DECLINED, // not permitted to the cardholder
  '58': CARD_DECLINED, // not permitted to the terminal
  '61': declined('insufficient_funds'), // withdrawal limit exceeded
  '62': CARD_DECLINED, // restricted card
  '65': declined('insufficient_funds'), // activity count limit
  '77': CARD_DECLINED,
  '82': declined('invalid_cvc'),
  N7: declined('invalid_cvc'),
  // The merchant's terminal, GVP itself or our request: the shopper can do nothing about them.
  '03': PROVIDER_ERROR, // invalid merchant
  '09': PROVIDER_ERROR, // try again
  '91': PROVIDER_ERROR, // issuer unavailable
  '92': PROVIDER_ERROR,
  '96': PROVIDER_ERROR,
  '99': PROVIDER_ERROR,
};

/** What GVP said, as it came. */
export interface GarantiSaid {
  code: string;
  reasonCode?: string;
  message?: string;
}

function providerMessage(said: GarantiSaid): string {
  return said.message !== undefined && said.message !== '' ? said.message : `GVP code ${said.code}`;
}

/** providerCode keeps GVP's ReasonCode too when it says more than Code ("92/0002"). */
function providerCode(said: GarantiSaid): string {
  return said.reasonCode !== undefined && said.reasonCode !== '' && said.reasonCode !== said.code ? `${said.code}/${said.reasonCode}` : said.code;
}

/** A payment GVP refused (a sale, a 3D sale, a 3D Pay charge). Unknown codes are card declines. */
export function paymentFailure(said: GarantiSaid): Declined | ProviderFailure {
  const [kind, code] = BY_CODE[said.code] ?? CARD_DECLINED;
  return { status: kind === 'declined' ? 'declined' : 'error', code, message: providerMessage(said), providerCode: providerCode(said), providerMessage: providerMessage(said) };
}

/**
 * A refund or void GVP refused. The bank's errors stay provider errors; anything else (an order
 * already settled, refunded or voided, an amount above what is left) is `refund_rejected`.
 */
export function reversalFailure(said: GarantiSaid): Declined | ProviderFailure {
  const rule = BY_CODE[said.code];
  if (rule === PROVIDER_ERROR) return { status: 'error', code: 'provider_error', message: providerMessage(said), providerCode: providerCode(said), providerMessage: providerMessage(said) };
  return { status: 'declined', code: 'refund_rejected', message: providerMessage(said), providerCode: providerCode(said), providerMessage: providerMessage(said) };
}

/**
 * The mdstatus values GVP authenticates a payment with: 1 (full) and the "half secure" 2, 3 and 4
 * (mewebstudio/pos GarantiPosResponseDataMapper::is3dAuthSuccess). GVP goes on with those: its 3D
 * Pay gate charges the card, its 3D sale accepts the authentication.
 */
const AUTHENTICATED_MD_STATUS = new Set(['1', '2', '3', '4']);

export function isAuthenticated(mdStatus: string | undefined): boolean {
  return AUTHENTICATED_MD_STATUS.has(mdStatus ?? '');
}

/**
 * The shopper did not pass 3D Secure. mdstatus: 1 authenticated; 2, 3, 4 card or issuer not
 * enrolled, or only an attempt recorded ("half 3D secure"), which GVP still provisions; 0
 * signature or authentication failed; 5-8 not possible, errors.
 */
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
