// EST's answers in the gateway's `error_code` vocabulary. A CC5Response carries ProcReturnCode
// (the ISO 8583 response code of the issuer, "00" approved; "99" is EST's own error: a request it
// refused, with ERRORCODE such as CORE-2012 in Extra) and ErrMsg. The 3D callback carries mdStatus:
// "1" authenticated; 0 and 5-8 failed; 2, 3, 4 are EST's "half secure" answers (card or issuer not
// enrolled, attempt only). In the "3D" model the gateway authorises on 1 only, as mewebstudio/pos
// (EstPosResponseDataMapper::is3dAuthSuccess) does: a half-secure payment would carry the
// merchant's liability without the merchant having chosen it. In "3D Pay" the gate charges with
// 1-4 before the gateway hears of it, and the charge decides (../three-d-pay.ts). The bank's code
// and text are kept.
import type { Declined, ProviderFailure } from '../types.ts';
import { CARD_DECLINED, declined, PROVIDER_ERROR, type CodeRule as Rule } from '../bank-pos/codes.ts';


/** ISO 8583 answers EST passes on from the issuer (ProcReturnCode). */
const BY_PROC_RETURN_CODE: Readonly<Record<string, Rule>> = {
  '01': CARD_DECLINED, // refer to issuer
  '02': CARD_DECLINED,
  '04': CARD_DECLINED, // pick up card
  '05': CARD_DECLINED, // do not honour
  '07': CARD_DECLINED,
  '12': CARD_DECLINED, // invalid transaction
  '13': declined('invalid_amount'),
  '14': declined('invalid_card_number'),
  '15': declined('invalid_card_number'), // no such issuer
  '33': declined('expired_card'),
  '41': CARD_DECLINED, // lost card
  '43': CARD_DECLINED, // stolen card
  '51': declined('insufficient_funds'),
  '54': declined('expired_card'),
  '57': CARD_DECLINED, // not permitted to card holder
  '58': PROVIDER_ERROR, // not permitted to terminal: the merchant's contract
  '62': CARD_DECLINED, // restricted card
  '82': declined('invalid_cvc'),
  '91': PROVIDER_ERROR, // issuer unavailable
  '96': PROVIDER_ERROR, // system malfunction
  '99': PROVIDER_ERROR, // EST's own error (ERRORCODE tells which)
};

/** What one call failed with, in the gateway's words and the bank's. */
export interface EstFailureText {
  procReturnCode: string;
  errMsg: string;
  /** Extra.ERRORCODE when the bank gave one (CORE-2012, ISO8583-82). */
  errorCode?: string;
}

function said(text: EstFailureText): { providerCode: string; providerMessage: string } {
  return {
    providerCode: text.errorCode ? `${text.procReturnCode}:${text.errorCode}` : text.procReturnCode,
    providerMessage: text.errMsg,
  };
}

/** A payment the bank refused or failed: a decline for the card's reasons, else a provider error. */
export function paymentFailure(text: EstFailureText): Declined | ProviderFailure {
  const [kind, code] = BY_PROC_RETURN_CODE[text.procReturnCode] ?? CARD_DECLINED;
  const message = text.errMsg || `EST answered ${text.procReturnCode}`;
  return { status: kind, code, message, ...said(text) };
}

/** A refund or cancel the bank refused: always refund_rejected, whatever the card-level reason. */
export function refundFailure(text: EstFailureText): Declined {
  return { status: 'declined', code: 'refund_rejected', message: text.errMsg || `EST answered ${text.procReturnCode}`, ...said(text) };
}

/** Whether an mdStatus means the shopper was authenticated (see the header). */
export function isAuthenticated(mdStatus: string | undefined): boolean {
  return mdStatus === '1';
}

/** A callback whose 3D Secure failed: the payment fails without a charge. */
export function threeDsFailure(mdStatus: string, mdErrorMsg: string): Declined {
  return {
    status: 'declined',
    code: '3ds_failed',
    message: mdErrorMsg || '3-D Secure authentication failed',
    providerCode: `mdStatus:${mdStatus}`,
    ...(mdErrorMsg ? { providerMessage: mdErrorMsg } : {}),
  };
}
